//===- BufferRewrites.h - Exo's checked buffer rewrites ---------*- C++ -*-===//
//
// Part of ExoGPU. Rewrites of allocations and of how statements index them
// (Exo's `lift_alloc`, `sink_alloc`, `expand_dim`, `divide_dim`,
// `mult_dim`, `rearrange_dim`, `resize_dim` (with circular-buffer folding),
// `delete_buffer`, `reuse_buffer`, `set_memory`, `set_precision`,
// `stage_mem`, `inline_window`, plus `bind_window`, which introduces a
// window such as a TMA tensor map). Dimension rewrites change every access
// of the buffer; they accept point coordinates on the dimensions they
// change (windows and call arguments keep their shape) and refuse a buffer
// an exogpu.split views directly (a split has no coordinates to change).
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_TRANSFORMS_SCHEDULING_BUFFERREWRITES_H
#define EXOGPU_TRANSFORMS_SCHEDULING_BUFFERREWRITES_H

#include "ExoGPU/Transforms/Scheduling/ControlRewriting.h"
#include "ExoGPU/Transforms/Scheduling/RewriteSupport.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::exogpu {

/// Moves an allocation out of `levels` enclosing loops or guards. Legal when
/// its extents do not use the iterators of the loops it leaves, are not
/// negative in any instance of the outermost scope it leaves (where it now
/// runs), and it does not leave the scope its memory is allocated in (Exo:
/// allocations are uninitialized, so one buffer serves every iteration).
/// Every level is checked before anything moves.
FailureOr<AllocOp> liftAlloc(RewriterBase &rewriter, AllocOp alloc,
                             unsigned levels, Refusal &refusal);

/// Moves an allocation into the loop or guard right after it. Legal when
/// every use is inside that scope and, for a loop, no iteration reads an
/// element an earlier iteration wrote (unless the same iteration assigned it
/// first).
FailureOr<AllocOp> sinkAlloc(RewriterBase &rewriter, AllocOp alloc,
                             Refusal &refusal);

/// `x : T[...]` -> `x : T[size, ...]`, every access `x[...]` ->
/// `x[index, ...]`. Legal when `0 <= index < size` at the allocation.
LogicalResult expandDim(RewriterBase &rewriter, AllocOp alloc,
                        const ValueExpr &size, const ValueExpr &index,
                        Refusal &refusal);

/// Splits dimension `dim` (extent a multiple of `quotient`) into
/// `[extent / quotient, quotient]`; `x[.., i, ..]` -> `x[.., i / q, i mod q,
/// ..]`.
LogicalResult divideDim(RewriterBase &rewriter, AllocOp alloc, unsigned dim,
                        int64_t quotient, Refusal &refusal);

/// Merges dimension `lo` (constant extent c) into dimension `hi`:
/// `x[.., i, .., j, ..]` -> `x[.., i * c + j, ..]`.
LogicalResult multDim(RewriterBase &rewriter, AllocOp alloc, unsigned hi,
                      unsigned lo, Refusal &refusal);

/// Permutes the dimensions: new dimension `i` is old dimension `perm[i]`.
LogicalResult rearrangeDim(RewriterBase &rewriter, AllocOp alloc,
                           ArrayRef<int64_t> perm, Refusal &refusal);

/// Resizes dimension `dim` to `size`: accesses `i` -> `i - offset`, legal
/// when `size` is not negative and every access lies in `[offset, offset +
/// size)`. With `fold`
/// (circular buffer; `offset` unused), accesses `i` -> `i mod size`, legal
/// when no write of an element congruent modulo `size` falls between a
/// write of an element and a later read of it.
LogicalResult resizeDim(RewriterBase &rewriter, AllocOp alloc, unsigned dim,
                        const ValueExpr &size, const ValueExpr &offset,
                        bool fold, Refusal &refusal);

/// Removes an allocation nothing uses.
LogicalResult deleteBuffer(RewriterBase &rewriter, AllocOp alloc,
                           Refusal &refusal);

/// Replaces the allocation `replaced` by the earlier allocation `kept` of
/// the same type in the same block, legal when every use of `kept`, direct
/// or through its windows and splits, precedes `replaced` (so `kept` is dead
/// there).
LogicalResult reuseBuffer(RewriterBase &rewriter, AllocOp kept,
                          AllocOp replaced, Refusal &refusal);

/// Changes the memory of an allocation or proc parameter (and of the
/// windows and splits of it). Legal when the IR stays valid: scopes,
/// instruction parameter memories.
LogicalResult setMemory(RewriterBase &rewriter, Value buffer, MemoryAttr memory,
                        Refusal &refusal);

/// Changes the precision of an allocation or proc parameter (and of its
/// windows, splits and reads). Like Exo, precision is an annotation of the
/// sequential meaning; the dialect has no conversions inside expressions,
/// so every read must stand where the new precision is accepted.
LogicalResult setPrecision(RewriterBase &rewriter, Value buffer, Type type,
                           Refusal &refusal);

/// What stage_mem created: the staging buffer and the copy statements
/// before (load or zero-initialization) and after (store or accumulation)
/// the block; either may be null.
struct StagedWindow {
  AllocOp alloc;
  Operation *load = nullptr;
  Operation *store = nullptr;
};

/// Stages the window `window` of a buffer into a new buffer `name` in
/// `memory` around `block`: copies the window in before the block (unless
/// its first statement overwrites all of it),
/// redirects the block's accesses, and copies it back after (if the block
/// writes it). With `accum`, the block must only reduce into the window: the
/// staging buffer starts at zero and is added back. Legal when the window
/// lies within the buffer and contains every access of the block, every
/// access is a direct use of the buffer (no window or split of it, taken
/// inside or outside the block) and no window or argument spans a dimension
/// the window fixes to a point.
FailureOr<StagedWindow> stageMem(RewriterBase &rewriter,
                                 ArrayRef<Operation *> block,
                                 const ParsedAccess &window, StringRef name,
                                 MemoryAttr memory, bool accum,
                                 Refusal &refusal);

/// Replaces every use of a window by an access of its source and removes
/// the window statement. Special windows (tensor maps) stay, and so does a
/// window that an exogpu.split views (the split has no coordinates to take
/// the window's).
LogicalResult inlineWindow(RewriterBase &rewriter, WindowOp window,
                           Refusal &refusal);

/// Introduces `name = buffer[:, ...] @special` for the data buffer `buffer`
/// (at the start of the proc for a parameter, else after the buffer's
/// definition) and makes the accesses
/// of `buffer` in `block` go through it. The identity window does not
/// change the sequential meaning.
FailureOr<WindowOp> bindWindow(RewriterBase &rewriter,
                               ArrayRef<Operation *> block, Value buffer,
                               StringRef name, SpecialWindowAttr special,
                               Refusal &refusal);

} // namespace mlir::exogpu

#endif // EXOGPU_TRANSFORMS_SCHEDULING_BUFFERREWRITES_H
