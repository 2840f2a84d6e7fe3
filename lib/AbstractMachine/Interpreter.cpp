//===- Interpreter.cpp - the reference abstract machine ------------------===//
//
// Part of ExoGPU. One function per big-step rule of seeds/002: Fig. 21
// (LOOPSTEP/LOOPDONE, SEQ, INCTASKID, IF-TRUE/IF-FALSE), Fig. 22 (ALLOC,
// CLEARREADS, CLEARMUTATES, RECORDREAD, RECORDMUTATE, FENCE, ARRIVE, AWAIT)
// and Fig. 7 (CHECKREADS, CHECKMUTATES, CHECKBARRIER). The state is the task
// id iota, the control environment sigma and the sync environment rho.
//
//===----------------------------------------------------------------------===//

#include "ExoGPU/AbstractMachine/Interpreter.h"
#include "BulkLoop.h"
#include "CheckDiagnostics.h"
#include "ElementEffect.h"
#include "ExoGPU/AbstractMachine/SyncStore.h"
#include "ExoGPU/Dialect/ExoAM/IR/SyncTimelines.h"
#include "ExoGPU/Dialect/ExoGPU/IR/ControlExpr.h"
#include "PeriodicLoop.h"
#include "Rings.h"
#include "RunBudget.h"
#include "StatementInfo.h"
#include "TaskReplay.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

#include <chrono>
#include <deque>
#include <map>

using namespace mlir;
using namespace mlir::exoam;

namespace {
/// The state (iota, sigma, rho) and the rules that transform it.
class Interpreter {
public:
  explicit Interpreter(const InterpretOptions &options)
      : budget(options.maxSteps, options.maxMemoryMiB), options(options),
        env(options.engine == Engine::Reference ? createReferenceStore()
                                                : createBoxStore()),
        rings(/*group=*/options.engine == Engine::Box) {}
  LogicalResult run(ProcOp proc, ArrayRef<int64_t> args);
  /// A remark per replayable task loop that ran (its tasks run and
  /// replayed) and per loop that ran iterations in bulk.
  void emitReplayRemarks();
  /// Whether the run stopped at a check whose diagnostic would name a
  /// record in its finished form.
  bool needsExactDiagnostic() const { return needsExactRun; }

private:
  /// SEQ: runs the statements of `block` in order; stops at an error.
  LogicalResult execBlock(Block &block);
  LogicalResult exec(Operation *op);

  LogicalResult execLoop(LoopOp op);
  /// LOOPSTEP for y in [lo, hi), then LOOPDONE.
  LogicalResult execLoopIterations(LoopOp op, int64_t lo, int64_t hi);
  struct TaskLoopState;
  /// One iteration of a task loop with a replay plan: replays it from the
  /// loop's summary, or runs it (recording a summary if there is none for
  /// its key).
  LogicalResult execTask(LoopOp op, TaskLoopState &state);
  /// The state of a task loop whose tasks the box engine replays, if any.
  TaskLoopState *getTaskLoop(LoopOp op);
  /// The state of a loop whose iterations the box engine may run in bulk.
  /// A loop's plan and how many of its iterations ran one by one and in
  /// bulk.
  template <typename Plan> struct LoopRunState {
    std::optional<Plan> plan;
    int64_t ran = 0, bulk = 0;
  };
  using BulkLoopState = LoopRunState<BulkLoopPlan>;
  BulkLoopState *getBulkLoop(LoopOp op);
  /// LOOPSTEP for iterations [lo, hi) of a loop with a bulk plan: runs them
  /// one by one until its fixed variables reach a fixed point, then the
  /// rest in bulk.
  LogicalResult execBulkLoop(LoopOp op, BulkLoopState &state, int64_t lo,
                             int64_t hi);
  /// Runs iterations [lo, hi) of `op` in bulk, its fixed variables being at
  /// a fixed point; fails like the first failing iteration would.
  LogicalResult execBulkIterations(LoopOp op, BulkLoopState &state, int64_t lo,
                                   int64_t hi);
  /// The states of the fixed variables' windows of `op`'s body under sigma.
  FailureOr<std::vector<std::pair<AccessWindow, ElementState>>>
  snapshotFixed(LoopOp op, const BulkLoopPlan &plan);
  /// The state of a loop that the box engine may run in a steady state.
  using PeriodicLoopState = LoopRunState<PeriodicLoopPlan>;
  PeriodicLoopState *getPeriodicLoop(LoopOp op);
  /// LOOPSTEP for iterations [lo, hi) of a loop with a periodic plan: runs
  /// them one by one, watching some periods, and the periods after one that
  /// proves a steady state in bulk.
  LogicalResult execPeriodicLoop(LoopOp op, PeriodicLoopState &state,
                                 int64_t lo, int64_t hi);
  /// How many periods after the watched one (`current`, which ended at
  /// iteration `next`), at most `limit`, do what it did, moved along: 0
  /// unless it proves a steady state (see PeriodicLoop.h).
  int64_t countSteadyPeriods(const PeriodicLoopPlan &plan,
                             const PeriodRegions &regions,
                             const PeriodTracker &current,
                             const DenseMap<StringAttr, StoreSnapshot> &before,
                             int64_t next, int64_t limit, uint64_t magnitude);
  /// Applies `periods` periods after the watched one: the states it left on
  /// its moving slabs, moved along, and what the task recorder would have
  /// been told.
  void runSteadyPeriods(LoopOp op, const PeriodicLoopPlan &plan,
                        const PeriodRegions &regions,
                        const PeriodTracker &current, int64_t periods,
                        int64_t done, int64_t total);
  /// The box ALLOC resets.
  FailureOr<AccessWindow> getAllocationBox(AllocOp op);
  LogicalResult execIf(IfOp op);
  LogicalResult execAlloc(AllocOp op);
  /// The effect of a check, clear or record statement under sigma, into
  /// `effect` (a default one).
  LogicalResult getEffect(Operation *op, ElementEffect &effect);
  template <typename ClearOp>
  LogicalResult getClearEffect(ClearOp op, bool reads, ElementEffect &effect);
  template <typename RecordOp>
  LogicalResult getRecordEffect(RecordOp op, bool reads, ElementEffect &effect);
  template <typename CheckOp>
  LogicalResult getCheckEffect(CheckOp op, bool reads, ElementEffect &effect);
  /// CHECKREADS, CHECKMUTATES, CLEARREADS, CLEARMUTATES, RECORDREAD,
  /// RECORDMUTATE, for consecutive statements of one window, in order.
  LogicalResult execEffects(llvm::iterator_range<Block::iterator> statements);
  /// Effects on one window that are all checks, or all clears and records,
  /// in order.
  LogicalResult
  execEffectGroup(ArrayRef<std::pair<Operation *, ElementEffect>> group);
  LogicalResult execFence(FenceOp op);
  LogicalResult execArrive(ArriveOp op);
  LogicalResult execAwait(AwaitOp op);
  LogicalResult execComplete(CompleteOp op);
  /// The AWAITs that may still raise records through an element of
  /// `barrier` (accessed by `op`), if every lifetime of it lies within one
  /// task (then within the current one).
  std::optional<BarrierAwaiters> getAwaiters(Operation *op, StringAttr barrier);
  /// Whether every AWAIT of `barrier` (accessed by `op`) is `own` (a commit
  /// group's): its arrives need not order other threads' ring events.
  bool isAwaitedOwnOnly(Operation *op, StringAttr barrier);
  LogicalResult execCheckBarrier(CheckBarrierOp op);
  LogicalResult execCheckCondition(CheckConditionOp op);
  LogicalResult execCheckBounds(CheckBoundsOp op);

  /// The window `access` denotes under `values`; an error at `op` if it
  /// leaves the allocation of its variable (the sequential program is not
  /// defined there).
  FailureOr<AccessWindow> evaluate(Operation *op, AccessAttr access,
                                   ArrayRef<int64_t> values);
  /// Whether `window` lies within the extents its variable was allocated
  /// with (true for a variable never allocated, as in hand-written AMIR).
  bool isInBounds(const AccessWindow &window) const;

  /// Whether a barrier access of `op` names few enough elements for the
  /// machine to walk them one by one (an error at `op` if not).
  LogicalResult checkBarrierWindow(Operation *op, const AccessWindow &window);

  /// The arrive count a of barrier element `key` in rho.
  int64_t getArriveCount(const ElementKey &key);
  /// Each element of the `barriers` accesses of `op` with the arrive count
  /// a record or completion observes it at: that of `home` if given, else
  /// its own.
  FailureOr<SmallVector<std::pair<ElementKey, int64_t>>>
  getObservedCounts(Operation *op, ArrayAttr barriers, AccessAttr home,
                    ArrayRef<int64_t> values);
  /// The lowest arrive count of the elements of barrier variable `var` (as
  /// allocated), at most `fallback`.
  int64_t getLowestArriveCount(StringAttr var, int64_t fallback);
  /// sigma applied to the control operands of `op`.
  FailureOr<SmallVector<int64_t>> getValues(Operation *op, ValueRange ctrl);
  /// g_s(sigma, iota) of a statement with thread mapping, given `values`
  /// (the statement's control values, or the failure to compute them).
  template <typename OpT>
  FailureOr<ThreadSet>
  getThreads(OpT op, const FailureOr<SmallVector<int64_t>> &values) {
    if (failed(values))
      return failure();
    return evaluateThreads(op, op.getThreads(), *values, task);
  }

