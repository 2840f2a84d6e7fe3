//===- ExoGPUDialect.h - exogpu dialect -------------------------*- C++ -*-===//
//
// Part of ExoGPU. The `exogpu` dialect: the GPU IR of seeds/002 Sec. 3.
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_DIALECT_EXOGPU_IR_EXOGPUDIALECT_H
#define EXOGPU_DIALECT_EXOGPU_IR_EXOGPUDIALECT_H

#include "mlir/IR/Dialect.h"

#include "ExoGPU/Dialect/ExoGPU/IR/ExoGPUDialect.h.inc"

namespace mlir {
class DialectRegistry;
namespace exogpu {
/// Registers the exogpu dialect (and nothing else) in `registry`.
void registerExoGPUDialect(DialectRegistry &registry);
} // namespace exogpu
} // namespace mlir

#endif // EXOGPU_DIALECT_EXOGPU_IR_EXOGPUDIALECT_H
