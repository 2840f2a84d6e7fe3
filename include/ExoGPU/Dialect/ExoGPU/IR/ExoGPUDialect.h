//===- ExoGPUDialect.h - exogpu dialect -------------------------*- C++ -*-===//
//
// Part of ExoGPU. The `exogpu` dialect: the GPU IR of seeds/002 Sec. 3.
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_DIALECT_EXOGPU_IR_EXOGPUDIALECT_H
#define EXOGPU_DIALECT_EXOGPU_IR_EXOGPUDIALECT_H

#include "mlir/IR/Dialect.h"

#include <memory>

namespace mlir::exogpu {
class LibraryManager;
} // namespace mlir::exogpu

#include "ExoGPU/Dialect/ExoGPU/IR/ExoGPUDialect.h.inc"

#endif // EXOGPU_DIALECT_EXOGPU_IR_EXOGPUDIALECT_H
