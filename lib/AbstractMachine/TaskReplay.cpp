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
// its own threads at unordered or above) as long as no record is seen by
// every thread and none sits in a list it checks or clears. Then its run
// appends the renamed records of the recorded run to the global lists and
// leaves the renamed local states.
//
//===----------------------------------------------------------------------===//

#include "TaskReplay.h"
#include "ExoGPU/AbstractMachine/Evaluation.h"

using namespace mlir;
using namespace mlir::exoam;

//===----------------------------------------------------------------------===//
// TaskLoopPlan
//===----------------------------------------------------------------------===//

static bool isTaskLoop(LoopOp loop) {
  Block &body = loop.getBody().front();
  return !body.empty() && isa<IncTaskIdOp>(body.front());
}

/// Whether `expr` uses a dimension that `taskOf` maps to a task iterator.
static bool usesTaskIterator(AffineExpr expr, ArrayRef<int> taskOf) {
  bool uses = false;
  expr.walk([&](AffineExpr sub) {
    if (auto dim = dyn_cast<AffineDimExpr>(sub))
      uses |=
          dim.getPosition() >= taskOf.size() || taskOf[dim.getPosition()] >= 0;
  });
  return uses;
}

/// The coefficients c_i of `expr` = sum_i c_i * (task iterator i) + (an
/// expression of the other dimensions), or nothing if it has no such form.
static std::optional<SmallVector<int64_t>>
getTaskCoefficients(AffineExpr expr, ArrayRef<int> taskOf, unsigned count) {
  SmallVector<int64_t> zero(count, 0);
  if (!usesTaskIterator(expr, taskOf))
    return zero;
  if (auto dim = dyn_cast<AffineDimExpr>(expr)) {
    if (dim.getPosition() >= taskOf.size())
      return std::nullopt;
    zero[taskOf[dim.getPosition()]] = 1;
    return zero;
  }
  auto binary = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!binary)
    return std::nullopt;
  if (expr.getKind() == AffineExprKind::Add) {
    auto lhs = getTaskCoefficients(binary.getLHS(), taskOf, count);
    auto rhs = getTaskCoefficients(binary.getRHS(), taskOf, count);
    if (!lhs || !rhs)
      return std::nullopt;
    for (unsigned i = 0; i < count; ++i)
      (*lhs)[i] += (*rhs)[i];
    return lhs;
  }
  if (expr.getKind() != AffineExprKind::Mul)
    return std::nullopt; // mod, floordiv, ceildiv of a task iterator
  AffineExpr factor = binary.getLHS(), scaled = binary.getRHS();
  if (!isa<AffineConstantExpr>(factor))
    std::swap(factor, scaled);
  auto constant = dyn_cast<AffineConstantExpr>(factor);
  if (!constant)
    return std::nullopt;
  auto inner = getTaskCoefficients(scaled, taskOf, count);
  if (inner)
    for (int64_t &c : *inner)
      c *= constant.getValue();
  return inner;
}

/// Calls `fn` with every access a statement holds (its target, its barrier,
/// each of its barriers) and the name of the attribute holding it.
static void forEachAccess(Operation *op,
                          function_ref<void(StringAttr, AccessAttr)> fn) {
  for (NamedAttribute attr : op->getAttrs()) {
    if (auto access = dyn_cast<AccessAttr>(attr.getValue()))
      fn(attr.getName(), access);
    else if (auto array = dyn_cast<ArrayAttr>(attr.getValue()))
      for (Attribute element : array)
        if (auto access = dyn_cast<AccessAttr>(element))
          fn(attr.getName(), access);
  }
}

