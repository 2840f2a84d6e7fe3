//===- SyncStore.h - storage of the synchronization environment -*- C++ -*-===//
//
// Part of ExoGPU. How the abstract machine stores rho (seeds/002 Def. 5.3):
// the rules of Fig. 7 and 22 (in Interpreter.cpp) read and write it only
// through this interface, so one implementation of the rules runs on two
// stores: the reference store keeps one state per element and lifts every
// record, exactly as the rules are written; the box store shares one state
// between all elements with the same history and lifts only records a lift
// can change. Both must give the same verdicts and diagnostics (the
// reference is the test oracle; see docs/abstract-machine.md).
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_ABSTRACTMACHINE_SYNCSTORE_H
#define EXOGPU_ABSTRACTMACHINE_SYNCSTORE_H

#include "ExoGPU/AbstractMachine/Evaluation.h"
#include "llvm/ADT/Hashing.h"
#include <map>
#include <memory>

namespace mlir::exoam {

/// A lambda of lift (Def. B.2), applied to the read or mutate record list of
/// an element (so that it can split record groups). It returns whether it
/// changed a record or split a group.
using RecordLift = function_ref<bool(std::vector<VisibilityRecord> &)>;

/// Identifies lifts that change nothing on a record list whenever an earlier
/// lift with the same signature changed nothing on it and the list has not
/// changed since (FENCE: the executing threads and timeline sets; ARRIVE:
/// also the observed barriers, since arrive counts only grow within a
/// barrier lifetime and a new lifetime drops the old observations).
using LiftSignature = std::optional<llvm::hash_code>;

/// rho, total: an element never written has the empty state (no records,
/// counts (0, 0)).
class SyncStore {
public:
  virtual ~SyncStore();

  /// ALLOC (Fig. 22): resets every element of `var` in
  /// `[0, extents[0]) x ... x [0, extents[k-1])` to the empty state.
  virtual void reset(StringAttr var, ArrayRef<int64_t> extents) = 0;

  /// Replaces rho(x, n) by `fn(rho(x, n))` for every element of `window`.
  /// `fn` must depend on the state alone, not on the element.
  virtual void update(const AccessWindow &window,
                      function_ref<void(ElementState &)> fn) = 0;

  /// Calls `fn` with the elements of `window` and their states in index
  /// order until it returns false; returns false if it did. With
  /// `distinct`, an element whose state is shared with one already visited
  /// may be skipped (for visitors whose answer depends on the state alone).
  virtual bool
  visit(const AccessWindow &window, bool distinct,
        function_ref<bool(const ElementKey &, const ElementState &)> fn) = 0;

  /// lift(rho, lambda) (Def. B.2) for a lambda that changes only records
  /// some thread of `exec` sees at unordered or above on some timeline (the
  /// witness of Def. B.3 (i) requires it).
  /// A store may skip lists on which a lift with the same `signature` was a
  /// no-op.
  virtual void liftSeenBy(const ThreadSet &exec, const RecordLift &lambda,
                          LiftSignature signature) = 0;

  /// lift(rho, lambda) for a lambda that changes only records that observed
  /// an arrive count of `barrier` (Fig. 22 AWAIT).
  virtual void liftObserving(const ElementKey &barrier,
                             const RecordLift &lambda) = 0;
};

/// The reference store: one state per element touched, every lift applied
/// to every record (the rules as written).
std::unique_ptr<SyncStore> createReferenceStore();

/// The box store: per variable, a tree of index intervals whose leaves
/// share states between elements with the same history, and indexes of the
/// records each lift can change.
std::unique_ptr<SyncStore> createBoxStore();

} // namespace mlir::exoam

#endif // EXOGPU_ABSTRACTMACHINE_SYNCSTORE_H
