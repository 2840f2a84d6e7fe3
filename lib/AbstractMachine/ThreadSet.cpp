//===- ThreadSet.cpp - sets of global threads ----------------------------===//
//
// Part of ExoGPU. Interval sets and sets of global threads (seeds/002
// Def. 5.2).
//
//===----------------------------------------------------------------------===//

#include "ExoGPU/AbstractMachine/ThreadSet.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::exoam;

//===----------------------------------------------------------------------===//
// IntervalSet
//===----------------------------------------------------------------------===//

void IntervalSet::insert(int64_t lo, int64_t hi) {
  if (lo > hi)
    return;
  // Past the last interval (the usual order of insertion): append.
  if (intervals.empty() ||
      (intervals.back().second != std::numeric_limits<int64_t>::max() &&
       lo > intervals.back().second + 1)) {
    intervals.push_back({lo, hi});
    return;
  }
  SmallVector<Interval, 2> merged;
  bool placed = false;
  for (Interval in : intervals) {
    // Disjoint and not adjacent: keep as is (the new one goes in order).
    bool before =
        lo != std::numeric_limits<int64_t>::min() && in.second < lo - 1;
    bool after = hi != std::numeric_limits<int64_t>::max() && in.first > hi + 1;
    if (before || after) {
      if (!placed && in.first > hi) {
        merged.push_back({lo, hi});
        placed = true;
      }
      merged.push_back(in);
      continue;
    }
    lo = std::min(lo, in.first);
    hi = std::max(hi, in.second);
  }
  if (!placed)
    merged.push_back({lo, hi});
  intervals = std::move(merged);
}

void IntervalSet::insert(const IntervalSet &other) {
  for (Interval in : other.intervals)
    insert(in.first, in.second);
}

bool IntervalSet::contains(int64_t value) const {
  return llvm::any_of(intervals, [&](Interval in) {
    return in.first <= value && value <= in.second;
  });
}

std::optional<int64_t> IntervalSet::findIn(const IntervalSet &other) const {
  for (Interval a : intervals)
    for (Interval b : other.intervals)
      if (std::max(a.first, b.first) <= std::min(a.second, b.second))
        return std::max(a.first, b.first);
  return std::nullopt;
}

bool IntervalSet::intersects(const IntervalSet &other) const {
  return findIn(other).has_value();
}

IntervalSet IntervalSet::intersect(const IntervalSet &other) const {
  IntervalSet common;
  for (Interval a : intervals)
    for (Interval b : other.intervals)
      common.insert(std::max(a.first, b.first), std::min(a.second, b.second));
  return common;
}

IntervalSet IntervalSet::subtract(const IntervalSet &other) const {
  IntervalSet rest;
  for (Interval a : intervals) {
    // Walk `a` upwards, keeping the parts between the intervals of `other`.
    int64_t next = a.first;
    bool done = false;
    for (Interval b : other.intervals) {
      if (b.second < next)
        continue;
      if (b.first > a.second)
        break;
      if (b.first > next)
        rest.insert(next, b.first - 1);
      if (b.second >= a.second) {
        done = true; // (also where b.second + 1 would overflow)
        break;
      }
      next = b.second + 1;
    }
    if (!done)
      rest.insert(next, a.second);
  }
  return rest;
}

std::optional<int64_t> IntervalSet::findNotIn(const IntervalSet &other) const {
  for (Interval a : intervals) {
    // Walk `a` upwards, skipping the parts `other` covers.
    int64_t next = a.first;
    bool covered = false;
    for (Interval b : other.intervals) {
      if (b.second < next)
        continue;
      if (b.first > next)
        break;
      if (b.second >= a.second) {
        covered = true; // (also where b.second + 1 would overflow)
        break;
      }
      next = b.second + 1;
    }
    if (!covered)
      return next;
  }
  return std::nullopt;
}

void IntervalSet::print(raw_ostream &os) const {
  llvm::interleaveComma(intervals, os, [&](Interval in) {
    os << in.first;
    if (in.second != in.first)
      os << ".." << in.second;
  });
}

//===----------------------------------------------------------------------===//
// ThreadSet
//===----------------------------------------------------------------------===//

const IntervalSet *ThreadSet::find(int64_t task) const {
  auto it = llvm::lower_bound(byTask, task, [](const auto &entry, int64_t t) {
    return entry.first < t;
  });
  return it != byTask.end() && it->first == task ? &it->second : nullptr;
}

IntervalSet &ThreadSet::getOrCreate(int64_t task) {
  auto it = llvm::lower_bound(byTask, task, [](const auto &entry, int64_t t) {
    return entry.first < t;
  });
  if (it == byTask.end() || it->first != task)
    it = byTask.insert(it, {task, IntervalSet()});
  return it->second;
}

ThreadSet ThreadSet::getAll() {
  ThreadSet set;
  set.everyThread = true;
  return set;
}

