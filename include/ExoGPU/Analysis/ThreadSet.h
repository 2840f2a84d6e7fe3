//===- ThreadSet.h - sets of natural thread indices -------------*- C++ -*-===//
//
// Part of ExoGPU. A thread collective (seeds/002 Sec. 4: mu in T = P(N)) as
// a sorted list of disjoint closed intervals of natural thread indices
// (Definition 4.1: cluster_ctarank * blockDim + threadIdx.x).
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_ANALYSIS_THREADSET_H
#define EXOGPU_ANALYSIS_THREADSET_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>

namespace mlir::exogpu {

/// A set of natural thread indices. The intervals are sorted, disjoint and
/// never adjacent, so two equal sets have equal interval lists.
class ThreadSet {
public:
  /// A closed interval [lo, hi] of thread indices.
  struct Interval {
    int64_t lo;
    int64_t hi;
    bool operator==(const Interval &other) const {
      return lo == other.lo && hi == other.hi;
    }
  };

  ThreadSet() = default;

  /// The interval [lo, hi]; empty if hi < lo.
  static ThreadSet range(int64_t lo, int64_t hi);

  /// The union of arbitrary (unsorted, overlapping) intervals.
  static ThreadSet fromIntervals(ArrayRef<Interval> intervals);

  ArrayRef<Interval> getIntervals() const { return intervals; }
  bool empty() const { return intervals.empty(); }

  /// The number of threads in the set.
  int64_t size() const;

  /// Whether `thread` is in the set.
  bool contains(int64_t thread) const;

  /// The smallest thread index, if any.
  std::optional<int64_t> getMin() const;

  ThreadSet unite(const ThreadSet &other) const;
  ThreadSet intersect(const ThreadSet &other) const;
  /// The threads of this set that are not in `other`.
  ThreadSet subtract(const ThreadSet &other) const;

  bool operator==(const ThreadSet &other) const {
    return intervals == other.intervals;
  }
  bool operator!=(const ThreadSet &other) const { return !(*this == other); }

  /// Prints `[0, 15] [32, 47]`, or `{}` for the empty set.
  void print(raw_ostream &os) const;

private:
  SmallVector<Interval, 2> intervals;
};

inline raw_ostream &operator<<(raw_ostream &os, const ThreadSet &set) {
  set.print(os);
  return os;
}

} // namespace mlir::exogpu

#endif // EXOGPU_ANALYSIS_THREADSET_H
