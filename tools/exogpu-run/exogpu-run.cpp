//===- exogpu-run.cpp - run a proc's sequential meaning -------------------===//
//
// Part of ExoGPU. Runs the sequential meaning of an exogpu proc (seeds/002
// Sec. 2.3) on the CPU at concrete sizes, JIT-compiled through upstream
// MLIR, and compares it with another proc or with arrays produced
// elsewhere (a GPU run):
//
//   exogpu-run examples/sm90a_gemm.mlir --proc=gemm_sm90a --sizes=M=256,...
//   exogpu-run examples/sm90a_gemm.mlir examples/reference/gemm.mlir
//       --proc=gemm_sm90a --compare=gemm_abt_ref --sizes=...
//   exogpu-run ... --proc=gemm_sm90a --input-dir=in --expect-dir=gpu ...
//   exogpu-run ... --proc=gemm_sm90a --emit-cuda-driver=driver.cu
//
// Files after the first are imported into it (as by `exogpu.import`); the
// imports are linked before the procs run.
//
// docs/running.md describes the options, the input fill and the tolerances.
//
//===----------------------------------------------------------------------===//

#include "ExoGPU/Dialect/ExoGPU/IR/Libraries.h"
#include "ExoGPU/Registration.h"
#include "ExoGPU/Runner/Comparison.h"
#include "ExoGPU/Runner/CudaDriver.h"
#include "ExoGPU/Runner/JitProgram.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/WithColor.h"

#include <chrono>

using namespace mlir;
using namespace mlir::exogpu;
using namespace mlir::exogpu::runner;
namespace cl = llvm::cl;

static cl::OptionCategory category("exogpu-run options");

static cl::list<std::string>
    inputFiles(cl::Positional,
               cl::desc("<input .mlir, or - for stdin> [files it imports...]"),
               cl::cat(category));
static cl::list<std::string>
    importDirs("I",
               cl::desc("Search this folder for the files exogpu.import "
                        "names (repeatable)"),
               cl::value_desc("dir"), cl::Prefix, cl::cat(category));
static cl::opt<std::string>
    procName("proc",
             cl::desc("The proc to run (default: the module's only "
                      "proc)"),
             cl::cat(category));
static cl::opt<std::string>
    sizes("sizes",
          cl::desc("Values of the control parameters: M=1024,N=64,flag=true"),
          cl::cat(category));
static cl::opt<unsigned> seed("seed", cl::desc("Seed of the pcg3d input fill"),
                              cl::init(1), cl::cat(category));
static cl::list<std::string>
    inputs("input",
           cl::desc("NAME=FILE.npy: the contents of data parameter "
                    "NAME (repeatable)"),
           cl::cat(category));
static cl::opt<std::string>
    inputDir("input-dir",
             cl::desc("Read every input parameter NAME from DIR/NAME.npy"),
             cl::value_desc("DIR"), cl::cat(category));
static cl::opt<std::string> writeInputs(
    "write-inputs",
    cl::desc("Write the initial contents of every input parameter to "
             "DIR/NAME.npy"),
    cl::value_desc("DIR"), cl::cat(category));
static cl::opt<std::string>
    outputDir("output-dir",
              cl::desc("Write every output parameter to DIR/NAME.npy"),
              cl::value_desc("DIR"), cl::cat(category));
static cl::opt<std::string>
    compareProc("compare",
                cl::desc("Run this proc on the same inputs and "
                         "compare the outputs (the reference)"),
                cl::value_desc("PROC"), cl::cat(category));
static cl::list<std::string>
    expects("expect",
            cl::desc("NAME=FILE.npy: compare output NAME, as "
                     "produced elsewhere, with the meaning"),
            cl::cat(category));
static cl::opt<std::string>
    expectDir("expect-dir",
              cl::desc("Compare every output NAME with DIR/NAME.npy"),
              cl::value_desc("DIR"), cl::cat(category));
static cl::opt<std::string>
    math("math",
         cl::desc("The arithmetic the compared results were computed in "
                  "(f64, f32, tf32, f16, bf16, exact); default: each "
                  "output's precision"),
         cl::cat(category));
static cl::opt<int64_t> sumLength(
    "sum-length",
    cl::desc("Terms summed per output element (scales the tolerance); "
             "default: the largest size parameter"),
    cl::init(0), cl::cat(category));
static cl::opt<double>
    rtol("rtol", cl::desc("A relative tolerance replacing the computed one"),
         cl::init(-1), cl::cat(category));
