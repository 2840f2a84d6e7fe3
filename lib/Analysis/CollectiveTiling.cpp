//===- CollectiveTiling.cpp - collective tilings -------------------------===//
//
// Part of ExoGPU. Collective tilings (seeds/002 Def. 4.2, Sec. 4
// derive_omega; seeds/001 "Collective Tiling Interpretation", "Domain
// Completion").
//
//===----------------------------------------------------------------------===//

#include "ExoGPU/Analysis/CollectiveTiling.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::exogpu;

static std::string str(int64_t value) { return std::to_string(value); }

/// Formats a tuple of coordinates, `T` for top.
static std::string formatTuple(ArrayRef<int64_t> values) {
  std::string text = "(";
  for (auto [i, v] : llvm::enumerate(values)) {
    if (i)
      text += ", ";
    text += v == kTop ? "T" : str(v);
  }
  return text + ")";
}

//===----------------------------------------------------------------------===//
// CollDim
//===----------------------------------------------------------------------===//

int64_t CollDim::getBoxCoord() const {
  return ops.empty() ? extent : ops.back().linearBox / pitch;
}

int64_t CollDim::getTileCoord() const {
  for (const CollDimOp &op : llvm::reverse(ops))
    if (op.isTiling)
      return op.linearBox / pitch;
  return extent;
}

//===----------------------------------------------------------------------===//
// CollTiling
//===----------------------------------------------------------------------===//

CollTiling CollTiling::getTopLevel(CollParams params) {
  CollTiling tiling;
  if (params.clusterDim > 1)
    tiling.dims.push_back({params.clusterDim, params.blockDim, {}});
  if (params.blockDim > 1 || tiling.dims.empty())
    tiling.dims.push_back({params.blockDim, 1, {}});
  return tiling;
}

SmallVector<int64_t> CollTiling::getDomain() const {
  return llvm::map_to_vector(dims, [](const CollDim &d) { return d.extent; });
}

SmallVector<int64_t> CollTiling::getThreadPitches() const {
  return llvm::map_to_vector(dims, [](const CollDim &d) { return d.pitch; });
}

SmallVector<int64_t> CollTiling::getBox() const {
  return llvm::map_to_vector(dims,
                             [](const CollDim &d) { return d.getBoxCoord(); });
}

SmallVector<int64_t> CollTiling::getTile() const {
  return llvm::map_to_vector(dims,
                             [](const CollDim &d) { return d.getTileCoord(); });
}

int64_t CollTiling::getBoxThreads() const {
  int64_t threads = 1;
  for (const CollDim &d : dims)
    threads *= d.getBoxCoord();
  return threads;
}

int64_t CollTiling::getTileThreads() const {
  int64_t threads = 1;
  for (const CollDim &d : dims)
    threads *= d.getTileCoord();
  return threads;
}

int64_t CollTiling::getNumThreads() const {
  return dims.empty() ? 1 : dims.front().extent * dims.front().pitch;
}

const CollDimOp *CollTiling::findOp(Value iter) const {
  for (const CollDim &d : dims)
    for (const CollDimOp &op : d.ops)
      if (iter && op.iter == iter)
        return &op;
  return nullptr;
}

