//===- Timelines.h - qualitative timelines the lowering looks at ----------===//
//
// Part of ExoGPU (internal to the CUDA translation). The qualitative
// timelines of seeds/002 Fig. 15 grouped by what the CUDA lowering of
// synchronization does about them (SyncLowering.cpp, SyncPlan.cpp): the
// warpgroup's wgmma timelines, the async proxy, a thread's registers.
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_LIB_TARGET_CUDA_TIMELINES_H
#define EXOGPU_LIB_TARGET_CUDA_TIMELINES_H

#include "ExoGPU/Dialect/ExoAM/IR/SyncTimelines.h"
#include "ExoGPU/Dialect/ExoGPU/IR/ExoGPUOps.h"

namespace mlir::exogpu::cuda {

/// The bit of `timeline` in a qualitative-timeline mask.
inline uint32_t getQualBit(QualTimeline timeline) {
  return exoam::getQualBit(timeline);
}

/// wgmma's register operands (A and D).
inline const uint32_t kWgmmaRegisterTimelines =
    getQualBit(QualTimeline::wgmma_async_rmem_a_qual) |
    getQualBit(QualTimeline::wgmma_async_rmem_d_qual);
/// Every access of a wgmma: registers and shared-memory operands.
inline const uint32_t kWgmmaTimelines =
    kWgmmaRegisterTimelines | getQualBit(QualTimeline::wgmma_async_smem_qual);
/// Accesses through the async proxy: TMA (both directions) and wgmma's
/// shared-memory operands.
inline const uint32_t kAsyncProxyTimelines =
    getQualBit(QualTimeline::tma_to_smem_async_qual) |
    getQualBit(QualTimeline::tma_to_gmem_async_qual) |
    getQualBit(QualTimeline::wgmma_async_smem_qual);
/// Timelines of a thread's own registers: ordering them needs no rendezvous
/// (the same set the synchronization check uses for ring events).
inline const uint32_t kRegisterTimelines = exoam::getRegisterTimelines();

/// The timelines data parameter `i` of `instr` accesses memory on: its
/// initial timeline (Fig. 20 T_init, by default the in-order timeline of its
/// memory) and its extended ones.
inline uint32_t getParamTimelines(InstrOp instr, unsigned i) {
  uint32_t mask = getQualBit(instr.getParamInitTimeline(i));
  for (QualTimeline q : instr.getParamSpec(i).getExt())
    mask |= getQualBit(q);
  return mask;
}

/// Whether some data parameter of the instruction `call` calls accesses
/// memory on one of `timelines` (false for a call of a proc).
inline bool callUsesTimelines(CallOp call, uint32_t timelines) {
  InstrOp instr = call.lookupInstr();
  if (!instr)
    return false;
  for (unsigned i = 0, e = instr.getNumParams(); i < e; ++i)
    if (instr.getParamKind(i) == ParamKind::data &&
        (getParamTimelines(instr, i) & timelines))
      return true;
  return false;
}

/// Accesses through the generic proxy to memory other threads reach: plain
/// loads and stores, and cp.async, which writes shared memory through the
/// generic proxy (PTX ISA "cp.async").
inline const uint32_t kGenericProxyTimelines =
    getQualBit(QualTimeline::cuda_in_order_ram_qual) |
    getQualBit(QualTimeline::Sm80_cp_async_qual);

/// Whether a synchronization whose pre-set has full timelines `preFull` and
/// whose post-set has temporal timelines `postTemporal` orders generic-proxy
/// accesses (plain ones or cp.async copies) before async-proxy ones: the
/// case that needs `fence.proxy.async` in the threads that made the generic
/// accesses (seeds/004 "async proxy").
inline bool ordersGenericBeforeAsyncProxy(uint32_t preFull,
                                          uint32_t postTemporal) {
  return (preFull & kGenericProxyTimelines) &&
         (postTemporal & kAsyncProxyTimelines);
}

/// Whether a Fence on these timelines needs its collective to rendezvous:
/// not when both sides only hold a thread's own registers.
inline bool fenceNeedsRendezvous(FenceOp fence) {
  uint32_t preFull = exoam::getFullTimelines(fence.getPre());
  uint32_t postTemporal = exoam::getTemporalTimelines(fence.getPost());
  return ((preFull | postTemporal) & ~kRegisterTimelines) != 0;
}

/// The union of the temporal sets of the awaits on `barrier`: what the
/// awaiting side's accesses may be.
inline uint32_t getAwaitTimelines(Value barrier) {
  uint32_t mask = 0;
  for (Operation *user : barrier.getUsers())
    if (auto await = dyn_cast<AwaitOp>(user))
      mask |= exoam::getTemporalTimelines(await.getTimeline());
  return mask;
}

} // namespace mlir::exogpu::cuda

#endif // EXOGPU_LIB_TARGET_CUDA_TIMELINES_H