  /// Evaluates control expressions (each compiled once).
  exogpu::ControlExprEvaluator evaluator;
  /// The steps and memory the run may still take.
  RunBudget budget;
  /// Before the iterations of `op` after `y` (of [lo, hi)) run one by one:
  /// whether the budget allows them, the last taking `lastSteps` steps. Not
  /// judged on the first iteration, which may record what later ones reuse.
  LogicalResult checkIterationsLeft(LoopOp op, int64_t lo, int64_t y,
                                    int64_t hi, uint64_t lastSteps);
  /// iota.
  int64_t task = 0;
  /// Tells on stderr every options.progressSeconds of a long run where it is
  /// (the innermost loop then running), so that a large size is never a
  /// silent hang.
  void reportProgress(LoopOp op, int64_t done, int64_t total);
  struct {
    std::chrono::steady_clock::time_point start =
        std::chrono::steady_clock::now();
    std::chrono::steady_clock::time_point last = start;
  } progress;
  /// The extents of every variable allocated so far, from its latest ALLOC.
  DenseMap<StringAttr, SmallVector<int64_t>> extents;
  /// sigma: values of proc parameters and loop iterators.
  DenseMap<Value, int64_t> sigma;
  /// The engine (box groups per-thread records, Def. B.1 with t = false,
  /// and drops subsumed ones; the reference keeps them, as written) and
  /// whether the box engine replays tasks.
  InterpretOptions options;
  /// Per task loop (in first-run order), its replay plan (none: not
  /// replayable), its summaries by key, and how many of its tasks ran and
  /// were replayed.
  struct TaskLoopState {
    std::optional<TaskLoopPlan> plan;
    std::map<SmallVector<int64_t>, TaskSummary> summaries;
    /// The keys of `summaries`, oldest first: past kMaxTaskSummaries, the
    /// oldest summary goes (its tasks run and record it again).
    std::deque<SmallVector<int64_t>> summaryOrder;
    int64_t ran = 0, replayed = 0;
    /// The summary of the tasks with `key`, if one was recorded.
    TaskSummary *lookup(ArrayRef<int64_t> key) {
      auto it = summaries.find(SmallVector<int64_t>(key));
      return it == summaries.end() ? nullptr : &it->second;
    }
    /// Keeps `summary` for the tasks with its key.
    TaskSummary &keep(TaskSummary summary);
  };
  /// (Boxed: a state stays where it is while the loop's body adds entries.)
  llvm::MapVector<Operation *, std::unique_ptr<TaskLoopState>> taskLoops;
  /// Per sequential loop (in first-run order), its bulk plan (none: its
  /// iterations run one by one) and its periodic plan (none: not periodic),
  /// with their counts. (Boxed: a loop's body adds entries while it runs.)
  llvm::MapVector<Operation *, std::unique_ptr<BulkLoopState>> bulkLoops;
  llvm::MapVector<Operation *, std::unique_ptr<PeriodicLoopState>>
      periodicLoops;
  /// Watches the period of a periodic loop being run, if any (loops inside
  /// it then run one by one).
  PeriodTracker *tracker = nullptr;
  /// Per barrier variable, the reach of its AWAITs (none: unknown).
  DenseMap<StringAttr, std::optional<AwaitReach>> awaitReaches;
  /// Per barrier variable, whether every AWAIT of it is `own`.
  DenseMap<StringAttr, bool> ownOnlyBarriers;
  /// Watches the task being recorded, if any.
  TaskRecorder *recorder = nullptr;
  /// A task of a replayable loop whose global records are as made, to be
  /// rewritten into their finished form once it has finished: the loop's
  /// plan, the task and the boxes it recorded on.
  struct PendingCompaction {
    TaskLoopState *loop;
    TaskSummary *summary;
    int64_t task;
    std::vector<AccessWindow> boxes;
    /// The store's seen-by-all epoch when the task ended.
    uint64_t epoch;
  };
  std::optional<PendingCompaction> pendingCompaction;
  /// Rewrites the pending task's records (at the next INCTASKID), after
  /// which the records seen by every thread are as the loop's summary
  /// needs them for a replay next to them.
  void compactPendingTask();
  /// Set when a check failed on a record that mentions finished tasks
  /// (mentionsFinishedTasks): the diagnostic needs the run without the rewrite.
  bool needsExactRun = false;

  /// A statement's iteration: the iterators of the source loops around it
  /// (those with a name), outermost first, with their values in sigma.
  using Iteration = SmallVector<std::pair<StringAttr, int64_t>, 8>;
  Iteration getIteration(Operation *op);
  /// Where the records of each (origin, first actor) were last made: the
  /// iteration of the earlier access a hazard names (records of several
  /// iterations merge; the latest is kept).
  DenseMap<std::tuple<const void *, int64_t, int64_t>, Iteration>
      recordIterations;
  /// Notes the iteration of the records `op` makes.
  void noteRecordIteration(Operation *op, const ElementEffect &effect);
  /// The iteration the earlier access of `record` ran at, as text (empty:
  /// not known, e.g. a replayed task made it).
  std::string describeRecordIteration(const VisibilityRecord &record);
  /// rho.
  std::unique_ptr<SyncStore> env;
  /// The rules of barrier elements that are rings of mbarriers.
  RingRules rings;
};
} // namespace

LogicalResult Interpreter::run(ProcOp proc, ArrayRef<int64_t> args) {
  for (auto [param, value] : llvm::zip(proc.getBody().getArguments(), args))
    sigma[param] = value;
  return execBlock(proc.getBody().front());
}

/// The target and control operands of a check, clear or record statement,
/// if `op` is one.
static std::optional<std::pair<AccessAttr, OperandRange>>
getEffectTarget(Operation *op) {
  return llvm::TypeSwitch<Operation *,
                          std::optional<std::pair<AccessAttr, OperandRange>>>(
             op)
      .Case<CheckReadsOp, CheckMutatesOp, ClearReadsOp, ClearMutatesOp,
            RecordReadOp, RecordMutateOp>([](auto statement) {
        return std::pair<AccessAttr, OperandRange>(statement.getTarget(),
                                                   statement.getCtrl());
      })
      .Default([](Operation *) { return std::nullopt; });
}

LogicalResult Interpreter::execBlock(Block &block) {
  // Consecutive checks, clears and records of one window (the statements of
  // one access, Fig. 5) run together: their checks in one walk, their
  // clears and records in one update.
  for (auto it = block.begin(), end = block.end(); it != end;) {
    auto target = getEffectTarget(&*it);
    auto last = std::next(it);
    while (target && last != end) {
      auto next = getEffectTarget(&*last);
      if (!next || next->first != target->first ||
          !llvm::equal(next->second, target->second))
        break;
      ++last;
    }
    if (std::next(it) == last) {
      if (failed(exec(&*it)))
        return failure();
    } else {
      if (failed(budget.step(&*it, std::distance(it, last))))
        return failure();
      if (recorder)
        recorder->noteStatement(&*it);
      if (failed(execEffects(llvm::make_range(it, last))))
        return failure();
    }
    it = last;
  }
  return success();
}

LogicalResult
Interpreter::execEffects(llvm::iterator_range<Block::iterator> statements) {
  // (The recorder has seen the first statement.)
  SmallVector<std::pair<Operation *, ElementEffect>, 4> effects;
  for (Operation &statement : statements) {
    if (recorder && &statement != &*statements.begin())
      recorder->noteStatement(&statement);
    effects.emplace_back(&statement, ElementEffect());
    if (failed(getEffect(&statement, effects.back().second)))
      return failure();
  }
  auto isCheck = [](const std::pair<Operation *, ElementEffect> &entry) {
    return entry.second.kind == ElementEffect::Kind::Check;
  };
  ArrayRef<std::pair<Operation *, ElementEffect>> rest = effects;
  while (!rest.empty()) {
    bool checks = isCheck(rest.front());
    size_t count =
        llvm::find_if(
            rest, [&](const auto &entry) { return isCheck(entry) != checks; }) -
        rest.begin();
    if (failed(execEffectGroup(rest.take_front(count))))
      return failure();
    rest = rest.drop_front(count);
  }
  return success();
}

LogicalResult Interpreter::exec(Operation *op) {
  if (failed(budget.step(op)))
    return failure();
  if (recorder)
    recorder->noteStatement(op);
  return llvm::TypeSwitch<Operation *, LogicalResult>(op)
      .Case([&](LoopOp loop) { return execLoop(loop); })
      .Case([&](IfOp guard) { return execIf(guard); })
      .Case([&](IncTaskIdOp) {
        env->startTask(++task); // INCTASKID
        compactPendingTask();
        return success();
      })
      .Case([&](AllocOp alloc) { return execAlloc(alloc); })
      .Case<ClearReadsOp, ClearMutatesOp, RecordReadOp, RecordMutateOp,
            CheckReadsOp, CheckMutatesOp>([&](Operation *statement) {
        return execEffects(llvm::make_range(
            Block::iterator(statement), std::next(Block::iterator(statement))));
      })
      .Case([&](FenceOp fence) { return execFence(fence); })
      .Case([&](ArriveOp arrive) { return execArrive(arrive); })
      .Case([&](AwaitOp await) { return execAwait(await); })
      .Case([&](CompleteOp complete) { return execComplete(complete); })
      .Case([&](CheckBarrierOp check) { return execCheckBarrier(check); })
      .Case([&](CheckConditionOp check) { return execCheckCondition(check); })
      .Case([&](CheckBoundsOp check) { return execCheckBounds(check); })
      .Default([](Operation *other) {
        return emitError(other->getLoc(),
                         "the abstract machine interprets only exoam "
                         "statements");
      });
}

FailureOr<SmallVector<int64_t>> Interpreter::getValues(Operation *op,
                                                       ValueRange ctrl) {
  SmallVector<int64_t> values;
  for (Value v : ctrl) {
    auto it = sigma.find(v);
    if (it == sigma.end())
      return emitError(op->getLoc(),
                       "control operand is not a proc parameter or an "
                       "enclosing loop iterator");
    values.push_back(it->second);
  }
  return values;
}

