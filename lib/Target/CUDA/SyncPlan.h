//===- SyncPlan.h - how a kernel's synchronization is lowered ---*- C++ -*-===//
//
// Part of ExoGPU (internal to the CUDA translation). Decisions about the
// synchronization statements of one kernel that need the whole kernel, made
// before any code is written (the mbarrier rings' arrival counts depend on
// them): which threads issue the hardware arrives of a collective mbarrier
// Arrive, whether the warp must first `__syncwarp`, whether arrives at peer
// CTAs' barriers need `.release.cluster`, and which Fences and Arrives need
// `fence.proxy.async`. docs/cuda-translation.md "mbarrier arrives" argues
// each choice against the PTX memory model.
//
// The decisions come from a forward dataflow over each code path of the
// kernel (one per named warp group), around the persistent task loop: the
// memory accesses that may still be *pending* at a statement, i.e. not yet
// ordered by a rendezvous that covers the threads that made them (for
// elected arrives), by a cluster-wide rendezvous (for the scope of arrives
// at peers), or by a proxy fence of the threads that made them (for proxy
// fences). Only accesses to elements another thread (of another CTA, for
// the scope) may touch count for the first two
// (ExoGPU/Analysis/BufferSharing.h).
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_LIB_TARGET_CUDA_SYNCPLAN_H
#define EXOGPU_LIB_TARGET_CUDA_SYNCPLAN_H

#include "ExoGPU/Analysis/CollectiveAnalysis.h"
#include "ExoGPU/Dialect/ExoGPU/IR/ExoGPUOps.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringMap.h"

namespace mlir::exogpu {
class BufferSharingAnalysis;
} // namespace mlir::exogpu

namespace mlir::exogpu::cuda {

/// The scope of the release or acquire of an mbarrier operation.
enum class MbarrierScope { Cta, Cluster };

/// Which threads of a collective issue the hardware arrives of one
/// collective `Arrive` on an mbarrier.
enum class ArriveIssuers {
  /// Every thread arrives (the phase counts threads).
  EveryThread,
  /// Lane 0 of each warp arrives for its warp.
  OnePerWarp,
  /// The first thread of each warpgroup arrives for its warpgroup.
  OnePerWarpgroup,
};

/// The threads one issuer arrives for: 1, 32 or 128.
int64_t getIssuerThreads(ArriveIssuers issuers);

/// How one mbarrier Arrive is lowered; the same in every code path that
/// executes it.
struct ArriveLowering {
  ArriveIssuers issuers = ArriveIssuers::EveryThread;
  /// A `__syncwarp()` before the elected lane arrives: lanes of the warp may
  /// have accesses the arrive must order.
  bool syncWarp = false;
  /// Arrives at peer CTAs' barriers are `.release.cluster`: the arriving
  /// threads may have accesses that no cluster-wide rendezvous has ordered.
  /// Otherwise they are `.relaxed.cluster`: what they order is temporal.
  bool releaseCluster = false;
};

/// One collective that executes a statement: the values of the enclosing
/// cuda_threads iterators and the threads they select.
struct CollectiveInstance {
  DenseMap<Value, int64_t> iterators;
  ThreadSet threads;
};

/// The collectives that execute `op`, one per value of the enclosing
/// cuda_threads iterators (at most one per thread of the cluster), but for
/// those that an enclosing `if` over these iterators alone rules out.
FailureOr<SmallVector<CollectiveInstance>>
enumerateCollectives(const CollectiveAnalysis &collective, Operation *op);

/// The collectives of each synchronization statement, enumerated once
/// (enumerateCollectives) and kept.
class CollectiveInstanceCache {
public:
  FailureOr<ArrayRef<CollectiveInstance>>
  get(const CollectiveAnalysis &collective, Operation *op);

private:
  DenseMap<Operation *, SmallVector<CollectiveInstance>> instances;
};

/// The thread sets of enumerateCollectives.
FailureOr<SmallVector<ThreadSet>>
getCollectiveInstances(const CollectiveAnalysis &collective, Operation *op);

/// The synchronization decisions of one kernel.
class SyncPlan {
public:
  /// Analyses `kernel`. Fails (with a diagnostic) where the collective
  /// analysis cannot say which threads execute a statement.
  static FailureOr<SyncPlan> build(DeviceFunctionOp kernel,
                                   const CollectiveAnalysis &collective,
                                   BufferSharingAnalysis &sharing,
                                   CollParams params);

  /// Whether `op` (a Fence or an Arrive that orders generic accesses before
  /// async-proxy ones) must emit `fence.proxy.async` in the code path of
  /// warp group `group` ("" without a warp config): some thread of the path
  /// may have a generic shared-memory access that no proxy fence of its own
  /// has ordered yet.
  bool needsProxyFence(StringRef group, Operation *op) const;

  /// The lowering of an Arrive on a CudaMbarrier.
  ArriveLowering getArriveLowering(ArriveOp arrive) const;

  /// The scope at which awaits of mbarrier `barrier` acquire: the cluster's
  /// where an arrive at it from another CTA releases at cluster scope (a
  /// release and an acquire order memory only when both scopes contain
  /// both threads, PTX ISA "Memory Consistency Model"), else the CTA's.
  MbarrierScope getAcquireScope(Value barrier) const;

private:
  friend class SyncPlanBuilder;
  /// Whether any code of the kernel issues async-proxy operations (TMA,
  /// wgmma): only then do generic accesses need proxy fences.
  bool kernelIssuesAsyncProxy = false;
  llvm::StringMap<DenseSet<Operation *>> proxyFences;
  DenseMap<Operation *, ArriveLowering> arrives;
};

} // namespace mlir::exogpu::cuda

#endif // EXOGPU_LIB_TARGET_CUDA_SYNCPLAN_H
