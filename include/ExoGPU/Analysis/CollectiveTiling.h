//===- CollectiveTiling.h - collective tilings ------------------*- C++ -*-===//
//
// Part of ExoGPU. Collective tilings omega (seeds/002 Def. 4.2, seeds/001
// "Collective Tiling Interpretation"): the static map from the values of
// cuda_threads iterators to the thread collective that executes a statement
// instance; reshape by split and domain completion (seeds/001 "Domain
// Completion"), derive_omega (seeds/002 Sec. 4) and the tau_u-scope check.
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_ANALYSIS_COLLECTIVETILING_H
#define EXOGPU_ANALYSIS_COLLECTIVETILING_H

#include "ExoGPU/Analysis/CollectiveType.h"
#include "ExoGPU/Analysis/ThreadSet.h"
#include "mlir/IR/Value.h"

namespace mlir::exogpu {

/// A dimension operator (CollDimOp of seeds/001). In linear thread units of
/// its dimension it maps an interval [a, b] to [x, x + linearBox - 1] with
/// x = a + linearOffset + sigma(iter) * linearBox.
struct CollDimOp {
  /// The iterator selecting the tile; null for a warps block and for the
  /// tiles of a desugared instruction argument (both evaluate as 0).
  Value iter;
  /// True for a tiling (cuda_threads loop, desugared argument), false for a
  /// specialization (warps block), which narrows the box but not the tile.
  bool isTiling = true;
  int64_t linearBox = 0;
  int64_t linearOffset = 0;
  /// Distance between the first threads of consecutive tiles; 0 for fewer
  /// than two tiles (seeds/001 "thread pitch").
  int64_t threadPitch = 0;
  int64_t tileCount = 1;
};

/// One dimension F_m of a collective tiling: extent D_m, thread pitch P_m
/// and the ordered operators O_m.
struct CollDim {
  int64_t extent = 1;
  int64_t pitch = 1;
  SmallVector<CollDimOp, 2> ops;

  /// The box coordinate: the extent of the last operator's interval.
  int64_t getBoxCoord() const;
  /// The tile coordinate: like the box, ignoring specializations (the
  /// guide's "tile thread count ... ignoring warp specialization").
  int64_t getTileCoord() const;
};

/// A collective tiling: dimensions with operators.
class CollTiling {
public:
  /// The tiling of a device function (seeds/002 Sec. 4): 1-D (blockDim) for
  /// clusterDim = 1, else (clusterDim, blockDim); no operators.
  static CollTiling getTopLevel(CollParams params);

  ArrayRef<CollDim> getDims() const { return dims; }
  SmallVector<int64_t> getDomain() const;
  SmallVector<int64_t> getThreadPitches() const;
  SmallVector<int64_t> getBox() const;
  SmallVector<int64_t> getTile() const;
  /// Threads of one collective the tiling yields.
  int64_t getBoxThreads() const;
  /// Threads of one tile (ignoring warp specialization).
  int64_t getTileThreads() const;
  /// Threads of the cluster.
  int64_t getNumThreads() const;

  /// The operator that `iter` added, if any.
  const CollDimOp *findOp(Value iter) const;

  /// Appends `op` to the operators of dimension `m`.
  void appendOp(unsigned m, const CollDimOp &op) { dims[m].ops.push_back(op); }

  /// Reshape: splits dimension `m` by `factor` (seeds/001 "Collective Tiling
  /// Reshape"). Fails if the operators do not align with the new pitches.
  LogicalResult splitDim(unsigned m, int64_t factor, std::string &reason);

  /// Merges dimensions m..m+count-1 into one; the dimensions after the
  /// first must have no operators (the inverse of splitDim).
  void mergeDims(unsigned m, unsigned count);

  /// Domain completion to a target thread pitch set.
  LogicalResult completeTo(ArrayRef<int64_t> pitches, std::string &reason);

  /// The thread collective for the given iterator values (seeds/001: the
  /// product of F_m(sigma) linearized by the domain). `iterValue` returns
  /// the value of an iterator, or nullopt if unknown. With `tileOnly`, each
  /// dimension stops at its last tiling operator: the tile that owns the
  /// collective, ignoring later warp specializations.
  FailureOr<ThreadSet>
  evaluate(function_ref<std::optional<int64_t>(Value)> iterValue,
           std::string &reason, bool tileOnly = false) const;

  /// Prints `[128: %m(box 16, tiles 8, pitch 16)]`, one bracket per
  /// dimension with its extent, pitch if not 1, and operators.
  void print(raw_ostream &os,
             function_ref<void(raw_ostream &, Value)> printIter) const;

private:
  SmallVector<CollDim, 4> dims;
};

/// What a cuda_threads loop or warps block asks derive_omega for: tiles
/// lo..hi-1 of the unit (a tiling), or the single box spanning units
/// [lo, hi) (a specialization).
struct DeriveSpec {
  Value iter;
  bool isTiling = true;
  int64_t lo = 0;
  int64_t hi = 1;
};

/// Why derive_omega failed.
struct DeriveError {
  enum class Kind {
    /// The unit, or the requested number of units, does not fit in the
    /// scope's collective.
    NotEnoughThreads,
    /// The unit cannot be aligned with the tiling (indivisible pitches,
    /// several dimensions to subdivide, tiles straddling a pitch).
    Misaligned,
  };
  Kind kind = Kind::Misaligned;
  std::string message;
};

/// The result of derive_omega: the new tiling and the operator it appended
/// (none for a trivial tiling, where the unit equals the scope's collective).
struct DerivedTiling {
  CollTiling tiling;
  std::optional<CollDimOp> op;
};

/// derive_omega (seeds/002 Sec. 4): shape alignment of `env` and the
/// agnostically typed `unit` by domain completion to the union of their
/// thread pitch sets, then single-dimension refinement (one operator
/// appended to the unique dimension the unit subdivides).
FailureOr<DerivedTiling> deriveTiling(const CollTiling &env,
                                      const CollType &unit,
                                      const DeriveSpec &spec,
                                      DeriveError &error);

/// Whether `tiling` yields only collectives matching the unitarily typed
/// `unit` (a tau_u-scope, seeds/001 "Collective Type Interpretation"):
/// after domain completion every box coordinate is 1 where the unit's is 1
/// and D_m where the unit's is D_m. With `useTile`, compares tiles instead
/// of boxes (distributed memory ownership ignores warp specialization).
LogicalResult matchUnit(const CollTiling &tiling, const CollType &unit,
                        bool useTile, std::string &reason);

} // namespace mlir::exogpu

#endif // EXOGPU_ANALYSIS_COLLECTIVETILING_H
