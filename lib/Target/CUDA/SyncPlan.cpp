//===- SyncPlan.cpp - how a kernel's synchronization is lowered -----------===//
//
// Part of ExoGPU (internal to the CUDA translation). See SyncPlan.h.
//
//===----------------------------------------------------------------------===//

#include "SyncPlan.h"
#include "ExoGPU/Analysis/BufferSharing.h"
#include "KernelStructure.h"
#include "Timelines.h"
#include "Translation.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::exogpu;
using namespace mlir::exogpu::cuda;

int64_t mlir::exogpu::cuda::getIssuerThreads(ArriveIssuers issuers) {
  switch (issuers) {
  case ArriveIssuers::EveryThread:
    return 1;
  case ArriveIssuers::OnePerWarp:
    return 32;
  case ArriveIssuers::OnePerWarpgroup:
    return 128;
  }
  return 1;
}

/// The cuda_threads loops enclosing `op` inside its device function.
static SmallVector<ForOp> getEnclosingThreadLoops(Operation *op) {
  SmallVector<ForOp> loops;
  for (Operation *p = op->getParentOp(); p && !isa<DeviceFunctionOp>(p);
       p = p->getParentOp())
    if (auto loop = dyn_cast<ForOp>(p))
      if (loop.getMode() == LoopMode::cuda_threads)
        loops.push_back(loop);
  return loops;
}

FailureOr<SmallVector<ThreadSet>>
mlir::exogpu::cuda::getCollectiveInstances(const CollectiveAnalysis &collective,
                                           Operation *op) {
  SmallVector<ForOp> loops = getEnclosingThreadLoops(op);
  SmallVector<int64_t> counts;
  int64_t total = 1;
  for (ForOp loop : loops) {
    std::optional<IteratorInfo> info =
        collective.getIteratorInfo(loop.getIterator());
    counts.push_back(info ? std::max<int64_t>(info->tileCount, 1) : 1);
    total = std::min<int64_t>(total * counts.back(), int64_t(1) << 20);
  }
  // Tiles partition the threads, so a statement has at most as many
  // collectives as its cluster has threads (16 CTAs of 1024).
  if (total > int64_t(1) << 14)
    return emitInternalError(op->getLoc())
           << "more collectives execute this statement than a cluster has "
              "threads";
  SmallVector<ThreadSet> instances;
  SmallVector<int64_t> values(loops.size(), 0);
  while (true) {
    DenseMap<Value, int64_t> iteratorValues;
    for (auto [loop, v] : llvm::zip(loops, values))
      iteratorValues[loop.getIterator()] = v;
    std::string reason;
    FailureOr<ThreadSet> threads =
        collective.threadsOf(op, iteratorValues, &reason);
    if (failed(threads))
      return emitInternalError(op->getLoc())
             << "cannot evaluate the collective: " << reason;
    instances.push_back(*threads);
    unsigned i = 0;
    for (; i < values.size(); ++i) {
      if (++values[i] < counts[i])
        break;
      values[i] = 0;
    }
    if (i == values.size())
      break;
  }
  return instances;
}

bool SyncPlan::needsProxyFence(StringRef group, Operation *op) const {
  auto it = proxyFences.find(group);
  return it != proxyFences.end() && it->second.contains(op);
}

ArriveLowering SyncPlan::getArriveLowering(ArriveOp arrive) const {
  return arrives.lookup(arrive);
}

//===----------------------------------------------------------------------===//
// The dataflow
//===----------------------------------------------------------------------===//

namespace {

using AccessSet = llvm::SmallSetVector<Operation *, 8>;

/// The access statements that may still be pending at a program point of
/// one code path, for each question the plan answers.
struct PendingAccesses {
  /// Not yet ordered before a later arrive elected per warp (resp. per
  /// warpgroup): no rendezvous of whole warps (warpgroups) covering their
  /// threads has followed.
  AccessSet forWarp, forWarpgroup;
  /// Not yet ordered at cluster scope: no rendezvous of the whole cluster
  /// has followed.
  AccessSet forCluster;
  /// Generic-proxy shared-memory accesses that no `fence.proxy.async` of
  /// their threads has followed.
  AccessSet forProxy;

