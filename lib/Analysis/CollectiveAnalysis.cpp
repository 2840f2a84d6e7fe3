//===- CollectiveAnalysis.cpp - which threads run each statement ---------===//
//
// Part of ExoGPU. Collective analysis of seeds/002 Sec. 4 over the exogpu
// dialect, with the static checks of Sec. 3.4 and the guide ("cuda_threads
// Loops", "Warp Specialization").
//
//===----------------------------------------------------------------------===//

#include "ExoGPU/Analysis/CollectiveAnalysis.h"

#include "ExoGPU/Dialect/ExoGPU/IR/ExoGPUOps.h"
#include "ExoGPU/Dialect/ExoGPU/IR/Scope.h"
#include "mlir/IR/Diagnostics.h"

using namespace mlir;
using namespace mlir::exogpu;

static std::string str(int64_t value) { return std::to_string(value); }

void mlir::exogpu::emitDiagnostics(ArrayRef<AnalysisDiagnostic> diagnostics) {
  for (const AnalysisDiagnostic &d : diagnostics) {
    InFlightDiagnostic diag = emitError(d.loc) << d.message;
    for (const auto &[loc, note] : d.notes)
      diag.attachNote(loc) << note;
  }
}

CollectiveAnalysis::CollectiveAnalysis(Operation *root) {
  root->walk([&](DeviceFunctionOp deviceFunction) {
    visitDeviceFunction(deviceFunction);
  });
}

const CollTiling *CollectiveAnalysis::addTiling(CollTiling tiling) {
  tilings.push_back(std::make_unique<CollTiling>(std::move(tiling)));
  return tilings.back().get();
}

const CollTiling *CollectiveAnalysis::addDerived(Operation *scope,
                                                 DerivedTiling derived) {
  // derive_omega appends its operator last to one dimension.
  if (derived.op) {
    ArrayRef<CollDim> dims = derived.tiling.getDims();
    for (unsigned m = 0; m < dims.size(); ++m) {
      if (dims[m].ops.empty())
        continue;
      const CollDimOp &last = dims[m].ops.back();
      if (last.iter == derived.op->iter &&
          last.isTiling == derived.op->isTiling &&
          last.linearOffset == derived.op->linearOffset &&
          last.linearBox == derived.op->linearBox) {
        scopeOperators[scope] = {m, unsigned(dims[m].ops.size() - 1)};
        break;
      }
    }
  }
  return addTiling(std::move(derived.tiling));
}

std::optional<std::pair<unsigned, unsigned>>
CollectiveAnalysis::getScopeOperator(Operation *scope) const {
  auto it = scopeOperators.find(scope);
  if (it == scopeOperators.end())
    return std::nullopt;
  return it->second;
}

void CollectiveAnalysis::error(Operation *op, std::string message) {
  diagnostics.push_back({op->getLoc(), std::move(message), {}});
}

//===----------------------------------------------------------------------===//
// Queries
//===----------------------------------------------------------------------===//

const CollTiling *CollectiveAnalysis::getTiling(Operation *op) const {
  for (Block *block = op->getBlock(); block;) {
    auto it = blockTilings.find(block);
    if (it != blockTilings.end())
      return it->second;
    Operation *parent = block->getParentOp();
    if (!parent || isa<DeviceFunctionOp>(parent))
      return nullptr;
    block = parent->getBlock();
  }
  return nullptr;
}

const CollTiling *CollectiveAnalysis::getBodyTiling(Operation *scope) const {
  if (scope->getNumRegions() == 0 || scope->getRegion(0).empty())
    return nullptr;
  auto it = blockTilings.find(&scope->getRegion(0).front());
  return it == blockTilings.end() ? nullptr : it->second;
}

std::optional<CollParams> CollectiveAnalysis::getParams(Operation *op) const {
  auto deviceFunction = dyn_cast<DeviceFunctionOp>(op);
  if (!deviceFunction)
    deviceFunction = getEnclosingDeviceFunction(op);
  if (!deviceFunction)
    return std::nullopt;
  auto it = deviceParams.find(deviceFunction);
  if (it == deviceParams.end())
    return std::nullopt;
  return it->second;
}

