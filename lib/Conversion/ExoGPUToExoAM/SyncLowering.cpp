//===- SyncLowering.cpp - synchronization ---------------------------------===//
//
// Part of ExoGPU. Fence, Arrive and Await (Fig. 5 with T_tr, T_qfull,
// T_qtmp and T_qarr of Fig. 18).
//
//===----------------------------------------------------------------------===//

#include "ExoGPU/Dialect/ExoAM/IR/SyncTimelines.h"
#include "ProcLowering.h"

using namespace mlir;
using namespace mlir::exogpu;
using namespace mlir::exogpu::lowering;

//===----------------------------------------------------------------------===//
// Synchronization statements (Fig. 5, T_tr / T_qfull / T_qtmp / T_qarr)
//===----------------------------------------------------------------------===//

LogicalResult ProcLowering::lowerFence(FenceOp fence) {
  SyncTimeline pre = fence.getPre();
  SyncTimeline post = fence.getPost();
  return emitFence(fence, exoam::isTransitive(pre),
                   exoam::getFullTimelines(pre), exoam::getFullTimelines(post),
                   exoam::getTemporalTimelines(post));
}

LogicalResult ProcLowering::lowerArrive(ArriveOp arrive) {
  FailureOr<SmallVector<AccessView>> coords =
      splitAccesses(arrive, arrive.getCoordKinds(), arrive.getCoordCounts(),
                    arrive.getCoords());
  if (failed(coords))
    return failure();
  SmallVector<Access> barriers;
  for (auto [barrier, view] : llvm::zip(arrive.getBarriers(), *coords)) {
    FailureOr<Access> access =
        lowerAccess(arrive, barrier, view.kinds, view.exprs, arrive.getCtrl());
    if (failed(access))
      return failure();
    barriers.push_back(*access);
  }
  SyncTimeline timeline = arrive.getTimeline();
  for (const Access &barrier : barriers)
    if (!barrier.view->isSyncExempt() &&
        failed(emitRecord(arrive, true, VisibilityLevel::fully_ordered, false,
                          barrier, exoam::getArriveTimeline(timeline), 0, {})))
      return failure();
  OperandPacker packer(context, globals);
  SmallVector<unsigned> handles;
  for (const Access &barrier : barriers)
    handles.push_back(packer.addAccess(barrier));
  FailureOr<exoam::ThreadMappingAttr> threads = threadsOf(arrive, packer);
  if (failed(threads))
    return failure();
  SmallVector<Attribute> attrs;
  for (unsigned handle : handles)
    attrs.push_back(packer.getAccess(handle));
  exoam::ArriveOp::create(
      builder, arrive.getLoc(), exoam::isTransitive(timeline),
      exoam::QualTimelineSetAttr::get(context,
                                      exoam::getFullTimelines(timeline)),
      builder.getArrayAttr(attrs), *threads, packer.getOperands());
  return success();
}

LogicalResult ProcLowering::lowerAwait(AwaitOp await) {
  FailureOr<Access> barrier =
      lowerAccess(await, await.getBarrier(), await.getCoordKinds(),
                  await.getCoords().getResults(), await.getCtrl());
  if (failed(barrier))
    return failure();
  if (!barrier->view->isSyncExempt() &&
      failed(emitRecord(await, true, VisibilityLevel::fully_ordered, false,
                        *barrier, getInOrderTimeline(await, *barrier), 0, {})))
    return failure();
  SyncTimeline timeline = await.getTimeline();
  OperandPacker packer(context, globals);
  unsigned handle = packer.addAccess(*barrier);
  FailureOr<exoam::ThreadMappingAttr> threads = threadsOf(await, packer);
  if (failed(threads))
    return failure();
  auto set = [&](exoam::QualMask mask) {
    return exoam::QualTimelineSetAttr::get(context, mask);
  };
  // A commit group's wait covers only the groups the waiting thread (or
  // warpgroup) committed: its own asynchronous work.
  bool own = barrier->view->isBarrier &&
             barrier->view->barrierKind == BarrierKind::CudaCommitGroup;
  exoam::AwaitOp::create(builder, await.getLoc(), own, packer.getAccess(handle),
                         set(exoam::getFullTimelines(timeline)),
                         set(exoam::getTemporalTimelines(timeline)),
                         await.getCount(), *threads, packer.getOperands());
  return success();
}
