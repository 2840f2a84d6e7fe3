//===- ThreadSet.h - sets of global threads ---------------------*- C++ -*-===//
//
// Part of ExoGPU. Global threads (seeds/002 Def. 5.2: a task id and a natural
// thread index, Def. 4.1) and the thread sets the abstract machine computes
// with: either all of G (CPU scope) or, per task, a set of thread indices kept
// as sorted disjoint intervals.
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_ABSTRACTMACHINE_THREADSET_H
#define EXOGPU_ABSTRACTMACHINE_THREADSET_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include <limits>
#include <optional>

namespace mlir::exoam {

/// A global thread `(task, thread)` of Def. 5.2.
struct GlobalThread {
  int64_t task;
  int64_t thread;

  /// Prints `(task 1, thread 5)`.
  void print(raw_ostream &os) const;
};

/// A finite set of integers as sorted, disjoint, non-adjacent closed
/// intervals.
class IntervalSet {
public:
  using Interval = std::pair<int64_t, int64_t>;

  /// Adds `[lo, hi]`; nothing if `lo > hi`.
  void insert(int64_t lo, int64_t hi);
  /// Adds every element of `other`.
  void insert(const IntervalSet &other);

  bool empty() const { return intervals.empty(); }
  bool contains(int64_t value) const;
  bool intersects(const IntervalSet &other) const;
  /// The elements in both sets.
  IntervalSet intersect(const IntervalSet &other) const;
  /// The elements not in `other`.
  IntervalSet subtract(const IntervalSet &other) const;
  /// The smallest element not in `other`, if any.
  std::optional<int64_t> findNotIn(const IntervalSet &other) const;
  /// The smallest element also in `other`, if any.
  std::optional<int64_t> findIn(const IntervalSet &other) const;
  /// The largest element; the set must not be empty.
  int64_t getMax() const { return intervals.back().second; }

  ArrayRef<Interval> getIntervals() const { return intervals; }
  bool operator==(const IntervalSet &other) const {
    return intervals == other.intervals;
  }

  /// Prints `0..31, 64`.
  void print(raw_ostream &os) const;

private:
  SmallVector<Interval, 2> intervals;
};

/// A set of global threads: all of G, or finitely many threads per task.
class ThreadSet {
public:
  /// The empty set.
  ThreadSet() = default;
  /// All global threads (the threads of a CPU statement, Def. 5.2).
  static ThreadSet getAll();
  /// `{task} x threads`.
  static ThreadSet get(int64_t task, const IntervalSet &threads);

  /// The task of the one thread that stands for the threads of finished
  /// tasks (below every task the machine numbers): once a task is finished,
  /// none of its threads executes again, so which of them a record is
  /// visible to no longer matters, only whether any is (see
  /// docs/abstract-machine.md "Finished tasks").
  static constexpr int64_t kFinishedTask = std::numeric_limits<int64_t>::min();
  /// The set of that one thread.
  static ThreadSet getFinished();
  /// The set with the threads of `task` replaced by the thread standing for
  /// finished tasks (the set itself if it has none of them).
  ThreadSet finishTask(int64_t task) const;

  bool isAll() const { return everyThread; }
  bool empty() const { return !everyThread && byTask.empty(); }
  bool contains(GlobalThread thread) const;
  bool intersects(const ThreadSet &other) const;
  /// The threads in both sets.
  ThreadSet intersect(const ThreadSet &other) const;
  /// The threads of a finite set not in `other`.
  ThreadSet subtract(const ThreadSet &other) const;
  /// The number of threads of a finite set (saturating at INT64_MAX).
  int64_t count() const;
  /// Adds every thread of `other`.
  void insert(const ThreadSet &other);
  /// A thread of this set not in `other`, if any (the first in task and
  /// thread order when this set is finite).
  std::optional<GlobalThread> findNotIn(const ThreadSet &other) const;
  /// A thread in both sets, if any.
  std::optional<GlobalThread> findIn(const ThreadSet &other) const;
  bool isSubsetOf(const ThreadSet &other) const { return !findNotIn(other); }
  /// Calls `fn` with every task that has a thread in a finite set, in order.
  void forEachTask(function_ref<void(int64_t)> fn) const {
    for (const auto &entry : byTask)
      fn(entry.first);
  }
  /// Calls `fn(task, lo, hi)` for the maximal thread intervals of a finite
  /// set, in order.
  void forEachRange(function_ref<void(int64_t, int64_t, int64_t)> fn) const {
    for (const auto &[task, threads] : byTask)
      for (IntervalSet::Interval range : threads.getIntervals())
        fn(task, range.first, range.second);
  }
  /// The set with task `from`'s threads moved to task `to` (which must have
  /// none).
  ThreadSet renameTask(int64_t from, int64_t to) const;
  /// The threads of `task` in a finite set; null if it has none.
  const IntervalSet *getThreadsOf(int64_t task) const { return find(task); }
  /// Whether the set is finite and all its threads belong to `task`.
  bool isWithinTask(int64_t task) const {
    return !everyThread &&
           llvm::all_of(byTask, [&](const auto &e) { return e.first == task; });
  }
  /// Calls `fn` for every thread of a finite set, in task and thread order.
  void forEachThread(function_ref<void(GlobalThread)> fn) const;

  bool operator==(const ThreadSet &other) const {
    return everyThread == other.everyThread && byTask == other.byTask;
  }

  /// Appends an encoding of the set to `key`: equal sets append equal
  /// sequences, different sets different ones (also when followed by more).
  void appendKey(SmallVectorImpl<int64_t> &key) const {
    key.push_back(everyThread);
    size_t countPos = key.size();
    key.push_back(0);
    forEachRange([&](int64_t task, int64_t lo, int64_t hi) {
      key.append({task, lo, hi});
      ++key[countPos];
    });
  }

  /// Prints `all threads` or `{task 1: 0..31; task 2: 0..31}`.
  void print(raw_ostream &os) const;

private:
  bool everyThread = false;
  /// The entry of `task`, if any.
  const IntervalSet *find(int64_t task) const;
  /// The entry of `task`, created empty (in task order) if missing.
  IntervalSet &getOrCreate(int64_t task);

  /// Non-empty thread sets by task, in task order, when not everyThread (a
  /// statement's threads are one task's: one inline entry, no allocation).
  SmallVector<std::pair<int64_t, IntervalSet>, 1> byTask;
};

} // namespace mlir::exoam

#endif // EXOGPU_ABSTRACTMACHINE_THREADSET_H
