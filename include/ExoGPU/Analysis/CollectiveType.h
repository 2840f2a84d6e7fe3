//===- CollectiveType.h - collective types and unit typing ------*- C++ -*-===//
//
// Part of ExoGPU. Collective types delta = (domain, box) and the unit typing
// function that turns a collective unit of seeds/002 Fig. 11 into one
// (seeds/001 "Collective Type", "Collective Type Interpretation", "Unit
// Typing Function"): collective parameter substitution, unit domain
// completion (unitary or agnostic), alignment and domain completion to a
// target thread pitch set.
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_ANALYSIS_COLLECTIVETYPE_H
#define EXOGPU_ANALYSIS_COLLECTIVETYPE_H

#include "ExoGPU/Dialect/ExoGPU/IR/ExoGPUAttrs.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>
#include <string>

namespace mlir::exogpu {

/// The collective parameters of a device function (seeds/001 "Scoped
/// State"): CTAs per cluster and threads per CTA.
struct CollParams {
  int64_t clusterDim = 1;
  int64_t blockDim = 1;
  /// |mu_top|: the threads of one cluster.
  int64_t getNumThreads() const { return clusterDim * blockDim; }
};

/// A CollSizeExpr (seeds/001 "Collective Unit"): a rational number times
/// blockDim^blockDimPow times clusterDim^clusterDimPow.
struct CollSizeExpr {
  int64_t num = 1;
  int64_t den = 1;
  unsigned blockDimPow = 0;
  unsigned clusterDimPow = 0;

  /// Collective parameter substitution; fails if the value is not a natural
  /// number.
  std::optional<int64_t> substitute(CollParams params) const;
  void print(raw_ostream &os) const;
};

/// A collective unit before substitution: a domain of CollSizeExprs and a
/// box whose coordinates may be top (std::nullopt, "agnostic").
struct CollUnitShape {
  SmallVector<CollSizeExpr, 3> domain;
  SmallVector<std::optional<CollSizeExpr>, 3> box;
};

/// The domain and box of a unit of seeds/002 Fig. 11, with `n *` scaling
/// applied. docs/analyses.md explains how each row was reconstructed.
CollUnitShape getUnitShape(CollUnitAttr unit);

/// Prints a unit the way it is written: `4 * cuda_thread`,
/// `cuda_threads_strided(2, 4)`.
std::string formatUnit(CollUnitAttr unit);

/// The box coordinate top (N_top of seeds/001): no requirement.
inline constexpr int64_t kTop = -1;

/// The thread pitches of a domain: P_m = D_{m+1} * ... * D_{M-1}.
SmallVector<int64_t> getThreadPitches(ArrayRef<int64_t> domain);

/// Splitting dimension `dim` of a domain by `factor`.
struct DimSplit {
  unsigned dim;
  int64_t factor;
};

/// The split that makes `pitch` a thread pitch of `domain`: the dimension m
/// with P_m < pitch < P_m * D_m, split by pitch / P_m (seeds/001 "Collective
/// Tiling Reshape"). Leaves `split` empty if `pitch` already is a pitch or
/// lies outside the domain; fails if the division is not exact.
LogicalResult findPitchSplit(ArrayRef<int64_t> domain, int64_t pitch,
                             std::optional<DimSplit> &split,
                             std::string &reason);

/// A collective type delta = (D, B) over natural numbers (seeds/001):
/// `domain` multiplies out to the threads of a cluster; a box coordinate is
/// a natural number or kTop.
class CollType {
public:
  CollType() = default;
  CollType(SmallVector<int64_t> domain, SmallVector<int64_t> box)
      : domain(std::move(domain)), box(std::move(box)) {}

  ArrayRef<int64_t> getDomain() const { return domain; }
  ArrayRef<int64_t> getBox() const { return box; }
  SmallVector<int64_t> getThreadPitches() const {
    return exogpu::getThreadPitches(domain);
  }

  /// The threads of one matching collective, or nullopt if some box
  /// coordinate is top.
  std::optional<int64_t> getBoxThreads() const;

  /// Aligned form: every B_m is 1, D_m or top (seeds/001).
  bool isAligned() const;

  /// Splits dimension `m` by `factor` with the box rule of seeds/001 "Unit
  /// Typing Function".
  LogicalResult splitDim(unsigned m, int64_t factor, std::string &reason);

  /// Splits dimensions until every pitch of `pitches` below the total thread
  /// count is a thread pitch of the type (seeds/001 "completed for a target
  /// thread pitch set").
  LogicalResult completeTo(ArrayRef<int64_t> pitches, std::string &reason);

  /// Prints `(D = (4, 32), B = (1, 32))`; top prints as `T`.
  void print(raw_ostream &os) const;

private:
  SmallVector<int64_t, 4> domain;
  SmallVector<int64_t, 4> box;
};

/// How the unit typing function fills a dimension prepended by unit domain
/// completion: with box 1 (unitary: one collective, used to check that a
/// scope matches a unit) or top (agnostic: repeated in every part of the
/// cluster, used to derive tilings).
enum class UnitTyping { Unitary, Agnostic };

/// The unit typing function (seeds/001): collective parameter substitution,
/// unit domain completion, alignment (splitting every box coordinate that is
/// not 1, D_m or top off its dimension), and removal of unit dimensions.
FailureOr<CollType> typeUnit(CollUnitAttr unit, CollParams params,
                             UnitTyping typing, std::string &reason);

} // namespace mlir::exogpu

#endif // EXOGPU_ANALYSIS_COLLECTIVETYPE_H
