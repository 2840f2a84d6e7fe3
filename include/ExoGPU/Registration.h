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

} // namespace exogpu
} // namespace mlir

#endif // EXOGPU_REGISTRATION_H
