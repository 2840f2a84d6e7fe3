//===- JitProgram.cpp - run procs' sequential meaning on the CPU ----------===//
//
// Part of ExoGPU. See JitProgram.h.
//
//===----------------------------------------------------------------------===//

#include "ExoGPU/Runner/JitProgram.h"
#include "ExoGPU/Conversion/Passes.h"
#include "ExoGPU/Runner/HostSymbols.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/RuntimeOpVerification.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/thread.h"

#include <csetjmp>
#include <cstdio>
#include <cstdlib>

using namespace mlir;
using namespace mlir::exogpu;
using namespace mlir::exogpu::runner;

//===----------------------------------------------------------------------===//
// Lowering
//===----------------------------------------------------------------------===//

namespace {
/// Clears the `contract` flags arith-emulate-unsupported-floats puts on the
/// extf/truncf pairs around each emulated bf16 operation: with them, the
/// folds of the later passes turn extf(truncf(x)) into x and drop the
/// rounding to bf16 between two operations, which the meaning keeps (one
/// rounding per operation, docs/running.md "Arithmetic"; found by
/// utils/fuzz-cuda.py).
struct KeepEmulatedRoundingPass
    : PassWrapper<KeepEmulatedRoundingPass, OperationPass<>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(KeepEmulatedRoundingPass)

  StringRef getArgument() const override {
    return "exogpu-keep-emulated-rounding";
  }
  void runOnOperation() override {
    getOperation()->walk([](Operation *op) {
      if (isa<arith::ExtFOp, arith::TruncFOp>(op))
        op->removeAttr("fastmath");
    });
  }
};
} // namespace

void mlir::exogpu::runner::buildSequentialToLLVMPipeline(
    OpPassManager &pm, const JitOptions &options) {
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  // bf16 as the GPU computes it, whatever the host CPU: math and arithmetic
  // in f32, then rounded to nearest even by integer arithmetic (AVX512-BF16's
  // vcvtneps2bf16, which LLVM would pick on hosts that have it, flushes
  // subnormals to zero). f64 -> bf16 stays one rounding: the runner's
  // __truncdfbf2 (HostSymbols.h).
  pm.addPass(math::createMathExtendToSupportedTypes());
  pm.addPass(arith::createArithEmulateUnsupportedFloats(
      arith::ArithEmulateUnsupportedFloatsOptions{{"bf16"}, "f32"}));
  pm.addPass(std::make_unique<KeepEmulatedRoundingPass>());
  pm.addPass(arith::createArithExpandOpsPass(
      arith::ArithExpandOpsPassOptions{/*includeBf16=*/true}));
  if (options.checkBounds) {
    // Short messages: what failed and where (the runner shows the source).
    std::unique_ptr<Pass> verification =
        createGenerateRuntimeVerificationPass();
    (void)verification->initializeOptions(
        "verbose-level=0", [](const Twine &) { return failure(); });
    pm.addPass(std::move(verification));
  }
  pm.addPass(createLowerAffinePass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}

/// Lowers `module` in place to the LLVM dialect, every function with a C
/// interface (`_mlir_ciface_NAME` takes memref descriptors by pointer).
static LogicalResult lowerToLLVM(ModuleOp module, const JitOptions &options) {
  PassManager convert(module.getContext());
  convert.addPass(createConvertExoGPUToStandard());
  if (failed(convert.run(module)))
    return failure();
  UnitAttr unit = UnitAttr::get(module.getContext());
  module.walk([&](func::FuncOp func) {
    func->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(), unit);
  });
  PassManager lower(module.getContext());
  buildSequentialToLLVMPipeline(lower, options);
  return lower.run(module);
}

//===----------------------------------------------------------------------===//
// Compilation
//===----------------------------------------------------------------------===//

namespace {
/// Where a failed assertion of the compiled code returns to: lowered
/// `cf.assert` prints its message with `puts` and calls `abort`, both of
/// which the runner provides to the compiled code.
struct AssertTrap {
  std::jmp_buf env;
  std::string message;
};
thread_local AssertTrap *activeTrap = nullptr;
} // namespace

