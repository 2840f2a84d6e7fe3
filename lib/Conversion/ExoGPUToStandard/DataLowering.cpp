//===- DataLowering.cpp - allocations, windows and data statements --------===//
//
// Part of ExoGPU. Allocations (seeds/002 Fig. 2 `x : tau[c*] @ pi`) become
// memrefs of their precision, windows (Fig. 2 `x = x[w*]`, Fig. 14 special
// windows) rank-reducing subviews, and assignments and reductions (Fig. 1
// DExpr) loads, arith operations in the expression's precision (one rounding
// per operation) and a store with the implicit conversion to the
// destination's precision. A split (exogpu.split) is a memref.expand_shape,
// whose strided layout covers views of windows too.
//
//===----------------------------------------------------------------------===//

#include "ExoGPU/Conversion/ExoGPUToStandard.h"
#include "ExoGPU/Dialect/ExoGPU/IR/ControlExpr.h"
#include "SequentialLowering.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::exogpu;
using namespace mlir::exogpu::sequential;

/// Static allocations of one function placed on its stack, at most: the
/// rest goes to the heap. The Hopper GEMM's shared-memory stages and
/// accumulators (640 KiB) fit.
static constexpr int64_t kStackBudgetBytes = 1 << 20;

//===----------------------------------------------------------------------===//
// Allocations and windows
//===----------------------------------------------------------------------===//

LogicalResult SequentialLowering::lowerAlloc(AllocOp alloc) {
  auto buffer = dyn_cast<DataTensorType>(alloc.getResult().getType());
  if (!buffer)
    return success(); // A barrier: synchronization only.
  Location loc = getLoc(alloc);
  Type element = getStorageType(buffer.getElementType());
  auto type = MemRefType::get(buffer.getShape(), element);
  if (type.hasStaticShape()) {
    int64_t bytes =
        type.getNumElements() * (element.getIntOrFloatBitWidth() / 8);
    if (stackBytes + bytes <= kStackBudgetBytes) {
      // Its contents are undefined at each allocation, so one stack slot in
      // the entry block serves every execution of the statement.
      stackBytes += bytes;
      OpBuilder::InsertionGuard guard(builder);
      builder.setInsertionPointToStart(entryBlock);
      frame->values.map(alloc.getResult(),
                        memref::AllocaOp::create(builder, loc, type));
      return success();
    }
  }
  SmallVector<Value> dynamicSizes;
  for (auto [dim, extent] : llvm::enumerate(alloc.getExtents().getResults())) {
    if (!type.isDynamicDim(dim))
      continue;
    FailureOr<Value> size = lowerCtrlValue(alloc, extent, alloc.getCtrl());
    if (failed(size))
      return failure();
    Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
    Value valid = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::sge,
                                        *size, zero);
    createAssert(loc, valid,
                 "extent " + Twine(dim) + " of " +
                     alloc.getName().value_or("tmp") + " is negative");
    dynamicSizes.push_back(*size);
  }
  Value memref = memref::AllocOp::create(builder, loc, type, dynamicSizes);
  blockAllocs->push_back(memref);
  frame->values.map(alloc.getResult(), memref);
  return success();
}