std::optional<TaskLoopPlan> TaskLoopPlan::analyze(LoopOp loop) {
  if (!isTaskLoop(loop))
    return std::nullopt;
  TaskLoopPlan plan;
  for (Operation *op = loop; op; op = op->getParentOp())
    if (auto enclosing = dyn_cast<LoopOp>(op);
        enclosing && isTaskLoop(enclosing))
      plan.taskIterators.push_back(enclosing.getIterator());
  Block &body = loop.getBody().front();
  for (auto it = std::next(body.begin()); it != body.end() && isa<AllocOp>(*it);
       ++it)
    ++plan.prefixSize;
  body.walk(
      [&](AllocOp alloc) { plan.locals.insert(alloc.getTarget().getVar()); });
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
    for (NamedAttribute attr : op->getAttrs()) {
      auto threads = dyn_cast<ThreadMappingAttr>(attr.getValue());
      if (!threads)
        continue;
      if (threads.getScope() != ExecScope::gpu)
        ok = false;
      for (TilingDimAttr dim : threads.getDims())
        for (TilingOpAttr tiling : dim.getOps())
          if (tiling.getIter() &&
              (*tiling.getIter() >= static_cast<int64_t>(taskOf.size()) ||
               taskOf[*tiling.getIter()] >= 0))
            ok = false;
    }
    forEachAccess(op, [&](StringAttr name, AccessAttr access) {
      AffineMap coords = access.getCoords();
      if (plan.isLocal(access.getVar())) {
        ok &= llvm::none_of(coords.getResults(), [&](AffineExpr e) {
          return usesTaskIterator(e, taskOf);
        });
        return;
      }
      if (name != "target" || isa<ArriveOp, AwaitOp, CheckBarrierOp>(op)) {
        ok = false; // a barrier use of a global variable
        return;
      }
      // Per dimension, the coefficients of its bound (both bounds of a
      // range must agree), the same in every access of the variable.
      SmallVector<SmallVector<int64_t>> perDim;
      unsigned result = 0;
      for (int32_t kind : access.getKinds()) {
        std::optional<SmallVector<int64_t>> first;
        for (int32_t i = 0; i <= kind; ++i) {
          if (result >= coords.getNumResults()) {
            ok = false;
            break;
          }
          auto c = getTaskCoefficients(coords.getResult(result++), taskOf,
                                       plan.taskIterators.size());
          if (!c || (first && *first != *c))
            ok = false;
          else
            first = c;
        }
        perDim.push_back(first.value_or(SmallVector<int64_t>()));
      }
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
                           int64_t task)
    : plan(plan), store(store), task(task), valid(!store.hasRecordSeenByAll()) {
}

/// Whether `record` was made by threads of `task` alone.
static bool isOwnRecord(const VisibilityRecord &record, int64_t task) {
  return record.actors.isWithinTask(task);
}

void TaskRecorder::noteProbe(const AccessWindow &window, bool reads) {
  if (!valid || plan.isLocal(window.var))
    return;
  store.visit(window, /*distinct=*/true,
              [&](const ElementKey &, const ElementState &state) {
                valid &= llvm::all_of(reads ? state.reads : state.mutates,
                                      [&](const VisibilityRecord &r) {
                                        return isOwnRecord(r, task);
                                      });
                return valid;
              });
  probes.push_back({window, reads});
}

void TaskRecorder::noteAlloc(const AccessWindow &box, bool barrier) {
  auto [it, inserted] = allocations.try_emplace(box.var, box, barrier);
  valid &= inserted || it->second.first.ranges == box.ranges;
}

void TaskRecorder::noteStatement(Operation *op) {
  if (isa<AllocOp>(op))
    return;
  forEachAccess(op, [&](StringAttr, AccessAttr access) {
    valid &=
        !plan.isLocal(access.getVar()) || allocations.contains(access.getVar());
  });
}

void TaskRecorder::noteRecord(const AccessWindow &window) {
  (plan.isLocal(window.var) ? recordedLocal : recorded).push_back(window);
}

/// Whether two windows of one variable share an element.
static bool overlaps(const AccessWindow &a, const AccessWindow &b) {
  for (auto [x, y] : llvm::zip(a.ranges, b.ranges))
    if (x.second < y.first || y.second < x.first)
      return false;
  return true;
}

std::optional<TaskSummary>
TaskRecorder::finish(ArrayRef<int64_t> key, ArrayRef<int64_t> taskIterators) {
  if (!valid)
    return std::nullopt;
  // Records outside the allocations of local variables would escape the
  // summary.
  for (const AccessWindow &window : recordedLocal) {
    const AccessWindow &allocation = allocations.find(window.var)->second.first;
    for (auto [w, a] : llvm::zip(window.ranges, allocation.ranges))
      if (w.first < a.first || a.second < w.second)
        return std::nullopt;
  }
  TaskSummary summary;
  summary.key.assign(key.begin(), key.end());
  summary.taskIterators.assign(taskIterators.begin(), taskIterators.end());
  summary.task = task;
  summary.probes = std::move(probes);
  for (const auto &[var, allocation] : allocations) {
    summary.allocations.push_back(allocation);
    store.visitBoxes(allocation.first,
                     [&](const AccessWindow &box, const ElementState &state) {
                       if (!state.reads.empty() || !state.mutates.empty() ||
                           state.getPhases() || state.awaits)
                         summary.locals.push_back({box, state});
                     });
  }
  // The global windows recorded on, each once; windows that overlap without
  // being equal would need their boxes split: no replay then.
  std::vector<AccessWindow> windows;
  for (const AccessWindow &window : recorded) {
    bool seen = false;
    for (const AccessWindow &other : windows) {
      if (other.var != window.var || !overlaps(other, window))
        continue;
      if (other.ranges != window.ranges)
        return std::nullopt;
      seen = true;
    }
    if (!seen)
      windows.push_back(window);
  }
  auto own = [&](const std::vector<VisibilityRecord> &records) {
    std::vector<VisibilityRecord> kept;
    for (const VisibilityRecord &record : records)
      if (isOwnRecord(record, task))
        kept.push_back(record);
    return kept;
  };
  for (const AccessWindow &window : windows)
    store.visitBoxes(window,
                     [&](const AccessWindow &box, const ElementState &state) {
                       TaskSummary::GlobalRecords records{box, own(state.reads),
                                                          own(state.mutates)};
                       if (!records.reads.empty() || !records.mutates.empty())
                         summary.globals.push_back(std::move(records));
                     });
  return summary;
}

//===----------------------------------------------------------------------===//
// Replay
//===----------------------------------------------------------------------===//

static AccessWindow translate(AccessWindow window, ArrayRef<int64_t> shift) {
  for (auto [range, delta] : llvm::zip(window.ranges, shift)) {
    range.first += delta;
    range.second += delta;
  }
  return window;
}

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

bool mlir::exoam::replayTask(
    const TaskLoopPlan &plan, const TaskSummary &summary, SyncStore &store,
    int64_t task, ArrayRef<int64_t> taskIterators,
    function_ref<bool(const AccessWindow &)> inBounds) {
  if (store.hasRecordSeenByAll())
    return false;
  auto shiftOf = [&](StringAttr var) {
    return plan.getShift(var, summary.taskIterators, taskIterators);
  };
  // A task whose accesses leave a variable runs, to report the access.
  for (const TaskSummary::GlobalRecords &records : summary.globals)
    if (!inBounds(translate(records.box, shiftOf(records.box.var))))
      return false;
  for (const auto &[window, reads] : summary.probes) {
    AccessWindow translated = translate(window, shiftOf(window.var));
    if (!inBounds(translated))
      return false;
    bool empty =
        store.visit(translated, /*distinct=*/true,
                    [&](const ElementKey &, const ElementState &state) {
                      return (reads ? state.reads : state.mutates).empty();
                    });
    if (!empty)
      return false;
  }
  // The task's ALLOCs: those of its prefix ran, the others would have.
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
    store.update(box, [&](ElementState &element) {
      element = renamed;
      return true;
    });
  }
  for (const TaskSummary::GlobalRecords &records : summary.globals)
    store.update(
        translate(records.box, shiftOf(records.box.var)),
        [&](ElementState &element) {
          appendRenamed(element.reads, records.reads, summary.task, task);
          appendRenamed(element.mutates, records.mutates, summary.task, task);
          return true;
        });
  return true;
}
