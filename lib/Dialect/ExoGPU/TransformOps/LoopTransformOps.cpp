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

/// The proc of a statement.
static Operation *procOf(Operation *op) {
  return op->getParentOfType<ProcOp>();
}

LogicalResult DivideLoopOp::verify() {
  if (getTail() != "perfect" && getTail() != "guard" && getTail() != "cut")
    return emitOpError("tail must be \"perfect\", \"guard\" or \"cut\"");
  return success();
}

DiagnosedSilenceableFailure
DivideLoopOp::apply(transform::TransformRewriter &rewriter,
                    transform::TransformResults &results,
                    transform::TransformState &state) {
  EXOGPU_GET_SINGLE(ForOp, loop, getTarget(), "a seq loop");
  TailStrategy tail = getTail() == "perfect" ? TailStrategy::Perfect
                      : getTail() == "cut"   ? TailStrategy::Cut
                                             : TailStrategy::Guard;
  return runRewrite(*this, procOf(loop), [&](Refusal &refusal) {
    FailureOr<DividedLoop> divided =
        divideLoop(rewriter, loop, getFactor(), getOuterName(), getInnerName(),
                   tail, refusal);
    if (failed(divided))
      return failure();
    setResultOps(results, getOuter(), {divided->outer});
    setResultOps(results, getInner(), {divided->inner});
    setResultOps(results, getTailLoop(), {divided->tail});
    return success();
  });
}

DiagnosedSilenceableFailure
ReorderLoopsOp::apply(transform::TransformRewriter &rewriter,
                      transform::TransformResults &results,
                      transform::TransformState &state) {
  EXOGPU_GET_SINGLE(ForOp, loop, getTarget(), "a seq loop");
  return runRewrite(*this, procOf(loop), [&](Refusal &refusal) {
    FailureOr<std::pair<ForOp, ForOp>> loops =
        reorderLoops(rewriter, loop, refusal);
    if (failed(loops))
      return failure();
    setResultOps(results, getOuter(), {loops->first});
    setResultOps(results, getInner(), {loops->second});
    return success();
  });
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
  return runRewrite(*this, procOf(stmt), [&](Refusal &refusal) {
    FailureOr<std::pair<Operation *, Operation *>> copies =
        fission(rewriter, stmt, getLevels(), refusal);
    if (failed(copies))
      return failure();
    setResultOps(results, getFirst(), {copies->first});
    setResultOps(results, getSecond(), {copies->second});
    return success();
  });
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
  return runRewrite(*this, procOf(first), [&](Refusal &refusal) {
    FailureOr<Operation *> fused = fuse(rewriter, first, second, refusal);
    if (failed(fused))
      return failure();
    setResultOps(results, getResult(), {*fused});
    return success();
  });
}

/// Runs a loop rewrite that returns statements into `result`.
template <typename FnT>
static DiagnosedSilenceableFailure
runLoopRewrite(transform::TransformOpInterface self,
               transform::TransformResults &results, Value result, ForOp loop,
               FnT rewrite) {
  return runRewrite(self, procOf(loop), [&](Refusal &refusal) {
    auto created = rewrite(refusal);
    if (failed(created))
      return failure();
    if constexpr (std::is_same_v<std::decay_t<decltype(*created)>,
                                 SmallVector<Operation *>>)
      setResultOps(results, result, *created);
    else
      setResultOps(results, result, {created->getOperation()});
    return success();
  });
}

DiagnosedSilenceableFailure
UnrollLoopOp::apply(transform::TransformRewriter &rewriter,
                    transform::TransformResults &results,
                    transform::TransformState &state) {
  EXOGPU_GET_SINGLE(ForOp, loop, getTarget(), "a seq loop");
  return runLoopRewrite(
      *this, results, getResult(), loop,
      [&](Refusal &refusal) { return unrollLoop(rewriter, loop, refusal); });
}