FailureOr<Value> SequentialLowering::createView(Operation *op, Value buffer,
                                                ArrayRef<int32_t> kinds,
                                                ArrayRef<AffineExpr> exprs,
                                                ValueRange ctrl) {
  FailureOr<Value> source = lookup(op, buffer);
  if (failed(source) || kinds.empty()) // No coordinates: the whole buffer.
    return source;
  auto sourceType = cast<MemRefType>(source->getType());
  if (kinds.size() != static_cast<size_t>(sourceType.getRank()))
    return op->emitError("sequential lowering: ")
           << kinds.size() << " window coordinate(s) for a buffer of rank "
           << sourceType.getRank();
  Location loc = getLoc(op);
  SmallVector<OpFoldResult> offsets, sizes;
  SmallVector<OpFoldResult> strides(kinds.size(), builder.getIndexAttr(1));
  SmallVector<int64_t> shape;
  bool whole = true;
  unsigned next = 0;
  for (auto [dim, raw] : llvm::enumerate(kinds)) {
    auto kind = static_cast<CoordKind>(raw);
    if (kind == CoordKind::Full) {
      offsets.push_back(builder.getIndexAttr(0));
      sizes.push_back(memref::getMixedSize(builder, loc, *source, dim));
      shape.push_back(sourceType.getDimSize(dim));
      continue;
    }
    whole = false;
    if (next + getCoordArity(kind) > exprs.size())
      return op->emitError("sequential lowering: malformed window coordinates");
    FailureOr<OpFoldResult> offset = lowerCtrlExpr(op, exprs[next], ctrl);
    if (failed(offset))
      return failure();
    offsets.push_back(*offset);
    if (kind == CoordKind::Point) {
      // A point coordinate drops its dimension (rank-reducing subview).
      sizes.push_back(builder.getIndexAttr(1));
      next += 1;
      continue;
    }
    FailureOr<OpFoldResult> size =
        lowerCtrlExpr(op, exprs[next + 1] - exprs[next], ctrl);
    if (failed(size))
      return failure();
    next += 2;
    std::optional<int64_t> constant = getConstantIntValue(*size);
    if (constant && *constant < 0)
      return op->emitError("sequential lowering: window interval ")
             << dim << " has negative extent " << *constant;
    sizes.push_back(*size);
    shape.push_back(constant ? *constant : ShapedType::kDynamic);
  }
  if (whole)
    return source;
  MemRefType type = memref::SubViewOp::inferRankReducedResultType(
      shape, sourceType, offsets, sizes, strides);
  return memref::SubViewOp::create(builder, loc, type, *source, offsets, sizes,
                                   strides)
      .getResult();
}

LogicalResult SequentialLowering::lowerWindow(WindowOp window) {
  // A special window (a TMA tensor map, Fig. 14) is a plain view here.
  FailureOr<Value> view =
      createView(window, window.getSource(), window.getCoordKinds(),
                 window.getCoords().getResults(), window.getCtrl());
  if (failed(view))
    return failure();
  frame->values.map(window.getResult(), *view);
  return success();
}

LogicalResult SequentialLowering::lowerSplit(SplitOp split) {
  FailureOr<Value> source = lookup(split, split.getSource());
  if (failed(source))
    return failure();
  auto sourceType = cast<MemRefType>(source->getType());
  int64_t rank = sourceType.getRank();
  int64_t dim = split.getDim(), factor = split.getFactor();
  auto refuse = [&] {
    return split.emitError("sequential lowering: cannot split dimension ")
           << dim << " of " << sourceType << " by " << factor;
  };
  if (dim < 0 || dim >= rank || factor <= 0)
    return refuse();
  // The result: the source's dimensions, with [extent / factor, factor] for
  // the split one. The verifier checks that a static extent is a multiple
  // of the factor; a dynamic one is checked below.
  int64_t extent = sourceType.getDimSize(dim);
  if (!ShapedType::isDynamic(extent) && extent % factor != 0)
    return refuse();
  SmallVector<int64_t> shape(sourceType.getShape());
  shape[dim] = ShapedType::isDynamic(extent) ? extent : extent / factor;
  shape.insert(shape.begin() + dim + 1, factor);
  SmallVector<ReassociationIndices> reassociation;
  for (int64_t d = 0; d < rank; ++d) {
    int64_t first = d <= dim ? d : d + 1;
    reassociation.push_back({first});
    if (d == dim)
      reassociation.back().push_back(first + 1);
  }
  FailureOr<MemRefType> type = memref::ExpandShapeOp::computeExpandedType(
      sourceType, shape, reassociation);
  if (failed(type))
    return refuse();
  Location loc = getLoc(split);
  SmallVector<OpFoldResult> sizes;
  for (int64_t d = 0; d < rank; ++d) {
    OpFoldResult size = memref::getMixedSize(builder, loc, *source, d);
    if (d != dim) {
      sizes.push_back(size);
      continue;
    }
    if (ShapedType::isDynamic(extent)) {
      Value dynamicExtent = cast<Value>(size);
      Value divisor = arith::ConstantIndexOp::create(builder, loc, factor);
      Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
      Value remainder =
          arith::RemUIOp::create(builder, loc, dynamicExtent, divisor);
      createAssert(loc,
                   arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq,
                                         remainder, zero),
                   "extent of dimension " + Twine(dim) +
                       " is not a multiple of the split factor " +
                       Twine(factor));
      sizes.push_back(
          arith::DivUIOp::create(builder, loc, dynamicExtent, divisor)
              .getResult());
    } else {
      sizes.push_back(builder.getIndexAttr(shape[d]));
    }
    sizes.push_back(builder.getIndexAttr(factor));
  }
  frame->values.map(split.getResult(),
                    memref::ExpandShapeOp::create(builder, loc, *type, *source,
                                                  reassociation, sizes));
  return success();
}

