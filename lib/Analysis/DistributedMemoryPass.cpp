//===- DistributedMemoryPass.cpp - --exogpu-distributed-memory -----------===//
//
// Part of ExoGPU. Runs the distributed memory deduction (seeds/002 Sec. 4.1)
// on every proc, reports its errors and optionally the deduced layouts.
//
//===----------------------------------------------------------------------===//

#include "ExoGPU/Analysis/DistributedMemory.h"
#include "ExoGPU/Analysis/Passes.h"
#include "ExoGPU/Dialect/ExoGPU/IR/ExoGPUOps.h"

namespace mlir::exogpu {
#define GEN_PASS_DEF_DISTRIBUTEDMEMORYPASS
#include "ExoGPU/Analysis/Passes.h.inc"
} // namespace mlir::exogpu

using namespace mlir;
using namespace mlir::exogpu;

namespace {
struct DistributedMemoryPass
    : public exogpu::impl::DistributedMemoryPassBase<DistributedMemoryPass> {
  using Base::Base;

  void runOnOperation() override {
    bool foundErrors = false;
    for (ProcOp proc : getOperation().getOps<ProcOp>()) {
      // Uses without a tiling are skipped by the deduction, so the
      // collective analysis errors are reported here too.
      const auto &collective = getChildAnalysis<CollectiveAnalysis>(proc);
      const auto &memory = getChildAnalysis<DistributedMemoryAnalysis>(proc);
      emitDiagnostics(collective.getDiagnostics());
      emitDiagnostics(memory.getDiagnostics());
      foundErrors |= !collective.getDiagnostics().empty() ||
                     !memory.getDiagnostics().empty();
      if (!emitRemarks)
        continue;
      proc.walk([&](AllocOp alloc) {
        const DistributedLayout *layout = memory.lookup(alloc.getResult());
        if (!layout)
          return;
        std::string text;
        llvm::raw_string_ostream os(text);
        layout->print(os);
        mlir::emitRemark(alloc.getLoc(), text);
      });
    }
    if (foundErrors)
      signalPassFailure();
    markAllAnalysesPreserved();
  }
};
} // namespace