LogicalResult CollTiling::splitDim(unsigned m, int64_t factor,
                                   std::string &reason) {
  const CollDim &old = dims[m];
  if (factor <= 1 || old.extent % factor != 0) {
    reason = "cannot split a dimension of extent " + str(old.extent) + " by " +
             str(factor);
    return failure();
  }
  // seeds/001: ops with linearBox / P_m >= f go to the outer dimension and
  // must be multiples of its pitch P_m * f; the rest refine one outer cell,
  // so the first of them must stay within [0, P_m * f).
  int64_t outerPitch = old.pitch * factor;
  CollDim outer{old.extent / factor, outerPitch, {}};
  CollDim inner{factor, old.pitch, {}};
  for (const CollDimOp &op : old.ops) {
    if (inner.ops.empty() && op.linearBox >= outerPitch) {
      if (op.linearBox % outerPitch != 0 || op.linearOffset % outerPitch != 0) {
        reason = "a tile of " + str(op.linearBox) + " threads at offset " +
                 str(op.linearOffset) + " is not aligned to thread pitch " +
                 str(outerPitch);
        return failure();
      }
      outer.ops.push_back(op);
      continue;
    }
    if (inner.ops.empty() &&
        op.linearOffset + op.tileCount * op.linearBox > outerPitch) {
      reason = str(op.tileCount) + " tile(s) of " + str(op.linearBox) +
               " threads at offset " + str(op.linearOffset) +
               " straddle groups of " + str(outerPitch) + " threads";
      return failure();
    }
    inner.ops.push_back(op);
  }
  dims[m] = std::move(outer);
  dims.insert(dims.begin() + m + 1, std::move(inner));
  return success();
}

void CollTiling::mergeDims(unsigned m, unsigned count) {
  CollDim &outer = dims[m];
  for (unsigned i = 1; i < count; ++i)
    outer.extent *= dims[m + i].extent;
  outer.pitch = dims[m + count - 1].pitch;
  dims.erase(dims.begin() + m + 1, dims.begin() + m + count);
}

LogicalResult CollTiling::completeTo(ArrayRef<int64_t> pitches,
                                     std::string &reason) {
  for (int64_t pitch : pitches) {
    std::optional<DimSplit> split;
    if (failed(findPitchSplit(getDomain(), pitch, split, reason)))
      return failure();
    if (split && failed(splitDim(split->dim, split->factor, reason)))
      return failure();
  }
  return success();
}

FailureOr<ThreadSet>
CollTiling::evaluate(function_ref<std::optional<int64_t>(Value)> iterValue,
                     std::string &reason, bool tileOnly) const {
  // F_m(sigma) of seeds/001 as coordinate intervals [lo, hi].
  SmallVector<std::pair<int64_t, int64_t>> coords;
  for (const CollDim &d : dims) {
    int64_t a = 0;
    int64_t b = d.extent * d.pitch - 1;
    int64_t tileA = a, tileB = b;
    for (const CollDimOp &op : d.ops) {
      int64_t sigma = 0;
      if (op.iter) {
        std::optional<int64_t> value = iterValue(op.iter);
        if (!value) {
          reason = "no value given for a cuda_threads iterator";
          return failure();
        }
        sigma = *value;
      }
      if (sigma < 0 || sigma >= op.tileCount) {
        reason = "iterator value " + str(sigma) + " is outside [0, " +
                 str(op.tileCount) + ")";
        return failure();
      }
      a = a + op.linearOffset + sigma * op.linearBox;
      b = a + op.linearBox - 1;
      if (op.isTiling) {
        tileA = a;
        tileB = b;
      }
    }
    if (tileOnly) {
      a = tileA;
      b = tileB;
    }
    coords.push_back({a / d.pitch, b / d.pitch});
  }
  // Linearize the product: dimensions after `k` are full, so each
  // combination of coordinates before `k` gives one contiguous run.
  int k = static_cast<int>(dims.size()) - 1;
  while (k >= 0 && coords[k].first == 0 &&
         coords[k].second == dims[k].extent - 1)
    --k;
  if (k < 0)
    return ThreadSet::range(0, getNumThreads() - 1);
  SmallVector<ThreadSet::Interval> runs;
  SmallVector<int64_t> counter(k, 0);
  while (true) {
    int64_t base = 0;
    for (int m = 0; m < k; ++m)
      base += (coords[m].first + counter[m]) * dims[m].pitch;
    runs.push_back({base + coords[k].first * dims[k].pitch,
                    base + (coords[k].second + 1) * dims[k].pitch - 1});
    int m = k - 1;
    for (; m >= 0; --m) {
      if (coords[m].first + ++counter[m] <= coords[m].second)
        break;
      counter[m] = 0;
    }
    if (m < 0)
      break;
  }
  return ThreadSet::fromIntervals(runs);
}

