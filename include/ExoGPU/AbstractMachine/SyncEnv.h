//===- SyncEnv.h - the synchronization environment rho ----------*- C++ -*-===//
//
// Part of ExoGPU. The state of the abstract machine (seeds/002 Def. 5.3):
// per element of every data and barrier variable, a set of read visibility
// records, a set of mutate visibility records and the barrier counts (arrive,
// await). A visibility record (q, f, p) holds the timeline of the access, the
// visibility function S : G -> QualTL -> VL and the arrive counts P it has
// observed. The helpers of App. B (R, lift, W, A) operate on these.
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_ABSTRACTMACHINE_SYNCENV_H
#define EXOGPU_ABSTRACTMACHINE_SYNCENV_H

#include "ExoGPU/AbstractMachine/ThreadSet.h"
#include "ExoGPU/Dialect/ExoAM/IR/ExoAMAttrs.h"
#include "mlir/IR/Location.h"
#include "llvm/ADT/Hashing.h"
#include <map>
#include <set>
#include <vector>

namespace mlir::exoam {

/// One term of a visibility function: `threads` see the access at `level` on
/// the `timelines`.
struct VisibilityGrant {
  ThreadSet threads;
  QualMask timelines;
  VisibilityLevel level;

  bool operator==(const VisibilityGrant &other) const {
    return level == other.level && timelines == other.timelines &&
           threads == other.threads;
  }
  /// Whether this grant alone gives every (thread, timeline) of `other` at
  /// least its level.
  bool covers(const VisibilityGrant &other) const {
    return level >= other.level && (other.timelines & ~timelines) == 0 &&
           other.threads.isSubsetOf(threads);
  }
};

/// A visibility function S (Def. 5.3): `S(g, q)` is the largest level of the
/// grants that contain `g` and `q`, `invisible` if none does. Joins
/// (Def. B.3 `f1 v f2`) append grants.
class VisibilityFunction {
public:
  /// S(g, q).
  VisibilityLevel lookup(GlobalThread thread,
                         exogpu::QualTimeline timeline) const;
  /// The threads g with S(g, q) >= level for some q in `timelines`.
  ThreadSet getThreadsSeeing(QualMask timelines, VisibilityLevel level) const;
  /// Whether some thread of `threads` has S(g, q) >= level for some q in
  /// `timelines`.
  bool isSeenBy(const ThreadSet &threads, QualMask timelines,
                VisibilityLevel level) const;
  /// Whether one of the grants covers `grant` (then S v grant = S).
  bool covers(const VisibilityGrant &grant) const {
    return llvm::any_of(grants, [&](const VisibilityGrant &existing) {
      return existing.covers(grant);
    });
  }
  /// S := S v grant; returns whether a grant was added.
  bool join(VisibilityGrant grant);
  /// Drops the grants another grant covers (the first of equal ones
  /// stays): S is unchanged, and equal functions get equal grant lists more
  /// often. A `position` in the list (where a group member's own grant is
  /// inserted) moves back by the grants dropped before it.
  void dropCoveredGrants(unsigned *position = nullptr);
  /// Inserts `grant` at `position` of the grant list as it is (to
  /// materialize a group member, whose own grant sits there).
  void insertGrant(unsigned position, VisibilityGrant grant) {
    grants.insert(grants.begin() + position, std::move(grant));
  }

  ArrayRef<VisibilityGrant> getGrants() const { return grants; }
  bool operator==(const VisibilityFunction &other) const {
    return grants == other.grants;
  }

private:
  SmallVector<VisibilityGrant, 2> grants;
};

/// One element of a variable: its name and index tuple.
struct ElementKey {
  StringAttr var;
  SmallVector<int64_t, 4> index;

