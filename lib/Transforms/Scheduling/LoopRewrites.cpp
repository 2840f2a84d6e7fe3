//===- LoopRewrites.cpp - Exo's checked loop rewrites ---------------------===//
//
// Part of ExoGPU. See LoopRewrites.h. The legality conditions follow Exo's
// loop primitives (public Exo documentation, "Loop and scope related
// primitives"), decided with the Presburger queries of Dependences.h.
//
//===----------------------------------------------------------------------===//

#include "ExoGPU/Transforms/Scheduling/LoopRewrites.h"
#include "ExoGPU/Analysis/Dependences.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::exogpu;

/// The largest loop unroll_loop expands.
static constexpr int64_t kMaxUnroll = 1024;

static ValueExpr lowerBound(ForOp loop) {
  return {loop.getLowerBoundExpr(), SmallVector<Value, 4>(loop.getCtrl())};
}
static ValueExpr upperBound(ForOp loop) {
  return {loop.getUpperBoundExpr(), SmallVector<Value, 4>(loop.getCtrl())};
}
static StringRef iterName(ForOp loop) {
  return loop.getIterName() ? *loop.getIterName() : StringRef("i");
}

/// The statements of a scope's body.
static SmallVector<Operation *> bodyOps(Operation *scope) {
  SmallVector<Operation *> ops;
  for (Operation &op : scope->getRegion(0).front())
    ops.push_back(&op);
  return ops;
}

/// Moves every statement of `from` to the end of `to`.
static void moveOps(RewriterBase &rewriter, Block &from, Block &to) {
  for (Operation &op : llvm::make_early_inc_range(from))
    rewriter.moveOpBefore(&op, &to, to.end());
}

/// Clones every statement of `from` to the end of `to` with `mapping`.
static void cloneOps(RewriterBase &rewriter, Block &from, Block &to,
                     IRMapping &mapping) {
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPointToEnd(&to);
  for (Operation &op : from)
    rewriter.clone(op, mapping);
}

/// Copies the discardable attributes (labels) of `from` to `to`.
static void copyDiscardableAttrs(Operation *from, Operation *to) {
  for (NamedAttribute attr : from->getDiscardableAttrs())
    to->setDiscardableAttr(attr.getName(), attr.getValue());
}

//===----------------------------------------------------------------------===//
// divide_loop
//===----------------------------------------------------------------------===//