std::optional<IteratorInfo>
CollectiveAnalysis::getIteratorInfo(Value iterator) const {
  auto arg = dyn_cast<BlockArgument>(iterator);
  if (!arg)
    return std::nullopt;
  auto loop = dyn_cast_or_null<ForOp>(arg.getOwner()->getParentOp());
  if (!loop || loop.getMode() != LoopMode::cuda_threads ||
      loop.getIterator() != iterator)
    return std::nullopt;
  const CollTiling *parent = getTiling(loop);
  const CollTiling *body = getBodyTiling(loop);
  std::optional<int64_t> trips = loop.getConstantTripCount();
  if (!parent || !body || !trips)
    return std::nullopt;
  IteratorInfo info;
  info.parentTileThreads = parent->getTileThreads();
  info.tileThreads = body->getTileThreads();
  info.tileCount = *trips;
  if (const CollDimOp *op = body->findOp(iterator))
    info.threadPitch = op->threadPitch;
  info.bodyTiling = body;
  return info;
}

FailureOr<ThreadSet>
CollectiveAnalysis::threadsOf(Operation *op,
                              const DenseMap<Value, int64_t> &iteratorValues,
                              std::string *reason) const {
  std::string why;
  const CollTiling *tiling = getTiling(op);
  if (!tiling) {
    if (reason)
      *reason = "the operation has no collective tiling (CPU scope, or a "
                "scope whose tiling could not be derived)";
    return failure();
  }
  FailureOr<ThreadSet> threads = tiling->evaluate(
      [&](Value iter) -> std::optional<int64_t> {
        auto it = iteratorValues.find(iter);
        if (it == iteratorValues.end())
          return std::nullopt;
        return it->second;
      },
      why);
  if (failed(threads) && reason)
    *reason = why;
  return threads;
}

//===----------------------------------------------------------------------===//
// Forward dataflow over scopes (Sec. 4)
//===----------------------------------------------------------------------===//

void CollectiveAnalysis::visitDeviceFunction(Operation *op) {
  auto deviceFunction = cast<DeviceFunctionOp>(op);
  CollParams params{static_cast<int64_t>(deviceFunction.getClusterDim()),
                    deviceFunction.getThreadsPerBlock()};
  if (params.clusterDim < 1 || params.blockDim < 1) {
    error(op, "device_function has no threads");
    return;
  }
  deviceParams[op] = params;
  const CollTiling *top = addTiling(CollTiling::getTopLevel(params));
  for (Block &block : deviceFunction.getBody())
    visitBlock(block, top, params);
}

void CollectiveAnalysis::visitBlock(Block &block, const CollTiling *tiling,
                                    CollParams params) {
  blockTilings[&block] = tiling;
  for (Operation &op : block)
    visitOp(op, tiling, params);
}

void CollectiveAnalysis::visitOp(Operation &op, const CollTiling *tiling,
                                 CollParams params) {
  // Below a scope that failed, nothing is known (and nothing re-reported).
  const CollTiling *body = tiling;
  if (auto loop = dyn_cast<ForOp>(op)) {
    if (tiling && loop.getMode() == LoopMode::cuda_threads)
      body = deriveLoop(loop, *tiling, params);
  } else if (auto warps = dyn_cast<WarpsOp>(op)) {
    if (tiling)
      body = deriveWarps(warps, *tiling, params);
  } else if (isa<AssignOp, ReduceOp>(op)) {
    // A statement writes one element: one thread must execute it (guide,
    // "cuda_threads Loops": scalar reduce/writes use single threads only).
    if (tiling && tiling->getBoxThreads() > 1)
      error(&op, "scalar " +
                     std::string(isa<AssignOp>(op) ? "write" : "reduction") +
                     " executed by " + str(tiling->getBoxThreads()) +
                     " threads; assignments and reductions must be executed "
                     "by a single thread (use cuda_threads loops with unit = "
                     "cuda_thread)");
    return;
  } else if (isa<CallOp>(op)) {
    if (tiling)
      checkCall(&op, *tiling, params);
    return;
  } else if (isa<ArriveOp, AwaitOp>(op)) {
    if (tiling)
      checkClusterSync(&op, *tiling, params);
    return;
  }
  if (!isa<ForOp, IfOp, WarpsOp>(op))
    return;
  for (Region &region : op.getRegions())
    for (Block &block : region)
      visitBlock(block, body, params);
}

/// Threads of one unit that do not depend on the scope: the product of the
/// box coordinates that are not top.
static int64_t getFixedUnitThreads(const CollType &type) {
  int64_t threads = 1;
  for (int64_t b : type.getBox())
    if (b != kTop)
      threads *= b;
  return threads;
}

