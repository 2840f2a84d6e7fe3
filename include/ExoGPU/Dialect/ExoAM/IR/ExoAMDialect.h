//===- ExoAMDialect.h - exoam dialect ---------------------------*- C++ -*-===//
//
// Part of ExoGPU. The `exoam` dialect: the Abstract Machine IR of seeds/002
// Sec. 5.1 (Fig. 4).
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_DIALECT_EXOAM_IR_EXOAMDIALECT_H
#define EXOGPU_DIALECT_EXOAM_IR_EXOAMDIALECT_H

#include "ExoGPU/Dialect/ExoGPU/IR/ExoGPUDialect.h"
#include "mlir/IR/Dialect.h"

#include "ExoGPU/Dialect/ExoAM/IR/ExoAMDialect.h.inc"

#endif // EXOGPU_DIALECT_EXOAM_IR_EXOAMDIALECT_H
