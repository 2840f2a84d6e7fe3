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
