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

/// Options of the CUDA translation.
struct CudaTranslationOptions {
  /// Validate each kernel's lowered synchronization against what the
  /// synchronization check relies on (docs/cuda-translation.md
  /// "Validation"); turn it off only to time the rest of the translation.
  bool validateSynchronization = true;
};

/// Writes the CUDA C++ translation of `module` to `os`. Runs the collective
/// analysis and the distributed memory deduction first; their errors, and
/// any construct the translation cannot lower or whose synchronization it
/// cannot justify, are reported as diagnostics at the offending op, and the
/// result is failure (nothing useful is written).
LogicalResult translateModuleToCuda(ModuleOp module, raw_ostream &os,
                                    const CudaTranslationOptions &options = {});

/// Writes the C/C++ header declaring the host function of every proc of
/// `module` (the host API of docs/cuda-translation.md).
LogicalResult translateModuleToCudaHeader(ModuleOp module, raw_ostream &os);

/// Moves the definitions of the libraries at `paths` (instruction libraries
/// such as stdlib/sm90a.mlir, or files of procs the module calls) into
/// `module`, skipping symbols the module defines. The libraries are not
/// verified alone: verify the module after linking.
LogicalResult linkInstructionLibraries(ModuleOp module,
                                       ArrayRef<std::string> paths);

/// Registers `--to-cuda` and `--to-cuda-header` with mlir-translate's
/// registry, for tools that embed the translation (exogpu-translate itself
/// also links instruction libraries, see linkInstructionLibraries).
void registerToCudaTranslation();

} // namespace mlir::exogpu

#endif // EXOGPU_TARGET_CUDA_TRANSLATETOCUDA_H
