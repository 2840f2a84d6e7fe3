//===- ThreadMapping.cpp - threads of cuda_threads loops ------------------===//
//
// Part of ExoGPU (internal to the CUDA translation). See ThreadMapping.h.
//
//===----------------------------------------------------------------------===//

#include "ThreadMapping.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::exogpu;
using namespace mlir::exogpu::cuda;

ThreadMapper::ThreadMapper(const CollectiveAnalysis &collective,
                           CollParams params, MLIRContext *context)
    : collective(collective), params(params), context(context),
      threadRange(IntRange::between(0, params.blockDim - 1)),
      ctaRange(IntRange::between(0, params.clusterDim - 1)) {}

void ThreadMapper::setThreadRange(int64_t first, int64_t last) {
  threadRange = IntRange::between(first, last);
}

IntRange ThreadMapper::getDimRange(unsigned dim) const {
  return dim == 0 ? threadRange : ctaRange;
}

std::string ThreadMapper::print(AffineExpr expr) {
  return printControlExpr(
      expr,
      [](unsigned d) { return std::string(d == 0 ? kThreadName : kCtaName); },
      [&](unsigned d) { return getDimRange(d); });
}

FailureOr<ThreadSelection> ThreadMapper::mapLoop(ForOp loop) {
  return map(loop, loop.getIterator());
}

FailureOr<ThreadSelection> ThreadMapper::mapWarps(WarpsOp warps) {
  return map(warps, Value());
}

FailureOr<ThreadSelection> ThreadMapper::map(Operation *scope, Value iter) {
  const CollTiling *body = collective.getBodyTiling(scope);
  if (!body)
    return emitInternalError(scope->getLoc())
           << "the collective analysis gave this scope no tiling";
  std::optional<std::pair<unsigned, unsigned>> position =
      collective.getScopeOperator(scope);
  AffineExpr zero = getAffineConstantExpr(0, context);
  if (!position) {
    // A trivial tiling: the unit is the whole collective, one iteration.
    if (iter)
      iterators[iter] = zero;
    return ThreadSelection{"0", IntRange::exact(0), ""};
  }
  auto [m, k] = *position;
  const CollDim &dim = body->getDims()[m];
  const CollDimOp &op = dim.ops[k];
  // The thread's position along dimension m, from the natural index.
  AffineExpr natural = getAffineDimExpr(1, context) * params.blockDim +
                       getAffineDimExpr(0, context);
  AffineExpr p = natural % (dim.extent * dim.pitch);
  AffineExpr start = zero;
  for (const CollDimOp &outer : ArrayRef(dim.ops).take_front(k)) {
    AffineExpr sigma = zero;
    if (outer.iter) {
      auto it = iterators.find(outer.iter);
      if (it == iterators.end())
        return emitInternalError(scope->getLoc())
               << "an enclosing cuda_threads iterator has no thread mapping";
      sigma = it->second;
    }
    start = start + outer.linearOffset + sigma * outer.linearBox;
  }
  start = start + op.linearOffset;
  auto dimRange = [&](unsigned d) { return getDimRange(d); };
  AffineExpr relative = simplifyWithRanges(p - start, 2, dimRange);
  int64_t span = op.tileCount * op.linearBox;
  int64_t parentBox =
      k == 0 ? dim.extent * dim.pitch : dim.ops[k - 1].linearBox;
  ThreadSelection selection;
  if (op.linearOffset != 0 || span != parentBox) {
    // a + o <= p < a + o + span, printed as X >= lo and X < hi with the
    // constant part of p - a - o moved to the right.
    IntRange r = getRange(relative, dimRange);
    SmallVector<std::pair<AffineExpr, int64_t>> terms;
    int64_t constant = 0;
    AffineExpr rest = zero;
    if (auto c = dyn_cast<AffineConstantExpr>(relative))
      constant = c.getValue();
    else if (relative.getKind() == AffineExprKind::Add &&
             isa<AffineConstantExpr>(
                 cast<AffineBinaryOpExpr>(relative).getRHS())) {
      auto add = cast<AffineBinaryOpExpr>(relative);
      rest = add.getLHS();
      constant = cast<AffineConstantExpr>(add.getRHS()).getValue();
    } else {
      rest = relative;
    }
    SmallVector<std::string> conditions;
    if (!r.isNonNegative())
      conditions.push_back(print(rest) + " >= " + std::to_string(-constant));
    if (!(r.hi && *r.hi < span))
      conditions.push_back(print(rest) + " < " +
                           std::to_string(span - constant));
    selection.guard = llvm::join(conditions, " && ");
  }
  if (iter) {
    AffineExpr value =
        simplifyWithRanges(relative.floorDiv(op.linearBox), 2, dimRange);
    iterators[iter] = value;
    selection.value = print(value);
    selection.range = IntRange::between(0, op.tileCount - 1);
  }
  return selection;
}
