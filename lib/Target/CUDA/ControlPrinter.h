//===- ControlPrinter.h - control expressions as C++ ------------*- C++ -*-===//
//
// Part of ExoGPU (internal to the CUDA translation). Control expressions
// (seeds/002 Fig. 1 CExpr, BExpr) are affine expressions; this file gathers
// those of one proc over one dimension list (ControlSpace), bounds them, and
// prints them as C++: `/` and `%` where the dividend is provably
// non-negative, `exo::floordiv` / `exo::floormod` otherwise (Fig. 1 gives
// floor semantics).
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_LIB_TARGET_CUDA_CONTROLPRINTER_H
#define EXOGPU_LIB_TARGET_CUDA_CONTROLPRINTER_H

#include "ExoGPU/Dialect/ExoGPU/IR/ExoGPUAttrs.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/DenseMap.h"

#include <optional>
#include <string>

namespace mlir::exogpu::cuda {

/// Bounds of an integer quantity; a missing bound is unbounded.
struct IntRange {
  std::optional<int64_t> lo, hi;

  static IntRange exact(int64_t v) { return {v, v}; }
  static IntRange between(int64_t lo, int64_t hi) { return {lo, hi}; }
  static IntRange nonNegative() { return {0, std::nullopt}; }
  bool isNonNegative() const { return lo && *lo >= 0; }
  /// Whether every value lies in [0, bound).
  bool isWithin(int64_t bound) const {
    return isNonNegative() && hi && *hi < bound;
  }
};

/// Bounds of each dimension of an expression.
using DimRangeFn = function_ref<IntRange(unsigned)>;
/// The C++ spelling of each dimension of an expression.
using DimNameFn = function_ref<std::string(unsigned)>;

/// Bounds of `expr` given bounds of its dimensions.
IntRange getRange(AffineExpr expr, DimRangeFn dimRange);

/// `expr` with the terms of every sum gathered (`a + 2 - a` is `2`), without
/// rewriting `mod` and `floordiv` (MLIR's simplification may turn `x mod c`
/// into `x - (x floordiv c) * c`, which reads worse).
AffineExpr normalizeControlExpr(AffineExpr expr);

/// Simplifies `expr` with MLIR's affine simplification, then drops `mod` and
/// `floordiv` that the bounds make trivial: `(q * c + r) mod c` is `r` and
/// `(q * c + r) floordiv c` is `q` when r lies in [0, c).
AffineExpr simplifyWithRanges(AffineExpr expr, unsigned numDims,
                              DimRangeFn dimRange);

/// `expr` as a C++ int expression.
std::string printControlExpr(AffineExpr expr, DimNameFn dimName,
                             DimRangeFn dimRange);

/// A condition (ConditionAttr) as a C++ boolean expression; `operand`
/// prints control operand `i` of the op that carries it.
std::string printConditionExpr(ConditionAttr condition, DimNameFn operand,
                               DimRangeFn dimRange);

/// The control values of one proc as one dimension list, so that the
/// expressions of different ops (windows over windows, loop bounds, indices)
/// compose. Dimension `i` is value `getValue(i)`.
class ControlSpace {
public:
  explicit ControlSpace(MLIRContext *context) : context(context) {}

  /// The dimension of `value`, added on first use.
  unsigned getDim(Value value);
  Value getValue(unsigned dim) const { return values[dim]; }
  unsigned getNumDims() const { return values.size(); }

  /// `expr` (over `operands`) over the space's dimensions.
  AffineExpr lift(AffineExpr expr, ValueRange operands);
  /// Every result of `map` (over `operands`), lifted.
  SmallVector<AffineExpr> lift(AffineMap map, ValueRange operands);

  MLIRContext *getContext() const { return context; }

private:
  MLIRContext *context;
  SmallVector<Value> values;
  DenseMap<Value, unsigned> dims;
};

} // namespace mlir::exogpu::cuda

#endif // EXOGPU_LIB_TARGET_CUDA_CONTROLPRINTER_H