//===----------------------------------------------------------------------===//
// Scalar arithmetic in exogpu precisions
//===----------------------------------------------------------------------===//

/// A float `value` truncated toward zero to integer precision `to`,
/// saturating at its range, NaN giving 0 (PTX cvt.rzi; docs/running.md
/// "Arithmetic"). The range's bounds are powers of two, exact in every
/// float precision or past its range (then infinite, which still bounds it).
static Value convertFloatToInt(OpBuilder &b, Location loc, Value value,
                               Type to) {
  auto floatType = cast<FloatType>(value.getType());
  Type storage = getStorageType(to);
  unsigned width = to.getIntOrFloatBitWidth();
  bool isSigned = !to.isUnsignedInteger();
  auto floatConstant = [&](double v) -> Value {
    return arith::ConstantOp::create(b, loc, b.getFloatAttr(floatType, v));
  };
  auto intConstant = [&](const APInt &v) -> Value {
    return arith::ConstantOp::create(b, loc, b.getIntegerAttr(storage, v));
  };
  double half = std::ldexp(1.0, width - 1);
  Value lo = floatConstant(isSigned ? -half : 0.0);
  Value hi = floatConstant(isSigned ? half : 2 * half);
  Value min = intConstant(isSigned ? APInt::getSignedMinValue(width)
                                   : APInt::getMinValue(width));
  Value max = intConstant(isSigned ? APInt::getSignedMaxValue(width)
                                   : APInt::getMaxValue(width));
  Value zero = intConstant(APInt(width, 0));
  // The unselected conversions of out-of-range values are poison, which
  // arith.select does not propagate.
  Value converted =
      isSigned ? arith::FPToSIOp::create(b, loc, storage, value).getResult()
               : arith::FPToUIOp::create(b, loc, storage, value).getResult();
  Value below =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLE, value, lo);
  Value above =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGE, value, hi);
  Value isNan =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, value, value);
  Value result = arith::SelectOp::create(b, loc, below, min, converted);
  result = arith::SelectOp::create(b, loc, above, max, result);
  return arith::SelectOp::create(b, loc, isNan, zero, result);
}

/// Converts `value` of exogpu precision `from` to precision `to` (the
/// implicit conversion at a write, as in Exo; docs/running.md "Arithmetic"):
/// floats round to nearest, floats to integers truncate toward zero and
/// saturate, integers wrap or extend by the signedness of `from`, integers
/// to 16-bit floats round through f32.
static Value convertScalar(OpBuilder &b, Location loc, Value value, Type from,
                           Type to) {
  if (from == to)
    return value;
  Type storage = getStorageType(to);
  auto fromFloat = dyn_cast<FloatType>(from);
  auto toFloat = dyn_cast<FloatType>(to);
  if (fromFloat && toFloat) {
    if (toFloat.getWidth() > fromFloat.getWidth())
      return arith::ExtFOp::create(b, loc, storage, value);
    if (toFloat.getWidth() < fromFloat.getWidth())
      return arith::TruncFOp::create(b, loc, storage, value);
    // f16 <-> bf16: through f32, which holds both exactly.
    Value wide = arith::ExtFOp::create(b, loc, b.getF32Type(), value);
    return arith::TruncFOp::create(b, loc, storage, wide);
  }
  if (toFloat) {
    Type via = toFloat.getWidth() < 32 ? b.getF32Type() : storage;
    Value converted =
        from.isUnsignedInteger()
            ? arith::UIToFPOp::create(b, loc, via, value).getResult()
            : arith::SIToFPOp::create(b, loc, via, value).getResult();
    if (via == storage)
      return converted;
    return arith::TruncFOp::create(b, loc, storage, converted);
  }
  if (fromFloat)
    return convertFloatToInt(b, loc, value, to);
  unsigned fromWidth = from.getIntOrFloatBitWidth();
  unsigned toWidth = to.getIntOrFloatBitWidth();
  if (toWidth < fromWidth)
    return arith::TruncIOp::create(b, loc, storage, value);
  if (toWidth == fromWidth) // i8 <-> ui8: the same bits.
    return value;
  if (from.isUnsignedInteger())
    return arith::ExtUIOp::create(b, loc, storage, value);
  return arith::ExtSIOp::create(b, loc, storage, value);
}

