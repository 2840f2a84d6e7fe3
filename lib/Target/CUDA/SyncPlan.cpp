//===- SyncPlan.cpp - how a kernel's synchronization is lowered -----------===//
//
// Part of ExoGPU (internal to the CUDA translation). See SyncPlan.h.
//
//===----------------------------------------------------------------------===//

#include "SyncPlan.h"
#include "ExoGPU/Analysis/BufferSharing.h"
#include "KernelStructure.h"
#include "LoweredSync.h"
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

/// Whether the `if` statements around `op` may let the collective with
/// cuda_threads iterators `iterators` execute it: false where a condition
/// over those iterators alone is false.
static bool mayExecute(Operation *op,
                       const DenseMap<Value, int64_t> &iterators) {
  for (Operation *p = op->getParentOp(); p && !isa<DeviceFunctionOp>(p);
       p = p->getParentOp()) {
    auto guard = dyn_cast<IfOp>(p);
    if (!guard)
      continue;
    SmallVector<int64_t> values;
    bool known = true;
    for (Value v : guard.getCtrl()) {
      auto it = iterators.find(v);
      known &= it != iterators.end();
      values.push_back(known ? it->second : 0);
    }
    if (known && !guard.getCondition().evaluate(values))
      return false;
  }
  return true;
}