  /// Adds the accesses of `other`; whether any was new.
  bool join(const PendingAccesses &other) {
    bool changed = false;
    for (auto [mine, theirs] : {std::pair{&forWarp, &other.forWarp},
                                std::pair{&forWarpgroup, &other.forWarpgroup},
                                std::pair{&forCluster, &other.forCluster},
                                std::pair{&forProxy, &other.forProxy}})
      for (Operation *op : *theirs)
        changed |= mine->insert(op);
    return changed;
  }
};

/// What a statement's memory accesses are, for the plan.
struct StatementAccesses {
  /// It accesses memory other than registers outside wgmma: an access a
  /// thread makes on its own (a generic access, or an asynchronous copy it
  /// issues and completes itself), which only a rendezvous orders for
  /// other threads.
  bool byThread = false;
  /// It reads or writes shared memory through the generic proxy.
  bool genericShared = false;
};

} // namespace

/// The memory of a buffer value, if it is one.
static std::optional<MemoryAttr> getMemory(Value buffer) {
  if (auto type = dyn_cast<BufferTypeInterface>(buffer.getType()))
    return type.getMemory();
  return std::nullopt;
}

/// Registers are the thread's own; sync-exempt memories need no order.
static bool isSharedByThreads(MemoryAttr memory) {
  return !memory.isRmem() && !memory.isSyncExempt();
}

static StatementAccesses classifyAccesses(Operation *op) {
  StatementAccesses kind;
  auto addGeneric = [&](Value buffer) {
    std::optional<MemoryAttr> memory = getMemory(buffer);
    if (!memory || !isSharedByThreads(*memory))
      return;
    kind.byThread = true;
    kind.genericShared |= memory->isSmem();
  };
  if (isa<AssignOp, ReduceOp>(op)) {
    addGeneric(isa<AssignOp>(op) ? cast<AssignOp>(op).getDest()
                                 : cast<ReduceOp>(op).getDest());
    op->walk([&](ReadOp read) { addGeneric(read.getSource()); });
    return kind;
  }
  auto call = dyn_cast<CallOp>(op);
  if (!call)
    return kind;
  InstrOp instr = call.lookupInstr();
  if (!instr) {
    // Not an instruction (the translation rejects it later): assume the
    // worst.
    return {true, true};
  }
  unsigned data = 0;
  for (unsigned i = 0, e = instr.getNumParams(); i < e; ++i) {
    if (instr.getParamKind(i) != ParamKind::data)
      continue;
    Value arg = call.getDataArgs()[data++];
    std::optional<MemoryAttr> memory = getMemory(arg);
    if (!memory || !isSharedByThreads(*memory))
      continue;
    uint32_t timelines = getParamTimelines(instr, i);
    // A wgmma's shared-memory operands are read by the warpgroup's
    // collective operation; wgmma.wait_group completes it for every thread
    // of the warpgroup at once, and its reads are all that can be pending
    // (they only order overwrites, temporally).
    if ((timelines & ~kWgmmaTimelines) == 0)
      continue;
    kind.byThread = true;
    if (memory->isSmem() &&
        (timelines & getQualBit(QualTimeline::cuda_in_order_ram_qual)))
      kind.genericShared = true;
  }
  return kind;
}

/// Whether every thread set of `instances` is a union of whole aligned
/// groups of `unit` threads of a CTA of `blockDim` threads.
static bool isMadeOfWholeGroups(ArrayRef<ThreadSet> instances, int64_t unit,
                                int64_t blockDim) {
  if (blockDim % unit != 0)
    return false;
  return llvm::all_of(instances, [&](const ThreadSet &set) {
    return !set.empty() && llvm::all_of(set.getIntervals(), [&](auto range) {
      return range.lo % unit == 0 && (range.hi + 1) % unit == 0;
    });
  });
}

namespace mlir::exogpu::cuda {

/// Builds a SyncPlan: runs the dataflow on every code path.
class SyncPlanBuilder {
public:
  SyncPlanBuilder(DeviceFunctionOp kernel, const CollectiveAnalysis &collective,
                  CollParams params, SyncPlan &plan)
      : kernel(kernel), collective(collective), params(params), plan(plan),
        sharing(kernel, collective) {}

  LogicalResult run();

private:
  /// What the dataflow saw at an mbarrier arrive, over all paths.
  struct ArriveFacts {
    bool pendingForWarp = false;
    bool pendingForWarpgroup = false;
    bool pendingForCluster = false;
  };

