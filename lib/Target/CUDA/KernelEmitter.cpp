//===- KernelEmitter.cpp - device functions as CUDA kernels ---------------===//
//
// Part of ExoGPU (internal to the CUDA translation). See KernelEmitter.h.
//
//===----------------------------------------------------------------------===//

#include "KernelEmitter.h"
#include "ExoGPU/Analysis/BufferSharing.h"
#include "ExoGPU/Dialect/ExoGPU/IR/Scope.h"
#include "SyncValidation.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::exogpu;
using namespace mlir::exogpu::cuda;

bool KernelEmitter::inPath(Operation *op) const {
  return !currentPath || isInWarpPath(op, currentPath->group);
}

bool KernelEmitter::usedInPath(Value value) const {
  for (Operation *user : value.getUsers()) {
    if (auto view = dyn_cast<ViewLikeOpInterface>(user);
        view && usedInPath(view.getViewDest()))
      return true;
    if (isa<FreeOp>(user))
      continue;
    if (inPath(user))
      return true;
  }
  return false;
}

//===----------------------------------------------------------------------===//
// Kernel
//===----------------------------------------------------------------------===//

KernelEmitter::KernelEmitter(ProcState &state, CodeWriter &out,
                             DeviceFunctionOp deviceFunction, CollParams params,
                             const SyncPlan &syncPlan, SharedMemoryPlan &plan)
    : FunctionEmitter(state, out), deviceFunction(deviceFunction),
      params(params), syncPlan(syncPlan), plan(plan),
      mapper(*state.module.collective, params, deviceFunction.getContext()),
      taskLoops(getTaskNest(deviceFunction)) {}

/// The name of the task count of a tasks loop.
static std::string getTaskCountName(ProcState &state, ForOp loop) {
  return "exo_tasks_" + state.print(loop.getIterator());
}

LogicalResult KernelEmitter::emitPrologue() {
  out.line("const int exo_thread = threadIdx.x;");
  if (params.clusterDim > 1)
    out.line("const int exo_cta = exo::cluster_cta_rank();");
  if (plan.bytes > 0) {
    out.comment("Shared memory (" + std::to_string(plan.bytes) +
                " bytes per CTA), aligned to " +
                std::to_string(plan.alignment) + " bytes");
    out.line("extern __shared__ __align__(16) unsigned char exo_smem_raw[];");
    if (plan.alignment > 16)
      out.line("unsigned char *const exo_smem = exo_smem_raw + "
               "((" +
               std::to_string(plan.alignment) +
               " - exo::smem_address(exo_smem_raw) % " +
               std::to_string(plan.alignment) + ") % " +
               std::to_string(plan.alignment) + ");");
    else
      out.line("unsigned char *const exo_smem = exo_smem_raw;");
  }
  // mbarrier rings, initialized once.
  SmallVector<std::pair<Value, MbarrierRing>> rings(plan.rings.begin(),
                                                    plan.rings.end());
  llvm::sort(rings, [](auto &a, auto &b) {
    return a.second.offset < b.second.offset;
  });
  if (!rings.empty()) {
    out.comment("mbarrier rings of the queue barriers (guide \"Queue "
                "Barrier\"): arrive j on an element uses mbarrier j % depth "
                "of its ring, phase parity (j / depth) % 2");
    for (auto &[barrier, ring] : rings) {
      std::string name =
          state.names.bind(barrier, getPreferredName(barrier, "barrier"));
      out.line("uint64_t *const " + name +
               " = reinterpret_cast<uint64_t *>(exo_smem + " +
               std::to_string(ring.offset) + "); // " +
               std::to_string(ring.slices) + " element(s) x depth " +
               std::to_string(ring.depth) + ", " +
               std::to_string(ring.arriveCount) + " arrival(s) per phase");
    }
    out.open("if (exo_thread == 0)");
    for (auto &[barrier, ring] : rings)
      out.line(
          "for (int i = 0; i < " + std::to_string(ring.slices * ring.depth) +
          "; ++i) exo::mbarrier_init(&" + state.names.lookup(barrier).str() +
          "[i], " + std::to_string(ring.arriveCount) + ");");
    out.line("exo::fence_mbarrier_init();");
    out.close();
    out.line(params.clusterDim > 1 ? "exo::cluster_sync();"
                                   : "__syncthreads();");
  }
  // Task counts of the cuda_tasks nest.
  out.comment("The tasks: the iterations of the cuda_tasks nest");
  std::string total;
  for (ForOp loop : taskLoops) {
    for (Value operand : loop.getCtrl())
      for (ForOp outer : taskLoops)
        if (operand == outer.getIterator())
          return emitTranslationError(loop.getLoc())
                 << "the bounds of a cuda_tasks loop must not depend on an "
                    "enclosing cuda_tasks iterator";
    AffineExpr lo = state.space.lift(loop.getLowerBoundExpr(), loop.getCtrl());
    AffineExpr hi = state.space.lift(loop.getUpperBoundExpr(), loop.getCtrl());
    AffineExpr count = normalizeControlExpr(hi - lo);
    std::string text = state.print(count);
    if (!getRange(count, [&](unsigned d) {
           return state.getDimRange(d);
         }).isNonNegative())
      text = "max(" + text + ", 0)";
    std::string name = getTaskCountName(state, loop);
    // Bind the iterator now so the count name can use it.
    out.line("const int " + name + " = " + text + ";");
    total += (total.empty() ? "" : " * ") + name;
  }
  out.line("const int exo_tasks = " + total + ";");
  return success();
}

