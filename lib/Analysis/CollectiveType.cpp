//===- CollectiveType.cpp - collective types and unit typing -------------===//
//
// Part of ExoGPU. Collective units of seeds/002 Fig. 11 and the unit typing
// function of seeds/001 ("Unit Typing Function").
//
//===----------------------------------------------------------------------===//

#include "ExoGPU/Analysis/CollectiveType.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::exogpu;

//===----------------------------------------------------------------------===//
// CollSizeExpr
//===----------------------------------------------------------------------===//

std::optional<int64_t> CollSizeExpr::substitute(CollParams params) const {
  int64_t value = num;
  for (unsigned i = 0; i < blockDimPow; ++i)
    value *= params.blockDim;
  for (unsigned i = 0; i < clusterDimPow; ++i)
    value *= params.clusterDim;
  if (den <= 0 || value <= 0 || value % den != 0)
    return std::nullopt;
  return value / den;
}

void CollSizeExpr::print(raw_ostream &os) const {
  SmallVector<std::string> factors;
  for (unsigned i = 0; i < clusterDimPow; ++i)
    factors.push_back("clusterDim");
  for (unsigned i = 0; i < blockDimPow; ++i)
    factors.push_back("blockDim");
  if (num != 1 || factors.empty())
    factors.push_back(std::to_string(num));
  llvm::interleave(factors, os, " * ");
  if (den != 1)
    os << " / " << den;
}

//===----------------------------------------------------------------------===//
// Fig. 11
//===----------------------------------------------------------------------===//

namespace {
/// Shorthands for the CollSizeExprs of Fig. 11.
CollSizeExpr constant(int64_t n) { return {n, 1, 0, 0}; }
CollSizeExpr blockDim(int64_t num = 1, int64_t den = 1) {
  return {num, den, 1, 0};
}
CollSizeExpr clusterDim(int64_t num = 1, int64_t den = 1) {
  return {num, den, 0, 1};
}
CollSizeExpr clusterTimesBlock(int64_t num = 1) { return {num, 1, 1, 1}; }
} // namespace

CollUnitShape mlir::exogpu::getUnitShape(CollUnitAttr unit) {
  int64_t n = unit.getScale();
  ArrayRef<int64_t> args = unit.getArgs();
  auto arg = [&](unsigned i) { return i < args.size() ? args[i] : 1; };
  std::optional<CollSizeExpr> top;
  CollUnitShape shape;
  auto set = [&](ArrayRef<CollSizeExpr> domain,
                 ArrayRef<std::optional<CollSizeExpr>> box) {
    shape.domain.assign(domain.begin(), domain.end());
    shape.box.assign(box.begin(), box.end());
  };
  // The scale `n` multiplies the box coordinate the unit is scaled along.
  switch (unit.getKind()) {
  case CollUnitKind::standalone_thread:
    set({constant(1)}, {constant(n)});
    break;
  case CollUnitKind::cuda_thread:
    set({blockDim()}, {constant(n)});
    break;
  case CollUnitKind::cuda_quadpair:
    set({blockDim(1, 16), constant(16)}, {constant(2), constant(4)});
    break;
  case CollUnitKind::cuda_warp:
    set({blockDim()}, {constant(32 * n)});
    break;
  case CollUnitKind::cuda_warpgroup:
    set({blockDim()}, {constant(128 * n)});
    break;
  case CollUnitKind::cuda_threads_strided:
    set({blockDim(1, arg(1)), constant(arg(1))},
        {constant(n), constant(arg(0))});
    break;
  case CollUnitKind::cuda_warp_in_cluster:
    set({clusterDim(), blockDim()}, {constant(n), constant(32)});
    break;
  case CollUnitKind::cuda_cta_in_cluster:
    set({clusterTimesBlock()}, {blockDim(n)});
    break;
  case CollUnitKind::cuda_cluster:
    set({clusterTimesBlock()}, {clusterTimesBlock()});
    break;
  case CollUnitKind::cuda_cta_in_cluster_strided:
    set({clusterDim(1, arg(0)), constant(arg(0)), blockDim()},
        {constant(n), constant(1), blockDim()});
    break;
  case CollUnitKind::cuda_warp_in_cluster_strided:
    set({clusterDim(1, arg(0)), constant(arg(0)), blockDim()},
        {constant(n), constant(1), constant(32)});
    break;
  case CollUnitKind::cuda_agnostic_sub_cta:
    set({clusterDim(), blockDim()}, {constant(1), top});
    break;
  case CollUnitKind::cuda_agnostic_intact_cta:
    set({clusterDim(), blockDim()}, {top, blockDim()});
    break;
  }
  return shape;
}

std::string mlir::exogpu::formatUnit(CollUnitAttr unit) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (unit.getScale() != 1)
    os << unit.getScale() << " * ";
  os << stringifyCollUnitKind(unit.getKind());
  if (!unit.getArgs().empty()) {
    os << '(';
    llvm::interleaveComma(unit.getArgs(), os);
    os << ')';
  }
  return text;
}

//===----------------------------------------------------------------------===//
// CollType
//===----------------------------------------------------------------------===//

SmallVector<int64_t> mlir::exogpu::getThreadPitches(ArrayRef<int64_t> domain) {
  SmallVector<int64_t> pitches(domain.size(), 1);
  for (int m = static_cast<int>(domain.size()) - 2; m >= 0; --m)
    pitches[m] = pitches[m + 1] * domain[m + 1];
  return pitches;
}

std::optional<int64_t> CollType::getBoxThreads() const {
  int64_t threads = 1;
  for (int64_t b : box) {
    if (b == kTop)
      return std::nullopt;
    threads *= b;
  }
  return threads;
}

