//===- InterpretPass.cpp - run the abstract machine on exoam procs -------===//
//
// Part of ExoGPU. `--exoam-interpret="M=64,N=32"`: binds the parameters of
// every exoam.proc by name and runs the reference abstract machine.
//
//===----------------------------------------------------------------------===//

#include "ExoGPU/AbstractMachine/Interpreter.h"
#include "ExoGPU/AbstractMachine/Passes.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"

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
    StringRef trimmed = options.trim();
    if (trimmed.empty() || trimmed.starts_with("args="))
      return Pass::initializeOptions(options, errorHandler);
    SmallVector<StringRef> items;
    SplitString(trimmed, items, ", \t\n");
    return Pass::initializeOptions("args=" + llvm::join(items, ","),
                                   errorHandler);
  }

  void runOnOperation() override;
};
} // namespace

/// Parses `name=value` bindings; reports malformed ones on `module`.
static FailureOr<llvm::StringMap<int64_t>>
parseBindings(ModuleOp module, ArrayRef<std::string> items) {
  llvm::StringMap<int64_t> bindings;
  for (StringRef item : items) {
    auto [name, text] = item.split('=');
    int64_t value;
    if (text == "true")
      value = 1;
    else if (text == "false")
      value = 0;
    else if (name.empty() || text.getAsInteger(10, value))
      return module.emitError("exoam-interpret: expected name=integer, got '")
             << item << "'";
    if (!bindings.insert({name, value}).second)
      return module.emitError("exoam-interpret: '")
             << name << "' is given twice";
  }
  return bindings;
}

/// The values of `proc`'s parameters, in order.
static FailureOr<SmallVector<int64_t>>
bindParams(ProcOp proc, const llvm::StringMap<int64_t> &bindings) {
  SmallVector<int64_t> args;
  for (auto [param, name] :
       llvm::zip(proc.getBody().getArguments(),
                 proc.getArgNames().getAsRange<StringAttr>())) {
    auto it = bindings.find(name.getValue());
    if (it == bindings.end())
      return proc.emitError("exoam-interpret: no value for parameter '")
             << name.getValue() << "' (pass " << name.getValue() << "=...)";
    if (param.getType().isInteger(1) && it->second != 0 && it->second != 1)
      return proc.emitError("exoam-interpret: bool parameter '")
             << name.getValue() << "' takes true, false, 1 or 0";
    args.push_back(it->second);
  }
  return args;
}

void ExoAMInterpretPass::runOnOperation() {
  ModuleOp module = getOperation();
  FailureOr<llvm::StringMap<int64_t>> bindings = parseBindings(module, args);
  if (failed(bindings))
    return signalPassFailure();
  bool ok = true;
  module.walk([&](ProcOp proc) {
    FailureOr<SmallVector<int64_t>> values = bindParams(proc, *bindings);
    ok &= succeeded(values) && succeeded(interpretProc(proc, *values));
  });
  if (!ok)
    signalPassFailure();
}
