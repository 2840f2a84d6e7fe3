//===- SharedMemoryPlan.cpp - a kernel's shared memory --------------------===//
//
// Part of ExoGPU (internal to the CUDA translation). See SharedMemoryPlan.h.
//
//===----------------------------------------------------------------------===//

#include "SharedMemoryPlan.h"
#include "ExoGPU/Analysis/MbarrierRing.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::exogpu;
using namespace mlir::exogpu::cuda;

int64_t mlir::exogpu::cuda::getElementBytes(Type type) {
  return std::max<int64_t>(1, type.getIntOrFloatBitWidth() / 8);
}

/// The alignment a shared-memory allocation in `memory` needs: the
/// swizzle atom (8 rows of the swizzle span) for swizzled layouts, 128 bytes
/// (what TMA asks of its shared-memory box) otherwise.
static int64_t getSharedAlignment(MemoryAttr memory) {
  if (memory.getKind() == MemoryKind::Sm90_SmemSwizzled)
    return std::max<int64_t>(128, 8 * memory.getArgs()[0]);
  return 128;
}

FailureOr<std::pair<int64_t, int64_t>>
mlir::exogpu::cuda::getMulticastWindow(ArriveOp arrive,
                                       const MbarrierRing &ring) {
  FailureOr<SmallVector<AccessView>> windows =
      splitAccesses(arrive, arrive.getCoordKinds(), arrive.getCoordCounts(),
                    arrive.getCoords());
  if (failed(windows))
    return failure();
  std::optional<std::pair<int64_t, int64_t>> window;
  for (auto [d, kind] : llvm::enumerate(windows->back().kinds)) {
    auto coordKind = static_cast<CoordKind>(kind);
    if (d >= ring.ctaStrides.size() || !ring.ctaStrides[d] ||
        coordKind == CoordKind::Point)
      continue;
    if (coordKind == CoordKind::Interval || window)
      return emitTranslationError(arrive.getLoc())
             << "a multicast arrive reaches the CTAs of one whole dimension "
                "of its barrier (`:`), not an interval or several dimensions";
    window = {ring.extents[d], ring.ctaStrides[d]};
  }
  return window.value_or(std::make_pair(int64_t(1), int64_t(1)));
}