static cl::opt<bool> checkBounds(
    "check-bounds",
    cl::desc("Check every access against its buffer's extents (default on)"),
    cl::init(true), cl::cat(category));
static cl::opt<unsigned> optLevel("O",
                                  cl::desc("LLVM optimization level (0-3)"),
                                  cl::init(JitOptions().optLevel), cl::Prefix,
                                  cl::cat(category));
static cl::opt<std::string>
    jitCpu("jit-cpu",
           cl::desc("Compile for this CPU's baseline (an LLVM CPU name such as "
                    "x86-64) instead of the host CPU and its features"),
           cl::value_desc("CPU"), cl::cat(category));
static cl::opt<bool> printHostSymbols(
    "print-host-symbols",
    cl::desc("Print the functions outside the module that the compiled "
             "meaning calls, and who provides each (the runner or the C "
             "library)"),
    cl::cat(category));
static cl::opt<bool> printTime("time", cl::desc("Print compile and run times"),
                               cl::cat(category));
static cl::opt<std::string>
    emitDriver("emit-cuda-driver",
               cl::desc("Write the GPU driver of --proc to this file and exit"),
               cl::value_desc("FILE.cu"), cl::cat(category));
static cl::opt<std::string> driverHeader(
    "cuda-header",
    cl::desc("The header (from exogpu-translate --to-cuda-header) the "
             "driver includes; default PROC.h"),
    cl::cat(category));

namespace {
/// An error for the user.
llvm::Error fail(const Twine &message) {
  return llvm::createStringError(message.str());
}

/// Seconds since `start`.
double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
      .count();
}

/// `NAME=PATH` pairs, by name.
llvm::Expected<llvm::StringMap<std::string>>
parsePairs(ArrayRef<std::string> pairs, StringRef option) {
  llvm::StringMap<std::string> result;
  for (StringRef pair : pairs) {
    auto [name, path] = pair.split('=');
    if (name.empty() || path.empty())
      return fail("--" + option + " expects NAME=FILE.npy, got '" + pair + "'");
    result[name] = path.str();
  }
  return result;
}

/// The proc named `name`, or the only proc of `module` when `name` is empty.
llvm::Expected<ProcOp> findProc(ModuleOp module, StringRef name) {
  SmallVector<ProcOp> procs(module.getOps<ProcOp>());
  if (name.empty()) {
    if (procs.size() != 1)
      return fail("the input has " + Twine(procs.size()) +
                  " procs; choose one with --proc");
    return procs.front();
  }
  for (ProcOp proc : procs)
    if (proc.getSymName() == name)
      return proc;
  return fail("no proc @" + name + " in the input");
}

/// The initial contents of the data parameters of `proc` (null for control
/// parameters): write-only outputs (of `proc` and of `other`, if given)
/// poisoned, inputs loaded or filled.
llvm::Expected<SmallVector<std::unique_ptr<HostArray>>>
makeInitialArrays(const BoundProc &proc, const BoundProc *other) {
  llvm::Expected<llvm::StringMap<std::string>> files =
      parsePairs(inputs, "input");
  if (!files)
    return files.takeError();
  SmallVector<std::unique_ptr<HostArray>> arrays;
  for (auto [i, param] : llvm::enumerate(proc.getParams())) {
    if (!param.isData()) {
      arrays.emplace_back();
      continue;
    }
    auto array = std::make_unique<HostArray>(param.precision, param.shape);
    bool writeOnly =
        param.mode == ParamAccessMode::WriteOnly &&
        (!other || other->getParams()[i].mode == ParamAccessMode::WriteOnly);
    std::string what = "%" + param.name;
    if (writeOnly) {
      array->poison();
      if (files->count(param.name))
        return fail(what + " is an output only: it has no input");
    } else if (auto it = files->find(param.name); it != files->end()) {
      if (llvm::Error error = array->load(it->second, what))
        return std::move(error);
    } else if (!inputDir.empty()) {
      SmallString<128> path(inputDir);
      llvm::sys::path::append(path, param.name + ".npy");
      if (llvm::Error error = array->load(path, what))
        return std::move(error);
    } else {
      array->fillPcg3d(i, seed);
    }
    if (!writeOnly && !writeInputs.empty()) {
      SmallString<128> path(writeInputs);
      llvm::sys::path::append(path, param.name + ".npy");
      if (llvm::Error error = array->save(path))
        return std::move(error);
    }
    arrays.push_back(std::move(array));
  }
  for (const auto &file : *files)
    if (llvm::none_of(proc.getParams(), [&](const ParamInfo &p) {
          return p.isData() && p.name == file.getKey();
        }))
      return fail("--input names %" + file.getKey() +
                  ", which is not a data parameter of @" +
                  proc.getProc().getSymName());
  return std::move(arrays);
}