const CollTiling *CollectiveAnalysis::deriveLoop(Operation *op,
                                                 const CollTiling &tiling,
                                                 CollParams params) {
  auto loop = cast<ForOp>(op);
  CollUnitAttr unit = loop.getUnitAttr();
  auto lo = dyn_cast<AffineConstantExpr>(loop.getLowerBoundExpr());
  auto hi = dyn_cast<AffineConstantExpr>(loop.getUpperBoundExpr());
  if (!unit || !lo || !hi || lo.getValue() != 0 || hi.getValue() < 1) {
    error(op, "cuda_threads loops need a collective unit, lo = 0 and a "
              "positive constant hi");
    return nullptr;
  }
  std::string reason;
  FailureOr<CollType> type =
      typeUnit(unit, params, UnitTyping::Agnostic, reason);
  if (failed(type)) {
    error(op, "collective unit " + formatUnit(unit) +
                  " cannot be aligned with the threads of this "
                  "device_function: " +
                  reason);
    return nullptr;
  }
  DeriveError deriveError;
  FailureOr<DerivedTiling> derived = deriveTiling(
      tiling, *type, {loop.getIterator(), true, 0, hi.getValue()}, deriveError);
  if (succeeded(derived))
    return addDerived(op, std::move(*derived));
  // The guide's example: cuda_threads(0, 10, unit = 4 * cuda_thread) in a
  // warp asks for 10 x 4 = 40 > 32 threads. A unit too large for the scope
  // may also show up as a misalignment, so count threads too.
  int64_t unitThreads = getFixedUnitThreads(*type), asked;
  bool overflows = llvm::MulOverflow(hi.getValue(), unitThreads, asked);
  if (deriveError.kind == DeriveError::Kind::NotEnoughThreads || overflows ||
      asked > tiling.getBoxThreads()) {
    error(op, "cuda_threads loop asks for " + str(hi.getValue()) + " x " +
                  formatUnit(unit) + " = " +
                  (overflows ? std::string("more than 2^63") : str(asked)) +
                  " threads, more than the collective of its scope (" +
                  str(tiling.getBoxThreads()) +
                  " threads) provides: " + deriveError.message);
  } else {
    error(op, "collective unit " + formatUnit(unit) +
                  " cannot be aligned with the collective tiling of this "
                  "scope: " +
                  deriveError.message);
  }
  return nullptr;
}

/// Threads per CTA of the scope's collective.
static int64_t getThreadsPerCta(const CollTiling &tiling, int64_t blockDim) {
  CollTiling completed = tiling;
  std::string reason;
  // blockDim is a thread pitch of every tiling of the device function, so
  // this completion splits nothing that could fail.
  if (failed(completed.completeTo({blockDim}, reason)))
    return 0;
  int64_t threads = 1;
  for (const CollDim &d : completed.getDims())
    if (d.pitch < blockDim)
      threads *= d.getBoxCoord();
  return threads;
}

const CollTiling *CollectiveAnalysis::deriveWarps(Operation *op,
                                                  const CollTiling &tiling,
                                                  CollParams params) {
  auto warps = cast<WarpsOp>(op);
  auto deviceFunction = getEnclosingDeviceFunction(op);
  int64_t lo = warps.getLo().value_or(0);
  int64_t hi = warps.getHi().value_or(0);
  std::string what = "warps block";
  if (std::optional<StringRef> name = warps.getWarpName()) {
    // CudaWarps(name): the warps of that group in each CTA (guide, "Warp
    // Specialization"); a range selects within the group.
    WarpGroupAttr group = deviceFunction.lookupWarpGroup(*name);
    if (!group) {
      error(op, "names warp group '" + name->str() +
                    "', which the device_function's warp config does not "
                    "define");
      return nullptr;
    }
    what = "warps block \"" + name->str() + "\"";
    if (!warps.getHi())
      hi = group.getCount();
    if (lo < 0 || hi > group.getCount() || lo >= hi) {
      error(op, what + " selects warps [" + str(lo) + ", " + str(hi) +
                    ") outside the " + str(group.getCount()) +
                    " warp(s) of the group");
      return nullptr;
    }
    int64_t perCta = getThreadsPerCta(tiling, params.blockDim);
    if (perCta != params.blockDim) {
      error(op, what +
                    " must be at CTA or cluster scope, but the collective "
                    "of its scope has " +
                    str(perCta) + " thread(s) per CTA");
      return nullptr;
    }
    int64_t first = deviceFunction.getFirstWarpOf(*name);
    lo += first;
    hi += first;
  } else if (lo < 0 || lo >= hi) {
    error(op, "warps range [" + str(lo) + ", " + str(hi) + ") is empty");
    return nullptr;
  }
  std::string reason;
  CollUnitAttr warp =
      CollUnitAttr::get(op->getContext(), CollUnitKind::cuda_warp, 1, {});
  FailureOr<CollType> type =
      typeUnit(warp, params, UnitTyping::Agnostic, reason);
  if (failed(type)) {
    error(op, what + " needs whole warps: " + reason);
    return nullptr;
  }
  // Numbered warps are relative to the start of the current collective.
  DeriveError deriveError;
  FailureOr<DerivedTiling> derived =
      deriveTiling(tiling, *type, {Value(), false, lo, hi}, deriveError);
  if (succeeded(derived))
    return addDerived(op, std::move(*derived));
  if (deriveError.kind == DeriveError::Kind::NotEnoughThreads)
    error(op, what + " selects warps [" + str(lo) + ", " + str(hi) +
                  "), outside the collective of its scope (" +
                  str(tiling.getBoxThreads()) +
                  " threads): " + deriveError.message);
  else
    error(op, what +
                  " cannot be aligned with the collective tiling of its "
                  "scope: " +
                  deriveError.message);
  return nullptr;
}