LogicalResult KernelEmitter::emitBody() {
  for (ForOp loop : taskLoops) {
    AffineExpr lo = state.space.lift(loop.getLowerBoundExpr(), loop.getCtrl());
    AffineExpr hi = state.space.lift(loop.getUpperBoundExpr(), loop.getCtrl());
    auto dimRange = [&](unsigned d) { return state.getDimRange(d); };
    IntRange hiRange = getRange(hi, dimRange);
    bindIterator(loop, {getRange(lo, dimRange).lo,
                        hiRange.hi ? std::optional<int64_t>(*hiRange.hi - 1)
                                   : std::nullopt});
  }
  if (failed(emitPrologue()))
    return failure();
  FailureOr<SmallVector<RegisterBranch>> branches =
      getRegisterBranches(deviceFunction);
  if (failed(branches))
    return failure();
  divergentPaths = branches->size() > 1 || branches->front().paths.size() > 1;
  if (failed(emitBranches(*branches)))
    return failure();
  if (params.clusterDim > 1) {
    out.comment("No CTA leaves while others of its cluster may still access "
                "its shared memory");
    out.line("exo::cluster_sync();");
  }
  return success();
}

LogicalResult KernelEmitter::emitBranches(ArrayRef<RegisterBranch> branches) {
  if (branches.size() == 1 && branches.front().paths.size() == 1 &&
      branches.front().dec == 0 && branches.front().inc == 0)
    return emitPath(branches.front().paths.front());
  out.line("const int exo_warp = __shfl_sync(0xffffffffu, exo_thread / 32, "
           "0);");
  auto emitChain = [&](auto items, auto firstOf, auto countOf,
                       auto describeItem, auto emitItem) -> LogicalResult {
    for (size_t i = 0; i < items.size(); ++i) {
      int64_t end = firstOf(items[i]) + countOf(items[i]);
      std::string head =
          i == 0 ? "if (exo_warp < " + std::to_string(end) + ")"
                 : "} else if (exo_warp < " + std::to_string(end) + ")";
      if (i + 1 == items.size() && i > 0)
        head = "} else";
      if (i == 0)
        out.open(head);
      else {
        out.setIndent(out.getIndent() - 1);
        out.line(head + " {");
        out.setIndent(out.getIndent() + 1);
      }
      out.comment(describeItem(items[i]));
      if (failed(emitItem(items[i])))
        return failure();
    }
    out.close();
    return success();
  };
  auto warpsText = [](int64_t first, int64_t count) {
    return count == 1 ? "warp " + std::to_string(first)
                      : "warps " + std::to_string(first) + "-" +
                            std::to_string(first + count - 1);
  };
  auto emitPaths = [&](const RegisterBranch &branch) -> LogicalResult {
    if (branch.dec)
      out.line("asm volatile(\"setmaxnreg.dec.sync.aligned.u32 " +
               std::to_string(branch.dec) + ";\");");
    if (branch.inc)
      out.line("asm volatile(\"setmaxnreg.inc.sync.aligned.u32 " +
               std::to_string(branch.inc) + ";\");");
    if (branch.paths.size() == 1)
      return emitPath(branch.paths.front());
    return emitChain(
        ArrayRef(branch.paths), [](const WarpPath &p) { return p.firstWarp; },
        [](const WarpPath &p) { return p.numWarps; },
        [&](const WarpPath &p) {
          return "warp group \"" + p.group +
                 "\": " + warpsText(p.firstWarp, p.numWarps);
        },
        [&](const WarpPath &p) { return emitPath(p); });
  };
  if (branches.size() == 1)
    return emitPaths(branches.front());
  return emitChain(
      branches, [](const RegisterBranch &b) { return b.firstWarp; },
      [](const RegisterBranch &b) { return b.numWarps; },
      [&](const RegisterBranch &b) {
        std::string groups;
        for (const WarpPath &p : b.paths)
          groups += (groups.empty() ? "\"" : ", \"") + p.group + "\"";
        std::string text = warpsText(b.firstWarp, b.numWarps) + ": " + groups;
        if (b.dec)
          text += ", " + std::to_string(b.dec) + " registers";
        if (b.inc)
          text += ", " + std::to_string(b.inc) + " registers";
        return text;
      },
      emitPaths);
}

