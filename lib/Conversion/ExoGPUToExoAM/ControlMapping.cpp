//===- ControlMapping.cpp - control values and buffer views --------------===//
//
// Part of ExoGPU. Views, accesses and operand packing for the exogpu -> exoam
// translation (seeds/002 Sec. 5.2, Fig. 17-18).
//
//===----------------------------------------------------------------------===//

#include "ControlMapping.h"
#include "mlir/IR/AffineMap.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::exogpu;
using namespace mlir::exogpu::lowering;

bool View::isSyncExempt() const {
  if (isBarrier)
    return barrierKind == BarrierKind::CudaCommitGroup ||
           barrierKind == BarrierKind::CudaClusterSync;
  return memory.isSyncExempt();
}

bool View::isSmem() const {
  if (isBarrier)
    return barrierKind == BarrierKind::CudaMbarrier;
  return memory.isSmem();
}

bool View::isRmem() const { return !isBarrier && memory.isRmem(); }

/// Walks the non-point dimensions of `view` against the window coordinates,
/// calling `fn(viewDim, kind, exprs)` for each; the whole buffer when there
/// are no coordinates.
static LogicalResult forEachWindowDim(
    const View &view, ArrayRef<int32_t> kinds, ArrayRef<GlobalExpr> exprs,
    function_ref<void(const ViewDim &, CoordKind, ArrayRef<GlobalExpr>)> fn) {
  unsigned windowRank =
      llvm::count_if(view.dims, [](const ViewDim &d) { return !d.isPoint; });
  bool whole = kinds.empty();
  if (!whole && kinds.size() != windowRank)
    return failure();
  unsigned nextKind = 0, nextExpr = 0;
  for (const ViewDim &dim : view.dims) {
    if (dim.isPoint) {
      fn(dim, CoordKind::Point, {});
      continue;
    }
    CoordKind kind =
        whole ? CoordKind::Full : static_cast<CoordKind>(kinds[nextKind++]);
    unsigned arity = getCoordArity(kind);
    if (nextExpr + arity > exprs.size())
      return failure();
    fn(dim, kind, exprs.slice(nextExpr, arity));
    nextExpr += arity;
  }
  return success(nextExpr == exprs.size());
}

namespace {
/// The indices an access takes along one view coordinate: `first` to `last`,
/// `count` of them (a point takes one; its count is unset).
struct CoordRange {
  bool isRange = false;
  GlobalExpr first, last, count;
};
} // namespace

/// The constant value of `expr` once simplified, if it is one.
static std::optional<int64_t> getConstantValue(GlobalExpr expr) {
  unsigned numDims = 0;
  expr.walk([&](AffineExpr e) {
    if (auto dim = dyn_cast<AffineDimExpr>(e))
      numDims = std::max(numDims, dim.getPosition() + 1);
  });
  if (auto c = dyn_cast<AffineConstantExpr>(
          simplifyAffineExpr(expr, numDims, /*numSymbols=*/0)))
    return c.getValue();
  return std::nullopt;
}

/// The root coordinate that the view coordinates `axes` (all of one root
/// dimension, outermost first) take together, or a failure where they take a
/// strided set: each coordinate that takes more than one index must span
/// exactly one step of the next such coordinate, and the last has stride 1.
static FailureOr<AccessCoord>
combineRootCoord(ArrayRef<std::pair<const ViewDim *, CoordRange>> axes) {
  GlobalExpr base =
      getAffineConstantExpr(0, axes.front().first->lo.getContext());
  SmallVector<std::pair<int64_t, GlobalExpr>> ranged; // stride, count
  for (const auto &[dim, range] : axes) {
    base = base + range.first * dim->stride;
    if (range.isRange && getConstantValue(range.count) != 1)
      ranged.push_back({dim->stride, range.count});
  }
  if (ranged.empty())
    return AccessCoord{false, base, base};
  if (ranged.back().first != 1)
    return failure();
  for (auto [outer, inner] : llvm::zip(ranged, llvm::drop_begin(ranged))) {
    std::optional<int64_t> innerCount = getConstantValue(inner.second);
    int64_t span;
    if (!innerCount || llvm::MulOverflow(inner.first, *innerCount, span) ||
        span != outer.first)
      return failure();
  }
  auto [stride, count] = ranged.front();
  return AccessCoord{true, base, base + count * stride - 1};
}

FailureOr<Access> lowering::applyCoords(const View &view,
                                        ArrayRef<int32_t> kinds,
                                        ArrayRef<GlobalExpr> exprs,
                                        std::string *strided) {
  SmallVector<std::pair<const ViewDim *, CoordRange>> axes;
  LogicalResult ok = forEachWindowDim(
      view, kinds, exprs,
      [&](const ViewDim &dim, CoordKind kind, ArrayRef<GlobalExpr> e) {
        CoordRange &range = axes.emplace_back(&dim, CoordRange()).second;
        if (dim.isPoint) {
          range.first = range.last = dim.lo;
          return;
        }
        switch (kind) {
        case CoordKind::Point:
          range.first = range.last = dim.lo + e[0];
          return;
        case CoordKind::Interval:
          range.isRange = true;
          range.first = dim.lo + e[0];
          range.last = dim.lo + e[1] - 1;
          range.count = e[1] - e[0];
          return;
        case CoordKind::Full:
          range.isRange = true;
          range.first = dim.lo;
          range.last = dim.lo + dim.extent - 1;
          range.count = dim.extent;
          return;
        }
      });
  if (failed(ok))
    return failure();
  Access access;
  access.view = &view;
  if (!view.isSplit) {
    for (const auto &[dim, range] : axes)
      access.coords.push_back({range.isRange, range.first, range.last});
    return access;
  }
  // Through a split, the coordinates of one root dimension are adjacent.
  for (size_t i = 0, e = axes.size(); i < e;) {
    size_t next = i + 1;
    unsigned rootDim = axes[i].first->rootDim;
    while (next < e && axes[next].first->rootDim == rootDim)
      ++next;
    FailureOr<AccessCoord> coord =
        combineRootCoord(ArrayRef(axes).slice(i, next - i));
    if (failed(coord)) {
      if (strided)
        *strided =
            ("dimension " + Twine(rootDim) + " of @" + view.var.getValue())
                .str();
      return failure();
    }
    access.coords.push_back(*coord);
    i = next;
  }
  return access;
}