/// Integer division that never traps: `x / 0` is -1 (all ones, as PTX
/// leaves it unspecified), and the signed `INT_MIN / -1` wraps to INT_MIN.
static Value createIntDiv(OpBuilder &b, Location loc, Value lhs, Value rhs,
                          bool isUnsigned) {
  Type type = lhs.getType();
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantIntOp::create(b, loc, type, value);
  };
  Value zero = constant(0), one = constant(1), allOnes = constant(-1);
  Value isZero =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, rhs, zero);
  Value quotient;
  if (isUnsigned) {
    Value divisor = arith::SelectOp::create(b, loc, isZero, one, rhs);
    quotient = arith::DivUIOp::create(b, loc, lhs, divisor);
  } else {
    Value isMinusOne =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, rhs, allOnes);
    Value special = arith::OrIOp::create(b, loc, isZero, isMinusOne);
    Value divisor = arith::SelectOp::create(b, loc, special, one, rhs);
    Value divided = arith::DivSIOp::create(b, loc, lhs, divisor);
    Value negated = arith::SubIOp::create(b, loc, zero, lhs);
    quotient = arith::SelectOp::create(b, loc, isMinusOne, negated, divided);
  }
  return arith::SelectOp::create(b, loc, isZero, allOnes, quotient);
}

/// `lhs op rhs` for one binary expression op in exogpu precision `type`.
static Value createBinary(OpBuilder &b, Location loc, Operation *op, Value lhs,
                          Value rhs, Type type) {
  bool isFloat = isa<FloatType>(type);
  return TypeSwitch<Operation *, Value>(op)
      .Case([&](AddOp) -> Value {
        if (isFloat)
          return arith::AddFOp::create(b, loc, lhs, rhs);
        return arith::AddIOp::create(b, loc, lhs, rhs);
      })
      .Case([&](SubOp) -> Value {
        if (isFloat)
          return arith::SubFOp::create(b, loc, lhs, rhs);
        return arith::SubIOp::create(b, loc, lhs, rhs);
      })
      .Case([&](MulOp) -> Value {
        if (isFloat)
          return arith::MulFOp::create(b, loc, lhs, rhs);
        return arith::MulIOp::create(b, loc, lhs, rhs);
      })
      .Case([&](DivOp) -> Value {
        if (isFloat)
          return arith::DivFOp::create(b, loc, lhs, rhs);
        return createIntDiv(b, loc, lhs, rhs, type.isUnsignedInteger());
      })
      .Case([&](MaxOp) -> Value {
        // maxNum, as CUDA's fmaxf and PTX max: a NaN operand loses.
        if (isFloat)
          return arith::MaxNumFOp::create(b, loc, lhs, rhs);
        if (type.isUnsignedInteger())
          return arith::MaxUIOp::create(b, loc, lhs, rhs);
        return arith::MaxSIOp::create(b, loc, lhs, rhs);
      });
}

/// `exp2(value)` or `log2(value)` (`op`) rounded once to the precision of
/// `value`: 16-bit floats are computed in f32, which holds them exactly.
static Value createFloatFunction(OpBuilder &b, Location loc, Operation *op,
                                 Value value) {
  Type type = value.getType();
  bool narrow = type.getIntOrFloatBitWidth() < 32;
  if (narrow)
    value = arith::ExtFOp::create(b, loc, b.getF32Type(), value);
  Value result = isa<Exp2Op>(op)
                     ? math::Exp2Op::create(b, loc, value).getResult()
                     : math::Log2Op::create(b, loc, value).getResult();
  if (narrow)
    result = arith::TruncFOp::create(b, loc, type, result);
  return result;
}