std::string KernelEmitter::getCounter(Value barrier, bool arrive) {
  auto &counters = arrive ? arriveCounters : awaitCounters;
  auto it = counters.find(barrier);
  if (it != counters.end())
    return it->second;
  return "<no counter>";
}

LogicalResult KernelEmitter::emitPath(const WarpPath &path) {
  currentPath = &path;
  size_t mark = state.names.mark();
  mapper.setThreadRange(
      32 * path.firstWarp,
      std::min(32 * (path.firstWarp + path.numWarps), params.blockDim) - 1);
  arriveCounters.clear();
  awaitCounters.clear();
  // Per-thread counters of the queue barriers this path arrives at or
  // awaits; they run across barrier lifetimes (docs/cuda-translation.md).
  for (auto &[barrier, ring] : plan.rings) {
    (void)ring;
    bool arrives = false, awaits = false;
    for (Operation *user : barrier.getUsers()) {
      if (!inPath(user))
        continue;
      if (isa<ArriveOp>(user))
        arrives = true;
      if (auto await = dyn_cast<AwaitOp>(user))
        (await.getCountAttr().getInt() < 0 ? awaits : arrives) = true;
      if (isa<CallOp>(user))
        arrives = true;
    }
    std::string name = state.names.lookup(barrier).str();
    if (arrives)
      arriveCounters[barrier] = state.names.fresh(name + "_arrived");
    if (awaits)
      awaitCounters[barrier] = state.names.fresh(name + "_awaited");
  }
  SmallVector<std::pair<Value, std::string>> counters;
  for (auto *map : {&arriveCounters, &awaitCounters})
    for (auto &[barrier, name] : *map)
      counters.push_back({barrier, name});
  llvm::sort(counters, [](auto &a, auto &b) { return a.second < b.second; });
  for (auto &[barrier, name] : counters)
    out.line("unsigned " + name + " = 0;");
  // The task generator: tasks in lexicographic order, round-robin over the
  // clusters of the persistent grid.
  std::string cluster =
      params.clusterDim > 1 ? " / " + std::to_string(params.clusterDim) : "";
  out.open("for (int exo_task = blockIdx.x" + cluster +
           "; exo_task < exo_tasks; exo_task += gridDim.x" + cluster + ")");
  // Task t has index (t / (c_{i+1} * ... * c_{n-1})) % c_i in loop i.
  SmallVector<std::pair<Value, std::string>> iterators;
  for (size_t i = 0; i < taskLoops.size(); ++i) {
    ForOp loop = taskLoops[i];
    SmallVector<std::string> inner;
    for (ForOp innerLoop : ArrayRef(taskLoops).drop_front(i + 1))
      inner.push_back(getTaskCountName(state, innerLoop));
    std::string index = "exo_task";
    if (inner.size() == 1)
      index += " / " + inner.front();
    else if (!inner.empty())
      index += " / (" + llvm::join(inner, " * ") + ")";
    if (i > 0)
      index += " % " + getTaskCountName(state, loop);
    std::string lo = state.print(loop.getLowerBoundExpr(), loop.getCtrl());
    if (lo != "0")
      index = lo + " + " + index;
    iterators.push_back({loop.getIterator(), index});
  }
  if (failed(emitScopeBody(taskLoops.back().getBody().front(), iterators)))
    return failure();
  out.close();
  state.names.release(mark);
  currentPath = nullptr;
  return success();
}

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

