//===- LoweredSync.h - synchronization as hardware operations ---*- C++ -*-===//
//
// Part of ExoGPU (internal to the CUDA translation). The lowering of a
// kernel's synchronization statements as data: for each Fence, Arrive and
// Await, and each code path that executes it, the hardware operations the
// emitted CUDA performs and which threads take part in each. SyncLowering.cpp
// decides them and prints them; SyncValidation.h checks, before anything is
// written, that they keep every ordering the synchronization check relied on
// (docs/cuda-translation.md "Validation").
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_LIB_TARGET_CUDA_LOWEREDSYNC_H
#define EXOGPU_LIB_TARGET_CUDA_LOWEREDSYNC_H

#include "SyncPlan.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"

#include <variant>

namespace mlir::exogpu::cuda {

/// The waits and fences a synchronization statement makes every executing
/// thread perform first, in this order.
struct SyncWaits {
  /// `cp.async.wait_all`: the thread's cp.async copies are complete.
  bool cpAsyncWaitAll = false;
  /// `cp.async.bulk.commit_group`, then `cp.async.bulk.wait_group 0`: the
  /// thread's bulk copies are complete (the wait covers committed ones
  /// only).
  bool bulkCommit = false;
  bool bulkWaitAll = false;
  /// `wgmma.commit_group.sync.aligned`, then
  /// `wgmma.wait_group.sync.aligned 0`: the warpgroup's wgmmas are
  /// complete (the wait covers committed ones only).
  bool wgmmaCommit = false;
  bool wgmmaWaitAll = false;
  /// `wgmma.fence.sync.aligned`.
  bool wgmmaFence = false;
  /// `fence.proxy.async.shared::cta`.
  bool proxyFence = false;
};

/// The hardware barrier at which the collectives of a Fence meet.
enum class RendezvousKind {
  /// No barrier: one-thread collectives.
  None,
  /// `__syncwarp(mask)`: the lanes of each aligned group of `lanes` lanes
  /// of a warp (`__syncwarp()` for 32).
  WarpLanes,
  /// `bar.sync id, count` (`barrier.sync` with several code paths).
  NamedBarrier,
  /// `__syncthreads()` (`barrier.sync 0` with several code paths).
  CtaBarrier,
  /// `barrier.cluster.arrive.release` + `barrier.cluster.wait.acquire`.
  ClusterBarrier,
};

/// A hardware barrier and the threads that meet at it.
struct Rendezvous {
  RendezvousKind kind = RendezvousKind::None;
  /// WarpLanes: the lanes in each group; with `laneMask`, the lanes of the
  /// mask in every warp instead (`__syncwarp(laneMask)`).
  int64_t lanes = 32;
  uint32_t laneMask = 0;
  /// NamedBarrier: thread `t` of a CTA (its threadIdx.x) meets the other
  /// `count` threads of barrier `idBase + (t - first) / stride`, taken
  /// modulo `period` when it is not 0 (only `idBase` when `stride` is 0);
  /// `numIds` ids in all.
  int64_t idBase = 0;
  int64_t first = 0;
  int64_t stride = 0;
  int64_t period = 0;
  int64_t count = 0;
  int64_t numIds = 1;

  /// The named barrier thread `t` (threadIdx.x) uses.
  int64_t getBarrierId(int64_t t) const;
  /// The threads (natural indices) that meet `thread` (a natural index) at
  /// this barrier, when the threads executing it are `executing`: the
  /// lanes of its group, its named barrier's threads, its CTA, its cluster.
  ThreadSet getParticipants(int64_t thread, const ThreadSet &executing,
                            CollParams params) const;
  /// Whether threads `a` and `b` (natural indices), both executing it, meet
  /// at this barrier.
  bool meets(int64_t a, int64_t b, CollParams params) const;
  /// The threads of `executing` that meet the first thread of their group
  /// of `unit` threads (a warp, a warpgroup) here, that thread executing it
  /// too: after the barrier, that thread has their causality past.
  ThreadSet getMeetingIssuer(const ThreadSet &executing, int64_t unit,
                             CollParams params) const;
};

/// The hardware barrier at which the collectives `instances` of one Fence
/// meet: the smallest one whose participants are threads that execute the
/// Fence (a barrier waits for all of them) and that contains each
/// collective: the lanes of a warp, groups of whole warps (a named barrier;
/// its ids start at 0 here), the CTA, the cluster. Fails, with the reason
/// in `reason`, where no hardware barrier has such participants.
FailureOr<Rendezvous> chooseRendezvous(ArrayRef<ThreadSet> instances,
                                       CollParams params, std::string &reason);

/// How one execution of a Fence is lowered.
struct FenceLowering {
  SyncWaits waits;
  Rendezvous rendezvous;
};

/// How one execution of an Arrive on a CudaMbarrier is lowered.
struct MbarrierArriveLowering {
  /// Waits and fences every thread performs before the election.
  SyncWaits waits;
  /// The issuers of the hardware arrives, and their `__syncwarp()`.
  ArriveIssuers issuers = ArriveIssuers::EveryThread;
  bool syncWarp = false;
  /// `mbarrier.arrive.expect_tx` with these bytes, for TMA completions.
  std::optional<int64_t> expectBytes;
  /// A multicast arrive reaches the element in the CTAs of its window:
  /// `windowCtas` CTAs `windowStride` ranks apart, the issuer's own among
  /// them; every other one gets a peer arrive.
  bool multicast = false;
  int64_t windowCtas = 1;
  int64_t windowStride = 1;
  /// Peer arrives are `.release.cluster` (else `.relaxed.cluster`).
  bool peerRelease = false;

  /// The CTA ranks an issuer in CTA `cta` arrives at (its own first).
  SmallVector<int64_t> getTargetCtas(int64_t cta) const;
};

/// How an Await on a CudaMbarrier is lowered: `mbarrier.try_wait` on the
/// slot of the paired arrive, with acquire semantics at `scope`.
struct MbarrierAwaitLowering {
  MbarrierScope scope = MbarrierScope::Cta;
};

/// The waits and fences of an Arrive on a CudaClusterSync (then
/// `barrier.cluster.arrive.release.aligned`).
struct ClusterArriveLowering {
  SyncWaits waits;
};

/// Arrives and awaits on commit groups: `commit_group` of the arrive's
/// kind, `wait_group N` (and a proxy fence after the wait when async-proxy
/// accesses follow cp.async copies).
struct CommitLowering {
  bool proxyFenceAfterWait = false;
};

/// The lowering of one synchronization statement in one code path.
using SyncLowering =
    std::variant<FenceLowering, MbarrierArriveLowering, MbarrierAwaitLowering,
                 ClusterArriveLowering, CommitLowering>;

/// The lowered synchronization of one kernel: per code path (warp group
/// name, "" without a warp config), the lowering of each synchronization
/// statement the path executes.
struct LoweredKernel {
  llvm::StringMap<DenseMap<Operation *, SyncLowering>> paths;

  /// The lowering of `op` in the path of `group`, or null.
  const SyncLowering *lookup(StringRef group, Operation *op) const;
};

} // namespace mlir::exogpu::cuda

#endif // EXOGPU_LIB_TARGET_CUDA_LOWEREDSYNC_H