  LogicalResult walkPath(StringRef group);
  LogicalResult walkBlock(Block &block, PendingAccesses &pending);
  LogicalResult walkOp(Operation *op, PendingAccesses &pending);
  LogicalResult walkSync(Operation *op, PendingAccesses &pending);
  /// Emits a proxy fence at `op` (for the path) if some generic shared
  /// access may be pending, and retires the accesses of `op`'s threads.
  LogicalResult fenceProxy(Operation *op, PendingAccesses &pending);
  /// Retires the accesses that rendezvous `op` orders.
  LogicalResult rendezvous(Operation *op, PendingAccesses &pending);
  FailureOr<ArrayRef<ThreadSet>> getInstances(Operation *op);
  FailureOr<const ThreadSet *> getThreads(Operation *op);
  /// Removes the accesses whose threads all lie in `covered`.
  LogicalResult retire(AccessSet &set, const ThreadSet &covered);
  /// Whether an access of `set` was made by a thread that does not issue
  /// the arrives of its group of `unit` threads (its first thread does):
  /// only such an access needs the group to meet before the arrive.
  FailureOr<bool> hasNonIssuerAccess(const AccessSet &set, int64_t unit);
  LogicalResult decideArrives();

  DeviceFunctionOp kernel;
  const CollectiveAnalysis &collective;
  CollParams params;
  SyncPlan &plan;
  BufferSharingAnalysis sharing;
  StringRef group;
  DenseMap<Operation *, SmallVector<ThreadSet>> instances;
  DenseMap<Operation *, ThreadSet> threads;
  DenseMap<Operation *, ArriveFacts> arriveFacts;
};

} // namespace mlir::exogpu::cuda

FailureOr<ArrayRef<ThreadSet>> SyncPlanBuilder::getInstances(Operation *op) {
  auto it = instances.find(op);
  if (it == instances.end()) {
    FailureOr<SmallVector<ThreadSet>> found =
        getCollectiveInstances(collective, op);
    if (failed(found))
      return failure();
    it = instances.try_emplace(op, std::move(*found)).first;
  }
  return ArrayRef<ThreadSet>(it->second);
}

FailureOr<const ThreadSet *> SyncPlanBuilder::getThreads(Operation *op) {
  auto it = threads.find(op);
  if (it == threads.end()) {
    FailureOr<ArrayRef<ThreadSet>> sets = getInstances(op);
    if (failed(sets))
      return failure();
    ThreadSet all;
    for (const ThreadSet &set : *sets)
      all = all.unite(set);
    it = threads.try_emplace(op, std::move(all)).first;
  }
  return &it->second;
}

LogicalResult SyncPlanBuilder::retire(AccessSet &set,
                                      const ThreadSet &covered) {
  SmallVector<Operation *> kept;
  for (Operation *access : set) {
    FailureOr<const ThreadSet *> accessThreads = getThreads(access);
    if (failed(accessThreads))
      return failure();
    if ((*accessThreads)->intersect(covered) != **accessThreads)
      kept.push_back(access);
  }
  set.clear();
  set.insert(kept.begin(), kept.end());
  return success();
}

FailureOr<bool> SyncPlanBuilder::hasNonIssuerAccess(const AccessSet &set,
                                                    int64_t unit) {
  for (Operation *access : set) {
    FailureOr<const ThreadSet *> threads = getThreads(access);
    if (failed(threads))
      return failure();
    for (const auto &range : (*threads)->getIntervals())
      if (range.lo != range.hi || range.lo % params.blockDim % unit != 0)
        return true;
  }
  return false;
}

LogicalResult SyncPlanBuilder::fenceProxy(Operation *op,
                                          PendingAccesses &pending) {
  if (pending.forProxy.empty())
    return success();
  plan.proxyFences[group].insert(op);
  FailureOr<const ThreadSet *> fencing = getThreads(op);
  if (failed(fencing))
    return failure();
  return retire(pending.forProxy, **fencing);
}