LogicalResult KernelEmitter::emitOp(Operation *op) {
  if (!inPath(op))
    return success();
  if (auto loop = dyn_cast<ForOp>(op)) {
    if (loop.getMode() == LoopMode::cuda_threads)
      return emitThreadsFor(loop);
    if (loop.getMode() == LoopMode::cuda_tasks)
      return emitInternalError(op->getLoc())
             << "cuda_tasks loops only form the nest of a device_function";
  }
  if (auto warps = dyn_cast<WarpsOp>(op))
    return emitWarps(warps);
  if (auto alloc = dyn_cast<AllocOp>(op))
    return emitAlloc(alloc);
  if (isa<FreeOp>(op))
    return success();
  if (auto fence = dyn_cast<FenceOp>(op))
    return emitFence(fence);
  if (auto arrive = dyn_cast<ArriveOp>(op))
    return emitArrive(arrive);
  if (auto await = dyn_cast<AwaitOp>(op))
    return emitAwait(await);
  return FunctionEmitter::emitOp(op);
}

LogicalResult KernelEmitter::checkSplitExtent(SplitOp split,
                                              AffineExpr remainder) {
  // Shared memory has constant extents: a remainder that is not one names
  // the extents of a global buffer, which are the host's values.
  bool hostValues = true;
  remainder.walk([&](AffineExpr expr) {
    if (auto dim = dyn_cast<AffineDimExpr>(expr))
      hostValues &= !deviceFunction.getBody().isAncestor(
          state.space.getValue(dim.getPosition()).getParentRegion());
  });
  if (!hostValues)
    return emitInternalError(split.getLoc())
           << "the extent of a split in a kernel depends on a value the "
              "kernel computes";
  splitRemainders.insert(remainder);
  return success();
}

LogicalResult KernelEmitter::emitThreadsFor(ForOp loop) {
  FailureOr<ThreadSelection> selection = mapper.mapLoop(loop);
  if (failed(selection))
    return failure();
  size_t mark = state.names.mark();
  bindIterator(loop, selection->range);
  out.comment(state.describe(loop));
  out.open(selection->guard.empty() ? "" : "if (" + selection->guard + ")");
  if (failed(emitScopeBody(loop.getBody().front(),
                           {{loop.getIterator(), selection->value}})))
    return failure();
  out.close();
  state.names.release(mark);
  return success();
}

LogicalResult KernelEmitter::emitWarps(WarpsOp warps) {
  out.comment(state.describe(warps));
  // A named block is its warp group's code path: the path itself selects
  // the warps, unless a range narrows them further.
  if (warps.getWarpName() && !warps.getLo() && !warps.getHi()) {
    out.open("");
  } else {
    FailureOr<ThreadSelection> selection = mapper.mapWarps(warps);
    if (failed(selection))
      return failure();
    out.open(selection->guard.empty() ? "" : "if (" + selection->guard + ")");
  }
  if (failed(emitBlock(warps.getBody().front())))
    return failure();
  out.close();
  return success();
}

LogicalResult KernelEmitter::emitAlloc(AllocOp alloc) {
  Value value = alloc.getResult();
  if (isa<BarrierType>(value.getType()))
    return success(); // rings are set up in the prologue; groups need none
  if (!usedInPath(value))
    return success();
  FailureOr<RootBuffer *> root = state.addRoot(value, alloc.getLoc());
  if (failed(root))
    return failure();
  RootBuffer &buffer = **root;
  std::string type = getCType(buffer.elementType);
  out.comment(state.describe(alloc));
  switch (buffer.storage) {
  case StorageKind::Shared: {
    auto it = plan.offsets.find(value);
    if (it == plan.offsets.end())
      return emitInternalError(alloc.getLoc())
             << "shared memory allocation was not placed";
    out.line(type + " *const " + buffer.name + " = reinterpret_cast<" + type +
             " *>(exo_smem + " + std::to_string(it->second) + ");");
    return success();
  }
  case StorageKind::Registers:
  case StorageKind::RegisterMatrix: {
    std::string decl = type + " " + buffer.name;
    for (int64_t extent : buffer.getShardShape())
      decl += "[" + std::to_string(extent) + "]";
    out.line(decl + ";");
    return success();
  }
  case StorageKind::Pointer:
    return emitInternalError(alloc.getLoc())
           << formatMemory(buffer.memory)
           << " is allocated from the CPU, not in a kernel";
  }
  return failure();
}

//===----------------------------------------------------------------------===//
// Kernel parameters and the kernel
//===----------------------------------------------------------------------===//

