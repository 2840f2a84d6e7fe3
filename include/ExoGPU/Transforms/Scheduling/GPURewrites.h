//===- GPURewrites.h - GPU annotations of a scheduled proc ------*- C++ -*-===//
//
// Part of ExoGPU. The scheduling operations Exo-GPU adds (seeds/002 Sec.
// 2.3): loop modes, device functions, warp specialization and
// synchronization statements. They are annotations: the sequential meaning
// ignores them, so the sequential checks have nothing to check; each
// rewrite only keeps the IR valid (it is undone, with the verifier's
// explanation, otherwise). The collective analysis, the distributed memory
// deduction and the synchronization check verify the final proc.
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_TRANSFORMS_SCHEDULING_GPUREWRITES_H
#define EXOGPU_TRANSFORMS_SCHEDULING_GPUREWRITES_H

#include "ExoGPU/Transforms/Scheduling/ControlRewriting.h"
#include "ExoGPU/Transforms/Scheduling/RewriteSupport.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::exogpu {

/// Sets the mode of `loop` (and its collective unit, for cuda_threads).
LogicalResult setLoopMode(RewriterBase &rewriter, ForOp loop, LoopMode mode,
                          CollUnitAttr unit, Refusal &refusal);

/// The launch configuration of wrap_device_function.
struct DeviceFunctionConfig {
  int64_t clusterDim = 1;
  std::optional<int64_t> blockDim;
  /// A warp config (Fig. 3): WarpGroupAttrs, or null.
  ArrayAttr warps;
  /// Memory that the DRAM parameters used only inside the kernel move to
  /// (null: none move).
  MemoryAttr paramMemory;
};

/// Wraps the loop nest `nest` in `device_function(config)`; its `tasks`
/// outermost loops (a perfect nest) become cuda_tasks loops.
FailureOr<DeviceFunctionOp>
wrapDeviceFunction(RewriterBase &rewriter, ForOp nest, unsigned tasks,
                   const DeviceFunctionConfig &config, Refusal &refusal);

/// Wraps consecutive statements in `warps "name"` (with a name) and/or
/// `warps(lo, hi)` (with a range).
FailureOr<WarpsOp> wrapWarps(RewriterBase &rewriter,
                             ArrayRef<Operation *> block, StringAttr name,
                             std::optional<std::pair<int64_t, int64_t>> range,
                             Refusal &refusal);

/// Where an inserted statement goes: before or after `anchor`, or at the
/// start or end of the body of `anchor` (a loop, guard or scope).
struct InsertionPlace {
  enum Kind { Before, After, Start, End };
  Operation *anchor = nullptr;
  Kind kind = Before;

  /// Names visible at the place that lookupName does not see from
  /// `anchor` (the iterator of a loop whose body the place is in).
  SmallVector<std::pair<StringRef, Value>, 1> extraNames() const;
};

/// Inserts `fence(pre, post)`, inside `if guard` when a guard is given.
FailureOr<FenceOp> insertFence(RewriterBase &rewriter,
                               const InsertionPlace &place, SyncTimeline pre,
                               SyncTimeline post, const ParsedCondition *guard,
                               Refusal &refusal);

/// Inserts `arrive(timeline, count) >> barriers...`.
FailureOr<ArriveOp> insertArrive(RewriterBase &rewriter,
                                 const InsertionPlace &place,
                                 SyncTimeline timeline, int64_t count,
                                 ArrayRef<ParsedAccess> barriers,
                                 const ParsedCondition *guard,
                                 Refusal &refusal);

/// Inserts `await(barrier, timeline, count)`.
FailureOr<AwaitOp> insertAwait(RewriterBase &rewriter,
                               const InsertionPlace &place,
                               const ParsedAccess &barrier,
                               SyncTimeline timeline, int64_t count,
                               const ParsedCondition *guard, Refusal &refusal);

/// Inserts `name = alloc barrier[shape] @kind` (with `guarded`, Fig. 10).
FailureOr<AllocOp> insertBarrierAlloc(RewriterBase &rewriter,
                                      const InsertionPlace &place,
                                      StringRef name, ArrayRef<int64_t> shape,
                                      BarrierKind kind, bool guarded,
                                      Refusal &refusal);

/// Sets the barrier an instruction call completes on (`>> barrier`), or
/// removes it when `barrier` is null.
LogicalResult setTrailingBarrier(RewriterBase &rewriter, CallOp call,
                                 const ParsedAccess *barrier, Refusal &refusal);

} // namespace mlir::exogpu

#endif // EXOGPU_TRANSFORMS_SCHEDULING_GPUREWRITES_H
