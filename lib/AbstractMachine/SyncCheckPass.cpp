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
#include "ExoGPU/Dialect/ExoGPU/IR/Libraries.h"
#include "ExoGPU/Transforms/InsertFrees.h"
#include "SyncRepair.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/StringExtras.h"

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

/// The procs of `program` (the linked copy of `source`) to check: `name`,
/// or every proc of `source` itself that no proc calls.
static FailureOr<SmallVector<exogpu::ProcOp>>
selectProcs(ModuleOp program, ModuleOp source, StringRef name) {
  SmallVector<exogpu::ProcOp> procs;
  if (!name.empty()) {
    auto proc = SymbolTable::lookupNearestSymbolFrom<exogpu::ProcOp>(
        program, StringAttr::get(program.getContext(), name));
    if (!proc)
      return emitError(program.getLoc(), "exogpu-sync-check: no proc named '")
             << name << "'";
    procs.push_back(proc);
    return procs;
  }
  DenseSet<StringRef> called;
  program.walk([&](exogpu::CallOp call) { called.insert(call.getCallee()); });
  SymbolTable symbols(program);
  for (auto proc : source.getOps<exogpu::ProcOp>())
    if (!called.contains(proc.getSymName()))
      procs.push_back(symbols.lookup<exogpu::ProcOp>(proc.getSymName()));
  // Procs that all call each other (recursion) leave nothing to start from.
  if (procs.empty() && !source.getOps<exogpu::ProcOp>().empty())
    return emitError(program.getLoc(),
                     "exogpu-sync-check: every proc is called by another "
                     "(a recursive call?): nothing to check; name one with "
                     "proc=NAME");
  return procs;
}

/// Reports bindings that name no control parameter of `procs` (a misspelt
/// name would leave its parameter unbound or its value unused), and negative
/// values of their `size` parameters (an extent is never negative).
static LogicalResult checkBindings(ModuleOp module, StringRef passName,
                                   const Bindings &bindings,
                                   ArrayRef<exogpu::ProcOp> procs) {
  SmallVector<StringRef> names;
  for (exogpu::ProcOp proc : procs)
    for (unsigned i = 0, e = proc.getNumParams(); i < e; ++i) {
      if (proc.getParamKind(i) == exogpu::ParamKind::data)
        continue;
      StringRef name = cast<StringAttr>(proc.getArgNames()[i]).getValue();
      names.push_back(name);
      auto it = bindings.find(name);
      if (proc.getParamKind(i) == exogpu::ParamKind::size &&
          it != bindings.end() && it->second.value < 0)
        return emitError(proc.getLoc())
               << passName << ": size parameter '" << name
               << "' must not be negative, got " << it->second.value;
    }
  for (const auto &binding : bindings)
    if (!llvm::is_contained(names, binding.getKey())) {
      // At the first proc checked: the module has no line of its own.
      Location at = procs.empty() ? module.getLoc() : procs.front()->getLoc();
      return emitError(at) << passName
                           << ": no proc it checks has a parameter named '"
                           << binding.getKey() << "' (the parameters: "
                           << (names.empty() ? "none" : llvm::join(names, ", "))
                           << ")";
    }
  return success();
}

void SyncCheckPass::runOnOperation() {
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
  // The whole program: the definitions the imports bring are checked (and
  // inlined) like the module's own.
  OwningOpRef<ModuleOp> copy = module.clone();
  if (failed(exogpu::linkImports(*copy)))
    return signalPassFailure();
  exogpu::insertFrees(*copy);
  FailureOr<SmallVector<exogpu::ProcOp>> procs =
      selectProcs(*copy, module, procName);
  if (failed(procs) ||
      failed(checkBindings(*copy, getArgument(), *bindings, *procs)))
    return signalPassFailure();
  SmallVector<std::string> names = llvm::map_to_vector(
      *procs, [](exogpu::ProcOp proc) { return proc.getSymName().str(); });

  InterpretOptions interpretOptions{*engineKind, replayTasks, bulkLoops,
                                    replayRemarks};
  interpretOptions.progressSeconds = progressSeconds;
  interpretOptions.maxSteps = maxSteps;
  interpretOptions.maxMemoryMiB = maxMemory;
  std::optional<HazardReport> hazard;
  interpretOptions.hazard = &hazard;
  // The run's diagnostics wait, so that a repair can join the hazard's.
  MLIRContext *context = module.getContext();
  SmallVector<Diagnostic> held;
  LogicalResult result = failure();
  {
    ScopedDiagnosticHandler hold(context, [&](Diagnostic &diag) {
      held.push_back(std::move(diag));
      return success();
    });
    result =
        checkProgram(*copy, names, *bindings, getArgument(), interpretOptions);
  }
  if (failed(result) && hazard && repair) {
    std::optional<std::string> found = findSyncRepair(
        *copy, names, *bindings, getArgument(), interpretOptions, *hazard);
    auto error = llvm::find_if(held, [&](const Diagnostic &diag) {
      return diag.getSeverity() == DiagnosticSeverity::Error &&
             diag.getLocation() == hazard->later;
    });
    // Part of the error itself: a repair is no separate finding.
    if (found && error != held.end())
      *error << "; " << *found;
  }
  for (Diagnostic &diag : held)
    context->getDiagEngine().emit(std::move(diag));
  if (failed(result))
    signalPassFailure();
}
