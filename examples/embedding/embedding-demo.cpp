//===- embedding-demo.cpp - a compiler that embeds ExoGPU -----------------===//
//
// An MLIR tool built outside the ExoGPU tree against an installed ExoGPU
// (CMakeLists.txt, docs/embedding.md). It registers ExoGPU's dialects, its
// Transform-dialect extension and its passes next to the upstream dialects
// it uses, tells ExoGPU where the installed instruction libraries are, and
// runs a pipeline of its own, written as text, on a module that mixes host
// code in upstream dialects with exogpu procs (one calling an instruction
// of the imported sm90a library) and a schedule:
//
//   embedding-demo kernel.mlir --sizes=N=4096
//
//   1. transform-interpreter: the schedule makes the sequential proc a
//      CUDA kernel (transform.exogpu.*);
//   2. exogpu-collective-analysis, then exogpu-sync-check at the sizes;
//   3. canonicalize on the host functions.
//
// It prints the pipeline, the resulting module and one line per kernel. An
// error (a synchronization hazard, say) is reported at the statement of the
// input, and the tool exits with 1.
//
//===----------------------------------------------------------------------===//

#include "ExoGPU/Dialect/ExoGPU/IR/ExoGPUOps.h"
#include "ExoGPU/Registration.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/Dialect/Transform/Transforms/Passes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;
namespace cl = llvm::cl;

static cl::opt<std::string> inputFile(cl::Positional, cl::desc("<input .mlir>"),
                                      cl::Required);
static cl::opt<std::string>
    sizes("sizes",
          cl::desc("The size parameters the synchronization check runs "
                   "the kernels at, as name=value pairs: N=4096,M=128"),
          cl::Required);

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::ParseCommandLineOptions(argc, argv, "a compiler that embeds ExoGPU\n");

  // The dialects of this compiler: the upstream ones it chose, and ExoGPU's.
  DialectRegistry registry;
  registry.insert<arith::ArithDialect, func::FuncDialect, memref::MemRefDialect,
                  scf::SCFDialect, transform::TransformDialect>();
  exogpu::registerExoGPUDialects(registry);
  exogpu::registerExoGPUExtensions(registry);
  // Where `exogpu.import "sm90a"` finds the instruction libraries: the
  // installed ones (EXOGPU_STDLIB_DIR of the CMake package, CMakeLists.txt).
  exogpu::addExoGPUImportPaths(registry, {EXOGPU_STDLIB_DIR});
  // The passes its textual pipeline names.
  exogpu::registerExoGPUPasses();
  transform::registerTransformPasses();
  registerCanonicalizerPass();

  MLIRContext context(registry);
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler handler(sourceMgr, &context);
  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> input = openInputFile(inputFile, &error);
  if (!input) {
    llvm::errs() << error << "\n";
    return 1;
  }
  sourceMgr.AddNewSourceBuffer(std::move(input), llvm::SMLoc());
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return 1;

  // The pipeline of the module, as text.
  std::string pipeline = "transform-interpreter, exogpu-collective-analysis, "
                         "exogpu-sync-check{args=" +
                         sizes + "}, func.func(canonicalize)";
  PassManager pm(&context);
  if (failed(parsePassPipeline(pipeline, pm, llvm::errs())))
    return 1;
  llvm::outs() << "pipeline: " << pipeline << "\n";
  if (failed(pm.run(*module)))
    return 1;
  module->print(llvm::outs());

  // The ExoGPU C++ API on the result: the kernels the schedule made.
  for (auto proc : module->getOps<exogpu::ProcOp>())
    proc.walk([&](exogpu::DeviceFunctionOp kernel) {
      llvm::outs() << "@" << proc.getSymName() << ": a kernel of "
                   << kernel.getThreadsPerBlock()
                   << " threads per CTA, synchronization checked at " << sizes
                   << "\n";
    });
  return 0;
}
