//===- SyncValidation.cpp - translation validation of synchronization -----===//
//
// Part of ExoGPU (internal to the CUDA translation). See SyncValidation.h and
// docs/cuda-translation.md "Validation".
//
//===----------------------------------------------------------------------===//

#include "SyncValidation.h"
#include "ExoGPU/Analysis/BufferAccesses.h"
#include "ExoGPU/Analysis/BufferSharing.h"
#include "ExoGPU/Dialect/ExoAM/IR/SyncTimelines.h"
#include "Timelines.h"
#include "Translation.h"
#include "llvm/ADT/DenseSet.h"

#include <map>

using namespace mlir;
using namespace mlir::exogpu;
using namespace mlir::exogpu::cuda;

//===----------------------------------------------------------------------===//
// Thread sets
//===----------------------------------------------------------------------===//

/// The threads of `set` for which `keep` holds.
static ThreadSet filter(const ThreadSet &set,
                        function_ref<bool(int64_t)> keep) {
  SmallVector<ThreadSet::Interval> kept;
  for (ThreadSet::Interval range : set.getIntervals())
    for (int64_t t = range.lo; t <= range.hi; ++t)
      if (keep(t))
        kept.push_back({t, t});
  return ThreadSet::fromIntervals(kept);
}

static bool isSubset(const ThreadSet &a, const ThreadSet &b) {
  return a.intersect(b) == a;
}

static bool meets(const ThreadSet &a, const ThreadSet &b) {
  return !a.intersect(b).empty();
}

/// The threads an elected arrive stands for: a warp, a warpgroup.
static constexpr int64_t kIssuerUnits[2] = {32, 128};

//===----------------------------------------------------------------------===//
// Tracked accesses and the facts about them
//===----------------------------------------------------------------------===//

namespace {

/// What completes an access, so that threads other than the one that
/// issued it (or its own later accesses of another kind) may be ordered
/// after it.
enum class Completion {
  /// An access the thread makes in order (loads, stores).
  InOrder,
  /// cp.async: its issuing thread's `cp.async.wait_*`.
  CpAsync,
  /// A bulk copy (TMA store): its issuing thread's
  /// `cp.async.bulk.wait_group`.
  BulkGroup,
  /// A wgmma's shared-memory operand: its warpgroup's `wgmma.wait_group`.
  Wgmma,
  /// A TMA load: the complete_tx of the mbarrier it arrives at.
  TmaLoad,
};

/// One access of a statement to memory that another thread may touch (one
/// of them writing, BufferSharing.h): what the validator tracks.
struct TrackedAccess {
  Operation *op = nullptr;
  std::string buffer;
  bool write = false;
  QualTimeline timeline = QualTimeline::cuda_in_order_ram_qual;
  bool outOfOrder = false;
  /// One record for the whole collective unit (wgmma's operands).
  bool convergent = false;
  Completion completion = Completion::InOrder;
  /// In the CTA's shared memory.
  bool shared = false;
  /// Made through the generic proxy (plain accesses and cp.async) to shared
  /// memory that the kernel also accesses through the async proxy (TMA,
  /// wgmma): async-proxy accesses need a proxy fence after it.
  bool beforeAsyncProxy = false;
  /// A thread of another CTA may touch an element.
  bool acrossCtas = false;
  /// Threads of other CTAs can only overwrite it, so they need it ordered,
  /// not visible: a read, or a write to shared memory (other CTAs reach a
  /// CTA's shared memory only through multicast copies, which write).
  bool orderSufficesAcrossCtas = false;
  /// TmaLoad: the call that completes on a barrier.
  CallOp call;
};

/// What the abstract machine may let threads see of one record: the
/// threads that may see it at unordered or above (the witnesses of Def.
/// B.3), and at temporally_ordered or above, per timeline mask.
struct Visibility {
  std::map<uint32_t, ThreadSet> unordered, ordered;

  bool operator==(const Visibility &other) const {
    return unordered == other.unordered && ordered == other.ordered;
  }
};

/// The facts about the records of one tracked access (of one commit
/// generation, for asynchronous ones): every set is of threads for which
/// the fact may hold.
struct RecordFacts {
  Visibility seen;
  /// The thread issued it and has not waited for it.
  ThreadSet inflight;
  /// The thread may see it while it may not be complete.
  ThreadSet incomplete;
  /// The thread may see it while a thread of another CTA may not have it
  /// in its causality past.
  ThreadSet notClusterVisible;
  /// The thread may see it (a generic-proxy access to shared memory) while
  /// it has it only for the generic proxy.
  ThreadSet proxyPending;
  /// The thread may see it while the first thread of its warp (0) or
  /// warpgroup (1) may not have it.
  ThreadSet unmerged[2];

  bool operator==(const RecordFacts &other) const {
    return seen == other.seen && inflight == other.inflight &&
           incomplete == other.incomplete &&
           notClusterVisible == other.notClusterVisible &&
           proxyPending == other.proxyPending &&
           unmerged[0] == other.unmerged[0] && unmerged[1] == other.unmerged[1];
  }
};

/// What an arrive hands to the awaits of a barrier element: per record,
/// which of the awaiting thread's facts it brings along.
struct ContentFlags {
  /// The first thread of an awaiting thread's warp (warpgroup) may not
  /// have the record (false once a cluster barrier put it in every
  /// thread's causality past).
  bool unmerged = false;
  bool notClusterVisible = false;
  bool proxyPending = false;
  bool incomplete = false;

  bool operator==(const ContentFlags &other) const {
    return unmerged == other.unmerged &&
           notClusterVisible == other.notClusterVisible &&
           proxyPending == other.proxyPending && incomplete == other.incomplete;
  }
};

using Content = std::map<unsigned, ContentFlags>;

/// The validator's state at a program point.
struct State {
  std::vector<RecordFacts> records;
  /// What an await on a barrier element in a CTA may receive, per (barrier,
  /// CTA); -1 for a cluster sync.
  std::map<std::pair<const void *, int64_t>, Content> contents;

  bool operator==(const State &other) const {
    return records == other.records && contents == other.contents;
  }
};

} // namespace

static void unite(std::map<uint32_t, ThreadSet> &into,
                  const std::map<uint32_t, ThreadSet> &from) {
  for (const auto &[mask, threads] : from)
    into[mask] = into[mask].unite(threads);
}

static void join(RecordFacts &into, const RecordFacts &from) {
  unite(into.seen.unordered, from.seen.unordered);
  unite(into.seen.ordered, from.seen.ordered);
  for (auto [mine, theirs] :
       {std::pair{&into.inflight, &from.inflight},
        std::pair{&into.incomplete, &from.incomplete},
        std::pair{&into.notClusterVisible, &from.notClusterVisible},
        std::pair{&into.proxyPending, &from.proxyPending},
        std::pair{&into.unmerged[0], &from.unmerged[0]},
        std::pair{&into.unmerged[1], &from.unmerged[1]}})
    *mine = mine->unite(*theirs);
}

/// Moves what `from` says about `threads` into `into` (a record that
/// changes generation for those threads).
static void moveFacts(RecordFacts &from, RecordFacts &into,
                      const ThreadSet &threads) {
  RecordFacts moved;
  for (auto [source, target] :
       {std::pair{&from.seen.unordered, &moved.seen.unordered},
        std::pair{&from.seen.ordered, &moved.seen.ordered}})
    for (auto &[mask, set] : *source) {
      (*target)[mask] = set.intersect(threads);
      set = set.subtract(threads);
    }
  for (auto [source, target] :
       {std::pair{&from.inflight, &moved.inflight},
        std::pair{&from.incomplete, &moved.incomplete},
        std::pair{&from.notClusterVisible, &moved.notClusterVisible},
        std::pair{&from.proxyPending, &moved.proxyPending},
        std::pair{&from.unmerged[0], &moved.unmerged[0]},
        std::pair{&from.unmerged[1], &moved.unmerged[1]}}) {
    *target = source->intersect(threads);
    *source = source->subtract(threads);
  }
  join(into, moved);
}

