//===- DataLowering.cpp - data statements ---------------------------------===//
//
// Part of ExoGPU. Assignments and reductions (Fig. 5 with T_e, T_ex, T_qin
// of Fig. 17-18), window statements (inlined, Sec. 5.2 (i)), allocations
// and frees (Fig. 5).
//
//===----------------------------------------------------------------------===//

#include "ExoGPU/Analysis/MbarrierRing.h"
#include "ProcLowering.h"

using namespace mlir;
using namespace mlir::exogpu;
using namespace mlir::exogpu::lowering;

//===----------------------------------------------------------------------===//
// Data statements (Fig. 5 assignments, Fig. 17 T_e)
//===----------------------------------------------------------------------===//

/// Adds `access` to `set` unless it is there (T_e is a set).
static void addDistinct(SmallVectorImpl<Access> &set, Access access) {
  if (!llvm::is_contained(set, access))
    set.push_back(std::move(access));
}

LogicalResult ProcLowering::lowerWrite(Operation *op, bool isReduce) {
  auto assign = dyn_cast<AssignOp>(op);
  auto reduce = dyn_cast<ReduceOp>(op);
  Value dest = assign ? assign.getDest() : reduce.getDest();
  AffineMap indices = assign ? assign.getIndices() : reduce.getIndices();
  ValueRange ctrl = assign ? assign.getCtrl() : reduce.getCtrl();
  Region &value = assign ? assign.getValue() : reduce.getValue();

  // T_e of the right-hand side: the distinct reads.
  SmallVector<Access> reads;
  WalkResult walk = value.walk([&](ReadOp read) {
    SmallVector<int32_t> kinds(read.getIndices().getNumResults(),
                               static_cast<int32_t>(CoordKind::Point));
    FailureOr<Access> access =
        lowerAccess(read, read.getSource(), kinds,
                    read.getIndices().getResults(), read.getCtrl());
    if (failed(access))
      return WalkResult::interrupt();
    addDistinct(reads, *access);
    return WalkResult::advance();
  });
  SmallVector<int32_t> kinds(indices.getNumResults(),
                             static_cast<int32_t>(CoordKind::Point));
  FailureOr<Access> target =
      lowerAccess(op, dest, kinds, indices.getResults(), ctrl);
  if (walk.wasInterrupted() || failed(target))
    return failure();

  // Fig. 5: tau_pre is fully_ordered for `+=` (the old value is read),
  // temporally_ordered for `=`. A read needs the writes before it fully
  // ordered (as for read-only instruction arguments, Fig. 19); see
  // docs/abstract-machine.md.
  VisibilityLevel pre = isReduce ? VisibilityLevel::fully_ordered
                                 : VisibilityLevel::temporally_ordered;
  VisibilityLevel post = VisibilityLevel::fully_ordered;
  for (const Access &read : reads) {
    if (read.view->isSyncExempt())
      continue;
    exogpu::QualTimeline q = getInOrderTimeline(op, read);
    if (failed(emitCheck(op, false, VisibilityLevel::fully_ordered, false, read,
                         exoam::getQualBit(q), exoam::AccessPurpose::read)) ||
        failed(emitRecord(op, true, post, false, read, q, 0, {})))
      return failure();
  }
  if (target->view->isSyncExempt())
    return success();
  exogpu::QualTimeline q = getInOrderTimeline(op, *target);
  exoam::QualMask mask = exoam::getQualBit(q);
  if (failed(emitCheck(op, true, pre, false, *target, mask,
                       exoam::AccessPurpose::write)) ||
      failed(emitCheck(op, false, pre, false, *target, mask,
                       exoam::AccessPurpose::write)))
    return failure();
  emitClear(op, true, *target);
  emitClear(op, false, *target);
  return emitRecord(op, false, post, false, *target, q, 0, {});
}

LogicalResult ProcLowering::lowerWindow(WindowOp window) {
  FailureOr<const View *> view = lookupView(window, window.getSource());
  FailureOr<SmallVector<GlobalExpr>> exprs =
      lowerExprs(window, window.getCoords().getResults(), window.getCtrl());
  if (failed(view) || failed(exprs))
    return failure();
  FailureOr<View> result = applyWindow(**view, window.getCoordKinds(), *exprs);
  if (failed(result))
    return emitError(window.getLoc(),
                     "sync check: window coordinates do not match "
                     "the buffer");
  emitWindowBoundsCheck(window, **view, window.getCoordKinds(), *exprs);
  frame->buffers[window.getResult()] = std::move(*result);
  return success();
}

