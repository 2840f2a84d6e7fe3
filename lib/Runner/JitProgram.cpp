//===- JitProgram.cpp - run procs' sequential meaning on the CPU ----------===//
//
// Part of ExoGPU. See JitProgram.h.
//
//===----------------------------------------------------------------------===//

#include "ExoGPU/Runner/JitProgram.h"
#include "ExoGPU/Conversion/Passes.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/RuntimeOpVerification.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
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

void mlir::exogpu::runner::buildSequentialToLLVMPipeline(
    OpPassManager &pm, const JitOptions &options) {
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
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
  if (failed(lowerToLLVM(*lowered, options)))
    return llvm::createStringError("lowering the procs to LLVM failed");

  auto machineBuilder = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!machineBuilder)
    return machineBuilder.takeError();
  auto machine = machineBuilder->createTargetMachine();
  if (!machine)
    return machine.takeError();
  auto transformer = makeOptimizingTransformer(options.optLevel,
                                               /*sizeLevel=*/0, machine->get());
  ExecutionEngineOptions engineOptions;
  engineOptions.transformer = transformer;
  engineOptions.jitCodeGenOptLevel =
      static_cast<llvm::CodeGenOptLevel>(std::min(options.optLevel, 3u));
  auto engine =
      ExecutionEngine::create(*lowered, engineOptions, std::move(*machine));
  if (!engine)
    return engine.takeError();
  std::unique_ptr<JitProgram> program(new JitProgram());
  program->engine = std::move(*engine);
  // Lowered `cf.assert` prints with `puts` and calls `abort`: both go to the
  // runner's trap (see run).
  program->engine->registerSymbols([](llvm::orc::MangleAndInterner interner) {
    llvm::orc::SymbolMap symbols;
    symbols[interner("puts")] = {llvm::orc::ExecutorAddr::fromPtr(&trapPuts),
                                 llvm::JITSymbolFlags::Exported};
    symbols[interner("abort")] = {llvm::orc::ExecutorAddr::fromPtr(&trapAbort),
                                  llvm::JITSymbolFlags::Exported};
    return symbols;
  });
  // Compile everything now (the JIT materializes on first lookup), so that
  // compile and run times are told apart.
  for (ProcOp proc : module.getOps<ProcOp>())
    if (auto function = program->engine->lookupPacked(
            ("_mlir_ciface_" + proc.getSymName()).str());
        !function)
      return function.takeError();
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