/// Joins `from` into `into`; whether anything changed.
static bool join(State &into, const State &from) {
  State before = into;
  for (auto [mine, theirs] : llvm::zip(into.records, from.records))
    join(mine, theirs);
  for (const auto &[key, content] : from.contents)
    for (const auto &[record, flags] : content) {
      ContentFlags &known = into.contents[key][record];
      known.unmerged |= flags.unmerged;
      known.notClusterVisible |= flags.notClusterVisible;
      known.proxyPending |= flags.proxyPending;
      known.incomplete |= flags.incomplete;
    }
  return !(before == into);
}

/// The threads of `visibility` that see a record on a timeline of `mask`,
/// at `ordered` level or above.
static ThreadSet getSeeing(const Visibility &visibility, uint32_t mask,
                           bool ordered) {
  ThreadSet threads;
  for (const auto &[timelines, set] :
       ordered ? visibility.ordered : visibility.unordered)
    if (timelines & mask)
      threads = threads.unite(set);
  return threads;
}

/// Augments the visibility of `threads` by a synchronization's second sync
/// timeline (Def. B.3 A): fully on its full set, temporally on the rest.
static void grant(Visibility &visibility, const ThreadSet &threads,
                  uint32_t postTemporal) {
  if (!postTemporal || threads.empty())
    return;
  visibility.unordered[postTemporal] =
      visibility.unordered[postTemporal].unite(threads);
  visibility.ordered[postTemporal] =
      visibility.ordered[postTemporal].unite(threads);
}

//===----------------------------------------------------------------------===//
// The validator
//===----------------------------------------------------------------------===//

namespace {

class Validator {
public:
  Validator(DeviceFunctionOp kernel, const CollectiveAnalysis &collective,
            const BufferSharingAnalysis &sharing, CollParams params,
            ArrayRef<RegisterBranch> branches, const LoweredKernel &lowered,
            const SharedMemoryPlan &plan)
      : kernel(kernel), collective(collective), sharing(sharing),
        params(params), lowered(lowered), plan(plan) {
    for (const RegisterBranch &branch : branches)
      for (const WarpPath &path : branch.paths)
        for (int64_t w = path.firstWarp; w < path.firstWarp + path.numWarps;
             ++w) {
          if (warpGroups.size() <= size_t(w))
            warpGroups.resize(w + 1);
          warpGroups[w] = path.group;
        }
  }

  LogicalResult run();

private:
  // Program structure.
  LogicalResult collectAccesses();
  void addAccess(Operation *op, Value buffer, bool write, QualTimeline timeline,
                 bool outOfOrder, bool convergent);
  FailureOr<ArrayRef<CollectiveInstance>> getInstances(Operation *op);
  int64_t getCta(int64_t thread) const { return thread / params.blockDim; }
  /// The first thread of the group of `unit` threads (32, 128) of `thread`.
  int64_t getIssuer(int64_t thread, int64_t unit) const {
    int64_t base = thread - thread % params.blockDim;
    return base + (thread - base) / unit * unit;
  }
  StringRef getGroup(int64_t thread) const;
  /// The lowering of `op` for each code path among `threads`, with the
  /// threads of the path.
  FailureOr<SmallVector<std::pair<const SyncLowering *, ThreadSet>>>
  getLowerings(Operation *op, const ThreadSet &threads);
  unsigned getKey(unsigned access, unsigned generation) const {
    return access * numGenerations + generation;
  }

  // The walk.
  LogicalResult walkBlock(Block &block, State &state);
  LogicalResult walkOp(Operation *op, State &state);
  LogicalResult visitAccess(Operation *op, State &state);
  LogicalResult visitFence(FenceOp fence, State &state);
  LogicalResult visitArrive(ArriveOp arrive, State &state);
  LogicalResult visitMbarrierArrive(ArriveOp arrive, State &state);
  LogicalResult visitAwait(AwaitOp await, State &state);
  LogicalResult visitCommit(ArriveOp arrive, State &state);
  LogicalResult visitCommitWait(AwaitOp await, State &state);

  // Shared rules.
  /// The threads of `threads` that witness `key` (Def. B.3 (i)) for a
  /// synchronization whose first sync timeline has full set `preFull`.
  ThreadSet getWitnesses(const State &state, unsigned key,
                         const ThreadSet &threads, uint32_t preFull,
                         bool transitive) const;
  LogicalResult applyWaits(Operation *op, const SyncWaits &waits,
                           const ThreadSet &threads, State &state);
  /// Checks what every synchronization needs of the records its witnesses
  /// hand on: complete, and fenced for the async proxy if `postTemporal`
  /// holds async-proxy timelines.
  LogicalResult checkHandedOn(Operation *op, const State &state, unsigned key,
                              const ThreadSet &witnesses,
                              uint32_t postTemporal);

  // Structural checks (once per statement).
  LogicalResult checkRendezvous(FenceOp fence, const Rendezvous &rendezvous);
  LogicalResult checkArriveTargets(ArriveOp arrive);
  LogicalResult checkWholeWarpgroups(Operation *op, const ThreadSet &threads,
                                     StringRef what);
  /// Whether every await on `barrier` acquires at cluster scope.
  bool awaitsAcquireCluster(Value barrier);

  // Diagnostics.
  LogicalResult fail(Operation *sync, unsigned key, int64_t thread,
                     const Twine &ordered, const Twine &missing);
  std::string describeThreads(const ThreadSet &threads) const;

  DeviceFunctionOp kernel;
  const CollectiveAnalysis &collective;
  const BufferSharingAnalysis &sharing;
  CollParams params;
  const LoweredKernel &lowered;
  const SharedMemoryPlan &plan;
  SmallVector<std::string> warpGroups;

  DenseSet<Value> asyncProxyRoots;
  std::vector<TrackedAccess> accesses;
  DenseMap<Operation *, SmallVector<unsigned>> accessesOf;
  /// Generations of asynchronous records: 0 = not committed, 1 + d = in
  /// the commit group d groups back (the last but one: that far or
  /// further), the last = complete. In-order records stay in generation 0.
  unsigned numGenerations = 3;
  unsigned getDone() const { return numGenerations - 1; }
  /// Completes the records of generations [from, done) of `completion` for
  /// `threads`: they move to the last generation, no longer in flight.
  void complete(State &state, Completion completion, unsigned from,
                const ThreadSet &threads);
  CollectiveInstanceCache instances;
  DenseSet<Operation *> checked;
  /// Named barrier ids in use: the threads of a CTA that meet at each (as
  /// thread indices in the CTA) and their count.
  std::map<int64_t, std::pair<ThreadSet, int64_t>> namedBarriers;
};

} // namespace

StringRef Validator::getGroup(int64_t thread) const {
  int64_t warp = thread % params.blockDim / 32;
  return size_t(warp) < warpGroups.size() ? StringRef(warpGroups[warp]) : "";
}

FailureOr<ArrayRef<CollectiveInstance>> Validator::getInstances(Operation *op) {
  return instances.get(collective, op);
}