/// Whether `op` arrives at or awaits a CudaClusterSync barrier.
static bool usesClusterSync(Operation *op) {
  auto isClusterSync = [](Value barrier) {
    return cast<BarrierType>(barrier.getType()).getKind() ==
           BarrierKind::CudaClusterSync;
  };
  if (auto arrive = dyn_cast<ArriveOp>(op))
    return llvm::any_of(arrive.getBarriers(), isClusterSync);
  return isClusterSync(cast<AwaitOp>(op).getBarrier());
}

void CollectiveAnalysis::checkClusterSync(Operation *op,
                                          const CollTiling &tiling,
                                          CollParams params) {
  // A cluster sync is barrier.cluster.arrive / wait, which every thread of
  // the cluster executes once per round. Written inside a cuda_threads loop
  // or a warps block, each iteration would be its own round in the
  // sequential program, while the hardware makes all iterations one.
  if (!usesClusterSync(op) || tiling.getBoxThreads() == params.getNumThreads())
    return;
  AnalysisDiagnostic diagnostic{
      op->getLoc(),
      std::string(isa<ArriveOp>(op) ? "an arrive at" : "an await of") +
          " a CudaClusterSync barrier (barrier.cluster." +
          (isa<ArriveOp>(op) ? "arrive" : "wait") + ") synchronizes all " +
          str(params.getNumThreads()) +
          " threads of the cluster, but this one is executed by " +
          str(tiling.getBoxThreads()) +
          " of them; write it at cluster scope, outside the cuda_threads "
          "loops and warps blocks",
      {}};
  for (Operation *parent = op->getParentOp();
       parent && !isa<DeviceFunctionOp>(parent);
       parent = parent->getParentOp()) {
    auto loop = dyn_cast<ForOp>(parent);
    if ((loop && loop.getMode() == LoopMode::cuda_threads) ||
        isa<WarpsOp>(parent)) {
      diagnostic.notes.push_back({parent->getLoc(),
                                  "the collective narrows to a part of the "
                                  "cluster here"});
      break;
    }
  }
  diagnostics.push_back(std::move(diagnostic));
}

void CollectiveAnalysis::checkCall(Operation *op, const CollTiling &tiling,
                                   CollParams params) {
  auto call = cast<CallOp>(op);
  InstrOp instr = call.lookupInstr();
  if (!instr || instr.getTarget() != InstrTarget::cuda)
    return;
  // Sec. 3.4: calls to g must only appear at tau_u-scope.
  CollUnitAttr unit = instr.getUnit();
  std::string reason;
  FailureOr<CollType> type =
      typeUnit(unit, params, UnitTyping::Unitary, reason);
  if (succeeded(type) &&
      succeeded(matchUnit(tiling, *type, /*useTile=*/false, reason)))
    return;
  error(op, "instruction @" + instr.getSymName().str() +
                " requires collective unit " + formatUnit(unit) +
                ", but the collective of this scope (" +
                str(tiling.getBoxThreads()) +
                " thread(s)) does not match it: " + reason);
}
