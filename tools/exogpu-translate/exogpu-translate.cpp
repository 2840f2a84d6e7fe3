//===- exogpu-translate.cpp - ExoGPU translation driver -------------------===//
//
// Part of ExoGPU. Translates exogpu modules out of MLIR, in the style of
// mlir-translate; the definitions the module's `exogpu.import`s bring are
// translated with it:
//
//   exogpu-translate --to-cuda gemm.mlir -o gemm.cu
//   exogpu-translate --to-cuda-header gemm.mlir -o gemm.h
//   exogpu-translate --to-signature-json gemm.mlir -o gemm.json
//
// Like mlir-translate it takes --split-input-file and --verify-diagnostics
// (for tests of the translation's diagnostics). `-I DIR` adds a folder to
// those imports search.
//
//===----------------------------------------------------------------------===//

#include "ExoGPU/Dialect/ExoGPU/IR/Libraries.h"
#include "ExoGPU/Registration.h"
#include "ExoGPU/Target/CUDA/SignatureJson.h"
#include "ExoGPU/Target/CUDA/TranslateToCuda.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/ToolUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace mlir;

namespace {
enum class Action { ToCuda, ToCudaHeader, ToSignatureJson };
} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  llvm::cl::opt<std::string> inputFilename(llvm::cl::Positional,
                                           llvm::cl::desc("<input file>"),
                                           llvm::cl::init("-"));
  llvm::cl::opt<std::string> outputFilename(
      "o", llvm::cl::desc("Output filename"), llvm::cl::value_desc("filename"),
      llvm::cl::init("-"));
  llvm::cl::opt<Action> action(
      llvm::cl::desc("Translation:"), llvm::cl::Required,
      llvm::cl::values(
          clEnumValN(Action::ToCuda, "to-cuda",
                     "CUDA C++: host functions and persistent kernels"),
          clEnumValN(Action::ToCudaHeader, "to-cuda-header",
                     "the C/C++ header of the host functions"),
          clEnumValN(Action::ToSignatureJson, "to-signature-json",
                     "the host functions' parameters, extents, roles and "
                     "preconditions as JSON (docs/python.md)")));
  llvm::cl::list<std::string> importDirs(
      "I",
      llvm::cl::desc("Search this folder for the files exogpu.import names "
                     "(repeatable)"),
      llvm::cl::value_desc("dir"), llvm::cl::Prefix);
  llvm::cl::list<std::string> libraries(
      "stdlib",
      llvm::cl::desc("Deprecated: import this file into the module, as "
                     "`exogpu.import` does (repeatable)"),
      llvm::cl::value_desc("file"), llvm::cl::Hidden);
  llvm::cl::opt<bool> skipSyncValidation(
      "skip-sync-validation",
      llvm::cl::desc("Do not validate the lowered synchronization of kernels "
                     "(docs/cuda-translation.md \"Validation\"); for timing "
                     "the rest of the translation only"));
  llvm::cl::opt<std::string> syncFaults(
      "sync-lowering-faults",
      llvm::cl::desc("Weaken the lowered synchronization as listed "
                     "(comma-separated SyncFault names, "
                     "include/ExoGPU/Target/CUDA/TranslateToCuda.h), to test "
                     "that the validation rejects it; never for code that "
                     "runs"),
      llvm::cl::value_desc("faults"));
  llvm::cl::opt<bool> splitInputFile(
      "split-input-file",
      llvm::cl::desc("Split the input on '// -----' and translate each part"));
  llvm::cl::opt<bool> verifyDiagnostics(
      "verify-diagnostics",
      llvm::cl::desc("Check the diagnostics against expected-* lines"));
  registerAsmPrinterCLOptions();
  registerMLIRContextCLOptions();
  llvm::cl::ParseCommandLineOptions(argc, argv, "ExoGPU translation driver\n");

  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> input =
      openInputFile(inputFilename, &error);
  if (!input) {
    llvm::errs() << error << "\n";
    return 1;
  }
  std::unique_ptr<llvm::ToolOutputFile> output =
      openOutputFile(outputFilename, &error);
  if (!output) {
    llvm::errs() << error << "\n";
    return 1;
  }

  DialectRegistry registry;
  exogpu::registerExoGPUDialects(registry);
  exogpu::addExoGPUImportPaths(registry, importDirs);
  auto processChunk = [&](std::unique_ptr<llvm::MemoryBuffer> chunk,
                          raw_ostream &os) -> LogicalResult {
    MLIRContext context(registry);
    context.allowUnregisteredDialects(false);
    // Diagnostics point at the source; the generic form of the op adds
    // nothing for a user of this tool.
    context.printOpOnDiagnostic(false);
    llvm::SourceMgr sourceMgr;
    sourceMgr.AddNewSourceBuffer(std::move(chunk), SMLoc());
    auto translate = [&]() -> LogicalResult {
      // Verified once the --stdlib files are imported.
      ParserConfig config(&context, /*verifyAfterParse=*/false);
      OwningOpRef<ModuleOp> module =
          parseSourceFile<ModuleOp>(sourceMgr, config);
      if (!module)
        return failure();
      for (const std::string &library : llvm::reverse(libraries)) {
        SmallString<256> path(library);
        llvm::sys::fs::make_absolute(path);
        exogpu::addImport(*module, path);
      }
      if (failed(verify(*module)))
        return failure();
      switch (action) {
      case Action::ToCuda: {
        exogpu::CudaTranslationOptions options;
        options.validateSynchronization = !skipSyncValidation;
        std::optional<unsigned> faults = exogpu::parseSyncFaults(syncFaults);
        if (!faults)
          return emitError(module->getLoc())
                 << "unknown fault in --sync-lowering-faults=" << syncFaults;
        options.syncFaults = *faults;
        return exogpu::translateModuleToCuda(*module, os, options);
      }
      case Action::ToCudaHeader:
        return exogpu::translateModuleToCudaHeader(*module, os);
      case Action::ToSignatureJson:
        return exogpu::translateModuleToSignatureJson(*module, os);
      }
      return failure();
    };
    if (!verifyDiagnostics) {
      SourceMgrDiagnosticHandler handler(sourceMgr, &context);
      return translate();
    }
    SourceMgrDiagnosticVerifierHandler handler(sourceMgr, &context);
    (void)translate();
    return handler.verify();
  };
  LogicalResult result =
      splitInputFile
          ? splitAndProcessBuffer(std::move(input), processChunk, output->os(),
                                  kDefaultSplitMarker, kDefaultSplitMarker)
          : processChunk(std::move(input), output->os());
  if (failed(result))
    return 1;
  output->keep();
  return 0;
}
