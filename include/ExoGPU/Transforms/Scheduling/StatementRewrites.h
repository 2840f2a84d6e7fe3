//===- StatementRewrites.h - Exo's checked statement rewrites ---*- C++ -*-===//
//
// Part of ExoGPU. Rewrites of statements and data expressions (Exo's
// `reorder_stmts`, `bind_expr`, `rewrite_expr`, `inline_assign`,
// `commute_expr`, `simplify`, `eliminate_dead_code`) and guard removal:
// `remove_if`, checked where the guarded-away iterations' effects are dead
// (the example of seeds/002 Sec. 8, which Exo could only do unchecked), or
// explicitly unsafe and counted on the proc.
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_TRANSFORMS_SCHEDULING_STATEMENTREWRITES_H
#define EXOGPU_TRANSFORMS_SCHEDULING_STATEMENTREWRITES_H

#include "ExoGPU/Transforms/Scheduling/ControlRewriting.h"
#include "ExoGPU/Transforms/Scheduling/RewriteSupport.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::exogpu {

/// The proc attribute counting the unsafe (unchecked) steps applied to it.
constexpr StringLiteral kUnsafeStepsAttrName = "exogpu.unsafe_steps";

/// Records an unsafe step on the proc of `op`: increments its
/// `exogpu.unsafe_steps` and emits a warning at `op` naming `rewrite`.
void recordUnsafeStep(RewriterBase &rewriter, Operation *op, StringRef rewrite);

/// `s1; s2` -> `s2; s1`, legal when `s2` uses nothing `s1` defines and the
/// statements commute: no element one writes is read or written by the
/// other (reductions commute with each other). Synchronization statements
/// have no data effects.
LogicalResult reorderStmts(RewriterBase &rewriter, Operation *first,
                           Operation *second, Refusal &refusal);

/// Binds the data expression `expr` (an expression op of an assign or
/// reduce) to a new scalar buffer `name` in `memory`: `name = expr` right
/// before the statement, which then reads `name[]`. Always legal. Returns the
/// new alloc and assign.
FailureOr<std::pair<AllocOp, AssignOp>>
bindExpr(RewriterBase &rewriter, Operation *expr, StringRef name,
         MemoryAttr memory, Refusal &refusal);

/// Replaces control expression number `index` of `op` (in the order of
/// getControlMaps: a loop's lo and hi, an access's indices, ...) with
/// `replacement`, legal when both are equal in every instance of `op`.
LogicalResult rewriteExpr(RewriterBase &rewriter, Operation *op, unsigned index,
                          const ValueExpr &replacement, Refusal &refusal);

/// Inlines `x[c] = e` into the statements after it in its block: their reads
/// of `x` (which must read `x[c]` itself) become `e`, and the assignment is
/// removed. Legal when `x` is an allocation read nowhere else, nothing after
/// the assignment and before a read writes `x[c]` or what `e` reads.
LogicalResult inlineAssign(RewriterBase &rewriter, AssignOp assign,
                           Refusal &refusal);

/// `a + b` -> `b + a`, `a * b` -> `b * a` (exact in floating point).
LogicalResult commuteExpr(RewriterBase &rewriter, Operation *expr,
                          Refusal &refusal);

/// Simplifies the control expressions of `root` in context (see
/// simplifyControl) and removes guards with constant conditions.
void simplify(RewriterBase &rewriter, Operation *root);

/// Removes a guard whose condition holds in every instance (keeping its
/// body) or in none, or a loop that runs zero times in every instance.
/// Returns the statements left in place of `op`.
FailureOr<SmallVector<Operation *>>
eliminateDeadCode(RewriterBase &rewriter, Operation *op, Refusal &refusal);

/// `if c: s` -> `s`. Checked: legal when, in the instances the guard
/// excluded, `s` fails no run-time check of the meaning (RuntimeChecks.h:
/// bounds through windows, extents, preconditions and bodies of what it
/// calls) and writes only elements of allocations that nothing reads
/// afterwards (seeds/002 Sec. 8). With `unsafe`, the check is skipped and the step is
/// recorded (recordUnsafeStep). Returns the statements of `s`.
FailureOr<SmallVector<Operation *>> removeIf(RewriterBase &rewriter, IfOp guard,
                                             bool unsafe, Refusal &refusal);

} // namespace mlir::exogpu

#endif // EXOGPU_TRANSFORMS_SCHEDULING_STATEMENTREWRITES_H