//===----------------------------------------------------------------------===//
// Fig. 21: loop, guard
//===----------------------------------------------------------------------===//

LogicalResult Interpreter::execLoop(LoopOp op) {
  FailureOr<SmallVector<int64_t>> values = getValues(op, op.getCtrl());
  if (failed(values))
    return failure();
  std::optional<int64_t> lo =
      evaluator.evaluate(op.getBounds().getResult(0), *values);
  std::optional<int64_t> hi =
      evaluator.evaluate(op.getBounds().getResult(1), *values);
  if (!lo || !hi)
    return emitError(op.getLoc(), "a loop bound overflows int64 with these "
                                  "values");
  return execLoopIterations(op, *lo, *hi);
}

LogicalResult Interpreter::execLoopIterations(LoopOp op, int64_t lo,
                                              int64_t hi) {
  if (BulkLoopState *bulk = getBulkLoop(op))
    return execBulkLoop(op, *bulk, lo, hi);
  if (PeriodicLoopState *periodic = getPeriodicLoop(op))
    return execPeriodicLoop(op, *periodic, lo, hi);
  // LOOPSTEP while lo < hi, then LOOPDONE.
  TaskLoopState *taskLoop = getTaskLoop(op);
  for (int64_t y = lo; y < hi; ++y) {
    reportProgress(op, y - lo, hi - lo);
    sigma[op.getIterator()] = y;
    uint64_t before = budget.getSteps();
    if (failed(taskLoop ? execTask(op, *taskLoop)
                        : execBlock(op.getBody().front())) ||
        failed(checkIterationsLeft(op, lo, y, hi, budget.getSteps() - before)))
      return failure();
  }
  return success();
}

LogicalResult Interpreter::checkIterationsLeft(LoopOp op, int64_t lo, int64_t y,
                                               int64_t hi, uint64_t lastSteps) {
  if (y == lo)
    return success();
  // (At least: iterations past int64 count as int64's largest.)
  int64_t left;
  if (llvm::SubOverflow(hi, y + 1, left))
    left = std::numeric_limits<int64_t>::max();
  return budget.checkLoop(op, left, lastSteps);
}

void Interpreter::reportProgress(LoopOp op, int64_t done, int64_t total) {
  int interval = options.progressSeconds;
  if (interval < 0) {
    if (!llvm::errs().is_displayed())
      return;
    interval = 10;
  }
  auto now = std::chrono::steady_clock::now();
  if (now - progress.last < std::chrono::seconds(interval))
    return;
  progress.last = now;
  auto seconds =
      std::chrono::duration_cast<std::chrono::seconds>(now - progress.start);
  llvm::errs() << "progress: the abstract machine is still running after "
               << seconds.count() << " s: the loop at ";
  if (auto where = op.getLoc()->findInstanceOf<FileLineColLoc>())
    llvm::errs() << where.getFilename().getValue() << ":" << where.getLine()
                 << ":" << where.getColumn();
  else
    llvm::errs() << op.getLoc();
  llvm::errs() << " is at iteration " << done << " of " << total << "\n";
}

/// The state of `op` in `states`, made (with its plan analyzed) on first
/// use; null if the loop has no plan.
template <typename State>
static State *
getPlannedLoop(llvm::MapVector<Operation *, std::unique_ptr<State>> &states,
               LoopOp op) {
  auto [it, inserted] = states.try_emplace(op);
  if (inserted) {
    it->second = std::make_unique<State>();
    it->second->plan =
        std::remove_reference_t<decltype(*it->second->plan)>::analyze(op);
  }
  return it->second->plan ? it->second.get() : nullptr;
}

Interpreter::TaskLoopState *Interpreter::getTaskLoop(LoopOp op) {
  if (options.engine != Engine::Box || !options.replayTasks || recorder)
    return nullptr;
  return getPlannedLoop(taskLoops, op);
}

Interpreter::BulkLoopState *Interpreter::getBulkLoop(LoopOp op) {
  if (options.engine != Engine::Box || !options.bulkLoops || tracker)
    return nullptr;
  return getPlannedLoop(bulkLoops, op);
}

FailureOr<std::vector<std::pair<AccessWindow, ElementState>>>
Interpreter::snapshotFixed(LoopOp op, const BulkLoopPlan &plan) {
  std::vector<std::pair<AccessWindow, ElementState>> states;
  for (Operation &statement : op.getBody().front()) {
    ElementEffect effect;
    if (failed(getEffect(&statement, effect)))
      return failure();
    if (!plan.getShift(effect.window.var))
      env->visitBoxes(effect.window,
                      [&](const AccessWindow &box, const ElementState &state) {
                        states.push_back({box, state});
                      });
  }
  return states;
}

/// Whether two snapshots are the same boxes with the same states.
static bool isSameSnapshot(ArrayRef<std::pair<AccessWindow, ElementState>> a,
                           ArrayRef<std::pair<AccessWindow, ElementState>> b) {
  return a.size() == b.size() && llvm::all_of(llvm::zip(a, b), [](auto pair) {
           auto &[x, y] = pair;
           return x.first.var == y.first.var &&
                  x.first.ranges == y.first.ranges &&
                  isSameState(x.second, y.second);
         });
}

LogicalResult Interpreter::execBulkLoop(LoopOp op, BulkLoopState &state,
                                        int64_t lo, int64_t hi) {
  const BulkLoopPlan &plan = *state.plan;
  // An iteration that leaves the fixed variables as it found them proves
  // them at a fixed point; a few tries, then one by one to the end. (Not
  // worth trying with few iterations left.)
  constexpr int64_t kTries = 4, kFewest = 8;
  Block &body = op.getBody().front();
  for (int64_t y = lo; y < hi; ++y) {
    reportProgress(op, y - lo, hi - lo);
    sigma[op.getIterator()] = y;
    bool tryBulk = y > lo && y - lo <= kTries && hi - y > kFewest;
    FailureOr<std::vector<std::pair<AccessWindow, ElementState>>> before =
        failure();
    if (tryBulk)
      before = snapshotFixed(op, plan);
    ++state.ran;
    uint64_t steps = budget.getSteps();
    if (failed(execBlock(body)))
      return failure();
    // Past the tries, the rest runs one by one.
    if (y - lo >= kTries &&
        failed(checkIterationsLeft(op, lo, y, hi, budget.getSteps() - steps)))
      return failure();
    if (failed(before))
      continue;
    FailureOr<std::vector<std::pair<AccessWindow, ElementState>>> after =
        snapshotFixed(op, plan);
    if (succeeded(after) && isSameSnapshot(*before, *after))
      return execBulkIterations(op, state, y + 1, hi);
  }
  return success();
}