FailureOr<SmallVector<std::pair<const SyncLowering *, ThreadSet>>>
Validator::getLowerings(Operation *op, const ThreadSet &threads) {
  llvm::StringMap<SmallVector<ThreadSet::Interval>> byGroup;
  for (ThreadSet::Interval range : threads.getIntervals())
    for (int64_t t = range.lo; t <= range.hi; ++t)
      byGroup[getGroup(t)].push_back({t, t});
  SmallVector<std::pair<const SyncLowering *, ThreadSet>> result;
  for (auto &[group, runs] : byGroup) {
    const SyncLowering *lowering = lowered.lookup(group, op);
    if (!lowering)
      return emitInternalError(op->getLoc())
             << "no lowering was recorded for this statement in the code "
                "path of warp group \""
             << group << "\"";
    result.push_back({lowering, ThreadSet::fromIntervals(runs)});
  }
  return result;
}

std::string Validator::describeThreads(const ThreadSet &threads) const {
  std::string text;
  llvm::raw_string_ostream os(text);
  ArrayRef<ThreadSet::Interval> runs = threads.getIntervals();
  auto print = [&](ThreadSet::Interval run) {
    os << (run.lo == run.hi
               ? std::to_string(run.lo)
               : std::to_string(run.lo) + "-" + std::to_string(run.hi));
  };
  os << "{";
  if (runs.size() <= 6) {
    llvm::interleaveComma(runs, os, print);
  } else {
    llvm::interleaveComma(runs.take_front(3), os, print);
    os << ", ..., ";
    print(runs.back());
  }
  os << "}";
  if (runs.size() > 1)
    os << " (" << threads.size() << " threads)";
  return text;
}

LogicalResult Validator::fail(Operation *sync, unsigned key, int64_t thread,
                              const Twine &ordered, const Twine &missing) {
  const TrackedAccess &access = accesses[key / numGenerations];
  InFlightDiagnostic diag =
      emitTranslationError(sync->getLoc())
      << "cannot justify the lowering of this synchronization: "
      << ordered.str() << " the " << (access.write ? "write of " : "read of ")
      << access.buffer << " (thread " << thread
      << " may see it) as the synchronization check relies on; missing: "
      << missing.str();
  diag.attachNote(access.op->getLoc())
      << "the " << (access.write ? "write" : "read") << " is here";
  return failure();
}

//===----------------------------------------------------------------------===//
// Tracked accesses
//===----------------------------------------------------------------------===//

/// The completion mechanism of an access on `timeline`.
static Completion getCompletion(QualTimeline timeline) {
  switch (timeline) {
  case QualTimeline::Sm80_cp_async_qual:
    return Completion::CpAsync;
  case QualTimeline::tma_to_gmem_async_qual:
    return Completion::BulkGroup;
  case QualTimeline::wgmma_async_smem_qual:
    return Completion::Wgmma;
  case QualTimeline::tma_to_smem_async_qual:
    return Completion::TmaLoad;
  default:
    return Completion::InOrder;
  }
}

void Validator::addAccess(Operation *op, Value buffer, bool write,
                          QualTimeline timeline, bool outOfOrder,
                          bool convergent) {
  auto type = dyn_cast<BufferTypeInterface>(buffer.getType());
  if (!type || type.getMemory().isRmem() || type.getMemory().isSyncExempt())
    return;
  FailureOr<exogpu::BufferView> view = exogpu::getBufferView(buffer);
  if (failed(view))
    return;
  BufferSharing shared = sharing.getSharing(view->root);
  if (shared == BufferSharing::None)
    return;
  TrackedAccess access;
  access.op = op;
  access.buffer = getBufferName(view->root);
  access.write = write;
  access.timeline = timeline;
  access.outOfOrder = outOfOrder;
  access.convergent = convergent;
  access.completion = getCompletion(timeline);
  access.shared = type.getMemory().isSmem();
  access.beforeAsyncProxy = access.shared &&
                            asyncProxyRoots.contains(view->root) &&
                            (timeline == QualTimeline::cuda_in_order_ram_qual ||
                             timeline == QualTimeline::Sm80_cp_async_qual);
  access.acrossCtas = shared == BufferSharing::AcrossCtas;
  access.orderSufficesAcrossCtas = !write || access.shared;
  if (access.completion == Completion::TmaLoad)
    access.call = dyn_cast<CallOp>(op);
  accessesOf[op].push_back(accesses.size());
  accesses.push_back(std::move(access));
}

LogicalResult Validator::collectAccesses() {
  // The buffers the kernel accesses through the async proxy.
  kernel.walk([&](CallOp call) {
    InstrOp instr = call.lookupInstr();
    if (!instr)
      return;
    for (auto [arg, i] :
         llvm::zip(call.getDataArgs(), instr.getDataParamIndices())) {
      FailureOr<exogpu::BufferView> view = exogpu::getBufferView(arg);
      if (succeeded(view) &&
          (getParamTimelines(instr, i) & kAsyncProxyTimelines))
        asyncProxyRoots.insert(view->root);
    }
  });
  int64_t deepest = 0;
  WalkResult walked = kernel.walk([&](Operation *op) {
    if (auto await = dyn_cast<AwaitOp>(op))
      if (cast<BarrierType>(await.getBarrier().getType()).getKind() ==
          BarrierKind::CudaCommitGroup)
        deepest = std::max(deepest, await.getCountAttr().getInt());
    if (isa<AssignOp, ReduceOp>(op)) {
      Value dest = isa<AssignOp>(op) ? cast<AssignOp>(op).getDest()
                                     : cast<ReduceOp>(op).getDest();
      op->walk([&](ReadOp read) {
        addAccess(op, read.getSource(), /*write=*/false,
                  QualTimeline::cuda_in_order_ram_qual, false, false);
      });
      addAccess(op, dest, /*write=*/true, QualTimeline::cuda_in_order_ram_qual,
                false, false);
      return WalkResult::advance();
    }
    auto call = dyn_cast<CallOp>(op);
    if (!call)
      return WalkResult::advance();
    InstrOp instr = call.lookupInstr();
    if (!instr) {
      emitTranslationError(call.getLoc())
          << "only instructions can be called inside a device function";
      return WalkResult::interrupt();
    }
    for (auto [arg, i] :
         llvm::zip(call.getDataArgs(), instr.getDataParamIndices())) {
      ArgSpecAttr spec = instr.getParamSpec(i);
      addAccess(op, arg, !isReadOnlyParam(instr, i),
                instr.getParamInitTimeline(i), spec.getOutOfOrder(),
                spec.getConvergent());
    }
    return WalkResult::advance();
  });
  numGenerations = 3 + deepest + 1;
  return failure(walked.wasInterrupted());
}

//===----------------------------------------------------------------------===//
// The walk
//===----------------------------------------------------------------------===//

LogicalResult Validator::run() {
  if (failed(collectAccesses()))
    return failure();
  SmallVector<ForOp> nest = getTaskNest(kernel);
  Block *body =
      nest.empty() ? &kernel.getBody().front() : &nest.back().getBody().front();
  // Tasks run one after the other in each cluster: iterate to the fixpoint
  // of the state at the start of a task.
  State head;
  head.records.resize(accesses.size() * numGenerations);
  while (true) {
    State state = head;
    if (failed(walkBlock(*body, state)))
      return failure();
    if (!join(head, state))
      return success();
  }
}

LogicalResult Validator::walkBlock(Block &block, State &state) {
  for (Operation &op : block)
    if (failed(walkOp(&op, state)))
      return failure();
  return success();
}

