//===- BulkLoop.h - running a loop's iterations in bulk ---------*- C++ -*-===//
//
// Part of ExoGPU. The box engine runs the iterations of a sequential loop
// whose body only checks, clears and records (for instance the inner product
// loop of a GEMV, seeds/002 Fig. 9) in bulk once its body has reached a fixed
// point on the elements every iteration touches: each further iteration then
// leaves those as they are and touches elements of its own, all alike, so
// the remaining iterations are the body's statements applied to the union of
// their windows (docs/abstract-machine.md "Loops in bulk"). The reference
// engine never does.
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_LIB_ABSTRACTMACHINE_BULKLOOP_H
#define EXOGPU_LIB_ABSTRACTMACHINE_BULKLOOP_H

#include "ExoGPU/Dialect/ExoAM/IR/ExoAMOps.h"
#include "llvm/ADT/DenseMap.h"

namespace mlir::exoam {

/// The static conditions under which the iterations of a loop run in bulk:
///  * the loop is not a task loop, and its body is a sequence of checks,
///    clears and records (no lift, ALLOC or nested control): each element's
///    state evolves by the body's statements on it alone, in order;
///  * no thread mapping and no observed barrier depends on the iterator;
///  * per variable, either no window depends on the iterator (a *fixed*
///    variable) or every window does, linearly and with the same
///    coefficients (a *moving* variable).
class BulkLoopPlan {
public:
  /// The plan of `loop`, or nothing if its iterations cannot run in bulk.
  static std::optional<BulkLoopPlan> analyze(LoopOp loop);

  /// The coefficient of the iterator in each dimension of moving `var`'s
  /// windows; null for a fixed variable.
  const SmallVector<int64_t> *getShift(StringAttr var) const {
    auto it = moving.find(var);
    return it == moving.end() ? nullptr : &it->second;
  }

private:
  DenseMap<StringAttr, SmallVector<int64_t>> moving;
};

} // namespace mlir::exoam

#endif // EXOGPU_LIB_ABSTRACTMACHINE_BULKLOOP_H
