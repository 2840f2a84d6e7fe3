//===- RunBudget.h - the work and memory a run may take ---------*- C++ -*-===//
//
// Part of ExoGPU. Limits on one run of the abstract machine (the max-steps
// and max-memory options of --exogpu-sync-check and --exoam-interpret), so
// that work that cannot finish is refused with a diagnostic rather than run
// until killed or until the process runs out of memory
// (docs/abstract-machine.md "Inputs the check refuses, and long runs").
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_LIB_ABSTRACTMACHINE_RUNBUDGET_H
#define EXOGPU_LIB_ABSTRACTMACHINE_RUNBUDGET_H

#include "ExoGPU/Dialect/ExoAM/IR/ExoAMOps.h"

namespace mlir::exoam {

/// Counts the *steps* of a run (a statement run, a task replayed, a batch of
/// loop iterations applied at once) against `maxSteps`, measures the
/// process's heap against `maxMemoryMiB` now and then, and estimates work
/// and memory ahead: the iterations a loop has left, the states the
/// reference engine may keep for an allocation.
class RunBudget {
public:
  RunBudget(uint64_t maxSteps, uint64_t maxMemoryMiB)
      : maxSteps(maxSteps), maxMemoryMiB(maxMemoryMiB) {}

  /// `count` more steps, taken by `op`: an error at `op` once the run has
  /// taken more than max-steps, or when the heap, measured at the first step
  /// and then every 2^14 to 2^20 steps (the more, the farther it is from
  /// max-memory), has grown past max-memory.
  LogicalResult step(Operation *op, uint64_t count = 1);
  uint64_t getSteps() const { return steps; }

  /// Before `loop` runs its `left` remaining iterations one by one, each
  /// taking about the steps its last one took (`lastSteps`): an error at the
  /// loop, with the estimate, if they would take the run past max-steps.
  LogicalResult checkLoop(LoopOp loop, int64_t left, uint64_t lastSteps);

  /// An ALLOC of `elements` elements under the reference engine, which keeps
  /// a state per element it touches, when the variables allocated so far
  /// have `allElements` elements: an error at `alloc`, with the estimate, if
  /// their states could take more than max-memory.
  LogicalResult checkReferenceAllocation(AllocOp alloc, uint64_t elements,
                                         uint64_t allElements);

private:
  uint64_t maxSteps, maxMemoryMiB;
  uint64_t steps = 0;
  /// The step count at which the heap is measured next.
  uint64_t nextMemoryCheck = 0;
};

} // namespace mlir::exoam

#endif // EXOGPU_LIB_ABSTRACTMACHINE_RUNBUDGET_H