LogicalResult ProcLowering::lowerSplit(SplitOp split) {
  FailureOr<const View *> view = lookupView(split, split.getSource());
  if (failed(view))
    return failure();
  int64_t factor = split.getFactor();
  FailureOr<View> result = applySplit(**view, split.getDim(), factor);
  if (failed(result))
    return emitError(split.getLoc(), "sync check: cannot split dimension ")
           << split.getDim() << " of this buffer by " << factor
           << " (no such dimension, or its stride overflows)";
  // The split dimension's extent must be a multiple of the factor.
  const ViewDim *dim = getViewDims(**view)[split.getDim()];
  GlobalExpr zero = getAffineConstantExpr(0, context);
  std::string what;
  llvm::raw_string_ostream(what)
      << "the extent of dimension " << split.getDim()
      << " of the split buffer being a multiple of the split factor " << factor;
  emitRelationsCheck(split, {dim->extent % factor, zero},
                     {ConditionAtomKind::Eq}, what);
  frame->buffers[split.getResult()] = std::move(*result);
  return success();
}

//===----------------------------------------------------------------------===//
// Allocation and free (Fig. 5)
//===----------------------------------------------------------------------===//

void ProcLowering::emitAlloc(Operation *stmt, const View &view,
                             ArrayRef<GlobalExpr> extents,
                             std::optional<AllocationLimit> limit,
                             std::optional<int64_t> ringDepth) {
  // Alloc(x[c*]): the coordinates are the extents (points).
  Access extentsAccess{&view, {}};
  for (GlobalExpr extent : extents)
    extentsAccess.coords.push_back({false, extent, extent});
  OperandPacker packer(context, globals);
  unsigned target = packer.addAccess(extentsAccess);
  IntegerAttr capacity;
  StringAttr capacityOf;
  if (limit) {
    capacity = builder.getI64IntegerAttr(limit->elements);
    capacityOf = builder.getStringAttr(limit->describe());
  }
  IntegerAttr ring;
  if (ringDepth)
    ring = builder.getI64IntegerAttr(*ringDepth);
  exoam::AllocOp::create(builder, stmt->getLoc(), packer.getAccess(target),
                         view.isBarrier, ring, capacity, capacityOf,
                         packer.getOperands());
}

std::optional<int64_t> ProcLowering::getRingDepth(AllocOp alloc) {
  auto type = dyn_cast<BarrierType>(alloc.getResult().getType());
  auto kernel = alloc->getParentOfType<DeviceFunctionOp>();
  if (!type || type.getKind() != BarrierKind::CudaMbarrier || !kernel)
    return std::nullopt;
  auto [it, inserted] = ringDepths.try_emplace(kernel);
  if (inserted)
    it->second = getMbarrierRingDepth(kernel);
  return it->second;
}

LogicalResult ProcLowering::lowerAlloc(AllocOp alloc) {
  FailureOr<SmallVector<GlobalExpr>> extents =
      lowerExprs(alloc, alloc.getExtents().getResults(), alloc.getCtrl());
  if (failed(extents))
    return failure();
  StringAttr name = uniqueName(alloc.getName().value_or("tmp"));
  View view = makeRootView(name, *extents, context);
  setStorage(view, alloc.getResult().getType());
  // Static extents are within the hardware's limit (the verifier); the
  // machine checks the others once their values are known.
  std::optional<AllocationLimit> limit;
  if (llvm::any_of(alloc.getExtents().getResults(),
                   [](AffineExpr e) { return !isa<AffineConstantExpr>(e); }))
    limit = getAllocationLimit(alloc.getResult().getType());
  emitAlloc(alloc, view, *extents, limit, getRingDepth(alloc));
  frame->buffers[alloc.getResult()] = std::move(view);
  return success();
}

LogicalResult ProcLowering::emitFreeChecks(Operation *stmt,
                                           const Access &whole) {
  // tau_v^free = temporally_ordered, on T_qin of the variable.
  if (!whole.view->isSmem())
    return success();
  exoam::QualMask q = exoam::getQualBit(getInOrderTimeline(stmt, whole));
  if (failed(emitCheck(stmt, true, VisibilityLevel::temporally_ordered, false,
                       whole, q, exoam::AccessPurpose::free)))
    return failure();
  return emitCheck(stmt, false, VisibilityLevel::temporally_ordered, false,
                   whole, q, exoam::AccessPurpose::free);
}

LogicalResult ProcLowering::lowerFree(FreeOp free) {
  FailureOr<const View *> view = lookupView(free, free.getBuffer());
  if (failed(view))
    return failure();
  FailureOr<Access> whole = applyCoords(**view, {}, {});
  if (failed(whole))
    return emitError(free.getLoc(), "sync check: malformed free");
  if ((*view)->isBarrier) {
    OperandPacker packer(context, globals);
    unsigned target = packer.addAccess(*whole);
    exoam::CheckBarrierOp::create(
        builder, free.getLoc(), packer.getAccess(target), packer.getOperands());
  }
  return emitFreeChecks(free, *whole);
}
