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
#include "CheckDiagnostics.h"
#include "ExoGPU/AbstractMachine/SyncStore.h"
#include "ExoGPU/Dialect/ExoGPU/IR/ControlExpr.h"
#include "TaskReplay.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::exoam;

namespace {
/// The state (iota, sigma, rho) and the rules that transform it.
class Interpreter {
public:
  explicit Interpreter(const InterpretOptions &options)
      : options(options),
        env(options.engine == Engine::Reference ? createReferenceStore()
                                                : createBoxStore()) {}
  LogicalResult run(ProcOp proc, ArrayRef<int64_t> args);
  /// A remark per replayable task loop that ran: its tasks run and replayed.
  void emitReplayRemarks();

private:
  /// SEQ: runs the statements of `block` in order; stops at an error.
  LogicalResult execBlock(Block &block);
  LogicalResult exec(Operation *op);

  LogicalResult execLoop(LoopOp op);
  struct TaskLoopState;
  /// One iteration of a task loop with a replay plan: replays it from the
  /// loop's summary, or runs it (recording a summary if there is none for
  /// its key).
  LogicalResult execTask(LoopOp op, TaskLoopState &state);
  /// The state of a task loop whose tasks the box engine replays, if any.
  TaskLoopState *getTaskLoop(LoopOp op);
  /// The box ALLOC resets.
  FailureOr<AccessWindow> getAllocationBox(AllocOp op);
  LogicalResult execIf(IfOp op);
  LogicalResult execAlloc(AllocOp op);
  template <typename ClearOp> LogicalResult execClear(ClearOp op, bool reads);
  template <typename RecordOp>
  LogicalResult execRecord(RecordOp op, bool reads);
  LogicalResult execFence(FenceOp op);
  LogicalResult execArrive(ArriveOp op);
  LogicalResult execAwait(AwaitOp op);
  template <typename CheckOp> LogicalResult execCheck(CheckOp op, bool reads);
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

  /// The arrive count a of barrier element `key` in rho.
  int64_t getArriveCount(const ElementKey &key);
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

  /// iota.
  int64_t task = 0;
  /// The extents of every variable allocated so far, from its latest ALLOC.
  DenseMap<StringAttr, SmallVector<int64_t>> extents;
  /// sigma: values of proc parameters and loop iterators.
  DenseMap<Value, int64_t> sigma;
  /// The engine (box groups per-thread records, Def. B.1 with t = false,
  /// and drops subsumed ones; the reference keeps them, as written) and
  /// whether the box engine replays tasks.
  InterpretOptions options;
  /// Per task loop (in first-run order), its replay plan (none: not
  /// replayable), summary, and how many of its tasks ran and were replayed.
  struct TaskLoopState {
    std::optional<TaskLoopPlan> plan;
    std::optional<TaskSummary> summary;
    int64_t ran = 0, replayed = 0;
  };
  /// (Boxed: a state stays where it is while the loop's body adds entries.)
  llvm::MapVector<Operation *, std::unique_ptr<TaskLoopState>> taskLoops;
  /// Watches the task being recorded, if any.
  TaskRecorder *recorder = nullptr;
  /// rho.
  std::unique_ptr<SyncStore> env;
};
} // namespace

LogicalResult Interpreter::run(ProcOp proc, ArrayRef<int64_t> args) {
  for (auto [param, value] : llvm::zip(proc.getBody().getArguments(), args))
    sigma[param] = value;
  return execBlock(proc.getBody().front());
}

LogicalResult Interpreter::execBlock(Block &block) {
  for (Operation &op : block)
    if (failed(exec(&op)))
      return failure();
  return success();
}

LogicalResult Interpreter::exec(Operation *op) {
  if (recorder)
    recorder->noteStatement(op);
  return llvm::TypeSwitch<Operation *, LogicalResult>(op)
      .Case([&](LoopOp loop) { return execLoop(loop); })
      .Case([&](IfOp guard) { return execIf(guard); })
      .Case([&](IncTaskIdOp) {
        env->startTask(++task); // INCTASKID
        return success();
      })
      .Case([&](AllocOp alloc) { return execAlloc(alloc); })
      .Case([&](ClearReadsOp clear) { return execClear(clear, true); })
      .Case([&](ClearMutatesOp clear) { return execClear(clear, false); })
      .Case([&](RecordReadOp record) { return execRecord(record, true); })
      .Case([&](RecordMutateOp record) { return execRecord(record, false); })
      .Case([&](FenceOp fence) { return execFence(fence); })
      .Case([&](ArriveOp arrive) { return execArrive(arrive); })
      .Case([&](AwaitOp await) { return execAwait(await); })
      .Case([&](CheckReadsOp check) { return execCheck(check, true); })
      .Case([&](CheckMutatesOp check) { return execCheck(check, false); })
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
  int64_t lo =
      exogpu::evaluateControlExpr(op.getBounds().getResult(0), *values);
  int64_t hi =
      exogpu::evaluateControlExpr(op.getBounds().getResult(1), *values);
  // LOOPSTEP while lo < hi, then LOOPDONE.
  TaskLoopState *taskLoop = getTaskLoop(op);
  for (int64_t y = lo; y < hi; ++y) {
    sigma[op.getIterator()] = y;
    if (failed(taskLoop ? execTask(op, *taskLoop)
                        : execBlock(op.getBody().front())))
      return failure();
  }
  return success();
}

