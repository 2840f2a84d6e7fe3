//===- TaskReplay.cpp - replaying a task from an earlier one -------------===//
//
// Part of ExoGPU. Why a replay gives the state and verdict the task's own
// run would (docs/abstract-machine.md "Task replay"): the local variables
// start empty (the prefix ALLOCs); the task's statements are the recorded
// task's with the task id renamed and the global windows translated (the
// plan's static conditions); records of other tasks on the global elements
// it touches are inert to it (none of its threads sees them: lifts by its
// threads leave them alone, they observe no barrier of its lifetime, and
// pruning or deduplication never matches them, its records being seen by
// its own threads at unordered or above), none sits in a list it clears,
// and every one in a list it checks passes those checks (they pass there
// now, and stay as they are). Records seen by every thread are not inert,
// but a task with the summary's key left each of them as it was once the
// task was finished; the replay checks that no other record of that kind
// appeared since. Then the task's run appends the renamed records of the
// recorded run to the global lists and leaves the renamed local states.
//
//===----------------------------------------------------------------------===//

#include "TaskReplay.h"
#include "ExoGPU/AbstractMachine/Evaluation.h"
#include "StatementInfo.h"
#include "WindowUnion.h"
#include <unordered_map>

using namespace mlir;
using namespace mlir::exoam;

//===----------------------------------------------------------------------===//
// TaskLoopPlan
//===----------------------------------------------------------------------===//

