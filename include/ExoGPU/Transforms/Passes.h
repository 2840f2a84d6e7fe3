//===- Passes.h - exogpu transformation passes ------------------*- C++ -*-===//
//
// Part of ExoGPU.
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_TRANSFORMS_PASSES_H
#define EXOGPU_TRANSFORMS_PASSES_H

#include "ExoGPU/Dialect/ExoGPU/IR/ExoGPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::exogpu {

#define GEN_PASS_DECL
#include "ExoGPU/Transforms/Passes.h.inc"

/// Registers every exogpu transformation pass with the global registry.
#define GEN_PASS_REGISTRATION
#include "ExoGPU/Transforms/Passes.h.inc"

} // namespace mlir::exogpu

#endif // EXOGPU_TRANSFORMS_PASSES_H