/// A copy of every array.
SmallVector<std::unique_ptr<HostArray>>
copyArrays(ArrayRef<std::unique_ptr<HostArray>> arrays) {
  return llvm::map_to_vector(arrays, [](const auto &array) {
    return array ? std::make_unique<HostArray>(*array)
                 : std::unique_ptr<HostArray>();
  });
}

/// Runs `proc` on `arrays`, timing it if asked.
llvm::Error runProc(JitProgram &program, const BoundProc &proc,
                    ArrayRef<std::unique_ptr<HostArray>> arrays) {
  SmallVector<HostArray *> pointers = llvm::map_to_vector(
      arrays, [](const auto &array) { return array.get(); });
  auto start = std::chrono::steady_clock::now();
  if (llvm::Error error = program.run(proc, pointers))
    return error;
  if (printTime)
    llvm::errs() << llvm::format("run @%s: %.3f s\n",
                                 proc.getProc().getSymName().str().c_str(),
                                 secondsSince(start));
  return llvm::Error::success();
}

/// Whether parameter `i` is an output of `proc` or of `other`.
bool isOutput(const BoundProc &proc, const BoundProc *other, unsigned i) {
  return proc.getParams()[i].mode != ParamAccessMode::ReadOnly ||
         (other && other->getParams()[i].mode != ParamAccessMode::ReadOnly);
}

/// The tolerance for output `param`.
llvm::Expected<double> getOutputTolerance(const BoundProc &proc,
                                          const ParamInfo &param) {
  if (rtol >= 0)
    return rtol;
  ToleranceClass cls = getDefaultToleranceClass(param.precision);
  if (!math.empty()) {
    std::optional<ToleranceClass> parsed = parseToleranceClass(math);
    if (!parsed)
      return fail("--math: unknown arithmetic '" + math + "'");
    cls = *parsed;
  }
  int64_t length = sumLength;
  if (length <= 0)
    for (auto [p, value] : llvm::zip(proc.getParams(), proc.getValues()))
      if (p.kind == ParamKind::size)
        length = std::max(length, value);
  return getTolerance(cls, length);
}

