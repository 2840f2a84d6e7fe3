//===- StatementInfo.cpp - what the engine reads off statements -----------===//
//
// Part of ExoGPU. Accesses, thread mappings and iterator coefficients of AMIR
// statements (see StatementInfo.h).
//
//===----------------------------------------------------------------------===//

#include "StatementInfo.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::exoam;

bool mlir::exoam::isTaskLoop(LoopOp loop) {
  Block &body = loop.getBody().front();
  return !body.empty() && isa<IncTaskIdOp>(body.front());
}

ThreadMappingAttr mlir::exoam::getThreadMapping(Operation *op) {
  for (NamedAttribute attr : op->getAttrs())
    if (auto threads = dyn_cast<ThreadMappingAttr>(attr.getValue()))
      return threads;
  return {};
}

void mlir::exoam::forEachAccess(Operation *op,
                                function_ref<void(StringAttr, AccessAttr)> fn) {
  for (NamedAttribute attr : op->getAttrs()) {
    if (auto access = dyn_cast<AccessAttr>(attr.getValue()))
      fn(attr.getName(), access);
    else if (auto array = dyn_cast<ArrayAttr>(attr.getValue()))
      for (Attribute element : array)
        if (auto access = dyn_cast<AccessAttr>(element))
          fn(attr.getName(), access);
  }
}

bool mlir::exoam::isAllocatedBefore(Operation *op, StringAttr var,
                                    Block &body) {
  for (Operation *at = op; at; at = at->getParentOp()) {
    for (Operation *prev = at->getPrevNode(); prev; prev = prev->getPrevNode())
      if (auto alloc = dyn_cast<AllocOp>(prev);
          alloc && alloc.getTarget().getVar() == var)
        return true;
    if (at->getBlock() == &body)
      return false;
  }
  return false;
}

/// The innermost task loop around `op`, if any.
static LoopOp getEnclosingTaskLoop(Operation *op) {
  for (auto loop = op->getParentOfType<LoopOp>(); loop;
       loop = loop->getParentOfType<LoopOp>())
    if (isTaskLoop(loop))
      return loop;
  return {};
}

bool mlir::exoam::hasLifetimesWithinTasks(ProcOp proc, StringAttr var) {
  bool within = true;
  proc.walk([&](Operation *op) {
    if (isa<AllocOp>(op) || !within)
      return;
    forEachAccess(op, [&](StringAttr, AccessAttr access) {
      if (access.getVar() != var)
        return;
      LoopOp task = getEnclosingTaskLoop(op);
      within &= task && isAllocatedBefore(op, var, task.getBody().front());
    });
  });
  return within;
}

std::optional<AwaitReach> mlir::exoam::getAwaitReach(ProcOp proc,
                                                     StringAttr var) {
  if (!hasLifetimesWithinTasks(proc, var))
    return std::nullopt;
  AwaitReach reach;
  bool ok = true;
  proc.walk([&](AwaitOp await) {
    if (await.getBarrier().getVar() != var)
      return;
    ThreadMappingAttr threads = await.getThreads();
    if (threads.getScope() == ExecScope::cpu) {
      ok = false;
      return;
    }
    // The threads of the collective tiling's index space.
    int64_t count = 1;
    for (TilingDimAttr dim : threads.getDims())
      if (dim.getExtent() < 0 ||
          llvm::MulOverflow(count, dim.getExtent(), count))
        ok = false;
    reach.threads = std::max(reach.threads, count);
    QualMask full = await.getFull().getBits();
    std::pair<QualMask, QualMask> grant{full,
                                        await.getTemp().getBits() & ~full};
    if (!llvm::is_contained(reach.grants, grant))
      reach.grants.push_back(grant);
  });
  if (!ok)
    return std::nullopt;
  return reach;
}

SmallVector<int> mlir::exoam::getIteratorMap(Operation *op, Value iterator) {
  SmallVector<int> iteratorOf;
  for (Value operand : op->getOperands())
    iteratorOf.push_back(operand == iterator ? 0 : -1);
  return iteratorOf;
}

