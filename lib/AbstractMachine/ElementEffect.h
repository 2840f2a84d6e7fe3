//===- ElementEffect.h - a statement's effect on one element ----*- C++ -*-===//
//
// Part of ExoGPU. The statements of the abstract machine that touch only the
// elements of their window, each element alone (seeds/002 Fig. 7
// CHECKREADS, CHECKMUTATES; Fig. 22 CLEARREADS, CLEARMUTATES, RECORDREAD,
// RECORDMUTATE), as what they do to one element's state once their operands
// are evaluated: the interpreter applies an effect to every element of its
// window, and a loop run in bulk applies the effects of its body to the
// windows of many iterations at once.
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_LIB_ABSTRACTMACHINE_ELEMENTEFFECT_H
#define EXOGPU_LIB_ABSTRACTMACHINE_ELEMENTEFFECT_H

#include "ExoGPU/AbstractMachine/Evaluation.h"

namespace mlir::exoam {

/// A check, clear or record statement with its operands evaluated.
struct ElementEffect {
  enum class Kind { Check, Clear, Record };
  Kind kind = Kind::Check;
  /// The read records (else the mutate records) of each element.
  bool reads = false;
  AccessWindow window;

  /// A check: the executing threads and what they must see.
  ThreadSet threads;
  VisibilityLevel level = VisibilityLevel::invisible;
  QualMask timelines = 0;
  bool convergent = false;

  /// A record: the records R(...) of Def. B.1 it adds, and whether records
  /// they subsume are dropped (the box engine; see addRecords).
  std::vector<VisibilityRecord> records;
  bool prune = false;

  /// A clear or a record on `state`; returns whether a record list changed.
  bool apply(ElementState &state) const {
    std::vector<VisibilityRecord> &list = reads ? state.reads : state.mutates;
    if (kind == Kind::Record)
      return addRecords(list, records, prune);
    bool changed = !list.empty();
    list.clear();
    return changed;
  }
  /// A check on `state`: the record it rejects, if any.
  std::optional<RejectedRecord> findRejected(const ElementState &state) const {
    return findRejectedRecord(reads ? state.reads : state.mutates, threads,
                              timelines, level, convergent);
  }
};

} // namespace mlir::exoam

#endif // EXOGPU_LIB_ABSTRACTMACHINE_ELEMENTEFFECT_H
