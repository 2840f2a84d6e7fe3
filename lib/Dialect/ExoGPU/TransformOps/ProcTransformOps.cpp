//===- ProcTransformOps.cpp - procs, calls and instructions ---------------===//
//
// Part of ExoGPU. The transform ops of ProcTransformOps.td: payload checks,
// then the rewrites of Scheduling/ProcRewrites.h.
//
//===----------------------------------------------------------------------===//

#include "ExoGPU/Dialect/ExoGPU/IR/Libraries.h"
#include "ExoGPU/Dialect/ExoGPU/TransformOps/ExoGPUTransformOps.h"
#include "ExoGPU/Transforms/Scheduling/ProcRewrites.h"
#include "ExoGPU/Transforms/Scheduling/StatementRewrites.h"
#include "HandleUtils.h"

using namespace mlir;
using namespace mlir::exogpu;

#define GET_OP_CLASSES
#include "ExoGPU/Dialect/ExoGPU/TransformOps/ProcTransformOps.cpp.inc"

DiagnosedSilenceableFailure
InlineOp::apply(transform::TransformRewriter &rewriter,
                transform::TransformResults &results,
                transform::TransformState &state) {
  CallOp call;
  if (DiagnosedSilenceableFailure diag =
          getSingle<CallOp>(*this, state, getTarget(), "a call", call);
      !diag.succeeded())
    return diag;
  Operation *proc = call->getParentOfType<ProcOp>();
  Refusal refusal;
  FailureOr<SmallVector<Operation *>> stmts =
      inlineCall(rewriter, call, refusal);
  if (failed(stmts))
    return refused(refusal, getLoc());
  setResultOps(results, getResult(), *stmts);
  return verifyRewritten(*this, proc);
}

DiagnosedSilenceableFailure
ExtractSubprocOp::apply(transform::TransformRewriter &rewriter,
                        transform::TransformResults &results,
                        transform::TransformState &state) {
  SmallVector<Operation *> block;
  if (DiagnosedSilenceableFailure diag =
          getStatementBlock(*this, state, getTarget(), block);
      !diag.succeeded())
    return diag;
  auto parent = block.front()->getParentOfType<ProcOp>();
  if (lookupSymbol(parent, getNameAttr()))
    return emitSilenceableError()
           << "a symbol named @" << getName() << " exists";
  Refusal refusal;
  FailureOr<std::pair<ProcOp, CallOp>> extracted =
      extractSubproc(rewriter, block, getName(), refusal);
  if (failed(extracted))
    return refused(refusal, getLoc());
  setResultOps(results, getProc(), {extracted->first});
  setResultOps(results, getCall(), {extracted->second});
  if (DiagnosedSilenceableFailure diag =
          verifyRewritten(*this, extracted->first);
      !diag.succeeded())
    return diag;
  return verifyRewritten(*this, parent);
}

void CopyProcOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  getEditEffects(*this, effects);
}

DiagnosedSilenceableFailure
CopyProcOp::apply(transform::TransformRewriter &rewriter,
                  transform::TransformResults &results,
                  transform::TransformState &state) {
  ProcOp proc;
  if (DiagnosedSilenceableFailure diag =
          getSingle<ProcOp>(*this, state, getTarget(), "a proc", proc);
      !diag.succeeded())
    return diag;
  Refusal refusal;
  FailureOr<ProcOp> copy = copyProc(rewriter, proc, getName(), refusal);
  if (failed(copy))
    return refused(refusal, getLoc());
  setResultOps(results, getResult(), {*copy});
  return DiagnosedSilenceableFailure::success();
}

void CallEqvOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  getEditEffects(*this, effects);
}

