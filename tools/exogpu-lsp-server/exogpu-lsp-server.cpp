//===- exogpu-lsp-server.cpp - ExoGPU language server ---------------------===//
//
// Part of ExoGPU. MLIR's language server (MlirLspServerLib) with the exogpu
// and exoam dialects, the transform.exogpu.* extension, the Transform
// dialect and the upstream dialects exogpu-opt reads (host code mixed with
// procs, the output of --convert-exogpu-to-standard): diagnostics, hover,
// go-to-definition, references and completion for .mlir files in any LSP
// editor (docs/editor.md). Imports resolve as in the other tools (`-I DIR`
// adds a folder).
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
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/LSP/Protocol.h"

#include <mutex>

static llvm::cl::list<std::string>
    importDirs("I",
               llvm::cl::desc("Search this folder for the files "
                              "exogpu.import names (repeatable)"),
               llvm::cl::value_desc("dir"), llvm::cl::Prefix);

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::exogpu::registerExoGPUDialects(registry);
  mlir::exogpu::registerExoGPUExtensions(registry);
  registry.insert<mlir::affine::AffineDialect, mlir::arith::ArithDialect,
                  mlir::cf::ControlFlowDialect, mlir::func::FuncDialect,
                  mlir::memref::MemRefDialect, mlir::scf::SCFDialect,
                  mlir::transform::TransformDialect>();
  // The server parses the command line: add the -I folders when the first
  // document needs the registry.
  std::once_flag addImportDirs;
  auto getRegistry =
      [&](const llvm::lsp::URIForFile &) -> mlir::DialectRegistry & {
    std::call_once(addImportDirs, [&] {
      mlir::exogpu::addExoGPUImportPaths(registry, importDirs);
    });
    return registry;
  };
  return mlir::succeeded(mlir::MlirLspServerMain(argc, argv, getRegistry)) ? 0
                                                                           : 1;
}
