//===- BufferAccesses.h - What statements read, write, reduce -*- C++ -*-===//
//
// Part of ExoGPU. The access relations of the scheduling legality checks
// (Exo's effect analysis, seeds/002 Sec. 2.3 "Exo Rewrites"): every leaf
// statement reads, writes or reduces boxes of elements of buffers. Accesses
// through windows and splits are resolved to the buffer's root (an
// exogpu.alloc or a proc parameter), so two windows of one buffer are seen
// to overlap. An instruction or proc call accesses the whole window passed
// for each data parameter, in the modes the callee's body uses the
// parameter.
// Synchronization statements and barriers have no data effects (the
// sequential checks ignore them, Sec. 2.3).
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_ANALYSIS_BUFFERACCESSES_H
#define EXOGPU_ANALYSIS_BUFFERACCESSES_H

#include "ExoGPU/Analysis/ControlConstraints.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/DenseMap.h"

namespace mlir::exogpu {

/// How a statement touches an element. Reductions (`+=`) commute with each
/// other (Exo treats `+=` as associative and commutative).
enum class AccessKind { Read, Write, Reduce };

/// One access of a leaf statement: the box `[lo_d, hi_d]` (inclusive) of
/// each dimension of the root buffer, as control expressions over
/// `operands`. The box is exact, except through a split (exogpu.split): an
/// access that spans its outer dimension and part of its inner one touches
/// a strided set of elements, and the box is the smallest one around it.
struct BufferAccess {
  /// The leaf statement (assign, reduce, call, free).
  Operation *stmt = nullptr;
  /// Where the access is written (a read inside a data expression, or the
  /// statement).
  Location loc;
  /// The accessed buffer: an exogpu.alloc result or a proc parameter.
  Value root;
  AccessKind kind = AccessKind::Read;
  SmallVector<AffineExpr, 4> lo, hi;
  SmallVector<Value, 4> operands;

  /// Whether the access writes (write or reduce).
  bool mutates() const { return kind != AccessKind::Read; }
  /// `A[i, j]`-like text of the access for diagnostics.
  std::string describe() const;
};

/// The view of a buffer value through windows and splits: element
/// `(i_0, ..., i_n)` of the view is the element of the root whose index in
/// root dimension `r` is `offsets[r] + sum(i_k * dims[k].stride)` over the
/// view dimensions `k` of root dimension `r` (`dims[k].rootDim == r`). A
/// window fixes view dimensions (points) or narrows them (intervals); a
/// split divides one view dimension of stride `s` into two, of strides
/// `s * factor` and `s`.
struct BufferView {
  /// The buffer viewed: an exogpu.alloc result or a parameter.
  Value root;
  /// One dimension of the view, over `[0, extent)`.
  struct Dim {
    unsigned rootDim;
    int64_t stride;
    AffineExpr extent;
  };
  /// Per root dimension, the index of the view's first element.
  SmallVector<AffineExpr, 4> offsets;
  SmallVector<Dim, 4> dims;
  /// The operands of `offsets` and of the extents.
  SmallVector<Value, 4> operands;
};

/// The view of `buffer` (an alloc result, a parameter, a window or a split).
/// Fails for values of other kinds (block arguments of instruction bodies
/// are roots too).
FailureOr<BufferView> getBufferView(Value buffer);

/// The extents of root buffer `root` (alloc or parameter), over `operands`.
void getRootExtents(Value root, SmallVectorImpl<AffineExpr> &extents,
                    SmallVectorImpl<Value> &operands);

/// The name of a buffer for diagnostics ("A", "acc").
std::string getBufferName(Value buffer);

/// Collects the data accesses of statements, caching how callees use their
/// parameters.
class AccessCollector {
public:
  /// Appends the accesses of `op` and of every statement nested in it.
  void collect(Operation *op, SmallVectorImpl<BufferAccess> &accesses);

  /// The modes in which callee `callable` (a proc or an instr) accesses its
  /// parameter `param`: a mask of 1 << AccessKind.
  unsigned getParamModes(Operation *callable, unsigned param);

private:
  void collectLeaf(Operation *op, SmallVectorImpl<BufferAccess> &accesses);
  DenseMap<Operation *, SmallVector<unsigned>> paramModes;
};

} // namespace mlir::exogpu

#endif // EXOGPU_ANALYSIS_BUFFERACCESSES_H