LogicalResult Interpreter::execBulkIterations(LoopOp op, BulkLoopState &state,
                                              int64_t lo, int64_t hi) {
  const BulkLoopPlan &plan = *state.plan;
  Block &body = op.getBody().front();
  auto runOneByOne = [&](int64_t from) {
    for (int64_t y = from; y < hi; ++y) {
      reportProgress(op, y - lo, hi - lo);
      sigma[op.getIterator()] = y;
      ++state.ran;
      if (failed(execBlock(body)))
        return failure();
    }
    return success();
  };
  sigma[op.getIterator()] = lo;
  SmallVector<std::pair<Operation *, ElementEffect>, 8> effects;
  for (Operation &statement : body) {
    effects.emplace_back(&statement, ElementEffect());
    if (failed(getEffect(&statement, effects.back().second)))
      return failure();
  }
  // Per moving variable: its window in iteration lo (the same in every
  // statement), and the windows of iterations [lo, hi), disjoint, as one
  // box where they tile one (else one box per iteration).
  struct Moving {
    AccessWindow first;
    const SmallVector<int64_t> *shift;
    std::optional<unsigned> dim; // the one moving dimension, if contiguous
  };
  llvm::MapVector<StringAttr, Moving> moving;
  for (const auto &[statement, effect] : effects) {
    const SmallVector<int64_t> *shift = plan.getShift(effect.window.var);
    if (!shift)
      continue;
    auto [it, inserted] =
        moving.try_emplace(effect.window.var, Moving{effect.window, shift, {}});
    if (!inserted && it->second.first.ranges != effect.window.ranges)
      return runOneByOne(lo);
  }
  int64_t count = hi - lo;
  for (auto &[var, info] : moving) {
    if (info.first.empty() || info.shift->size() != info.first.ranges.size())
      return runOneByOne(lo);
    // Disjoint iterations: some dimension moves by at least the extent.
    // The last window must not overflow.
    bool disjoint = false;
    unsigned movingDims = 0;
    for (auto [d, range, step] :
         llvm::enumerate(info.first.ranges, *info.shift)) {
      int64_t extent, offset, moved;
      if (llvm::SubOverflow(range.second, range.first, extent) ||
          llvm::AddOverflow(extent, int64_t(1), extent) ||
          llvm::MulOverflow(step, count - 1, offset) ||
          llvm::AddOverflow(range.first, offset, moved) ||
          llvm::AddOverflow(range.second, offset, moved))
        return runOneByOne(lo);
      if (step == 0)
        continue;
      ++movingDims;
      if (step >= extent || -step >= extent)
        disjoint = true;
      if (step == extent || -step == extent)
        info.dim = d;
    }
    if (!disjoint)
      return runOneByOne(lo);
    if (movingDims != 1)
      info.dim.reset();
  }
  auto windowAt = [&](const Moving &info, int64_t y) {
    AccessWindow window = info.first;
    for (auto [range, step] : llvm::zip(window.ranges, *info.shift)) {
      range.first += step * (y - lo);
      range.second += step * (y - lo);
    }
    return window;
  };
  // The windows of iterations [lo, end), with the iteration of each.
  auto forEachWindow =
      [&](const Moving &info, int64_t end,
          function_ref<bool(const AccessWindow &, int64_t)> fn) {
        if (end <= lo)
          return;
        if (!info.dim) {
          for (int64_t y = lo; y < end; ++y)
            if (!fn(windowAt(info, y), y))
              return;
          return;
        }
        AccessWindow all = info.first;
        AccessWindow last = windowAt(info, end - 1);
        auto &range = all.ranges[*info.dim];
        range = {std::min(range.first, last.ranges[*info.dim].first),
                 std::max(range.second, last.ranges[*info.dim].second)};
        fn(all, lo);
      };

  // The first iteration whose window leaves its variable's allocation runs
  // as written and reports the access: the windows move along a line, so
  // the ones within the allocation are those of consecutive iterations from
  // lo (whose windows were evaluated, and so are within it).
  int64_t stop = hi;
  for (const auto &[var, info] : moving) {
    int64_t within = lo, outside = stop;
    while (outside - within > 1) {
      int64_t middle = within + (outside - within) / 2;
      (isInBounds(windowAt(info, middle)) ? within : outside) = middle;
    }
    stop = outside;
  }

  // Dry run: the first iteration in which a check on a moving variable
  // fails, if any (each element's state evolves alone, so elements that
  // share a state share the outcome).
  for (const auto &[var, info] : moving) {
    DenseMap<const ElementState *, bool> outcome;
    auto fails = [&](const ElementState &start) {
      auto [it, inserted] = outcome.try_emplace(&start, false);
      if (!inserted)
        return it->second;
      ElementState state = start;
      for (const auto &[statement, effect] : effects) {
        if (effect.window.var != var)
          continue;
        if (effect.kind != ElementEffect::Kind::Check)
          effect.apply(state);
        else if (effect.findRejected(state))
          return it->second = true;
      }
      return false;
    };
    bool overBudget = false;
    forEachWindow(info, stop, [&](const AccessWindow &window, int64_t y) {
      if (failed(budget.step(op))) {
        overBudget = true;
        return false;
      }
      env->visitBoxes(window, [&](const AccessWindow &box,
                                  const ElementState &state) {
        if (!fails(state))
          return;
        int64_t at = y;
        if (info.dim) {
          // The iteration holding the box's first element in iteration
          // order.
          unsigned d = *info.dim;
          int64_t step = (*info.shift)[d];
          at = step > 0
                   ? lo + (box.ranges[d].first - info.first.ranges[d].first) /
                              step
                   : lo + (info.first.ranges[d].second - box.ranges[d].second) /
                              -step;
        }
        stop = std::min(stop, at);
      });
      return y + 1 < stop;
    });
    if (overBudget)
      return failure();
  }

  // Iterations [lo, stop) pass: their clears and records on the moving
  // variables, at once; the fixed variables stay at their fixed point.
  for (const auto &[statement, effect] : effects) {
    auto it = moving.find(effect.window.var);
    if (it == moving.end())
      continue;
    bool overBudget = false;
    forEachWindow(it->second, stop, [&](const AccessWindow &window, int64_t) {
      // (A window of many iterations counts as one step.)
      if (failed(budget.step(statement))) {
        overBudget = true;
        return false;
      }
      if (recorder)
        recorder->noteEffect(effect, window);
      if (effect.kind != ElementEffect::Kind::Check)
        env->update(window,
                    [&](ElementState &state) { return effect.apply(state); });
      return true;
    });
    if (overBudget)
      return failure();
  }
  state.bulk += stop - lo;
  // The failing iteration runs as written and reports its error.
  return runOneByOne(stop);
}

Interpreter::PeriodicLoopState *Interpreter::getPeriodicLoop(LoopOp op) {
  if (options.engine != Engine::Box || !options.bulkLoops || tracker)
    return nullptr;
  return getPlannedLoop(periodicLoops, op);
}

LogicalResult Interpreter::execPeriodicLoop(LoopOp op, PeriodicLoopState &state,
                                            int64_t lo, int64_t hi) {
  const PeriodicLoopPlan &plan = *state.plan;
  const int64_t period = plan.getPeriod();
  Block &body = op.getBody().front();
  // Watched periods that may prove a steady state, from the start of the
  // loop or the end of a bulk run; the fewest periods left worth watching
  // for.
  constexpr int kTries = 4;
  constexpr int64_t kFewest = 4;
  auto runIteration = [&](int64_t y) {
    reportProgress(op, y - lo, hi - lo);
    sigma[op.getIterator()] = y;
    ++state.ran;
    return execBlock(body);
  };
  // (At least: iterations past int64 count as int64's largest.)
  auto periodsLeft = [&](int64_t y) {
    int64_t left;
    if (llvm::SubOverflow(hi, y, left))
      left = std::numeric_limits<int64_t>::max();
    return left / period;
  };
  std::optional<PeriodTracker> previous;
  int tries = 0;
  for (int64_t y = lo; y < hi;) {
    if (tries >= kTries || periodsLeft(y) < 2 + kFewest) {
      // No period is watched again: the rest runs one by one.
      uint64_t steps = budget.getSteps();
      if (failed(runIteration(y)) ||
          failed(checkIterationsLeft(op, lo, y, hi, budget.getSteps() - steps)))
        return failure();
      ++y;
      continue;
    }
    // Watch one period; if the one before was watched too, this one may
    // prove a steady state: snapshot the regions it should stay in.
    std::optional<PeriodRegions> regions;
    if (previous)
      regions = previous->predictNext();
    PeriodTracker current(plan);
    DenseMap<StringAttr, StoreSnapshot> before;
    if (regions) {
      for (const auto &[var, region] : regions->regions)
        before[var] = takeSnapshot(*env, region);
      current.expectRegions(regions->regions);
    }
    tracker = &current;
    env->trackLiftChanges(true);
    evaluator.watchMagnitudes(true);
    LogicalResult ran = success();
    for (int64_t i = 0; i < period && succeeded(ran); ++i)
      ran = runIteration(y + i);
    tracker = nullptr;
    uint64_t magnitude = evaluator.getLargestMagnitude();
    evaluator.watchMagnitudes(false);
    if (failed(ran)) {
      env->trackLiftChanges(false);
      return failure();
    }
    y += period;
    int64_t periods = 0;
    if (regions) {
      ++tries;
      periods = countSteadyPeriods(plan, *regions, current, before, y,
                                   periodsLeft(y), magnitude);
    }
    env->trackLiftChanges(false);
    if (periods > 0) {
      // (The steady periods count as one step.)
      if (failed(budget.step(op)))
        return failure();
      runSteadyPeriods(op, plan, *regions, current, periods, y - lo, hi - lo);
      y += periods * period;
      state.bulk += periods * period;
      // What stopped the bulk (a guard, a record ahead) may lie behind: the
      // loop may watch again.
      previous.reset();
      tries = 0;
      continue;
    }
    previous.emplace(std::move(current));
  }
  return success();
}

int64_t Interpreter::countSteadyPeriods(
    const PeriodicLoopPlan &plan, const PeriodRegions &regions,
    const PeriodTracker &current,
    const DenseMap<StringAttr, StoreSnapshot> &before, int64_t next,
    int64_t limit, uint64_t magnitude) {
  // The period stayed in its regions, left its fixed variables as it found
  // them, and its lifts changed nothing outside the regions.
  if (current.escaped())
    return 0;
  SmallVector<AccessWindow> boxes;
  for (const auto &[var, region] : regions.regions) {
    if (!plan.getMotion(var) && !matchesSnapshot(*env, before.lookup(var)))
      return 0;
    boxes.push_back(region);
  }
  if (!env->areLiftChangesWithin(boxes))
    return 0;
  // The guards keep their values, and no expression overflows: a value of
  // magnitude m in the watched period has at most m + k * largestShift k
  // periods later.
  int64_t periods = plan.countPeriodsWithSameGuards(
      next - plan.getPeriod(), [&](Value value) { return sigma.lookup(value); },
      limit);
  if (int64_t shift = plan.getLargestShift(); shift > 0) {
    constexpr uint64_t kLargest = std::numeric_limits<int64_t>::max();
    periods = std::min<int64_t>(
        periods, magnitude > kLargest ? 0 : (kLargest - magnitude) / shift);
  }
  for (const auto &[var, previousSlab] : regions.previousSlabs) {
    const PeriodicLoopPlan::Motion &motion = *plan.getMotion(var);
    const AccessWindow &slab = regions.regions.lookup(var);
    unsigned rank = slab.ranges.size();
    // The period left its slab as the period before left its own (which
    // this one did not change).
    if (!matchesSnapshot(*env, takeSnapshot(*env, previousSlab),
                         plan.getShift(var, rank, 1)))
      return 0;
    // The slabs ahead stay within int64, and the windows within the
    // allocation (where one is known).
    int64_t step = motion.step;
    auto [lo, hi] = slab.ranges[motion.dim];
    __int128 room = step > 0
                        ? __int128(std::numeric_limits<int64_t>::max()) - hi
                        : __int128(lo) - std::numeric_limits<int64_t>::min();
    auto bounds = current.getBounds().find(var);
    auto allocated = extents.find(var);
    if (bounds != current.getBounds().end() && allocated != extents.end() &&
        motion.dim < allocated->second.size()) {
      auto [first, last] = bounds->second.ranges[motion.dim];
      room = std::min(room, step > 0 ? __int128(allocated->second[motion.dim]) -
                                           1 - last
                                     : __int128(first));
    }
    int64_t steps = static_cast<int64_t>(std::max<__int128>(
        0, std::min<__int128>(room / std::abs(step), periods)));
    periods = std::min(periods, steps);
    // The slabs ahead hold what this period's slab held when it started.
    periods =
        countMatchingSlabs(*env, before.lookup(var), slab, motion, periods);
  }
  return periods;
}

