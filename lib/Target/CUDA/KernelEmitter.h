//===- KernelEmitter.h - device functions as CUDA kernels -------*- C++ -*-===//
//
// Part of ExoGPU (internal to the CUDA translation). A `device_function`
// becomes a persistent `__global__` kernel (seeds/002 Sec. 4.2): a task
// generator hands the tasks of the `cuda_tasks` nest round-robin to the
// clusters of the grid; each named warp group gets its own code path with
// its `setmaxnreg` (Fig. 3); cuda_threads loops become thread-index
// arithmetic (ThreadMapping.h); shared memory has static offsets
// (SharedMemoryPlan.h); synchronization lowers to the instructions of the
// table in docs/cuda-translation.md (SyncLowering.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_LIB_TARGET_CUDA_KERNELEMITTER_H
#define EXOGPU_LIB_TARGET_CUDA_KERNELEMITTER_H

#include "FunctionEmitter.h"
#include "KernelStructure.h"
#include "LoweredSync.h"
#include "SharedMemoryPlan.h"
#include "SyncPlan.h"
#include "ThreadMapping.h"

namespace mlir::exogpu::cuda {

/// What the host needs to launch a kernel.
struct KernelLaunch {
  std::string name;
  /// The kernel's parameters, in order: values of the proc it uses.
  SmallVector<Value> params;
  CollParams collParams;
  /// Dynamic shared memory bytes, alignment slack included.
  int64_t smemBytes = 0;
  /// The cuda_tasks loops, outermost first.
  SmallVector<ForOp> taskLoops;
  /// Every control expression the kernel evaluates (over the proc's
  /// space), for the host's 32-bit checks (ControlBounds.h).
  SmallVector<AffineExpr> controlExprs;
  /// The extents of the kernel's split dimensions modulo their factors
  /// (over the space, naming host values): the host checks that each is 0.
  SmallVector<AffineExpr> splitRemainders;
};

/// Writes the kernel of `deviceFunction` named `name` to `os`.
FailureOr<KernelLaunch> emitKernel(ProcState &state,
                                   DeviceFunctionOp deviceFunction,
                                   StringRef name, raw_ostream &os);

/// The C++ parameter declaration of kernel parameter `value`.
std::string getKernelParamDecl(ProcState &state, Value value,
                               DeviceFunctionOp deviceFunction);

/// Emits the statements of a kernel.
class KernelEmitter : public FunctionEmitter {
public:
  KernelEmitter(ProcState &state, CodeWriter &out,
                DeviceFunctionOp deviceFunction, CollParams params,
                const SyncPlan &syncPlan, SharedMemoryPlan &plan);

  /// Emits the kernel body: prologue (shared memory, mbarrier rings, task
  /// counts) and one code path per warp group.
  LogicalResult emitBody();

  ArrayRef<ForOp> getTaskLoops() const { return taskLoops; }

  /// The lowering of every synchronization statement, per code path.
  const LoweredKernel &getLoweredKernel() const { return lowered; }

  /// The split extents the host must check before the launch
  /// (checkSplitExtent).
  ArrayRef<AffineExpr> getSplitRemainders() const {
    return splitRemainders.getArrayRef();
  }

protected:
  LogicalResult emitOp(Operation *op) override;
  FailureOr<std::string> getBarrierAddress(CallOp call) override;
  /// Leaves the check to the host, before the launch.
  LogicalResult checkSplitExtent(SplitOp split, AffineExpr remainder) override;
  bool isDeviceCode() const override { return true; }

private:
  LogicalResult emitPrologue();
  LogicalResult emitBranches(ArrayRef<RegisterBranch> branches);
  LogicalResult emitPath(const WarpPath &path);
  LogicalResult emitThreadsFor(ForOp loop);
  LogicalResult emitWarps(WarpsOp warps);
  LogicalResult emitAlloc(AllocOp alloc);

  // Synchronization (SyncLowering.cpp): each statement's lowering is
  // decided (get*), printed (print*) and recorded for the validator.
  LogicalResult emitFence(FenceOp fence);
  LogicalResult emitArrive(ArriveOp arrive);
  LogicalResult emitAwait(AwaitOp await);
  FailureOr<SyncWaits> getPreWaits(Operation *op, uint32_t preFull,
                                   uint32_t postTemporal, bool sameThreads);
  void printWaits(const SyncWaits &waits);
  FailureOr<Rendezvous> getRendezvous(Operation *op, StringRef what);
  void printRendezvous(const Rendezvous &rendezvous);
  FailureOr<MbarrierArriveLowering> getMbarrierArrive(ArriveOp arrive);
  FailureOr<std::string> getArriveSlot(ArriveOp arrive);
  void printPeerArrives(const MbarrierArriveLowering &lowering,
                        const std::string &slot);
  void recordLowering(Operation *op, SyncLowering lowering);
  /// Whether the translation was asked to inject `fault` (tests of the
  /// validation only, CudaTranslationOptions::syncFaults).
  bool injects(SyncFault fault) const;
  FailureOr<std::string> getSlice(Value barrier, ArrayRef<int32_t> kinds,
                                  ArrayRef<AffineExpr> exprs, Location loc);
  /// The bytes of the TMA transfers completing on `barrier` that an arrive
  /// expects (expect_tx), or nullopt if none completes on it.
  FailureOr<std::optional<int64_t>> getExpectedBytes(ArriveOp arrive,
                                                     Value barrier);
  std::string getCounter(Value barrier, bool arrive);
  bool pathIssues(uint32_t timelines);
  /// Whether the current path may have issued work on `timelines` that no
  /// Arrive on the `committed` commit group has committed when `op` runs.
  bool mayBeUncommitted(Operation *op, uint32_t timelines,
                        SyncTimeline committed);

  /// Whether `op` belongs to the current path (it is not inside a named
  /// warps block of another group).
  bool inPath(Operation *op) const;
  /// Whether a value is used by an op of the current path.
  bool usedInPath(Value value) const;

  DeviceFunctionOp deviceFunction;
  CollParams params;
  const SyncPlan &syncPlan;
  SharedMemoryPlan &plan;
  ThreadMapper mapper;
  SmallVector<ForOp> taskLoops;
  /// Whether the device function has more than one code path (CTA barriers
  /// must then be the non-aligned forms).
  bool divergentPaths = false;
  const WarpPath *currentPath = nullptr;
  /// Per-thread arrive and await counters of the current path.
  DenseMap<Value, std::string> arriveCounters, awaitCounters;
  /// The synchronization lowered so far.
  LoweredKernel lowered;
  /// The remainders of checkSplitExtent, each once (every code path emits
  /// the splits it uses).
  llvm::SetVector<AffineExpr> splitRemainders;
  /// Named barrier ids: the families of groups of warps Fences meet in (the
  /// id formula, the count and the number of ids) and their first id.
  using NamedBarrierFamily =
      std::tuple<int64_t, int64_t, int64_t, int64_t, int64_t>;
  SmallVector<std::pair<NamedBarrierFamily, int64_t>> namedBarriers;
  int64_t nextBarrierId = 1;
};

} // namespace mlir::exogpu::cuda

#endif // EXOGPU_LIB_TARGET_CUDA_KERNELEMITTER_H
