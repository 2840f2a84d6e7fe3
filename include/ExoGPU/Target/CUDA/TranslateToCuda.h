//===- TranslateToCuda.h - exogpu to CUDA C++ -------------------*- C++ -*-===//
//
// Part of ExoGPU. The CUDA translation (seeds/002 Sec. 4.2; DESIGN.md "CUDA
// translation"): a module of exogpu procs and instructions becomes one
// self-contained CUDA C++ file (host functions that launch persistent kernels
// with inline PTX) and a C/C++ header for host callers. The entry points an
// embedding compiler calls; `exogpu-translate --to-cuda` and
// `--to-cuda-header` wrap them. docs/cuda-translation.md describes the
// mapping and the host API.
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_TARGET_CUDA_TRANSLATETOCUDA_H
#define EXOGPU_TARGET_CUDA_TRANSLATETOCUDA_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"

namespace mlir::exogpu {

/// Writes the CUDA C++ translation of `module` to `os`; the definitions its
/// `exogpu.import`s bring are translated with it (exogpu::withImportsLinked:
/// imported procs get host functions too). Runs the collective
/// analysis and the distributed memory deduction first; their errors, and
/// any construct the translation cannot lower, are reported as diagnostics at
/// the offending op, and the result is failure (nothing useful is written).
LogicalResult translateModuleToCuda(ModuleOp module, raw_ostream &os);

/// Writes the C/C++ header declaring the host function of every proc of
/// `module` and of its imports (the host API of docs/cuda-translation.md).
LogicalResult translateModuleToCudaHeader(ModuleOp module, raw_ostream &os);

/// Registers `--to-cuda` and `--to-cuda-header` with mlir-translate's
/// registry, for tools that embed the translation.
void registerToCudaTranslation();

} // namespace mlir::exogpu

#endif // EXOGPU_TARGET_CUDA_TRANSLATETOCUDA_H
