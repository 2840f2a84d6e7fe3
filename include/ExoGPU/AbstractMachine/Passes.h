//===- Passes.h - abstract machine passes -----------------------*- C++ -*-===//
//
// Part of ExoGPU. Passes that run the abstract machine on exoam IR.
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_ABSTRACTMACHINE_PASSES_H
#define EXOGPU_ABSTRACTMACHINE_PASSES_H

#include "ExoGPU/Dialect/ExoAM/IR/ExoAMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::exoam {

#define GEN_PASS_DECL
#include "ExoGPU/AbstractMachine/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "ExoGPU/AbstractMachine/Passes.h.inc"

} // namespace mlir::exoam

#endif // EXOGPU_ABSTRACTMACHINE_PASSES_H
