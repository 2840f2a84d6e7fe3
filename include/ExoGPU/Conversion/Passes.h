//===- Passes.h - exogpu conversion passes ----------------------*- C++ -*-===//
//
// Part of ExoGPU.
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_CONVERSION_PASSES_H
#define EXOGPU_CONVERSION_PASSES_H

#include "ExoGPU/Dialect/ExoAM/IR/ExoAMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::exogpu {

#define GEN_PASS_DECL
#include "ExoGPU/Conversion/Passes.h.inc"

/// Registers every exogpu conversion pass with the global registry.
#define GEN_PASS_REGISTRATION
#include "ExoGPU/Conversion/Passes.h.inc"

} // namespace mlir::exogpu

#endif // EXOGPU_CONVERSION_PASSES_H
