//===- ControlBounds.cpp - 32-bit safety of a kernel's control values -----===//
//
// Part of ExoGPU (internal to the CUDA translation). See ControlBounds.h.
//
//===----------------------------------------------------------------------===//

#include "ControlBounds.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/Support/CheckedArithmetic.h"

#include <limits>

using namespace mlir;
using namespace mlir::exogpu;
using namespace mlir::exogpu::cuda;

namespace {
constexpr int64_t kSaturated = std::numeric_limits<int64_t>::max();

int64_t saturatingAdd(int64_t a, int64_t b) {
  return llvm::checkedAdd(a, b).value_or(kSaturated);
}

int64_t saturatingMul(int64_t a, int64_t b) {
  return llvm::checkedMul(a, b).value_or(kSaturated);
}

/// A bound on a magnitude: `term + constant`, the term a host C++
/// expression (int64_t, saturating at INT64_MAX, never negative) of the
/// values the host passes, or absent (0).
struct Bound {
  std::string term;
  int64_t constant = 0;

  bool isConstant() const { return term.empty(); }
  std::string print() const {
    if (isConstant())
      return std::to_string(constant);
    if (constant == 0)
      return term;
    return "exo::bound_add(" + term + ", " + std::to_string(constant) + ")";
  }
};

Bound add(const Bound &a, const Bound &b) {
  std::string term = a.term.empty() ? b.term
                     : b.term.empty()
                         ? a.term
                         : "exo::bound_add(" + a.term + ", " + b.term + ")";
  return {term, saturatingAdd(a.constant, b.constant)};
}

Bound scale(const Bound &a, int64_t factor) {
  if (factor == 1 || a.isConstant())
    return {a.term, saturatingMul(a.constant, factor)};
  return {"exo::bound_mul(" + a.term + ", " + std::to_string(factor) + ")",
          saturatingMul(a.constant, factor)};
}

Bound max(const Bound &a, const Bound &b) {
  if (a.isConstant() && b.isConstant())
    return {"", std::max(a.constant, b.constant)};
  if (a.isConstant() && a.constant == 0)
    return b;
  if (b.isConstant() && b.constant == 0)
    return a;
  return {"exo::bound_max(" + a.print() + ", " + b.print() + ")", 0};
}

/// A bound of |x / divisor| (floor or ceiling) for |x| <= a: a / divisor
/// when x is not negative, one more otherwise (floor(-1 / 2) is -1).
Bound divide(const Bound &a, int64_t divisor, bool nonNegative) {
  if (divisor == 1)
    return a;
  Bound quotient =
      a.isConstant()
          ? Bound{"", a.constant / divisor}
          : Bound{wrapOperand(a.print()) + " / " + std::to_string(divisor), 0};
  return nonNegative ? quotient : add(quotient, {"", 1});
}

/// A bound of |i| for 0 <= i < hi and |hi| <= a: a - 1 (or 0).
Bound decrement(const Bound &a) {
  if (a.constant > 0)
    return {a.term, a.constant - 1};
  if (a.isConstant())
    return {"", 0};
  return {"exo::bound_dec(" + a.term + ")", 0};
}

int64_t magnitude(int64_t value) {
  return value == std::numeric_limits<int64_t>::min() ? kSaturated
                                                      : std::abs(value);
}

/// The bound of a value the host passes: the value itself (its host name).
Bound getCapturedBound(ProcState &state, Value value) {
  std::string name = state.print(value);
  auto it = state.ranges.find(value);
  if (it != state.ranges.end() && it->second.isNonNegative())
    return {name, 0};
  return {"exo::magnitude(" + name + ")", 0};
}

/// Bounds the values of one kernel's control expressions.
class Bounder {
public:
  Bounder(ProcState &state, ArrayRef<Value> captured, Location loc)
      : state(state), captured(captured), loc(loc) {}

  /// Adds the bounds that cover every subexpression of `expr` to `checks`.
  LogicalResult cover(AffineExpr expr, SmallVectorImpl<Bound> &checks);

private:
  /// A bound on |value of expr|.
  FailureOr<Bound> getValueBound(AffineExpr expr);
  FailureOr<Bound> getDimBound(unsigned dim);

  ProcState &state;
  ArrayRef<Value> captured;
  Location loc;
  DenseMap<unsigned, Bound> dimBounds;
};
} // namespace