void Interpreter::runSteadyPeriods(LoopOp op, const PeriodicLoopPlan &plan,
                                   const PeriodRegions &regions,
                                   const PeriodTracker &current,
                                   int64_t periods, int64_t done,
                                   int64_t total) {
  reportProgress(op, done, total);
  for (const auto &[var, previousSlab] : regions.previousSlabs) {
    const AccessWindow &slab = regions.regions.lookup(var);
    installSlabs(*env, takeSnapshot(*env, slab), slab, *plan.getMotion(var),
                 periods);
  }
  if (!recorder)
    return;
  for (int64_t k = 1; k <= periods; ++k) {
    reportProgress(op, done + (k - 1) * plan.getPeriod(), total);
    for (const auto &[call, windows] : current.getRecorderCalls())
      windows.forEachBox([&, call = call](const AccessWindow &box,
                                          BoxTree::Value) {
        recorder->noteCall(
            call,
            translateWindow(box, plan.getShift(box.var, box.ranges.size(), k)));
      });
  }
}

LogicalResult Interpreter::execTask(LoopOp op, TaskLoopState &state) {
  const TaskLoopPlan &plan = *state.plan;
  // The prefix (INCTASKID and the ALLOCs) runs as written.
  Block &body = op.getBody().front();
  auto it = body.begin();
  for (unsigned i = 0; i < plan.getPrefixSize(); ++i, ++it)
    if (failed(exec(&*it)))
      return failure();
  auto valuesOf = [&](ArrayRef<Value> values) {
    SmallVector<int64_t> result;
    for (Value value : values)
      result.push_back(sigma.lookup(value));
    return result;
  };
  SmallVector<int64_t> key = valuesOf(plan.getKeyValues());
  SmallVector<int64_t> iterators = valuesOf(plan.getTaskIterators());
  TaskSummary *summary = state.lookup(key);
  bool known = summary;
  bool finished = options.compactFinishedTasks && plan.finishesWithBody();
  // Once this task has finished, its global records (on the boxes of the
  // summary, translated) are rewritten into their finished form.
  auto compactLater = [&]() {
    if (options.compactFinishedTasks)
      pendingCompaction = PendingCompaction{
          &state, summary, task, getRecordedBoxes(plan, *summary, iterators),
          env->getSeenByAllEpoch()};
  };
  if (known) {
    if (failed(budget.step(op)))
      return failure();
    ReplayResult replayed = replayTask(
        plan, *summary, *env, task, iterators,
        [&](const AccessWindow &window) { return isInBounds(window); });
    if (replayed != ReplayResult::NotReplayed) {
      ++state.replayed;
      if (replayed == ReplayResult::Replayed)
        compactLater();
      return success();
    }
  }
  ++state.ran;
  std::optional<TaskRecorder> watching;
  if (!known) {
    recorder = &watching.emplace(plan, *env, task, finished);
    // The prefix's ALLOCs.
    for (Operation &prefixOp : llvm::make_range(body.begin(), it))
      if (auto alloc = dyn_cast<AllocOp>(prefixOp)) {
        // The prefix ran: its boxes evaluate as they did then.
        FailureOr<AccessWindow> box = getAllocationBox(alloc);
        if (failed(box)) {
          recorder = nullptr;
          return failure();
        }
        recorder->noteAlloc(*box, alloc.getBarrier());
      }
  }
  for (auto end = body.end(); it != end; ++it) {
    if (failed(exec(&*it))) {
      recorder = nullptr;
      return failure();
    }
  }
  recorder = nullptr;
  if (watching)
    if (std::optional<TaskSummary> recorded = watching->finish(key, iterators))
      summary = &state.keep(std::move(*recorded));
  if (summary)
    compactLater();
  return success();
}

/// At most this many summaries per task loop: tasks whose keys cycle through
/// more (a causal attention kernel's query blocks at S / 128 > 1024) run
/// every time, but memory stays bounded.
static constexpr size_t kMaxTaskSummaries = 1024;

TaskSummary &Interpreter::TaskLoopState::keep(TaskSummary summary) {
  SmallVector<int64_t> key = summary.key;
  auto [it, inserted] = summaries.insert_or_assign(key, std::move(summary));
  if (inserted) {
    summaryOrder.push_back(key);
    if (summaryOrder.size() > kMaxTaskSummaries) {
      summaries.erase(summaryOrder.front());
      summaryOrder.pop_front();
    }
  }
  return it->second;
}

void Interpreter::compactPendingTask() {
  if (!pendingCompaction)
    return;
  TaskLoopState &loop = *pendingCompaction->loop;
  // Every record seen by every thread went through the task (which had the
  // summary's key, compactLater) unless one was made or changed since it
  // ended (by the CPU, before this INCTASKID).
  bool wentThroughTask = env->getSeenByAllEpoch() == pendingCompaction->epoch;
  compactFinishedTask(*loop.plan, *env, pendingCompaction->task,
                      pendingCompaction->boxes);
  if (wentThroughTask)
    pendingCompaction->summary->seenByAllEpoch = env->getSeenByAllEpoch();
  pendingCompaction.reset();
}

LogicalResult Interpreter::execIf(IfOp op) {
  FailureOr<SmallVector<int64_t>> values = getValues(op, op.getCtrl());
  if (failed(values))
    return failure();
  if (!op.getCondition().evaluate(*values, evaluator))
    return success();                     // IF-FALSE
  return execBlock(op.getBody().front()); // IF-TRUE
}

//===----------------------------------------------------------------------===//
// Fig. 22: alloc, clear, record
//===----------------------------------------------------------------------===//

/// Whether `window` has more than `limit` elements.
static bool hasMoreElements(const AccessWindow &window, int64_t limit) {
  int64_t count = 1;
  for (IntervalSet::Interval range : window.ranges) {
    int64_t extent;
    if (range.second < range.first)
      return false;
    if (llvm::SubOverflow(range.second, range.first, extent) ||
        llvm::AddOverflow(extent, int64_t(1), extent) ||
        llvm::MulOverflow(count, extent, count) || count > limit)
      return true;
  }
  return false;
}

FailureOr<AccessWindow> Interpreter::getAllocationBox(AllocOp op) {
  FailureOr<SmallVector<int64_t>> values = getValues(op, op.getCtrl());
  if (failed(values))
    return failure();
  // The target lists the extents, not a window of an earlier allocation.
  FailureOr<AccessWindow> extents =
      evaluateAccess(op, op.getTarget(), *values, evaluator);
  if (failed(extents))
    return failure();
  SmallVector<int64_t> sizes;
  for (IntervalSet::Interval r : extents->ranges)
    sizes.push_back(r.first);
  AccessWindow box = getAllocationWindow(extents->var, sizes);
  // The hardware limit of the variable's memory (with these values).
  if (std::optional<int64_t> capacity = op.getCapacity();
      capacity && hasMoreElements(box, *capacity)) {
    InFlightDiagnostic diag = emitError(op.getLoc())
                              << "the allocation of @"
                              << extents->var.getValue() << " [";
    llvm::interleaveComma(sizes, diag);
    return diag << "] has more elements than the " << *capacity
                << " that fit in " << op.getCapacityOf().value_or("");
  }
  if (op.getBarrier() && failed(checkBarrierWindow(op, box)))
    return failure();
  if (tracker)
    tracker->noteWindow(box);
  return box;
}

LogicalResult Interpreter::execAlloc(AllocOp op) {
  FailureOr<AccessWindow> box = getAllocationBox(op);
  if (failed(box))
    return failure();
  if (recorder)
    recorder->noteAlloc(*box, op.getBarrier());
  SmallVector<int64_t> &sizes = extents[box->var];
  sizes.clear();
  for (IntervalSet::Interval r : box->ranges)
    sizes.push_back(r.second + 1);
  if (options.engine == Engine::Reference) {
    auto countElements = [](ArrayRef<int64_t> shape) {
      uint64_t count = 1;
      for (int64_t extent : shape)
        count = llvm::SaturatingMultiply(count, uint64_t(extent));
      return count;
    };
    uint64_t all = 0;
    for (const auto &[var, shape] : extents)
      all = llvm::SaturatingAdd(all, countElements(shape));
    if (failed(budget.checkReferenceAllocation(op, countElements(sizes), all)))
      return failure();
  }
  env->reset(*box);
  // A barrier's new lifetime voids the arrive counts records observed in
  // its previous one: they count arrives at a different barrier (see
  // docs/abstract-machine.md, "Barrier lifetimes").
  if (!op.getBarrier())
    return success();
  box->forEachElement([&](const ElementKey &key) {
    env->endBarrierLifetime(key);
    return true;
  });
  rings.allocate(box->var, op.getRing());
  return success();
}

template <typename ClearOp>
LogicalResult Interpreter::getClearEffect(ClearOp op, bool reads,
                                          ElementEffect &effect) {
  FailureOr<SmallVector<int64_t>> values = getValues(op, op.getCtrl());
  if (failed(values))
    return failure();
  FailureOr<AccessWindow> window = evaluate(op, op.getTarget(), *values);
  if (failed(window))
    return failure();
  effect.kind = ElementEffect::Kind::Clear;
  effect.reads = reads;
  effect.window = std::move(*window);
  return success();
}