/// A data literal as an arith.constant of its storage type.
static Value createConstant(OpBuilder &b, Location loc, ConstantOp constant) {
  auto value = cast<TypedAttr>(constant.getValue());
  if (auto integer = dyn_cast<IntegerAttr>(value))
    value =
        IntegerAttr::get(getStorageType(integer.getType()), integer.getValue());
  return arith::ConstantOp::create(b, loc, value);
}

//===----------------------------------------------------------------------===//
// Data statements
//===----------------------------------------------------------------------===//

FailureOr<SmallVector<Value>>
SequentialLowering::lowerIndices(Operation *op, AffineMap indices,
                                 ValueRange ctrl) {
  SmallVector<Value> values;
  for (AffineExpr index : indices.getResults()) {
    FailureOr<Value> value = lowerCtrlValue(op, index, ctrl);
    if (failed(value))
      return failure();
    values.push_back(*value);
  }
  return values;
}

FailureOr<Value> SequentialLowering::lowerExpr(Region &expr) {
  if (expr.empty())
    return failure();
  for (Operation &op : expr.front()) {
    Location loc = getLoc(&op);
    Value result;
    if (auto read = dyn_cast<ReadOp>(op)) {
      FailureOr<Value> source = lookup(read, read.getSource());
      FailureOr<SmallVector<Value>> indices =
          lowerIndices(read, read.getIndices(), read.getCtrl());
      if (failed(source) || failed(indices))
        return failure();
      result = memref::LoadOp::create(builder, loc, *source, *indices);
    } else if (auto constant = dyn_cast<ConstantOp>(op)) {
      result = createConstant(builder, loc, constant);
    } else if (auto neg = dyn_cast<NegOp>(op)) {
      Value operand = frame->values.lookup(neg.getOperand());
      if (isa<FloatType>(neg.getType())) {
        result = arith::NegFOp::create(builder, loc, operand);
      } else {
        Value zero =
            arith::ConstantIntOp::create(builder, loc, operand.getType(), 0);
        result = arith::SubIOp::create(builder, loc, zero, operand);
      }
    } else if (auto yield = dyn_cast<YieldOp>(op)) {
      return frame->values.lookup(yield.getValue());
    } else if (isa<Exp2Op, Log2Op>(op)) {
      result = createFloatFunction(builder, loc, &op,
                                   frame->values.lookup(op.getOperand(0)));
    } else if (isa<AddOp, SubOp, MulOp, DivOp, MaxOp>(op)) {
      result = createBinary(
          builder, loc, &op, frame->values.lookup(op.getOperand(0)),
          frame->values.lookup(op.getOperand(1)), op.getResult(0).getType());
    } else {
      return op.emitError("sequential lowering: not a data expression");
    }
    frame->values.map(op.getResult(0), result);
  }
  return expr.getParentOp()->emitError(
      "sequential lowering: data expression without exogpu.yield");
}

template <typename WriteOpT>
LogicalResult SequentialLowering::lowerWrite(WriteOpT op) {
  Location loc = getLoc(op);
  FailureOr<Value> memref = lookup(op, op.getDest());
  FailureOr<SmallVector<Value>> indices =
      lowerIndices(op, op.getIndices(), op.getCtrl());
  FailureOr<Value> value = lowerExpr(op.getValue());
  if (failed(memref) || failed(indices) || failed(value))
    return failure();
  Type precision =
      cast<BufferTypeInterface>(op.getDest().getType()).getElementType();
  Value stored = convertScalar(builder, loc, *value,
                               op.getValueExpr().getType(), precision);
  if constexpr (std::is_same_v<WriteOpT, ReduceOp>) {
    // `x += e` is `x = x + e` in the precision of x.
    Value old = memref::LoadOp::create(builder, loc, *memref, *indices);
    if (isa<FloatType>(precision))
      stored = arith::AddFOp::create(builder, loc, old, stored);
    else
      stored = arith::AddIOp::create(builder, loc, old, stored);
  }
  memref::StoreOp::create(builder, loc, stored, *memref, *indices);
  return success();
}

template LogicalResult SequentialLowering::lowerWrite(AssignOp op);
template LogicalResult SequentialLowering::lowerWrite(ReduceOp op);