/// Lays out the mbarrier rings of the kernel's CudaMbarrier allocations.
static LogicalResult planRings(DeviceFunctionOp kernel, ProcState &state,
                               CollParams params, const SyncPlan &syncPlan,
                               SharedMemoryPlan &plan) {
  SmallVector<AllocOp> barriers;
  kernel.walk([&](AllocOp alloc) {
    auto type = dyn_cast<BarrierType>(alloc.getResult().getType());
    if (type && type.getKind() == BarrierKind::CudaMbarrier)
      barriers.push_back(alloc);
  });
  // One ring depth for the kernel, the one the synchronization check
  // checks the protocol against (ExoGPU/Analysis/MbarrierRing.h).
  int64_t depth = getMbarrierRingDepth(kernel);
  int64_t offset = 0;
  for (AllocOp alloc : barriers) {
    Value barrier = alloc.getResult();
    MbarrierRing ring;
    ring.depth = depth;
    ring.offset = offset;
    if (const DistributedLayout *layout =
            state.module.distributed->lookup(barrier)) {
      SmallVector<int64_t> sliceDims;
      ring.extents = layout->extents;
      ring.ctaBase =
          layout->firstShardOwner.getMin().value_or(0) / params.blockDim;
      for (auto [extent, pitch] :
           llvm::zip(layout->extents, layout->threadPitches)) {
        bool acrossCtas = extent == 1 || pitch >= params.blockDim;
        if (acrossCtas && extent != 1 && pitch % params.blockDim != 0)
          return emitInternalError(alloc.getLoc())
                 << "a barrier dimension distributed over CTAs must step by "
                    "whole CTAs";
        ring.ctaStrides.push_back(
            acrossCtas && extent != 1 ? pitch / params.blockDim : 0);
        ring.sliceStrides.push_back(0);
        if (!acrossCtas)
          sliceDims.push_back(ring.sliceStrides.size() - 1);
      }
      int64_t stride = 1;
      for (unsigned d : llvm::reverse(sliceDims)) {
        ring.sliceStrides[d] = stride;
        stride *= layout->extents[d];
      }
      ring.slices = stride;
    }
    // The arrive count: the issuers of the arriving collective (its threads,
    // or one per warp or warpgroup), times the CTAs whose arrivals a
    // multicast arrive sends to each element.
    std::optional<int64_t> count;
    // In program order, so the diagnostic names the later arrive.
    SmallVector<ArriveOp> arrives;
    kernel.walk([&](ArriveOp arrive) {
      if (llvm::is_contained(arrive.getBarriers(), barrier))
        arrives.push_back(arrive);
    });
    for (ArriveOp arrive : arrives) {
      const CollTiling *tiling = state.module.collective->getTiling(arrive);
      if (!tiling)
        return emitInternalError(arrive.getLoc())
               << "the collective analysis gave this arrive no tiling";
      if (arrive.getCountAttr().getInt() != 1)
        return emitTranslationError(arrive.getLoc())
               << "mbarrier arrives take N = 1 (one arrival per thread)";
      // A multicast arrive reaches each CTA of its window from every CTA
      // of the window.
      int64_t ctas = 1;
      if (arrive.getBarriers().size() > 1) {
        FailureOr<std::pair<int64_t, int64_t>> window =
            getMulticastWindow(arrive, ring);
        if (failed(window))
          return failure();
        ctas = window->first;
      }
      int64_t issuer =
          getIssuerThreads(syncPlan.getArriveLowering(arrive).issuers);
      if (tiling->getBoxThreads() % issuer != 0)
        return emitInternalError(arrive.getLoc())
               << "an arrive elected per " << issuer
               << " threads by a collective of " << tiling->getBoxThreads();
      int64_t arrivals = tiling->getBoxThreads() / issuer * ctas;
      if (count && *count != arrivals)
        return emitTranslationError(arrive.getLoc())
               << "every arrive on an mbarrier must come from collectives of "
                  "the same size: this one brings "
               << arrivals << " arrival(s), an earlier one " << *count;
      count = arrivals;
    }
    ring.arriveCount = count.value_or(1);
    offset += ring.slices * ring.depth * 8;
    plan.rings[barrier] = ring;
  }
  plan.bytes = offset;
  if (!barriers.empty())
    plan.alignment = std::max<int64_t>(plan.alignment, 8);
  return success();
}

/// Places the shared-memory data allocations of `block` from byte `top` on;
/// allocations of nested blocks end with their block, so sibling blocks
/// reuse the same bytes.
static LogicalResult placeBlock(Block &block, int64_t top, ProcState &state,
                                SharedMemoryPlan &plan) {
  for (Operation &op : block) {
    if (auto alloc = dyn_cast<AllocOp>(op)) {
      auto type = dyn_cast<BufferTypeInterface>(alloc.getResult().getType());
      if (!type || !type.getMemory().isSmem())
        continue;
      unsigned numDist = 0;
      if (const DistributedLayout *layout =
              state.module.distributed->lookup(alloc.getResult()))
        numDist = layout->getNumDistributedDims();
      int64_t bytes = getElementBytes(type.getElementType());
      for (int64_t extent : type.getShape().drop_front(numDist)) {
        if (ShapedType::isDynamic(extent))
          return emitTranslationError(alloc.getLoc())
                 << "shared memory needs constant extents";
        bytes *= extent;
      }
      int64_t alignment = getSharedAlignment(type.getMemory());
      top = llvm::alignTo(top, alignment);
      plan.offsets[alloc.getResult()] = top;
      top += bytes;
      plan.bytes = std::max(plan.bytes, top);
      plan.alignment = std::max(plan.alignment, alignment);
      continue;
    }
    for (Region &region : op.getRegions())
      for (Block &nested : region)
        if (failed(placeBlock(nested, top, state, plan)))
          return failure();
  }
  return success();
}

FailureOr<SharedMemoryPlan>
mlir::exogpu::cuda::planSharedMemory(DeviceFunctionOp kernel, ProcState &state,
                                     CollParams params,
                                     const SyncPlan &syncPlan) {
  SharedMemoryPlan plan;
  if (failed(planRings(kernel, state, params, syncPlan, plan)) ||
      failed(placeBlock(kernel.getBody().front(), plan.bytes, state, plan)))
    return failure();
  return plan;
}
