//===- InterpretPass.cpp - run the abstract machine on exoam procs -------===//
//
// Part of ExoGPU. `--exoam-interpret="M=64,N=32"`: binds the parameters of
// every exoam.proc by name and runs the abstract machine (box engine by
// default; engine=reference for the oracle).
//
//===----------------------------------------------------------------------===//

#include "ExoGPU/AbstractMachine/Interpreter.h"
#include "ExoGPU/AbstractMachine/Passes.h"

namespace mlir::exoam {
#define GEN_PASS_DEF_EXOAMINTERPRET
#include "ExoGPU/AbstractMachine/Passes.h.inc"
} // namespace mlir::exoam

using namespace mlir;
using namespace mlir::exoam;

namespace {
struct ExoAMInterpretPass
    : public exoam::impl::ExoAMInterpretBase<ExoAMInterpretPass> {
  using ExoAMInterpretBase::ExoAMInterpretBase;

  /// Accepts `M=64,N=32` (or `M=64 N=32` inside a pipeline's braces) as
  /// shorthand for `args=M=64,N=32`.
  LogicalResult initializeOptions(
      StringRef options,
      function_ref<LogicalResult(const Twine &)> errorHandler) override {
    return Pass::initializeOptions(expandBindingShorthand(options),
                                   errorHandler);
  }

  void runOnOperation() override;
};
} // namespace

void ExoAMInterpretPass::runOnOperation() {
  ModuleOp module = getOperation();
  FailureOr<Bindings> bindings = parseBindings(module, getArgument(), args);
  if (failed(bindings))
    return signalPassFailure();
  std::optional<Engine> engineKind = parseEngine(engine);
  if (!engineKind) {
    emitError(module.getLoc()) << getArgument() << ": unknown engine '"
                               << engine << "' (expected box or reference)";
    return signalPassFailure();
  }
  InterpretOptions interpretOptions{*engineKind, replayTasks, bulkLoops,
                                    replayRemarks};
  interpretOptions.progressSeconds = progressSeconds;
  interpretOptions.maxSteps = maxSteps;
  interpretOptions.maxMemoryMiB = maxMemory;
  bool ok = true;
  module.walk([&](ProcOp proc) {
    FailureOr<SmallVector<int64_t>> values =
        bindParams(proc, *bindings, getArgument());
    ok &= succeeded(values) &&
          succeeded(interpretProc(proc, *values, interpretOptions));
  });
  if (!ok)
    signalPassFailure();
}