LogicalResult Validator::walkOp(Operation *op, State &state) {
  if (auto loop = dyn_cast<ForOp>(op)) {
    Block &body = loop.getBody().front();
    if (loop.getMode() != LoopMode::seq)
      return walkBlock(body, state);
    State head = state, exits = state;
    std::optional<int64_t> trips = loop.getConstantTripCount();
    bool runsOnce = trips && *trips > 0;
    bool first = true;
    while (true) {
      State iteration = head;
      if (failed(walkBlock(body, iteration)))
        return failure();
      if (first && runsOnce)
        exits = iteration;
      else
        join(exits, iteration);
      first = false;
      if (!join(head, iteration))
        break;
    }
    state = std::move(exits);
    return success();
  }
  if (auto guard = dyn_cast<IfOp>(op)) {
    State taken = state;
    if (failed(walkBlock(guard.getBody().front(), taken)))
      return failure();
    join(state, taken);
    return success();
  }
  if (auto warps = dyn_cast<WarpsOp>(op))
    return walkBlock(warps.getBody().front(), state);
  if (auto fence = dyn_cast<FenceOp>(op))
    return visitFence(fence, state);
  if (auto arrive = dyn_cast<ArriveOp>(op))
    return visitArrive(arrive, state);
  if (auto await = dyn_cast<AwaitOp>(op))
    return visitAwait(await, state);
  if (accessesOf.count(op))
    return visitAccess(op, state);
  return success();
}

/// A barrier element: the CTA that holds it and its slice within the CTA
/// (-1 where the slice depends on values other than cuda_threads
/// iterators).
using BarrierElement = std::pair<int64_t, int64_t>;

/// The elements a barrier window names, given the values of the enclosing
/// cuda_threads iterators; nullopt if a coordinate that selects CTAs
/// depends on other values.
static std::optional<SmallVector<BarrierElement>>
getWindowElements(const MbarrierRing &ring, ArrayRef<int32_t> kinds,
                  ArrayRef<AffineExpr> exprs, ValueRange ctrl,
                  const DenseMap<Value, int64_t> &iterators) {
  SmallVector<int64_t> values;
  SmallVector<bool> known;
  for (Value v : ctrl) {
    auto it = iterators.find(v);
    known.push_back(it != iterators.end());
    values.push_back(it != iterators.end() ? it->second : 0);
  }
  auto evaluate = [&](AffineExpr expr) -> std::optional<int64_t> {
    for (unsigned d = 0; d < known.size(); ++d)
      if (!known[d] && expr.isFunctionOfDim(d))
        return std::nullopt;
    return tryEvaluateControlExpr(expr, values);
  };
  SmallVector<BarrierElement> elements{{ring.ctaBase, 0}};
  unsigned next = 0;
  for (auto [d, kind] : llvm::enumerate(kinds)) {
    if (d >= ring.ctaStrides.size())
      break;
    auto coordKind = static_cast<CoordKind>(kind);
    unsigned arity = getCoordArity(coordKind);
    int64_t ctaStride = ring.ctaStrides[d], sliceStride = ring.sliceStrides[d];
    SmallVector<std::optional<int64_t>> indices;
    if (coordKind == CoordKind::Full) {
      for (int64_t i = 0; i < ring.extents[d]; ++i)
        indices.push_back(i);
    } else {
      std::optional<int64_t> lo = evaluate(exprs[next]);
      std::optional<int64_t> hi = coordKind == CoordKind::Interval
                                      ? evaluate(exprs[next + 1])
                                  : lo ? std::optional<int64_t>(*lo + 1)
                                       : std::nullopt;
      if (!lo || !hi) {
        if (ctaStride)
          return std::nullopt;
        indices.push_back(std::nullopt);
      } else {
        for (int64_t i = *lo; i < *hi; ++i)
          indices.push_back(i);
      }
    }
    next += arity;
    SmallVector<BarrierElement> grown;
    for (auto [cta, slice] : elements)
      for (std::optional<int64_t> index : indices) {
        if (!index) {
          grown.push_back({cta, -1});
          continue;
        }
        grown.push_back({cta + *index * ctaStride,
                         slice < 0 ? slice : slice + *index * sliceStride});
      }
    elements = std::move(grown);
  }
  return elements;
}

//===----------------------------------------------------------------------===//
// Shared rules
//===----------------------------------------------------------------------===//

ThreadSet Validator::getWitnesses(const State &state, unsigned key,
                                  const ThreadSet &threads, uint32_t preFull,
                                  bool transitive) const {
  const TrackedAccess &access = accesses[key / numGenerations];
  // A TMA load is witnessed only once an await of its barrier ordered it
  // (docs/abstract-machine.md decision (j)).
  bool ordered = access.completion == Completion::TmaLoad;
  uint32_t own = getQualBit(access.timeline);
  if (!transitive && !(preFull & own))
    return ThreadSet();
  uint32_t mask = transitive ? preFull : own;
  return getSeeing(state.records[key].seen, mask, ordered).intersect(threads);
}

LogicalResult Validator::checkWholeWarpgroups(Operation *op,
                                              const ThreadSet &threads,
                                              StringRef what) {
  for (ThreadSet::Interval range : threads.getIntervals())
    for (int64_t t = range.lo; t <= range.hi; t += 128) {
      int64_t first = getIssuer(t, 128);
      if (params.blockDim % 128 != 0 ||
          !isSubset(ThreadSet::range(first, first + 127), threads))
        return emitTranslationError(op->getLoc())
               << "cannot justify the lowering of this synchronization: "
               << what << " is executed by whole warpgroups (.sync.aligned), "
               << "but the threads " << describeThreads(threads)
               << " are not whole warpgroups";
    }
  return success();
}

void Validator::complete(State &state, Completion completion, unsigned from,
                         const ThreadSet &threads) {
  for (auto [index, access] : llvm::enumerate(accesses)) {
    if (access.completion != completion)
      continue;
    RecordFacts &done = state.records[getKey(index, getDone())];
    for (unsigned g = from; g < getDone(); ++g)
      moveFacts(state.records[getKey(index, g)], done, threads);
    done.inflight = done.inflight.subtract(threads);
    done.incomplete = done.incomplete.subtract(threads);
  }
}

LogicalResult Validator::applyWaits(Operation *op, const SyncWaits &waits,
                                    const ThreadSet &threads, State &state) {
  if ((waits.wgmmaWaitAll || waits.wgmmaCommit || waits.wgmmaFence) &&
      failed(checkWholeWarpgroups(op, threads, "wgmma.wait_group")))
    return failure();
  // cp.async.wait_all commits and waits; `wait_group 0` of bulk copies and
  // wgmma waits for the committed groups only.
  if (waits.cpAsyncWaitAll)
    complete(state, Completion::CpAsync, /*from=*/0, threads);
  if (waits.bulkWaitAll)
    complete(state, Completion::BulkGroup, /*from=*/waits.bulkCommit ? 0 : 1,
             threads);
  if (waits.wgmmaWaitAll)
    complete(state, Completion::Wgmma, /*from=*/waits.wgmmaCommit ? 0 : 1,
             threads);
  if (waits.proxyFence)
    for (RecordFacts &facts : state.records)
      facts.proxyPending = facts.proxyPending.subtract(threads);
  return success();
}

/// The instruction that completes an access of `completion`.
static StringRef getWaitName(Completion completion) {
  switch (completion) {
  case Completion::CpAsync:
    return "cp.async.wait_all (or cp.async.wait_group)";
  case Completion::BulkGroup:
    return "cp.async.bulk.wait_group";
  case Completion::Wgmma:
    return "wgmma.wait_group";
  case Completion::TmaLoad:
    return "an await of the TMA load's mbarrier";
  case Completion::InOrder:
    break;
  }
  return "a wait";
}