DiagnosedSilenceableFailure
CutLoopOp::apply(transform::TransformRewriter &rewriter,
                 transform::TransformResults &results,
                 transform::TransformState &state) {
  EXOGPU_GET_SINGLE(ForOp, loop, getTarget(), "a seq loop");
  return runRewrite(*this, procOf(loop), [&](Refusal &refusal) {
    FailureOr<ValueExpr> cut =
        parseControlText(getCut(), loop, getLoc(), refusal);
    if (failed(cut))
      return failure();
    FailureOr<std::pair<ForOp, ForOp>> loops =
        cutLoop(rewriter, loop, *cut, refusal);
    if (failed(loops))
      return failure();
    setResultOps(results, getFirst(), {loops->first});
    setResultOps(results, getSecond(), {loops->second});
    return success();
  });
}

DiagnosedSilenceableFailure
ShiftLoopOp::apply(transform::TransformRewriter &rewriter,
                   transform::TransformResults &results,
                   transform::TransformState &state) {
  EXOGPU_GET_SINGLE(ForOp, loop, getTarget(), "a seq loop");
  return runLoopRewrite(*this, results, getResult(), loop,
                        [&](Refusal &refusal) -> FailureOr<ForOp> {
                          FailureOr<ValueExpr> newLo = parseControlText(
                              getNewLo(), loop, getLoc(), refusal);
                          if (failed(newLo))
                            return failure();
                          return shiftLoop(rewriter, loop, *newLo, refusal);
                        });
}

DiagnosedSilenceableFailure
ExtendLoopOp::apply(transform::TransformRewriter &rewriter,
                    transform::TransformResults &results,
                    transform::TransformState &state) {
  EXOGPU_GET_SINGLE(ForOp, loop, getTarget(), "a seq loop");
  return runLoopRewrite(
      *this, results, getResult(), loop,
      [&](Refusal &refusal) -> FailureOr<ForOp> {
        FailureOr<ValueExpr> newLo =
            parseControlText(getNewLo(), loop, getLoc(), refusal);
        if (failed(newLo))
          return failure();
        FailureOr<ValueExpr> newHi =
            parseControlText(getNewHi(), loop, getLoc(), refusal);
        if (failed(newHi))
          return failure();
        return extendLoop(rewriter, loop, *newLo, *newHi, refusal);
      });
}

DiagnosedSilenceableFailure
RemoveLoopOp::apply(transform::TransformRewriter &rewriter,
                    transform::TransformResults &results,
                    transform::TransformState &state) {
  EXOGPU_GET_SINGLE(ForOp, loop, getTarget(), "a seq loop");
  return runLoopRewrite(
      *this, results, getResult(), loop,
      [&](Refusal &refusal) { return removeLoop(rewriter, loop, refusal); });
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
  return runRewrite(*this, procOf(block.front()), [&](Refusal &refusal) {
    FailureOr<ValueExpr> hi =
        parseControlText(getHi(), block.front(), getLoc(), refusal);
    if (failed(hi))
      return failure();
    FailureOr<ForOp> loop =
        addLoop(rewriter, block, getName(), *hi, getGuard(), refusal);
    if (failed(loop))
      return failure();
    setResultOps(results, getResult(), {*loop});
    return success();
  });
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
  return runRewrite(*this, procOf(inner), [&](Refusal &refusal) {
    FailureOr<Operation *> outer = liftScope(rewriter, inner, refusal);
    if (failed(outer))
      return failure();
    setResultOps(results, getResult(), {*outer});
    return success();
  });
}

DiagnosedSilenceableFailure
MultLoopsOp::apply(transform::TransformRewriter &rewriter,
                   transform::TransformResults &results,
                   transform::TransformState &state) {
  EXOGPU_GET_SINGLE(ForOp, loop, getTarget(), "a seq loop");
  return runLoopRewrite(*this, results, getResult(), loop,
                        [&](Refusal &refusal) {
                          return multLoops(rewriter, loop, getName(), refusal);
                        });
}
