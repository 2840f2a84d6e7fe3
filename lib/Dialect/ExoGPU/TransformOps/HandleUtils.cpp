//===- HandleUtils.cpp - payload checks of transform.exogpu ops ----------===//
//
// Part of ExoGPU. See HandleUtils.h.
//
//===----------------------------------------------------------------------===//

#include "HandleUtils.h"
#include "ExoGPU/Transforms/Scheduling/RewriteSupport.h"
#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/Verifier.h"

using namespace mlir;
using namespace mlir::exogpu;

bool mlir::exogpu::isProcStatement(Operation *op) {
  if (!isa<ForOp, IfOp, DeviceFunctionOp, WarpsOp, AssignOp, ReduceOp, CallOp,
           AllocOp, FreeOp, WindowOp, SplitOp, FenceOp, ArriveOp, AwaitOp>(op))
    return false;
  return op->getParentOfType<ProcOp>() && !op->getParentOfType<InstrOp>();
}

DiagnosedSilenceableFailure mlir::exogpu::getSingleStatement(
    transform::TransformOpInterface self, transform::TransformState &state,
    Value handle, StringRef what, function_ref<bool(Operation *)> accept,
    Operation *&result) {
  auto payload = llvm::to_vector(state.getPayloadOps(handle));
  if (payload.size() != 1) {
    DiagnosedSilenceableFailure diag = self.emitSilenceableError()
                                       << "expected one payload (" << what
                                       << "), got " << payload.size();
    if (payload.empty())
      diag.attachNote() << "the handle is empty: its statement was erased by "
                           "an earlier rewrite, or never matched";
    return diag;
  }
  Operation *op = payload.front();
  bool inProc = isa<ProcOp>(op) || (op->getParentOfType<ProcOp>() &&
                                    !op->getParentOfType<InstrOp>());
  if (!inProc) {
    DiagnosedSilenceableFailure diag = self.emitSilenceableError()
                                       << "expected " << what
                                       << " in an exogpu.proc, got '"
                                       << op->getName() << "'";
    diag.attachNote(op->getLoc()) << "payload op";
    return diag;
  }
  if (!accept(op)) {
    DiagnosedSilenceableFailure diag = self.emitSilenceableError()
                                       << "expected " << what << ", got '"
                                       << op->getName() << "'";
    diag.attachNote(op->getLoc()) << "payload op";
    return diag;
  }
  result = op;
  return DiagnosedSilenceableFailure::success();
}

DiagnosedSilenceableFailure
mlir::exogpu::getStatementBlock(transform::TransformOpInterface self,
                                transform::TransformState &state, Value handle,
                                SmallVectorImpl<Operation *> &block) {
  auto payload = llvm::to_vector(state.getPayloadOps(handle));
  if (payload.empty()) {
    DiagnosedSilenceableFailure diag =
        self.emitSilenceableError() << "expected one or more statements, got "
                                       "an empty handle";
    diag.attachNote() << "its statements were erased by an earlier rewrite, "
                         "or never matched";
    return diag;
  }
  for (Operation *op : payload) {
    if (!isProcStatement(op)) {
      DiagnosedSilenceableFailure diag =
          self.emitSilenceableError()
          << "expected statements of an exogpu.proc, got '" << op->getName()
          << "'";
      diag.attachNote(op->getLoc()) << "payload op";
      return diag;
    }
    if (op->getBlock() != payload.front()->getBlock()) {
      DiagnosedSilenceableFailure diag =
          self.emitSilenceableError()
          << "expected consecutive statements of one block";
      diag.attachNote(op->getLoc()) << "this statement is in another block";
      return diag;
    }
  }
  llvm::sort(payload,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  for (unsigned i = 1; i < payload.size(); ++i) {
    if (payload[i - 1]->getNextNode() != payload[i]) {
      DiagnosedSilenceableFailure diag =
          self.emitSilenceableError()
          << "expected consecutive statements of one block";
      diag.attachNote(payload[i]->getLoc())
          << "a statement between this one and the previous one is missing";
      return diag;
    }
  }
  block.assign(payload.begin(), payload.end());
  return DiagnosedSilenceableFailure::success();
}

DiagnosedSilenceableFailure
mlir::exogpu::checkSameProc(transform::TransformOpInterface self, Operation *a,
                            Operation *b) {
  if (a->getParentOfType<ProcOp>() == b->getParentOfType<ProcOp>())
    return DiagnosedSilenceableFailure::success();
  DiagnosedSilenceableFailure diag = self.emitSilenceableError()
                                     << "expected statements of the same proc";
  diag.attachNote(a->getLoc()) << "first statement";
  diag.attachNote(b->getLoc()) << "second statement, in another proc";
  return diag;
}

DiagnosedSilenceableFailure mlir::exogpu::refused(Refusal &refusal,
                                                  Location fallback) {
  return DiagnosedSilenceableFailure::silenceableFailure(
      refusal.take(fallback));
}

DiagnosedSilenceableFailure
mlir::exogpu::runRewrite(transform::TransformOpInterface self, Operation *proc,
                         function_ref<LogicalResult(Refusal &)> rewrite) {
  Refusal refusal;
  if (failed(rewrite(refusal)))
    return refused(refusal, self->getLoc());
  return verifyRewritten(self, proc);
}

DiagnosedSilenceableFailure
mlir::exogpu::verifyRewritten(transform::TransformOpInterface self,
                              Operation *proc) {
  if (!proc || succeeded(verifyWithSymbolUses(proc)))
    return DiagnosedSilenceableFailure::success();
  return self.emitDefiniteFailure()
         << "internal error: the rewrite produced invalid IR (see the "
            "verifier errors above)";
}

void mlir::exogpu::setResultOps(transform::TransformResults &results,
                                Value result, ArrayRef<Operation *> ops) {
  SmallVector<Operation *> present;
  for (Operation *op : ops)
    if (op)
      present.push_back(op);
  results.set(cast<OpResult>(result), present);
}

void mlir::exogpu::getEditEffects(
    Operation *op, SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  transform::onlyReadsHandle(op->getOpOperands(), effects);
  transform::producesHandle(op->getOpResults(), effects);
  transform::modifiesPayload(effects);
}

MemoryAttr mlir::exogpu::parseMemoryName(MLIRContext *ctx, StringRef text) {
  // Parse quietly: the verifier reports a bad name at the transform op.
  ScopedDiagnosticHandler quiet(ctx, [](Diagnostic &) { return success(); });
  text.consume_front("@");
  return dyn_cast_or_null<MemoryAttr>(
      parseAttribute(("#exogpu.mem<@" + text + ">").str(), ctx));
}

LogicalResult mlir::exogpu::verifyMemoryName(Operation *op, StringRef text) {
  if (parseMemoryName(op->getContext(), text))
    return success();
  return op->emitOpError() << "'" << text
                           << "' is not an exogpu memory (Fig. 12)";
}
