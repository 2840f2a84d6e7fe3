//===- LoopRewrites.h - Exo's checked loop rewrites -------------*- C++ -*-===//
//
// Part of ExoGPU. Loop and scope rewrites of the scheduling language (Exo's
// `divide_loop`, `reorder_loops`, `fission`, `fuse`, `unroll_loop`,
// `cut_loop`, `shift_loop`, `remove_loop`, `add_loop`, `lift_scope`,
// `mult_loops`, plus `extend_loop`). Each checks that it preserves the
// sequential meaning of the proc (seeds/002 Sec. 2.3) and otherwise leaves
// the IR untouched and explains why in `refusal`. They restructure seq loops
// only: loop modes are annotations set afterwards (set_loop_mode).
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_TRANSFORMS_SCHEDULING_LOOPREWRITES_H
#define EXOGPU_TRANSFORMS_SCHEDULING_LOOPREWRITES_H

#include "ExoGPU/Transforms/Scheduling/ControlRewriting.h"
#include "ExoGPU/Transforms/Scheduling/RewriteSupport.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::exogpu {

/// How divide_loop handles iterations beyond the last full block.
enum class TailStrategy {
  /// Prove that the trip count is a multiple of the factor.
  Perfect,
  /// Round the outer loop up and guard the body.
  Guard,
  /// A separate loop for the remaining iterations.
  Cut,
};

/// The loops divide_loop creates; `tail` is null unless the tail is cut.
struct DividedLoop {
  ForOp outer, inner, tail;
};

/// `for i in seq(lo, hi): s` -> `for io: for ii in seq(0, factor):
/// s[i -> lo + factor * io + ii]`, `factor` positive (the transform op's
/// attribute constraint, at most 2^40). Guard is always legal; Perfect needs
/// a proof that `factor` divides `hi - lo`, Cut one that `lo <= hi` (its tail
/// runs `(hi - lo) mod factor` iterations, never negative).
FailureOr<DividedLoop> divideLoop(RewriterBase &rewriter, ForOp loop,
                                  int64_t factor, StringRef outerName,
                                  StringRef innerName, TailStrategy tail,
                                  Refusal &refusal);

/// `for i: for j: s` -> `for j: for i: s`. Legal when the inner bounds do
/// not use `i` and no two instances of `s` whose order changes conflict.
/// Returns the new outer and inner loops.
FailureOr<std::pair<ForOp, ForOp>> reorderLoops(RewriterBase &rewriter,
                                                ForOp outer, Refusal &refusal);

/// Splits the `levels` (at least one) scopes (loops or guards) around the
/// gap after `beforeGap` into two copies, the statements before the gap in
/// the first.
/// Legal when the statements after the gap define nothing the ones before
/// use and no instance of an after-statement that ran before an instance of
/// a before-statement conflicts with it. Returns the two outermost copies.
FailureOr<std::pair<Operation *, Operation *>> fission(RewriterBase &rewriter,
                                                       Operation *beforeGap,
                                                       unsigned levels,
                                                       Refusal &refusal);

/// Fuses two adjacent loops with equal bounds (`for i: s1; for j: s2` ->
/// `for i: s1; s2[j -> i]`), legal when no instance of s2 that moves before
/// an instance of s1 conflicts with it, or two adjacent guards with the same
/// condition (always legal). Returns the fused statement.
FailureOr<Operation *> fuse(RewriterBase &rewriter, Operation *first,
                            Operation *second, Refusal &refusal);

/// Replaces a loop with constant bounds (at most 1024 iterations) by one copy
/// of its body per iteration, refusing when the copies would fold constants
/// beyond 2^40 or not verify (a constant extent below 1). Returns the new
/// statements.
FailureOr<SmallVector<Operation *>> unrollLoop(RewriterBase &rewriter,
                                               ForOp loop, Refusal &refusal);

/// `for i in seq(lo, hi)` -> `for i in seq(lo, cut); for i in seq(cut, hi)`,
/// legal when `lo <= cut <= hi`.
FailureOr<std::pair<ForOp, ForOp>> cutLoop(RewriterBase &rewriter, ForOp loop,
                                           const ValueExpr &cut,
                                           Refusal &refusal);

/// `for i in seq(lo, hi): s` -> `for i in seq(newLo, newLo + hi - lo):
/// s[i -> i + lo - newLo]`, legal when `newLo >= 0`.
FailureOr<ForOp> shiftLoop(RewriterBase &rewriter, ForOp loop,
                           const ValueExpr &newLo, Refusal &refusal);

/// `for i: s` -> `s`, legal when `s` does not use `i`, the loop runs at
/// least once and `s` is idempotent. Returns the statements of `s`.
FailureOr<SmallVector<Operation *>> removeLoop(RewriterBase &rewriter,
                                               ForOp loop, Refusal &refusal);

/// `s` -> `for name in seq(0, hi): s` (or `if name == 0: s` inside with
/// `guard`), legal when the loop runs at least once, nothing after `s` uses
/// what `s` defines, and `s` is idempotent (with `guard`, or when `hi` is 1,
/// it only needs to run once).
FailureOr<ForOp> addLoop(RewriterBase &rewriter, ArrayRef<Operation *> block,
                         StringRef name, const ValueExpr &hi, bool guard,
                         Refusal &refusal);

/// Lifts a loop or guard out of the loop or guard it is the only statement
/// of: `for i: if c: s` -> `if c: for i: s` (c must not use i),
/// `if c: for i: s` -> `for i: if c: s`, `if a: if b: s` -> `if b: if a: s`;
/// two loops are reordered as by reorderLoops. Returns the new outer scope.
FailureOr<Operation *> liftScope(RewriterBase &rewriter, Operation *inner,
                                 Refusal &refusal);

/// `for i in seq(0, e): for j in seq(0, c): s` (c constant) ->
/// `for k in seq(0, e * c): s[i -> k / c, j -> k mod c]`.
FailureOr<ForOp> multLoops(RewriterBase &rewriter, ForOp outer, StringRef name,
                           Refusal &refusal);

/// `for i in seq(lo, hi): s` -> `for i in seq(newLo, newHi): if lo <= i <
/// hi: s`, legal when `newLo <= lo` and `hi <= newHi`: the new iterations do
/// nothing. Returns the loop.
FailureOr<ForOp> extendLoop(RewriterBase &rewriter, ForOp loop,
                            const ValueExpr &newLo, const ValueExpr &newHi,
                            Refusal &refusal);

} // namespace mlir::exogpu

#endif // EXOGPU_TRANSFORMS_SCHEDULING_LOOPREWRITES_H
