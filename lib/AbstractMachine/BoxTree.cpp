//===- BoxTree.cpp - a map from index boxes to values ---------------------===//
//
// Part of ExoGPU. An update splits the intervals of each level at the box's
// bounds, replaces the values of the leaves inside and merges the changed
// intervals with neighbours of equal contents (equal values at the last
// level, equal subtrees above). Every walk finds the intervals a box meets
// by binary search, so its cost is that of the intervals it visits.
//
//===----------------------------------------------------------------------===//

#include "BoxTree.h"
#include "llvm/ADT/Hashing.h"
#include <limits>
#include <map>

using namespace mlir;
using namespace mlir::exoam;

constexpr int64_t kMinIndex = std::numeric_limits<int64_t>::min();
constexpr int64_t kMaxIndex = std::numeric_limits<int64_t>::max();

/// One interval [lo, hi] of a level (lo is its key in the level): at the
/// last level it holds a value; above, a subtree (null: 0 everywhere below).
struct BoxTree::Segment {
  int64_t hi;
  Value value = 0;
  std::unique_ptr<Node> child;
};

/// One level: disjoint intervals by their first index, covering all of
/// int64. (An ordered map: a level may hold very many intervals, split and
/// merged anywhere.)
struct BoxTree::Node {
  using Segments = std::map<int64_t, Segment>;
  Segments segments;
  /// The sum of the segments' hashes (wrapping): equal contents give equal
  /// sums, so unequal sums tell neighbours apart without walking them. Kept
  /// up to date by every change of a segment (forget, change, remember).
  uint64_t hash = 0;

  /// A hash of a segment's bounds and contents.
  static uint64_t hashSegment(int64_t lo, const Segment &segment) {
    return llvm::hash_combine(lo, segment.hi, segment.value,
                              segment.child ? segment.child->hash : 0);
  }
  void forget(Segments::const_iterator it) {
    hash -= hashSegment(it->first, it->second);
  }
  void remember(Segments::const_iterator it) {
    hash += hashSegment(it->first, it->second);
  }

  /// The segment holding `at`.
  Segments::iterator find(int64_t at) {
    return std::prev(segments.upper_bound(at));
  }
  Segments::const_iterator find(int64_t at) const {
    return std::prev(segments.upper_bound(at));
  }
};

BoxTree::ValueOwner::~ValueOwner() = default;

BoxTree::BoxTree(unsigned rank, ValueOwner *owner) : rank(rank), owner(owner) {
  if (rank > 0)
    root = makeNode();
}

BoxTree::~BoxTree() {
  if (root)
    releaseTree(*root);
  else
    release(scalar);
}

BoxTree::BoxTree(BoxTree &&other)
    : rank(other.rank), owner(other.owner), root(std::move(other.root)),
      scalar(other.scalar) {
  other.scalar = 0;
}

BoxTree &BoxTree::operator=(BoxTree &&other) {
  if (this == &other)
    return *this;
  if (root)
    releaseTree(*root);
  else
    release(scalar);
  rank = other.rank;
  owner = other.owner;
  root = std::move(other.root);
  scalar = other.scalar;
  other.scalar = 0;
  return *this;
}

void BoxTree::retain(Value value) const {
  if (owner && value != 0)
    owner->retain(value);
}

void BoxTree::release(Value value) const {
  if (owner && value != 0)
    owner->release(value);
}

std::unique_ptr<BoxTree::Node> BoxTree::makeNode() const {
  auto node = std::make_unique<Node>();
  node->remember(
      node->segments.emplace(kMinIndex, Segment{kMaxIndex, 0, nullptr}).first);
  return node;
}

std::unique_ptr<BoxTree::Node> BoxTree::copyTree(const Node &node) const {
  auto copy = std::make_unique<Node>();
  copy->hash = node.hash;
  for (const auto &[lo, segment] : node.segments) {
    retain(segment.value);
    copy->segments.emplace_hint(
        copy->segments.end(), lo,
        Segment{segment.hi, segment.value,
                segment.child ? copyTree(*segment.child) : nullptr});
  }
  return copy;
}

void BoxTree::releaseTree(const Node &node) const {
  for (const auto &[lo, segment] : node.segments) {
    release(segment.value);
    if (segment.child)
      releaseTree(*segment.child);
  }
}

/// Splits the segment holding `at` so that a segment starts at `at`.
void BoxTree::split(Node &node, int64_t at) const {
  auto holder = node.find(at);
  if (holder->first == at)
    return;
  Segment &segment = holder->second;
  retain(segment.value);
  Segment tail{segment.hi, segment.value,
               segment.child ? copyTree(*segment.child) : nullptr};
  node.forget(holder);
  segment.hi = at - 1;
  node.remember(holder);
  node.remember(
      node.segments.emplace_hint(std::next(holder), at, std::move(tail)));
}

bool BoxTree::equalTrees(const Node *a, const Node *b) {
  if (!a || !b)
    return a == b;
  if (a->hash != b->hash || a->segments.size() != b->segments.size())
    return false;
  for (auto [x, y] : llvm::zip(a->segments, b->segments))
    if (x.first != y.first || x.second.hi != y.second.hi ||
        x.second.value != y.second.value ||
        !equalTrees(x.second.child.get(), y.second.child.get()))
      return false;
  return true;
}

