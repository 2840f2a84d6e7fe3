//===- Rings.h - barrier elements that are rings of mbarriers ---*- C++ -*-===//
//
// Part of ExoGPU (internal to the abstract machine). Fig. 22 gives a barrier
// element unbounded phases and awaits that never block. The CUDA
// translation implements a `CudaMbarrier` element as a ring of mbarriers
// (ExoGPU/Analysis/MbarrierRing.h), and these rules make the machine accept
// only protocols that ring implements as the machine runs them
// (docs/abstract-machine.md, "Rings"):
//  * numbering: each thread numbers its own arrives and awaits on a barrier
//    variable, and those numbers must be the machine's phases;
//  * one collective per element and phase, bringing the arrivals the ring
//    counts;
//  * the ring slot of phase j is used by phase j + R only after phase j
//    completed and every await of it passed, and awaited only after the
//    slot's previous phase completed;
//  * an await of phase p orders the completion of an asynchronous call
//    (`complete_tx`) of phase p alone: earlier phases it skipped stay
//    unordered;
//  * liveness: an await whose arrive comes after something ordered after the
//    await, or that no arrive completes, is a hang.
// Phase events are records on a timeline of their own (RingPhase), raised
// by every synchronization between threads, so the machine's visibility
// tells which events are ordered before which.
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_LIB_ABSTRACTMACHINE_RINGS_H
#define EXOGPU_LIB_ABSTRACTMACHINE_RINGS_H

#include "ExoGPU/AbstractMachine/SyncStore.h"
#include "mlir/IR/Location.h"
#include <map>

namespace mlir {
class Operation;
} // namespace mlir

namespace mlir::exoam {

/// The timeline ring records are made on, and the mask every lift uses on
/// ring lists (which hold ring records only). Not the TMA timeline, whose
/// records a witness must see temporally ordered.
constexpr exogpu::QualTimeline kRingTimeline =
    exogpu::QualTimeline::cuda_in_order_ram_qual;
inline QualMask getRingMask() { return getQualBit(kRingTimeline); }

/// A count per thread (of a finite set of threads; 0 for the others), as the
/// translation keeps per thread the arrives and awaits on a barrier variable.
class ThreadCounts {
public:
  /// A thread of `threads` whose count is not `count`, with its count.
  std::optional<std::pair<GlobalThread, int64_t>>
  findOther(const ThreadSet &threads, int64_t count) const;
  /// Adds one to the count of every thread of `threads`, all at `count`.
  void increment(const ThreadSet &threads, int64_t count);

private:
  /// The threads with each count above 0.
  std::map<int64_t, ThreadSet> byCount;
};

/// The rules of docs/abstract-machine.md "Rings", for the interpreter: each
/// check reports its error at the statement and fails, each record applies
/// the statement's effect on the rings once its lifts ran.
class RingRules {
public:
  /// `group`: await records of many threads are kept as a record group (the
  /// box engine), not one per thread.
  explicit RingRules(bool group) : group(group) {}

  /// ALLOC of barrier variable `var`: a new lifetime, its elements rings of
  /// `depth` mbarriers if given.
  void allocate(StringAttr var, std::optional<int64_t> depth);
  /// Whether the elements of `var` are rings.
  bool isRing(StringAttr var) const { return variables.count(var); }

  /// ARRIVE by `threads` with home barrier `home`, whose arrive count
  /// (before it) is `phase`, at `elements` (home included): numbering,
  /// arrivals, one collective, the ring slot, hangs.
  LogicalResult checkArrive(Operation *op, SyncStore &store,
                            const ThreadSet &threads, const ElementKey &home,
                            int64_t phase, ArrayRef<ElementKey> elements);
  void recordArrive(Operation *op, SyncStore &store, const ThreadSet &threads,
                    const ElementKey &home, int64_t phase,
                    ArrayRef<ElementKey> elements);

  /// COMPLETE by the issuing `threads`: each element of `phases` gets the
  /// signal of its phase (the ring slot).
  LogicalResult checkComplete(Operation *op, SyncStore &store,
                              const ThreadSet &threads,
                              ArrayRef<std::pair<ElementKey, int64_t>> phases);
  void recordComplete(Operation *op, SyncStore &store, const ThreadSet &threads,
                      ArrayRef<std::pair<ElementKey, int64_t>> phases);

  /// AWAIT with `n` by `threads` of element `key` pairing with arrive
  /// `max`: numbering (and, for n >= 0, that the awaiting threads arrived),
  /// the ring slot. Returns the phases before `max` whose asynchronous
  /// completions the await skips (none of the awaiting threads waited for
  /// them), whose records the await must not raise.
  FailureOr<SmallVector<int64_t>> checkAwait(Operation *op, SyncStore &store,
                                             const ThreadSet &threads,
                                             const ElementKey &key, int64_t n,
                                             int64_t max);
  /// Raises the signals of phase `max` of `key` for the awaiting threads
  /// and records their await, the element's await number `awaits`.
  void recordAwait(Operation *op, SyncStore &store, const ThreadSet &threads,
                   const ElementKey &key, int64_t awaits, int64_t n,
                   int64_t max);

  /// CHECKBARRIER of element `key` (the end of its lifetime): an await of a
  /// phase no arrive completed is a hang.
  LogicalResult checkLifetimeEnd(Operation *op, const ElementKey &key,
                                 const ElementState &state);

  /// An await that skipped the phase a record observed of a ring element
  /// (the record of an asynchronous call's completion), for the note of a
  /// hazard on it.
  struct SkippedWait {
    ElementKey barrier;
    int64_t phase;
    int64_t awaited;
    Location await;
  };
  std::optional<SkippedWait>
  findSkippedWait(const VisibilityRecord &record) const;

private:
  /// A ring barrier variable in its current lifetime.
  struct Variable {
    int64_t depth;
    /// The arrives and (n < 0) awaits each thread made on the variable.
    ThreadCounts arrived, awaited;
    /// The arrivals per phase of the first arrive (its threads times the
    /// elements it reaches) and where it is.
    std::optional<std::pair<int64_t, Location>> arrivals;
    /// Per element, the collective whose arrives have it as home and where
    /// the first of them is.
    std::map<ElementKey, std::pair<ThreadSet, Location>> homeArrivers;
  };
  /// The slot rules for a signal of `phase` at `key` (in `state`): an arrive
  /// (`arrive`) or a completion.
  LogicalResult checkSignal(Operation *op, const ThreadSet &threads,
                            const ElementKey &key, const ElementState &state,
                            const Variable &variable, int64_t phase,
                            bool arrive);
  const Variable *lookup(StringAttr var) const;
  /// checkAwait on the element's `state`, the skipped phases into `skips`.
  LogicalResult checkAwaitOn(Operation *op, const ThreadSet &threads,
                             const ElementKey &key, const ElementState &state,
                             const Variable *variable, int64_t n, int64_t max,
                             SmallVector<int64_t> &skips);
  /// The hang of phase `entry` of `key` if its arrives bring fewer
  /// arrivals than the ring counts (reported at its first await, or at
  /// `next`, where the slot is used again or the lifetime ends).
  LogicalResult checkArrivals(const ElementKey &key, const RingPhase &entry,
                              const Variable &variable, Location next);

  bool group;
  DenseMap<StringAttr, Variable> variables;
  /// The awaits that skipped completions: per ring element and phase.
  std::map<std::pair<ElementKey, int64_t>, SkippedWait> skipped;
};

} // namespace mlir::exoam

#endif // EXOGPU_LIB_ABSTRACTMACHINE_RINGS_H
