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
#include <limits>

using namespace mlir;
using namespace mlir::exoam;

constexpr int64_t kMinIndex = std::numeric_limits<int64_t>::min();
constexpr int64_t kMaxIndex = std::numeric_limits<int64_t>::max();

/// One interval of a level: at the last level it holds a value; above, a
/// subtree (null: 0 everywhere below).
struct BoxTree::Segment {
  int64_t lo, hi;
  Value value = 0;
  std::unique_ptr<Node> child;
};

/// One level: disjoint intervals in increasing order covering all of int64.
struct BoxTree::Node {
  std::vector<Segment> segments;

  /// The positions [first, last] of the segments that meet [lo, hi] (some
  /// do if lo <= hi, since the segments cover all of int64).
  std::pair<size_t, size_t> findSegments(int64_t lo, int64_t hi) const {
    auto holder = [&](int64_t at) -> size_t {
      auto it = llvm::upper_bound(
          segments, at, [](int64_t v, const Segment &s) { return v < s.lo; });
      return std::distance(segments.begin(), it) - 1;
    };
    return {holder(lo), holder(hi)};
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
  node->segments.push_back({kMinIndex, kMaxIndex, 0, nullptr});
  return node;
}

std::unique_ptr<BoxTree::Node> BoxTree::copyTree(const Node &node) const {
  auto copy = std::make_unique<Node>();
  copy->segments.reserve(node.segments.size());
  for (const Segment &segment : node.segments) {
    Segment &out = copy->segments.emplace_back();
    out.lo = segment.lo;
    out.hi = segment.hi;
    out.value = segment.value;
    retain(segment.value);
    if (segment.child)
      out.child = copyTree(*segment.child);
  }
  return copy;
}

void BoxTree::releaseTree(const Node &node) const {
  for (const Segment &segment : node.segments) {
    release(segment.value);
    if (segment.child)
      releaseTree(*segment.child);
  }
}

/// Splits the segment holding `at` so that a segment starts at `at`.
void BoxTree::split(Node &node, int64_t at) const {
  size_t holder = node.findSegments(at, at).first;
  Segment &segment = node.segments[holder];
  if (segment.lo == at)
    return;
  Segment tail;
  tail.lo = at;
  tail.hi = segment.hi;
  tail.value = segment.value;
  retain(segment.value);
  if (segment.child)
    tail.child = copyTree(*segment.child);
  segment.hi = at - 1;
  node.segments.insert(node.segments.begin() + holder + 1, std::move(tail));
}

bool BoxTree::equalTrees(const Node *a, const Node *b) {
  if (!a || !b)
    return a == b;
  if (a->segments.size() != b->segments.size())
    return false;
  for (auto [x, y] : llvm::zip(a->segments, b->segments))
    if (x.lo != y.lo || x.hi != y.hi || x.value != y.value ||
        !equalTrees(x.child.get(), y.child.get()))
      return false;
  return true;
}

/// Merges segments [first, last] (the ones that changed) with neighbours of
/// equal contents.
void BoxTree::merge(Node &node, bool leaf, size_t first, size_t last) const {
  std::vector<Segment> &segments = node.segments;
  size_t begin = first == 0 ? 0 : first - 1;
  size_t end = std::min(last + 1, segments.size() - 1);
  size_t out = begin;
  for (size_t i = begin + 1; i <= end; ++i) {
    Segment &kept = segments[out];
    Segment &next = segments[i];
    bool same = leaf ? kept.value == next.value
                     : equalTrees(kept.child.get(), next.child.get());
    if (same) {
      kept.hi = next.hi;
      release(next.value);
      if (next.child)
        releaseTree(*next.child);
      continue;
    }
    if (++out != i)
      segments[out] = std::move(next);
  }
  segments.erase(segments.begin() + out + 1, segments.begin() + end + 1);
}

void BoxTree::updateNode(Node &node, unsigned level, Ranges ranges,
                         function_ref<Value(Value)> replace) {
  auto [lo, hi] = ranges[level];
  bool leaf = level + 1 == rank;
  split(node, lo);
  if (hi != kMaxIndex)
    split(node, hi + 1);
  auto [first, last] = node.findSegments(lo, hi);
  for (size_t index = first; index <= last; ++index) {
    Segment &segment = node.segments[index];
    if (leaf) {
      Value next = replace(segment.value);
      if (next != segment.value) {
        retain(next);
        release(segment.value);
        segment.value = next;
      }
      continue;
    }
    if (!segment.child)
      segment.child = makeNode();
    updateNode(*segment.child, level + 1, ranges, replace);
  }
  merge(node, leaf, first, last);
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
                             function_ref<void(Ranges, Value)> fn) const {
  auto [lo, hi] = ranges[level];
  if (!node) {
    // 0 everywhere below.
    for (unsigned l = level; l < rank; ++l)
      box[l] = ranges[l];
    fn(box, 0);
    return;
  }
  bool leaf = level + 1 == rank;
  auto [first, last] = node->findSegments(lo, hi);
  for (const Segment &segment :
       ArrayRef(node->segments).slice(first, last - first + 1)) {
    box[level] = {std::max(lo, segment.lo), std::min(hi, segment.hi)};
    if (leaf)
      fn(box, segment.value);
    else
      visitNodeBoxes(segment.child.get(), level + 1, ranges, box, fn);
  }
}

void BoxTree::visitBoxes(Ranges ranges,
                         function_ref<void(Ranges, Value)> fn) const {
  if (rank == 0) {
    fn(ranges, scalar);
    return;
  }
  SmallVector<IntervalSet::Interval, 4> box(ranges);
  visitNodeBoxes(root.get(), 0, ranges, box, fn);
}

bool BoxTree::visitNodeElements(
    const Node *node, unsigned level, Ranges ranges,
    SmallVectorImpl<int64_t> &index, bool distinct, llvm::DenseSet<Value> &seen,
    function_ref<bool(ArrayRef<int64_t>, Value)> fn) const {
  static const Node empty = [] {
    Node node;
    node.segments.push_back({kMinIndex, kMaxIndex, 0, nullptr});
    return node;
  }();
  if (!node)
    node = &empty;
  auto [lo, hi] = ranges[level];
  bool leaf = level + 1 == rank;
  auto [firstSegment, lastSegment] = node->findSegments(lo, hi);
  for (const Segment &segment :
       ArrayRef(node->segments)
           .slice(firstSegment, lastSegment - firstSegment + 1)) {
    // With `distinct`, the first index of the segment stands for all of it:
    // every index of it has the same subtree.
    int64_t first = std::max(lo, segment.lo);
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
        break;
    }
  }
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