/// Merges the segments starting at `first` to `last` (the ones that changed)
/// with neighbours of equal contents.
void BoxTree::merge(Node &node, bool leaf, int64_t first, int64_t last) const {
  auto begin = node.segments.find(first);
  if (begin != node.segments.begin())
    --begin;
  auto end = std::next(node.segments.find(last));
  if (end != node.segments.end())
    ++end;
  auto kept = begin;
  for (auto next = std::next(begin); next != end;) {
    Segment &a = kept->second, &b = next->second;
    bool same =
        leaf ? a.value == b.value : equalTrees(a.child.get(), b.child.get());
    if (!same) {
      kept = next++;
      continue;
    }
    node.forget(kept);
    node.forget(next);
    a.hi = b.hi;
    release(b.value);
    if (b.child)
      releaseTree(*b.child);
    next = node.segments.erase(next);
    node.remember(kept);
  }
}

void BoxTree::updateNode(Node &node, unsigned level, Ranges ranges,
                         function_ref<Value(Value)> replace) {
  auto [lo, hi] = ranges[level];
  bool leaf = level + 1 == rank;
  split(node, lo);
  if (hi != kMaxIndex)
    split(node, hi + 1);
  auto first = node.segments.find(lo), last = node.find(hi);
  int64_t lastLo = last->first;
  for (auto it = first;; ++it) {
    Segment &segment = it->second;
    node.forget(it);
    if (leaf) {
      Value next = replace(segment.value);
      if (next != segment.value) {
        retain(next);
        release(segment.value);
        segment.value = next;
      }
    } else {
      if (!segment.child)
        segment.child = makeNode();
      updateNode(*segment.child, level + 1, ranges, replace);
    }
    node.remember(it);
    if (it == last)
      break;
  }
  merge(node, leaf, lo, lastLo);
}

void BoxTree::update(Ranges ranges, function_ref<Value(Value)> replace) {
  if (rank == 0) {
    Value next = replace(scalar);
    if (next != scalar) {
      retain(next);
      release(scalar);
      scalar = next;
    }
    return;
  }
  updateNode(*root, 0, ranges, replace);
}

void BoxTree::visitNodeBoxes(const Node *node, unsigned level, Ranges ranges,
                             SmallVectorImpl<IntervalSet::Interval> &box,
                             bool clip,
                             function_ref<void(Ranges, Value)> fn) const {
  auto [lo, hi] = ranges[level];
  if (!node) {
    // 0 everywhere below (not a leaf that holds a value).
    if (!clip)
      return;
    for (unsigned l = level; l < rank; ++l)
      box[l] = ranges[l];
    fn(box, 0);
    return;
  }
  bool leaf = level + 1 == rank;
  for (auto it = node->find(lo); it != node->segments.end() && it->first <= hi;
       ++it) {
    const Segment &segment = it->second;
    box[level] = clip ? IntervalSet::Interval{std::max(lo, it->first),
                                              std::min(hi, segment.hi)}
                      : IntervalSet::Interval{it->first, segment.hi};
    if (!leaf)
      visitNodeBoxes(segment.child.get(), level + 1, ranges, box, clip, fn);
    else if (clip || segment.value != 0)
      fn(box, segment.value);
  }
}

void BoxTree::visitBoxes(Ranges ranges,
                         function_ref<void(Ranges, Value)> fn) const {
  if (rank == 0) {
    fn(ranges, scalar);
    return;
  }
  SmallVector<IntervalSet::Interval, 4> box(ranges);
  visitNodeBoxes(root.get(), 0, ranges, box, /*clip=*/true, fn);
}

void BoxTree::visitLeaves(Ranges ranges,
                          function_ref<void(Ranges, Value)> fn) const {
  if (rank == 0) {
    if (scalar != 0)
      fn(ranges, scalar);
    return;
  }
  SmallVector<IntervalSet::Interval, 4> box(ranges);
  visitNodeBoxes(root.get(), 0, ranges, box, /*clip=*/false, fn);
}

bool BoxTree::visitNodeElements(
    const Node *node, unsigned level, Ranges ranges,
    SmallVectorImpl<int64_t> &index, bool distinct, llvm::DenseSet<Value> &seen,
    function_ref<bool(ArrayRef<int64_t>, Value)> fn) const {
  auto [lo, hi] = ranges[level];
  bool leaf = level + 1 == rank;
  // An absent subtree holds 0 on one interval covering all of int64.
  Segment everywhere{kMaxIndex, 0, nullptr};
  auto visitSegment = [&](int64_t segmentLo, const Segment &segment) {
    // With `distinct`, the first index of the segment stands for all of it:
    // every index of it has the same subtree.
    int64_t first = std::max(lo, segmentLo);
    int64_t last = distinct ? first : std::min(hi, segment.hi);
    for (int64_t i = first;; ++i) {
      index[level] = i;
      if (leaf) {
        if (!(distinct && !seen.insert(segment.value).second) &&
            !fn(index, segment.value))
          return false;
      } else if (!visitNodeElements(segment.child.get(), level + 1, ranges,
                                    index, distinct, seen, fn)) {
        return false;
      }
      if (i == last) // (no increment past int64's end)
        return true;
    }
  };
  if (!node)
    return visitSegment(kMinIndex, everywhere);
  for (auto it = node->find(lo); it != node->segments.end() && it->first <= hi;
       ++it)
    if (!visitSegment(it->first, it->second))
      return false;
  return true;
}
bool BoxTree::visitElements(
    Ranges ranges, bool distinct,
    function_ref<bool(ArrayRef<int64_t>, Value)> fn) const {
  if (rank == 0)
    return fn({}, scalar);
  SmallVector<int64_t, 4> index(rank);
  llvm::DenseSet<Value> seen;
  return visitNodeElements(root.get(), 0, ranges, index, distinct, seen, fn);
}
