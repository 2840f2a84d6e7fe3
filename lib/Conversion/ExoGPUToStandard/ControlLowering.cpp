//===- ControlLowering.cpp - control values and structure -----------------===//
//
// Part of ExoGPU. Control expressions (seeds/002 Fig. 1 CExpr, BExpr) become
// affine.apply and arith.cmpi; the structured statements of Fig. 2 run
// sequentially: every loop mode is an scf.for in order, a guard an scf.if,
// and device_function and warps bodies are inlined in place (Sec. 2.3: the
// parallel annotations do not change the meaning). Synchronization and
// frees have no sequential meaning.
//
//===----------------------------------------------------------------------===//

#include "SequentialLowering.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::exogpu;
using namespace mlir::exogpu::sequential;

//===----------------------------------------------------------------------===//
// Control values
//===----------------------------------------------------------------------===//

Location SequentialLowering::getLoc(Operation *op) const {
  if (frame && frame->callSite)
    return CallSiteLoc::get(op->getLoc(), frame->callSite);
  return op->getLoc();
}

FailureOr<Value> SequentialLowering::lookup(Operation *op, Value value) const {
  if (Value lowered = frame->values.lookupOrNull(value))
    return lowered;
  return op->emitError("sequential lowering: operand has no lowered value "
                       "(a barrier used as data?)");
}

FailureOr<SmallVector<Value>>
SequentialLowering::lookupUsed(Operation *op, ValueRange values,
                               ArrayRef<AffineExpr> exprs) const {
  // Only the operands the expressions use need a value (the extents of a
  // proc parameter are maps over every parameter, data ones included).
  SmallVector<Value> lowered(values.size());
  for (AffineExpr expr : exprs) {
    WalkResult result = expr.walk([&](AffineExpr e) {
      auto dim = dyn_cast<AffineDimExpr>(e);
      if (!dim || dim.getPosition() >= values.size() ||
          lowered[dim.getPosition()])
        return WalkResult::advance();
      FailureOr<Value> value = lookup(op, values[dim.getPosition()]);
      if (failed(value))
        return WalkResult::interrupt();
      lowered[dim.getPosition()] = *value;
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      return failure();
  }
  return lowered;
}

OpFoldResult SequentialLowering::applyCtrlExpr(Location loc, AffineExpr expr,
                                               ArrayRef<Value> operands) {
  // The expression over the operands it uses, constants substituted.
  MLIRContext *context = expr.getContext();
  SmallVector<AffineExpr> replacements(operands.size(),
                                       getAffineConstantExpr(0, context));
  SmallVector<Value> used;
  for (auto [pos, operand] : llvm::enumerate(operands)) {
    if (!operand)
      continue;
    if (std::optional<int64_t> constant = getConstantIntValue(operand)) {
      replacements[pos] = getAffineConstantExpr(*constant, context);
      continue;
    }
    replacements[pos] = getAffineDimExpr(used.size(), context);
    used.push_back(operand);
  }
  expr = simplifyAffineExpr(expr.replaceDims(replacements), used.size(), 0);
  if (auto constant = dyn_cast<AffineConstantExpr>(expr))
    return builder.getIndexAttr(constant.getValue());
  // Control values are 64-bit integers (docs/running.md "Arithmetic"): a
  // sum or product that overflows stops the run instead of wrapping.
  Value valid;
  Value result = expandCtrlExpr(loc, expr, used, valid);
  if (valid)
    createAssert(loc, valid, "a control value overflows 64 bits");
  return result;
}

Value SequentialLowering::expandCtrlExpr(Location loc, AffineExpr expr,
                                         ArrayRef<Value> operands,
                                         Value &valid) {
  if (auto constant = dyn_cast<AffineConstantExpr>(expr))
    return arith::ConstantIndexOp::create(builder, loc, constant.getValue());
  if (auto dim = dyn_cast<AffineDimExpr>(expr))
    return operands[dim.getPosition()];
  auto binary = cast<AffineBinaryOpExpr>(expr);
  Value lhs = expandCtrlExpr(loc, binary.getLHS(), operands, valid);
  Value rhs = expandCtrlExpr(loc, binary.getRHS(), operands, valid);
  auto noteValid = [&](Value holds) {
    valid = valid ? arith::AndIOp::create(builder, loc, valid, holds) : holds;
  };
  switch (expr.getKind()) {
  case AffineExprKind::Add: {
    // Wrapping add; it overflowed when the sign of the sum differs from
    // the signs of both operands.
    Value sum = arith::AddIOp::create(builder, loc, lhs, rhs);
    Value signs = arith::AndIOp::create(
        builder, loc, arith::XOrIOp::create(builder, loc, lhs, sum),
        arith::XOrIOp::create(builder, loc, rhs, sum));
    Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
    noteValid(arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::sge,
                                    signs, zero));
    return sum;
  }
  case AffineExprKind::Mul: {
    // The 128-bit product fits 64 bits when its high half is the sign
    // extension of its low half.
    Type i64 = builder.getI64Type();
    auto product = arith::MulSIExtendedOp::create(
        builder, loc, arith::IndexCastOp::create(builder, loc, i64, lhs),
        arith::IndexCastOp::create(builder, loc, i64, rhs));
    Value low = product.getLow(), high = product.getHigh();
    Value sign = arith::ShRSIOp::create(
        builder, loc, low, arith::ConstantIntOp::create(builder, loc, i64, 63));
    noteValid(arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq,
                                    high, sign));
    return arith::IndexCastOp::create(builder, loc, builder.getIndexType(),
                                      low);
  }
  default: {
    // Floor division, ceiling division and remainder by a positive constant
    // (AffineExpr's invariant) are smaller than their dividend.
    AffineExpr d0 = getAffineDimExpr(0, expr.getContext());
    AffineExpr single = expr.getKind() == AffineExprKind::Mod
                            ? d0 % binary.getRHS()
                        : expr.getKind() == AffineExprKind::FloorDiv
                            ? d0.floorDiv(binary.getRHS())
                            : d0.ceilDiv(binary.getRHS());
    return affine::AffineApplyOp::create(
        builder, loc, AffineMap::get(1, 0, single), ValueRange{lhs});
  }
  }
}

