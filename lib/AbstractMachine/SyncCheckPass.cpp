//===- SyncCheckPass.cpp - --exogpu-sync-check ----------------------------===//
//
// Part of ExoGPU. The synchronization check (seeds/002 Sec. 5): frees,
// collective analysis, translation to AMIR and abstract machine
// interpretation at concrete sizes, on a copy of the module.
//
//===----------------------------------------------------------------------===//

#include "ExoGPU/AbstractMachine/Interpreter.h"
#include "ExoGPU/AbstractMachine/Passes.h"
#include "ExoGPU/Analysis/DistributedMemory.h"
#include "ExoGPU/Conversion/ExoGPUToExoAM.h"
#include "ExoGPU/Transforms/InsertFrees.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::exoam {
#define GEN_PASS_DEF_EXOGPUSYNCCHECK
#include "ExoGPU/AbstractMachine/Passes.h.inc"
} // namespace mlir::exoam

using namespace mlir;
using namespace mlir::exoam;

namespace {
struct SyncCheckPass : public exoam::impl::ExoGPUSyncCheckBase<SyncCheckPass> {
  using ExoGPUSyncCheckBase::ExoGPUSyncCheckBase;

  /// Accepts `M=64,N=32,proc=gemm` as shorthand for
  /// `args=M=64,N=32 proc=gemm`.
  LogicalResult initializeOptions(
      StringRef options,
      function_ref<LogicalResult(const Twine &)> errorHandler) override {
    return Pass::initializeOptions(expandBindingShorthand(options),
                                   errorHandler);
  }

  void runOnOperation() override;
};
} // namespace

/// The procs to check: `name`, or every proc that no proc calls.
static FailureOr<SmallVector<exogpu::ProcOp>> selectProcs(ModuleOp module,
                                                          StringRef name) {
  SmallVector<exogpu::ProcOp> procs;
  if (!name.empty()) {
    auto proc = SymbolTable::lookupNearestSymbolFrom<exogpu::ProcOp>(
        module, StringAttr::get(module.getContext(), name));
    if (!proc)
      return emitError(module.getLoc(), "exogpu-sync-check: no proc named '")
             << name << "'";
    procs.push_back(proc);
    return procs;
  }
  DenseSet<StringRef> called;
  module.walk([&](exogpu::CallOp call) { called.insert(call.getCallee()); });
  for (auto proc : module.getOps<exogpu::ProcOp>())
    if (!called.contains(proc.getSymName()))
      procs.push_back(proc);
  return procs;
}

void SyncCheckPass::runOnOperation() {
  ModuleOp module = getOperation();
  FailureOr<llvm::StringMap<int64_t>> bindings =
      parseBindings(module, getArgument(), args);
  if (failed(bindings))
    return signalPassFailure();

  std::optional<Engine> engineKind = parseEngine(engine);
  if (!engineKind) {
    emitError(module.getLoc()) << getArgument() << ": unknown engine '"
                               << engine << "' (expected box or reference)";
    return signalPassFailure();
  }
  OwningOpRef<ModuleOp> copy = module.clone();
  exogpu::insertFrees(*copy);
  exogpu::CollectiveAnalysis analysis(*copy);
  if (!analysis.getDiagnostics().empty()) {
    exogpu::emitDiagnostics(analysis.getDiagnostics());
    return signalPassFailure();
  }
  // Distributed memory deduction checks who may access each shard (Sec.
  // 4.1), which the abstract machine takes for granted.
  exogpu::DistributedMemoryAnalysis distribution(*copy, analysis);
  if (!distribution.getDiagnostics().empty()) {
    exogpu::emitDiagnostics(distribution.getDiagnostics());
    return signalPassFailure();
  }
  FailureOr<SmallVector<exogpu::ProcOp>> procs = selectProcs(*copy, procName);
  if (failed(procs))
    return signalPassFailure();

  OwningOpRef<ModuleOp> machine = ModuleOp::create(module.getLoc());
  OpBuilder builder = OpBuilder::atBlockEnd(machine->getBody());
  bool ok = true;
  for (exogpu::ProcOp proc : *procs) {
    FailureOr<ProcOp> amProc =
        exogpu::convertProcToExoAM(proc, analysis, builder);
    if (failed(amProc)) {
      ok = false;
      continue;
    }
    FailureOr<SmallVector<int64_t>> values =
        bindParams(*amProc, *bindings, getArgument());
    ok &= succeeded(values) &&
          succeeded(interpretProc(
              *amProc, *values,
              {*engineKind, replayTasks, bulkLoops, replayRemarks}));
  }
  if (!ok)
    signalPassFailure();
}
