//===- RegisterDialects.cpp - registerExoGPUDialects ----------------------===//
//
// Part of ExoGPU.
//
//===----------------------------------------------------------------------===//

#include "ExoGPU/Dialect/ExoAM/IR/ExoAMDialect.h"
#include "ExoGPU/Dialect/ExoGPU/IR/ExoGPUDialect.h"
#include "ExoGPU/Registration.h"
#include "mlir/IR/DialectRegistry.h"

void mlir::exogpu::registerExoGPUDialects(DialectRegistry &registry) {
  registry.insert<ExoGPUDialect, exoam::ExoAMDialect>();
}