  bool operator<(const ElementKey &other) const;
  bool operator==(const ElementKey &other) const {
    return var == other.var && index == other.index;
  }
  /// Prints `@x[1, 2]`.
  void print(raw_ostream &os) const;
};

/// P (Def. 5.3): the arrive counts a record has observed, per barrier
/// element. P is only ever asked whether it holds a count at most Max
/// (Fig. 22 AWAIT), so the smallest count stands for the set.
using ArriveCounts = std::map<ElementKey, int64_t>;

/// P(z, n) := P(z, n) u {count}; returns whether P changed.
inline bool observeArrive(ArriveCounts &arrives, const ElementKey &key,
                          int64_t count) {
  auto [it, inserted] = arrives.try_emplace(key, count);
  if (inserted)
    return true;
  if (count >= it->second)
    return false;
  it->second = count;
  return true;
}

/// A visibility record (q, f, p) of Def. 5.3, with its provenance; or a
/// record group standing for several per-thread records.
///
/// A statement executed by threads G without the convergent flag records
/// one record per thread g of G, seen by g alone (Def. B.1, t = false). The
/// box engine keeps such records together as a group, in thread order, as
/// long as every lift treats them alike: member g is the record whose
/// visibility is `visibility` with the grant (g, {timeline}, memberLevel)
/// inserted at position memberGrantPos, and whose actors are {g}. A lift or
/// a deduplication that tells members apart splits the group into runs.
struct VisibilityRecord {
  exogpu::QualTimeline timeline;
  VisibilityFunction visibility;
  ArriveCounts arrives;

  /// Provenance, no part of the semantics of a plain record: where the
  /// access was recorded and by which threads. For a group, `actors` are its
  /// members (which are part of its semantics).
  Location origin;
  ThreadSet actors;

  /// Bookkeeping of the box store, no part of the semantics either: whether
  /// the record is in the store's lift indexes.
  bool indexed = false;

  bool isGroup = false;
  VisibilityLevel memberLevel = VisibilityLevel::invisible;
  unsigned memberGrantPos = 0;

  /// Equality of (q, f, p) (and of the members, for groups); the
  /// provenance of plain records is ignored.
  bool isSameRecord(const VisibilityRecord &other) const {
    if (timeline != other.timeline || !(visibility == other.visibility) ||
        arrives != other.arrives || isGroup != other.isGroup)
      return false;
    return !isGroup ||
           (memberLevel == other.memberLevel &&
            memberGrantPos == other.memberGrantPos && actors == other.actors);
  }
  /// The own grant of member `thread` of a group.
  VisibilityGrant getMemberGrant(GlobalThread thread) const;
  /// Member `thread` of a group as a plain record.
  VisibilityRecord getMember(GlobalThread thread) const;
};

/// The events of one phase of a barrier element that is a ring of mbarriers
/// (docs/abstract-machine.md, "Rings"), as records on a timeline of their
/// own that every synchronization between threads orders: the arrives that
/// signal it (seen by their threads), the completions of asynchronous calls
/// that signal it (seen by no thread until an await of the phase raises
/// them) and the awaits of it that passed (seen by their threads). And the
/// awaits of the previous phase of its ring slot that no signal of it is
/// ordered after yet (copies): the phase must not complete before they
/// passed.
struct RingPhase {
  int64_t phase = 0;
  std::vector<VisibilityRecord> signals;
  std::vector<VisibilityRecord> completions;
  std::vector<VisibilityRecord> awaits;
  std::vector<VisibilityRecord> unpassed;

  bool empty() const {
    return signals.empty() && completions.empty() && awaits.empty() &&
           unpassed.empty();
  }
};

/// rho(x, n): read records, mutate records and barrier counts (a, w).
struct ElementState {
  std::vector<VisibilityRecord> reads;
  std::vector<VisibilityRecord> mutates;
  int64_t arrives = 0;
  int64_t awaits = 0;
  /// The phases of a barrier element that multicast arrives of other homes
  /// reached: their largest index plus one. Its phases are
  /// max(arrives, received) (docs/abstract-machine.md, "Multicast").
  int64_t received = 0;
  /// For a barrier element that is a ring: the events of its recent
  /// phases, in phase order.
  std::vector<RingPhase> ring;

