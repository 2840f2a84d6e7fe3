//===- WindowUnion.h - the union of access windows --------------*- C++ -*-===//
//
// Part of ExoGPU. The elements a run touched, as few disjoint boxes: task
// replay summarizes what a task did on them (docs/abstract-machine.md "Task
// replay").
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_LIB_ABSTRACTMACHINE_WINDOWUNION_H
#define EXOGPU_LIB_ABSTRACTMACHINE_WINDOWUNION_H

#include "BoxTree.h"
#include "ExoGPU/AbstractMachine/Evaluation.h"
#include "llvm/ADT/MapVector.h"

namespace mlir::exoam {

/// Windows of several variables, each element marked with a value: their
/// union as disjoint boxes, neighbours with equal values merged.
class WindowUnion {
public:
  /// Marks the elements of `window` (not empty) with `value` (non-zero).
  void add(const AccessWindow &window, BoxTree::Value value = 1) {
    auto [it, inserted] = variables.try_emplace(
        window.var, BoxTree(window.ranges.size()), window);
    auto &[tree, bounds] = it->second;
    if (tree.getRank() != window.ranges.size())
      return; // (ill-formed AMIR names one variable with two ranks)
    if (!inserted)
      for (auto [bound, range] : llvm::zip(bounds.ranges, window.ranges))
        bound = {std::min(bound.first, range.first),
                 std::max(bound.second, range.second)};
    tree.update(window.ranges, [&](BoxTree::Value) { return value; });
  }
  /// Unmarks the elements of `window`.
  void erase(const AccessWindow &window) {
    auto it = variables.find(window.var);
    if (it != variables.end() &&
        it->second.first.getRank() == window.ranges.size())
      it->second.first.update(window.ranges,
                              [](BoxTree::Value) { return BoxTree::Value(); });
  }
  /// Calls `fn` with the marked boxes and their marks, variable by variable
  /// (in first-marked order), each variable's in index order.
  void forEachBox(
      function_ref<void(const AccessWindow &, BoxTree::Value)> fn) const {
    for (const auto &[var, entry] : variables) {
      const auto &[tree, bounds] = entry;
      AccessWindow box{var, {}};
      tree.visitBoxes(bounds.ranges,
                      [&](BoxTree::Ranges ranges, BoxTree::Value value) {
                        if (!value)
                          return;
                        box.ranges.assign(ranges.begin(), ranges.end());
                        fn(box, value);
                      });
    }
  }
  /// The marked boxes.
  std::vector<AccessWindow> getBoxes() const {
    std::vector<AccessWindow> boxes;
    forEachBox(
        [&](const AccessWindow &box, BoxTree::Value) { boxes.push_back(box); });
    return boxes;
  }

private:
  /// Per variable, the marks and the bounding box of the windows.
  llvm::MapVector<StringAttr, std::pair<BoxTree, AccessWindow>> variables;
};

} // namespace mlir::exoam

#endif // EXOGPU_LIB_ABSTRACTMACHINE_WINDOWUNION_H
