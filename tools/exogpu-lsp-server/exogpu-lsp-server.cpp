//===- exogpu-lsp-server.cpp - ExoGPU language server ---------------------===//
//
// Part of ExoGPU. MLIR's language server (MlirLspServerLib) with the exogpu
// and exoam dialects, the transform.exogpu.* extension, the Transform
// dialect and the upstream dialects exogpu-opt reads (host code mixed with
// procs, the output of --convert-exogpu-to-standard): diagnostics, hover,
// go-to-definition, references and completion for .mlir files in any LSP
// editor (docs/editor.md). Imports resolve as in the other tools (`-I DIR`
// adds a folder), and definition and hover reach into the files imported
// (LspRelay.h, ImportNavigation.h).
//
//===----------------------------------------------------------------------===//

#include "ExoGPU/Registration.h"
#include "ImportNavigation.h"
#include "LspRelay.h"
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

#include <string>
#include <vector>

// Declared so that the server's command line accepts -I (and --help lists
// it); main reads the folders from argv itself, because the relay needs
// them before the server parses its command line.
static llvm::cl::list<std::string>
    importDirs("I",
               llvm::cl::desc("Search this folder for the files "
                              "exogpu.import names (repeatable)"),
               llvm::cl::value_desc("dir"), llvm::cl::Prefix);

/// The folders of the -I options in `argv` (`-I dir`, `-Idir`, `-I=dir`).
static std::vector<std::string> getImportDirs(int argc, char **argv) {
  std::vector<std::string> dirs;
  for (int i = 1; i < argc; ++i) {
    llvm::StringRef arg(argv[i]);
    if (!arg.consume_front("-I") && !arg.consume_front("--I"))
      continue;
    if (arg.empty() && i + 1 < argc)
      dirs.push_back(argv[++i]);
    else if (!arg.empty())
      dirs.push_back(arg.ltrim('=').str());
  }
  return dirs;
}

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::exogpu::registerExoGPUDialects(registry);
  mlir::exogpu::registerExoGPUExtensions(registry);
  mlir::exogpu::addExoGPUImportPaths(registry, getImportDirs(argc, argv));
  registry.insert<mlir::affine::AffineDialect, mlir::arith::ArithDialect,
                  mlir::cf::ControlFlowDialect, mlir::func::FuncDialect,
                  mlir::memref::MemRefDialect, mlir::scf::SCFDialect,
                  mlir::transform::TransformDialect>();
  // --help and --version print to stdout: no relay.
  for (int i = 1; i < argc; ++i) {
    llvm::StringRef arg = llvm::StringRef(argv[i]).ltrim('-');
    if (arg == "help" || arg == "version" || arg.starts_with("help-"))
      return mlir::succeeded(mlir::MlirLspServerMain(argc, argv, registry)) ? 0
                                                                            : 1;
  }
  mlir::exogpu::ImportNavigation navigation(registry);
  auto getRegistry =
      [&](const llvm::lsp::URIForFile &) -> mlir::DialectRegistry & {
    return registry;
  };
  return mlir::exogpu::runLspServerWithImports(argc, argv, getRegistry,
                                               navigation);
}