FailureOr<DividedLoop>
mlir::exogpu::divideLoop(RewriterBase &rewriter, ForOp loop, int64_t factor,
                         StringRef outerName, StringRef innerName,
                         TailStrategy tail, Refusal &refusal) {
  if (failed(checkSeqLoop(loop, "divide_loop", refusal)))
    return failure();
  MLIRContext *ctx = loop.getContext();
  ValueExpr lo = lowerBound(loop);
  ValueExpr count = ValueExpr::add(upperBound(loop), lo, -1);
  if (failed(checkControlMagnitude(
          llvm::SaturatingAdd(coefficientMagnitude(count.expr),
                              static_cast<uint64_t>(factor)),
          loop.getLoc(), "divide_loop", refusal)))
    return failure();
  if (tail == TailStrategy::Cut) {
    // The tail runs `(hi - lo) mod factor` times: with hi < lo it would run
    // iterations the loop never ran.
    std::string witness;
    if (!isRelationInvariant(loop, lo.expr, lo.operands, ConditionAtomKind::Le,
                             loop.getUpperBoundExpr(), loop.getCtrl(),
                             &witness)) {
      explainNotInvariant(refusal, loop.getLoc(),
                          "cannot cut the tail of loop '" + iterName(loop) +
                              "': its upper bound may be below its lower "
                              "bound, and the tail would run (hi - lo) mod " +
                              Twine(factor) +
                              " times where the loop runs none (use tail "
                              "\"guard\")",
                          witness);
      return failure();
    }
  }
  if (tail == TailStrategy::Perfect) {
    std::string witness;
    if (!isRelationInvariant(loop, count.expr % factor, count.operands,
                             ConditionAtomKind::Eq,
                             getAffineConstantExpr(0, ctx), {}, &witness)) {
      explainNotInvariant(refusal, loop.getLoc(),
                          "cannot divide loop '" + iterName(loop) + "' by " +
                              Twine(factor) +
                              " perfectly: its trip count is not always a "
                              "multiple of " +
                              Twine(factor),
                          witness);
      return failure();
    }
  }
  Location loc = loop.getLoc();
  rewriter.setInsertionPoint(loop);
  ValueExpr outerCount{tail == TailStrategy::Guard
                           ? (count.expr + (factor - 1)).floorDiv(factor)
                           : count.expr.floorDiv(factor),
                       count.operands};
  ForOp outer = createLoop(rewriter, loc, outerName, LoopMode::seq,
                           ValueExpr::constant(0, ctx), outerCount);
  copyDiscardableAttrs(loop, outer);
  rewriter.setInsertionPointToStart(&outer.getBody().front());
  ForOp inner =
      createLoop(rewriter, loc, innerName, LoopMode::seq,
                 ValueExpr::constant(0, ctx), ValueExpr::constant(factor, ctx));
  // i -> lo + factor * io + ii
  ValueExpr index = ValueExpr::add(
      ValueExpr::add(lo, ValueExpr::of(outer.getIterator()), factor),
      ValueExpr::of(inner.getIterator()));
  Block *dest = &inner.getBody().front();
  if (tail == TailStrategy::Guard) {
    rewriter.setInsertionPointToStart(dest);
    ParsedCondition inRange =
        makeCondition(ctx, {{index, ConditionAtomKind::Lt, upperBound(loop)}});
    IfOp guard = createIf(rewriter, loc, inRange.condition, inRange.operands);
    dest = &guard.getBody().front();
  }
  ForOp tailLoop;
  Block &body = loop.getBody().front();
  if (tail == TailStrategy::Cut) {
    // for ii in seq(0, count mod factor): s[i -> lo + factor * (count /
    // factor) + ii]
    rewriter.setInsertionPointAfter(outer);
    tailLoop = createLoop(rewriter, loc, innerName, LoopMode::seq,
                          ValueExpr::constant(0, ctx),
                          {count.expr % factor, count.operands});
    IRMapping mapping;
    cloneOps(rewriter, body, tailLoop.getBody().front(), mapping);
    ValueExpr tailIndex = ValueExpr::add(
        ValueExpr::add(lo, {count.expr.floorDiv(factor), count.operands},
                       factor),
        ValueExpr::of(tailLoop.getIterator()));
    substituteControlValues(tailLoop, {{loop.getIterator(), tailIndex}});
  }
  for (Operation &op : body)
    substituteControlValues(&op, {{loop.getIterator(), index}});
  moveOps(rewriter, body, *dest);
  rewriter.eraseOp(loop);
  return DividedLoop{outer, inner, tailLoop};
}

//===----------------------------------------------------------------------===//
// reorder_loops
//===----------------------------------------------------------------------===//

/// The single statement of `scope`'s body, if it has exactly one.
static Operation *getSingleChild(Operation *scope) {
  Block &body = scope->getRegion(0).front();
  return llvm::hasSingleElement(body) ? &body.front() : nullptr;
}

/// Whether `op`'s control operands use `value`.
static bool usesControlValue(Operation *op, Value value) {
  return llvm::is_contained(getControlOperands(op), value);
}

FailureOr<std::pair<ForOp, ForOp>>
mlir::exogpu::reorderLoops(RewriterBase &rewriter, ForOp outer,
                           Refusal &refusal) {
  if (failed(checkSeqLoop(outer, "reorder_loops", refusal)))
    return failure();
  auto inner = dyn_cast_or_null<ForOp>(getSingleChild(outer));
  if (!inner) {
    refusal.at(outer.getLoc())
        << "reorder_loops needs a loop whose body is exactly one loop";
    return failure();
  }
  if (failed(checkSeqLoop(inner, "reorder_loops", refusal)))
    return failure();
  if (usesControlValue(inner, outer.getIterator())) {
    refusal.at(inner.getLoc())
        << "cannot reorder loops '" << iterName(outer) << "' and '"
        << iterName(inner) << "': the bounds of '" << iterName(inner)
        << "' use '" << iterName(outer) << "'";
    return failure();
  }
  // Instance 1 runs before instance 2 (i1 < i2) but after it once the loops
  // are swapped (j1 > j2).
  SmallVector<Operation *> stmts = bodyOps(inner);
  InstanceScope first({outer}, 1), second({outer}, 2);
  AccessCollector collector;
  std::optional<AccessConflict> conflict = findConflict(
      collector, stmts, first, stmts, second, ConflictKind::Dependence,
      [&](InstanceSet &set, const BufferAccess &, const BufferAccess &) {
        set.addIteratorLess(outer, 1, 2);
        set.addIteratorLess(inner, 2, 1);
      });
  if (conflict) {
    Diagnostic &diag = refusal.at(outer.getLoc());
    diag << "cannot reorder loops '" << iterName(outer) << "' and '"
         << iterName(inner)
         << "': an iteration and a later one with a smaller '"
         << iterName(inner) << "' touch the same element";
    attachConflictNotes(diag, *conflict, "earlier iteration",
                        "later iteration");
    return failure();
  }
  rewriter.setInsertionPoint(outer);
  ForOp newOuter =
      createLoop(rewriter, inner.getLoc(), iterName(inner), LoopMode::seq,
                 lowerBound(inner), upperBound(inner));
  copyDiscardableAttrs(inner, newOuter);
  rewriter.setInsertionPointToStart(&newOuter.getBody().front());
  ForOp newInner =
      createLoop(rewriter, outer.getLoc(), iterName(outer), LoopMode::seq,
                 lowerBound(outer), upperBound(outer));
  copyDiscardableAttrs(outer, newInner);
  rewriter.replaceAllUsesWith(outer.getIterator(), newInner.getIterator());
  rewriter.mergeBlocks(&inner.getBody().front(), &newInner.getBody().front(),
                       {newOuter.getIterator()});
  rewriter.eraseOp(outer);
  return std::make_pair(newOuter, newInner);
}

