//===- LoopTransformOps.cpp - checked loop rewrites -----------------------===//
//
// Part of ExoGPU. The transform ops of LoopTransformOps.td: payload checks,
// then the rewrites of ExoGPU/Transforms/Scheduling/LoopRewrites.h.
//
//===----------------------------------------------------------------------===//

#include "ExoGPU/Dialect/ExoGPU/TransformOps/ExoGPUTransformOps.h"
#include "ExoGPU/Transforms/Scheduling/LoopRewrites.h"
#include "HandleUtils.h"

using namespace mlir;
using namespace mlir::exogpu;

#define GET_OP_CLASSES
#include "ExoGPU/Dialect/ExoGPU/TransformOps/LoopTransformOps.cpp.inc"

/// Gets the single loop of `handle` or returns its silenceable failure.
#define GET_LOOP(var, handle, what)                                            \
  ForOp var;                                                                   \
  if (DiagnosedSilenceableFailure diag =                                       \
          getSingle<ForOp>(*this, state, handle, what, var);                   \
      !diag.succeeded())                                                       \
    return diag;

/// Parses control-expression text at `at` or returns the failure.
#define PARSE_EXPR(var, text, at)                                              \
  Refusal var##Refusal;                                                        \
  FailureOr<ValueExpr> var =                                                   \
      parseControlText(text, at, getLoc(), var##Refusal);                      \
  if (failed(var))                                                             \
    return refused(var##Refusal, getLoc());

LogicalResult DivideLoopOp::verify() {
  if (getTail() != "perfect" && getTail() != "guard" && getTail() != "cut")
    return emitOpError("tail must be \"perfect\", \"guard\" or \"cut\"");
  return success();
}

DiagnosedSilenceableFailure
DivideLoopOp::apply(transform::TransformRewriter &rewriter,
                    transform::TransformResults &results,
                    transform::TransformState &state) {
  GET_LOOP(loop, getTarget(), "a seq loop");
  TailStrategy tail = getTail() == "perfect" ? TailStrategy::Perfect
                      : getTail() == "cut"   ? TailStrategy::Cut
                                             : TailStrategy::Guard;
  Operation *proc = loop->getParentOfType<ProcOp>();
  Refusal refusal;
  FailureOr<DividedLoop> divided =
      divideLoop(rewriter, loop, getFactor(), getOuterName(), getInnerName(),
                 tail, refusal);
  if (failed(divided))
    return refused(refusal, getLoc());
  setResultOps(results, getOuter(), {divided->outer});
  setResultOps(results, getInner(), {divided->inner});
  setResultOps(results, getTailLoop(), {divided->tail});
  return verifyRewritten(*this, proc);
}

DiagnosedSilenceableFailure
ReorderLoopsOp::apply(transform::TransformRewriter &rewriter,
                      transform::TransformResults &results,
                      transform::TransformState &state) {
  GET_LOOP(loop, getTarget(), "a seq loop");
  Operation *proc = loop->getParentOfType<ProcOp>();
  Refusal refusal;
  FailureOr<std::pair<ForOp, ForOp>> loops =
      reorderLoops(rewriter, loop, refusal);
  if (failed(loops))
    return refused(refusal, getLoc());
  setResultOps(results, getOuter(), {loops->first});
  setResultOps(results, getInner(), {loops->second});
  return verifyRewritten(*this, proc);
}

DiagnosedSilenceableFailure
FissionOp::apply(transform::TransformRewriter &rewriter,
                 transform::TransformResults &results,
                 transform::TransformState &state) {
  Operation *stmt = nullptr;
  if (DiagnosedSilenceableFailure diag = getSingleStatement(
          *this, state, getTarget(), "a statement", isProcStatement, stmt);
      !diag.succeeded())
    return diag;
  Operation *proc = stmt->getParentOfType<ProcOp>();
  Refusal refusal;
  FailureOr<std::pair<Operation *, Operation *>> copies =
      fission(rewriter, stmt, getLevels(), refusal);
  if (failed(copies))
    return refused(refusal, getLoc());
  setResultOps(results, getFirst(), {copies->first});
  setResultOps(results, getSecond(), {copies->second});
  return verifyRewritten(*this, proc);
}

DiagnosedSilenceableFailure
FuseOp::apply(transform::TransformRewriter &rewriter,
              transform::TransformResults &results,
              transform::TransformState &state) {
  Operation *first = nullptr, *second = nullptr;
  auto scope = [](Operation *op) { return isa<ForOp, IfOp>(op); };
  if (DiagnosedSilenceableFailure diag = getSingleStatement(
          *this, state, getFirst(), "a loop or guard", scope, first);
      !diag.succeeded())
    return diag;
  if (DiagnosedSilenceableFailure diag = getSingleStatement(
          *this, state, getSecond(), "a loop or guard", scope, second);
      !diag.succeeded())
    return diag;
  if (DiagnosedSilenceableFailure diag = checkSameProc(*this, first, second);
      !diag.succeeded())
    return diag;
  Operation *proc = first->getParentOfType<ProcOp>();
  Refusal refusal;
  FailureOr<Operation *> fused = fuse(rewriter, first, second, refusal);
  if (failed(fused))
    return refused(refusal, getLoc());
  setResultOps(results, getResult(), {*fused});
  return verifyRewritten(*this, proc);
}

DiagnosedSilenceableFailure
UnrollLoopOp::apply(transform::TransformRewriter &rewriter,
                    transform::TransformResults &results,
                    transform::TransformState &state) {
  GET_LOOP(loop, getTarget(), "a seq loop");
  Operation *proc = loop->getParentOfType<ProcOp>();
  Refusal refusal;
  FailureOr<SmallVector<Operation *>> stmts =
      unrollLoop(rewriter, loop, refusal);
  if (failed(stmts))
    return refused(refusal, getLoc());
  setResultOps(results, getResult(), *stmts);
  return verifyRewritten(*this, proc);
}

DiagnosedSilenceableFailure
CutLoopOp::apply(transform::TransformRewriter &rewriter,
                 transform::TransformResults &results,
                 transform::TransformState &state) {
  GET_LOOP(loop, getTarget(), "a seq loop");
  PARSE_EXPR(cut, getCut(), loop);
  Operation *proc = loop->getParentOfType<ProcOp>();
  Refusal refusal;
  FailureOr<std::pair<ForOp, ForOp>> loops =
      cutLoop(rewriter, loop, *cut, refusal);
  if (failed(loops))
    return refused(refusal, getLoc());
  setResultOps(results, getFirst(), {loops->first});
  setResultOps(results, getSecond(), {loops->second});
  return verifyRewritten(*this, proc);
}

DiagnosedSilenceableFailure
ShiftLoopOp::apply(transform::TransformRewriter &rewriter,
                   transform::TransformResults &results,
                   transform::TransformState &state) {
  GET_LOOP(loop, getTarget(), "a seq loop");
  PARSE_EXPR(newLo, getNewLo(), loop);
  Operation *proc = loop->getParentOfType<ProcOp>();
  Refusal refusal;
  FailureOr<ForOp> shifted = shiftLoop(rewriter, loop, *newLo, refusal);
  if (failed(shifted))
    return refused(refusal, getLoc());
  setResultOps(results, getResult(), {*shifted});
  return verifyRewritten(*this, proc);
}

DiagnosedSilenceableFailure
ExtendLoopOp::apply(transform::TransformRewriter &rewriter,
                    transform::TransformResults &results,
                    transform::TransformState &state) {
  GET_LOOP(loop, getTarget(), "a seq loop");
  PARSE_EXPR(newLo, getNewLo(), loop);
  PARSE_EXPR(newHi, getNewHi(), loop);
  Operation *proc = loop->getParentOfType<ProcOp>();
  Refusal refusal;
  FailureOr<ForOp> extended =
      extendLoop(rewriter, loop, *newLo, *newHi, refusal);
  if (failed(extended))
    return refused(refusal, getLoc());
  setResultOps(results, getResult(), {*extended});
  return verifyRewritten(*this, proc);
}

DiagnosedSilenceableFailure
RemoveLoopOp::apply(transform::TransformRewriter &rewriter,
                    transform::TransformResults &results,
                    transform::TransformState &state) {
  GET_LOOP(loop, getTarget(), "a seq loop");
  Operation *proc = loop->getParentOfType<ProcOp>();
  Refusal refusal;
  FailureOr<SmallVector<Operation *>> stmts =
      removeLoop(rewriter, loop, refusal);
  if (failed(stmts))
    return refused(refusal, getLoc());
  setResultOps(results, getResult(), *stmts);
  return verifyRewritten(*this, proc);
}

DiagnosedSilenceableFailure
AddLoopOp::apply(transform::TransformRewriter &rewriter,
                 transform::TransformResults &results,
                 transform::TransformState &state) {
  SmallVector<Operation *> block;
  if (DiagnosedSilenceableFailure diag =
          getStatementBlock(*this, state, getTarget(), block);
      !diag.succeeded())
    return diag;
  PARSE_EXPR(hi, getHi(), block.front());
  Operation *proc = block.front()->getParentOfType<ProcOp>();
  Refusal refusal;
  FailureOr<ForOp> loop =
      addLoop(rewriter, block, getName(), *hi, getGuard(), refusal);
  if (failed(loop))
    return refused(refusal, getLoc());
  setResultOps(results, getResult(), {*loop});
  return verifyRewritten(*this, proc);
}

DiagnosedSilenceableFailure
LiftScopeOp::apply(transform::TransformRewriter &rewriter,
                   transform::TransformResults &results,
                   transform::TransformState &state) {
  Operation *inner = nullptr;
  if (DiagnosedSilenceableFailure diag = getSingleStatement(
          *this, state, getTarget(), "a loop or guard",
          [](Operation *op) { return isa<ForOp, IfOp>(op); }, inner);
      !diag.succeeded())
    return diag;
  Operation *proc = inner->getParentOfType<ProcOp>();
  Refusal refusal;
  FailureOr<Operation *> outer = liftScope(rewriter, inner, refusal);
  if (failed(outer))
    return refused(refusal, getLoc());
  setResultOps(results, getResult(), {*outer});
  return verifyRewritten(*this, proc);
}

DiagnosedSilenceableFailure
MultLoopsOp::apply(transform::TransformRewriter &rewriter,
                   transform::TransformResults &results,
                   transform::TransformState &state) {
  GET_LOOP(loop, getTarget(), "a seq loop");
  Operation *proc = loop->getParentOfType<ProcOp>();
  Refusal refusal;
  FailureOr<ForOp> merged = multLoops(rewriter, loop, getName(), refusal);
  if (failed(merged))
    return refused(refusal, getLoc());
  setResultOps(results, getResult(), {*merged});
  return verifyRewritten(*this, proc);
}