LogicalResult SyncPlanBuilder::rendezvous(Operation *op,
                                          PendingAccesses &pending) {
  FailureOr<ArrayRef<ThreadSet>> sets = getInstances(op);
  FailureOr<const ThreadSet *> all = getThreads(op);
  if (failed(sets) || failed(all))
    return failure();
  // An access is ordered before a later elected arrive when the rendezvous
  // covers its threads and every collective of the rendezvous is made of
  // whole issuer groups: whoever the access's thread met there, the
  // elected thread of that group met it too.
  for (auto [set, unit] : {std::pair{&pending.forWarp, int64_t(32)},
                           std::pair{&pending.forWarpgroup, int64_t(128)}})
    if (isMadeOfWholeGroups(*sets, unit, params.blockDim) &&
        failed(retire(*set, **all)))
      return failure();
  if ((*all)->size() == params.getNumThreads())
    pending.forCluster.clear();
  return success();
}

LogicalResult SyncPlanBuilder::walkSync(Operation *op,
                                        PendingAccesses &pending) {
  bool issuesAsync = plan.kernelIssuesAsyncProxy;
  if (auto fence = dyn_cast<FenceOp>(op)) {
    uint32_t preFull = exoam::getFullTimelines(fence.getPre());
    uint32_t postTemporal = exoam::getTemporalTimelines(fence.getPost());
    if (issuesAsync && ordersGenericBeforeAsyncProxy(preFull, postTemporal) &&
        failed(fenceProxy(op, pending)))
      return failure();
    if (fenceNeedsRendezvous(fence))
      return rendezvous(op, pending);
    return success();
  }
  if (auto arrive = dyn_cast<ArriveOp>(op)) {
    Value barrier = arrive.getBarriers().front();
    BarrierKind kind = cast<BarrierType>(barrier.getType()).getKind();
    if (kind != BarrierKind::CudaMbarrier &&
        kind != BarrierKind::CudaClusterSync)
      return success();
    if (kind == BarrierKind::CudaMbarrier) {
      FailureOr<bool> forWarp = hasNonIssuerAccess(pending.forWarp, 32);
      FailureOr<bool> forWarpgroup =
          hasNonIssuerAccess(pending.forWarpgroup, 128);
      if (failed(forWarp) || failed(forWarpgroup))
        return failure();
      ArriveFacts &facts = arriveFacts[op];
      facts.pendingForWarp |= *forWarp;
      facts.pendingForWarpgroup |= *forWarpgroup;
      facts.pendingForCluster |= !pending.forCluster.empty();
    }
    uint32_t preFull = exoam::getFullTimelines(arrive.getTimeline());
    if (issuesAsync &&
        ordersGenericBeforeAsyncProxy(preFull, getAwaitTimelines(barrier)))
      return fenceProxy(op, pending);
    return success();
  }
  // Awaits retire nothing: an mbarrier or commit-group await orders other
  // threads' accesses only for the awaiting thread, and a cluster-sync
  // await only those before the matching arrive.
  return success();
}

LogicalResult SyncPlanBuilder::walkOp(Operation *op, PendingAccesses &pending) {
  if (!isInWarpPath(op, group))
    return success();
  if (auto loop = dyn_cast<ForOp>(op)) {
    Block &body = loop.getBody().front();
    // Each thread runs its own iteration of a cuda_threads loop (or none):
    // the thread sets of the statements say who.
    if (loop.getMode() != LoopMode::seq)
      return walkBlock(body, pending);
    // A seq loop: iterate to the fixpoint of the state at the loop head.
    PendingAccesses head = pending, exits;
    while (true) {
      PendingAccesses state = head;
      if (failed(walkBlock(body, state)))
        return failure();
      exits.join(state);
      if (!head.join(state))
        break;
    }
    std::optional<int64_t> trips = loop.getConstantTripCount();
    if (!trips || *trips == 0)
      exits.join(pending);
    pending = std::move(exits);
    return success();
  }
  if (auto guard = dyn_cast<IfOp>(op)) {
    PendingAccesses taken = pending;
    if (failed(walkBlock(guard.getBody().front(), taken)))
      return failure();
    pending.join(taken);
    return success();
  }
  if (auto warps = dyn_cast<WarpsOp>(op))
    return walkBlock(warps.getBody().front(), pending);
  if (isa<FenceOp, ArriveOp, AwaitOp>(op))
    return walkSync(op, pending);
  // Only accesses to elements another thread (of another CTA, for the
  // scope) may touch need ordering for it (BufferSharing.h).
  StatementAccesses kind = classifyAccesses(op);
  BufferSharing shared =
      kind.byThread ? sharing.getStatementSharing(op) : BufferSharing::None;
  if (shared != BufferSharing::None) {
    pending.forWarp.insert(op);
    pending.forWarpgroup.insert(op);
  }
  if (shared == BufferSharing::AcrossCtas)
    pending.forCluster.insert(op);
  if (kind.genericShared)
    pending.forProxy.insert(op);
  return success();
}

