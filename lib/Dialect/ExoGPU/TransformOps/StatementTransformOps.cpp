//===- StatementTransformOps.cpp - checked statement rewrites -------------===//
//
// Part of ExoGPU. The transform ops of StatementTransformOps.td: payload
// checks, then the rewrites of Scheduling/StatementRewrites.h.
//
//===----------------------------------------------------------------------===//

#include "ExoGPU/Dialect/ExoGPU/TransformOps/ExoGPUTransformOps.h"
#include "ExoGPU/Transforms/Scheduling/StatementRewrites.h"
#include "HandleUtils.h"

using namespace mlir;
using namespace mlir::exogpu;

#define GET_OP_CLASSES
#include "ExoGPU/Dialect/ExoGPU/TransformOps/StatementTransformOps.cpp.inc"

/// Whether `op` is an operation of a data expression.
static bool isExpression(Operation *op) {
  return isDataExpressionOp(op) && op->getParentOfType<ProcOp>() &&
         !op->getParentOfType<InstrOp>();
}

void ReorderStmtsOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  getEditEffects(*this, effects);
}

DiagnosedSilenceableFailure
ReorderStmtsOp::apply(transform::TransformRewriter &rewriter,
                      transform::TransformResults &results,
                      transform::TransformState &state) {
  Operation *first = nullptr, *second = nullptr;
  if (DiagnosedSilenceableFailure diag = getSingleStatement(
          *this, state, getFirst(), "a statement", isProcStatement, first);
      !diag.succeeded())
    return diag;
  if (DiagnosedSilenceableFailure diag = getSingleStatement(
          *this, state, getSecond(), "a statement", isProcStatement, second);
      !diag.succeeded())
    return diag;
  if (DiagnosedSilenceableFailure diag = checkSameProc(*this, first, second);
      !diag.succeeded())
    return diag;
  Refusal refusal;
  if (failed(reorderStmts(rewriter, first, second, refusal)))
    return refused(refusal, getLoc());
  return verifyRewritten(*this, first->getParentOfType<ProcOp>());
}

LogicalResult BindExprOp::verify() {
  return success(!getMemory() ||
                 succeeded(verifyMemoryName(*this, *getMemory())));
}

DiagnosedSilenceableFailure
BindExprOp::apply(transform::TransformRewriter &rewriter,
                  transform::TransformResults &results,
                  transform::TransformState &state) {
  Operation *expr = nullptr;
  if (DiagnosedSilenceableFailure diag = getSingleStatement(
          *this, state, getTarget(), "a data expression", isExpression, expr);
      !diag.succeeded())
    return diag;
  MemoryAttr memory =
      getMemory() ? parseMemoryName(getContext(), *getMemory()) : MemoryAttr();
  Operation *proc = expr->getParentOfType<ProcOp>();
  Refusal refusal;
  FailureOr<std::pair<AllocOp, AssignOp>> bound =
      bindExpr(rewriter, expr, getName(), memory, refusal);
  if (failed(bound))
    return refused(refusal, getLoc());
  setResultOps(results, getAlloc(), {bound->first});
  setResultOps(results, getAssign(), {bound->second});
  return verifyRewritten(*this, proc);
}

void RewriteExprOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  getEditEffects(*this, effects);
}

DiagnosedSilenceableFailure
RewriteExprOp::apply(transform::TransformRewriter &rewriter,
                     transform::TransformResults &results,
                     transform::TransformState &state) {
  Operation *op = nullptr;
  if (DiagnosedSilenceableFailure diag = getSingleStatement(
          *this, state, getTarget(), "a statement or a read",
          [](Operation *op) { return isProcStatement(op) || isa<ReadOp>(op); },
          op);
      !diag.succeeded())
    return diag;
  Refusal refusal;
  FailureOr<ValueExpr> expr =
      parseControlText(getExpr(), op, getLoc(), refusal);
  if (failed(expr) ||
      failed(rewriteExpr(rewriter, op, getIndex(), *expr, refusal)))
    return refused(refusal, getLoc());
  return verifyRewritten(*this, op->getParentOfType<ProcOp>());
}