//===----------------------------------------------------------------------===//
// fission
//===----------------------------------------------------------------------===//

/// A copy of scope `scope` (a loop or a guard) with an empty body, right
/// after it.
static Operation *cloneScopeShell(RewriterBase &rewriter, Operation *scope) {
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPointAfter(scope);
  Operation *shell = rewriter.cloneWithoutRegions(*scope);
  Region &region = shell->getRegion(0);
  Block &old = scope->getRegion(0).front();
  SmallVector<Location> locs(old.getNumArguments(), scope->getLoc());
  rewriter.createBlock(&region, {}, old.getArgumentTypes(), locs);
  return shell;
}

FailureOr<std::pair<Operation *, Operation *>>
mlir::exogpu::fission(RewriterBase &rewriter, Operation *beforeGap,
                      unsigned levels, Refusal &refusal) {
  // The scopes to split, innermost first; the statements on each side.
  SmallVector<Operation *> scopes;
  SmallVector<Operation *> before, after;
  Operation *gap = beforeGap;
  for (unsigned level = 0; level < levels; ++level) {
    Operation *scope = gap->getParentOp();
    auto loop = dyn_cast_or_null<ForOp>(scope);
    if (!loop && !isa_and_nonnull<IfOp>(scope)) {
      refusal.at(gap->getLoc())
          << "fission: level " << level + 1 << " is not inside a loop or guard";
      return failure();
    }
    if (loop && failed(checkSeqLoop(loop, "fission", refusal)))
      return failure();
    for (Operation &op : scope->getRegion(0).front())
      (op.isBeforeInBlock(gap) || &op == gap ? before : after).push_back(&op);
    if (level == 0 && after.empty()) {
      refusal.at(gap->getLoc())
          << "fission: no statement follows the gap in its block";
      return failure();
    }
    scopes.push_back(scope);
    gap = scope;
  }
  // An after-statement instance that ran before a before-statement instance
  // now runs after it.
  Operation *outermost = scopes.back();
  InstanceScope afterScope({outermost}, 1), beforeScope({outermost}, 2);
  // Only the innermost statements are leaves of the split; collect leaf
  // statements from the sides.
  SmallVector<Operation *> beforeSide, afterSide;
  for (Operation *op : before)
    if (!llvm::is_contained(scopes, op))
      beforeSide.push_back(op);
  for (Operation *op : after)
    afterSide.push_back(op);
  // The statements after the gap must not use what the ones before define.
  if (Operation *user = findUseOfDefinitions(beforeSide, afterSide)) {
    refusal.at(user->getLoc())
        << "fission: this statement uses a buffer or window defined before "
           "the gap; lift the allocation out first";
    return failure();
  }
  AccessCollector collector;
  std::optional<AccessConflict> conflict = findConflict(
      collector, afterSide, afterScope, beforeSide, beforeScope,
      ConflictKind::Dependence,
      [&](InstanceSet &set, const BufferAccess &a, const BufferAccess &b) {
        set.addHappensBefore(a.stmt, afterScope, b.stmt, beforeScope);
      });
  if (conflict) {
    Diagnostic &diag = refusal.at(beforeGap->getLoc());
    diag << "cannot fission after this statement: a statement after the gap "
            "would move after a conflicting later statement before it";
    attachConflictNotes(diag, *conflict, "after the gap (runs first)",
                        "before the gap (runs later)");
    return failure();
  }
  // Split from the innermost scope outwards.
  gap = beforeGap;
  Operation *firstCopy = nullptr, *secondCopy = nullptr;
  for (Operation *scope : scopes) {
    Operation *shell = cloneScopeShell(rewriter, scope);
    Block &oldBody = scope->getRegion(0).front();
    Block &newBody = shell->getRegion(0).front();
    for (Operation &op : llvm::make_early_inc_range(oldBody))
      if (gap->isBeforeInBlock(&op))
        rewriter.moveOpBefore(&op, &newBody, newBody.end());
    if (auto loop = dyn_cast<ForOp>(scope))
      rewriter.replaceUsesWithIf(
          loop.getIterator(), newBody.getArgument(0), [&](OpOperand &use) {
            return shell->isProperAncestor(use.getOwner());
          });
    firstCopy = scope;
    secondCopy = shell;
    gap = scope;
  }
  return std::make_pair(firstCopy, secondCopy);
}

