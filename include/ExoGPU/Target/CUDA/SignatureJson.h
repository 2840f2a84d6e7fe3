//===- SignatureJson.h - host API signatures as JSON ------------*- C++ -*-===//
//
// Part of ExoGPU. A machine-readable description of the host function the
// CUDA translation emits for each proc (docs/cuda-translation.md "The host
// API"): parameter kinds, element types, extents as expressions over the
// control parameters, memories, read/write roles and the `requires` clause.
// Callers that bind the host functions from another language (the `exogpu`
// Python package, python/exogpu) read it instead of parsing MLIR;
// `exogpu-translate --to-signature-json` writes it. docs/python.md describes
// the format.
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_TARGET_CUDA_SIGNATUREJSON_H
#define EXOGPU_TARGET_CUDA_SIGNATUREJSON_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"

namespace mlir::exogpu {

/// Writes the JSON description of the host function of every proc of
/// `module` and of its imports (a verified module) to `os`, with the files
/// the module imports (docs/python.md "The signature").
LogicalResult translateModuleToSignatureJson(ModuleOp module, raw_ostream &os);

} // namespace mlir::exogpu

#endif // EXOGPU_TARGET_CUDA_SIGNATUREJSON_H
