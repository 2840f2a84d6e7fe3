//===- Scope.cpp - device scope queries on exogpu ops --------------------===//
//
// Part of ExoGPU.
//
//===----------------------------------------------------------------------===//

#include "ExoGPU/Dialect/ExoGPU/IR/Scope.h"

using namespace mlir;
using namespace mlir::exogpu;

DeviceFunctionOp mlir::exogpu::getEnclosingDeviceFunction(Operation *op) {
  return op->getParentOfType<DeviceFunctionOp>();
}

bool mlir::exogpu::isInsideTasks(Operation *op) {
  for (Operation *parent = op->getParentOp(); parent;
       parent = parent->getParentOp())
    if (auto loop = dyn_cast<ForOp>(parent))
      if (loop.getMode() == LoopMode::cuda_tasks)
        return true;
  return false;
}