//===----------------------------------------------------------------------===//
// fuse
//===----------------------------------------------------------------------===//

FailureOr<Operation *> mlir::exogpu::fuse(RewriterBase &rewriter,
                                          Operation *first, Operation *second,
                                          Refusal &refusal) {
  if (failed(checkAdjacent(first, second, "fuse", refusal)))
    return failure();
  if (auto g1 = dyn_cast<IfOp>(first)) {
    auto g2 = dyn_cast<IfOp>(second);
    if (!g2 || g1.getCondition() != g2.getCondition() ||
        g1.getCtrl() != g2.getCtrl()) {
      refusal.at(second->getLoc())
          << "fuse: the second statement is not a guard with the same "
             "condition";
      return failure();
    }
    moveOps(rewriter, g2.getBody().front(), g1.getBody().front());
    rewriter.eraseOp(g2);
    return first;
  }
  auto l1 = dyn_cast<ForOp>(first);
  auto l2 = dyn_cast<ForOp>(second);
  if (!l1 || !l2) {
    refusal.at(first->getLoc()) << "fuse applies to two loops or two guards";
    return failure();
  }
  if (failed(checkSeqLoop(l1, "fuse", refusal)) ||
      failed(checkSeqLoop(l2, "fuse", refusal)))
    return failure();
  std::string witness;
  for (bool upper : {false, true}) {
    ValueExpr b1 = upper ? upperBound(l1) : lowerBound(l1);
    ValueExpr b2 = upper ? upperBound(l2) : lowerBound(l2);
    if (!isRelationInvariant(l1, b1.expr, b1.operands, ConditionAtomKind::Eq,
                             b2.expr, b2.operands, &witness)) {
      explainNotInvariant(refusal, second->getLoc(),
                          Twine("cannot fuse loops '") + iterName(l1) +
                              "' and '" + iterName(l2) + "': their " +
                              (upper ? "upper" : "lower") + " bounds differ",
                          witness);
      return failure();
    }
  }
  // s2 at an earlier iteration now runs before s1 at a later one.
  InstanceScope secondScope({l2}, 1), firstScope({l1}, 2);
  AccessCollector collector;
  std::optional<AccessConflict> conflict = findConflict(
      collector, bodyOps(l2), secondScope, bodyOps(l1), firstScope,
      ConflictKind::Dependence,
      [&](InstanceSet &set, const BufferAccess &, const BufferAccess &) {
        ControlSet &s = set.getSet();
        s.addLess(LinearForm::ofColumn(s.getColumn(l2.getIterator(), 1)),
                  LinearForm::ofColumn(s.getColumn(l1.getIterator(), 2)));
      });
  if (conflict) {
    Diagnostic &diag = refusal.at(second->getLoc());
    diag << "cannot fuse loops '" << iterName(l1) << "' and '" << iterName(l2)
         << "': an iteration of the second loop would run before a later "
            "iteration of the first that it conflicts with";
    attachConflictNotes(diag, *conflict, "second loop (moves earlier)",
                        "first loop (moves later)");
    return failure();
  }
  rewriter.replaceAllUsesWith(l2.getIterator(), l1.getIterator());
  moveOps(rewriter, l2.getBody().front(), l1.getBody().front());
  rewriter.eraseOp(l2);
  return first;
}

//===----------------------------------------------------------------------===//
// unroll_loop, cut_loop, shift_loop, extend_loop
//===----------------------------------------------------------------------===//

/// |v| without overflow.
static uint64_t magnitudeOf(int64_t v) {
  return v < 0 ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
}

