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
#include <map>
#include <memory>

namespace mlir::exoam {

/// A lambda of lift (Def. B.2), applied to each record list of an element
/// (so that it can split record groups): the reads and the mutates, and the
/// lists of a ring's phases, marked `ring` (docs/abstract-machine.md,
/// "Rings"). It returns whether it changed a record or split a group.
using RecordLift =
    function_ref<bool(std::vector<VisibilityRecord> &, bool ring)>;

/// Identifies a lift's lambda exactly (the rule and all its parameters as
/// integers): a lift with the signature of an earlier one changes nothing on
/// a record list the earlier one left unchanged or produced, if the list has
/// not changed since. FENCE: the executing threads and timeline sets; ARRIVE:
/// also the barriers, but not their counts (arrive counts only grow within a
/// barrier lifetime, so observing them again keeps every minimum, and a new
/// lifetime drops the old observations, which changes the list); AWAIT: the
/// executing threads and timeline sets, with the barrier and its Max passed
/// apart. Empty: no signature (the store lifts every candidate list).
using LiftSignature = SmallVector<int64_t, 16>;

/// rho, total: an element never written has the empty state (no records,
/// counts (0, 0)).
class SyncStore {
public:
  virtual ~SyncStore();

  /// INCTASKID (Fig. 21): the threads of tasks before `task` never execute
  /// again.
  virtual void startTask(int64_t task) {}

  /// ALLOC (Fig. 22): resets every element of `box` (the allocation
  /// [0, n_0) x ... x [0, n_k-1) of a variable) to the empty state.
  virtual void reset(const AccessWindow &box) = 0;

  /// Replaces rho(x, n) by `fn(rho(x, n))` for every element of `window`.
  /// `fn` must depend on the state alone, not on the element, and return
  /// whether it changed a record list (it may change the barrier counts
  /// without saying so). With `share`, elements whose new states are equal
  /// (to each other, or to a state another shared update made) may share
  /// one state: for an update that makes many different states equal.
  virtual void update(const AccessWindow &window,
                      function_ref<bool(ElementState &)> fn,
                      bool share = false) = 0;

  /// Calls `fn` with the elements of `window` and their states in index
  /// order until it returns false; returns false if it did. With
  /// `distinct`, an element whose state is shared with one already visited
  /// may be skipped (for visitors whose answer depends on the state alone).
  virtual bool
  visit(const AccessWindow &window, bool distinct,
        function_ref<bool(const ElementKey &, const ElementState &)> fn) = 0;

  /// Calls `fn` with disjoint boxes that cover `window`, in index order,
  /// each with the state all its elements have.
  virtual void visitBoxes(
      const AccessWindow &window,
      function_ref<void(const AccessWindow &, const ElementState &)> fn) = 0;

  /// Whether some record grants every thread a level of unordered or above
  /// (a record of a CPU statement): a lift by any task may change it.
  virtual bool hasRecordSeenByAll() = 0;

  /// lift(rho, lambda) (Def. B.2) for a lambda that changes only records
  /// some thread of `exec` sees at unordered or above on some timeline (the
  /// witness of Def. B.3 (i) requires it): FENCE and ARRIVE.
  virtual void liftSeenBy(const ThreadSet &exec, const RecordLift &lambda,
                          const LiftSignature &signature) = 0;

  /// lift(rho, lambda) for a lambda that changes only records that observed
  /// an arrive count of `barrier` at most `max` (Fig. 22 AWAIT). `done`
  /// (at most `max`) is a count below every count a record can observe of
  /// `barrier` from now on, and below every count the lambda leaves
  /// unraised (a skipped completion's): a record that an earlier lift with
  /// the same barrier and signature left as it is, and that observed a count
  /// at most that lift's `done`, stays so.
  virtual void liftObserving(const ElementKey &barrier, int64_t max,
                             int64_t done, const RecordLift &lambda,
                             const LiftSignature &signature) = 0;

  /// Every record forgets the arrive counts it observed of `barrier` (ALLOC
  /// of a barrier: a new lifetime; see docs/abstract-machine.md).
  virtual void endBarrierLifetime(const ElementKey &barrier) = 0;

  /// lift(rho, lambda) for a lambda that changes only records seen by every
  /// thread (isSeenByAll), such as the rewrite of a finished task's grants
  /// in them (finishTaskGrants).
  virtual void liftSeenByAll(const RecordLift &lambda) = 0;

  /// A number that moves whenever a record seen by every thread is made or
  /// changes (an element that gets a copy of one, or loses one, leaves it):
  /// while it stays, every such record the store holds was held, as it is,
  /// when it was read.
  virtual uint64_t getSeenByAllEpoch() const = 0;

  /// Starts (`on`) or stops noting which states lifts change, for
  /// areLiftChangesWithin. Only the box store notes them.
  virtual void trackLiftChanges(bool on) {}

  /// Whether every element whose state a lift changed since tracking started
  /// and that still holds that state lies in `regions` (at most one box per
  /// variable). An element that held such a state and no longer does was
  /// rewritten by an update since: the caller knows where those were. False
  /// when the store does not note lift changes.
  virtual bool areLiftChangesWithin(ArrayRef<AccessWindow> regions) {
    return false;
  }
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
