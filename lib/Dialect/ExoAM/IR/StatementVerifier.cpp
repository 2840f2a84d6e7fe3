//===- StatementVerifier.cpp - shared checks of exoam statements ---------===//
//
// Part of ExoGPU. Accesses and thread mappings refer to their op's control
// operands by position; these checks keep those references in range so that
// printing and interpretation never index past the operands.
//
//===----------------------------------------------------------------------===//

#include "StatementVerifier.h"
#include "ExoGPU/Dialect/ExoGPU/IR/ControlExpr.h"

using namespace mlir;
using namespace mlir::exoam;

LogicalResult mlir::exoam::verifyAccess(Operation *op, AccessAttr access,
                                        unsigned numCtrl, StringRef what) {
  return exogpu::verifyControlMap(
      op, access.getCoords(), numCtrl,
      (Twine(what) + " @" + access.getVar().getValue()).str());
}

LogicalResult mlir::exoam::verifyAccesses(Operation *op, ArrayAttr accesses,
                                          unsigned numCtrl, StringRef what) {
  for (Attribute access : accesses)
    if (failed(verifyAccess(op, cast<AccessAttr>(access), numCtrl, what)))
      return failure();
  return success();
}

LogicalResult mlir::exoam::verifyThreads(Operation *op,
                                         ThreadMappingAttr threads,
                                         unsigned numCtrl) {
  for (TilingDimAttr dim : threads.getDims())
    for (TilingOpAttr tilingOp : dim.getOps())
      if (std::optional<int64_t> iter = tilingOp.getIter();
          iter && *iter >= static_cast<int64_t>(numCtrl))
        return op->emitOpError()
               << "thread mapping iterator " << *iter
               << " is not one of the op's " << numCtrl << " control operands";
  return success();
}

/// Whether `expr` uses a control operand of type i1.
static bool usesBool(AffineExpr expr, ValueRange ctrl) {
  bool found = false;
  expr.walk([&](AffineExpr e) {
    if (auto d = dyn_cast<AffineDimExpr>(e))
      found |= ctrl[d.getPosition()].getType().isInteger(1);
  });
  return found;
}

LogicalResult mlir::exoam::verifyCondition(Operation *op,
                                           exogpu::ConditionAttr condition,
                                           ValueRange ctrl) {
  AffineMap map = condition.getMap();
  if (failed(exogpu::verifyControlMap(op, map, ctrl.size(), "condition")))
    return failure();
  unsigned next = 0;
  for (int64_t raw : condition.getAtoms()) {
    auto kind = static_cast<exogpu::ConditionAtomKind>(raw);
    if (kind == exogpu::ConditionAtomKind::Bool) {
      auto dim = dyn_cast<AffineDimExpr>(map.getResult(next++));
      if (!dim || !ctrl[dim.getPosition()].getType().isInteger(1))
        return op->emitOpError("a boolean condition atom must be an i1 value");
      continue;
    }
    if (kind > exogpu::ConditionAtomKind::Bool)
      continue;
    for (int i = 0; i < 2; ++i)
      if (usesBool(map.getResult(next++), ctrl))
        return op->emitOpError(
            "relations compare integer control expressions; an i1 value "
            "cannot be used in arithmetic");
  }
  return success();
}

LogicalResult mlir::exoam::verifyHome(Operation *op, AccessAttr home,
                                      ArrayAttr barriers, unsigned numCtrl,
                                      StringRef observed) {
  if (!home)
    return success();
  if (failed(verifyAccess(op, home, numCtrl, "home barrier")))
    return failure();
  if (barriers.empty() || llvm::any_of(barriers, [&](Attribute barrier) {
        return cast<AccessAttr>(barrier).getVar() != home.getVar();
      }))
    return op->emitOpError("a home barrier is an element of the variable of "
                           "the barriers ")
           << observed;
  return success();
}
