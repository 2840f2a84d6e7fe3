//===- Registration.h - the embedding API of ExoGPU -------------*- C++ -*-===//
//
// Part of ExoGPU. What a compiler that embeds ExoGPU calls to make its
// dialects, dialect extensions and passes available next to its own and
// upstream MLIR's (docs/embedding.md):
//
//   mlir::DialectRegistry registry;
//   mlir::exogpu::registerExoGPUDialects(registry);
//   mlir::exogpu::registerExoGPUExtensions(registry);
//   mlir::exogpu::registerExoGPUPasses();
//   mlir::exogpu::addExoGPUImportPaths(registry,
//   {"/opt/exogpu/share/exogpu/stdlib"});
//
// Nothing here touches upstream dialects: the embedder inserts the ones it
// uses (the Transform dialect, to run transform.exogpu.* scripts). The
// entry points live in the MLIRExoGPURegistration library, one object file
// each, so that a tool linking it statically gets only the libraries behind
// the entry points it calls. The CUDA translation registers itself with
// mlir-translate through mlir::exogpu::registerToCudaTranslation
// (ExoGPU/Target/CUDA/TranslateToCuda.h).
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_REGISTRATION_H
#define EXOGPU_REGISTRATION_H

#include "mlir/Support/LLVM.h"

#include <string>

namespace mlir {
class DialectRegistry;

namespace exogpu {

/// Inserts the `exogpu` dialect (the GPU IR) and the `exoam` dialect (the
/// abstract machine IR) into `registry`.
void registerExoGPUDialects(DialectRegistry &registry);

/// Adds ExoGPU's extensions of other dialects to `registry`: the
/// `transform.exogpu.*` scheduling ops of the Transform dialect. An
/// extension takes effect when the dialect it extends is loaded.
void registerExoGPUExtensions(DialectRegistry &registry);

/// Registers every ExoGPU pass with MLIR's pass registry, so that textual
/// pipelines (`parsePassPipeline`, `--pass-pipeline`) can name them: the
/// analyses, the conversions, the transformations and the synchronization
/// check.
void registerExoGPUPasses();

/// Adds `dirs` to the folders `exogpu.import` searches in every context
/// `registry` is loaded into: after the importing file's folder and the
/// folders of earlier calls, before those of `EXOGPU_IMPORT_PATH` and the
/// instruction libraries next to the executable
/// (`<bindir>/../share/exogpu/stdlib`). The tools' `-I DIR` flags call it;
/// an embedding compiler passes the installed instruction libraries
/// (`EXOGPU_STDLIB_DIR` of the CMake package) when it is installed
/// elsewhere.
void addExoGPUImportPaths(DialectRegistry &registry,
                          ArrayRef<std::string> dirs);

} // namespace exogpu
} // namespace mlir

#endif // EXOGPU_REGISTRATION_H
