//===- BufferUses.cpp - the coordinates statements apply to buffers ------===//
//
// Part of ExoGPU. See BufferUses.h.
//
//===----------------------------------------------------------------------===//

#include "ExoGPU/Transforms/Scheduling/BufferUses.h"
#include "ExoGPU/Transforms/Scheduling/ControlRewriting.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::exogpu;

bool BufferUse::isPointsOnly() const {
  return isa<AssignOp, ReduceOp, ReadOp>(op);
}

/// The per-access coordinates of a call.
static SmallVector<AccessView> splitOf(CallOp op) {
  return *splitAccesses(op, op.getCoordKinds(), op.getCoordCounts(),
                        op.getCoords());
}

SmallVector<BufferUse> mlir::exogpu::getBufferUses(Value buffer) {
  SmallVector<BufferUse> uses;
  auto pointUse = [&](Operation *op, AffineMap indices, ValueRange ctrl) {
    BufferUse use{op, 0, {}, {}, {}};
    use.kinds.assign(indices.getNumResults(),
                     static_cast<int32_t>(CoordKind::Point));
    llvm::append_range(use.exprs, indices.getResults());
    llvm::append_range(use.operands, ctrl);
    // A rank-0 access `x[]` has no coordinates but is not the whole-buffer
    // form: it is still a point access.
    uses.push_back(use);
  };
  // The verifier admits no other users of a data buffer: its uses all have
  // coordinates.
  for (OpOperand &operand : buffer.getUses()) {
    TypeSwitch<Operation *>(operand.getOwner())
        .Case<AssignOp, ReduceOp>(
            [&](auto op) { pointUse(op, op.getIndices(), op.getCtrl()); })
        .Case([&](ReadOp op) { pointUse(op, op.getIndices(), op.getCtrl()); })
        .Case([&](WindowOp op) {
          BufferUse use{op, 0, {}, {}, {}};
          llvm::append_range(use.kinds, op.getCoordKinds());
          llvm::append_range(use.exprs, op.getCoords().getResults());
          llvm::append_range(use.operands, op.getCtrl());
          uses.push_back(use);
        })
        .Case<FreeOp, SplitOp>([&](Operation *op) {
          uses.push_back({op, 0, {}, {}, {}});
        })
        .Case([&](CallOp op) {
          unsigned index = operand.getOperandNumber();
          AccessView view = splitOf(op)[index];
          BufferUse use{op, index, {}, {}, {}};
          llvm::append_range(use.kinds, view.kinds);
          llvm::append_range(use.exprs, view.exprs);
          llvm::append_range(use.operands, op.getCtrl());
          uses.push_back(use);
        })
        .Default([](Operation *) {
          llvm_unreachable("a data buffer used by an unknown statement");
        });
  }
  // Program order: the position of each user in a walk of the buffer's
  // defining region.
  DenseMap<Operation *, unsigned> position;
  Region *region = buffer.getParentRegion();
  unsigned next = 0;
  region->walk<WalkOrder::PreOrder>(
      [&](Operation *op) { position[op] = next++; });
  llvm::stable_sort(uses, [&](const BufferUse &a, const BufferUse &b) {
    return std::make_pair(position.lookup(a.op), a.access) <
           std::make_pair(position.lookup(b.op), b.access);
  });
  return uses;
}

/// Rewrites the coordinates of access `index` of a call, whose per-access
/// coordinates are stored as kinds, counts and one map.
static void setMultiAccessCoords(CallOp op, unsigned index,
                                 ArrayRef<int32_t> kinds,
                                 ArrayRef<AffineExpr> exprs,
                                 ValueRange operands) {
  SmallVector<AccessView> views = splitOf(op);
  SmallVector<Value> merged(op.getCtrl().begin(), op.getCtrl().end());
  SmallVector<int32_t> newKinds, newCounts;
  SmallVector<AffineExpr> newExprs;
  for (auto [i, view] : llvm::enumerate(views)) {
    if (i == index) {
      llvm::append_range(newKinds, kinds);
      newCounts.push_back(kinds.size());
      for (AffineExpr e : exprs)
        newExprs.push_back(remapOperands(e, operands, merged));
      continue;
    }
    llvm::append_range(newKinds, view.kinds);
    newCounts.push_back(view.kinds.size());
    llvm::append_range(newExprs, view.exprs);
  }
  MLIRContext *ctx = op.getContext();
  AffineMap coords = AffineMap::get(merged.size(), 0, newExprs, ctx);
  SmallVector<AffineMap> maps = getControlMaps(op);
  maps.back() = coords;
  for (AffineMap &map : maps)
    map = AffineMap::get(merged.size(), 0, map.getResults(), ctx);
  op.setCoordKinds(newKinds);
  op.setCoordCounts(newCounts);
  setControlMaps(op, maps, merged);
}

void mlir::exogpu::setUseCoordinates(const BufferUse &use, Value buffer,
                                     ArrayRef<int32_t> kinds,
                                     ArrayRef<AffineExpr> exprs,
                                     ValueRange operands) {
  MLIRContext *ctx = use.op->getContext();
  AffineMap map = AffineMap::get(operands.size(), 0, exprs, ctx);
  TypeSwitch<Operation *>(use.op)
      .Case<AssignOp, ReduceOp>([&](auto op) {
        op.getDestMutable().assign(buffer);
        setControlMaps(op, {map}, operands);
      })
      .Case([&](ReadOp op) {
        op.getSourceMutable().assign(buffer);
        setControlMaps(op, {map}, operands);
      })
      .Case([&](WindowOp op) {
        op.getSourceMutable().assign(buffer);
        op.setCoordKinds(kinds);
        setControlMaps(op, {map}, operands);
      })
      .Case([&](FreeOp op) { op.getBufferMutable().assign(buffer); })
      .Case([&](SplitOp op) { op.getSourceMutable().assign(buffer); })
      .Case([&](CallOp op) {
        op->setOperand(use.access, buffer);
        setMultiAccessCoords(op, use.access, kinds, exprs, operands);
      });
}