LogicalResult Bounder::cover(AffineExpr expr, SmallVectorImpl<Bound> &checks) {
  // A sum's bound covers its terms; a quotient or remainder is smaller than
  // its dividend, which the kernel evaluates too and which is bounded
  // instead.
  auto isDivision = [](AffineExpr e) {
    return e.getKind() == AffineExprKind::FloorDiv ||
           e.getKind() == AffineExprKind::CeilDiv ||
           e.getKind() == AffineExprKind::Mod;
  };
  auto check = [&](AffineExpr e) {
    if (isDivision(e))
      return success();
    FailureOr<Bound> bound = getValueBound(e);
    if (succeeded(bound))
      checks.push_back(*bound);
    return success(succeeded(bound));
  };
  if (failed(check(expr)))
    return failure();
  WalkResult result = expr.walk([&](AffineExpr e) {
    if (isDivision(e) && failed(check(cast<AffineBinaryOpExpr>(e).getLHS())))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

FailureOr<Bound> Bounder::getValueBound(AffineExpr expr) {
  if (auto c = dyn_cast<AffineConstantExpr>(expr))
    return Bound{"", magnitude(c.getValue())};
  if (auto d = dyn_cast<AffineDimExpr>(expr))
    return getDimBound(d.getPosition());
  auto binary = cast<AffineBinaryOpExpr>(expr);
  FailureOr<Bound> lhs = getValueBound(binary.getLHS());
  if (failed(lhs))
    return failure();
  auto rhsConstant = dyn_cast<AffineConstantExpr>(binary.getRHS());
  switch (expr.getKind()) {
  case AffineExprKind::Add: {
    FailureOr<Bound> rhs = getValueBound(binary.getRHS());
    if (failed(rhs))
      return failure();
    return add(*lhs, *rhs);
  }
  case AffineExprKind::Mul:
    if (rhsConstant)
      return scale(*lhs, magnitude(rhsConstant.getValue()));
    break;
  case AffineExprKind::FloorDiv:
  case AffineExprKind::CeilDiv:
    if (rhsConstant && rhsConstant.getValue() > 0)
      return divide(*lhs, rhsConstant.getValue(),
                    getRange(binary.getLHS(), [&](unsigned d) {
                      return state.getDimRange(d);
                    }).isNonNegative());
    break;
  case AffineExprKind::Mod:
    if (rhsConstant)
      return Bound{"", magnitude(rhsConstant.getValue())};
    break;
  default:
    break;
  }
  std::string text;
  llvm::raw_string_ostream os(text);
  expr.print(os);
  return emitInternalError(loc)
         << "control expression " << text << " is not affine";
}

FailureOr<Bound> Bounder::getDimBound(unsigned dim) {
  auto it = dimBounds.find(dim);
  if (it != dimBounds.end())
    return it->second;
  Value value = state.space.getValue(dim);
  Bound bound;
  IntRange range = state.getDimRange(dim);
  if (value.getType().isInteger(1)) {
    bound = {"", 1};
  } else if (llvm::is_contained(captured, value)) {
    // Passed by the host: its value is known at the launch.
    bound = getCapturedBound(state, value);
  } else if (range.lo && range.hi) {
    bound = {"", std::max(magnitude(*range.lo), magnitude(*range.hi))};
  } else if (auto arg = dyn_cast<BlockArgument>(value);
             arg && isa<ForOp>(arg.getOwner()->getParentOp())) {
    // lo <= i < hi: |i| <= max(|lo|, |hi| - 1), and |i| <= |hi| - 1 when
    // lo >= 0.
    auto loop = cast<ForOp>(arg.getOwner()->getParentOp());
    FailureOr<Bound> lo = getValueBound(
        state.space.lift(loop.getLowerBoundExpr(), loop.getCtrl()));
    FailureOr<Bound> hi = getValueBound(
        state.space.lift(loop.getUpperBoundExpr(), loop.getCtrl()));
    if (failed(lo) || failed(hi))
      return failure();
    bound = range.isNonNegative() ? decrement(*hi) : max(*lo, *hi);
  } else {
    return emitInternalError(loc)
           << "a control value of the kernel has no bound on the host";
  }
  dimBounds[dim] = bound;
  return bound;
}

FailureOr<KernelControlBounds> mlir::exogpu::cuda::boundKernelControlValues(
    ProcState &state, ArrayRef<AffineExpr> exprs, ArrayRef<Value> captured,
    Location loc) {
  Bounder bounder(state, captured, loc);
  SmallVector<Bound> checks;
  for (AffineExpr expr : exprs)
    if (failed(bounder.cover(expr, checks)))
      return failure();
  // Every value passed as an int but a size (the host function bounds
  // those on entry).
  for (Value value : captured) {
    auto param = dyn_cast<BlockArgument>(value);
    bool isSize =
        param && param.getOwner()->getParentOp() == state.proc &&
        state.proc.getParamKind(param.getArgNumber()) == ParamKind::size;
    if (value.getType().isIndex() && !isSize)
      checks.push_back(getCapturedBound(state, value));
  }
  // The host function checks its sizes on entry.
  llvm::StringSet<> sizeNames;
  for (auto [i, param] : llvm::enumerate(state.proc.getBody().getArguments()))
    if (state.proc.getParamKind(i) == ParamKind::size)
      sizeNames.insert(state.names.lookup(param));
  // Of the bounds with one term, the largest constant covers the others.
  llvm::MapVector<StringRef, int64_t> largest;
  for (const Bound &check : checks) {
    if (check.isConstant()) {
      if (check.constant > std::numeric_limits<int32_t>::max())
        return emitTranslationError(loc)
               << "a control value of the kernel can reach " << check.constant
               << ", past the 32-bit int its kernel computes in";
      continue;
    }
    auto [it, inserted] = largest.try_emplace(check.term, check.constant);
    it->second = std::max(it->second, check.constant);
  }
  KernelControlBounds result;
  for (auto [term, constant] : largest) {
    std::string text = Bound{term.str(), constant}.print();
    if (!sizeNames.contains(text))
      result.checks.push_back(text);
  }
  return result;
}
