//===- exogpu-opt.cpp - ExoGPU optimizer driver --------------------------===//
//
// Part of ExoGPU. Parses, verifies, transforms and prints exogpu / exoam IR:
//   exogpu-opt --exogpu-collective-analysis --exogpu-sync-check kernel.mlir
//   exogpu-opt --transform-interpreter schedule-and-kernel.mlir
//
//===----------------------------------------------------------------------===//

#include "ExoGPU/Registration.h"
#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/Dialect/Transform/Transforms/Passes.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

namespace mlir::exogpu {
// Test passes (test/lib).
void registerTestRandomSchedulePass();
} // namespace mlir::exogpu

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::exogpu::registerExoGPUDialects(registry);
  // Scheduling: transform.exogpu.* scripts run by --transform-interpreter.
  registry.insert<mlir::transform::TransformDialect>();
  mlir::exogpu::registerExoGPUExtensions(registry);
  mlir::exogpu::registerExoGPUPasses();
  mlir::transform::registerTransformPasses();
  mlir::exogpu::registerTestRandomSchedulePass();
  mlir::registerCanonicalizerPass();
  mlir::registerCSEPass();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "ExoGPU optimizer driver\n", registry));
}