Interpreter::TaskLoopState *Interpreter::getTaskLoop(LoopOp op) {
  if (options.engine != Engine::Box || !options.replayTasks || recorder)
    return nullptr;
  auto [it, inserted] = taskLoops.try_emplace(op);
  if (inserted) {
    it->second = std::make_unique<TaskLoopState>();
    it->second->plan = TaskLoopPlan::analyze(op);
  }
  return it->second->plan ? it->second.get() : nullptr;
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
  bool known = state.summary && state.summary->key == key;
  if (known && replayTask(plan, *state.summary, *env, task, iterators,
                          [&](const AccessWindow &window) {
                            return isInBounds(window);
                          })) {
    ++state.replayed;
    return success();
  }
  ++state.ran;
  std::optional<TaskRecorder> watching;
  if (!known) {
    recorder = &watching.emplace(plan, *env, task);
    // The prefix's ALLOCs.
    for (Operation &prefixOp : llvm::make_range(body.begin(), it))
      if (auto alloc = dyn_cast<AllocOp>(prefixOp))
        recorder->noteAlloc(*getAllocationBox(alloc), alloc.getBarrier());
  }
  for (auto end = body.end(); it != end; ++it) {
    if (failed(exec(&*it))) {
      recorder = nullptr;
      return failure();
    }
  }
  recorder = nullptr;
  if (watching)
    if (std::optional<TaskSummary> summary = watching->finish(key, iterators))
      state.summary = std::move(summary);
  return success();
}

LogicalResult Interpreter::execIf(IfOp op) {
  FailureOr<SmallVector<int64_t>> values = getValues(op, op.getCtrl());
  if (failed(values))
    return failure();
  if (!op.getCondition().evaluate(*values))
    return success();                     // IF-FALSE
  return execBlock(op.getBody().front()); // IF-TRUE
}

/// The element of a one-element window.
static ElementKey getElementKey(const AccessWindow &window) {
  ElementKey key{window.var, {}};
  for (IntervalSet::Interval r : window.ranges)
    key.index.push_back(r.first);
  return key;
}

/// The window of exactly one element.
static AccessWindow getElementWindow(const ElementKey &key) {
  AccessWindow window{key.var, {}};
  for (int64_t i : key.index)
    window.ranges.push_back({i, i});
  return window;
}

//===----------------------------------------------------------------------===//
// Fig. 22: alloc, clear, record
//===----------------------------------------------------------------------===//

FailureOr<AccessWindow> Interpreter::getAllocationBox(AllocOp op) {
  FailureOr<SmallVector<int64_t>> values = getValues(op, op.getCtrl());
  if (failed(values))
    return failure();
  AccessWindow extents = evaluateAccess(op.getTarget(), *values);
  SmallVector<int64_t> sizes;
  for (IntervalSet::Interval r : extents.ranges)
    sizes.push_back(r.first);
  return getAllocationWindow(extents.var, sizes);
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
  return success();
}

template <typename ClearOp>
LogicalResult Interpreter::execClear(ClearOp op, bool reads) {
  FailureOr<SmallVector<int64_t>> values = getValues(op, op.getCtrl());
  if (failed(values))
    return failure();
  FailureOr<AccessWindow> window = evaluate(op, op.getTarget(), *values);
  if (failed(window))
    return failure();
  if (recorder)
    recorder->noteProbe(*window, reads);
  env->update(*window, [&](ElementState &state) {
    std::vector<VisibilityRecord> &records =
        reads ? state.reads : state.mutates;
    bool changed = !records.empty();
    records.clear();
    return changed;
  });
  return success();
}