FailureOr<SmallVector<CollectiveInstance>>
mlir::exogpu::cuda::enumerateCollectives(const CollectiveAnalysis &collective,
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
  SmallVector<CollectiveInstance> instances;
  SmallVector<int64_t> values(loops.size(), 0);
  while (true) {
    CollectiveInstance instance;
    for (auto [loop, v] : llvm::zip(loops, values))
      instance.iterators[loop.getIterator()] = v;
    std::string reason;
    FailureOr<ThreadSet> threads =
        collective.threadsOf(op, instance.iterators, &reason);
    if (failed(threads))
      return emitInternalError(op->getLoc())
             << "cannot evaluate the collective: " << reason;
    instance.threads = std::move(*threads);
    if (mayExecute(op, instance.iterators))
      instances.push_back(std::move(instance));
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

FailureOr<SmallVector<ThreadSet>>
mlir::exogpu::cuda::getCollectiveInstances(const CollectiveAnalysis &collective,
                                           Operation *op) {
  FailureOr<SmallVector<CollectiveInstance>> instances =
      enumerateCollectives(collective, op);
  if (failed(instances))
    return failure();
  return llvm::map_to_vector(*instances, [](CollectiveInstance &instance) {
    return instance.threads;
  });
}

bool SyncPlan::needsProxyFence(StringRef group, Operation *op) const {
  auto it = proxyFences.find(group);
  return it != proxyFences.end() && it->second.contains(op);
}

ArriveLowering SyncPlan::getArriveLowering(ArriveOp arrive) const {
  return arrives.lookup(arrive);
}

MbarrierScope SyncPlan::getAcquireScope(Value barrier) const {
  for (Operation *user : barrier.getUsers())
    if (auto arrive = dyn_cast<ArriveOp>(user))
      if (arrive.getBarriers().size() > 1 &&
          getArriveLowering(arrive).releaseCluster)
        return MbarrierScope::Cluster;
  return MbarrierScope::Cta;
}

//===----------------------------------------------------------------------===//
// The dataflow
//===----------------------------------------------------------------------===//

namespace {

/// Access statements and, per statement, the threads a fact holds for.
using Holders = llvm::MapVector<Operation *, ThreadSet>;

/// Adds `threads` to the holders of `access`; whether any was new.
static bool addHolders(Holders &map, Operation *access,
                       const ThreadSet &threads) {
  if (threads.empty())
    return false;
  ThreadSet &known = map[access];
  ThreadSet grown = known.unite(threads);
  bool changed = grown != known;
  known = std::move(grown);
  return changed;
}

/// Removes `threads` from every holder set; drops empty ones.
static void removeHolders(Holders &map, const ThreadSet &threads) {
  Holders kept;
  for (auto &[access, holders] : map) {
    ThreadSet rest = holders.subtract(threads);
    if (!rest.empty())
      kept[access] = std::move(rest);
  }
  map = std::move(kept);
}

/// The access statements whose holders meet `threads`.
static SmallVector<Operation *> getHeldBy(const Holders &map,
                                          const ThreadSet &threads) {
  SmallVector<Operation *> held;
  for (auto &[access, holders] : map)
    if (!holders.intersect(threads).empty())
      held.push_back(access);
  return held;
}

/// What an mbarrier's arrives hand to its awaits: the accesses the arriving
/// threads may see, those the first thread of an awaiting thread's warp
/// (warpgroup) may not have, those not yet visible to other CTAs, those
/// not fenced for the async proxy. A cluster barrier puts what the arrives
/// before it hand on in every thread's causality past.
struct HandedAccesses {
  llvm::SetVector<Operation *> seen, forIssuers, forCluster, forProxy;

  bool operator==(const HandedAccesses &other) const {
    return seen == other.seen && forIssuers == other.forIssuers &&
           forCluster == other.forCluster && forProxy == other.forProxy;
  }
  bool join(const HandedAccesses &other) {
    bool changed = false;
    for (auto [mine, theirs] : {std::pair{&seen, &other.seen},
                                std::pair{&forIssuers, &other.forIssuers},
                                std::pair{&forCluster, &other.forCluster},
                                std::pair{&forProxy, &other.forProxy}})
      for (Operation *access : *theirs)
        changed |= mine->insert(access);
    return changed;
  }
};

/// What the threads of the kernel may hold at a program point of its
/// sequential program, for each question the plan answers: per access
/// statement, the threads the fact may hold for; and what each mbarrier's
/// arrives so far hand on.
struct PendingAccesses {
  /// Accesses the threads may see: their own, and those an await handed
  /// them.
  Holders held;
  /// The thread may see the access while the first thread of its warp
  /// (warpgroup), which arrives for it when arrives are elected, may not:
  /// no barrier where they both met has followed.
  Holders forWarp, forWarpgroup;
  /// The thread may see the access while threads of other CTAs may not have
  /// it: no cluster barrier has followed.
  Holders forCluster;
  /// The thread may see a generic-proxy access to shared memory that no
  /// `fence.proxy.async` of its own has followed.
  Holders forProxy;
  /// What the arrives on each mbarrier hand on.
  DenseMap<Value, HandedAccesses> handed;

  /// Adds the facts of `other`; whether any was new.
  bool join(const PendingAccesses &other) {
    bool changed = false;
    for (auto [mine, theirs] :
         {std::pair{&held, &other.held}, std::pair{&forWarp, &other.forWarp},
          std::pair{&forWarpgroup, &other.forWarpgroup},
          std::pair{&forCluster, &other.forCluster},
          std::pair{&forProxy, &other.forProxy}})
      for (auto &[access, holders] : *theirs)
        changed |= addHolders(*mine, access, holders);
    for (auto &[barrier, accesses] : other.handed)
      changed |= handed[barrier].join(accesses);
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
  /// It reads or writes shared memory through the generic proxy (plain
  /// accesses, cp.async).
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
  for (auto [arg, i] :
       llvm::zip(call.getDataArgs(), instr.getDataParamIndices())) {
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
    if (memory->isSmem() && (timelines & kGenericProxyTimelines))
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

/// Builds a SyncPlan: runs the dataflow on every code path, until what the
/// mbarriers hand from path to path no longer grows.
class SyncPlanBuilder {
public:
  SyncPlanBuilder(DeviceFunctionOp kernel, const CollectiveAnalysis &collective,
                  BufferSharingAnalysis &sharing, CollParams params,
                  SyncPlan &plan)
      : kernel(kernel), collective(collective), params(params), plan(plan),
        sharing(sharing) {}

  LogicalResult run();

private:
  /// What the dataflow saw at an mbarrier arrive, over all paths.
  struct ArriveFacts {
    bool pendingForWarp = false;
    bool pendingForWarpgroup = false;
    bool pendingForCluster = false;
  };

  LogicalResult walkKernel();
  LogicalResult walkBlock(Block &block, PendingAccesses &pending);
  LogicalResult walkOp(Operation *op, PendingAccesses &pending);
  LogicalResult walkSync(Operation *op, PendingAccesses &pending);
  /// Emits a proxy fence at `op` in the code paths whose threads may hold a
  /// generic shared-memory access unfenced, and retires those accesses.
  LogicalResult fenceProxy(Operation *op, PendingAccesses &pending);
  /// Retires the accesses that rendezvous `op` orders.
  LogicalResult rendezvous(Operation *op, PendingAccesses &pending);
  /// Hands what the threads of an mbarrier arrive may see to the awaits.
  LogicalResult handOn(ArriveOp arrive, PendingAccesses &pending);
  /// Receives at an mbarrier await what the arrives handed on.
  LogicalResult receive(AwaitOp await, PendingAccesses &pending);
  FailureOr<ArrayRef<CollectiveInstance>> getInstances(Operation *op);
  FailureOr<const ThreadSet *> getThreads(Operation *op);
  /// Whether a thread of `threads` holding an access of `map` does not
  /// issue the arrives of its group of `unit` threads (its first thread
  /// does): only such a thread needs the group to meet before the arrive.
  bool hasNonIssuerHolder(const Holders &map, const ThreadSet &threads,
                          int64_t unit) const;
  LogicalResult decideArrives();

  DeviceFunctionOp kernel;
  const CollectiveAnalysis &collective;
  CollParams params;
  SyncPlan &plan;
  BufferSharingAnalysis &sharing;
  /// The code paths (warp groups) and their threads.
  SmallVector<std::pair<std::string, ThreadSet>> paths;
  CollectiveInstanceCache instances;
  DenseMap<Operation *, ThreadSet> threads;
  DenseMap<Operation *, ArriveFacts> arriveFacts;
};

} // namespace mlir::exogpu::cuda

FailureOr<ArrayRef<CollectiveInstance>>
CollectiveInstanceCache::get(const CollectiveAnalysis &collective,
                             Operation *op) {
  auto it = instances.find(op);
  if (it == instances.end()) {
    FailureOr<SmallVector<CollectiveInstance>> found =
        enumerateCollectives(collective, op);
    if (failed(found))
      return failure();
    it = instances.try_emplace(op, std::move(*found)).first;
  }
  return ArrayRef<CollectiveInstance>(it->second);
}

FailureOr<ArrayRef<CollectiveInstance>>
SyncPlanBuilder::getInstances(Operation *op) {
  return instances.get(collective, op);
}

FailureOr<const ThreadSet *> SyncPlanBuilder::getThreads(Operation *op) {
  auto it = threads.find(op);
  if (it == threads.end()) {
    FailureOr<ArrayRef<CollectiveInstance>> sets = getInstances(op);
    if (failed(sets))
      return failure();
    ThreadSet all;
    for (const CollectiveInstance &set : *sets)
      all = all.unite(set.threads);
    it = threads.try_emplace(op, std::move(all)).first;
  }
  return &it->second;
}

bool SyncPlanBuilder::hasNonIssuerHolder(const Holders &map,
                                         const ThreadSet &arriving,
                                         int64_t unit) const {
  for (auto &[access, holders] : map) {
    ThreadSet arrivingHolders = holders.intersect(arriving);
    for (const auto &range : arrivingHolders.getIntervals())
      if (range.lo != range.hi || range.lo % params.blockDim % unit != 0)
        return true;
  }
  return false;
}

LogicalResult SyncPlanBuilder::fenceProxy(Operation *op,
                                          PendingAccesses &pending) {
  FailureOr<const ThreadSet *> fencing = getThreads(op);
  if (failed(fencing))
    return failure();
  for (auto &[group, pathThreads] : paths)
    if (!getHeldBy(pending.forProxy, (*fencing)->intersect(pathThreads))
             .empty())
      plan.proxyFences[group].insert(op);
  removeHolders(pending.forProxy, **fencing);
  return success();
}

LogicalResult SyncPlanBuilder::rendezvous(Operation *op,
                                          PendingAccesses &pending) {
  FailureOr<ArrayRef<CollectiveInstance>> found = getInstances(op);
  FailureOr<const ThreadSet *> all = getThreads(op);
  if (failed(found) || failed(all))
    return failure();
  SmallVector<ThreadSet> sets = llvm::map_to_vector(
      *found, [](const CollectiveInstance &i) { return i.threads; });
  // The barrier the Fence lowers to (the translation reports it when there
  // is none: nothing is retired then).
  std::string reason;
  FailureOr<Rendezvous> barrier = chooseRendezvous(sets, params, reason);
  if (failed(barrier))
    return success();
  // A thread that met the first thread of its warp (warpgroup) there handed
  // it every access it may see.
  for (auto [map, unit] : {std::pair{&pending.forWarp, int64_t(32)},
                           std::pair{&pending.forWarpgroup, int64_t(128)}}) {
    ThreadSet covered = barrier->getMeetingIssuer(**all, unit, params);
    removeHolders(*map, covered);
  }
  // Only the cluster barrier orders every thread's accesses for every thread
  // of the cluster, those the arrives before it hand on included.
  if (barrier->kind == RendezvousKind::ClusterBarrier) {
    pending.forCluster.clear();
    for (auto &[barrierValue, accesses] : pending.handed) {
      accesses.forIssuers.clear();
      accesses.forCluster.clear();
    }
  }
  return success();
}

LogicalResult SyncPlanBuilder::handOn(ArriveOp arrive,
                                      PendingAccesses &pending) {
  Value barrier = arrive.getBarriers().front();
  FailureOr<const ThreadSet *> arriving = getThreads(arrive);
  if (failed(arriving))
    return failure();
  HandedAccesses &out = pending.handed[barrier];
  for (Operation *access : getHeldBy(pending.held, **arriving)) {
    out.seen.insert(access);
    out.forIssuers.insert(access);
  }
  for (Operation *access : getHeldBy(pending.forCluster, **arriving))
    out.forCluster.insert(access);
  for (Operation *access : getHeldBy(pending.forProxy, **arriving))
    out.forProxy.insert(access);
  return success();
}

LogicalResult SyncPlanBuilder::receive(AwaitOp await,
                                       PendingAccesses &pending) {
  Value barrier = await.getBarrier();
  auto it = pending.handed.find(barrier);
  if (it == pending.handed.end())
    return success();
  HandedAccesses received = it->second;
  FailureOr<ArrayRef<CollectiveInstance>> found = getInstances(await);
  if (failed(found))
    return failure();
  for (const CollectiveInstance &instance : *found) {
    const ThreadSet &awaiting = instance.threads;
    // Where the first thread of a warp (warpgroup) awaited with the thread,
    // it received the same; otherwise the thread may see what it does not.
    ThreadSet alone[2];
    const int64_t units[2] = {32, 128};
    for (auto [g, unit] : llvm::enumerate(units)) {
      SmallVector<ThreadSet::Interval> runs;
      for (ThreadSet::Interval range : awaiting.getIntervals())
        for (int64_t t = range.lo; t <= range.hi; ++t) {
          int64_t base = t - t % params.blockDim;
          if (!awaiting.contains(base + (t - base) / unit * unit))
            runs.push_back({t, t});
        }
      alone[g] = ThreadSet::fromIntervals(runs);
    }
    for (Operation *access : received.seen)
      addHolders(pending.held, access, awaiting);
    for (Operation *access : received.forIssuers) {
      addHolders(pending.forWarp, access, alone[0]);
      addHolders(pending.forWarpgroup, access, alone[1]);
    }
    // What completes on this barrier (TMA loads) is complete and visible
    // to the awaiting threads' proxies once the phase completes.
    for (Operation *access : received.forCluster) {
      auto call = dyn_cast<CallOp>(access);
      if (!call || call.getBarrier() != barrier)
        addHolders(pending.forCluster, access, awaiting);
    }
    for (Operation *access : received.forProxy)
      addHolders(pending.forProxy, access, awaiting);
  }
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
    FailureOr<const ThreadSet *> arriving = getThreads(op);
    if (failed(arriving))
      return failure();
    if (kind == BarrierKind::CudaMbarrier) {
      ArriveFacts &facts = arriveFacts[op];
      facts.pendingForWarp |=
          hasNonIssuerHolder(pending.forWarp, **arriving, 32);
      facts.pendingForWarpgroup |=
          hasNonIssuerHolder(pending.forWarpgroup, **arriving, 128);
      facts.pendingForCluster |=
          !getHeldBy(pending.forCluster, **arriving).empty();
    }
    uint32_t preFull = exoam::getFullTimelines(arrive.getTimeline());
    if (issuesAsync &&
        ordersGenericBeforeAsyncProxy(preFull, getAwaitTimelines(barrier)) &&
        failed(fenceProxy(op, pending)))
      return failure();
    if (kind == BarrierKind::CudaMbarrier)
      return handOn(arrive, pending);
    return success();
  }
  // An mbarrier await hands the awaiting threads what the arrives' threads
  // may see. A commit-group await orders only the thread's own work, and a
  // cluster-sync await what every thread saw at the arrive, for all.
  auto await = cast<AwaitOp>(op);
  if (cast<BarrierType>(await.getBarrier().getType()).getKind() ==
      BarrierKind::CudaMbarrier)
    return receive(await, pending);
  return success();
}

LogicalResult SyncPlanBuilder::walkOp(Operation *op, PendingAccesses &pending) {
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
  if (shared == BufferSharing::None && !kind.genericShared)
    return success();
  FailureOr<const ThreadSet *> makers = getThreads(op);
  if (failed(makers))
    return failure();
  if (shared != BufferSharing::None) {
    addHolders(pending.held, op, **makers);
    addHolders(pending.forWarp, op, **makers);
    addHolders(pending.forWarpgroup, op, **makers);
  }
  if (shared == BufferSharing::AcrossCtas)
    addHolders(pending.forCluster, op, **makers);
  if (kind.genericShared)
    addHolders(pending.forProxy, op, **makers);
  return success();
}

LogicalResult SyncPlanBuilder::walkBlock(Block &block,
                                         PendingAccesses &pending) {
  for (Operation &op : block)
    if (failed(walkOp(&op, pending)))
      return failure();
  return success();
}

LogicalResult SyncPlanBuilder::walkKernel() {
  // The body of the innermost cuda_tasks loop runs once per task, in a
  // loop: iterate to the fixpoint of the state at the start of a task. The
  // statements of every code path are walked in the order of the sequential
  // program, each applying to the threads that execute it.
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
    FailureOr<ArrayRef<CollectiveInstance>> found = getInstances(arrive);
    if (failed(found))
      return failure();
    SmallVector<ThreadSet> sets = llvm::map_to_vector(
        *found, [](const CollectiveInstance &i) { return i.threads; });
    // TMA loads completing on the barrier expect their bytes through the
    // arrive of the thread that issued them: those arrives stay per thread.
    bool completesCopies = llvm::any_of(barrier.getUsers(), [&](Operation *u) {
      auto call = dyn_cast<CallOp>(u);
      return call && call.getBarrier() == barrier;
    });
    const ArriveFacts &facts = arriveFacts.lookup(arrive);
    ArriveIssuers allowed = ArriveIssuers::EveryThread;
    if (!completesCopies && isMadeOfWholeGroups(sets, 32, params.blockDim)) {
      allowed = ArriveIssuers::OnePerWarp;
      if (!facts.pendingForWarpgroup &&
          isMadeOfWholeGroups(sets, 128, params.blockDim))
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
    for (const WarpPath &path : branch.paths) {
      ThreadSet pathThreads;
      for (int64_t cta = 0; cta < params.clusterDim; ++cta)
        pathThreads = pathThreads.unite(
            ThreadSet::range(cta * params.blockDim + path.firstWarp * 32,
                             std::min(cta * params.blockDim +
                                          (path.firstWarp + path.numWarps) * 32,
                                      (cta + 1) * params.blockDim) -
                                 1));
      paths.push_back({path.group, pathThreads});
    }
  if (failed(walkKernel()))
    return failure();
  return decideArrives();
}

FailureOr<SyncPlan> SyncPlan::build(DeviceFunctionOp kernel,
                                    const CollectiveAnalysis &collective,
                                    BufferSharingAnalysis &sharing,
                                    CollParams params) {
  SyncPlan plan;
  SyncPlanBuilder builder(kernel, collective, sharing, params, plan);
  if (failed(builder.run()))
    return failure();
  return plan;
}
