//===- ControlRewriting.h - editing control expressions of statements -*- C++
//-*-//
//
// Part of ExoGPU. Statements keep their control expressions (seeds/002
// Fig. 1: indices, bounds, window coordinates, conditions) as affine maps
// over their `ctrl` operands. Scheduling rewrites substitute loop iterators
// (`i -> 16 * io + ii`), simplify under the enclosing loop bounds, and read
// expressions that scripts write as text (`K / 16 + 1`, `A[i * 16:i * 16 +
// 16, 0:K]`) with names resolved at a statement.
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_TRANSFORMS_SCHEDULING_CONTROLREWRITING_H
#define EXOGPU_TRANSFORMS_SCHEDULING_CONTROLREWRITING_H

#include "ExoGPU/Dialect/ExoGPU/IR/ExoGPUOps.h"
#include "ExoGPU/Transforms/Scheduling/Refusal.h"

namespace mlir::exogpu {

/// A quasi-affine expression over SSA control values.
struct ValueExpr {
  AffineExpr expr;
  SmallVector<Value, 4> operands;

  /// The expression `value` itself.
  static ValueExpr of(Value value);
  /// The constant `c`.
  static ValueExpr constant(int64_t c, MLIRContext *context);
  /// `a + scale * b` (operands merged).
  static ValueExpr add(const ValueExpr &a, const ValueExpr &b,
                       int64_t scale = 1);
  /// `a * c`.
  static ValueExpr mul(const ValueExpr &a, int64_t c);
};

/// `expr` simplified by MLIR's affine simplification when that makes it
/// smaller (flattening rewrites `(i + 1) mod 2` into a longer form; then the
/// expression is kept as it is).
AffineExpr tidyExpr(AffineExpr expr, unsigned numDims);

/// Merges operand lists: returns `expr` (over `exprOperands`) rewritten over
/// `operands`, appending the values it needs.
AffineExpr remapOperands(AffineExpr expr, ValueRange exprOperands,
                         SmallVectorImpl<Value> &operands);

/// The control operands of a statement or expression op (empty for ops
/// without control expressions).
OperandRange getControlOperands(Operation *op);

/// The affine maps over the control operands that `op` stores (bounds,
/// indices, extents, coordinates, the map of a condition), in a fixed order.
SmallVector<AffineMap> getControlMaps(Operation *op);

/// Replaces the maps of `op` (same order and result counts as
/// getControlMaps) and its control operands. Operands no map uses are
/// dropped; the rest are renumbered in order of first use.
void setControlMaps(Operation *op, ArrayRef<AffineMap> maps,
                    ValueRange operands);

/// `value := replacement` in control expressions.
struct ControlSubstitution {
  Value value;
  ValueExpr replacement;
};

/// Applies `substitutions` to the control expressions of `root` and of every
/// op nested in it.
void substituteControlValues(Operation *root,
                             ArrayRef<ControlSubstitution> substitutions);

/// Simplifies the control expressions of `root` and every op nested in it:
/// affine simplification, then `(c * q + r) / c -> q` and
/// `(c * q + r) mod c -> r` where `0 <= r < c` holds in every instance of the
/// op (decided with the Presburger library under the enclosing loop bounds,
/// guards and preconditions). Allocation extents and window coordinates,
/// which determine result types, are left as they are.
void simplifyControl(Operation *root);

/// Looks up a name (`i`, `%i`) visible at `at`: iterators of the loops
/// enclosing `at`, parameters of its proc, and allocations, windows and
/// splits defined before it in enclosing blocks. `extra` names come first.
Value lookupName(StringRef name, Operation *at,
                 ArrayRef<std::pair<StringRef, Value>> extra = {});

/// Parses a control expression written as text (`K / 16 + 1`, `2 * io + 1`;
/// `/` is floor division, `mod` or `%` the remainder) with names resolved at
/// `at`. Reports errors at `loc`.
FailureOr<ValueExpr>
parseControlText(StringRef text, Operation *at, Location loc, Refusal &refusal,
                 ArrayRef<std::pair<StringRef, Value>> extra = {});

/// A condition parsed from text: `k1 < K / 16 and k1 > 0 or b`.
struct ParsedCondition {
  ConditionAttr condition;
  SmallVector<Value, 4> operands;
};
FailureOr<ParsedCondition>
parseConditionText(StringRef text, Operation *at, Location loc,
                   Refusal &refusal,
                   ArrayRef<std::pair<StringRef, Value>> extra = {});

/// A buffer access parsed from text: `A[i * 16:i * 16 + 16, k, :]`.
struct ParsedAccess {
  Value buffer;
  SmallVector<int32_t, 4> kinds;
  SmallVector<AffineExpr, 4> exprs;
  SmallVector<Value, 4> operands;
};
FailureOr<ParsedAccess>
parseAccessText(StringRef text, Operation *at, Location loc, Refusal &refusal,
                ArrayRef<std::pair<StringRef, Value>> extra = {});

/// Creates a loop `for name in mode(lo, hi)` with an empty body at the
/// builder's insertion point (the insertion point is left after it).
ForOp createLoop(OpBuilder &builder, Location loc, StringRef name,
                 LoopMode mode, const ValueExpr &lo, const ValueExpr &hi,
                 CollUnitAttr unit = {});

/// Creates `if condition` with an empty body.
IfOp createIf(OpBuilder &builder, Location loc, ConditionAttr condition,
              ValueRange operands);

/// The condition `lhs rel rhs` (rel: Eq, Lt, Le, Gt, Ge) over merged
/// operands; conjunctions of several relations with `relations`.
ParsedCondition makeCondition(
    MLIRContext *context,
    ArrayRef<std::tuple<ValueExpr, ConditionAtomKind, ValueExpr>> relations);

} // namespace mlir::exogpu

#endif // EXOGPU_TRANSFORMS_SCHEDULING_CONTROLREWRITING_H