void CollTiling::print(
    raw_ostream &os, function_ref<void(raw_ostream &, Value)> printIter) const {
  llvm::interleave(
      dims, os,
      [&](const CollDim &d) {
        os << '[' << d.extent;
        if (d.pitch != 1)
          os << " pitch " << d.pitch;
        for (const CollDimOp &op : d.ops) {
          os << ": ";
          if (op.iter)
            printIter(os, op.iter);
          else
            os << (op.isTiling ? "arg" : "warps");
          os << "(box " << op.linearBox;
          if (op.linearOffset)
            os << ", offset " << op.linearOffset;
          if (op.isTiling)
            os << ", tiles " << op.tileCount << ", pitch " << op.threadPitch;
          os << ')';
        }
        os << ']';
      },
      " ");
}

//===----------------------------------------------------------------------===//
// derive_omega and unit matching
//===----------------------------------------------------------------------===//

/// The indices of the tiling dimensions that are not of extent 1 (unit
/// typing drops those; they never carry operators).
static SmallVector<unsigned> getProperDims(const CollTiling &tiling) {
  SmallVector<unsigned> result;
  for (auto [m, d] : llvm::enumerate(tiling.getDims()))
    if (d.extent != 1)
      result.push_back(m);
  return result;
}

/// Shape alignment: domain completion of the tiling and the type to the
/// union of their thread pitch sets (seeds/001 "Domain Completion").
/// Returns the tiling dimension index of each dimension of the type.
static FailureOr<SmallVector<unsigned>>
alignShapes(CollTiling &tiling, CollType &type, std::string &reason) {
  if (tiling.getNumThreads() !=
      (type.getDomain().empty()
           ? 1
           : type.getDomain().front() * type.getThreadPitches().front())) {
    reason = "the unit and the tiling cover different thread counts";
    return failure();
  }
  llvm::SmallSetVector<int64_t, 8> pitches;
  for (int64_t p : tiling.getThreadPitches())
    pitches.insert(p);
  for (int64_t p : type.getThreadPitches())
    pitches.insert(p);
  if (failed(tiling.completeTo(pitches.getArrayRef(), reason)) ||
      failed(type.completeTo(pitches.getArrayRef(), reason)))
    return failure();
  SmallVector<unsigned> dims = getProperDims(tiling);
  SmallVector<int64_t> tilingDomain;
  for (unsigned m : dims)
    tilingDomain.push_back(tiling.getDims()[m].extent);
  if (ArrayRef<int64_t>(tilingDomain) != type.getDomain()) {
    reason = "domains " + formatTuple(tilingDomain) + " and " +
             formatTuple(type.getDomain()) + " differ after completion";
    return failure();
  }
  return dims;
}

