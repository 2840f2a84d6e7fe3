//===- ControlMapping.h - control values and buffer views -------*- C++ -*-===//
//
// Part of ExoGPU (internal to the exogpu -> exoam translation). Control
// expressions of exogpu ops are quasi-affine maps over the op's operands;
// the translation rewrites them over a global list of exoam control values
// (proc parameters and loop iterators), so that inlined procs substitute
// their arguments and every statement can pack exactly the values it uses as
// its operands. Buffers become views: a root variable name plus, per root
// dimension, either a fixed point or an interval that the view indexes
// (seeds/002 Sec. 5.2 preprocessing (i), window inlining).
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_LIB_CONVERSION_EXOGPUTOEXOAM_CONTROLMAPPING_H
#define EXOGPU_LIB_CONVERSION_EXOGPUTOEXOAM_CONTROLMAPPING_H

#include "ExoGPU/Dialect/ExoAM/IR/ExoAMAttrs.h"
#include "ExoGPU/Dialect/ExoGPU/IR/ControlExpr.h"
#include "ExoGPU/Dialect/ExoGPU/IR/ExoGPUOps.h"
#include "llvm/ADT/DenseMap.h"

namespace mlir::exogpu::lowering {

/// An expression over the global control values (dimension `i` is global
/// value `i`).
using GlobalExpr = AffineExpr;

/// One coordinate of a view: a fixed index, or an interval `[lo, lo +
/// extent)` that is one dimension of the view. Coordinate `x` of it is
/// `stride * (lo + x)` of root dimension `rootDim` (a point contributes
/// `stride * lo`). A root dimension is one view coordinate of stride 1 until
/// exogpu.split makes it two, outer then inner, whose strides multiply by the
/// split factor.
struct ViewDim {
  bool isPoint = false;
  GlobalExpr lo;
  GlobalExpr extent;
  unsigned rootDim = 0;
  int64_t stride = 1;
};

/// A buffer seen through windows: the variable it belongs to and how the
/// view's coordinates map to the variable's.
struct View {
  StringAttr var;
  bool isBarrier = false;
  /// Data memory (null for barriers).
  MemoryAttr memory;
  BarrierKind barrierKind = BarrierKind::CudaDeviceBarrier;
  SmallVector<ViewDim, 4> dims;
  /// Whether the view is a window narrower than its variable (some
  /// coordinate of a window it was taken through was not `:`): accesses
  /// through it are checked against it.
  bool isNarrowed = false;
  /// Whether some root dimension is seen as several coordinates (a split):
  /// accesses are then checked per coordinate, and must select a box of the
  /// variable.
  bool isSplit = false;

  /// Fig. 18 isEx: sync-exempt memories and barrier mechanisms.
  bool isSyncExempt() const;
  /// Fig. 18 isSmem: shared memories and mbarriers.
  bool isSmem() const;
  /// Register memories (Fig. 18 T_qin).
  bool isRmem() const;
};

/// One coordinate of an AMIR access: a point, or the inclusive range
/// `[lo, hi]` (Fig. 6 W-POINT, W-RANGE).
struct AccessCoord {
  bool isRange = false;
  GlobalExpr lo;
  GlobalExpr hi;
  bool operator==(const AccessCoord &other) const {
    return isRange == other.isRange && lo == other.lo && hi == other.hi;
  }
};

/// An AMIR access `x[w*]` (Fig. 4 `e#`) over global values, with the view it
/// was taken through (for its memory). The view belongs to the frame that
/// binds the buffer: an access lives only while its statement is lowered.
struct Access {
  const View *view = nullptr;
  SmallVector<AccessCoord, 4> coords;
  bool operator==(const Access &other) const {
    return view->var == other.view->var && coords == other.coords;
  }
};

/// A view of a whole variable with `extents` (from index 0).
View makeRootView(StringAttr var, ArrayRef<GlobalExpr> extents,
                  MLIRContext *context);

/// Sets the memory or barrier mechanism of `view` from a buffer or barrier
/// type.
void setStorage(View &view, Type type);

/// Applies window coordinates (`kinds`, `exprs` over global values) to
/// `view`: the access they denote (Fig. 17 `x[w*]`; no coordinates at all is
/// the whole buffer, Fig. 17 `x`). Fails if the counts do not match, or,
/// through a split, if the elements are not a box of the variable (then
/// `strided`, if given, says which root dimension).
FailureOr<Access> applyCoords(const View &view, ArrayRef<int32_t> kinds,
                              ArrayRef<GlobalExpr> exprs,
                              std::string *strided = nullptr);

/// The view exogpu.split defines: dimension `dim` of `view` as
/// `[extent / factor, factor]`. Fails if `view` has no dimension `dim` or a
/// stride overflows.
FailureOr<View> applySplit(const View &view, unsigned dim, int64_t factor);

/// The non-point coordinates of `view`, in order (its dimensions).
SmallVector<const ViewDim *> getViewDims(const View &view);

/// Whether window coordinates of these kinds select less than the whole
/// view (some coordinate is not `:`).
bool narrows(ArrayRef<int32_t> kinds);

/// The view a window statement defines (inlined, Sec. 5.2 (i)).
FailureOr<View> applyWindow(const View &view, ArrayRef<int32_t> kinds,
                            ArrayRef<GlobalExpr> exprs);

/// Collects the global values one exoam statement uses and renumbers its
/// expressions over them: the op's `ctrl` operands.
class OperandPacker {
public:
  OperandPacker(MLIRContext *context, ArrayRef<Value> globals)
      : context(context), globals(globals) {}

  /// `expr` over the packed operands.
  AffineExpr pack(GlobalExpr expr);
  /// The operand index of global value `index`.
  unsigned packDim(unsigned index);
  /// Packs the coordinates of `access`; returns a handle for getAccess.
  unsigned addAccess(const Access &access);
  /// The AccessAttr of an added access. Call it only after everything the
  /// op uses is packed: the map's dimensions are all the packed operands.
  exoam::AccessAttr getAccess(unsigned handle) const;
  /// A map over all packed operands.
  AffineMap getMap(ArrayRef<AffineExpr> packed) const;

  ArrayRef<Value> getOperands() const { return operands; }

private:
  MLIRContext *context;
  ArrayRef<Value> globals;
  SmallVector<Value> operands;
  DenseMap<unsigned, unsigned> localOf;
  /// Added accesses: variable, coordinate kinds and packed expressions.
  struct PackedAccess {
    StringAttr var;
    SmallVector<int32_t> kinds;
    SmallVector<AffineExpr> exprs;
  };
  SmallVector<PackedAccess> accesses;
};

} // namespace mlir::exogpu::lowering

#endif // EXOGPU_LIB_CONVERSION_EXOGPUTOEXOAM_CONTROLMAPPING_H
