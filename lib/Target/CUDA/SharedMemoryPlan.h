//===- SharedMemoryPlan.h - a kernel's shared memory ------------*- C++ -*-===//
//
// Part of ExoGPU (internal to the CUDA translation). Placement of a kernel's
// shared memory (seeds/002 Sec. 4.2 "Shared Memory Allocations"): one
// dynamic buffer; every shared-memory allocation gets a static offset, and
// allocations whose lifetimes do not overlap (sibling blocks) share bytes.
// The mbarrier rings that implement `CudaMbarrier` queue barriers (guide
// "Queue Barrier") come first; they live as long as the kernel, initialized
// once.
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_LIB_TARGET_CUDA_SHAREDMEMORYPLAN_H
#define EXOGPU_LIB_TARGET_CUDA_SHAREDMEMORYPLAN_H

#include "SyncPlan.h"
#include "Translation.h"

namespace mlir::exogpu::cuda {

/// The physical mbarriers of one `CudaMbarrier` allocation in each CTA:
/// `slices` barrier elements (its distributed dimensions within a CTA), each
/// a ring of `depth` mbarriers. Arrive number j on an element uses
/// mbarrier `slice * depth + j % depth` in phase parity `(j / depth) % 2`.
struct MbarrierRing {
  int64_t offset = 0;
  int64_t slices = 1;
  int64_t depth = 1;
  /// The arrivals that complete a phase: the issuers of one arriving
  /// collective (its threads, warps or warpgroups: SyncPlan.h), times the
  /// CTAs a multicast arrive comes from.
  int64_t arriveCount = 1;
  /// Per distributed dimension of the barrier: the stride of its index in
  /// the slice number, or 0 for a dimension across the CTAs of a cluster.
  SmallVector<int64_t> sliceStrides;
  /// Per distributed dimension: the CTA stride (index * stride is the CTA
  /// rank it names, counted from `ctaBase`), or 0 for a dimension within a
  /// CTA.
  SmallVector<int64_t> ctaStrides;
  /// Per distributed dimension: its extent.
  SmallVector<int64_t> extents;
  /// The CTA that holds element (0, ..., 0).
  int64_t ctaBase = 0;
};

/// The shared memory of one kernel.
struct SharedMemoryPlan {
  /// Byte offsets of shared-memory data allocations.
  DenseMap<Value, int64_t> offsets;
  /// The mbarrier rings of `CudaMbarrier` allocations.
  DenseMap<Value, MbarrierRing> rings;
  /// Bytes per CTA, and the largest alignment an allocation needs.
  int64_t bytes = 0;
  int64_t alignment = 16;
};

/// The CTAs a multicast arrive (`>> z[own] >> z[window]`) reaches: the
/// window's whole dimension across CTAs, as the number of its CTAs and the
/// rank distance between them. Fails (with a diagnostic) for windows the
/// translation does not lower: intervals of CTAs, several dimensions of
/// CTAs.
FailureOr<std::pair<int64_t, int64_t>>
getMulticastWindow(ArriveOp arrive, const MbarrierRing &ring);

/// Plans the shared memory of `kernel`; `syncPlan` says how many hardware
/// arrives each collective arrive brings.
FailureOr<SharedMemoryPlan> planSharedMemory(DeviceFunctionOp kernel,
                                             ProcState &state,
                                             CollParams params,
                                             const SyncPlan &syncPlan);

/// The byte size of one element of `type`.
int64_t getElementBytes(Type type);

} // namespace mlir::exogpu::cuda

#endif // EXOGPU_LIB_TARGET_CUDA_SHAREDMEMORYPLAN_H
