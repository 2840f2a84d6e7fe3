//===- ExoGPUTransformOps.cpp - the transform.exogpu extension ------------===//
//
// Part of ExoGPU. Registers the scheduling ops with the Transform dialect.
//
//===----------------------------------------------------------------------===//

#include "ExoGPU/Dialect/ExoGPU/TransformOps/ExoGPUTransformOps.h"
#include "ExoGPU/Dialect/ExoGPU/IR/ExoGPUDialect.h"
#include "mlir/Dialect/Transform/IR/TransformDialect.h"

using namespace mlir;

namespace {
class ExoGPUTransformDialectExtension
    : public transform::TransformDialectExtension<
          ExoGPUTransformDialectExtension> {
public:
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(ExoGPUTransformDialectExtension)

  using Base::Base;

  void init() {
    declareGeneratedDialect<exogpu::ExoGPUDialect>();
    registerTransformOps<
#define GET_OP_LIST
#include "ExoGPU/Dialect/ExoGPU/TransformOps/MatchOps.cpp.inc"
        >();
    registerTransformOps<
#define GET_OP_LIST
#include "ExoGPU/Dialect/ExoGPU/TransformOps/LoopTransformOps.cpp.inc"
        >();
    registerTransformOps<
#define GET_OP_LIST
#include "ExoGPU/Dialect/ExoGPU/TransformOps/StatementTransformOps.cpp.inc"
        >();
    registerTransformOps<
#define GET_OP_LIST
#include "ExoGPU/Dialect/ExoGPU/TransformOps/BufferTransformOps.cpp.inc"
        >();
    registerTransformOps<
#define GET_OP_LIST
#include "ExoGPU/Dialect/ExoGPU/TransformOps/ProcTransformOps.cpp.inc"
        >();
    registerTransformOps<
#define GET_OP_LIST
#include "ExoGPU/Dialect/ExoGPU/TransformOps/GPUTransformOps.cpp.inc"
        >();
  }
};
} // namespace

void mlir::exogpu::registerTransformDialectExtension(
    DialectRegistry &registry) {
  registry.addExtensions<ExoGPUTransformDialectExtension>();
}
