//===- StatementVerifier.h - shared checks of exoam statements --*- C++ -*-===//
//
// Part of ExoGPU (internal to the exoam dialect library). The static rules
// every AMIR statement's accesses and thread mapping obey.
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_LIB_DIALECT_EXOAM_IR_STATEMENTVERIFIER_H
#define EXOGPU_LIB_DIALECT_EXOAM_IR_STATEMENTVERIFIER_H

#include "ExoGPU/Dialect/ExoAM/IR/ExoAMOps.h"

namespace mlir::exoam {

/// Checks that `access`'s coordinates are quasi-affine control expressions
/// over the `numCtrl` control operands of `op`.
LogicalResult verifyAccess(Operation *op, AccessAttr access, unsigned numCtrl,
                           StringRef what);

/// Checks every access of `accesses` (AccessAttrs) like verifyAccess.
LogicalResult verifyAccesses(Operation *op, ArrayAttr accesses,
                             unsigned numCtrl, StringRef what);

/// Checks a `home` barrier access (if given) like verifyAccess and that it
/// is an element of the variable of every access of `barriers`; `observed`
/// says what `op` does with them, for the error.
LogicalResult verifyHome(Operation *op, AccessAttr home, ArrayAttr barriers,
                         unsigned numCtrl, StringRef observed);

/// Checks that a condition's expressions are quasi-affine over `ctrl`,
/// boolean atoms are i1 operands and relations compare index expressions.
LogicalResult verifyCondition(Operation *op, exogpu::ConditionAttr condition,
                              ValueRange ctrl);

/// Checks that the tiling iterators of `threads` name control operands.
LogicalResult verifyThreads(Operation *op, ThreadMappingAttr threads,
                            unsigned numCtrl);

} // namespace mlir::exoam

#endif // EXOGPU_LIB_DIALECT_EXOAM_IR_STATEMENTVERIFIER_H
