//===- Evaluation.h - accesses and thread mappings under sigma --*- C++ -*-===//
//
// Part of ExoGPU. What an AMIR statement denotes under concrete control
// values: the element set of an access (seeds/002 Fig. 6 W-POINT, W-RANGE,
// W-TUPLE, E#-ACC) and the global threads of a statement (Def. 5.2 with the
// collective tiling of Def. 4.2 evaluated as in seeds/001).
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_ABSTRACTMACHINE_EVALUATION_H
#define EXOGPU_ABSTRACTMACHINE_EVALUATION_H

#include "ExoGPU/AbstractMachine/SyncEnv.h"
#include "ExoGPU/Dialect/ExoGPU/IR/ControlExpr.h"

namespace mlir {
class Operation;
} // namespace mlir

namespace mlir::exoam {

/// The elements an access denotes: the product of one inclusive interval per
/// coordinate (empty if some interval is).
struct AccessWindow {
  StringAttr var;
  SmallVector<IntervalSet::Interval, 4> ranges;

  bool empty() const;
  /// Whether the window is exactly one element.
  bool isSingleElement() const;
  /// Calls `fn` for every element, in lexicographic index order, while it
  /// returns true; returns false if `fn` stopped the walk.
  bool forEachElement(function_ref<bool(const ElementKey &)> fn) const;
  /// Prints `@x[0..3, 5]`.
  void print(raw_ostream &os) const;
};

/// The element of a one-element window.
ElementKey getElementKey(const AccessWindow &window);

/// The window of exactly one element.
AccessWindow getElementWindow(const ElementKey &key);

/// The elements [0, extents[0]) x ... x [0, extents[k-1]) of `var` (the box
/// ALLOC resets).
AccessWindow getAllocationWindow(StringAttr var, ArrayRef<int64_t> extents);

/// `window` moved by `shift` (one entry per dimension; the caller keeps the
/// bounds within int64).
AccessWindow translateWindow(AccessWindow window, ArrayRef<int64_t> shift);

/// Whether the box `inner` lies within the box `outer` (one interval per
/// dimension each, of the same rank).
bool isWithin(ArrayRef<IntervalSet::Interval> inner,
              ArrayRef<IntervalSet::Interval> outer);

/// Evaluates `access` with `values` for the op's control operands; an error
/// at `op` if a coordinate overflows int64.
FailureOr<AccessWindow> evaluateAccess(Operation *op, AccessAttr access,
                                       ArrayRef<int64_t> values,
                                       exogpu::ControlExprEvaluator &evaluator);

/// The single element common to all `windows` (Fig. 22 ARRIVE's home
/// barrier), or nothing if they share no element or more than one.
std::optional<ElementKey> findCommonElement(ArrayRef<AccessWindow> windows);

/// g_s(sigma, iota) of Def. 5.2 for a statement `op` with thread mapping
/// `threads`: all of G for a CPU statement, otherwise `{task} x f_s(sigma)`.
/// Fails with an error on `op` if the tiling selects a coordinate outside
/// its dimension.
FailureOr<ThreadSet> evaluateThreads(Operation *op, ThreadMappingAttr threads,
                                     ArrayRef<int64_t> values, int64_t task);

} // namespace mlir::exoam

#endif // EXOGPU_ABSTRACTMACHINE_EVALUATION_H
