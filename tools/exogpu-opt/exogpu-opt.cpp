//===- exogpu-opt.cpp - ExoGPU optimizer driver --------------------------===//
//
// Part of ExoGPU. Parses, verifies, transforms and prints exogpu / exoam IR:
//   exogpu-opt --exogpu-collective-analysis --exogpu-sync-check kernel.mlir
//   exogpu-opt --transform-interpreter schedule-and-kernel.mlir
// `-I DIR` adds a folder to those `exogpu.import` searches.
// It also reads the upstream dialects that --convert-exogpu-to-standard
// produces, so that its output and modules mixing host code with procs
// (examples/embedding) parse.
//
//===----------------------------------------------------------------------===//

#include "ExoGPU/Registration.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/Dialect/Transform/Transforms/Passes.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/CommandLine.h"

static llvm::cl::list<std::string>
    importDirs("I",
               llvm::cl::desc("Search this folder for the files "
                              "exogpu.import names (repeatable)"),
               llvm::cl::value_desc("dir"), llvm::cl::Prefix);

namespace mlir::exogpu {
// Test passes (test/lib).
void registerTestBufferSharingPass();
void registerTestRandomSchedulePass();
} // namespace mlir::exogpu

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::exogpu::registerExoGPUDialects(registry);
  registry.insert<mlir::affine::AffineDialect, mlir::arith::ArithDialect,
                  mlir::cf::ControlFlowDialect, mlir::func::FuncDialect,
                  mlir::memref::MemRefDialect, mlir::scf::SCFDialect>();
  // Scheduling: transform.exogpu.* scripts run by --transform-interpreter.
  registry.insert<mlir::transform::TransformDialect>();
  mlir::exogpu::registerExoGPUExtensions(registry);
  mlir::exogpu::registerExoGPUPasses();
  mlir::transform::registerTransformPasses();
  mlir::exogpu::registerTestBufferSharingPass();
  mlir::exogpu::registerTestRandomSchedulePass();
  mlir::registerCanonicalizerPass();
  mlir::registerCSEPass();
  auto [inputFile, outputFile] = mlir::registerAndParseCLIOptions(
      argc, argv, "ExoGPU optimizer driver\n", registry);
  mlir::exogpu::addExoGPUImportPaths(registry, importDirs);
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, inputFile, outputFile, registry));
}