ThreadSet ThreadSet::get(int64_t task, const IntervalSet &threads) {
  ThreadSet set;
  if (!threads.empty())
    set.byTask.push_back({task, threads});
  return set;
}

ThreadSet ThreadSet::getFinished() {
  IntervalSet one;
  one.insert(0, 0);
  return get(kFinishedTask, one);
}

ThreadSet ThreadSet::finishTask(int64_t task) const {
  if (everyThread || !find(task))
    return *this;
  ThreadSet finished;
  for (const auto &entry : byTask)
    if (entry.first != task)
      finished.byTask.push_back(entry);
  finished.getOrCreate(kFinishedTask).insert(0, 0);
  return finished;
}

bool ThreadSet::contains(GlobalThread thread) const {
  if (everyThread)
    return true;
  const IntervalSet *threads = find(thread.task);
  return threads && threads->contains(thread.thread);
}

std::optional<GlobalThread> ThreadSet::findIn(const ThreadSet &other) const {
  if (everyThread && other.everyThread)
    return GlobalThread{0, 0};
  if (everyThread)
    return other.findIn(*this);
  for (const auto &[task, threads] : byTask) {
    if (other.everyThread)
      return GlobalThread{task, threads.getIntervals().front().first};
    const IntervalSet *others = other.find(task);
    if (!others)
      continue;
    if (std::optional<int64_t> thread = threads.findIn(*others))
      return GlobalThread{task, *thread};
  }
  return std::nullopt;
}

bool ThreadSet::intersects(const ThreadSet &other) const {
  return findIn(other).has_value();
}

ThreadSet ThreadSet::intersect(const ThreadSet &other) const {
  if (everyThread)
    return other;
  if (other.everyThread)
    return *this;
  ThreadSet common;
  for (const auto &[task, threads] : byTask)
    if (const IntervalSet *others = other.find(task))
      if (IntervalSet both = threads.intersect(*others); !both.empty())
        common.byTask.push_back({task, std::move(both)});
  return common;
}

ThreadSet ThreadSet::subtract(const ThreadSet &other) const {
  if (other.everyThread)
    return ThreadSet();
  ThreadSet rest;
  for (const auto &[task, threads] : byTask) {
    const IntervalSet *others = other.find(task);
    IntervalSet left = others ? threads.subtract(*others) : threads;
    if (!left.empty())
      rest.byTask.push_back({task, std::move(left)});
  }
  return rest;
}

int64_t ThreadSet::count() const {
  int64_t total = 0;
  forEachRange([&](int64_t, int64_t lo, int64_t hi) {
    int64_t size;
    if (llvm::SubOverflow(hi, lo, size) ||
        llvm::AddOverflow(size, int64_t(1), size) ||
        llvm::AddOverflow(total, size, total))
      total = std::numeric_limits<int64_t>::max();
  });
  return total;
}

void ThreadSet::insert(const ThreadSet &other) {
  if (everyThread)
    return;
  if (other.everyThread) {
    *this = getAll();
    return;
  }
  for (const auto &[task, threads] : other.byTask)
    getOrCreate(task).insert(threads);
}

std::optional<GlobalThread> ThreadSet::findNotIn(const ThreadSet &other) const {
  if (other.everyThread)
    return std::nullopt;
  if (everyThread) {
    // G is unbounded: a task past every task of `other` is missing there.
    int64_t task = other.byTask.empty() ? 0 : other.byTask.back().first + 1;
    return GlobalThread{task, 0};
  }
  for (const auto &[task, threads] : byTask) {
    const IntervalSet *others = other.find(task);
    if (!others)
      return GlobalThread{task, threads.getIntervals().front().first};
    if (std::optional<int64_t> thread = threads.findNotIn(*others))
      return GlobalThread{task, *thread};
  }
  return std::nullopt;
}

ThreadSet ThreadSet::renameTask(int64_t from, int64_t to) const {
  if (everyThread || !find(from))
    return *this;
  ThreadSet renamed;
  for (const auto &[task, threads] : byTask)
    renamed.getOrCreate(task == from ? to : task).insert(threads);
  return renamed;
}

void ThreadSet::forEachThread(function_ref<void(GlobalThread)> fn) const {
  for (const auto &[task, threads] : byTask)
    for (IntervalSet::Interval in : threads.getIntervals())
      for (int64_t thread = in.first;; ++thread) {
        fn(GlobalThread{task, thread});
        if (thread == in.second)
          break;
      }
}

void ThreadSet::print(raw_ostream &os) const {
  if (everyThread) {
    os << "all threads";
    return;
  }
  os << '{';
  llvm::interleave(
      byTask, os,
      [&](const auto &entry) {
        if (entry.first == kFinishedTask) {
          os << "finished tasks";
          return;
        }
        os << "task " << entry.first << ": ";
        entry.second.print(os);
      },
      "; ");
  os << '}';
}

void GlobalThread::print(raw_ostream &os) const {
  os << "(task " << task << ", thread " << thread << ')';
}