Value SequentialLowering::applyCtrlValue(Location loc, AffineExpr expr,
                                         ArrayRef<Value> operands) {
  return getValueOrCreateConstantIndexOp(builder, loc,
                                         applyCtrlExpr(loc, expr, operands));
}

FailureOr<OpFoldResult> SequentialLowering::lowerCtrlExpr(Operation *op,
                                                          AffineExpr expr,
                                                          ValueRange ctrl) {
  FailureOr<SmallVector<Value>> operands = lookupUsed(op, ctrl, expr);
  if (failed(operands))
    return failure();
  return applyCtrlExpr(getLoc(op), expr, *operands);
}

FailureOr<Value> SequentialLowering::lowerCtrlValue(Operation *op,
                                                    AffineExpr expr,
                                                    ValueRange ctrl) {
  FailureOr<OpFoldResult> folded = lowerCtrlExpr(op, expr, ctrl);
  if (failed(folded))
    return failure();
  return getValueOrCreateConstantIndexOp(builder, getLoc(op), *folded);
}

/// The predicate of a relation atom of a condition.
static arith::CmpIPredicate getPredicate(ConditionAtomKind kind) {
  switch (kind) {
  case ConditionAtomKind::Lt:
    return arith::CmpIPredicate::slt;
  case ConditionAtomKind::Le:
    return arith::CmpIPredicate::sle;
  case ConditionAtomKind::Gt:
    return arith::CmpIPredicate::sgt;
  case ConditionAtomKind::Ge:
    return arith::CmpIPredicate::sge;
  default:
    return arith::CmpIPredicate::eq;
  }
}

Value SequentialLowering::buildCondition(Location loc, ConditionAttr condition,
                                         ArrayRef<Value> operands) {
  AffineMap map = condition.getMap();
  unsigned next = 0;
  // The disjunction of the conjunctions seen so far, and the current one.
  Value result, clause;
  auto constant = [&](bool value) -> Value {
    return arith::ConstantIntOp::create(builder, loc, value, 1);
  };
  auto endClause = [&] {
    Value conjunction = clause ? clause : constant(true);
    result = result
                 ? builder.createOrFold<arith::OrIOp>(loc, result, conjunction)
                 : conjunction;
    clause = {};
  };
  for (int64_t raw : condition.getAtoms()) {
    auto kind = static_cast<ConditionAtomKind>(raw);
    if (kind == ConditionAtomKind::Or) {
      endClause();
      continue;
    }
    Value atom;
    if (kind == ConditionAtomKind::True || kind == ConditionAtomKind::False) {
      atom = constant(kind == ConditionAtomKind::True);
    } else if (kind == ConditionAtomKind::Bool) {
      // ConditionAttr's verifier makes a boolean atom an operand.
      atom = operands[cast<AffineDimExpr>(map.getResult(next++)).getPosition()];
    } else {
      Value lhs = applyCtrlValue(loc, map.getResult(next++), operands);
      Value rhs = applyCtrlValue(loc, map.getResult(next++), operands);
      atom = builder.createOrFold<arith::CmpIOp>(loc, getPredicate(kind), lhs,
                                                 rhs);
    }
    clause =
        clause ? builder.createOrFold<arith::AndIOp>(loc, clause, atom) : atom;
  }
  endClause();
  return result;
}