DiagnosedSilenceableFailure
InlineAssignOp::apply(transform::TransformRewriter &rewriter,
                      transform::TransformResults &results,
                      transform::TransformState &state) {
  AssignOp assign;
  if (DiagnosedSilenceableFailure diag =
          getSingle<AssignOp>(*this, state, getTarget(), "an assign", assign);
      !diag.succeeded())
    return diag;
  Operation *proc = assign->getParentOfType<ProcOp>();
  Refusal refusal;
  if (failed(inlineAssign(rewriter, assign, refusal)))
    return refused(refusal, getLoc());
  return verifyRewritten(*this, proc);
}

void CommuteExprOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  getEditEffects(*this, effects);
}

DiagnosedSilenceableFailure
CommuteExprOp::apply(transform::TransformRewriter &rewriter,
                     transform::TransformResults &results,
                     transform::TransformState &state) {
  Operation *expr = nullptr;
  if (DiagnosedSilenceableFailure diag = getSingleStatement(
          *this, state, getTarget(), "a data expression", isExpression, expr);
      !diag.succeeded())
    return diag;
  Refusal refusal;
  if (failed(commuteExpr(rewriter, expr, refusal)))
    return refused(refusal, getLoc());
  return DiagnosedSilenceableFailure::success();
}

void SimplifyOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  getEditEffects(*this, effects);
}

DiagnosedSilenceableFailure
SimplifyOp::apply(transform::TransformRewriter &rewriter,
                  transform::TransformResults &results,
                  transform::TransformState &state) {
  // Statements and procs, or every proc nested in other payload ops.
  SmallVector<Operation *> roots;
  for (Operation *op : state.getPayloadOps(getTarget())) {
    if (isa<ProcOp>(op) || isProcStatement(op)) {
      roots.push_back(op);
    } else if (op->getParentOfType<ProcOp>() ||
               op->getParentOfType<InstrOp>()) {
      // An expression, or a statement of an instruction body.
      DiagnosedSilenceableFailure diag =
          emitSilenceableError()
          << "expected procs, statements of a proc or ops holding procs, got '"
          << op->getName() << "'";
      diag.attachNote(op->getLoc()) << "payload op";
      return diag;
    } else {
      op->walk([&](ProcOp proc) { roots.push_back(proc); });
    }
  }
  for (Operation *op : roots) {
    auto proc = dyn_cast<ProcOp>(op);
    if (!proc)
      proc = op->getParentOfType<ProcOp>();
    simplify(rewriter, op);
    if (DiagnosedSilenceableFailure diag = verifyRewritten(*this, proc);
        !diag.succeeded())
      return diag;
  }
  return DiagnosedSilenceableFailure::success();
}

DiagnosedSilenceableFailure
EliminateDeadCodeOp::apply(transform::TransformRewriter &rewriter,
                           transform::TransformResults &results,
                           transform::TransformState &state) {
  Operation *op = nullptr;
  if (DiagnosedSilenceableFailure diag = getSingleStatement(
          *this, state, getTarget(), "a loop or guard",
          [](Operation *op) { return isa<ForOp, IfOp>(op); }, op);
      !diag.succeeded())
    return diag;
  Operation *proc = op->getParentOfType<ProcOp>();
  Refusal refusal;
  FailureOr<SmallVector<Operation *>> left =
      eliminateDeadCode(rewriter, op, refusal);
  if (failed(left))
    return refused(refusal, getLoc());
  setResultOps(results, getResult(), *left);
  return verifyRewritten(*this, proc);
}

DiagnosedSilenceableFailure
RemoveIfOp::apply(transform::TransformRewriter &rewriter,
                  transform::TransformResults &results,
                  transform::TransformState &state) {
  IfOp guard;
  if (DiagnosedSilenceableFailure diag =
          getSingle<IfOp>(*this, state, getTarget(), "a guard", guard);
      !diag.succeeded())
    return diag;
  Operation *proc = guard->getParentOfType<ProcOp>();
  Refusal refusal;
  FailureOr<SmallVector<Operation *>> body =
      removeIf(rewriter, guard, getUnsafe(), refusal);
  if (failed(body))
    return refused(refusal, getLoc());
  setResultOps(results, getResult(), *body);
  return verifyRewritten(*this, proc);
}