static int trapPuts(const char *text) {
  if (!activeTrap)
    return std::puts(text);
  activeTrap->message += text;
  return 0;
}

[[noreturn]] static void trapAbort() {
  if (activeTrap)
    std::longjmp(activeTrap->env, 1);
  std::abort();
}

JitProgram::~JitProgram() = default;

/// The symbols the runner defines for the compiled code: the assertion
/// traps (lowered `cf.assert` prints with `puts` and calls `abort`; see run)
/// and the compiler-runtime routines of HostSymbols.h.
static SmallVector<RunnerSymbol> getRunnerSymbols() {
  SmallVector<RunnerSymbol> symbols = {
      {"puts", reinterpret_cast<void *>(&trapPuts)},
      {"abort", reinterpret_cast<void *>(&trapAbort)}};
  llvm::append_range(symbols, getFloatConversionSymbols());
  return symbols;
}

/// The undefined symbols of the object code `engine` compiled, or an error.
static llvm::Expected<std::vector<std::string>>
readUndefinedSymbols(ExecutionEngine &engine) {
  SmallString<128> path;
  if (std::error_code error =
          llvm::sys::fs::createTemporaryFile("exogpu-jit", "o", path))
    return llvm::createStringError(error, "cannot create a temporary file");
  llvm::FileRemover remover(path);
  engine.dumpToObjectFile(path);
  auto object = llvm::object::ObjectFile::createObjectFile(path);
  if (!object)
    return object.takeError();
  std::vector<std::string> names;
  for (const llvm::object::SymbolRef &symbol : object->getBinary()->symbols()) {
    auto flags = symbol.getFlags();
    if (!flags)
      return flags.takeError();
    if (!(*flags & llvm::object::SymbolRef::SF_Undefined))
      continue;
    auto name = symbol.getName();
    if (!name)
      return name.takeError();
    if (!name->empty())
      names.push_back(name->str());
  }
  llvm::sort(names);
  names.erase(llvm::unique(names), names.end());
  return names;
}

/// Classifies `names` as the runner's or the C library's; an error names
/// any other.
static llvm::Expected<std::vector<HostSymbol>>
classifyHostSymbols(ArrayRef<std::string> names,
                    ArrayRef<RunnerSymbol> runnerSymbols) {
  std::vector<HostSymbol> symbols;
  SmallVector<StringRef> unknown;
  for (const std::string &name : names) {
    bool fromRunner = llvm::any_of(
        runnerSymbols, [&](const RunnerSymbol &s) { return name == s.name; });
    if (!fromRunner && !isCLibrarySymbol(name))
      unknown.push_back(name);
    symbols.push_back({name, fromRunner});
  }
  if (!unknown.empty())
    return llvm::createStringError(
        "the compiled meaning calls " + llvm::join(unknown, ", ") +
        ", which neither the runner nor the C library provides (a "
        "compiler-runtime routine the runner lacks; see docs/running.md)");
  return symbols;
}

/// The target machine for `cpu` (empty: the host's CPU and features).
static llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
createTargetMachine(StringRef cpu) {
  auto builder = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!builder)
    return builder.takeError();
  if (!cpu.empty()) {
    builder->setCPU(cpu.str());
    builder->setFeatures("");
  }
  return builder->createTargetMachine();
}

/// Erases from `module` the procs and instructions that no proc named in
/// `entries` reaches through symbol references (none where a reached op's
/// references cannot be listed); returns the procs kept.
static SmallVector<StringRef> keepReachable(ModuleOp module,
                                            ArrayRef<std::string> entries) {
  SymbolTable symbols(module);
  llvm::SmallPtrSet<Operation *, 16> reached;
  SmallVector<Operation *> worklist;
  auto reach = [&](Operation *op) {
    if (op && reached.insert(op).second)
      worklist.push_back(op);
  };
  for (const std::string &name : entries)
    reach(symbols.lookup(name));
  bool complete = true;
  while (complete && !worklist.empty()) {
    // The references of the op and of everything nested in it.
    std::optional<SymbolTable::UseRange> uses =
        SymbolTable::getSymbolUses(worklist.pop_back_val());
    complete = uses.has_value();
    if (complete)
      for (const SymbolTable::SymbolUse &use : *uses)
        reach(symbols.lookup(use.getSymbolRef().getRootReference()));
  }
  SmallVector<StringRef> kept;
  for (Operation &op : llvm::make_early_inc_range(module.getOps())) {
    if (!isa<ProcOp, InstrOp>(op))
      continue;
    if (complete && !reached.contains(&op))
      op.erase();
    else if (auto proc = dyn_cast<ProcOp>(op))
      kept.push_back(proc.getSymName());
  }
  return kept;
}

