//===- ConvertPass.cpp - --convert-exogpu-to-exoam -----------------------===//
//
// Part of ExoGPU. Replaces the exogpu procs of a module by their abstract
// machine translation (seeds/002 Sec. 5.2).
//
//===----------------------------------------------------------------------===//

#include "ExoGPU/Conversion/ExoGPUToExoAM.h"
#include "ExoGPU/Conversion/Passes.h"
#include "mlir/IR/Builders.h"

namespace mlir::exogpu {
#define GEN_PASS_DEF_CONVERTEXOGPUTOEXOAM
#include "ExoGPU/Conversion/Passes.h.inc"
} // namespace mlir::exogpu

using namespace mlir;
using namespace mlir::exogpu;

namespace {
struct ConvertExoGPUToExoAMPass
    : public exogpu::impl::ConvertExoGPUToExoAMBase<ConvertExoGPUToExoAMPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    CollectiveAnalysis analysis(module);
    if (!analysis.getDiagnostics().empty()) {
      emitDiagnostics(analysis.getDiagnostics());
      return signalPassFailure();
    }
    SmallVector<Operation *> sources;
    for (Operation &op : module.getBody()->getOperations())
      if (isa<ProcOp, InstrOp>(op))
        sources.push_back(&op);
    OpBuilder builder = OpBuilder::atBlockEnd(module.getBody());
    bool ok = true;
    for (Operation *op : sources)
      if (auto proc = dyn_cast<ProcOp>(op))
        ok &= succeeded(convertProcToExoAM(proc, analysis, builder));
    if (!ok)
      return signalPassFailure();
    for (Operation *op : sources)
      op->erase();
  }
};
} // namespace