  /// The number of phases arrives started at this barrier element.
  int64_t getPhases() const { return std::max(arrives, received); }
};

/// Calls `fn(records, ring)` with every record list of `state` (an
/// ElementState, const or not): reads, mutates, then the lists of the ring
/// phases (with `ring` set).
template <typename State, typename Fn>
void forEachRecordList(State &state, Fn fn) {
  fn(state.reads, false);
  fn(state.mutates, false);
  for (auto &phase : state.ring) {
    fn(phase.signals, true);
    fn(phase.completions, true);
    fn(phase.awaits, true);
    fn(phase.unpassed, true);
  }
}

/// Whether two states are the same, provenance included.
bool isSameState(const ElementState &a, const ElementState &b);
/// A hash of a state consistent with isSameState.
llvm::hash_code hashState(const ElementState &state);

/// Whether a diagnostic about `record` depends on the rewrite of finished
/// tasks: the record was made by their threads (compactFinishedRecords: its
/// provenance is gone), or grants the thread standing for them
/// (finishTaskGrants: the thread a check by every thread reports as blind
/// is then not the one the rules name).
bool mentionsFinishedTasks(const VisibilityRecord &record);

/// Rewrites the records of `records` made by `task`, which has finished
/// (none of its threads executes again), into their finished form: every
/// thread of `task` becomes the one thread standing for finished tasks
/// (ThreadSet::getFinished), a group becomes the one plain record all its
/// members then are, and the observed arrive counts of barriers for which
/// `isDead` holds (barriers reallocated before any use) are dropped. Equal
/// records are then kept once. No later verdict changes: a later statement
/// is executed by threads of later tasks, which see a finished record
/// exactly where they saw the original, or by all of G (CPU scope), for
/// which only whether some thread sees it matters (docs/abstract-machine.md
/// "Finished tasks"). The provenance of the rewritten records is lost (a
/// diagnostic naming one needs the run without the rewrite). Returns
/// whether the list changed.
bool compactFinishedRecords(std::vector<VisibilityRecord> &records,
                            int64_t task,
                            function_ref<bool(const ElementKey &)> isDead);

/// Rewrites, in the records of `records` that `task` did not make, the grants
/// to threads of `task`, which has finished, into grants to the thread
/// standing for finished tasks, and drops their observed arrive counts of
/// barriers for which `isDead` holds; covered grants are then dropped. No
/// later verdict changes, as for compactFinishedRecords. Such grants are
/// only on records the task's threads saw: its own and those seen by every
/// thread, which this is for. Returns whether the list changed.
bool finishTaskGrants(std::vector<VisibilityRecord> &records, int64_t task,
                      function_ref<bool(const ElementKey &)> isDead);

/// Whether a grant of `record` gives every thread unordered or above.
bool isSeenByAll(const VisibilityRecord &record);
/// Whether a record of `state` is seen by every thread (isSeenByAll).
bool holdsRecordSeenByAll(const ElementState &state);

/// Whether `strong` can be dropped from a record set that holds `weak`
/// without changing any later verdict: both have the same timeline (and, for
/// groups, the same members), every grant of `weak` is covered by a grant of
/// `strong`, and `strong` observed every barrier `weak` did, at a count no
/// larger. Every rule of Fig. 22 keeps this relation (witness and AWAIT are
/// monotone in it, augment and observe apply alike), and a check that
/// `strong` fails `weak` fails too.
bool isSubsumed(const VisibilityRecord &strong, const VisibilityRecord &weak);

/// Adds `added` to a record set (the union of Fig. 22 RECORDREAD and
/// RECORDMUTATE), in order; a record equal to one already there (or added
/// before it) is not added again; a group loses the members that are. With
/// `prune`, a record subsumed by an added one is dropped (see isSubsumed).
/// Returns whether the set changed.
bool addRecords(std::vector<VisibilityRecord> &records,
                ArrayRef<VisibilityRecord> added, bool prune);

/// R(level, t, q, atomic, E, rho, G) of Def. B.1 for one element, with
/// `arrives` = P_{E, rho}: one record seen by all of `threads` if
/// `convergent`, otherwise one record per thread, or with `group` one record
/// group standing for them. A CPU statement (`threads` is all of G) makes
/// one record; see docs/abstract-machine.md.
std::vector<VisibilityRecord>
makeRecords(VisibilityLevel level, bool convergent,
            exogpu::QualTimeline timeline, QualMask atomic,
            const ArriveCounts &arrives, const ThreadSet &threads,
            Location origin, bool group);

/// The witness W(t, g_exec, pre, r) of Def. B.3 (i), for a plain record. A
/// record of a TMA load into shared memory (tma_to_smem_async_qual) is
/// witnessed only at temporally_ordered or above: only its mbarrier
/// completes it.
bool isWitnessed(bool transitive, const ThreadSet &exec, QualMask pre,
                 const VisibilityRecord &record);

/// The augment A(r, g_exec, full, temp) of Def. B.3 (ii), in place, for a
/// plain record.
/// Returns whether a grant was added.
bool augment(VisibilityRecord &record, const ThreadSet &exec, QualMask full,
             QualMask temp);

/// lift(rho, lambda) of Def. B.2 on one record list, for the lambdas of
/// Fig. 22. Groups are split where the lambda treats members differently.
/// Each returns whether it changed a record or split a group.
/// FENCE: witnessed records are augmented.
bool liftFence(std::vector<VisibilityRecord> &records, bool transitive,
               const ThreadSet &exec, QualMask pre, QualMask full,
               QualMask temp);
/// The AWAITs that may still raise a record through a barrier element: their
/// executing threads lie in `threads`, and each joins fully_ordered on the
/// timelines of a first set and temporally_ordered on those of the second
/// (Fig. 22 AWAIT's augment).
struct BarrierAwaiters {
  ThreadSet threads;
  SmallVector<std::pair<QualMask, QualMask>, 1> grants;
};

/// Whether every AWAIT of `awaiters` leaves `record` as it is (its grants
/// already cover what the AWAIT would join): the record's observed count of
/// that barrier then carries no information.
bool isBeyondAwaiters(const VisibilityRecord &record,
                      const BarrierAwaiters &awaiters);

/// ARRIVE: witnessed records observe `counts`. With `awaitersOf`, a record
/// does not observe a barrier whose awaiters are known (non-null) and leave
/// it as it is (isBeyondAwaiters): no AWAIT could use that count.
bool liftArrive(std::vector<VisibilityRecord> &records, bool transitive,
                const ThreadSet &exec, QualMask pre,
                ArrayRef<std::pair<ElementKey, int64_t>> counts,
                function_ref<const BarrierAwaiters *(const ElementKey &)>
                    awaitersOf = nullptr);
/// AWAIT: records that observed an arrive count of `barrier` at most `max`
/// are augmented, except those that observed a count in `skipped` (sorted:
/// phases of a ring whose asynchronous completions the await does not wait
/// for; docs/abstract-machine.md, "Rings"). With `own` (the await of a
/// commit group), each executing thread is raised only on the records it
/// sees at unordered or above on their own timeline: the asynchronous work
/// it issued itself.
bool liftAwait(std::vector<VisibilityRecord> &records,
               const ElementKey &barrier, int64_t max, const ThreadSet &exec,
               QualMask full, QualMask temp, bool own,
               ArrayRef<int64_t> skipped = {});
/// Forgets the arrive counts of `barrier` (a new barrier lifetime).
bool forgetBarrier(std::vector<VisibilityRecord> &records,
                   const ElementKey &barrier);

/// The first record of `records` (a member, for a group) that the check
/// CHECKREADS / CHECKMUTATES of Fig. 7 rejects, as a plain record, with the
/// first executing thread that does not see it (absent with `convergent`).
struct RejectedRecord {
  VisibilityRecord record;
  std::optional<GlobalThread> blind;
};
std::optional<RejectedRecord>
findRejectedRecord(ArrayRef<VisibilityRecord> records, const ThreadSet &threads,
                   QualMask timelines, VisibilityLevel level, bool convergent);

} // namespace mlir::exoam

#endif // EXOGPU_ABSTRACTMACHINE_SYNCENV_H