/// Runs the requested mode; returns whether every comparison passed.
llvm::Expected<bool> runMain(ModuleOp module) {
  llvm::Expected<ProcOp> proc = findProc(module, procName);
  if (!proc)
    return proc.takeError();
  if (!emitDriver.empty()) {
    llvm::Expected<BoundProc> described = BoundProc::describe(*proc);
    if (!described)
      return described.takeError();
    std::string header = driverHeader.empty()
                             ? (proc->getSymName() + ".h").str()
                             : driverHeader.getValue();
    std::string error;
    auto output = openOutputFile(emitDriver, &error);
    if (!output)
      return fail(error);
    emitCudaDriver(output->os(), *described, header);
    output->keep();
    return true;
  }

  if (!compareProc.empty() && (!expects.empty() || !expectDir.empty()))
    return fail("--compare and --expect/--expect-dir exclude each other");
  llvm::Expected<BoundProc> bound = BoundProc::bind(*proc, sizes);
  if (!bound)
    return bound.takeError();
  std::optional<BoundProc> reference;
  if (!compareProc.empty()) {
    llvm::Expected<ProcOp> other = findProc(module, compareProc);
    if (!other)
      return other.takeError();
    llvm::Expected<BoundProc> otherBound = BoundProc::bind(*other, sizes);
    if (!otherBound)
      return otherBound.takeError();
    if (llvm::Error error = checkSameSignature(*bound, *otherBound))
      return std::move(error);
    reference = std::move(*otherBound);
  }
  const BoundProc *other = reference ? &*reference : nullptr;
  auto arrays = makeInitialArrays(*bound, other);
  if (!arrays)
    return arrays.takeError();

  if (optLevel > 3)
    return fail("-O takes a level from 0 to 3");
  auto start = std::chrono::steady_clock::now();
  JitOptions options;
  options.optLevel = optLevel;
  options.checkBounds = checkBounds;
  options.cpu = jitCpu;
  options.entries.push_back(bound->getProc().getSymName().str());
  if (other)
    options.entries.push_back(other->getProc().getSymName().str());
  auto program = JitProgram::compile(module, options);
  if (!program)
    return program.takeError();
  if (printTime)
    llvm::errs() << llvm::format("compile: %.3f s\n", secondsSince(start));
  if (printHostSymbols) {
    llvm::outs() << "host symbols:\n";
    for (const HostSymbol &symbol : (*program)->getHostSymbols())
      llvm::outs() << "  " << symbol.name << " ("
                   << (symbol.fromRunner ? "runner" : "C library") << ")\n";
  }

  auto referenceArrays = copyArrays(*arrays);
  if (llvm::Error error = runProc(**program, *bound, *arrays))
    return std::move(error);
  if (other)
    if (llvm::Error error = runProc(**program, *other, referenceArrays))
      return std::move(error);

  llvm::Expected<llvm::StringMap<std::string>> expected =
      parsePairs(expects, "expect");
  if (!expected)
    return expected.takeError();
  std::string procLabel = ("@" + proc->getSymName()).str();
  llvm::outs() << procLabel;
  if (other)
    llvm::outs() << " vs @" << other->getProc().getSymName();
  if (std::string values = bound->formatValues(); !values.empty())
    llvm::outs() << " at " << values;
  llvm::outs() << "\n";
  bool passed = true;
  for (auto [i, param] : llvm::enumerate(bound->getParams())) {
    if (!param.isData() || !isOutput(*bound, other, i))
      continue;
    HostArray &array = *(*arrays)[i];
    if (!outputDir.empty()) {
      SmallString<128> path(outputDir);
      llvm::sys::path::append(path, param.name + ".npy");
      if (llvm::Error error = array.save(path))
        return std::move(error);
    }
    llvm::Expected<double> tolerance = getOutputTolerance(*bound, param);
    if (!tolerance)
      return tolerance.takeError();
    if (other) {
      Comparison comparison =
          compareArrays(array, *referenceArrays[i], *tolerance);
      printComparison(llvm::outs(), param.name, comparison, array,
                      *referenceArrays[i], procLabel,
                      "@" + other->getProc().getSymName().str());
      passed &= comparison.passed();
      continue;
    }
    std::string file;
    if (auto it = expected->find(param.name); it != expected->end())
      file = it->second;
    else if (!expectDir.empty())
      file = expectDir + "/" + param.name + ".npy";
    if (file.empty()) {
      printSummary(llvm::outs(), param.name, array);
      continue;
    }
    HostArray produced(param.precision, param.shape);
    if (llvm::Error error = produced.load(file, "%" + param.name))
      return std::move(error);
    Comparison comparison = compareArrays(produced, array, *tolerance);
    printComparison(llvm::outs(), param.name, comparison, produced, array,
                    llvm::sys::path::filename(file), procLabel);
    passed &= comparison.passed();
  }
  for (const auto &entry : *expected)
    if (llvm::none_of(bound->getParams(), [&](const ParamInfo &p) {
          return p.isData() && p.name == entry.getKey();
        }))
      return fail("--expect names %" + entry.getKey() +
                  ", which is not a data parameter of " + procLabel);
  return passed;
}
} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(
      argc, argv, "exogpu-run: run the sequential meaning of an exogpu proc\n");

  DialectRegistry registry;
  registerExoGPUDialects(registry);
  addExoGPUImportPaths(registry, importDirs);
  MLIRContext context(registry);
  context.printOpOnDiagnostic(false);
  std::string error;
  std::string inputFile = inputFiles.empty() ? "-" : inputFiles.front();
  std::unique_ptr<llvm::MemoryBuffer> buffer = openInputFile(inputFile, &error);
  if (!buffer) {
    llvm::WithColor::error(llvm::errs(), "exogpu-run") << error << "\n";
    return 1;
  }
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());
  SourceMgrDiagnosticHandler handler(sourceMgr, &context);
  // Verified once the other files are imported.
  ParserConfig config(&context, /*verifyAfterParse=*/false);
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, config);
  if (!module)
    return 1;
  for (StringRef file : llvm::reverse(llvm::drop_begin(inputFiles))) {
    SmallString<256> path(file);
    llvm::sys::fs::make_absolute(path);
    addImport(*module, path);
  }
  if (failed(verify(*module)) || failed(linkImports(*module)))
    return 1;
  llvm::Expected<bool> passed = runMain(*module);
  if (!passed) {
    llvm::WithColor::error(llvm::errs(), "exogpu-run")
        << llvm::toString(passed.takeError()) << "\n";
    return 1;
  }
  return *passed ? 0 : 1;
}