LogicalResult Validator::checkHandedOn(Operation *op, const State &state,
                                       unsigned key, const ThreadSet &witnesses,
                                       uint32_t postTemporal) {
  const TrackedAccess &access = accesses[key / numGenerations];
  const RecordFacts &facts = state.records[key];
  ThreadSet inflight = witnesses.intersect(facts.inflight);
  if (!inflight.empty())
    return fail(op, key, *inflight.getMin(),
                "it orders the asynchronous access before what follows, "
                "but the access may still be in flight:",
                getWaitName(access.completion) + Twine(" before it"));
  // Generic-proxy accesses to shared memory before async-proxy ones need a
  // proxy fence between them (PTX ISA "Proxies"): every thread that may
  // hold the access only for the generic proxy fences first.
  if ((postTemporal & kAsyncProxyTimelines) && access.beforeAsyncProxy) {
    ThreadSet unfenced = witnesses.intersect(facts.proxyPending);
    if (!unfenced.empty())
      return fail(op, key, *unfenced.getMin(),
                  "it orders a generic-proxy access to shared memory before "
                  "async-proxy accesses (TMA, wgmma):",
                  "fence.proxy.async by thread " + Twine(*unfenced.getMin()) +
                      " before it");
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

LogicalResult Validator::visitAccess(Operation *op, State &state) {
  FailureOr<ArrayRef<CollectiveInstance>> found = getInstances(op);
  if (failed(found))
    return failure();
  ThreadSet makers;
  for (const CollectiveInstance &instance : *found)
    makers = makers.unite(instance.threads);
  for (unsigned index : accessesOf.lookup(op)) {
    const TrackedAccess &access = accesses[index];
    if (access.completion == Completion::TmaLoad) {
      // Delivered to the awaits of the barrier elements the call completes
      // on (in each CTA a multicast writes), complete and visible to both
      // proxies once the phase completes.
      CallOp call = access.call;
      Value barrier = call ? call.getBarrier() : Value();
      auto ring = barrier ? plan.rings.find(barrier) : plan.rings.end();
      if (ring == plan.rings.end())
        return emitTranslationError(op->getLoc())
               << "cannot justify the lowering of this TMA load: it "
                  "completes on no CudaMbarrier";
      FailureOr<SmallVector<AccessView>> windows = splitAccesses(
          call, call.getCoordKinds(), call.getCoordCounts(), call.getCoords());
      if (failed(windows))
        return failure();
      for (const CollectiveInstance &instance : *found) {
        std::optional<SmallVector<BarrierElement>> elements = getWindowElements(
            ring->second, windows->back().kinds, windows->back().exprs,
            call.getCtrl(), instance.iterators);
        if (!elements)
          return emitTranslationError(op->getLoc())
                 << "cannot justify the lowering of this TMA load: the CTAs "
                    "whose barriers it completes on depend on values other "
                    "than cuda_threads iterators";
        for (BarrierElement element : *elements)
          state.contents[{barrier.getAsOpaquePointer(), element.first}]
                        [getKey(index, 0)];
      }
      continue;
    }
    bool async = access.completion != Completion::InOrder;
    RecordFacts &facts = state.records[getKey(index, 0)];
    uint32_t own = getQualBit(access.timeline);
    facts.seen.unordered[own] = facts.seen.unordered[own].unite(makers);
    if (!access.outOfOrder)
      facts.seen.ordered[own] = facts.seen.ordered[own].unite(makers);
    if (async)
      facts.inflight = facts.inflight.unite(makers);
    facts.incomplete = facts.incomplete.unite(makers);
    if (access.acrossCtas)
      facts.notClusterVisible = facts.notClusterVisible.unite(makers);
    if (access.beforeAsyncProxy)
      facts.proxyPending = facts.proxyPending.unite(makers);
    // A thread's own access is in its causality past; its issuer has it
    // only if it made it too: the same thread, or the unit of a convergent
    // access (one operation of the whole unit).
    for (auto [g, unit] : llvm::enumerate(kIssuerUnits)) {
      ThreadSet others;
      for (const CollectiveInstance &instance : *found)
        others = others.unite(filter(instance.threads, [&](int64_t t) {
          int64_t issuer = getIssuer(t, unit);
          return issuer != t &&
                 !(access.convergent && instance.threads.contains(issuer));
        }));
      facts.unmerged[g] = facts.unmerged[g].unite(others);
    }
  }
  return success();
}

LogicalResult Validator::checkRendezvous(FenceOp fence,
                                         const Rendezvous &rendezvous) {
  FailureOr<ArrayRef<CollectiveInstance>> found = getInstances(fence);
  if (failed(found))
    return failure();
  ThreadSet executing;
  for (const CollectiveInstance &instance : *found)
    executing = executing.unite(instance.threads);
  auto error = [&]() {
    return emitTranslationError(fence.getLoc())
           << "cannot justify the lowering of this Fence: ";
  };
  if (rendezvous.kind == RendezvousKind::ClusterBarrier &&
      executing != ThreadSet::range(0, params.getNumThreads() - 1))
    return error() << "the cluster barrier must be executed by every thread "
                      "of the cluster, but only threads "
                   << describeThreads(executing) << " execute it";
  // Each thread meets the threads of its barrier; the barrier must be
  // executed by all of them (else it hangs or is undefined), and it must
  // contain the thread's collective.
  DenseMap<int64_t, ThreadSet> namedParticipants;
  for (const CollectiveInstance &instance : *found) {
    for (ThreadSet::Interval range : instance.threads.getIntervals())
      for (int64_t t = range.lo; t <= range.hi; ++t) {
        ThreadSet participants;
        int64_t cta = getCta(t);
        if (rendezvous.kind == RendezvousKind::NamedBarrier) {
          int64_t id = rendezvous.getBarrierId(t - cta * params.blockDim);
          auto [it, inserted] =
              namedParticipants.try_emplace(cta * 16 + id, ThreadSet());
          if (inserted)
            it->second = rendezvous.getParticipants(t, executing, params);
          participants = it->second;
        } else {
          participants = rendezvous.getParticipants(t, executing, params);
        }
        if (!isSubset(participants, executing))
          return error() << "thread " << t << " waits at a barrier of threads "
                         << describeThreads(participants)
                         << ", but only threads " << describeThreads(executing)
                         << " execute this Fence (missing: a barrier of "
                            "exactly the threads that execute it)";
        if (!isSubset(instance.threads, participants))
          return error() << "the collective "
                         << describeThreads(instance.threads)
                         << " must meet, but thread " << t
                         << " meets only threads "
                         << describeThreads(participants)
                         << " (missing: a barrier that contains the whole "
                            "collective)";
        if (rendezvous.kind != RendezvousKind::NamedBarrier)
          continue;
        // Named barriers count whole warps; every use of an id must have the
        // same threads and count (PTX ISA "barrier").
        int64_t base = cta * params.blockDim;
        int64_t id = rendezvous.getBarrierId(t - base);
        int64_t warps = 0;
        for (ThreadSet::Interval run : participants.getIntervals()) {
          if ((run.lo - base) % 32 != 0 || (run.hi + 1 - base) % 32 != 0)
            return error() << "named barrier " << id << " is met by threads "
                           << describeThreads(participants)
                           << ", which are not whole warps";
          warps += (run.hi + 1 - run.lo) / 32;
        }
        if (warps * 32 != rendezvous.count)
          return error() << "named barrier " << id << " counts "
                         << rendezvous.count << " threads but " << warps * 32
                         << " meet at it";
        SmallVector<ThreadSet::Interval> local;
        for (ThreadSet::Interval run : participants.getIntervals())
          local.push_back({run.lo - base, run.hi - base});
        ThreadSet localSet = ThreadSet::fromIntervals(local);
        auto [known, inserted] = namedBarriers.try_emplace(
            id, std::make_pair(localSet, rendezvous.count));
        if (!inserted && (known->second.first != localSet ||
                          known->second.second != rendezvous.count))
          return error() << "named barrier " << id << " is used by threads "
                         << describeThreads(localSet) << " of a CTA with "
                         << rendezvous.count << " threads, and elsewhere by "
                         << describeThreads(known->second.first) << " with "
                         << known->second.second
                         << " (missing: a barrier id of its own for each set "
                            "of participating warps)";
      }
  }
  return success();
}

LogicalResult Validator::visitFence(FenceOp fence, State &state) {
  FailureOr<ArrayRef<CollectiveInstance>> found = getInstances(fence);
  if (failed(found))
    return failure();
  SyncTimeline pre = fence.getPre(), post = fence.getPost();
  uint32_t preFull = exoam::getFullTimelines(pre);
  uint32_t postTemporal = exoam::getTemporalTimelines(post);
  bool transitive = exoam::isTransitive(pre);
  // The barrier: the same in every code path that executes the Fence.
  std::optional<Rendezvous> rendezvous;
  for (const CollectiveInstance &instance : *found) {
    auto lowerings = getLowerings(fence, instance.threads);
    if (failed(lowerings))
      return failure();
    for (auto &[lowering, threads] : *lowerings) {
      const auto *fenceLowering = std::get_if<FenceLowering>(lowering);
      if (!fenceLowering)
        return emitInternalError(fence.getLoc())
               << "the lowering recorded for a Fence is not a Fence's";
      const Rendezvous &mine = fenceLowering->rendezvous;
      if (rendezvous &&
          (rendezvous->kind != mine.kind || rendezvous->lanes != mine.lanes ||
           rendezvous->idBase != mine.idBase ||
           rendezvous->count != mine.count))
        return emitTranslationError(fence.getLoc())
               << "cannot justify the lowering of this Fence: its code paths "
                  "meet at different barriers";
      rendezvous = mine;
    }
  }
  if (!rendezvous)
    return success();
  // A Fence between a thread's own registers (wgmma.fence) orders no access
  // the validator tracks.
  if (!fenceNeedsRendezvous(fence)) {
    for (const CollectiveInstance &instance : *found) {
      auto lowerings = getLowerings(fence, instance.threads);
      if (failed(lowerings))
        return failure();
      for (auto &[lowering, threads] : *lowerings)
        if (failed(applyWaits(fence, std::get<FenceLowering>(*lowering).waits,
                              threads, state)))
          return failure();
    }
    return success();
  }
  if (checked.insert(fence).second &&
      failed(checkRendezvous(fence, *rendezvous)))
    return failure();
  ThreadSet executing;
  for (const CollectiveInstance &instance : *found)
    executing = executing.unite(instance.threads);
  for (const CollectiveInstance &instance : *found) {
    auto lowerings = getLowerings(fence, instance.threads);
    if (failed(lowerings))
      return failure();
    for (auto &[lowering, threads] : *lowerings)
      if (failed(applyWaits(fence, std::get<FenceLowering>(*lowering).waits,
                            threads, state)))
        return failure();
    const ThreadSet &group = instance.threads;
    // The threads whose warp's (warpgroup's) first thread meets them.
    ThreadSet covered[2];
    for (unsigned g = 0; g < 2; ++g)
      covered[g] =
          rendezvous->getMeetingIssuer(executing, kIssuerUnits[g], params)
              .intersect(group);
    bool cluster = rendezvous->kind == RendezvousKind::ClusterBarrier;
    // What arrives before the cluster barrier hand on is in every thread's
    // causality past after it, complete.
    if (cluster)
      for (auto &[element, content] : state.contents)
        for (auto &[key, flags] : content)
          flags.unmerged = flags.notClusterVisible = flags.incomplete = false;
    SmallVector<ThreadSet> witnesses;
    for (unsigned key = 0; key < state.records.size(); ++key) {
      witnesses.push_back(getWitnesses(state, key, group, preFull, transitive));
      if (!witnesses.back().empty() &&
          failed(
              checkHandedOn(fence, state, key, witnesses.back(), postTemporal)))
        return failure();
    }
    for (unsigned key = 0; key < state.records.size(); ++key) {
      RecordFacts &facts = state.records[key];
      const ThreadSet &seeing = witnesses[key];
      // The meeting put every participant's causality past into each
      // thread's, the first thread of the warp (warpgroup) included where it
      // took part.
      for (unsigned g = 0; g < 2; ++g) {
        facts.unmerged[g] = facts.unmerged[g].subtract(covered[g]);
        if (!seeing.empty())
          facts.unmerged[g] =
              facts.unmerged[g].unite(group.subtract(covered[g]));
      }
      if (cluster) {
        facts.notClusterVisible = ThreadSet();
        facts.incomplete = ThreadSet();
      } else if (!seeing.empty()) {
        for (ThreadSet *set : {&facts.notClusterVisible, &facts.incomplete})
          if (meets(seeing, *set))
            *set = set->unite(group);
      }
      if (seeing.empty())
        continue;
      if (meets(seeing, facts.proxyPending))
        facts.proxyPending = facts.proxyPending.unite(group);
      grant(facts.seen, group, postTemporal);
    }
  }
  return success();
}

/// The commit-group completion an Arrive or Await on a commit group is
/// about.
static Completion getCommitCompletion(SyncTimeline timeline) {
  switch (timeline) {
  case SyncTimeline::Sm80_cp_async:
    return Completion::CpAsync;
  case SyncTimeline::wgmma_async:
    return Completion::Wgmma;
  case SyncTimeline::tma_to_gmem_async:
    return Completion::BulkGroup;
  default:
    return Completion::InOrder;
  }
}

LogicalResult Validator::visitArrive(ArriveOp arrive, State &state) {
  Value barrier = arrive.getBarriers().front();
  BarrierKind kind = cast<BarrierType>(barrier.getType()).getKind();
  if (kind == BarrierKind::CudaCommitGroup)
    return visitCommit(arrive, state);
  if (kind == BarrierKind::CudaMbarrier)
    return visitMbarrierArrive(arrive, state);
  if (kind != BarrierKind::CudaClusterSync)
    return success();
  // barrier.cluster.arrive.release by every thread of the cluster: what any
  // of them may see is handed to every thread at the wait.
  FailureOr<ArrayRef<CollectiveInstance>> found = getInstances(arrive);
  if (failed(found))
    return failure();
  uint32_t preFull = exoam::getFullTimelines(arrive.getTimeline());
  bool transitive = exoam::isTransitive(arrive.getTimeline());
  uint32_t postTemporal = getAwaitTimelines(barrier);
  for (const CollectiveInstance &instance : *found) {
    auto lowerings = getLowerings(arrive, instance.threads);
    if (failed(lowerings))
      return failure();
    for (auto &[lowering, threads] : *lowerings) {
      const auto *clusterArrive = std::get_if<ClusterArriveLowering>(lowering);
      if (!clusterArrive)
        return emitInternalError(arrive.getLoc())
               << "the lowering recorded for a cluster arrive is not one";
      if (failed(applyWaits(arrive, clusterArrive->waits, threads, state)))
        return failure();
    }
    Content &content = state.contents[{barrier.getAsOpaquePointer(), -1}];
    for (unsigned key = 0; key < state.records.size(); ++key) {
      ThreadSet seeing =
          getWitnesses(state, key, instance.threads, preFull, transitive);
      if (seeing.empty())
        continue;
      if (failed(checkHandedOn(arrive, state, key, seeing, postTemporal)))
        return failure();
      content[key].proxyPending |=
          meets(seeing, state.records[key].proxyPending);
    }
  }
  return success();
}

bool Validator::awaitsAcquireCluster(Value barrier) {
  for (Operation *user : barrier.getUsers()) {
    if (!isa<AwaitOp>(user))
      continue;
    for (const auto &path : lowered.paths) {
      const SyncLowering *lowering = lowered.lookup(path.getKey(), user);
      const auto *await =
          lowering ? std::get_if<MbarrierAwaitLowering>(lowering) : nullptr;
      if (await && await->scope != MbarrierScope::Cluster)
        return false;
    }
  }
  return true;
}

LogicalResult Validator::checkArriveTargets(ArriveOp arrive) {
  Value barrier = arrive.getBarriers().front();
  auto ring = plan.rings.find(barrier);
  if (ring == plan.rings.end())
    return emitInternalError(arrive.getLoc()) << "mbarrier without a ring";
  FailureOr<ArrayRef<CollectiveInstance>> found = getInstances(arrive);
  FailureOr<SmallVector<AccessView>> windows =
      splitAccesses(arrive, arrive.getCoordKinds(), arrive.getCoordCounts(),
                    arrive.getCoords());
  if (failed(found) || failed(windows))
    return failure();
  auto error = [&]() {
    return emitTranslationError(arrive.getLoc())
           << "cannot justify the lowering of this arrive: ";
  };
  // The arrivals each element gets from one execution of the statement.
  std::map<BarrierElement, int64_t> arrivals;
  for (const CollectiveInstance &instance : *found) {
    // The elements the abstract machine arrives at: those of the last
    // window (of the only one without multicast).
    std::optional<SmallVector<BarrierElement>> elements = getWindowElements(
        ring->second, windows->back().kinds, windows->back().exprs,
        arrive.getCtrl(), instance.iterators);
    if (!elements)
      return error() << "the CTAs it reaches depend on values other than "
                        "cuda_threads iterators";
    SmallVector<int64_t> named;
    for (BarrierElement element : *elements)
      if (!llvm::is_contained(named, element.first))
        named.push_back(element.first);
    llvm::sort(named);
    auto lowerings = getLowerings(arrive, instance.threads);
    if (failed(lowerings))
      return failure();
    for (auto &[lowering, threads] : *lowerings) {
      const auto *mbarrier = std::get_if<MbarrierArriveLowering>(lowering);
      if (!mbarrier)
        return emitInternalError(arrive.getLoc())
               << "the lowering recorded for an mbarrier arrive is not one";
      int64_t unit = getIssuerThreads(mbarrier->issuers);
      if (unit > 1 && threads != instance.threads)
        return error() << "its collective " << describeThreads(instance.threads)
                       << " spans code paths but arrives elected";
      ThreadSet issuers = filter(threads, [&](int64_t t) {
        return getIssuer(t, unit) == t || unit == 1;
      });
      if (unit > 1) {
        // Every thread of an issuer's group is in the collective.
        for (ThreadSet::Interval range : issuers.getIntervals())
          for (int64_t t = range.lo; t <= range.hi; ++t)
            if (!isSubset(ThreadSet::range(t, t + unit - 1), instance.threads))
              return error() << "thread " << t << " arrives for the " << unit
                             << " threads from it on, but not all of "
                             << "them belong to the arriving collective "
                             << describeThreads(instance.threads);
      }
      for (ThreadSet::Interval range : issuers.getIntervals())
        for (int64_t t = range.lo; t <= range.hi; ++t) {
          SmallVector<int64_t> reached = mbarrier->getTargetCtas(getCta(t));
          llvm::sort(reached);
          if (reached != named) {
            std::string reachedText, namedText;
            llvm::raw_string_ostream r(reachedText), n(namedText);
            llvm::interleaveComma(reached, r);
            llvm::interleaveComma(named, n);
            return error() << "thread " << t << " arrives at the barrier in "
                           << "CTAs {" << reachedText
                           << "}, but the window names CTAs {" << namedText
                           << "} (missing: arrives at exactly the CTAs of the "
                              "window)";
          }
          for (BarrierElement element : *elements)
            ++arrivals[element];
        }
    }
  }
  for (auto [element, count] : arrivals)
    if (count != ring->second.arriveCount)
      return error() << "one execution brings " << count
                     << " arrival(s) to the barrier element in CTA "
                     << element.first << ", whose phase counts "
                     << ring->second.arriveCount
                     << " (missing: an arrival count that matches the "
                        "arrives of one collective arrive)";
  return success();
}

LogicalResult Validator::visitMbarrierArrive(ArriveOp arrive, State &state) {
  Value barrier = arrive.getBarriers().front();
  if (checked.insert(arrive).second && failed(checkArriveTargets(arrive)))
    return failure();
  FailureOr<ArrayRef<CollectiveInstance>> found = getInstances(arrive);
  if (failed(found))
    return failure();
  uint32_t preFull = exoam::getFullTimelines(arrive.getTimeline());
  bool transitive = exoam::isTransitive(arrive.getTimeline());
  uint32_t postTemporal = getAwaitTimelines(barrier);
  bool acquireCluster = awaitsAcquireCluster(barrier);
  for (const CollectiveInstance &instance : *found) {
    auto lowerings = getLowerings(arrive, instance.threads);
    if (failed(lowerings))
      return failure();
    for (auto &[lowering, threads] : *lowerings) {
      const auto &mbarrier = std::get<MbarrierArriveLowering>(*lowering);
      if (failed(applyWaits(arrive, mbarrier.waits, threads, state)))
        return failure();
      // `__syncwarp()` by every thread: each lane meets its warp's lane 0
      // (and its warpgroup's first thread, in the warpgroup's first warp).
      if (mbarrier.syncWarp) {
        for (ThreadSet::Interval range : threads.getIntervals())
          for (int64_t t = range.lo; t <= range.hi; ++t) {
            int64_t first = getIssuer(t, 32);
            if (!isSubset(ThreadSet::range(first, first + 31), threads))
              return emitTranslationError(arrive.getLoc())
                     << "cannot justify the lowering of this arrive: its "
                        "__syncwarp() needs every lane of the warp of thread "
                     << t << ", but only threads " << describeThreads(threads)
                     << " arrive";
          }
        ThreadSet firstWarps = filter(threads, [&](int64_t t) {
          return getIssuer(t, 32) == getIssuer(t, 128);
        });
        for (RecordFacts &facts : state.records) {
          facts.unmerged[0] = facts.unmerged[0].subtract(threads);
          facts.unmerged[1] = facts.unmerged[1].subtract(firstWarps);
        }
      }
      int64_t unit = getIssuerThreads(mbarrier.issuers);
      for (unsigned key = 0; key < state.records.size(); ++key) {
        const TrackedAccess &access = accesses[key / numGenerations];
        const RecordFacts &facts = state.records[key];
        ThreadSet seeing =
            getWitnesses(state, key, threads, preFull, transitive);
        if (seeing.empty())
          continue;
        if (failed(checkHandedOn(arrive, state, key, seeing, postTemporal)))
          return failure();
        // An elected issuer releases its own causality past: every thread it
        // stands for must have handed its view to it.
        if (unit > 1) {
          ThreadSet unmerged =
              seeing.intersect(facts.unmerged[unit == 32 ? 0 : 1]);
          if (!unmerged.empty()) {
            int64_t t = *unmerged.getMin();
            return fail(arrive, key, t, "it hands on",
                        unit == 32
                            ? Twine("__syncwarp() before lane 0 of each warp "
                                    "arrives for it (thread ") +
                                  Twine(t) + " may see what lane 0 does not)"
                            : Twine("an arrive per warp, or a meeting of the "
                                    "warpgroup before its first thread "
                                    "arrives for it (thread ") +
                                  Twine(t) + " may see what thread " +
                                  Twine(getIssuer(t, 128)) + " does not)");
          }
        }
        for (ThreadSet::Interval range : seeing.getIntervals())
          for (int64_t t = range.lo; t <= range.hi; ++t) {
            int64_t cta = getCta(t);
            for (int64_t target : mbarrier.getTargetCtas(cta)) {
              ContentFlags &flags =
                  state.contents[{barrier.getAsOpaquePointer(), target}][key];
              flags.unmerged = true;
              flags.proxyPending |= facts.proxyPending.contains(t);
              flags.incomplete |= facts.incomplete.contains(t);
              flags.notClusterVisible |= facts.notClusterVisible.contains(t);
              if (target == cta || !access.acrossCtas)
                continue;
              // At another CTA: a release at cluster scope, acquired at
              // cluster scope, hands the issuer's causality past on; else
              // the arrive only orders in time what is complete already,
              // which is enough where the other CTA can only overwrite.
              if (mbarrier.peerRelease && acquireCluster)
                continue;
              bool visible = !facts.notClusterVisible.contains(t);
              bool ordered = access.orderSufficesAcrossCtas &&
                             !facts.incomplete.contains(t);
              if (visible || ordered)
                continue;
              return fail(arrive, key, t, "it hands on to CTA " + Twine(target),
                          mbarrier.peerRelease
                              ? Twine("an acquire at cluster scope in the "
                                      "awaits of the barrier "
                                      "(mbarrier.try_wait.acquire.cluster)")
                              : Twine("a release at cluster scope "
                                      "(mbarrier.arrive.release.cluster) or a "
                                      "cluster barrier before it"));
            }
          }
      }
    }
  }
  return success();
}

LogicalResult Validator::visitCommit(ArriveOp arrive, State &state) {
  FailureOr<ArrayRef<CollectiveInstance>> found = getInstances(arrive);
  if (failed(found))
    return failure();
  Completion completion = getCommitCompletion(arrive.getTimeline());
  ThreadSet committing;
  for (const CollectiveInstance &instance : *found)
    committing = committing.unite(instance.threads);
  if (completion == Completion::Wgmma &&
      failed(checkWholeWarpgroups(arrive, committing, "wgmma.commit_group")))
    return failure();
  // The committing threads' records move one group back; the oldest
  // generation of committed ones stands for every older group.
  for (auto [index, access] : llvm::enumerate(accesses)) {
    if (access.completion != completion)
      continue;
    for (unsigned g = getDone() - 1; g > 0; --g)
      moveFacts(state.records[getKey(index, g - 1)],
                state.records[getKey(index, g)], committing);
  }
  return success();
}

LogicalResult Validator::visitCommitWait(AwaitOp await, State &state) {
  FailureOr<ArrayRef<CollectiveInstance>> found = getInstances(await);
  if (failed(found))
    return failure();
  std::optional<SyncTimeline> committed;
  for (Operation *user : await.getBarrier().getUsers())
    if (auto arrive = dyn_cast<ArriveOp>(user))
      committed = arrive.getTimeline();
  if (!committed)
    return success();
  Completion completion = getCommitCompletion(*committed);
  int64_t n = await.getCountAttr().getInt();
  uint32_t postTemporal = exoam::getTemporalTimelines(await.getTimeline());
  ThreadSet waiting;
  for (const CollectiveInstance &instance : *found)
    waiting = waiting.unite(instance.threads);
  if (completion == Completion::Wgmma &&
      failed(checkWholeWarpgroups(await, waiting, "wgmma.wait_group")))
    return failure();
  auto lowerings = getLowerings(await, waiting);
  if (failed(lowerings))
    return failure();
  // `wait_group n` completes the groups committed at least n + 1 groups ago;
  // the abstract machine lets the waiting threads see their own records of
  // them (Fig. 22, commit groups "own").
  for (auto [index, access] : llvm::enumerate(accesses)) {
    if (access.completion != completion)
      continue;
    for (unsigned g = 1 + n; g < getDone(); ++g) {
      RecordFacts &facts = state.records[getKey(index, g)];
      ThreadSet own = getSeeing(facts.seen, getQualBit(access.timeline),
                                /*ordered=*/false)
                          .intersect(waiting);
      grant(facts.seen, own, postTemporal);
    }
  }
  complete(state, completion, /*from=*/1 + n, waiting);
  for (auto &[lowering, threads] : *lowerings) {
    const auto *commit = std::get_if<CommitLowering>(lowering);
    if (commit && commit->proxyFenceAfterWait)
      for (RecordFacts &facts : state.records)
        facts.proxyPending = facts.proxyPending.subtract(threads);
  }
  return success();
}

LogicalResult Validator::visitAwait(AwaitOp await, State &state) {
  Value barrier = await.getBarrier();
  BarrierKind kind = cast<BarrierType>(barrier.getType()).getKind();
  if (kind == BarrierKind::CudaCommitGroup)
    return visitCommitWait(await, state);
  if (kind != BarrierKind::CudaMbarrier && kind != BarrierKind::CudaClusterSync)
    return success();
  FailureOr<ArrayRef<CollectiveInstance>> found = getInstances(await);
  if (failed(found))
    return failure();
  uint32_t postTemporal = exoam::getTemporalTimelines(await.getTimeline());
  bool cluster = kind == BarrierKind::CudaClusterSync;
  for (const CollectiveInstance &instance : *found) {
    // Each awaiting thread receives what the arrives at its CTA's element
    // hand on (a cluster sync: what every thread hands on).
    for (int64_t cta = 0; cta < params.clusterDim; ++cta) {
      ThreadSet threads = instance.threads.intersect(ThreadSet::range(
          cta * params.blockDim, (cta + 1) * params.blockDim - 1));
      if (threads.empty())
        continue;
      auto it = state.contents.find(
          {barrier.getAsOpaquePointer(), cluster ? -1 : cta});
      if (it == state.contents.end())
        continue;
      // The first thread of the warp (warpgroup) received the same only if
      // it awaited in the same collective.
      ThreadSet alone[2];
      for (unsigned g = 0; g < 2; ++g)
        alone[g] = filter(threads, [&, unit = kIssuerUnits[g]](int64_t t) {
          return !instance.threads.contains(getIssuer(t, unit));
        });
      for (const auto &[key, flags] : it->second) {
        RecordFacts &facts = state.records[key];
        grant(facts.seen, threads, postTemporal);
        if (flags.proxyPending)
          facts.proxyPending = facts.proxyPending.unite(threads);
        if (cluster)
          continue;
        if (flags.incomplete)
          facts.incomplete = facts.incomplete.unite(threads);
        if (flags.notClusterVisible)
          facts.notClusterVisible = facts.notClusterVisible.unite(threads);
        if (flags.unmerged)
          for (unsigned g = 0; g < 2; ++g)
            facts.unmerged[g] = facts.unmerged[g].unite(alone[g]);
      }
    }
  }
  return success();
}

LogicalResult mlir::exogpu::cuda::validateSynchronization(
    DeviceFunctionOp kernel, const CollectiveAnalysis &collective,
    const BufferSharingAnalysis &sharing, CollParams params,
    ArrayRef<RegisterBranch> branches, const LoweredKernel &lowered,
    const SharedMemoryPlan &plan) {
  return Validator(kernel, collective, sharing, params, branches, lowered, plan)
      .run();
}