FailureOr<Value> SequentialLowering::lowerCondition(Operation *op,
                                                    ConditionAttr condition,
                                                    ValueRange ctrl) {
  FailureOr<SmallVector<Value>> operands =
      lookupUsed(op, ctrl, condition.getMap().getResults());
  if (failed(operands))
    return failure();
  return buildCondition(getLoc(op), condition, *operands);
}

void SequentialLowering::createAssert(Location loc, Value holds,
                                      const Twine &what) {
  // The location in the message, as upstream runtime verification writes
  // it, lets a runner point at the failing statement.
  std::string message;
  llvm::raw_string_ostream os(message);
  os << what << "\nLocation: " << loc;
  cf::AssertOp::create(builder, loc, holds, message);
}

//===----------------------------------------------------------------------===//
// Structure (Fig. 2 sequencing, loops, guards, device functions, warps)
//===----------------------------------------------------------------------===//

LogicalResult SequentialLowering::lowerBlock(Block &block) {
  SmallVector<Value> allocs;
  SmallVector<Value> *outer = blockAllocs;
  blockAllocs = &allocs;
  LogicalResult result = success();
  for (Operation &op : block)
    if (failed(lowerOp(op))) {
      result = failure();
      break;
    }
  blockAllocs = outer;
  // The compiler frees allocations at the end of their block (Sec. 3.4).
  for (Value alloc : llvm::reverse(allocs))
    memref::DeallocOp::create(builder, alloc.getLoc(), alloc);
  return result;
}

LogicalResult SequentialLowering::lowerOp(Operation &op) {
  return TypeSwitch<Operation *, LogicalResult>(&op)
      .Case([&](ForOp loop) { return lowerFor(loop); })
      .Case([&](IfOp guard) { return lowerIf(guard); })
      .Case([&](DeviceFunctionOp deviceFunction) {
        return lowerBlock(deviceFunction.getBody().front());
      })
      .Case([&](WarpsOp warps) { return lowerBlock(warps.getBody().front()); })
      .Case([&](AssignOp assign) { return lowerWrite(assign); })
      .Case([&](ReduceOp reduce) { return lowerWrite(reduce); })
      .Case([&](AllocOp alloc) { return lowerAlloc(alloc); })
      .Case([&](WindowOp window) { return lowerWindow(window); })
      .Case([&](SplitOp split) { return lowerSplit(split); })
      .Case([&](CallOp call) { return lowerCall(call); })
      // No sequential meaning: synchronization, and frees (an allocation
      // ends with its block).
      .Case<FenceOp, ArriveOp, AwaitOp, FreeOp>(
          [](Operation *) { return success(); })
      .Default([&](Operation *other) {
        return other->emitError("sequential lowering: no sequential meaning "
                                "for this operation");
      });
}

LogicalResult SequentialLowering::lowerFor(ForOp loop) {
  Location loc = getLoc(loop);
  FailureOr<Value> lower =
      lowerCtrlValue(loop, loop.getLowerBoundExpr(), loop.getCtrl());
  FailureOr<Value> upper =
      lowerCtrlValue(loop, loop.getUpperBoundExpr(), loop.getCtrl());
  if (failed(lower) || failed(upper))
    return failure();
  Value step = arith::ConstantIndexOp::create(builder, loc, 1);
  auto forOp = scf::ForOp::create(builder, loc, *lower, *upper, step);
  frame->values.map(loop.getIterator(), forOp.getInductionVar());
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPoint(forOp.getBody()->getTerminator());
  return lowerBlock(loop.getBody().front());
}

LogicalResult SequentialLowering::lowerIf(IfOp guard) {
  FailureOr<Value> holds =
      lowerCondition(guard, guard.getCondition(), guard.getCtrl());
  if (failed(holds))
    return failure();
  auto ifOp = scf::IfOp::create(builder, getLoc(guard), *holds,
                                /*withElseRegion=*/false);
  OpBuilder::InsertionGuard insertion(builder);
  builder.setInsertionPoint(ifOp.thenBlock()->getTerminator());
  return lowerBlock(guard.getBody().front());
}