/// Whether operand `position` is an iterator of interest (or past the list).
static bool isIterator(uint64_t position, IteratorMap iteratorOf) {
  return position >= iteratorOf.size() || iteratorOf[position] >= 0;
}

bool mlir::exoam::usesIterator(AffineExpr expr, IteratorMap iteratorOf) {
  bool uses = false;
  expr.walk([&](AffineExpr sub) {
    if (auto dim = dyn_cast<AffineDimExpr>(sub))
      uses |= isIterator(dim.getPosition(), iteratorOf);
  });
  return uses;
}

bool mlir::exoam::usesIterator(ThreadMappingAttr threads,
                               IteratorMap iteratorOf) {
  for (TilingDimAttr dim : threads.getDims())
    for (TilingOpAttr tiling : dim.getOps())
      if (tiling.getIter() &&
          (*tiling.getIter() < 0 || isIterator(*tiling.getIter(), iteratorOf)))
        return true;
  return false;
}

std::optional<SmallVector<int64_t>>
mlir::exoam::getIteratorCoefficients(AffineExpr expr, IteratorMap iteratorOf,
                                     unsigned count) {
  SmallVector<int64_t> zero(count, 0);
  if (!usesIterator(expr, iteratorOf))
    return zero;
  if (auto dim = dyn_cast<AffineDimExpr>(expr)) {
    if (dim.getPosition() >= iteratorOf.size())
      return std::nullopt;
    zero[iteratorOf[dim.getPosition()]] = 1;
    return zero;
  }
  auto binary = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!binary)
    return std::nullopt;
  if (expr.getKind() == AffineExprKind::Add) {
    auto lhs = getIteratorCoefficients(binary.getLHS(), iteratorOf, count);
    auto rhs = getIteratorCoefficients(binary.getRHS(), iteratorOf, count);
    if (!lhs || !rhs)
      return std::nullopt;
    for (unsigned i = 0; i < count; ++i)
      if (llvm::AddOverflow((*lhs)[i], (*rhs)[i], (*lhs)[i]))
        return std::nullopt;
    return lhs;
  }
  if (expr.getKind() != AffineExprKind::Mul)
    return std::nullopt; // mod, floordiv, ceildiv of an iterator
  AffineExpr factor = binary.getLHS(), scaled = binary.getRHS();
  if (!isa<AffineConstantExpr>(factor))
    std::swap(factor, scaled);
  auto constant = dyn_cast<AffineConstantExpr>(factor);
  if (!constant)
    return std::nullopt;
  auto inner = getIteratorCoefficients(scaled, iteratorOf, count);
  if (inner)
    for (int64_t &c : *inner)
      if (llvm::MulOverflow(c, constant.getValue(), c))
        return std::nullopt;
  return inner;
}

/// Per dimension of `access`, `of` applied to its bounds (both bounds of a
/// range must give the same); nothing if a bound gives nothing.
template <typename T>
static std::optional<SmallVector<T>>
getPerDimension(AccessAttr access,
                function_ref<std::optional<T>(AffineExpr)> of) {
  AffineMap coords = access.getCoords();
  SmallVector<T> perDim;
  unsigned result = 0;
  for (int32_t kind : access.getKinds()) {
    std::optional<T> first;
    for (int32_t i = 0; i <= kind; ++i) {
      if (result >= coords.getNumResults())
        return std::nullopt;
      std::optional<T> bound = of(coords.getResult(result++));
      if (!bound || (first && *first != *bound))
        return std::nullopt;
      first = std::move(bound);
    }
    if (!first)
      return std::nullopt;
    perDim.push_back(std::move(*first));
  }
  return perDim;
}

std::optional<SmallVector<SmallVector<int64_t>>>
mlir::exoam::getAccessShifts(AccessAttr access, IteratorMap iteratorOf,
                             unsigned count) {
  return getPerDimension<SmallVector<int64_t>>(access, [&](AffineExpr bound) {
    return getIteratorCoefficients(bound, iteratorOf, count);
  });
}