DiagnosedSilenceableFailure
CallEqvOp::apply(transform::TransformRewriter &rewriter,
                 transform::TransformResults &results,
                 transform::TransformState &state) {
  CallOp call;
  if (DiagnosedSilenceableFailure diag =
          getSingle<CallOp>(*this, state, getTarget(), "a call", call);
      !diag.succeeded())
    return diag;
  auto other =
      dyn_cast_or_null<ProcOp>(lookupSymbol(call, getProcAttr().getAttr()));
  if (!other)
    return emitSilenceableError() << "@" << getProc() << " is not a proc";
  Refusal refusal;
  if (failed(callEqv(rewriter, call, other, refusal)))
    return refused(refusal, getLoc());
  return verifyRewritten(*this, call->getParentOfType<ProcOp>());
}

DiagnosedSilenceableFailure
ReplaceOp::apply(transform::TransformRewriter &rewriter,
                 transform::TransformResults &results,
                 transform::TransformState &state) {
  SmallVector<Operation *> block;
  if (DiagnosedSilenceableFailure diag =
          getStatementBlock(*this, state, getTarget(), block);
      !diag.succeeded())
    return diag;
  auto instr = dyn_cast_or_null<InstrOp>(
      lookupSymbol(block.front(), getInstrAttr().getAttr()));
  if (!instr)
    return emitSilenceableError()
           << "@" << getInstr() << " is not an instruction (exogpu.instr)";
  Refusal refusal;
  SmallVector<std::pair<StringRef, ValueExpr>> given;
  if (DictionaryAttr args = getArgsAttr()) {
    for (NamedAttribute arg : args) {
      auto text = dyn_cast<StringAttr>(arg.getValue());
      if (!text)
        return emitSilenceableError()
               << "args: the value of '" << arg.getName().getValue()
               << "' must be an expression string";
      FailureOr<ValueExpr> expr =
          parseControlText(text.getValue(), block.front(), getLoc(), refusal);
      if (failed(expr))
        return refused(refusal, getLoc());
      given.push_back({arg.getName().getValue(), *expr});
    }
  }
  std::optional<ParsedAccess> barrier;
  if (getBarrier()) {
    FailureOr<ParsedAccess> parsed =
        parseAccessText(*getBarrier(), block.front(), getLoc(), refusal);
    if (failed(parsed))
      return refused(refusal, getLoc());
    barrier = *parsed;
  }
  Operation *proc = block.front()->getParentOfType<ProcOp>();
  FailureOr<CallOp> call = replaceWithInstr(
      rewriter, block, instr, given, barrier ? &*barrier : nullptr, refusal);
  if (failed(call))
    return refused(refusal, getLoc());
  setResultOps(results, getResult(), {*call});
  return verifyRewritten(*this, proc);
}

void ReportUnsafeStepsOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  transform::onlyReadsHandle(getTargetMutable(), effects);
  transform::onlyReadsPayload(effects);
}

DiagnosedSilenceableFailure
ReportUnsafeStepsOp::apply(transform::TransformRewriter &rewriter,
                           transform::TransformResults &results,
                           transform::TransformState &state) {
  for (Operation *root : state.getPayloadOps(getTarget())) {
    auto report = [](ProcOp proc) {
      int64_t count = 0;
      if (auto attr = proc->getAttrOfType<IntegerAttr>(kUnsafeStepsAttrName))
        count = attr.getInt();
      mlir::emitRemark(proc.getLoc())
          << "@" << proc.getSymName() << ": " << count << " unsafe step(s)";
    };
    if (auto proc = dyn_cast<ProcOp>(root)) {
      report(proc);
      continue;
    }
    // A statement or an expression holds no proc: a misused handle.
    if (root->getParentOfType<ProcOp>() || root->getParentOfType<InstrOp>()) {
      DiagnosedSilenceableFailure diag =
          emitSilenceableError() << "expected procs or ops holding procs, got '"
                                 << root->getName() << "'";
      diag.attachNote(root->getLoc()) << "payload op";
      return diag;
    }
    root->walk(report);
  }
  return DiagnosedSilenceableFailure::success();
}