template <typename RecordOp>
LogicalResult Interpreter::getRecordEffect(RecordOp op, bool reads,
                                           ElementEffect &effect) {
  FailureOr<SmallVector<int64_t>> values = getValues(op, op.getCtrl());
  FailureOr<ThreadSet> threads = getThreads(op, values);
  if (failed(threads))
    return failure();
  // P_{E, rho}: the current arrive count of every accessed barrier element,
  // or of the home barrier for all of them (a multicast completion).
  FailureOr<SmallVector<std::pair<ElementKey, int64_t>>> observed =
      getObservedCounts(op, op.getBarriers(), op.getHomeAttr(), *values);
  if (failed(observed))
    return failure();
  ArriveCounts arrives;
  for (const auto &[key, count] : *observed)
    observeArrive(arrives, key, count);
  FailureOr<AccessWindow> window = evaluate(op, op.getTarget(), *values);
  if (failed(window))
    return failure();
  effect.kind = ElementEffect::Kind::Record;
  effect.reads = reads;
  effect.window = std::move(*window);
  effect.records =
      makeRecords(op.getLevel(), op.getConvergent(), op.getTimeline(),
                  op.getAtomic().getBits(), arrives, *threads, op.getLoc(),
                  /*group=*/options.engine == Engine::Box);
  effect.prune = options.engine == Engine::Box;
  return success();
}

template <typename CheckOp>
LogicalResult Interpreter::getCheckEffect(CheckOp op, bool reads,
                                          ElementEffect &effect) {
  FailureOr<SmallVector<int64_t>> values = getValues(op, op.getCtrl());
  FailureOr<ThreadSet> threads = getThreads(op, values);
  if (failed(threads))
    return failure();
  FailureOr<AccessWindow> window = evaluate(op, op.getTarget(), *values);
  if (failed(window))
    return failure();
  effect.kind = ElementEffect::Kind::Check;
  effect.reads = reads;
  effect.window = std::move(*window);
  effect.threads = std::move(*threads);
  effect.level = op.getLevel();
  effect.timelines = op.getTimelines().getBits();
  effect.convergent = op.getConvergent();
  return success();
}

LogicalResult Interpreter::getEffect(Operation *op, ElementEffect &effect) {
  return llvm::TypeSwitch<Operation *, LogicalResult>(op)
      .Case([&](ClearReadsOp clear) {
        return getClearEffect(clear, true, effect);
      })
      .Case([&](ClearMutatesOp clear) {
        return getClearEffect(clear, false, effect);
      })
      .Case([&](RecordReadOp record) {
        return getRecordEffect(record, true, effect);
      })
      .Case([&](RecordMutateOp record) {
        return getRecordEffect(record, false, effect);
      })
      .Case([&](CheckReadsOp check) {
        return getCheckEffect(check, true, effect);
      })
      .Case([&](CheckMutatesOp check) {
        return getCheckEffect(check, false, effect);
      })
      .Default([](Operation *other) {
        return emitError(other->getLoc(), "not a check, clear or record");
      });
}

/// An iteration as `k = 0, kk = 1`.
static std::string
formatIteration(ArrayRef<std::pair<StringAttr, int64_t>> iteration) {
  std::string text;
  for (auto [index, entry] : llvm::enumerate(iteration))
    text += (index ? ", " : "") + entry.first.str() + " = " +
            std::to_string(entry.second);
  return text;
}

/// The first (task, thread) of `threads`, if it names some.
static std::optional<std::pair<int64_t, int64_t>>
getFirstThread(const ThreadSet &threads) {
  std::optional<std::pair<int64_t, int64_t>> first;
  threads.forEachRange([&](int64_t task, int64_t lo, int64_t) {
    if (!first)
      first = {task, lo};
  });
  return first;
}

Interpreter::Iteration Interpreter::getIteration(Operation *op) {
  Iteration iteration;
  for (auto loop = op->getParentOfType<LoopOp>(); loop;
       loop = loop->getParentOfType<LoopOp>()) {
    auto name = dyn_cast<NameLoc>(loop.getIterator().getLoc());
    auto value = sigma.find(loop.getIterator());
    if (name && value != sigma.end())
      iteration.push_back({name.getName(), value->second});
  }
  std::reverse(iteration.begin(), iteration.end());
  return iteration;
}

void Interpreter::noteRecordIteration(Operation *op,
                                      const ElementEffect &effect) {
  std::optional<Iteration> iteration;
  for (const VisibilityRecord &record : effect.records) {
    std::optional<std::pair<int64_t, int64_t>> first =
        getFirstThread(record.actors);
    if (!first)
      continue;
    if (!iteration)
      iteration = getIteration(op);
    recordIterations[{record.origin.getAsOpaquePointer(), first->first,
                      first->second}] = *iteration;
  }
}

std::string
Interpreter::describeRecordIteration(const VisibilityRecord &record) {
  std::optional<std::pair<int64_t, int64_t>> first =
      getFirstThread(record.actors);
  if (!first)
    return "";
  auto it = recordIterations.find(
      {record.origin.getAsOpaquePointer(), first->first, first->second});
  return it == recordIterations.end() ? "" : formatIteration(it->second);
}

LogicalResult Interpreter::execEffectGroup(
    ArrayRef<std::pair<Operation *, ElementEffect>> group) {
  const AccessWindow &window = group.front().second.window;
  for (const auto &[op, effect] : group) {
    if (!recorder)
      break;
    unsigned call = recorder->noteEffect(effect, effect.window);
    if (tracker)
      tracker->noteRecorderCall(call, effect.window);
  }
  if (group.front().second.kind != ElementEffect::Kind::Check) {
    for (const auto &[op, effect] : group)
      if (effect.kind == ElementEffect::Kind::Record)
        noteRecordIteration(op, effect);
    env->update(window, [&](ElementState &state) {
      bool changed = false;
      for (const auto &entry : group)
        changed |= entry.second.apply(state);
      return changed;
    });
    return success();
  }
  // As if each check walked the window in turn: the first check that fails
  // anywhere reports its first failing element. One walk finds, per check,
  // its first failing element, and stops once the first check fails.
  struct Failure {
    ElementKey key;
    RejectedRecord rejected;
  };
  SmallVector<std::optional<Failure>, 2> failures(group.size());
  env->visit(window, /*distinct=*/true,
             [&](const ElementKey &key, const ElementState &state) {
               for (auto [effect, failure] : llvm::zip(group, failures))
                 if (!failure)
                   if (std::optional<RejectedRecord> rejected =
                           effect.second.findRejected(state))
                     failure = Failure{key, std::move(*rejected)};
               return !failures.front();
             });
  for (auto [entry, found] : llvm::zip(group, failures)) {
    if (!found)
      continue;
    const auto &[op, effect] = entry;
    if (mentionsFinishedTasks(found->rejected.record)) {
      needsExactRun = true;
      return failure();
    }
    // A record that an await skipped (the completion of an asynchronous
    // call in a phase it did not wait for) says so.
    std::optional<DiagnosticNote> cause;
    if (std::optional<RingRules::SkippedWait> skipped =
            rings.findSkippedWait(found->rejected.record)) {
      std::string text;
      llvm::raw_string_ostream os(text);
      os << "skipped wait: this await waited for phase " << skipped->awaited
         << " of ";
      skipped->barrier.print(os);
      os << ", which does not order the earlier access: it completes in "
            "phase "
         << skipped->phase
         << " (complete_tx), and on the hardware only a wait for that phase "
            "waits for it";
      cause = DiagnosticNote{skipped->await, std::move(text)};
    }
    reportInvisibleRecord(
        op, found->key, effect.reads, found->rejected.record,
        {effect.level, effect.timelines, effect.convergent, effect.threads},
        found->rejected.blind,
        {formatIteration(getIteration(op)),
         describeRecordIteration(found->rejected.record), options.hazard},
        std::move(cause));
    return failure();
  }
  return success();
}

LogicalResult Interpreter::checkBarrierWindow(Operation *op,
                                              const AccessWindow &window) {
  // Barrier elements are walked one by one (counts, lifetimes).
  constexpr int64_t kMostBarrierElements = 1 << 16;
  if (hasMoreElements(window, kMostBarrierElements))
    return emitError(op->getLoc())
           << "the barrier access to @" << window.var.getValue()
           << " names more than " << kMostBarrierElements
           << " barrier elements";
  return success();
}

//===----------------------------------------------------------------------===//
// Fig. 22: fence, arrive, await
//===----------------------------------------------------------------------===//

LogicalResult Interpreter::execFence(FenceOp op) {
  FailureOr<SmallVector<int64_t>> values = getValues(op, op.getCtrl());
  FailureOr<ThreadSet> threads = getThreads(op, values);
  if (failed(threads))
    return failure();
  QualMask pre = op.getPre().getBits(), full = op.getFull().getBits(),
           temp = op.getTemp().getBits();
  LiftSignature signature{1, op.getTransitive(), pre, full, temp};
  threads->appendKey(signature);
  // A fence beyond the threads' own registers is a rendezvous of its
  // threads (docs/cuda-translation.md): it orders their ring events.
  bool rendezvous = ((pre | full | temp) & ~getRegisterTimelines()) != 0;
  env->liftSeenBy(
      *threads,
      [&](std::vector<VisibilityRecord> &records, bool ring) {
        if (ring)
          return rendezvous && liftFence(records, /*transitive=*/true, *threads,
                                         getRingMask(), getRingMask(), 0);
        return liftFence(records, op.getTransitive(), *threads, pre, full,
                         temp);
      },
      signature);
  return success();
}