std::string
mlir::exogpu::cuda::getKernelParamDecl(ProcState &state, Value value,
                                       DeviceFunctionOp deviceFunction) {
  std::string name = state.names.lookup(value).str();
  auto tensorMap = state.tensorMaps.find(value);
  if (tensorMap != state.tensorMaps.end())
    return "const __grid_constant__ CUtensorMap " + name;
  if (value.getType().isInteger(1))
    return "bool " + name;
  if (value.getType().isIndex())
    return "int " + name;
  auto type = cast<BufferTypeInterface>(value.getType());
  bool readOnly = !mayWrite(deviceFunction, value);
  return std::string(readOnly ? "const " : "") +
         getCType(type.getElementType()) + " *__restrict__ " + name;
}

FailureOr<KernelLaunch>
mlir::exogpu::cuda::emitKernel(ProcState &state,
                               DeviceFunctionOp deviceFunction, StringRef name,
                               raw_ostream &os) {
  std::optional<CollParams> params = state.module.collective->getParams(
      &deviceFunction.getBody().front().front());
  if (!params)
    return emitInternalError(deviceFunction.getLoc())
           << "the collective analysis gave this device_function no "
              "parameters";
  if (failed(checkKernelReadOnlyArguments(state, deviceFunction)))
    return failure();
  BufferSharingAnalysis sharing(deviceFunction, *state.module.collective);
  FailureOr<SyncPlan> syncPlan = SyncPlan::build(
      deviceFunction, *state.module.collective, sharing, *params);
  if (failed(syncPlan))
    return failure();
  FailureOr<SharedMemoryPlan> plan =
      planSharedMemory(deviceFunction, state, *params, *syncPlan);
  if (failed(plan))
    return failure();
  // The dynamic shared memory of one CTA, alignment slack included, must fit
  // the most a CTA can have (227 KiB on sm_90; sm_80's 163 KiB is refused by
  // the launch).
  constexpr int64_t kMostCtaSharedBytes = 227 * 1024;
  int64_t smemBytes = plan->bytes ? plan->bytes + plan->alignment : 0;
  if (smemBytes > kMostCtaSharedBytes)
    return emitTranslationError(deviceFunction.getLoc())
           << "the kernel needs " << smemBytes
           << " bytes of shared memory per CTA (its shared allocations and "
              "mbarrier rings, aligned), more than the "
           << kMostCtaSharedBytes << " bytes (227 KiB) a CTA can have";
  std::string body;
  llvm::raw_string_ostream bodyStream(body);
  CodeWriter bodyWriter(bodyStream);
  bodyWriter.setIndent(1);
  KernelLaunch launch;
  state.importScope = deviceFunction;
  state.imports.clear();
  state.printedExprs = &launch.controlExprs;
  KernelEmitter emitter(state, bodyWriter, deviceFunction, *params, *syncPlan,
                        *plan);
  LogicalResult result = emitter.emitBody();
  state.importScope = nullptr;
  state.printedExprs = nullptr;
  if (failed(result))
    return failure();
  // Translation validation: the lowered synchronization keeps every
  // ordering the synchronization check relies on (SyncValidation.h).
  if (state.module.options.validateSynchronization) {
    FailureOr<SmallVector<RegisterBranch>> branches =
        getRegisterBranches(deviceFunction);
    if (failed(branches) ||
        failed(validateSynchronization(deviceFunction, *state.module.collective,
                                       sharing, *params, *branches,
                                       emitter.getLoweredKernel(), *plan)))
      return failure();
  }

  launch.name = name.str();
  // Parameters: the proc's, in its order, then values of its host code.
  ValueRange procParams = state.proc.getBody().getArguments();
  for (Value param : procParams)
    if (state.imports.contains(param))
      launch.params.push_back(param);
  for (Value value : state.imports)
    if (!llvm::is_contained(procParams, value))
      launch.params.push_back(value);
  launch.collParams = *params;
  launch.smemBytes = smemBytes;
  launch.taskLoops.assign(emitter.getTaskLoops().begin(),
                          emitter.getTaskLoops().end());
  llvm::append_range(launch.splitRemainders, emitter.getSplitRemainders());

  CodeWriter out(os);
  out.comment(state.describe(deviceFunction));
  bool pinned = deviceFunction.getWarpConfigAttr() != nullptr;
  std::string bounds = "__launch_bounds__(" + std::to_string(params->blockDim) +
                       (pinned ? ", 1" : "") + ")";
  out.line("__global__ void " + bounds);
  std::string signature = launch.name + "(";
  for (auto [i, value] : llvm::enumerate(launch.params))
    signature +=
        (i ? ", " : "") + getKernelParamDecl(state, value, deviceFunction);
  out.line(signature + ") {");
  os << body;
  out.line("}");
  out.blank();
  return launch;
}
