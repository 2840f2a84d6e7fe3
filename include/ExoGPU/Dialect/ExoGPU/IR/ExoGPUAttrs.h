//===- ExoGPUAttrs.h - exogpu attributes and enums --------------*- C++ -*-===//
//
// Part of ExoGPU. Memories, special windows, collective units, instruction
// parameter annotations, warp groups and conditions (seeds/002 App. A).
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_DIALECT_EXOGPU_IR_EXOGPUATTRS_H
#define EXOGPU_DIALECT_EXOGPU_IR_EXOGPUATTRS_H

#include "mlir/IR/AffineMap.h"
#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectImplementation.h"

#include "ExoGPU/Dialect/ExoGPU/IR/ExoGPUEnums.h.inc"

namespace mlir::exogpu {
class ControlExprEvaluator;

/// The kind of one atom of a ConditionAttr.
enum class ConditionAtomKind : int64_t {
  Eq = 0, ///< lhs == rhs
  Lt,     ///< lhs < rhs
  Le,     ///< lhs <= rhs
  Gt,     ///< lhs > rhs
  Ge,     ///< lhs >= rhs
  Bool,   ///< a boolean control operand (one dimension result)
  True,   ///< the constant true
  False,  ///< the constant false
  Or,     ///< separates two conjunctions
};
} // namespace mlir::exogpu

#define GET_ATTRDEF_CLASSES
#include "ExoGPU/Dialect/ExoGPU/IR/ExoGPUAttrs.h.inc"

#endif // EXOGPU_DIALECT_EXOGPU_IR_EXOGPUATTRS_H
