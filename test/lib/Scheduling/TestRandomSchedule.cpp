//===- TestRandomSchedule.cpp - random sequences of checked rewrites ------===//
//
// Part of ExoGPU (test support). For every proc of the module, adds a copy
// `NAME_scheduled` (copy_proc) and applies a random sequence of scheduling
// rewrites to it (RandomScheduler.h). The checked rewrites promise to
// preserve the sequential meaning or to refuse without changing the IR:
//  * a refused rewrite must leave the module exactly as it was (compared as
//    printed text) — an error otherwise;
//  * after an applied rewrite the module must verify — an error otherwise;
//  * the meaning of each copy must equal its original's, which the callers
//    check with exogpu-run --compare (test/Transforms/Scheduling/
//    random-schedules.mlir, utils/fuzz-schedules.py).
// A remark reports how many rewrites applied; `trace` adds one remark per
// attempted rewrite, so that a failing sequence can be replayed and cut
// short (`steps`).
//
//===----------------------------------------------------------------------===//

#include "ExoGPU/Dialect/ExoGPU/IR/ExoGPUOps.h"
#include "ExoGPU/Transforms/Scheduling/ProcRewrites.h"
#include "ExoGPU/Transforms/Scheduling/RewriteSupport.h"
#include "RandomScheduler.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::exogpu;

namespace {

/// The module as text, to compare before and after a refused rewrite.
std::string printModule(ModuleOp module) {
  std::string text;
  llvm::raw_string_ostream os(text);
  module.print(os, OpPrintingFlags().assumeVerified());
  return text;
}

struct TestRandomSchedulePass
    : PassWrapper<TestRandomSchedulePass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestRandomSchedulePass)

  TestRandomSchedulePass() = default;
  TestRandomSchedulePass(const TestRandomSchedulePass &other)
      : PassWrapper(other) {}

  StringRef getArgument() const final { return "exogpu-test-random-schedule"; }
  StringRef getDescription() const final {
    return "Apply random checked scheduling rewrites to a copy of each proc";
  }

  Option<unsigned> seed{*this, "seed", llvm::cl::desc("Random seed"),
                        llvm::cl::init(1)};
  Option<unsigned> steps{*this, "steps",
                         llvm::cl::desc("Rewrites tried per proc"),
                         llvm::cl::init(40)};
  Option<bool> trace{*this, "trace",
                     llvm::cl::desc("A remark per attempted rewrite"),
                     llvm::cl::init(false)};

  /// Schedules the copy of one proc; fails after reporting an error.
  LogicalResult schedule(ProcOp copy, unsigned procSeed) {
    ModuleOp module = getOperation();
    test::RandomScheduler scheduler(copy, procSeed);
    unsigned applied = 0;
    for (unsigned i = 0; i < steps; ++i) {
      std::string before = printModule(module);
      std::optional<test::RewriteAttempt> attempt = scheduler.step();
      if (!attempt)
        continue;
      if (trace)
        emitRemark(copy.getLoc())
            << "@" << copy.getSymName() << " step " << i << ": "
            << attempt->name << " " << attempt->detail
            << (attempt->applied ? "" : " (refused: " + attempt->reason + ")");
      if (failed(verifyWithSymbolUses(module))) {
        emitError(copy.getLoc())
            << "random schedule of @" << copy.getSymName() << ": step " << i
            << ", " << attempt->name << " " << attempt->detail << ", "
            << (attempt->applied ? "applied" : "refused")
            << ", left invalid IR";
        return failure();
      }
      if (!attempt->applied) {
        if (printModule(module) != before) {
          emitError(copy.getLoc())
              << "random schedule of @" << copy.getSymName() << ": step " << i
              << ", " << attempt->name << " " << attempt->detail
              << ", refused but changed the IR";
          return failure();
        }
        continue;
      }
      ++applied;
    }
    emitRemark(copy.getLoc())
        << "random schedule of @" << copy.getSymName() << ": " << applied
        << " of " << static_cast<unsigned>(steps) << " rewrites applied";
    return success();
  }

  void runOnOperation() override {
    SmallVector<ProcOp> procs(getOperation().getOps<ProcOp>());
    IRRewriter rewriter(&getContext());
    for (auto [index, proc] : llvm::enumerate(procs)) {
      Refusal refusal;
      FailureOr<ProcOp> copy = copyProc(
          rewriter, proc, (proc.getSymName() + "_scheduled").str(), refusal);
      if (failed(copy)) {
        emitError(proc.getLoc()) << "cannot copy the proc";
        return signalPassFailure();
      }
      // After a failure the module is no longer what the other procs'
      // schedules would start from.
      if (failed(schedule(*copy, seed + 7919 * index)))
        return signalPassFailure();
    }
  }
};
} // namespace

namespace mlir::exogpu {
/// Registers --exogpu-test-random-schedule.
void registerTestRandomSchedulePass() {
  PassRegistration<TestRandomSchedulePass>();
}
} // namespace mlir::exogpu
