//===- Scope.h - device scope queries on exogpu ops -------------*- C++ -*-===//
//
// Part of ExoGPU. The device scope of a statement is CUDA inside a
// `device_function` and CPU outside (seeds/002 Sec. 3.4).
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_DIALECT_EXOGPU_IR_SCOPE_H
#define EXOGPU_DIALECT_EXOGPU_IR_SCOPE_H

#include "ExoGPU/Dialect/ExoGPU/IR/ExoGPUOps.h"

namespace mlir::exogpu {

/// The device_function enclosing `op`, or null at CPU scope.
DeviceFunctionOp getEnclosingDeviceFunction(Operation *op);

/// Whether `op` is at CUDA scope.
inline bool isCudaScope(Operation *op) {
  return static_cast<bool>(getEnclosingDeviceFunction(op));
}

/// Whether `op` is inside the body of a `cuda_tasks` loop.
bool isInsideTasks(Operation *op);

} // namespace mlir::exogpu

#endif // EXOGPU_DIALECT_EXOGPU_IR_SCOPE_H