FailureOr<View> lowering::applySplit(const View &view, unsigned dim,
                                     int64_t factor) {
  View split = view;
  unsigned seen = 0;
  for (size_t i = 0, e = split.dims.size(); i < e; ++i) {
    if (split.dims[i].isPoint || seen++ != dim)
      continue;
    ViewDim inner = split.dims[i];
    ViewDim &outer = split.dims[i];
    MLIRContext *ctx = inner.lo.getContext();
    if (llvm::MulOverflow(inner.stride, factor, outer.stride))
      return failure();
    outer.lo = getAffineConstantExpr(0, ctx);
    outer.extent = inner.extent.floorDiv(factor);
    inner.extent = getAffineConstantExpr(factor, ctx);
    split.dims.insert(split.dims.begin() + i + 1, inner);
    split.isSplit = true;
    return split;
  }
  return failure();
}

SmallVector<const ViewDim *> lowering::getViewDims(const View &view) {
  SmallVector<const ViewDim *> dims;
  for (const ViewDim &dim : view.dims)
    if (!dim.isPoint)
      dims.push_back(&dim);
  return dims;
}

bool lowering::narrows(ArrayRef<int32_t> kinds) {
  return llvm::any_of(kinds, [](int32_t kind) {
    return static_cast<CoordKind>(kind) != CoordKind::Full;
  });
}

FailureOr<View> lowering::applyWindow(const View &view, ArrayRef<int32_t> kinds,
                                      ArrayRef<GlobalExpr> exprs) {
  View window = view;
  window.dims.clear();
  LogicalResult ok = forEachWindowDim(
      view, kinds, exprs,
      [&](const ViewDim &dim, CoordKind kind, ArrayRef<GlobalExpr> e) {
        ViewDim &out = window.dims.emplace_back(dim);
        if (dim.isPoint)
          return;
        switch (kind) {
        case CoordKind::Point:
          out.isPoint = true;
          out.lo = dim.lo + e[0];
          return;
        case CoordKind::Interval:
          out.lo = dim.lo + e[0];
          out.extent = e[1] - e[0];
          return;
        case CoordKind::Full:
          return;
        }
      });
  if (failed(ok))
    return failure();
  window.isNarrowed |= narrows(kinds);
  return window;
}

View lowering::makeRootView(StringAttr var, ArrayRef<GlobalExpr> extents,
                            MLIRContext *context) {
  View view;
  view.var = var;
  for (auto [index, extent] : llvm::enumerate(extents))
    view.dims.push_back({false, getAffineConstantExpr(0, context), extent,
                         static_cast<unsigned>(index), 1});
  return view;
}

void lowering::setStorage(View &view, Type type) {
  if (auto barrier = dyn_cast<BarrierType>(type)) {
    view.isBarrier = true;
    view.barrierKind = barrier.getKind();
    return;
  }
  view.memory = cast<BufferTypeInterface>(type).getMemory();
}

unsigned OperandPacker::packDim(unsigned index) {
  auto [it, inserted] = localOf.try_emplace(index, operands.size());
  if (inserted)
    operands.push_back(globals[index]);
  return it->second;
}

AffineExpr OperandPacker::pack(GlobalExpr expr) {
  SmallVector<AffineExpr> replacements(globals.size(),
                                       getAffineConstantExpr(0, context));
  expr.walk([&](AffineExpr e) {
    if (auto dim = dyn_cast<AffineDimExpr>(e))
      replacements[dim.getPosition()] =
          getAffineDimExpr(packDim(dim.getPosition()), context);
  });
  return expr.replaceDims(replacements);
}

unsigned OperandPacker::addAccess(const Access &access) {
  PackedAccess &packed = accesses.emplace_back();
  packed.var = access.view->var;
  for (const AccessCoord &coord : access.coords) {
    packed.kinds.push_back(
        static_cast<int32_t>(coord.isRange ? exoam::AccessCoordKind::Range
                                           : exoam::AccessCoordKind::Point));
    packed.exprs.push_back(pack(coord.lo));
    if (coord.isRange)
      packed.exprs.push_back(pack(coord.hi));
  }
  return accesses.size() - 1;
}

AffineMap OperandPacker::getMap(ArrayRef<AffineExpr> packed) const {
  return AffineMap::get(operands.size(), 0, packed, context);
}

exoam::AccessAttr OperandPacker::getAccess(unsigned handle) const {
  const PackedAccess &packed = accesses[handle];
  return exoam::AccessAttr::get(context, packed.var, packed.kinds,
                                getMap(packed.exprs));
}