/// Whether substituting any value of magnitude at most `bound` for `value`
/// in the control expressions at or under `root` folds only constants the
/// analyses handle (kMaxControlMagnitude, far from the 64-bit limits).
static bool foldsSafely(Operation *root, Value value, uint64_t bound) {
  WalkResult walk = root->walk([&](Operation *op) {
    OperandRange ctrl = getControlOperands(op);
    for (unsigned d = 0, e = ctrl.size(); d < e; ++d) {
      if (ctrl[d] != value)
        continue;
      auto dimBound = [&](unsigned dim) { return dim == d ? bound : 0; };
      for (AffineMap map : getControlMaps(op))
        for (AffineExpr expr : map.getResults())
          if (boundMagnitude(expr, dimBound) > kMaxControlMagnitude)
            return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return !walk.wasInterrupted();
}

FailureOr<SmallVector<Operation *>>
mlir::exogpu::unrollLoop(RewriterBase &rewriter, ForOp loop, Refusal &refusal) {
  if (failed(checkSeqLoop(loop, "unroll_loop", refusal)))
    return failure();
  auto lo = dyn_cast<AffineConstantExpr>(loop.getLowerBoundExpr());
  auto hi = dyn_cast<AffineConstantExpr>(loop.getUpperBoundExpr());
  if (!lo || !hi) {
    refusal.at(loop.getLoc()) << "unroll_loop needs constant bounds; loop '"
                              << iterName(loop) << "' has none";
    return failure();
  }
  // The trip count, without overflowing: `seq(-2^62, 2^62)` has 2^63.
  int64_t l = lo.getValue(), h = hi.getValue(), trips = 0;
  if (h > l && (llvm::SubOverflow(h, l, trips) || trips > kMaxUnroll)) {
    refusal.at(loop.getLoc())
        << "unroll_loop expands at most " << kMaxUnroll << " iterations";
    return failure();
  }
  Block &body = loop.getBody().front();
  if (!llvm::all_of(body, [&](Operation &op) {
        return foldsSafely(&op, loop.getIterator(),
                           std::max(magnitudeOf(l), magnitudeOf(h)));
      })) {
    refusal.at(loop.getLoc())
        << "unroll_loop: substituting the values of '" << iterName(loop)
        << "' would compute constants beyond the range the analyses handle";
    return failure();
  }
  SmallVector<Operation *> created;
  rewriter.setInsertionPoint(loop);
  TypeChanges types;
  bool typed = true;
  for (int64_t v = l; v < h; ++v) {
    IRMapping mapping;
    for (Operation &op : body) {
      Operation *copy = rewriter.clone(op, mapping);
      substituteControlValues(
          copy,
          {{loop.getIterator(), ValueExpr::constant(v, loop.getContext())}});
      simplifyControl(copy);
      created.push_back(copy);
      // An extent or window bound that became constant makes a type static.
      typed = typed && succeeded(updateBufferTypes(copy, types));
    }
  }
  auto undo = [&] {
    for (Operation *copy : llvm::reverse(created))
      rewriter.eraseOp(copy);
  };
  if (!typed) {
    undo();
    refusal.at(loop.getLoc())
        << "unroll_loop would give a buffer a constant extent that is not "
           "positive";
    return failure();
  }
  if (failed(verifyOrExplain(loop->getParentOfType<ProcOp>(), loop.getLoc(),
                             "unroll_loop", refusal))) {
    undo();
    return failure();
  }
  rewriter.eraseOp(loop);
  return created;
}

/// A new seq loop like `loop` with bounds `lo`, `hi` before `loop`, whose
/// body is a copy of `loop`'s (or the original statements, `move`) with the
/// iterator `i` replaced by `index(newIterator)`.
static ForOp rebuildLoop(RewriterBase &rewriter, ForOp loop,
                         const ValueExpr &lo, const ValueExpr &hi, bool move,
                         function_ref<ValueExpr(Value)> index) {
  rewriter.setInsertionPoint(loop);
  ForOp copy = createLoop(rewriter, loop.getLoc(), iterName(loop),
                          LoopMode::seq, lo, hi);
  copyDiscardableAttrs(loop, copy);
  Block &dest = copy.getBody().front();
  Block &body = loop.getBody().front();
  if (move) {
    moveOps(rewriter, body, dest);
  } else {
    IRMapping mapping;
    cloneOps(rewriter, body, dest, mapping);
  }
  for (Operation &op : dest)
    substituteControlValues(&op,
                            {{loop.getIterator(), index(copy.getIterator())}});
  return copy;
}

FailureOr<std::pair<ForOp, ForOp>> mlir::exogpu::cutLoop(RewriterBase &rewriter,
                                                         ForOp loop,
                                                         const ValueExpr &cut,
                                                         Refusal &refusal) {
  if (failed(checkSeqLoop(loop, "cut_loop", refusal)))
    return failure();
  std::string witness;
  ValueExpr lo = lowerBound(loop), hi = upperBound(loop);
  if (!isRelationInvariant(loop, lo.expr, lo.operands, ConditionAtomKind::Le,
                           cut.expr, cut.operands, &witness) ||
      !isRelationInvariant(loop, cut.expr, cut.operands, ConditionAtomKind::Le,
                           hi.expr, hi.operands, &witness)) {
    explainNotInvariant(refusal, loop.getLoc(),
                        "cannot cut loop '" + iterName(loop) +
                            "': the cut point is not always between its "
                            "bounds",
                        witness);
    return failure();
  }
  auto same = [](Value v) { return ValueExpr::of(v); };
  ForOp first = rebuildLoop(rewriter, loop, lo, cut, /*move=*/false, same);
  ForOp second = rebuildLoop(rewriter, loop, cut, hi, /*move=*/true, same);
  rewriter.eraseOp(loop);
  return std::make_pair(first, second);
}

FailureOr<ForOp> mlir::exogpu::shiftLoop(RewriterBase &rewriter, ForOp loop,
                                         const ValueExpr &newLo,
                                         Refusal &refusal) {
  if (failed(checkSeqLoop(loop, "shift_loop", refusal)))
    return failure();
  std::string witness;
  if (!isRelationInvariant(
          loop, newLo.expr, newLo.operands, ConditionAtomKind::Ge,
          getAffineConstantExpr(0, loop.getContext()), {}, &witness)) {
    explainNotInvariant(refusal, loop.getLoc(),
                        "cannot shift loop '" + iterName(loop) +
                            "': the new lower bound may be negative",
                        witness);
    return failure();
  }
  ValueExpr lo = lowerBound(loop);
  ValueExpr newHi =
      ValueExpr::add(ValueExpr::add(newLo, upperBound(loop)), lo, -1);
  ForOp shifted =
      rebuildLoop(rewriter, loop, newLo, newHi, /*move=*/true, [&](Value iter) {
        return ValueExpr::add(ValueExpr::add(ValueExpr::of(iter), lo), newLo,
                              -1);
      });
  rewriter.eraseOp(loop);
  return shifted;
}

FailureOr<ForOp> mlir::exogpu::extendLoop(RewriterBase &rewriter, ForOp loop,
                                          const ValueExpr &newLo,
                                          const ValueExpr &newHi,
                                          Refusal &refusal) {
  if (failed(checkSeqLoop(loop, "extend_loop", refusal)))
    return failure();
  std::string witness;
  ValueExpr lo = lowerBound(loop), hi = upperBound(loop);
  if (!isRelationInvariant(loop, newLo.expr, newLo.operands,
                           ConditionAtomKind::Le, lo.expr, lo.operands,
                           &witness) ||
      !isRelationInvariant(loop, hi.expr, hi.operands, ConditionAtomKind::Le,
                           newHi.expr, newHi.operands, &witness)) {
    explainNotInvariant(refusal, loop.getLoc(),
                        "cannot extend loop '" + iterName(loop) +
                            "': the new range does not always contain the "
                            "old one",
                        witness);
    return failure();
  }
  auto same = [](Value v) { return ValueExpr::of(v); };
  ForOp extended =
      rebuildLoop(rewriter, loop, newLo, newHi, /*move=*/true, same);
  // Guard the body with the old bounds that the new ones do not imply.
  ValueExpr iter = ValueExpr::of(extended.getIterator());
  SmallVector<std::tuple<ValueExpr, ConditionAtomKind, ValueExpr>> atoms;
  if (!isRelationInvariant(loop, lo.expr, lo.operands, ConditionAtomKind::Eq,
                           newLo.expr, newLo.operands))
    atoms.push_back({iter, ConditionAtomKind::Ge, lo});
  if (!isRelationInvariant(loop, hi.expr, hi.operands, ConditionAtomKind::Eq,
                           newHi.expr, newHi.operands))
    atoms.push_back({iter, ConditionAtomKind::Lt, hi});
  if (!atoms.empty()) {
    ParsedCondition cond = makeCondition(loop.getContext(), atoms);
    Block &body = extended.getBody().front();
    rewriter.setInsertionPointToStart(&body);
    IfOp guard =
        createIf(rewriter, loop.getLoc(), cond.condition, cond.operands);
    for (Operation &op : llvm::make_early_inc_range(body))
      if (&op != guard.getOperation())
        rewriter.moveOpBefore(&op, &guard.getBody().front(),
                              guard.getBody().front().end());
  }
  rewriter.eraseOp(loop);
  return extended;
}

//===----------------------------------------------------------------------===//
// remove_loop, add_loop
//===----------------------------------------------------------------------===//

/// Explains why `stmts` are not idempotent.
static void explainNotIdempotent(Refusal &refusal, Location loc,
                                 const Twine &what,
                                 const AccessConflict &conflict) {
  Diagnostic &diag = refusal.at(loc);
  diag << what << ": the statements are not idempotent";
  if (conflict.first.kind == AccessKind::Reduce) {
    diag.attachNote(conflict.first.loc)
        << "this reduction of " << conflict.first.describe()
        << " accumulates again when repeated";
    return;
  }
  attachConflictNotes(diag, conflict, "written", "and read");
}

FailureOr<SmallVector<Operation *>>
mlir::exogpu::removeLoop(RewriterBase &rewriter, ForOp loop, Refusal &refusal) {
  if (failed(checkSeqLoop(loop, "remove_loop", refusal)))
    return failure();
  SmallVector<Operation *> body = bodyOps(loop);
  if (!loop.getIterator().use_empty()) {
    refusal.at(loop.getLoc()) << "cannot remove loop '" << iterName(loop)
                              << "': its body uses the iterator";
    return failure();
  }
  std::string witness;
  ValueExpr lo = lowerBound(loop), hi = upperBound(loop);
  if (!isRelationInvariant(loop, lo.expr, lo.operands, ConditionAtomKind::Lt,
                           hi.expr, hi.operands, &witness)) {
    explainNotInvariant(refusal, loop.getLoc(),
                        "cannot remove loop '" + iterName(loop) +
                            "': it may run zero times",
                        witness);
    return failure();
  }
  AccessCollector collector;
  std::optional<AccessConflict> conflict;
  if (!isIdempotent(collector, body, conflict)) {
    explainNotIdempotent(refusal, loop.getLoc(),
                         "cannot remove loop '" + iterName(loop) + "'",
                         *conflict);
    return failure();
  }
  for (Operation *op : body)
    rewriter.moveOpBefore(op, loop);
  rewriter.eraseOp(loop);
  return body;
}

FailureOr<ForOp> mlir::exogpu::addLoop(RewriterBase &rewriter,
                                       ArrayRef<Operation *> block,
                                       StringRef name, const ValueExpr &hi,
                                       bool guard, Refusal &refusal) {
  Operation *first = block.front();
  MLIRContext *ctx = first->getContext();
  AffineExpr one = getAffineConstantExpr(1, ctx);
  std::string witness;
  if (!isRelationInvariant(first, hi.expr, hi.operands, ConditionAtomKind::Ge,
                           one, {}, &witness)) {
    explainNotInvariant(refusal, first->getLoc(),
                        "cannot add loop '" + name + "': it may run zero times",
                        witness);
    return failure();
  }
  // The block moves into the loop's body: what it defines would not be
  // visible after it.
  SmallVector<Operation *> after;
  for (Operation *op = block.back()->getNextNode(); op; op = op->getNextNode())
    after.push_back(op);
  if (Operation *user = findUseOfDefinitions(block, after)) {
    refusal.at(user->getLoc())
        << "cannot add loop '" << name
        << "': this statement after the block uses a buffer or window the "
           "block defines";
    return failure();
  }
  bool single = hi.expr == one;
  AccessCollector collector;
  std::optional<AccessConflict> conflict;
  if (!guard && !single && !isIdempotent(collector, block, conflict)) {
    explainNotIdempotent(refusal, first->getLoc(),
                         "cannot add loop '" + name + "' without a guard",
                         *conflict);
    return failure();
  }
  rewriter.setInsertionPoint(first);
  ForOp loop = createLoop(rewriter, first->getLoc(), name, LoopMode::seq,
                          ValueExpr::constant(0, ctx), hi);
  Block *dest = &loop.getBody().front();
  if (guard) {
    rewriter.setInsertionPointToStart(dest);
    ParsedCondition cond = makeCondition(
        ctx, {{ValueExpr::of(loop.getIterator()), ConditionAtomKind::Eq,
               ValueExpr::constant(0, ctx)}});
    dest = &createIf(rewriter, first->getLoc(), cond.condition, cond.operands)
                .getBody()
                .front();
  }
  for (Operation *op : block)
    rewriter.moveOpBefore(op, dest, dest->end());
  return loop;
}

//===----------------------------------------------------------------------===//
// lift_scope, mult_loops
//===----------------------------------------------------------------------===//

FailureOr<Operation *> mlir::exogpu::liftScope(RewriterBase &rewriter,
                                               Operation *inner,
                                               Refusal &refusal) {
  Operation *outer = inner->getParentOp();
  if (!isa<ForOp, IfOp>(inner) || !isa_and_nonnull<ForOp, IfOp>(outer) ||
      getSingleChild(outer) != inner) {
    refusal.at(inner->getLoc())
        << "lift_scope needs a loop or guard that is the only statement of "
           "a loop or guard";
    return failure();
  }
  if (isa<ForOp>(inner) && isa<ForOp>(outer)) {
    FailureOr<std::pair<ForOp, ForOp>> loops =
        reorderLoops(rewriter, cast<ForOp>(outer), refusal);
    if (failed(loops))
      return failure();
    return loops->first.getOperation();
  }
  for (Operation *op : {inner, outer})
    if (auto loop = dyn_cast<ForOp>(op))
      if (failed(checkSeqLoop(loop, "lift_scope", refusal)))
        return failure();
  if (auto loop = dyn_cast<ForOp>(outer);
      loop && usesControlValue(inner, loop.getIterator())) {
    refusal.at(inner->getLoc())
        << "cannot lift this guard out of loop '" << iterName(loop)
        << "': its condition uses the iterator";
    return failure();
  }
  // Rebuild: a shell of `inner` around a shell of `outer` around the body.
  rewriter.setInsertionPoint(outer);
  Operation *newOuter = rewriter.cloneWithoutRegions(*inner);
  Block &innerBody = inner->getRegion(0).front();
  Block &outerBody = outer->getRegion(0).front();
  Block *newOuterBody = rewriter.createBlock(
      &newOuter->getRegion(0), {}, innerBody.getArgumentTypes(),
      SmallVector<Location>(innerBody.getNumArguments(), inner->getLoc()));
  rewriter.setInsertionPointToStart(newOuterBody);
  Operation *newInner = rewriter.cloneWithoutRegions(*outer);
  Block *newInnerBody = rewriter.createBlock(
      &newInner->getRegion(0), {}, outerBody.getArgumentTypes(),
      SmallVector<Location>(outerBody.getNumArguments(), outer->getLoc()));
  if (auto loop = dyn_cast<ForOp>(outer))
    rewriter.replaceAllUsesWith(loop.getIterator(),
                                newInnerBody->getArgument(0));
  if (auto loop = dyn_cast<ForOp>(inner))
    rewriter.replaceAllUsesWith(loop.getIterator(),
                                newOuterBody->getArgument(0));
  moveOps(rewriter, innerBody, *newInnerBody);
  rewriter.eraseOp(outer);
  return newOuter;
}

FailureOr<ForOp> mlir::exogpu::multLoops(RewriterBase &rewriter, ForOp outer,
                                         StringRef name, Refusal &refusal) {
  if (failed(checkSeqLoop(outer, "mult_loops", refusal)))
    return failure();
  auto inner = dyn_cast_or_null<ForOp>(getSingleChild(outer));
  if (!inner || failed(checkSeqLoop(inner, "mult_loops", refusal))) {
    if (!inner)
      refusal.at(outer.getLoc())
          << "mult_loops needs a loop whose body is exactly one loop";
    return failure();
  }
  auto zero = [](AffineExpr e) {
    auto c = dyn_cast<AffineConstantExpr>(e);
    return c && c.getValue() == 0;
  };
  auto c = dyn_cast<AffineConstantExpr>(inner.getUpperBoundExpr());
  if (!zero(outer.getLowerBoundExpr()) || !zero(inner.getLowerBoundExpr()) ||
      !c || c.getValue() <= 0) {
    refusal.at(outer.getLoc())
        << "mult_loops needs loops from 0 and an inner loop with a constant "
           "positive upper bound";
    return failure();
  }
  int64_t factor = c.getValue();
  if (failed(checkControlMagnitude(
          llvm::SaturatingMultiply(
              coefficientMagnitude(outer.getUpperBoundExpr()),
              static_cast<uint64_t>(factor)),
          outer.getLoc(), "mult_loops", refusal)))
    return failure();
  MLIRContext *ctx = outer.getContext();
  rewriter.setInsertionPoint(outer);
  ForOp merged = createLoop(rewriter, outer.getLoc(), name, LoopMode::seq,
                            ValueExpr::constant(0, ctx),
                            ValueExpr::mul(upperBound(outer), factor));
  copyDiscardableAttrs(outer, merged);
  ValueExpr k = ValueExpr::of(merged.getIterator());
  Block &body = inner.getBody().front();
  for (Operation &op : body)
    substituteControlValues(
        &op, {{outer.getIterator(), {k.expr.floorDiv(factor), k.operands}},
              {inner.getIterator(), {k.expr % factor, k.operands}}});
  moveOps(rewriter, body, merged.getBody().front());
  rewriter.eraseOp(outer);
  return merged;
}