FailureOr<SmallVector<std::pair<ElementKey, int64_t>>>
Interpreter::getObservedCounts(Operation *op, ArrayAttr barriers,
                               AccessAttr home, ArrayRef<int64_t> values) {
  std::optional<int64_t> homeCount;
  if (home) {
    FailureOr<AccessWindow> window = evaluate(op, home, values);
    if (failed(window))
      return failure();
    if (window->empty() || !window->isSingleElement())
      return emitError(op->getLoc(), "the home barrier of a ")
             << op->getName().stripDialect() << " must be one element";
    homeCount = getArriveCount(getElementKey(*window));
  }
  SmallVector<std::pair<ElementKey, int64_t>> counts;
  for (Attribute barrier : barriers) {
    FailureOr<AccessWindow> window =
        evaluate(op, cast<AccessAttr>(barrier), values);
    if (failed(window) || failed(checkBarrierWindow(op, *window)))
      return failure();
    env->visit(*window, /*distinct=*/false,
               [&](const ElementKey &key, const ElementState &state) {
                 counts.push_back({key, homeCount.value_or(state.arrives)});
                 return true;
               });
  }
  return counts;
}

int64_t Interpreter::getLowestArriveCount(StringAttr var, int64_t fallback) {
  auto it = extents.find(var);
  if (it == extents.end())
    return fallback;
  int64_t lowest = std::numeric_limits<int64_t>::max();
  env->visit(getAllocationWindow(var, it->second), /*distinct=*/true,
             [&](const ElementKey &, const ElementState &state) {
               lowest = std::min(lowest, state.arrives);
               return true;
             });
  return std::min(lowest, fallback);
}

int64_t Interpreter::getArriveCount(const ElementKey &key) {
  int64_t count = 0;
  env->visit(getElementWindow(key), /*distinct=*/false,
             [&](const ElementKey &, const ElementState &state) {
               count = state.arrives;
               return true;
             });
  return count;
}

LogicalResult Interpreter::execArrive(ArriveOp op) {
  FailureOr<SmallVector<int64_t>> values = getValues(op, op.getCtrl());
  FailureOr<ThreadSet> threads = getThreads(op, values);
  if (failed(threads))
    return failure();
  SmallVector<AccessWindow> windows;
  for (Attribute barrier : op.getBarriers()) {
    FailureOr<AccessWindow> window =
        evaluate(op, cast<AccessAttr>(barrier), *values);
    if (failed(window) || failed(checkBarrierWindow(op, *window)))
      return failure();
    windows.push_back(std::move(*window));
  }
  std::optional<ElementKey> home = findCommonElement(windows);
  if (!home)
    return emitError(op.getLoc(),
                     "the barrier accesses of an arrive must share "
                     "exactly one element, the home barrier");
  // Every element of W is observed at the home barrier's arrive count
  // (before this arrive): the index of this arrive among its arriver's, the
  // phase its signal belongs to in every barrier it reaches (a multicast
  // arrive; docs/abstract-machine.md, "Multicast").
  int64_t homeCount = getArriveCount(*home);
  SmallVector<std::pair<ElementKey, int64_t>> counts;
  // (Each element once: the home is in two windows of a multicast arrive.)
  SmallVector<ElementKey> elements;
  for (const AccessWindow &window : windows)
    window.forEachElement([&](const ElementKey &key) {
      counts.push_back({key, homeCount});
      if (!llvm::is_contained(elements, key))
        elements.push_back(key);
      return true;
    });
  if (failed(rings.checkArrive(op, *env, *threads, *home, homeCount, elements)))
    return failure();
  QualMask pre = op.getPre().getBits();
  // The counts are left out: they only grow within a barrier lifetime.
  LiftSignature signature{2, op.getTransitive(), pre};
  threads->appendKey(signature);
  for (const auto &[key, count] : counts) {
    signature.push_back(
        reinterpret_cast<intptr_t>(key.var.getAsOpaquePointer()));
    signature.push_back(key.index.size());
    signature.append(key.index.begin(), key.index.end());
  }
  // (Box engine: the reach of each barrier's AWAITs, to skip counts no
  // AWAIT could use.)
  SmallVector<std::optional<BarrierAwaiters>> awaiters;
  if (options.engine == Engine::Box)
    for (const auto &[key, count] : counts)
      awaiters.push_back(getAwaiters(op, key.var));
  auto awaitersOf = [&](const ElementKey &key) -> const BarrierAwaiters * {
    for (auto [entry, known] : llvm::zip(counts, awaiters))
      if (entry.first.var == key.var)
        return known ? &*known : nullptr;
    return nullptr;
  };
  // Every arrive orders the ring events its threads see, for the awaits
  // that pair with it; a commit group's own awaits order nothing of them.
  bool ordersRingEvents = llvm::any_of(windows, [&](const AccessWindow &w) {
    return !isAwaitedOwnOnly(op, w.var);
  });
  env->liftSeenBy(
      *threads,
      [&](std::vector<VisibilityRecord> &records, bool ring) {
        if (ring)
          return ordersRingEvents &&
                 liftArrive(records, /*transitive=*/true, *threads,
                            getRingMask(), counts);
        return liftArrive(
            records, op.getTransitive(), *threads, pre, counts,
            awaiters.empty()
                ? function_ref<const BarrierAwaiters *(const ElementKey &)>()
                : awaitersOf);
      },
      signature);
  env->update(getElementWindow(*home), [](ElementState &state) {
    ++state.arrives;
    return false;
  });
  // The other elements have now seen the arriver's phase homeCount.
  for (const auto &entry : counts)
    if (!(entry.first == *home))
      env->update(getElementWindow(entry.first), [&](ElementState &state) {
        state.received = std::max(state.received, homeCount + 1);
        return false;
      });
  rings.recordArrive(op, *env, *threads, *home, homeCount, elements);
  return success();
}

bool Interpreter::isAwaitedOwnOnly(Operation *op, StringAttr barrier) {
  auto [it, inserted] = ownOnlyBarriers.try_emplace(barrier, true);
  if (inserted)
    op->getParentOfType<ProcOp>().walk([&](AwaitOp await) {
      if (await.getBarrier().getVar() == barrier && !await.getOwn())
        it->second = false;
    });
  return it->second;
}

std::optional<BarrierAwaiters> Interpreter::getAwaiters(Operation *op,
                                                        StringAttr barrier) {
  auto [it, inserted] = awaitReaches.try_emplace(barrier);
  if (inserted)
    it->second = getAwaitReach(op->getParentOfType<ProcOp>(), barrier);
  if (!it->second || it->second->threads <= 0)
    return std::nullopt;
  IntervalSet first;
  first.insert(0, it->second->threads - 1);
  return BarrierAwaiters{ThreadSet::get(task, first), it->second->grants};
}

LogicalResult Interpreter::execAwait(AwaitOp op) {
  FailureOr<SmallVector<int64_t>> values = getValues(op, op.getCtrl());
  FailureOr<ThreadSet> threads = getThreads(op, values);
  if (failed(threads))
    return failure();
  FailureOr<AccessWindow> evaluated = evaluate(op, op.getBarrier(), *values);
  if (failed(evaluated))
    return failure();
  AccessWindow window = std::move(*evaluated);
  if (window.empty() || !window.isSingleElement())
    return emitError(op.getLoc(),
                     "an await must access exactly one barrier element");
  ElementKey key = getElementKey(window);
  int64_t a = 0, w = 0, n = op.getNAttr().getInt();
  env->visit(window, /*distinct=*/false,
             [&](const ElementKey &, const ElementState &state) {
               a = state.arrives;
               w = state.awaits;
               return true;
             });
  // Max and New of Fig. 22 AWAIT, with overflow checks for extreme n.
  int64_t max, next;
  bool overflow = n >= 0 ? llvm::SubOverflow(a, n, max) ||
                               llvm::SubOverflow(max, int64_t(1), max)
                         : llvm::AddOverflow(w, n, max) ||
                               llvm::AddOverflow(max, int64_t(1), max);
  if (overflow)
    return emitError(op.getLoc(), "await pairing count overflows with n = ")
           << n;
  next = n >= 0 ? std::max(w, max + 1) : w + 1;
  // On a ring, the phases whose asynchronous completions the await skips:
  // it does not order their records.
  FailureOr<SmallVector<int64_t>> skipped =
      rings.checkAwait(op, *env, *threads, key, n, max);
  if (failed(skipped))
    return failure();
  QualMask full = op.getFull().getBits(), temp = op.getTemp().getBits();
  bool own = op.getOwn();
  LiftSignature signature{3, full, temp, own};
  threads->appendKey(signature);
  // (Box engine: a record observes from now on only counts of arrives not
  // made yet, at the count of the arriver's home, an element of the same
  // variable; the await's skipped completions stay unraised.)
  int64_t done = std::min(max, getLowestArriveCount(key.var, a) - 1);
  if (!skipped->empty())
    done = std::min(done, skipped->front() - 1);
  env->liftObserving(
      key, max, done,
      [&](std::vector<VisibilityRecord> &records, bool ring) {
        // A commit group's own await orders the waiting threads' own work:
        // nothing of other threads' ring events.
        if (ring)
          return !own && liftAwait(records, key, max, *threads, getRingMask(),
                                   0, /*own=*/false, *skipped);
        return liftAwait(records, key, max, *threads, full, temp, own,
                         *skipped);
      },
      signature);
  env->update(window, [&](ElementState &state) {
    state.awaits = next;
    return false;
  });
  rings.recordAwait(op, *env, *threads, key, w, n, max);
  return success();
}

