//===- exogpu-lsp-server.cpp - ExoGPU language server ---------------------===//
//
// Part of ExoGPU. MLIR's language server (MlirLspServerLib) with the exogpu
// and exoam dialects, the transform.exogpu.* extension, the Transform
// dialect and the upstream dialects exogpu-opt reads (host code mixed with
// procs, the output of --convert-exogpu-to-standard): diagnostics, hover,
// go-to-definition, references and completion for .mlir files in any LSP
// editor (docs/editor.md).
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
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Support/LogicalResult.h"
#include "mlir/Tools/mlir-lsp-server/MlirLspServerMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::exogpu::registerExoGPUDialects(registry);
  mlir::exogpu::registerExoGPUExtensions(registry);
  registry.insert<mlir::affine::AffineDialect, mlir::arith::ArithDialect,
                  mlir::cf::ControlFlowDialect, mlir::func::FuncDialect,
                  mlir::memref::MemRefDialect, mlir::scf::SCFDialect,
                  mlir::transform::TransformDialect>();
  return mlir::succeeded(mlir::MlirLspServerMain(argc, argv, registry)) ? 0 : 1;
}
