//===- SyncTimelines.cpp - the sync timeline table of Fig. 16 ------------===//
//
// Part of ExoGPU. Each sync timeline of seeds/002 Fig. 16 as a transitivity
// flag, a full set and the additional temporal-only set. The extracted table
// merged the `cpu` and `strm` columns into one; docs/abstract-machine.md
// explains how each row was read.
//
//===----------------------------------------------------------------------===//

#include "ExoGPU/Dialect/ExoAM/IR/SyncTimelines.h"

using namespace mlir;
using namespace mlir::exoam;
using exogpu::QualTimeline;
using exogpu::SyncTimeline;

namespace {
/// One row of Fig. 16.
struct SyncTimelineRow {
  bool transitive;
  QualMask full;
  /// Timelines marked "temp." (ordered only temporally).
  QualMask temporalOnly;
};
} // namespace

static QualMask bits(std::initializer_list<QualTimeline> timelines) {
  QualMask mask = 0;
  for (QualTimeline q : timelines)
    mask |= getQualBit(q);
  return mask;
}

static SyncTimelineRow getRow(SyncTimeline timeline) {
  using Q = QualTimeline;
  // Column groups of Fig. 16 that several rows share.
  const QualMask inOrder =
      bits({Q::cuda_in_order_rmem_qual, Q::cuda_in_order_ram_qual});
  const QualMask wgmmaRmem =
      bits({Q::wgmma_async_rmem_a_qual, Q::wgmma_async_rmem_d_qual});
  const QualMask asyncProxy =
      bits({Q::tma_to_smem_async_qual, Q::tma_to_gmem_async_qual,
            Q::wgmma_async_smem_qual});
  const QualMask sm80 = bits({Q::Sm80_cp_async_qual});
  const QualMask stream = bits({Q::cpu_cuda_stream_qual});
  const QualMask zero = bits({Q::wgmma_zero_qual});
  // Every CUDA-side timeline: all but cpu_in_order_qual.
  const QualMask device = inOrder | wgmmaRmem | asyncProxy | sm80 | stream;

  switch (timeline) {
  case SyncTimeline::empty_sync_tl:
    return {false, 0, 0};
  case SyncTimeline::cpu_in_order:
    return {true, bits({Q::cpu_in_order_qual}), 0};
  case SyncTimeline::cuda_stream_sync:
    return {true, device, 0};
  case SyncTimeline::cuda_in_order:
    return {true, inOrder, (device | zero) & ~inOrder};
  case SyncTimeline::cuda_temporal:
    return {false, 0, device | zero};
  case SyncTimeline::Sm80_cp_async:
    return {false, sm80, 0};
  case SyncTimeline::Sm80_generic:
    return {false, inOrder | sm80, (device | zero) & ~(inOrder | sm80)};
  case SyncTimeline::tma_to_smem_async:
    return {false, bits({Q::tma_to_smem_async_qual}), 0};
  case SyncTimeline::tma_to_gmem_async:
    return {false, bits({Q::tma_to_gmem_async_qual}), 0};
  case SyncTimeline::wgmma_async_smem:
    return {false, bits({Q::wgmma_async_smem_qual}), 0};
  case SyncTimeline::wgmma_fence_1:
    return {false, bits({Q::cuda_in_order_rmem_qual}) | wgmmaRmem, 0};
  case SyncTimeline::wgmma_fence_2:
    return {false, wgmmaRmem, 0};
  case SyncTimeline::wgmma_async:
    return {false, wgmmaRmem | bits({Q::wgmma_async_smem_qual}), 0};
  case SyncTimeline::cuda_async_proxy:
    return {false, asyncProxy, 0};
  case SyncTimeline::cuda_async_proxy_wgmma:
    return {false, asyncProxy | wgmmaRmem, 0};
  case SyncTimeline::cuda_generic_and_async: {
    QualMask full = inOrder | sm80 | asyncProxy;
    return {false, full, (device | zero) & ~full};
  }
  }
  return {false, 0, 0};
}

bool mlir::exoam::isTransitive(SyncTimeline timeline) {
  return getRow(timeline).transitive;
}

QualMask mlir::exoam::getFullTimelines(SyncTimeline timeline) {
  return getRow(timeline).full;
}

QualMask mlir::exoam::getTemporalTimelines(SyncTimeline timeline) {
  SyncTimelineRow row = getRow(timeline);
  return row.full | row.temporalOnly;
}

QualTimeline mlir::exoam::getArriveTimeline(SyncTimeline timeline) {
  // Fig. 18 names the fallback `cuda_in_order_qual`, which Fig. 15 does not
  // define; barriers live in shared memory, so it is the RAM timeline.
  if (getFullTimelines(timeline) & getQualBit(QualTimeline::Sm80_cp_async_qual))
    return QualTimeline::Sm80_cp_async_qual;
  return QualTimeline::cuda_in_order_ram_qual;
}

QualMask mlir::exoam::getRegisterTimelines() {
  return getQualBit(QualTimeline::cuda_in_order_rmem_qual) |
         getQualBit(QualTimeline::wgmma_async_rmem_a_qual) |
         getQualBit(QualTimeline::wgmma_async_rmem_d_qual) |
         getQualBit(QualTimeline::wgmma_zero_qual);
}
