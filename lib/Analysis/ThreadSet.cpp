//===- ThreadSet.cpp - sets of natural thread indices --------------------===//
//
// Part of ExoGPU.
//
//===----------------------------------------------------------------------===//

#include "ExoGPU/Analysis/ThreadSet.h"

#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::exogpu;

ThreadSet ThreadSet::range(int64_t lo, int64_t hi) {
  ThreadSet set;
  if (lo <= hi)
    set.intervals.push_back({lo, hi});
  return set;
}

ThreadSet ThreadSet::fromIntervals(ArrayRef<Interval> input) {
  SmallVector<Interval> sorted;
  for (const Interval &i : input)
    if (i.lo <= i.hi)
      sorted.push_back(i);
  llvm::sort(sorted, [](const Interval &a, const Interval &b) {
    return a.lo < b.lo || (a.lo == b.lo && a.hi < b.hi);
  });
  ThreadSet set;
  for (const Interval &i : sorted) {
    // Merge overlapping and adjacent intervals.
    if (!set.intervals.empty() && i.lo <= set.intervals.back().hi + 1) {
      set.intervals.back().hi = std::max(set.intervals.back().hi, i.hi);
      continue;
    }
    set.intervals.push_back(i);
  }
  return set;
}

int64_t ThreadSet::size() const {
  int64_t total = 0;
  for (const Interval &i : intervals)
    total += i.hi - i.lo + 1;
  return total;
}

bool ThreadSet::contains(int64_t thread) const {
  const Interval *it = llvm::partition_point(
      intervals, [&](const Interval &i) { return i.hi < thread; });
  return it != intervals.end() && it->lo <= thread;
}

std::optional<int64_t> ThreadSet::getMin() const {
  if (intervals.empty())
    return std::nullopt;
  return intervals.front().lo;
}

ThreadSet ThreadSet::unite(const ThreadSet &other) const {
  SmallVector<Interval> all(intervals.begin(), intervals.end());
  all.append(other.intervals.begin(), other.intervals.end());
  return fromIntervals(all);
}

ThreadSet ThreadSet::intersect(const ThreadSet &other) const {
  ThreadSet result;
  const Interval *a = intervals.begin(), *aEnd = intervals.end();
  const Interval *b = other.intervals.begin(), *bEnd = other.intervals.end();
  while (a != aEnd && b != bEnd) {
    int64_t lo = std::max(a->lo, b->lo), hi = std::min(a->hi, b->hi);
    if (lo <= hi)
      result.intervals.push_back({lo, hi});
    if (a->hi < b->hi)
      ++a;
    else
      ++b;
  }
  return result;
}

ThreadSet ThreadSet::subtract(const ThreadSet &other) const {
  SmallVector<Interval> kept;
  for (Interval range : intervals) {
    int64_t lo = range.lo;
    for (Interval cut : other.intervals) {
      if (cut.hi < lo || cut.lo > range.hi)
        continue;
      if (cut.lo > lo)
        kept.push_back({lo, cut.lo - 1});
      lo = cut.hi + 1;
    }
    if (lo <= range.hi)
      kept.push_back({lo, range.hi});
  }
  return fromIntervals(kept);
}

void ThreadSet::print(raw_ostream &os) const {
  if (intervals.empty()) {
    os << "{}";
    return;
  }
  llvm::interleave(
      intervals, os,
      [&](const Interval &i) { os << '[' << i.lo << ", " << i.hi << ']'; },
      " ");
}
