//===- RunBudget.cpp - the work and memory a run may take ----------------===//
//
// Part of ExoGPU. See RunBudget.h.
//
//===----------------------------------------------------------------------===//

#include "RunBudget.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/Process.h"
#include <algorithm>

using namespace mlir;
using namespace mlir::exoam;

/// Steps between two measurements of the heap: at least the first, at
/// most the second; in between, as many as it takes the heap to grow from
/// its last measurement to max-memory at kBytesPerStep a step. (glibc's
/// mallinfo walks every free chunk: measured every 16384 steps, it took a
/// fifth of the check of the attention kernel at S = 8192.)
static constexpr uint64_t kMinMemoryCheckInterval = 1 << 14;
static constexpr uint64_t kMaxMemoryCheckInterval = 1 << 20;
static constexpr uint64_t kBytesPerStep = 1024;

/// What the reference engine keeps, about, for an element it touched when
/// no other element shares its state: a map node with the element's index
/// and state, and a record (measured before states were shared: 25 MiB for
/// 16384 elements with one record each).
static constexpr uint64_t kReferenceBytesPerElement = 1024;

static constexpr uint64_t kMiB = 1 << 20;

LogicalResult RunBudget::step(Operation *op, uint64_t count) {
  steps = llvm::SaturatingAdd(steps, count);
  if (steps > maxSteps)
    return emitError(op->getLoc())
           << "the abstract machine has run " << steps
           << " steps (statements, replayed tasks, iterations run in bulk), "
              "more than max-steps="
           << maxSteps << "; raise max-steps or check smaller sizes";
  if (steps < nextMemoryCheck)
    return success();
  uint64_t used = llvm::sys::Process::GetMallocUsage();
  uint64_t usedMiB = used / kMiB;
  if (usedMiB <= maxMemoryMiB) {
    uint64_t limit = llvm::SaturatingMultiply(maxMemoryMiB, kMiB);
    uint64_t room = limit - std::min(used, limit);
    nextMemoryCheck = llvm::SaturatingAdd(
        steps, std::clamp(room / kBytesPerStep, kMinMemoryCheckInterval,
                          kMaxMemoryCheckInterval));
    return success();
  }
  return emitError(op->getLoc())
         << "the abstract machine's state has grown to " << usedMiB
         << " MiB of heap, more than max-memory=" << maxMemoryMiB
         << " (MiB); raise max-memory or check smaller sizes";
}

LogicalResult RunBudget::checkLoop(LoopOp loop, int64_t left,
                                   uint64_t lastSteps) {
  if (left <= 0)
    return success();
  uint64_t ahead = llvm::SaturatingMultiply(uint64_t(left), lastSteps);
  uint64_t total = llvm::SaturatingAdd(steps, ahead);
  if (total <= maxSteps)
    return success();
  return emitError(loop.getLoc())
         << "this loop has " << left
         << (left == 1 ? " iteration" : " iterations")
         << " left, which run one by one; at " << lastSteps
         << " steps each (as its last one), the abstract machine would take "
         << (total == std::numeric_limits<uint64_t>::max()
                 ? std::string("more than 2^64")
                 : "about " + std::to_string(total))
         << " steps in all, more than max-steps=" << maxSteps
         << "; raise max-steps or check smaller sizes";
}

LogicalResult RunBudget::checkReferenceAllocation(AllocOp alloc,
                                                  uint64_t elements,
                                                  uint64_t allElements) {
  uint64_t estimateMiB =
      llvm::SaturatingMultiply(allElements, kReferenceBytesPerElement) / kMiB;
  if (estimateMiB <= maxMemoryMiB)
    return success();
  return emitError(alloc.getLoc())
         << "the reference engine keeps a state per element it touches: with "
            "this allocation of "
         << elements << " elements, the variables have " << allElements
         << ", whose states could take about " << estimateMiB
         << " MiB, more than max-memory=" << maxMemoryMiB
         << " (MiB); use engine=box or raise max-memory";
}
