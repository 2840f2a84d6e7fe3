//===- TaskReplay.h - replaying a task from an earlier one ------*- C++ -*-===//
//
// Part of ExoGPU. The box engine runs a task (one iteration of a loop whose
// body starts with inc_task_id, Fig. 5's cuda_tasks) once, summarizes its
// effect, and applies that summary to later tasks with the same control
// values instead of running their statements, where a renaming of the task
// id and a translation of the global windows makes the two runs the same
// (docs/abstract-machine.md "Task replay"). The reference engine never
// replays.
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_LIB_ABSTRACTMACHINE_TASKREPLAY_H
#define EXOGPU_LIB_ABSTRACTMACHINE_TASKREPLAY_H

#include "ElementEffect.h"
#include "ExoGPU/AbstractMachine/SyncStore.h"
#include "ExoGPU/Dialect/ExoAM/IR/ExoAMOps.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::exoam {

class WindowUnion;

/// The static conditions under which the tasks of a loop are replayed, and
/// what a replay needs to know about its body:
///  * the body starts with inc_task_id (and the ALLOCs right after it: the
///    *prefix*, which a replayed task runs) and has no other inc_task_id;
///    the variables the body allocates are *local*, every other variable
///    it accesses is *global* (at run time, a task must allocate a local
///    variable before it accesses it, always with the same box);
///  * every barrier the body uses is local, and no statement runs on the CPU;
///  * an iterator of this loop or of an enclosing task loop that selects
///    statements (a loop bound, a condition, an allocation's extents, a
///    thread mapping or a window of a local variable uses it) is a key
///    value; the others, the *task iterators*, appear only in the windows of
///    global accesses, and there only in terms of the form c * i (not under
///    mod or a division), with the same coefficients in every access of a
///    variable: tasks with the same key then access each global variable at
///    windows translated by one vector;
///  * every record statement records at unordered or above.
class TaskLoopPlan {
public:
  /// The plan of `loop`, or nothing if its tasks are not replayable.
  static std::optional<TaskLoopPlan> analyze(LoopOp loop);

  /// The number of statements of the prefix (inc_task_id included).
  unsigned getPrefixSize() const { return prefixSize; }
  bool isLocal(StringAttr var) const { return locals.contains(var); }
  /// The local variables statement `op` of the body accesses (other than
  /// by ALLOC).
  ArrayRef<StringAttr> getLocalAccesses(Operation *op) const {
    auto it = localAccesses.find(op);
    return it == localAccesses.end() ? ArrayRef<StringAttr>() : it->second;
  }
  /// The values defined outside the body that the body uses, other than
  /// task iterators: two tasks with equal values run the same statements.
  ArrayRef<Value> getKeyValues() const { return keyValues.getArrayRef(); }
  ArrayRef<Value> getTaskIterators() const { return taskIterators; }
  /// The translation of global `var`'s windows from a task whose task
  /// iterators have values `from` to one where they have `to`.
  SmallVector<int64_t> getShift(StringAttr var, ArrayRef<int64_t> from,
                                ArrayRef<int64_t> to) const;

  /// Whether no statement of a GPU thread runs between the end of a task
  /// and the next inc_task_id (or the end of the proc): a task is finished
  /// when its body is.
  bool finishesWithBody() const { return finishes; }
  /// Whether the local variables' states at the end of a task are never
  /// looked at: every access to a local variable is in the body, after an
  /// ALLOC of it that dominates the access. A replay then leaves them as
  /// they are (the next access is after an ALLOC), and the arrive counts of
  /// local barriers that records observed are never used again.
  bool localsStayInside() const { return localsInside; }
  /// Whether `barrier`'s observed counts are never used once a task has
  /// finished (a local barrier, with localsStayInside).
  bool isDeadAfterTask(const ElementKey &barrier) const {
    return localsInside && isLocal(barrier.var);
  }

private:
  unsigned prefixSize = 1;
  bool finishes = false, localsInside = false;
  llvm::DenseSet<StringAttr> locals;
  DenseMap<Operation *, SmallVector<StringAttr, 1>> localAccesses;
  llvm::SetVector<Value> keyValues;
  SmallVector<Value> taskIterators;
  /// Per global variable, per dimension, the coefficient of each task
  /// iterator in its windows' bounds.
  DenseMap<StringAttr, SmallVector<SmallVector<int64_t>>> shifts;
};

/// The checks (CHECKREADS, CHECKMUTATES) a task made of global lists with
/// one level and set of timelines, as one requirement on every record there:
/// that each of their executing threads (of the task) sees it so. That is
/// at least what each of them requires (a convergent check requires it of
/// one of its threads), whatever the threads.
struct TaskCheck {
  bool reads;
  VisibilityLevel level;
  QualMask timelines;
  ThreadSet threads;
};

