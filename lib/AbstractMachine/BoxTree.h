//===- BoxTree.h - a map from index boxes to values -------------*- C++ -*-===//
//
// Part of ExoGPU. The storage shape of the box engine (docs/abstract-machine.md
// "The two engines"): a total map from the index tuples of one variable to
// small integer values, kept as a tree with one level per dimension, each
// level a sorted list of disjoint index intervals covering all of int64.
// Neighbouring intervals with equal contents are merged, so a map built from
// boxes stays as small as the boxes' arrangement allows. The box store keeps
// its cells in it; the task recorder uses it to cover and coalesce windows.
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_LIB_ABSTRACTMACHINE_BOXTREE_H
#define EXOGPU_LIB_ABSTRACTMACHINE_BOXTREE_H

#include "ExoGPU/AbstractMachine/ThreadSet.h"
#include "llvm/ADT/DenseSet.h"
#include <memory>
#include <vector>

namespace mlir::exoam {

/// A total map from int64^rank to uint32 values (0 everywhere at first).
class BoxTree {
public:
  using Value = uint32_t;
  using Ranges = ArrayRef<IntervalSet::Interval>;

  /// Told whenever a tree leaf starts or stops holding a value (other than
  /// 0), so that an owner can count the leaves holding each value.
  class ValueOwner {
  public:
    virtual ~ValueOwner();
    virtual void retain(Value value) = 0;
    virtual void release(Value value) = 0;
  };

  /// A rank-`rank` map holding 0 everywhere; `owner` (if any) is told of
  /// every leaf that holds a value.
  explicit BoxTree(unsigned rank, ValueOwner *owner = nullptr);
  ~BoxTree();
  BoxTree(BoxTree &&other);
  BoxTree &operator=(BoxTree &&other);

  unsigned getRank() const { return rank; }

  /// Replaces the value v of every element of the box `ranges` (one closed,
  /// non-empty interval per dimension) by `replace(v)`; `replace` is called
  /// once per leaf the box covers after splitting, in index order.
  void update(Ranges ranges, function_ref<Value(Value)> replace);

  /// Calls `fn` with disjoint boxes covering `ranges`, in index order of
  /// their first elements, each with the value all its elements hold.
  void visitBoxes(Ranges ranges, function_ref<void(Ranges, Value)> fn) const;

  /// Calls `fn` with every leaf box that meets `ranges` and holds a value
  /// other than 0, whole (not clipped to `ranges`), with its value.
  void visitLeaves(Ranges ranges, function_ref<void(Ranges, Value)> fn) const;

  /// Calls `fn` with elements of `ranges` and their values in index order
  /// (last coordinate fastest) until it returns false; returns false if it
  /// did. With `distinct`, only the first element of each leaf box (the
  /// others hold the same value and are skipped), and of those only the
  /// first with a given value.
  bool visitElements(Ranges ranges, bool distinct,
                     function_ref<bool(ArrayRef<int64_t>, Value)> fn) const;

private:
  struct Node;
  struct Segment;
  std::unique_ptr<Node> makeNode() const;
  std::unique_ptr<Node> copyTree(const Node &node) const;
  void releaseTree(const Node &node) const;
  void retain(Value value) const;
  void release(Value value) const;
  void split(Node &node, int64_t at) const;
  void merge(Node &node, bool leaf, int64_t first, int64_t last) const;
  static bool equalTrees(const Node *a, const Node *b);
  void updateNode(Node &node, unsigned level, Ranges ranges,
                  function_ref<Value(Value)> replace);
  void visitNodeBoxes(const Node *node, unsigned level, Ranges ranges,
                      SmallVectorImpl<IntervalSet::Interval> &box, bool clip,
                      function_ref<void(Ranges, Value)> fn) const;
  bool visitNodeElements(const Node *node, unsigned level, Ranges ranges,
                         SmallVectorImpl<int64_t> &index, bool distinct,
                         llvm::DenseSet<Value> &seen,
                         function_ref<bool(ArrayRef<int64_t>, Value)> fn) const;

  unsigned rank;
  ValueOwner *owner;
  /// The tree (rank > 0), or the single value (rank 0).
  std::unique_ptr<Node> root;
  Value scalar = 0;
};

} // namespace mlir::exoam

#endif // EXOGPU_LIB_ABSTRACTMACHINE_BOXTREE_H