/// getPeriodShift of a binary expression whose operands change by `lhs` and
/// `rhs`.
static std::optional<int64_t> getBinaryPeriodShift(AffineBinaryOpExpr binary,
                                                   int64_t lhs, int64_t rhs) {
  int64_t shift;
  switch (binary.getKind()) {
  case AffineExprKind::Add:
    if (llvm::AddOverflow(lhs, rhs, shift))
      return std::nullopt;
    return shift;
  case AffineExprKind::Mul: {
    // Quasi-affine: one factor is a constant (an operand's shift is 0 only
    // if it does not use y).
    auto lhsConstant = dyn_cast<AffineConstantExpr>(binary.getLHS());
    auto rhsConstant = dyn_cast<AffineConstantExpr>(binary.getRHS());
    if (rhsConstant && !llvm::MulOverflow(lhs, rhsConstant.getValue(), shift))
      return shift;
    if (lhsConstant && !llvm::MulOverflow(rhs, lhsConstant.getValue(), shift))
      return shift;
    return std::nullopt;
  }
  case AffineExprKind::Mod:
  case AffineExprKind::FloorDiv:
  case AffineExprKind::CeilDiv: {
    auto divisor = dyn_cast<AffineConstantExpr>(binary.getRHS());
    if (!divisor || divisor.getValue() <= 0 || rhs != 0 ||
        lhs % divisor.getValue() != 0)
      return std::nullopt;
    // (e + k d) mod d = e mod d; (e + k d) div d = e div d + k.
    return binary.getKind() == AffineExprKind::Mod ? 0
                                                   : lhs / divisor.getValue();
  }
  default:
    return std::nullopt;
  }
}

std::optional<int64_t> mlir::exoam::getPeriodShift(AffineExpr expr,
                                                   IteratorMap iteratorOf,
                                                   int64_t period,
                                                   int64_t *largest) {
  if (!usesIterator(expr, iteratorOf))
    return 0;
  std::optional<int64_t> shift;
  if (auto dim = dyn_cast<AffineDimExpr>(expr)) {
    if (dim.getPosition() < iteratorOf.size())
      shift = period;
  } else if (auto binary = dyn_cast<AffineBinaryOpExpr>(expr)) {
    std::optional<int64_t> lhs =
        getPeriodShift(binary.getLHS(), iteratorOf, period, largest);
    std::optional<int64_t> rhs =
        getPeriodShift(binary.getRHS(), iteratorOf, period, largest);
    if (lhs && rhs)
      shift = getBinaryPeriodShift(binary, *lhs, *rhs);
  }
  if (!shift || *shift == std::numeric_limits<int64_t>::min())
    return std::nullopt;
  if (largest)
    *largest = std::max(*largest, std::abs(*shift));
  return shift;
}

void mlir::exoam::collectIteratorDivisors(AffineExpr expr,
                                          IteratorMap iteratorOf,
                                          SmallVectorImpl<int64_t> &divisors) {
  expr.walk([&](AffineExpr sub) {
    auto binary = dyn_cast<AffineBinaryOpExpr>(sub);
    if (!binary || (sub.getKind() != AffineExprKind::Mod &&
                    sub.getKind() != AffineExprKind::FloorDiv &&
                    sub.getKind() != AffineExprKind::CeilDiv))
      return;
    auto divisor = dyn_cast<AffineConstantExpr>(binary.getRHS());
    if (divisor && divisor.getValue() > 0 &&
        usesIterator(binary.getLHS(), iteratorOf))
      divisors.push_back(divisor.getValue());
  });
}

std::optional<SmallVector<int64_t>>
mlir::exoam::getAccessPeriodShifts(AccessAttr access, IteratorMap iteratorOf,
                                   int64_t period, int64_t *largest) {
  return getPerDimension<int64_t>(access, [&](AffineExpr bound) {
    return getPeriodShift(bound, iteratorOf, period, largest);
  });
}