bool CollType::isAligned() const {
  for (auto [d, b] : llvm::zip(domain, box))
    if (b != 1 && b != d && b != kTop)
      return false;
  return true;
}

LogicalResult CollType::splitDim(unsigned m, int64_t factor,
                                 std::string &reason) {
  int64_t d = domain[m], b = box[m];
  if (factor <= 0 || d % factor != 0) {
    reason = "cannot split a dimension of extent " + std::to_string(d) +
             " by " + std::to_string(factor);
    return failure();
  }
  int64_t outerBox = kTop, innerBox = kTop;
  if (b != kTop) {
    if (b < factor) {
      outerBox = 1;
      innerBox = b;
    } else if (b % factor != 0) {
      reason = "box " + std::to_string(b) + " is not a multiple of " +
               std::to_string(factor);
      return failure();
    } else {
      outerBox = b / factor;
      innerBox = factor;
    }
  }
  domain[m] = d / factor;
  box[m] = outerBox;
  domain.insert(domain.begin() + m + 1, factor);
  box.insert(box.begin() + m + 1, innerBox);
  return success();
}

LogicalResult mlir::exogpu::findPitchSplit(ArrayRef<int64_t> domain,
                                           int64_t pitch,
                                           std::optional<DimSplit> &split,
                                           std::string &reason) {
  split.reset();
  SmallVector<int64_t> pitches = getThreadPitches(domain);
  for (auto [m, d] : llvm::enumerate(domain)) {
    int64_t p = pitches[m];
    if (!(p < pitch && pitch < p * d))
      continue;
    if (pitch % p != 0 || d % (pitch / p) != 0) {
      reason = "thread pitch " + std::to_string(pitch) +
               " does not divide a dimension of extent " + std::to_string(d) +
               " and pitch " + std::to_string(p);
      return failure();
    }
    split = DimSplit{static_cast<unsigned>(m), pitch / p};
    return success();
  }
  return success();
}

LogicalResult CollType::completeTo(ArrayRef<int64_t> pitches,
                                   std::string &reason) {
  for (int64_t pitch : pitches) {
    std::optional<DimSplit> split;
    if (failed(findPitchSplit(domain, pitch, split, reason)))
      return failure();
    if (split && failed(splitDim(split->dim, split->factor, reason)))
      return failure();
  }
  return success();
}

void CollType::print(raw_ostream &os) const {
  auto printCoord = [&](int64_t c) {
    if (c == kTop)
      os << 'T';
    else
      os << c;
  };
  os << "(D = (";
  llvm::interleaveComma(domain, os, printCoord);
  os << "), B = (";
  llvm::interleaveComma(box, os, printCoord);
  os << "))";
}

//===----------------------------------------------------------------------===//
// Unit typing function
//===----------------------------------------------------------------------===//

FailureOr<CollType> mlir::exogpu::typeUnit(CollUnitAttr unit, CollParams params,
                                           UnitTyping typing,
                                           std::string &reason) {
  CollUnitShape shape = getUnitShape(unit);
  auto describeParams = [&] {
    return " with clusterDim = " + std::to_string(params.clusterDim) +
           " and blockDim = " + std::to_string(params.blockDim);
  };
  // Collective parameter substitution.
  SmallVector<int64_t> domain, box;
  for (auto [d, b] : llvm::zip(shape.domain, shape.box)) {
    std::optional<int64_t> dv = d.substitute(params);
    std::optional<int64_t> bv =
        b ? b->substitute(params) : std::optional<int64_t>(kTop);
    if (!dv || !bv) {
      std::string text;
      llvm::raw_string_ostream os(text);
      os << "unit " << formatUnit(unit) << " has a coordinate ";
      (dv ? *b : d).print(os);
      os << " that is not a natural number" << describeParams();
      reason = text;
      return failure();
    }
    domain.push_back(*dv);
    box.push_back(*bv);
  }
  // Unit domain completion: prepend the missing factor of |mu_top|.
  int64_t product = 1;
  for (int64_t d : domain)
    product *= d;
  int64_t total = params.getNumThreads();
  if (total % product != 0) {
    reason = "unit " + formatUnit(unit) + " spans " + std::to_string(product) +
             " threads, which does not divide the " + std::to_string(total) +
             " threads of a cluster" + describeParams();
    return failure();
  }
  if (product != total) {
    domain.insert(domain.begin(), total / product);
    box.insert(box.begin(), typing == UnitTyping::Unitary ? 1 : kTop);
  }
  // Alignment: split every box coordinate other than 1, D_m and top off its
  // dimension, then drop dimensions of extent 1.
  SmallVector<int64_t> alignedDomain, alignedBox;
  for (auto [d, b] : llvm::zip(domain, box)) {
    if (b == kTop || b == d) {
      alignedDomain.push_back(d);
      alignedBox.push_back(b);
      continue;
    }
    if (b > d || d % b != 0) {
      reason = "unit " + formatUnit(unit) + " has box " + std::to_string(b) +
               ", which does not divide its domain extent " +
               std::to_string(d) + describeParams();
      return failure();
    }
    alignedDomain.append({d / b, b});
    alignedBox.append({1, b});
  }
  SmallVector<int64_t> finalDomain, finalBox;
  for (auto [d, b] : llvm::zip(alignedDomain, alignedBox)) {
    if (d == 1)
      continue;
    finalDomain.push_back(d);
    finalBox.push_back(b);
  }
  return CollType(std::move(finalDomain), std::move(finalBox));
}