/// Whether running `op` may run a statement of GPU threads before an
/// inc_task_id. A task loop's statements run after its inc_task_id.
static bool mayRunGpuStatement(Operation *op) {
  bool found = false;
  op->walk<WalkOrder::PreOrder>([&](Operation *nested) {
    if (auto loop = dyn_cast<LoopOp>(nested); loop && isTaskLoop(loop))
      return WalkResult::skip();
    ThreadMappingAttr threads = getThreadMapping(nested);
    if (threads && threads.getScope() != ExecScope::cpu) {
      found = true;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return found;
}

/// Whether no statement of GPU threads runs after an iteration of `loop`
/// before the next inc_task_id or the end of the proc.
static bool finishesWithLoopBody(LoopOp loop) {
  // The statements that may run next: the rest of each enclosing block and,
  // for an enclosing sequential loop, the start of its body too (its next
  // iteration); an enclosing task loop's next iteration starts with
  // inc_task_id.
  for (Operation *op = loop; !isa<ProcOp>(op); op = op->getParentOp()) {
    for (Operation *next = op->getNextNode(); next;
         next = next->getNextNode()) {
      if (isa<IncTaskIdOp>(next))
        return true;
      if (mayRunGpuStatement(next))
        return false;
    }
    auto parent = dyn_cast<LoopOp>(op->getParentOp());
    if (!parent || isTaskLoop(parent))
      continue;
    for (Operation &first : parent.getBody().front()) {
      if (&first == op || isa<IncTaskIdOp>(first))
        break;
      if (mayRunGpuStatement(&first))
        return false;
    }
  }
  return true;
}

/// Whether every access to a variable `loop` allocates is in its body, after
/// an ALLOC of that variable that dominates it (an earlier statement of the
/// same block or of an enclosing block in the body).
static bool keepsLocalsInside(LoopOp loop,
                              const llvm::DenseSet<StringAttr> &locals) {
  Block &body = loop.getBody().front();
  bool inside = true;
  loop->getParentOfType<ProcOp>().walk([&](Operation *op) {
    if (isa<AllocOp>(op))
      return;
    bool inBody = loop->isProperAncestor(op);
    forEachAccess(op, [&](StringAttr, AccessAttr access) {
      StringAttr var = access.getVar();
      if (locals.contains(var) &&
          (!inBody || !isAllocatedBefore(op, var, body)))
        inside = false;
    });
  });
  return inside;
}

/// Whether the statements of `body` use `iterator` other than in the
/// windows of their accesses to variables outside `locals`: in a loop bound,
/// a condition, an allocation's extents, a thread mapping or a window of a
/// local variable. Tasks that differ in such an iterator may run different
/// statements (the causal attention kernel's K/V loop ends at its query
/// block), so it is part of the replay key.
static bool selectsStatements(Block &body, Value iterator,
                              const llvm::DenseSet<StringAttr> &locals) {
  bool selects = false;
  body.walk([&](Operation *op) {
    if (selects || !llvm::is_contained(op->getOperands(), iterator))
      return;
    SmallVector<int> iteratorOf = getIteratorMap(op, iterator);
    if (isa<AllocOp, LoopOp, IfOp>(op))
      selects = true;
    if (ThreadMappingAttr threads = getThreadMapping(op))
      selects |= usesIterator(threads, iteratorOf);
    forEachAccess(op, [&](StringAttr, AccessAttr access) {
      if (locals.contains(access.getVar()))
        selects |=
            llvm::any_of(access.getCoords().getResults(), [&](AffineExpr e) {
              return usesIterator(e, iteratorOf);
            });
    });
  });
  return selects;
}

std::optional<TaskLoopPlan> TaskLoopPlan::analyze(LoopOp loop) {
  if (!isTaskLoop(loop))
    return std::nullopt;
  TaskLoopPlan plan;
  Block &body = loop.getBody().front();
  body.walk(
      [&](AllocOp alloc) { plan.locals.insert(alloc.getTarget().getVar()); });
  // The task iterators that select statements are key values: replays
  // translate windows along the others only.
  for (Operation *op = loop; op; op = op->getParentOp())
    if (auto enclosing = dyn_cast<LoopOp>(op);
        enclosing && isTaskLoop(enclosing)) {
      Value iterator = enclosing.getIterator();
      if (selectsStatements(body, iterator, plan.locals))
        plan.keyValues.insert(iterator);
      else
        plan.taskIterators.push_back(iterator);
    }
  for (auto it = std::next(body.begin()); it != body.end() && isa<AllocOp>(*it);
       ++it)
    ++plan.prefixSize;
  Region &bodyRegion = loop.getBody();
  auto taskIndex = [&](Value value) -> int {
    auto found = llvm::find(plan.taskIterators, value);
    return found == plan.taskIterators.end()
               ? -1
               : std::distance(plan.taskIterators.begin(), found);
  };

  bool ok = true;
  unsigned position = 0;
  body.walk([&](Operation *op) {
    bool inPrefix = op->getBlock() == &body && position++ < plan.prefixSize;
    if (!ok || op->getDialect() != loop->getDialect()) {
      ok = false;
      return;
    }
    SmallVector<int> taskOf;
    for (Value operand : op->getOperands()) {
      taskOf.push_back(taskIndex(operand));
      if (taskOf.back() < 0 &&
          !bodyRegion.isAncestor(operand.getParentRegion()))
        plan.keyValues.insert(operand);
    }
    bool usesTask = llvm::any_of(taskOf, [](int t) { return t >= 0; });
    if (isa<IncTaskIdOp>(op)) {
      ok = inPrefix;
      return;
    }
    if (isa<AllocOp, LoopOp, IfOp>(op)) {
      ok = !usesTask;
      return;
    }
    if (ThreadMappingAttr threads = getThreadMapping(op))
      ok &= threads.getScope() == ExecScope::gpu &&
            !usesIterator(threads, taskOf);
    forEachAccess(op, [&](StringAttr name, AccessAttr access) {
      AffineMap coords = access.getCoords();
      if (plan.isLocal(access.getVar())) {
        plan.localAccesses[op].push_back(access.getVar());
        ok &= llvm::none_of(coords.getResults(), [&](AffineExpr e) {
          return usesIterator(e, taskOf);
        });
        return;
      }
      if (name != "target" || isa<ArriveOp, AwaitOp, CheckBarrierOp>(op)) {
        ok = false; // a barrier use of a global variable
        return;
      }
      // The same coefficients in every access of the variable.
      std::optional<SmallVector<SmallVector<int64_t>>> shifts =
          getAccessShifts(access, taskOf, plan.taskIterators.size());
      if (!shifts) {
        ok = false;
        return;
      }
      SmallVector<SmallVector<int64_t>> perDim = std::move(*shifts);
      auto [entry, inserted] = plan.shifts.try_emplace(access.getVar(), perDim);
      if (!inserted && entry->second != perDim)
        ok = false;
    });
    if (auto record = dyn_cast<RecordReadOp>(op))
      ok &= record.getLevel() >= VisibilityLevel::unordered;
    if (auto record = dyn_cast<RecordMutateOp>(op))
      ok &= record.getLevel() >= VisibilityLevel::unordered;
  });
  if (!ok)
    return std::nullopt;
  plan.finishes = finishesWithLoopBody(loop);
  plan.localsInside = keepsLocalsInside(loop, plan.locals);
  return plan;
}

SmallVector<int64_t> TaskLoopPlan::getShift(StringAttr var,
                                            ArrayRef<int64_t> from,
                                            ArrayRef<int64_t> to) const {
  SmallVector<int64_t> shift;
  auto it = shifts.find(var);
  if (it == shifts.end())
    return shift;
  for (ArrayRef<int64_t> coefficients : it->second) {
    int64_t delta = 0;
    for (auto [c, a, b] : llvm::zip(coefficients, from, to))
      delta += c * (b - a);
    shift.push_back(delta);
  }
  return shift;
}

//===----------------------------------------------------------------------===//
// Recording
//===----------------------------------------------------------------------===//

TaskRecorder::TaskRecorder(const TaskLoopPlan &plan, SyncStore &store,
                           int64_t task, bool finished)
    : plan(plan), store(store), task(task), finished(finished),
      checkedReads(std::make_unique<WindowUnion>()),
      checkedMutates(std::make_unique<WindowUnion>()),
      clearedReads(std::make_unique<WindowUnion>()),
      clearedMutates(std::make_unique<WindowUnion>()),
      recorded(std::make_unique<WindowUnion>()) {}

TaskRecorder::~TaskRecorder() = default;

/// Whether `record` was made by threads of `task` alone.
static bool isOwnRecord(const VisibilityRecord &record, int64_t task) {
  return record.actors.isWithinTask(task);
}

unsigned TaskRecorder::noteEffect(const ElementEffect &effect,
                                  const AccessWindow &window) {
  bool isCheck = effect.kind == ElementEffect::Kind::Check;
  SmallVector<int64_t, 4> key{static_cast<int64_t>(effect.kind), effect.reads};
  if (isCheck)
    key.append({static_cast<int64_t>(effect.level), effect.timelines});
  auto [it, inserted] = callNumbers.try_emplace(key, calls.size());
  if (inserted) {
    calls.push_back({effect.kind, effect.reads, unsigned(checks.size())});
    if (isCheck)
      checks.emplace_back(
          TaskCheck{effect.reads, effect.level, effect.timelines, {}},
          std::make_unique<WindowUnion>());
  }
  if (isCheck)
    checks[calls[it->second].check].first.threads.insert(effect.threads);
  noteCall(it->second, window);
  return it->second;
}

void TaskRecorder::noteCall(unsigned number, const AccessWindow &window) {
  const Call &call = calls[number];
  if (call.kind == ElementEffect::Kind::Record)
    return noteRecord(window);
  // What a task does to its local variables is in their final states.
  if (plan.isLocal(window.var) || window.empty())
    return;
  if (call.kind == ElementEffect::Kind::Check) {
    checks[call.check].second->add(window);
    (call.reads ? checkedReads : checkedMutates)->add(window);
  } else {
    (call.reads ? clearedReads : clearedMutates)->add(window);
  }
}

void TaskRecorder::noteAlloc(const AccessWindow &box, bool barrier) {
  auto [it, inserted] = allocations.try_emplace(box.var, box, barrier);
  valid &= inserted || it->second.first.ranges == box.ranges;
}

void TaskRecorder::noteStatement(Operation *op) {
  for (StringAttr var : plan.getLocalAccesses(op))
    valid &= allocations.contains(var);
}

void TaskRecorder::noteRecord(const AccessWindow &window) {
  if (window.empty())
    return;
  if (!plan.isLocal(window.var)) {
    recorded->add(window);
    return;
  }
  // Records outside the allocation would escape the summary (an access
  // before the allocation voids the run in noteStatement).
  auto it = allocations.find(window.var);
  valid &= it != allocations.end() &&
           isWithin(window.ranges, it->second.first.ranges);
}

/// The timelines of `records`.
static QualMask getTimelines(ArrayRef<VisibilityRecord> records) {
  QualMask timelines = 0;
  for (const VisibilityRecord &record : records)
    timelines |= getQualBit(record.timeline);
  return timelines;
}

/// The records of `records` made by `task`.
static std::vector<VisibilityRecord>
getOwnRecords(const std::vector<VisibilityRecord> &records, int64_t task) {
  std::vector<VisibilityRecord> own;
  for (const VisibilityRecord &record : records)
    if (isOwnRecord(record, task))
      own.push_back(record);
  return own;
}

std::optional<TaskSummary>
TaskRecorder::finish(ArrayRef<int64_t> key, ArrayRef<int64_t> taskIterators) {
  if (!valid)
    return std::nullopt;
  TaskSummary summary;
  summary.key.assign(key.begin(), key.end());
  summary.taskIterators.assign(taskIterators.begin(), taskIterators.end());
  summary.task = task;
  summary.finishedForm = finished;
  for (auto [union_, list, reads] :
       {std::tuple(checkedReads.get(), &summary.checked, true),
        std::tuple(checkedMutates.get(), &summary.checked, false),
        std::tuple(clearedReads.get(), &summary.clears, true),
        std::tuple(clearedMutates.get(), &summary.clears, false)})
    union_->forEachBox([&, list = list, reads = reads](const AccessWindow &box,
                                                       BoxTree::Value) {
      list->push_back({box, reads});
    });
  for (const auto &[check, boxes] : checks)
    summary.checks.push_back({check, boxes->getBoxes()});
  for (const auto &[var, allocation] : allocations) {
    summary.allocations.push_back(allocation);
    if (plan.localsStayInside())
      continue;
    store.visitBoxes(allocation.first, [&](const AccessWindow &box,
                                           const ElementState &state) {
      if (!state.reads.empty() || !state.mutates.empty() ||
          !state.ring.empty() || state.getPhases() || state.awaits)
        summary.locals.push_back({box, state});
    });
  }
  summary.recorded = recorded->getBoxes();
  if (!finished) {
    for (const AccessWindow &covered : summary.recorded)
      store.visitBoxes(covered, [&](const AccessWindow &box,
                                    const ElementState &state) {
        TaskSummary::GlobalRecords records{box,
                                           getOwnRecords(state.reads, task),
                                           getOwnRecords(state.mutates, task)};
        if (!records.reads.empty() || !records.mutates.empty())
          summary.globals.push_back(std::move(records));
      });
    return summary;
  }
  // The finished forms of the records, each distinct one once; their boxes
  // coalesced where neighbours have the same.
  std::unordered_map<size_t, SmallVector<unsigned, 1>> byHash;
  WindowUnion finishedBoxes;
  auto isDead = [&](const ElementKey &key) {
    return plan.isDeadAfterTask(key);
  };
  for (const AccessWindow &covered : summary.recorded)
    store.visitBoxes(
        covered, [&](const AccessWindow &box, const ElementState &state) {
          ElementState own;
          own.reads = getOwnRecords(state.reads, task);
          own.mutates = getOwnRecords(state.mutates, task);
          compactFinishedRecords(own.reads, task, isDead);
          compactFinishedRecords(own.mutates, task, isDead);
          if (own.reads.empty() && own.mutates.empty())
            return;
          SmallVector<unsigned, 1> &equal = byHash[hashState(own)];
          auto found = llvm::find_if(equal, [&](unsigned id) {
            return isSameState(summary.finishedStates[id], own);
          });
          unsigned id =
              found != equal.end() ? *found : summary.finishedStates.size();
          if (found == equal.end()) {
            equal.push_back(id);
            summary.finishedStates.push_back(std::move(own));
          }
          finishedBoxes.add(box, id + 1);
        });
  finishedBoxes.forEachBox([&](const AccessWindow &box, BoxTree::Value id) {
    summary.finishedGlobals.push_back({box, id - 1});
  });
  // The lists it records on and keeps, with the timelines of its records.
  WindowUnion keptReads, keptMutates;
  for (const auto &[box, id] : summary.finishedGlobals) {
    const ElementState &own = summary.finishedStates[id];
    if (QualMask timelines = getTimelines(own.reads))
      keptReads.add(box, timelines);
    if (QualMask timelines = getTimelines(own.mutates))
      keptMutates.add(box, timelines);
  }
  for (auto [kept, cleared, reads] :
       {std::tuple(&keptReads, clearedReads.get(), true),
        std::tuple(&keptMutates, clearedMutates.get(), false)}) {
    cleared->forEachBox([&, kept = kept](const AccessWindow &box,
                                         BoxTree::Value) { kept->erase(box); });
    kept->forEachBox(
        [&, reads = reads](const AccessWindow &box, BoxTree::Value timelines) {
          summary.keptLists.push_back({box, reads, timelines});
        });
  }
  return summary;
}

//===----------------------------------------------------------------------===//
// Replay
//===----------------------------------------------------------------------===//

static VisibilityRecord renameTask(const VisibilityRecord &record, int64_t from,
                                   int64_t to) {
  VisibilityRecord renamed = record;
  renamed.indexed = false;
  renamed.actors = record.actors.renameTask(from, to);
  VisibilityFunction visibility;
  for (const VisibilityGrant &grant : record.visibility.getGrants())
    visibility.insertGrant(
        visibility.getGrants().size(),
        {grant.threads.renameTask(from, to), grant.timelines, grant.level});
  renamed.visibility = std::move(visibility);
  return renamed;
}

static void appendRenamed(std::vector<VisibilityRecord> &to,
                          ArrayRef<VisibilityRecord> records, int64_t from,
                          int64_t task) {
  for (const VisibilityRecord &record : records)
    to.push_back(renameTask(record, from, task));
}

std::vector<AccessWindow>
mlir::exoam::getRecordedBoxes(const TaskLoopPlan &plan,
                              const TaskSummary &summary,
                              ArrayRef<int64_t> taskIterators) {
  std::vector<AccessWindow> boxes;
  for (const AccessWindow &box : summary.recorded)
    boxes.push_back(translateWindow(
        box, plan.getShift(box.var, summary.taskIterators, taskIterators)));
  return boxes;
}

/// Whether the records seen by every thread allow a replay of `summary`'s
/// tasks: each is one that a task with the summary's key left as it was
/// once finished (the epoch has not moved since), and none sits in a list
/// the task keeps (translated by `shiftOf`) where its records could equal
/// or prune it (a record of the same timeline).
static bool allowsReplayNextToSeenByAll(
    const TaskLoopPlan &plan, const TaskSummary &summary, SyncStore &store,
    function_ref<SmallVector<int64_t>(StringAttr)> shiftOf) {
  if (!summary.finishedForm || !plan.localsStayInside() ||
      summary.seenByAllEpoch != store.getSeenByAllEpoch())
    return false;
  for (const auto &[box, reads, timelines] : summary.keptLists)
    if (!store.visit(translateWindow(box, shiftOf(box.var)), /*distinct=*/true,
                     [&, reads = reads, timelines = timelines](
                         const ElementKey &, const ElementState &state) {
                       return llvm::none_of(
                           reads ? state.reads : state.mutates,
                           [&](const VisibilityRecord &record) {
                             return (timelines & getQualBit(record.timeline)) &&
                                    isSeenByAll(record);
                           });
                     }))
      return false;
  return true;
}

ReplayResult
mlir::exoam::replayTask(const TaskLoopPlan &plan, const TaskSummary &summary,
                        SyncStore &store, int64_t task,
                        ArrayRef<int64_t> taskIterators,
                        function_ref<bool(const AccessWindow &)> inBounds) {
  auto shiftOf = [&](StringAttr var) {
    return plan.getShift(var, summary.taskIterators, taskIterators);
  };
  auto translate = [&](const AccessWindow &window) {
    return translateWindow(window, shiftOf(window.var));
  };
  // A task whose accesses leave a variable runs, to report the access.
  for (const AccessWindow &box : summary.recorded)
    if (!inBounds(translate(box)))
      return ReplayResult::NotReplayed;
  for (const auto *lists : {&summary.checked, &summary.clears})
    for (const auto &[window, reads] : *lists)
      if (!inBounds(translate(window)))
        return ReplayResult::NotReplayed;
  if (store.hasRecordSeenByAll() &&
      !allowsReplayNextToSeenByAll(plan, summary, store, shiftOf))
    return ReplayResult::NotReplayed;
  // The other tasks' records in the lists the task checks pass its checks:
  // they stay as they are until the task ends (or its clears drop them),
  // except those seen by every thread, which its lifts can only make more
  // visible. (Most tasks find those lists empty.)
  auto holdsRecords = [&](const std::pair<AccessWindow, bool> &list) {
    bool reads = list.second;
    return !store.visit(translate(list.first), /*distinct=*/true,
                        [&](const ElementKey &, const ElementState &state) {
                          return (reads ? state.reads : state.mutates).empty();
                        });
  };
  if (llvm::any_of(summary.checked, holdsRecords))
    for (const auto &[check, boxes] : summary.checks) {
      ThreadSet threads = check.threads.renameTask(summary.task, task);
      for (const AccessWindow &box : boxes)
        if (!store.visit(translate(box), /*distinct=*/true,
                         [&](const ElementKey &, const ElementState &state) {
                           return !findRejectedRecord(
                               check.reads ? state.reads : state.mutates,
                               threads, check.timelines, check.level,
                               /*convergent=*/false);
                         }))
          return ReplayResult::NotReplayed;
    }
  // Its clears (the records it made before one are not in the summary).
  for (const auto &[window, reads] : summary.clears)
    if (holdsRecords({window, reads}))
      store.update(translate(window), [&, reads = reads](ElementState &state) {
        std::vector<VisibilityRecord> &records =
            reads ? state.reads : state.mutates;
        bool changed = !records.empty();
        records.clear();
        return changed;
      });
  // The task's ALLOCs (those of its prefix ran, the others would have) and
  // the final local states, unless no one looks at them before they are
  // allocated again.
  if (!plan.localsStayInside()) {
    for (const auto &[allocation, isBarrier] : summary.allocations) {
      store.reset(allocation);
      if (isBarrier)
        allocation.forEachElement([&](const ElementKey &key) {
          store.endBarrierLifetime(key);
          return true;
        });
    }
    for (const auto &[box, state] : summary.locals) {
      ElementState renamed;
      renamed.arrives = state.arrives;
      renamed.awaits = state.awaits;
      renamed.received = state.received;
      appendRenamed(renamed.reads, state.reads, summary.task, task);
      appendRenamed(renamed.mutates, state.mutates, summary.task, task);
      for (const RingPhase &phase : state.ring) {
        RingPhase &copy = renamed.ring.emplace_back();
        copy.phase = phase.phase;
        appendRenamed(copy.signals, phase.signals, summary.task, task);
        appendRenamed(copy.completions, phase.completions, summary.task, task);
        appendRenamed(copy.awaits, phase.awaits, summary.task, task);
        appendRenamed(copy.unpassed, phase.unpassed, summary.task, task);
      }
      store.update(box, [&](ElementState &element) {
        element = renamed;
        return true;
      });
    }
  }
  for (const TaskSummary::GlobalRecords &records : summary.globals)
    store.update(translate(records.box), [&](ElementState &element) {
      appendRenamed(element.reads, records.reads, summary.task, task);
      appendRenamed(element.mutates, records.mutates, summary.task, task);
      return true;
    });
  if (summary.finishedGlobals.empty() && !summary.globals.empty())
    return ReplayResult::Replayed;
  for (const auto &[box, id] : summary.finishedGlobals) {
    const ElementState &finished = summary.finishedStates[id];
    store.update(
        translate(box),
        [&](ElementState &element) {
          bool changed =
              addRecords(element.reads, finished.reads, /*prune=*/true);
          changed |=
              addRecords(element.mutates, finished.mutates, /*prune=*/true);
          return changed;
        },
        /*share=*/true);
  }
  return summary.globals.empty() ? ReplayResult::ReplayedFinished
                                 : ReplayResult::Replayed;
}

void mlir::exoam::compactFinishedTask(const TaskLoopPlan &plan,
                                      SyncStore &store, int64_t task,
                                      ArrayRef<AccessWindow> boxes) {
  auto isDead = [&](const ElementKey &key) {
    return plan.isDeadAfterTask(key);
  };
  for (const AccessWindow &box : boxes)
    store.update(
        box,
        [&](ElementState &state) {
          bool changed = compactFinishedRecords(state.reads, task, isDead);
          changed |= compactFinishedRecords(state.mutates, task, isDead);
          return changed;
        },
        /*share=*/true);
  store.liftSeenByAll([&](std::vector<VisibilityRecord> &records, bool) {
    return finishTaskGrants(records, task, isDead);
  });
}
