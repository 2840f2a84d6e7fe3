//===- RegisterExtensions.cpp - registerExoGPUExtensions ------------------===//
//
// Part of ExoGPU.
//
//===----------------------------------------------------------------------===//

#include "ExoGPU/Dialect/ExoGPU/TransformOps/ExoGPUTransformOps.h"
#include "ExoGPU/Registration.h"

void mlir::exogpu::registerExoGPUExtensions(DialectRegistry &registry) {
  registerTransformDialectExtension(registry);
}
