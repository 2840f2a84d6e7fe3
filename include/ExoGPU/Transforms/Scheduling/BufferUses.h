//===- BufferUses.h - the coordinates statements apply to buffers -*- C++ -*-//
//
// Part of ExoGPU. Buffer rewrites (expand_dim, divide_dim, stage_mem,
// inline_window, ...) change how statements index a buffer. A BufferUse is
// one access of a buffer value by a statement: the point indices of an
// assign, reduce or read, the coordinates of a window statement or of one
// argument of a call, arrive or await; a free or a split (exogpu.split)
// takes the whole buffer. setUseCoordinates writes new coordinates (and
// possibly a new buffer) back into the statement.
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_TRANSFORMS_SCHEDULING_BUFFERUSES_H
#define EXOGPU_TRANSFORMS_SCHEDULING_BUFFERUSES_H

#include "ExoGPU/Dialect/ExoGPU/IR/ControlExpr.h"
#include "ExoGPU/Dialect/ExoGPU/IR/ExoGPUOps.h"

namespace mlir::exogpu {

/// One access of a buffer value by a statement.
struct BufferUse {
  Operation *op = nullptr;
  /// Which access of `op` (a call's data arguments in order, then its
  /// barrier; an arrive's barriers); 0 for other ops.
  unsigned access = 0;
  /// Coordinate kinds (CoordKind); empty for the whole buffer (a bare name,
  /// a free, a split).
  SmallVector<int32_t, 4> kinds;
  /// The coordinates' expressions over `operands`.
  SmallVector<AffineExpr, 4> exprs;
  SmallVector<Value, 4> operands;

  /// Whether the op only takes point coordinates (assign, reduce, read).
  bool isPointsOnly() const;
};

/// The uses of the data buffer `buffer` (a tensor or a window) by
/// statements, in program order. In verified IR every user of a data buffer
/// (assign, reduce, read, window, free, split, call) applies coordinates to
/// it or takes all of it.
SmallVector<BufferUse> getBufferUses(Value buffer);

/// Writes `kinds`/`exprs` (over `operands`) as the coordinates of `use` and
/// makes it access `buffer`. A free or a split has no coordinates: it only
/// takes `buffer`, so the rewrites that change coordinates refuse splits.
void setUseCoordinates(const BufferUse &use, Value buffer,
                       ArrayRef<int32_t> kinds, ArrayRef<AffineExpr> exprs,
                       ValueRange operands);

} // namespace mlir::exogpu

#endif // EXOGPU_TRANSFORMS_SCHEDULING_BUFFERUSES_H
