//===- DistributedMemory.h - distributed memory deduction -------*- C++ -*-===//
//
// Part of ExoGPU. Distributed memory analysis (seeds/002 Sec. 4.1; guide,
// "Distributed Memory", rules 1-4): for every data or barrier variable
// allocated in CUDA scope, deduce which leading dimensions are distributed
// over thread collectives, check that every use deduces the same
// distribution, and record it for code generation.
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_ANALYSIS_DISTRIBUTEDMEMORY_H
#define EXOGPU_ANALYSIS_DISTRIBUTEDMEMORY_H

#include "ExoGPU/Analysis/CollectiveAnalysis.h"
#include "mlir/Pass/AnalysisManager.h"

namespace mlir::exogpu {

/// The native unit of a memory type (guide rule 1): the collective unit that
/// physically allocates one shard. CudaRmem: cuda_thread; Sm80 register
/// matrices: cuda_warp; Sm90 register matrices: cuda_warpgroup; shared
/// memories: cuda_cta_in_cluster. None for memories allocated from the CPU.
std::optional<CollUnitKind> getNativeUnit(MemoryKind kind);

/// The deduced distribution of one CUDA-scoped allocation: its first
/// `getNumDistributedDims()` dimensions select a shard, each owned by one
/// thread collective; the remaining dimensions index within the shard.
struct DistributedLayout {
  /// Extents of the distributed dimensions.
  SmallVector<int64_t> extents;
  /// Natural thread index distance between the owners of consecutive
  /// indices of each distributed dimension (the thread pitch tuple of
  /// Sec. 4.1 (iii)); 0 for a dimension of extent 1.
  SmallVector<int64_t> threadPitches;
  /// Threads of the collective that owns one shard.
  int64_t shardThreads = 0;
  /// The owner of shard (0, ..., 0), with iterators enclosing the allocation
  /// at 0. Shard (i_1, ...) is owned by these threads shifted by
  /// sum_k i_k * threadPitches[k].
  ThreadSet firstShardOwner;
  /// The use the layout was first deduced at.
  Operation *firstUse = nullptr;

  unsigned getNumDistributedDims() const { return extents.size(); }
  bool operator==(const DistributedLayout &other) const {
    return extents == other.extents && threadPitches == other.threadPitches &&
           shardThreads == other.shardThreads &&
           firstShardOwner == other.firstShardOwner;
  }
  /// Prints `2 distributed dim(s) [2, 4] with thread pitches [128, 32];
  /// shards of 32 thread(s); shard 0 owned by [0, 31]`.
  void print(raw_ostream &os) const;
};

/// Distributed memory deduction over a root op (an exogpu.proc, or any op
/// containing procs). Instruction calls are desugared as in Sec. 4.1 step 1:
/// an interval argument index in a distributed position is tiled by the
/// instruction's distributed collective unit for that parameter
/// (`#exogpu.arg<dist = [...]>`, or `barrier_dist` for `>> z[...]`).
class DistributedMemoryAnalysis {
public:
  /// Runs on the collective analysis of the same root.
  DistributedMemoryAnalysis(Operation *root,
                            const CollectiveAnalysis &collective);
  /// For `getAnalysis<DistributedMemoryAnalysis>()`.
  DistributedMemoryAnalysis(Operation *root, AnalysisManager &am);

  /// The layout of an exogpu.alloc result; null if the allocation is not
  /// CUDA-scoped, never used, or its deduction failed.
  const DistributedLayout *lookup(Value allocation) const;

  /// The errors found (Sec. 4.1 (i)-(iii)).
  ArrayRef<AnalysisDiagnostic> getDiagnostics() const { return diagnostics; }

private:
  void run(Operation *root, const CollectiveAnalysis &collective);

  DenseMap<Value, DistributedLayout> layouts;
  SmallVector<AnalysisDiagnostic> diagnostics;
};

} // namespace mlir::exogpu

#endif // EXOGPU_ANALYSIS_DISTRIBUTEDMEMORY_H
