//===- ExoGPUTransformOps.h - transform.exogpu.* ops ------------*- C++ -*-===//
//
// Part of ExoGPU. The scheduling language as a Transform-dialect extension:
// register it with registerTransformDialectExtension and run scripts with
// `exogpu-opt --transform-interpreter` (docs/scheduling.md).
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_DIALECT_EXOGPU_TRANSFORMOPS_EXOGPUTRANSFORMOPS_H
#define EXOGPU_DIALECT_EXOGPU_TRANSFORMOPS_EXOGPUTRANSFORMOPS_H

#include "ExoGPU/Dialect/ExoGPU/IR/ExoGPUOps.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/Transform/IR/TransformTypes.h"
#include "mlir/Dialect/Transform/Interfaces/TransformInterfaces.h"
#include "mlir/IR/OpImplementation.h"

#define GET_OP_CLASSES
#include "ExoGPU/Dialect/ExoGPU/TransformOps/MatchOps.h.inc"
#define GET_OP_CLASSES
#include "ExoGPU/Dialect/ExoGPU/TransformOps/LoopTransformOps.h.inc"
#define GET_OP_CLASSES
#include "ExoGPU/Dialect/ExoGPU/TransformOps/StatementTransformOps.h.inc"
#define GET_OP_CLASSES
#include "ExoGPU/Dialect/ExoGPU/TransformOps/BufferTransformOps.h.inc"
#define GET_OP_CLASSES
#include "ExoGPU/Dialect/ExoGPU/TransformOps/ProcTransformOps.h.inc"
#define GET_OP_CLASSES
#include "ExoGPU/Dialect/ExoGPU/TransformOps/GPUTransformOps.h.inc"

namespace mlir {
class DialectRegistry;

namespace exogpu {
/// Registers the `transform.exogpu.*` ops with the Transform dialect.
void registerTransformDialectExtension(DialectRegistry &registry);
} // namespace exogpu
} // namespace mlir

#endif // EXOGPU_DIALECT_EXOGPU_TRANSFORMOPS_EXOGPUTRANSFORMOPS_H
