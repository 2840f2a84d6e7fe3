//===- ControlMapping.cpp - control values and buffer views --------------===//
//
// Part of ExoGPU. Views, accesses and operand packing for the exogpu -> exoam
// translation (seeds/002 Sec. 5.2, Fig. 17-18).
//
//===----------------------------------------------------------------------===//

#include "ControlMapping.h"

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

FailureOr<Access> lowering::applyCoords(const View &view,
                                        ArrayRef<int32_t> kinds,
                                        ArrayRef<GlobalExpr> exprs) {
  Access access;
  access.view = &view;
  LogicalResult ok = forEachWindowDim(
      view, kinds, exprs,
      [&](const ViewDim &dim, CoordKind kind, ArrayRef<GlobalExpr> e) {
        AccessCoord &coord = access.coords.emplace_back();
        if (dim.isPoint) {
          coord.lo = coord.hi = dim.lo;
          return;
        }
        switch (kind) {
        case CoordKind::Point:
          coord.lo = coord.hi = dim.lo + e[0];
          return;
        case CoordKind::Interval:
          coord.isRange = true;
          coord.lo = dim.lo + e[0];
          coord.hi = dim.lo + e[1] - 1;
          return;
        case CoordKind::Full:
          coord.isRange = true;
          coord.lo = dim.lo;
          coord.hi = dim.lo + dim.extent - 1;
          return;
        }
      });
  if (failed(ok))
    return failure();
  return access;
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
  for (GlobalExpr extent : extents)
    view.dims.push_back({false, getAffineConstantExpr(0, context), extent});
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