llvm::Expected<std::unique_ptr<JitProgram>>
JitProgram::compile(ModuleOp module, const JitOptions &options) {
  static bool initialized = [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    return true;
  }();
  (void)initialized;
  MLIRContext *context = module.getContext();
  DialectRegistry registry;
  // The bounds checks of loads, stores and subviews.
  memref::registerRuntimeVerifiableOpInterfaceExternalModels(registry);
  context->appendDialectRegistry(registry);
  registerBuiltinDialectTranslation(*context);
  registerLLVMDialectTranslation(*context);
  OwningOpRef<ModuleOp> lowered(module.clone());
  SmallVector<std::string> procs;
  if (options.entries.empty())
    for (ProcOp proc : module.getOps<ProcOp>())
      procs.push_back(proc.getSymName().str());
  else
    for (StringRef name : keepReachable(*lowered, options.entries))
      procs.push_back(name.str());
  if (failed(lowerToLLVM(*lowered, options)))
    return llvm::createStringError("lowering the procs to LLVM failed");

  auto machine = createTargetMachine(options.cpu);
  if (!machine)
    return machine.takeError();
  auto transformer = makeOptimizingTransformer(options.optLevel,
                                               /*sizeLevel=*/0, machine->get());
  ExecutionEngineOptions engineOptions;
  engineOptions.transformer = transformer;
  engineOptions.jitCodeGenOptLevel =
      static_cast<llvm::CodeGenOptLevel>(std::min(options.optLevel, 3u));
  // Keeps the object code, whose undefined symbols are listed below.
  engineOptions.enableObjectDump = true;
  auto engine =
      ExecutionEngine::create(*lowered, engineOptions, std::move(*machine));
  if (!engine)
    return engine.takeError();
  std::unique_ptr<JitProgram> program(new JitProgram());
  program->engine = std::move(*engine);
  SmallVector<RunnerSymbol> runnerSymbols = getRunnerSymbols();
  program->engine->registerSymbols([&](llvm::orc::MangleAndInterner interner) {
    llvm::orc::SymbolMap symbols;
    for (const RunnerSymbol &symbol : runnerSymbols)
      symbols[interner(symbol.name)] = {
          llvm::orc::ExecutorAddr::fromPtr(symbol.address),
          llvm::JITSymbolFlags::Exported};
    return symbols;
  });
  // Compile everything now (the JIT materializes on first lookup), so that
  // compile and run times are told apart. The code is compiled before its
  // symbols are resolved: an unresolved one is reported by name and origin.
  llvm::Error lookupError = llvm::Error::success();
  for (const std::string &proc : procs)
    if (auto function = program->engine->lookupPacked("_mlir_ciface_" + proc);
        !function) {
      lookupError = function.takeError();
      break;
    }
  auto names = readUndefinedSymbols(*program->engine);
  if (!names)
    return llvm::joinErrors(std::move(lookupError), names.takeError());
  auto symbols = classifyHostSymbols(*names, runnerSymbols);
  if (!symbols)
    return llvm::joinErrors(symbols.takeError(), std::move(lookupError));
  if (lookupError)
    return std::move(lookupError);
  program->hostSymbols = std::move(*symbols);
  return program;
}

//===----------------------------------------------------------------------===//
// Running
//===----------------------------------------------------------------------===//