LogicalResult Interpreter::execComplete(CompleteOp op) {
  FailureOr<SmallVector<int64_t>> values = getValues(op, op.getCtrl());
  FailureOr<ThreadSet> threads = getThreads(op, values);
  if (failed(threads))
    return failure();
  // The phase of each element: the issuing threads' next arrive, counted at
  // the home barrier if there is one (as the records of the call observe).
  FailureOr<SmallVector<std::pair<ElementKey, int64_t>>> phases =
      getObservedCounts(op, op.getBarriers(), op.getHomeAttr(), *values);
  if (failed(phases))
    return failure();
  if (failed(rings.checkComplete(op, *env, *threads, *phases)))
    return failure();
  // The copy starts after the issuing threads' earlier events, and its
  // bytes land before the phase completes: the ring events they see are
  // ordered before an await of the phase (the data they accessed is not:
  // complete_tx releases nothing but the copy).
  LiftSignature signature{4};
  threads->appendKey(signature);
  for (const auto &[key, phase] : *phases) {
    signature.push_back(
        reinterpret_cast<intptr_t>(key.var.getAsOpaquePointer()));
    signature.push_back(key.index.size());
    signature.append(key.index.begin(), key.index.end());
  }
  env->liftSeenBy(
      *threads,
      [&](std::vector<VisibilityRecord> &records, bool ring) {
        return ring && liftArrive(records, /*transitive=*/true, *threads,
                                  getRingMask(), *phases);
      },
      signature);
  rings.recordComplete(op, *env, *threads, *phases);
  return success();
}

//===----------------------------------------------------------------------===//
// Fig. 7: checks
//===----------------------------------------------------------------------===//

LogicalResult Interpreter::execCheckBarrier(CheckBarrierOp op) {
  FailureOr<SmallVector<int64_t>> values = getValues(op, op.getCtrl());
  if (failed(values))
    return failure();
  FailureOr<AccessWindow> window = evaluate(op, op.getBarrier(), *values);
  if (failed(window))
    return failure();
  bool passed = env->visit(
      *window, /*distinct=*/true,
      [&](const ElementKey &key, const ElementState &state) {
        if (failed(rings.checkLifetimeEnd(op, key, state)))
          return false;
        if (state.getPhases() == state.awaits)
          return true;
        reportBarrierMismatch(op, key, state.getPhases(), state.awaits);
        return false;
      });
  return success(passed);
}

LogicalResult Interpreter::execCheckCondition(CheckConditionOp op) {
  FailureOr<SmallVector<int64_t>> values = getValues(op, op.getCtrl());
  if (failed(values))
    return failure();
  if (op.getCondition().evaluate(*values, evaluator))
    return success();
  return emitError(op.getLoc())
         << op.getWhat()
         << " does not hold: the sequential program is not defined for "
            "these values";
}

/// Prints `window` to a string.
static std::string describe(const AccessWindow &window) {
  std::string text;
  llvm::raw_string_ostream os(text);
  window.print(os);
  return text;
}

LogicalResult Interpreter::execCheckBounds(CheckBoundsOp op) {
  FailureOr<SmallVector<int64_t>> values = getValues(op, op.getCtrl());
  if (failed(values))
    return failure();
  FailureOr<AccessWindow> target = evaluate(op, op.getTarget(), *values);
  FailureOr<AccessWindow> window = evaluate(op, op.getWindow(), *values);
  if (failed(target) || failed(window))
    return failure();
  if (target->empty() ||
      llvm::all_of(llvm::zip(target->ranges, window->ranges), [](auto pair) {
        auto [access, bounds] = pair;
        return bounds.first <= access.first && access.second <= bounds.second;
      }))
    return success();
  return emitError(op.getLoc())
         << "out-of-bounds access: " << describe(*target) << " is outside "
         << describe(*window) << ", the window of @" << target->var.getValue()
         << " it is taken through";
}

FailureOr<AccessWindow> Interpreter::evaluate(Operation *op, AccessAttr access,
                                              ArrayRef<int64_t> values) {
  FailureOr<AccessWindow> evaluated =
      evaluateAccess(op, access, values, evaluator);
  if (failed(evaluated))
    return failure();
  AccessWindow &window = *evaluated;
  // The reference engine keeps every element apart: a window too large to
  // walk is refused rather than filling memory (the box engine keeps boxes).
  constexpr int64_t kMostReferenceElements = 1 << 24;
  if (options.engine == Engine::Reference &&
      hasMoreElements(window, kMostReferenceElements))
    return emitError(op->getLoc())
           << "the reference engine walks every element, and "
           << describe(window) << " has more than " << kMostReferenceElements
           << "; use engine=box";
  if (isInBounds(window)) {
    if (tracker)
      tracker->noteWindow(window);
    return window;
  }
  InFlightDiagnostic diag = emitError(op->getLoc())
                            << "out-of-bounds access: " << describe(window)
                            << " is outside @" << window.var.getValue()
                            << ", allocated with extents [";
  llvm::interleaveComma(extents.lookup(window.var), diag);
  return diag << "]";
}

bool Interpreter::isInBounds(const AccessWindow &window) const {
  auto it = extents.find(window.var);
  if (it == extents.end() || window.empty())
    return true;
  ArrayRef<int64_t> sizes = it->second;
  if (sizes.size() != window.ranges.size())
    return false;
  return llvm::all_of(llvm::zip(window.ranges, sizes), [](auto pair) {
    auto [range, size] = pair;
    return range.first >= 0 && range.second < size;
  });
}

LogicalResult mlir::exoam::interpretProc(ProcOp proc, ArrayRef<int64_t> args,
                                         const InterpretOptions &options) {
  if (args.size() != proc.getBody().getNumArguments())
    return emitError(proc.getLoc(), "the abstract machine needs one value per "
                                    "parameter: got ")
           << args.size() << ", expected " << proc.getBody().getNumArguments();
  Interpreter interpreter(options);
  LogicalResult result = interpreter.run(proc, args);
  if (failed(result) && interpreter.needsExactDiagnostic()) {
    // The same verdict with the records' provenance (docs/abstract-machine.md
    // "Finished tasks").
    if (options.replayRemarks)
      emitRemark(proc.getLoc())
          << "a check failed on a record of a finished task: running again "
             "with the records as made, for the diagnostic";
    InterpretOptions exact = options;
    exact.compactFinishedTasks = false;
    return interpretProc(proc, args, exact);
  }
  if (options.replayRemarks)
    interpreter.emitReplayRemarks();
  return result;
}

void Interpreter::emitReplayRemarks() {
  for (const auto &[loop, state] : taskLoops)
    if (state->plan)
      emitRemark(loop->getLoc())
          << "task loop: " << state->ran << " task(s) ran, " << state->replayed
          << " replayed";
  for (const auto &[loop, state] : bulkLoops)
    if (state->plan && state->bulk)
      emitRemark(loop->getLoc())
          << "loop: " << state->ran << " iteration(s) ran, " << state->bulk
          << " in bulk";
  for (const auto &[loop, state] : periodicLoops)
    if (state->plan && state->bulk)
      emitRemark(loop->getLoc())
          << "loop: " << state->ran << " iteration(s) ran, " << state->bulk
          << " in bulk in a steady state of period "
          << state->plan->getPeriod();
}

//===----------------------------------------------------------------------===//
// Parameter bindings
//===----------------------------------------------------------------------===//

FailureOr<Bindings> mlir::exoam::parseBindings(Operation *op,
                                               StringRef passName,
                                               ArrayRef<std::string> items) {
  Bindings bindings;
  for (StringRef item : items) {
    auto [name, text] = item.split('=');
    Binding binding{0, text == "true" || text == "false"};
    if (binding.boolean)
      binding.value = text == "true";
    else if (name.empty() || text.getAsInteger(10, binding.value))
      return emitError(op->getLoc())
             << passName << ": expected name=integer, got '" << item << "'";
    if (!bindings.insert({name, binding}).second)
      return emitError(op->getLoc())
             << passName << ": '" << name << "' is given twice";
  }
  return bindings;
}

std::string mlir::exoam::expandBindingShorthand(StringRef options) {
  SmallVector<StringRef> items;
  SplitString(options, items, ", \t\n");
  SmallVector<std::string> kept, bindings;
  for (StringRef item : items) {
    StringRef name = item.split('=').first;
    if (llvm::is_contained({"args", "engine", "proc", "replay-tasks",
                            "replay-remarks", "bulk-loops", "progress-seconds",
                            "max-steps", "max-memory", "repair"},
                           name))
      kept.push_back(item.str());
    else
      bindings.push_back(item.str());
  }
  if (!bindings.empty())
    kept.push_back("args=" + llvm::join(bindings, ","));
  return llvm::join(kept, " ");
}

FailureOr<SmallVector<int64_t>>
mlir::exoam::bindParams(ProcOp proc, const Bindings &bindings,
                        StringRef passName) {
  SmallVector<int64_t> args;
  for (auto [param, name] :
       llvm::zip(proc.getBody().getArguments(),
                 proc.getArgNames().getAsRange<StringAttr>())) {
    auto it = bindings.find(name.getValue());
    if (it == bindings.end())
      return emitError(proc.getLoc())
             << passName << ": no value for parameter '" << name.getValue()
             << "' (pass " << name.getValue() << "=...)";
    const Binding &binding = it->second;
    bool isBool = param.getType().isInteger(1);
    if (isBool && binding.value != 0 && binding.value != 1)
      return emitError(proc.getLoc())
             << passName << ": bool parameter '" << name.getValue()
             << "' takes true, false, 1 or 0";
    if (!isBool && binding.boolean)
      return emitError(proc.getLoc())
             << passName << ": parameter '" << name.getValue()
             << "' takes an integer, not "
             << (binding.value ? "true" : "false");
    args.push_back(binding.value);
  }
  return args;
}

std::optional<Engine> mlir::exoam::parseEngine(StringRef name) {
  if (name == "reference")
    return Engine::Reference;
  if (name == "box")
    return Engine::Box;
  return std::nullopt;
}