/// The effect of one task run, relative to its task id and task iterators.
/// Boxes are disjoint and coalesced (neighbours with the same contents
/// merged), so a summary is as small as the arrangement of the task's
/// windows allows, whatever the number of its statements.
struct TaskSummary {
  /// The plan's key values and task iterators in the recorded run.
  SmallVector<int64_t> key, taskIterators;
  int64_t task = 0;
  /// The ALLOCs of the task (and whether of a barrier variable).
  std::vector<std::pair<AccessWindow, bool>> allocations;
  /// The final states of the local variables, by box (unless the plan's
  /// locals stay inside).
  std::vector<std::pair<AccessWindow, ElementState>> locals;
  /// The global lists the task cleared (true: reads): a replay empties them
  /// (the records of other tasks there pass the task's checks).
  std::vector<std::pair<AccessWindow, bool>> clears;
  /// The global lists the task checked (true: reads), and each check it
  /// made there with the boxes it covered: for a replay, every record there
  /// passes them.
  std::vector<std::pair<AccessWindow, bool>> checked;
  std::vector<std::pair<TaskCheck, std::vector<AccessWindow>>> checks;
  /// The global elements the task recorded on.
  std::vector<AccessWindow> recorded;
  /// The records the task left on global elements, by box: as made (a task
  /// that goes on after its body), or in their finished form (a task that
  /// finishes with its body; see compactFinishedRecords), as an index into
  /// finishedStates.
  struct GlobalRecords {
    AccessWindow box;
    std::vector<VisibilityRecord> reads, mutates;
  };
  std::vector<GlobalRecords> globals;
  std::vector<std::pair<AccessWindow, unsigned>> finishedGlobals;
  std::vector<ElementState> finishedStates;
  /// Whether the records are in their finished form (globals is empty).
  bool finishedForm = false;
  /// In the finished form, the global lists the task recorded on and did
  /// not clear (true: reads), with the timelines of its records there.
  std::vector<std::tuple<AccessWindow, bool, QualMask>> keptLists;
  /// The store's SyncStore::getSeenByAllEpoch once the latest task with this
  /// key that ran had been finished: while it holds, every record seen by
  /// every thread went through that task's statements and the rewrite of
  /// its finished threads, which left it as it was (docs/abstract-machine.md
  /// "Replaying tasks next to records seen by every thread").
  std::optional<uint64_t> seenByAllEpoch;
};

/// Watches a task run (after its prefix) and summarizes it.
class TaskRecorder {
public:
  /// With `finished`, the summary holds the task's global records in their
  /// finished form (for a plan whose tasks finish with their body), else as
  /// made.
  TaskRecorder(const TaskLoopPlan &plan, SyncStore &store, int64_t task,
               bool finished);
  ~TaskRecorder();

  /// An ALLOC of `box` (of a barrier variable if `barrier`).
  void noteAlloc(const AccessWindow &box, bool barrier);
  /// Any statement: it may access a local variable only after the task
  /// allocated it.
  void noteStatement(Operation *op);
  /// A check, clear or record `effect` on `window` (its own window, or one
  /// of the iterations of a loop run in bulk). Returns the number of the
  /// call, for noteCall.
  unsigned noteEffect(const ElementEffect &effect, const AccessWindow &window);
  /// The call numbered `call` again, on `window` (a period of a loop run in
  /// a steady state).
  void noteCall(unsigned call, const AccessWindow &window);
  /// The summary of the finished run with the given key and task iterator
  /// values; nothing if the run does not qualify.
  std::optional<TaskSummary> finish(ArrayRef<int64_t> key,
                                    ArrayRef<int64_t> taskIterators);

private:
  /// A record statement on `window` (of a local or a global variable).
  void noteRecord(const AccessWindow &window);

  const TaskLoopPlan &plan;
  SyncStore &store;
  int64_t task;
  bool finished;
  bool valid = true;
  /// The calls noted so far: checks (an index into `checks`), a clear of
  /// the reads or the mutates, or a record.
  struct Call {
    ElementEffect::Kind kind;
    bool reads;
    unsigned check;
  };
  SmallVector<Call> calls;
  /// The number of each call, by an encoding of it.
  std::map<SmallVector<int64_t, 4>, unsigned> callNumbers;
  /// The global windows each check covered, checked, cleared (reads and
  /// mutates apart) and recorded on.
  std::vector<std::pair<TaskCheck, std::unique_ptr<WindowUnion>>> checks;
  std::unique_ptr<WindowUnion> checkedReads, checkedMutates, clearedReads,
      clearedMutates, recorded;
  /// Per local variable, the box the task allocated and whether it is a
  /// barrier (every ALLOC of a variable in a task must have the same box).
  llvm::MapVector<StringAttr, std::pair<AccessWindow, bool>> allocations;
};

/// How a task was replayed.
enum class ReplayResult {
  /// Not: the store is unchanged.
  NotReplayed,
  /// Its global records as made (they are to be compacted once it has
  /// finished).
  Replayed,
  /// Its global records in their finished form.
  ReplayedFinished,
};

/// Applies `summary` to a task that has run its prefix (task id `task`, task
/// iterators `taskIterators`), if its global lists qualify, the records seen
/// by every thread are those the summary's key left, and every global
/// window it would access is `inBounds`.
ReplayResult replayTask(const TaskLoopPlan &plan, const TaskSummary &summary,
                        SyncStore &store, int64_t task,
                        ArrayRef<int64_t> taskIterators,
                        function_ref<bool(const AccessWindow &)> inBounds);

/// The global elements the task with task iterators `taskIterators` records
/// on, if it runs the summarized statements.
std::vector<AccessWindow> getRecordedBoxes(const TaskLoopPlan &plan,
                                           const TaskSummary &summary,
                                           ArrayRef<int64_t> taskIterators);

/// Rewrites the records of `task`, which has finished, on the elements of
/// `boxes` into their finished form (compactFinishedRecords), sharing the
/// resulting states, and its threads' grants in the records seen by every
/// thread (finishTaskGrants).
void compactFinishedTask(const TaskLoopPlan &plan, SyncStore &store,
                         int64_t task, ArrayRef<AccessWindow> boxes);

} // namespace mlir::exoam

#endif // EXOGPU_LIB_ABSTRACTMACHINE_TASKREPLAY_H