/// Calls `function` with packed `args`; returns the assertion message if
/// the compiled code failed one.
static std::optional<std::string> callTrapped(void (*function)(void **),
                                              void **args) {
  AssertTrap trap;
  activeTrap = &trap;
  // No object with a destructor lives between setjmp and the call.
  if (setjmp(trap.env) == 0) {
    function(args);
    activeTrap = nullptr;
    return std::nullopt;
  }
  activeTrap = nullptr;
  return trap.message;
}

/// Reports a failed assertion of the compiled code as an error at the
/// statement it checks. Upstream runtime verification writes
/// "ERROR: Runtime op verification failed\n^ WHAT\nLocation: LOC", the
/// lowering's own assertions "WHAT\nLocation: LOC"; the locations of inlined
/// instruction bodies are call-site locations, whose call sites become
/// notes.
static void reportAssertion(MLIRContext *context, StringRef message) {
  auto [what, where] = message.split("Location:");
  what = what.trim();
  if (what.consume_front("ERROR: Runtime op verification failed"))
    what = what.trim().ltrim("^").trim();
  SmallVector<Location> locations;
  llvm::Regex fileLineCol("\"([^\"]*)\":([0-9]+):([0-9]+)");
  SmallVector<StringRef> match;
  while (fileLineCol.match(where, &match)) {
    unsigned line = 0, column = 0;
    (void)match[2].getAsInteger(10, line);
    (void)match[3].getAsInteger(10, column);
    locations.push_back(FileLineColLoc::get(context, match[1], line, column));
    where = where.drop_front(match[0].end() - where.begin());
  }
  InFlightDiagnostic diagnostic =
      emitError(locations.empty() ? Location(UnknownLoc::get(context))
                                  : locations.front(),
                "the sequential meaning fails a run-time check: ")
      << what;
  for (Location call : llvm::drop_begin(locations))
    diagnostic.attachNote(call) << "in the instruction called here";
}

llvm::Error JitProgram::run(const BoundProc &proc,
                            ArrayRef<HostArray *> arrays) {
  std::string name = ("_mlir_ciface_" + proc.getProc().getSymName()).str();
  auto function = engine->lookupPacked(name);
  if (!function)
    return function.takeError();

  // One packed argument per parameter: a pointer to the index / i1 value,
  // or a pointer to a pointer to the memref descriptor {allocated, aligned,
  // offset, sizes..., strides...} of a dense row-major array.
  ArrayRef<ParamInfo> params = proc.getParams();
  SmallVector<int64_t> scalars(params.size());
  SmallVector<SmallVector<int64_t>> descriptors(params.size());
  SmallVector<void *> descriptorPointers(params.size());
  SmallVector<void *> args;
  for (auto [i, param] : llvm::enumerate(params)) {
    if (!param.isData()) {
      scalars[i] = proc.getValues()[i];
      args.push_back(&scalars[i]);
      continue;
    }
    if (i >= arrays.size() || !arrays[i])
      return llvm::createStringError("no array for %" + param.name);
    auto pointer = reinterpret_cast<int64_t>(arrays[i]->getData());
    SmallVector<int64_t> &descriptor = descriptors[i];
    descriptor = {pointer, pointer, 0};
    llvm::append_range(descriptor, param.shape);
    int64_t stride = 1;
    SmallVector<int64_t> strides(param.shape.size());
    for (int64_t d = static_cast<int64_t>(param.shape.size()) - 1; d >= 0;
         --d) {
      strides[d] = stride;
      stride *= param.shape[d];
    }
    llvm::append_range(descriptor, strides);
    descriptorPointers[i] = descriptor.data();
    args.push_back(&descriptorPointers[i]);
  }

  std::optional<std::string> failure;
  llvm::thread worker(std::optional<unsigned>(256u << 20),
                      [&] { failure = callTrapped(*function, args.data()); });
  worker.join();
  if (failure) {
    reportAssertion(proc.getProc().getContext(), *failure);
    std::string values = proc.formatValues();
    return llvm::createStringError("@" + proc.getProc().getSymName() +
                                   (values.empty() ? "" : " at " + values) +
                                   " failed a run-time check");
  }
  return llvm::Error::success();
}