FailureOr<DerivedTiling> mlir::exogpu::deriveTiling(const CollTiling &env,
                                                    const CollType &unit,
                                                    const DeriveSpec &spec,
                                                    DeriveError &error) {
  auto fail = [&](DeriveError::Kind kind, std::string message) {
    error.kind = kind;
    error.message = std::move(message);
    return failure();
  };
  DerivedTiling result{env, std::nullopt};
  CollTiling &tiling = result.tiling;
  CollType type = unit;
  std::string reason;
  FailureOr<SmallVector<unsigned>> dims = alignShapes(tiling, type, reason);
  if (failed(dims))
    return fail(DeriveError::Kind::Misaligned, reason);
  SmallVector<int64_t> box = tiling.getBox();
  // The positions (into `dims`) the unit subdivides.
  SmallVector<unsigned> subdivided;
  for (auto [i, m] : llvm::enumerate(*dims)) {
    int64_t extent = tiling.getDims()[m].extent;
    int64_t unitCoord = type.getBox()[i];
    int64_t envCoord = box[m];
    // A unit spanning the whole dimension keeps the scope's box there (a
    // CTA unit under a warps block selects those warps of one CTA).
    if (unitCoord == kTop || unitCoord == envCoord || unitCoord == extent)
      continue;
    if (unitCoord > envCoord)
      return fail(DeriveError::Kind::NotEnoughThreads,
                  "the unit needs " + str(unitCoord) + " of the " +
                      str(extent) +
                      " positions of a dimension in which the "
                      "scope's collective has " +
                      str(envCoord));
    subdivided.push_back(i);
  }
  if (subdivided.empty()) {
    if (spec.lo != 0 || spec.hi != 1)
      return fail(DeriveError::Kind::NotEnoughThreads,
                  "the unit is the scope's whole collective, so only the "
                  "range [0, 1) fits, not [" +
                      str(spec.lo) + ", " + str(spec.hi) + ")");
    return result;
  }
  // Several subdivided dimensions are one hierarchical slice when they are
  // adjacent, the unit takes one position of all but the last, and the
  // scope has no operators on all but the first (a unit of 8 threads under
  // a warps block tiles the selected warps' threads): merge them.
  unsigned first = subdivided.front(), last = subdivided.back();
  bool mergeable = last - first + 1 == subdivided.size();
  for (unsigned i = first; mergeable && i < last; ++i)
    mergeable = type.getBox()[i] == 1 && (*dims)[i + 1] == (*dims)[i] + 1 &&
                tiling.getDims()[(*dims)[i + 1]].ops.empty();
  if (!mergeable)
    return fail(DeriveError::Kind::Misaligned,
                "the unit subdivides more than one dimension: over domain " +
                    formatTuple(type.getDomain()) + " the scope has box " +
                    formatTuple(box) + " and the unit box " +
                    formatTuple(type.getBox()));
  unsigned m = (*dims)[first];
  tiling.mergeDims(m, last - first + 1);
  int64_t unitCoord = type.getBox()[last];
  int64_t envCoord = tiling.getDims()[m].getBoxCoord();

  // Single-dimension refinement: one operator, in linear thread units.
  if (spec.hi * unitCoord > envCoord)
    return fail(DeriveError::Kind::NotEnoughThreads,
                "the scope's collective has room for " +
                    str(envCoord / unitCoord) +
                    " unit(s) along the subdivided "
                    "dimension, but " +
                    str(spec.hi) + " are needed");
  int64_t pitch = tiling.getDims()[m].pitch;
  CollDimOp op;
  op.iter = spec.iter;
  op.isTiling = spec.isTiling;
  op.linearOffset = spec.lo * unitCoord * pitch;
  op.tileCount = spec.isTiling ? spec.hi - spec.lo : 1;
  op.linearBox =
      (spec.isTiling ? unitCoord : (spec.hi - spec.lo) * unitCoord) * pitch;
  op.threadPitch = op.tileCount > 1 ? op.linearBox : 0;
  tiling.appendOp(m, op);
  result.op = op;
  return result;
}

LogicalResult mlir::exogpu::matchUnit(const CollTiling &tiling,
                                      const CollType &unit, bool useTile,
                                      std::string &reason) {
  CollTiling completed = tiling;
  CollType type = unit;
  FailureOr<SmallVector<unsigned>> dims = alignShapes(completed, type, reason);
  if (failed(dims))
    return failure();
  SmallVector<int64_t> coords =
      useTile ? completed.getTile() : completed.getBox();
  SmallVector<int64_t> domain, have;
  for (unsigned m : *dims) {
    domain.push_back(completed.getDims()[m].extent);
    have.push_back(coords[m]);
  }
  for (auto [d, h, u] : llvm::zip(domain, have, type.getBox())) {
    if (u == kTop || u == h)
      continue;
    reason = "over domain " + formatTuple(domain) + " the " +
             (useTile ? "tile" : "collective") + " has box " +
             formatTuple(have) + " but the unit needs " +
             formatTuple(type.getBox());
    return failure();
  }
  return success();
}