LogicalResult SyncPlanBuilder::walkBlock(Block &block,
                                         PendingAccesses &pending) {
  for (Operation &op : block)
    if (failed(walkOp(&op, pending)))
      return failure();
  return success();
}

LogicalResult SyncPlanBuilder::walkPath(StringRef pathGroup) {
  group = pathGroup;
  // The body of the innermost cuda_tasks loop runs once per task, in a
  // loop: iterate to the fixpoint of the state at the start of a task.
  SmallVector<ForOp> nest = getTaskNest(kernel);
  Block *body =
      nest.empty() ? &kernel.getBody().front() : &nest.back().getBody().front();
  PendingAccesses head;
  while (true) {
    PendingAccesses state = head;
    if (failed(walkBlock(*body, state)))
      return failure();
    if (!head.join(state))
      return success();
  }
}

LogicalResult SyncPlanBuilder::decideArrives() {
  // The issuers of each barrier: the coarsest that every arrive on it
  // allows, so that all of them bring the same number of arrivals.
  DenseMap<Value, ArriveIssuers> barrierIssuers;
  SmallVector<ArriveOp> mbarrierArrives;
  kernel.walk([&](ArriveOp arrive) {
    if (cast<BarrierType>(arrive.getBarriers().front().getType()).getKind() ==
        BarrierKind::CudaMbarrier)
      mbarrierArrives.push_back(arrive);
  });
  for (ArriveOp arrive : mbarrierArrives) {
    Value barrier = arrive.getBarriers().front();
    FailureOr<ArrayRef<ThreadSet>> sets = getInstances(arrive);
    if (failed(sets))
      return failure();
    // TMA loads completing on the barrier expect their bytes through the
    // arrive of the thread that issued them: those arrives stay per thread.
    bool completesCopies = llvm::any_of(barrier.getUsers(), [&](Operation *u) {
      auto call = dyn_cast<CallOp>(u);
      return call && call.getBarrier() == barrier;
    });
    const ArriveFacts &facts = arriveFacts.lookup(arrive);
    ArriveIssuers allowed = ArriveIssuers::EveryThread;
    if (!completesCopies && isMadeOfWholeGroups(*sets, 32, params.blockDim)) {
      allowed = ArriveIssuers::OnePerWarp;
      if (!facts.pendingForWarpgroup &&
          isMadeOfWholeGroups(*sets, 128, params.blockDim))
        allowed = ArriveIssuers::OnePerWarpgroup;
    }
    auto [it, inserted] = barrierIssuers.try_emplace(barrier, allowed);
    if (!inserted && getIssuerThreads(allowed) < getIssuerThreads(it->second))
      it->second = allowed;
  }
  for (ArriveOp arrive : mbarrierArrives) {
    const ArriveFacts &facts = arriveFacts.lookup(arrive);
    ArriveLowering lowering;
    lowering.issuers = barrierIssuers.lookup(arrive.getBarriers().front());
    lowering.syncWarp =
        lowering.issuers == ArriveIssuers::OnePerWarp && facts.pendingForWarp;
    lowering.releaseCluster = facts.pendingForCluster;
    plan.arrives[arrive] = lowering;
  }
  return success();
}

LogicalResult SyncPlanBuilder::run() {
  // Async-proxy work anywhere in the kernel.
  kernel.walk([&](CallOp call) {
    plan.kernelIssuesAsyncProxy |=
        callUsesTimelines(call, kAsyncProxyTimelines);
  });
  FailureOr<SmallVector<RegisterBranch>> branches = getRegisterBranches(kernel);
  if (failed(branches))
    return failure();
  for (const RegisterBranch &branch : *branches)
    for (const WarpPath &path : branch.paths)
      if (failed(walkPath(path.group)))
        return failure();
  return decideArrives();
}

FailureOr<SyncPlan> SyncPlan::build(DeviceFunctionOp kernel,
                                    const CollectiveAnalysis &collective,
                                    CollParams params) {
  SyncPlan plan;
  SyncPlanBuilder builder(kernel, collective, params, plan);
  if (failed(builder.run()))
    return failure();
  return plan;
}