template <typename RecordOp>
LogicalResult Interpreter::execRecord(RecordOp op, bool reads) {
  FailureOr<SmallVector<int64_t>> values = getValues(op, op.getCtrl());
  FailureOr<ThreadSet> threads = getThreads(op, values);
  if (failed(threads))
    return failure();
  // P_{E, rho}: the current arrive count of every accessed barrier element,
  // or of the home barrier for all of them (a multicast completion).
  std::optional<int64_t> homeCount;
  if (AccessAttr home = op.getHomeAttr()) {
    FailureOr<AccessWindow> window = evaluate(op, home, *values);
    if (failed(window))
      return failure();
    if (window->empty() || !window->isSingleElement())
      return emitError(op.getLoc(),
                       "the home barrier of a record must be one element");
    homeCount = getArriveCount(getElementKey(*window));
  }
  ArriveCounts arrives;
  for (Attribute barrier : op.getBarriers()) {
    FailureOr<AccessWindow> window =
        evaluate(op, cast<AccessAttr>(barrier), *values);
    if (failed(window))
      return failure();
    env->visit(*window, /*distinct=*/false,
               [&](const ElementKey &key, const ElementState &state) {
                 observeArrive(arrives, key, homeCount.value_or(state.arrives));
                 return true;
               });
  }
  std::vector<VisibilityRecord> records =
      makeRecords(op.getLevel(), op.getConvergent(), op.getTimeline(),
                  op.getAtomic().getBits(), arrives, *threads, op.getLoc(),
                  /*group=*/options.engine == Engine::Box);
  FailureOr<AccessWindow> window = evaluate(op, op.getTarget(), *values);
  if (failed(window))
    return failure();
  if (recorder)
    recorder->noteRecord(*window);
  env->update(*window, [&](ElementState &state) {
    return addRecords(reads ? state.reads : state.mutates, records,
                      /*prune=*/options.engine == Engine::Box);
  });
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
  env->liftSeenBy(
      *threads,
      [&](std::vector<VisibilityRecord> &records) {
        return liftFence(records, op.getTransitive(), *threads, pre, full,
                         temp);
      },
      signature);
  return success();
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
    if (failed(window))
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
  for (const AccessWindow &window : windows)
    window.forEachElement([&](const ElementKey &key) {
      counts.push_back({key, homeCount});
      return true;
    });
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
  env->liftSeenBy(
      *threads,
      [&](std::vector<VisibilityRecord> &records) {
        return liftArrive(records, op.getTransitive(), *threads, pre, counts);
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
  return success();
}

LogicalResult Interpreter::execAwait(AwaitOp op) {
  FailureOr<SmallVector<int64_t>> values = getValues(op, op.getCtrl());
  FailureOr<ThreadSet> threads = getThreads(op, values);
  if (failed(threads))
    return failure();
  FailureOr<AccessWindow> evaluated = evaluate(op, op.getBarrier(), *values);
  if (failed(evaluated))
    return failure();
  AccessWindow &window = *evaluated;
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
  QualMask full = op.getFull().getBits(), temp = op.getTemp().getBits();
  bool own = op.getOwn();
  LiftSignature signature{3, full, temp, own};
  threads->appendKey(signature);
  env->liftObserving(
      key, max,
      [&](std::vector<VisibilityRecord> &records) {
        return liftAwait(records, key, max, *threads, full, temp, own);
      },
      signature);
  env->update(window, [&](ElementState &state) {
    state.awaits = next;
    return false;
  });
  return success();
}

//===----------------------------------------------------------------------===//
// Fig. 7: checks
//===----------------------------------------------------------------------===//

template <typename CheckOp>
LogicalResult Interpreter::execCheck(CheckOp op, bool reads) {
  FailureOr<SmallVector<int64_t>> values = getValues(op, op.getCtrl());
  FailureOr<ThreadSet> threads = getThreads(op, values);
  if (failed(threads))
    return failure();
  VisibilityQuery query{op.getLevel(), op.getTimelines().getBits(),
                        op.getConvergent(), *threads};
  FailureOr<AccessWindow> window = evaluate(op, op.getTarget(), *values);
  if (failed(window))
    return failure();
  if (recorder)
    recorder->noteProbe(*window, reads);
  bool passed =
      env->visit(*window, /*distinct=*/true,
                 [&](const ElementKey &key, const ElementState &state) {
                   std::optional<RejectedRecord> rejected = findRejectedRecord(
                       reads ? state.reads : state.mutates, *threads,
                       query.timelines, query.level, query.convergent);
                   if (!rejected)
                     return true;
                   reportInvisibleRecord(op, key, reads, rejected->record,
                                         query, rejected->blind);
                   return false;
                 });
  return success(passed);
}

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
  if (op.getCondition().evaluate(*values))
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
  AccessWindow window = evaluateAccess(access, values);
  if (isInBounds(window))
    return window;
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
}

//===----------------------------------------------------------------------===//
// Parameter bindings
//===----------------------------------------------------------------------===//

FailureOr<llvm::StringMap<int64_t>>
mlir::exoam::parseBindings(Operation *op, StringRef passName,
                           ArrayRef<std::string> items) {
  llvm::StringMap<int64_t> bindings;
  for (StringRef item : items) {
    auto [name, text] = item.split('=');
    int64_t value;
    if (text == "true")
      value = 1;
    else if (text == "false")
      value = 0;
    else if (name.empty() || text.getAsInteger(10, value))
      return emitError(op->getLoc())
             << passName << ": expected name=integer, got '" << item << "'";
    if (!bindings.insert({name, value}).second)
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
    if (llvm::is_contained(
            {"args", "engine", "proc", "replay-tasks", "replay-remarks"}, name))
      kept.push_back(item.str());
    else
      bindings.push_back(item.str());
  }
  if (!bindings.empty())
    kept.push_back("args=" + llvm::join(bindings, ","));
  return llvm::join(kept, " ");
}

FailureOr<SmallVector<int64_t>>
mlir::exoam::bindParams(ProcOp proc, const llvm::StringMap<int64_t> &bindings,
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
    if (param.getType().isInteger(1) && it->second != 0 && it->second != 1)
      return emitError(proc.getLoc())
             << passName << ": bool parameter '" << name.getValue()
             << "' takes true, false, 1 or 0";
    args.push_back(it->second);
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
