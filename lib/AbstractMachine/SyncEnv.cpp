//===- SyncEnv.cpp - the synchronization environment rho -----------------===//
//
// Part of ExoGPU. Visibility functions and records (seeds/002 Def. 5.3), the
// record constructor R (Def. B.1), lift (Def. B.2), witness W and augment A
// (Def. B.3), written as directly as the definitions allow.
//
//===----------------------------------------------------------------------===//

#include "ExoGPU/AbstractMachine/SyncEnv.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/Hashing.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::exoam;
using exogpu::QualTimeline;

//===----------------------------------------------------------------------===//
// VisibilityFunction
//===----------------------------------------------------------------------===//

VisibilityLevel VisibilityFunction::lookup(GlobalThread thread,
                                           QualTimeline timeline) const {
  VisibilityLevel level = VisibilityLevel::invisible;
  for (const VisibilityGrant &grant : grants)
    if ((grant.timelines & getQualBit(timeline)) &&
        grant.threads.contains(thread))
      level = std::max(level, grant.level);
  return level;
}

ThreadSet VisibilityFunction::getThreadsSeeing(QualMask timelines,
                                               VisibilityLevel level) const {
  // S(g, q) >= level iff some grant with a level >= `level` holds (g, q).
  ThreadSet threads;
  for (const VisibilityGrant &grant : grants)
    if (grant.level >= level && (grant.timelines & timelines))
      threads.insert(grant.threads);
  return threads;
}

bool VisibilityFunction::isSeenBy(const ThreadSet &threads, QualMask timelines,
                                  VisibilityLevel level) const {
  // The union of the grants' threads meets `threads` iff some grant does.
  for (const VisibilityGrant &grant : grants)
    if (grant.level >= level && (grant.timelines & timelines) &&
        threads.intersects(grant.threads))
      return true;
  return false;
}

bool VisibilityFunction::join(VisibilityGrant grant) {
  // A grant of `invisible`, or of no thread or timeline, changes nothing;
  // nor does one that an existing grant covers (S v g = S).
  if (grant.level == VisibilityLevel::invisible || !grant.timelines ||
      grant.threads.empty() || covers(grant))
    return false;
  grants.push_back(std::move(grant));
  return true;
}

void VisibilityFunction::dropCoveredGrants(unsigned *position) {
  SmallVector<VisibilityGrant, 2> kept;
  unsigned droppedBefore = 0;
  for (auto [i, grant] : llvm::enumerate(grants)) {
    // Covered by a later grant, or by an earlier one that stays.
    bool covered = false;
    for (auto [j, other] : llvm::enumerate(grants))
      if (i != j && other.covers(grant) &&
          (j > i ? !grant.covers(other) : true))
        covered = true;
    if (!covered)
      kept.push_back(grant);
    else if (position && i < *position)
      ++droppedBefore;
  }
  grants = std::move(kept);
  if (position)
    *position -= droppedBefore;
}

//===----------------------------------------------------------------------===//
// ElementKey
//===----------------------------------------------------------------------===//

bool ElementKey::operator<(const ElementKey &other) const {
  if (var != other.var)
    return var.getValue() < other.var.getValue();
  return index < other.index;
}

void ElementKey::print(raw_ostream &os) const {
  os << '@' << var.getValue() << '[';
  llvm::interleaveComma(index, os);
  os << ']';
}

//===----------------------------------------------------------------------===//
// Records and record groups
//===----------------------------------------------------------------------===//

/// The one-thread set {thread}.
static ThreadSet getSingleton(GlobalThread thread) {
  IntervalSet one;
  one.insert(thread.thread, thread.thread);
  return ThreadSet::get(thread.task, one);
}

/// The first thread of a finite, non-empty set.
static GlobalThread getFirst(const ThreadSet &threads) {
  return *threads.findNotIn(ThreadSet());
}

VisibilityGrant VisibilityRecord::getMemberGrant(GlobalThread thread) const {
  return {getSingleton(thread), getQualBit(timeline), memberLevel};
}

VisibilityRecord VisibilityRecord::getMember(GlobalThread thread) const {
  VisibilityRecord member{timeline, visibility, arrives, origin,
                          getSingleton(thread)};
  member.visibility.insertGrant(memberGrantPos, getMemberGrant(thread));
  return member;
}

/// Calls `emit(run, cls)` for the maximal runs of members of `group` (in
/// thread order) on which `classify` agrees: the run as a group, or as a
/// plain record when it has one member.
static void splitGroup(const VisibilityRecord &group,
                       function_ref<int(GlobalThread)> classify,
                       function_ref<void(VisibilityRecord, int)> emit) {
  std::optional<int> current;
  IntervalSet run;
  int64_t task = 0, size = 0;
  std::optional<GlobalThread> only;
  auto flush = [&]() {
    if (!current)
      return;
    if (size == 1) {
      emit(group.getMember(*only), *current);
    } else {
      VisibilityRecord part = group;
      part.actors = ThreadSet::get(task, run);
      emit(std::move(part), *current);
    }
    run = IntervalSet();
    size = 0;
  };
  group.actors.forEachThread([&](GlobalThread thread) {
    int cls = classify(thread);
    if (current && (cls != *current || thread.task != task))
      flush();
    current = cls;
    task = thread.task;
    run.insert(thread.thread, thread.thread);
    only = thread;
    ++size;
  });
  flush();
}

/// A hash of (q, f, p) of a plain record, consistent with isSameRecord.
static llvm::hash_code hashRecord(const VisibilityRecord &record) {
  llvm::hash_code hash = llvm::hash_value(static_cast<int>(record.timeline));
  for (const VisibilityGrant &grant : record.visibility.getGrants()) {
    hash = llvm::hash_combine(hash, static_cast<int>(grant.level),
                              grant.timelines, grant.threads.isAll());
    grant.threads.forEachRange([&](int64_t task, int64_t lo, int64_t hi) {
      hash = llvm::hash_combine(hash, task, lo, hi);
    });
  }
  for (const auto &[key, count] : record.arrives)
    hash = llvm::hash_combine(
        hash, key.var.getAsOpaquePointer(),
        llvm::hash_combine_range(key.index.begin(), key.index.end()), count);
  return hash;
}

/// The member of `group` that equals the plain record `plain`, if any.
static std::optional<GlobalThread>
findEqualMember(const VisibilityRecord &group, const VisibilityRecord &plain) {
  ArrayRef<VisibilityGrant> groupGrants = group.visibility.getGrants();
  ArrayRef<VisibilityGrant> plainGrants = plain.visibility.getGrants();
  unsigned pos = group.memberGrantPos;
  if (plain.timeline != group.timeline || plain.arrives != group.arrives ||
      plainGrants.size() != groupGrants.size() + 1 ||
      plainGrants.take_front(pos) != groupGrants.take_front(pos) ||
      plainGrants.drop_front(pos + 1) != groupGrants.drop_front(pos))
    return std::nullopt;
  const VisibilityGrant &own = plainGrants[pos];
  if (own.threads.isAll() || own.level != group.memberLevel ||
      own.timelines != getQualBit(group.timeline))
    return std::nullopt;
  std::optional<GlobalThread> thread = own.threads.findNotIn(ThreadSet());
  if (!thread || !(own.threads == getSingleton(*thread)) ||
      !group.actors.contains(*thread))
    return std::nullopt;
  return thread;
}

/// Whether groups `a` and `b` have equal members wherever both have one.
static bool haveEqualMembers(const VisibilityRecord &a,
                             const VisibilityRecord &b) {
  return a.timeline == b.timeline && a.visibility == b.visibility &&
         a.arrives == b.arrives && a.memberLevel == b.memberLevel &&
         a.memberGrantPos == b.memberGrantPos;
}

bool mlir::exoam::isSameState(const ElementState &a, const ElementState &b) {
  auto same = [](const std::vector<VisibilityRecord> &x,
                 const std::vector<VisibilityRecord> &y) {
    if (x.size() != y.size())
      return false;
    for (auto [r, s] : llvm::zip(x, y))
      if (!r.isSameRecord(s) || r.origin != s.origin || !(r.actors == s.actors))
        return false;
    return true;
  };
  auto sameRing = [&](const RingPhase &x, const RingPhase &y) {
    return x.phase == y.phase && same(x.signals, y.signals) &&
           same(x.completions, y.completions) && same(x.awaits, y.awaits) &&
           same(x.unpassed, y.unpassed);
  };
  return a.arrives == b.arrives && a.awaits == b.awaits &&
         a.received == b.received && same(a.reads, b.reads) &&
         same(a.mutates, b.mutates) && llvm::equal(a.ring, b.ring, sameRing);
}

llvm::hash_code mlir::exoam::hashState(const ElementState &state) {
  llvm::hash_code hash = llvm::hash_combine(
      state.arrives, state.awaits, state.reads.size(), state.ring.size());
  forEachRecordList(
      state, [&](const std::vector<VisibilityRecord> &records, bool) {
        hash = llvm::hash_combine(hash, records.size());
        for (const VisibilityRecord &record : records) {
          hash = llvm::hash_combine(hash, hashRecord(record),
                                    record.origin.getAsOpaquePointer(),
                                    record.isGroup);
          record.actors.forEachRange([&](int64_t task, int64_t lo, int64_t hi) {
            hash = llvm::hash_combine(hash, task, lo, hi);
          });
        }
      });
  for (const RingPhase &phase : state.ring)
    hash = llvm::hash_combine(hash, phase.phase);
  return hash;
}

bool mlir::exoam::mentionsFinishedTasks(const VisibilityRecord &record) {
  ThreadSet finished = ThreadSet::getFinished();
  return record.actors == finished ||
         llvm::any_of(record.visibility.getGrants(),
                      [&](const VisibilityGrant &grant) {
                        return !grant.threads.isAll() &&
                               grant.threads.intersects(finished);
                      });
}

bool mlir::exoam::compactFinishedRecords(
    std::vector<VisibilityRecord> &records, int64_t task,
    function_ref<bool(const ElementKey &)> isDead) {
  // The list is rebuilt only if it has a record of `task`: records are moved
  // out of it below.
  auto isOwn = [&](const VisibilityRecord &record) {
    return record.actors.isWithinTask(task);
  };
  if (llvm::none_of(records, isOwn))
    return false;
  std::vector<VisibilityRecord> compacted;
  compacted.reserve(records.size());
  for (VisibilityRecord &record : records) {
    if (!isOwn(record)) {
      compacted.push_back(std::move(record));
      continue;
    }
    // Every member of a group is the same record once its thread is the
    // finished one: the member with that thread.
    VisibilityRecord finished{
        record.timeline, {}, {}, record.origin, ThreadSet::getFinished()};
    for (const VisibilityGrant &grant : record.visibility.getGrants())
      finished.visibility.insertGrant(
          finished.visibility.getGrants().size(),
          {grant.threads.finishTask(task), grant.timelines, grant.level});
    if (record.isGroup)
      finished.visibility.insertGrant(record.memberGrantPos,
                                      {ThreadSet::getFinished(),
                                       getQualBit(record.timeline),
                                       record.memberLevel});
    finished.visibility.dropCoveredGrants();
    for (const auto &[key, count] : record.arrives)
      if (!isDead(key))
        finished.arrives.insert({key, count});
    compacted.push_back(std::move(finished));
  }
  // Equal records once (in order).
  records.clear();
  addRecords(records, compacted, /*prune=*/false);
  return true;
}

bool mlir::exoam::finishTaskGrants(
    std::vector<VisibilityRecord> &records, int64_t task,
    function_ref<bool(const ElementKey &)> isDead) {
  bool changed = false;
  for (VisibilityRecord &record : records) {
    if (record.actors.isWithinTask(task))
      continue;
    bool rewritten = false;
    SmallVector<VisibilityGrant, 4> grants(record.visibility.getGrants());
    for (VisibilityGrant &grant : grants) {
      ThreadSet finished = grant.threads.finishTask(task);
      if (finished == grant.threads)
        continue;
      grant.threads = std::move(finished);
      rewritten = true;
    }
    if (rewritten) {
      VisibilityFunction visibility;
      for (VisibilityGrant &grant : grants)
        visibility.insertGrant(visibility.getGrants().size(), std::move(grant));
      // (A group's members keep their own grant where it was.)
      visibility.dropCoveredGrants(record.isGroup ? &record.memberGrantPos
                                                  : nullptr);
      record.visibility = std::move(visibility);
    }
    for (auto it = record.arrives.begin(); it != record.arrives.end();)
      if (isDead(it->first)) {
        it = record.arrives.erase(it);
        rewritten = true;
      } else {
        ++it;
      }
    if (rewritten)
      record.indexed = false;
    changed |= rewritten;
  }
  return changed;
}

bool mlir::exoam::isSeenByAll(const VisibilityRecord &record) {
  return llvm::any_of(record.visibility.getGrants(),
                      [](const VisibilityGrant &grant) {
                        return grant.threads.isAll() &&
                               grant.level >= VisibilityLevel::unordered;
                      });
}

bool mlir::exoam::holdsRecordSeenByAll(const ElementState &state) {
  bool seen = false;
  forEachRecordList(state,
                    [&](const std::vector<VisibilityRecord> &records, bool) {
                      seen |= llvm::any_of(records, isSeenByAll);
                    });
  return seen;
}

bool mlir::exoam::isSubsumed(const VisibilityRecord &strong,
                             const VisibilityRecord &weak) {
  if (strong.timeline != weak.timeline || strong.isGroup != weak.isGroup)
    return false;
  if (weak.isGroup && (strong.memberLevel != weak.memberLevel ||
                       strong.memberGrantPos != weak.memberGrantPos ||
                       !(strong.actors == weak.actors)))
    return false;
  for (const auto &[key, count] : weak.arrives) {
    auto it = strong.arrives.find(key);
    if (it == strong.arrives.end() || it->second > count)
      return false;
  }
  // A group member's own grant is the same in both: the common grants
  // decide.
  return llvm::all_of(weak.visibility.getGrants(),
                      [&](const VisibilityGrant &grant) {
                        return strong.visibility.covers(grant);
                      });
}

bool mlir::exoam::addRecords(std::vector<VisibilityRecord> &records,
                             ArrayRef<VisibilityRecord> added, bool prune) {
  bool pruned = false;
  if (prune) {
    // Subsumed records go first (a record equal to an added one stays where
    // it is); the rest is the plain union.
    size_t before = records.size();
    llvm::erase_if(records, [&](const VisibilityRecord &existing) {
      return llvm::any_of(added, [&](const VisibilityRecord &record) {
        return !existing.isSameRecord(record) && isSubsumed(existing, record);
      });
    });
    pruned = records.size() != before;
  }
  size_t oldSize = records.size();
  // Equal plain records hash alike: past a few records, compare only within
  // a bucket, so that adding m records to n costs O(n + m) rather than
  // O(n m). Groups are few; they are compared one by one.
  constexpr size_t kBucketsFrom = 16;
  bool useBuckets = records.size() + added.size() > kBucketsFrom;
  // (Keys keep clear of DenseMap's two reserved values.)
  auto keyOf = [](const VisibilityRecord &record) -> unsigned {
    return hashRecord(record) & 0x7fffffffu;
  };
  DenseMap<unsigned, SmallVector<unsigned, 1>> buckets;
  SmallVector<unsigned> plain, groups;
  auto note = [&](unsigned index) {
    if (records[index].isGroup)
      groups.push_back(index);
    else if (useBuckets)
      buckets[keyOf(records[index])].push_back(index);
    else
      plain.push_back(index);
  };
  for (unsigned index = 0; index < records.size(); ++index)
    note(index);
  // The plain records that may equal `record` (all of them, or its bucket).
  auto candidates = [&](const VisibilityRecord &record) -> ArrayRef<unsigned> {
    if (!useBuckets)
      return plain;
    auto it = buckets.find(keyOf(record));
    return it == buckets.end() ? ArrayRef<unsigned>() : it->second;
  };
  auto forEachPlain = [&](function_ref<void(unsigned)> fn) {
    if (!useBuckets) {
      llvm::for_each(plain, fn);
      return;
    }
    for (const auto &[key, indices] : buckets)
      llvm::for_each(indices, fn);
  };
  for (const VisibilityRecord &record : added) {
    if (!record.isGroup) {
      bool duplicate = llvm::any_of(candidates(record),
                                    [&](unsigned i) {
                                      return records[i].isSameRecord(record);
                                    }) ||
                       llvm::any_of(groups, [&](unsigned i) {
                         return findEqualMember(records[i], record).has_value();
                       });
      if (!duplicate) {
        records.push_back(record);
        note(records.size() - 1);
      }
      continue;
    }
    // A group keeps the members no existing record equals, in runs.
    ThreadSet duplicates;
    forEachPlain([&](unsigned i) {
      if (std::optional<GlobalThread> t = findEqualMember(record, records[i]))
        duplicates.insert(getSingleton(*t));
    });
    for (unsigned i : groups)
      if (haveEqualMembers(records[i], record))
        record.actors.forEachThread([&](GlobalThread t) {
          if (records[i].actors.contains(t))
            duplicates.insert(getSingleton(t));
        });
    if (duplicates.empty()) {
      records.push_back(record);
      note(records.size() - 1);
      continue;
    }
    splitGroup(
        record, [&](GlobalThread t) { return duplicates.contains(t) ? 1 : 0; },
        [&](VisibilityRecord part, int cls) {
          if (cls)
            return;
          records.push_back(std::move(part));
          note(records.size() - 1);
        });
  }
  return records.size() != oldSize || pruned;
}

/// S_H of Def. B.1: every thread sees the access at atomic_only on the
/// atomic timelines, and the threads of H at `level` on `timeline`.
static VisibilityFunction makeVisibility(VisibilityLevel level,
                                         QualTimeline timeline, QualMask atomic,
                                         ThreadSet actors) {
  VisibilityFunction visibility;
  visibility.join({ThreadSet::getAll(), atomic, VisibilityLevel::atomic_only});
  visibility.join({std::move(actors), getQualBit(timeline), level});
  return visibility;
}

std::vector<VisibilityRecord>
mlir::exoam::makeRecords(VisibilityLevel level, bool convergent,
                         QualTimeline timeline, QualMask atomic,
                         const ArriveCounts &arrives, const ThreadSet &threads,
                         Location origin, bool group) {
  std::vector<VisibilityRecord> records;
  auto add = [&](const ThreadSet &actors) {
    records.push_back({timeline,
                       makeVisibility(level, timeline, atomic, actors), arrives,
                       origin, actors});
  };
  if (convergent || threads.isAll()) {
    add(threads);
    return records;
  }
  // A group needs members that differ: their own grant must survive the
  // join (not invisible, not covered by the atomic grant).
  VisibilityFunction common =
      makeVisibility(VisibilityLevel::invisible, timeline, atomic, ThreadSet());
  bool ownGrantKept = level != VisibilityLevel::invisible &&
                      !(level <= VisibilityLevel::atomic_only &&
                        (atomic & getQualBit(timeline)));
  if (group && ownGrantKept && threads.findNotIn(ThreadSet()) &&
      !(threads == getSingleton(getFirst(threads)))) {
    VisibilityRecord record{timeline, common, arrives, origin, threads};
    record.isGroup = true;
    record.memberLevel = level;
    record.memberGrantPos = common.getGrants().size();
    records.push_back(std::move(record));
    return records;
  }
  threads.forEachThread(
      [&](GlobalThread thread) { add(getSingleton(thread)); });
  return records;
}

//===----------------------------------------------------------------------===//
// Witness, augment and the lifts of Fig. 22
//===----------------------------------------------------------------------===//

/// The level at which a witness (Def. B.3 (i)) must see a record on
/// `timeline`. A TMA load into shared memory completes only on the mbarrier
/// its instruction names (complete_tx); no wait instruction completes it,
/// so a fence or arrive of its issuer, which sees it at unordered while it
/// is in flight, cannot order it: the witness must see it temporally
/// ordered, i.e. after an await of its mbarrier (docs/abstract-machine.md,
/// decision (j)).
static VisibilityLevel getWitnessLevel(QualTimeline timeline) {
  return timeline == QualTimeline::tma_to_smem_async_qual
             ? VisibilityLevel::temporally_ordered
             : VisibilityLevel::unordered;
}

bool mlir::exoam::isWitnessed(bool transitive, const ThreadSet &exec,
                              QualMask pre, const VisibilityRecord &record) {
  VisibilityLevel level = getWitnessLevel(record.timeline);
  if (transitive)
    return record.visibility.isSeenBy(exec, pre, level);
  QualMask own = getQualBit(record.timeline);
  return (pre & own) && record.visibility.isSeenBy(exec, own, level);
}

bool mlir::exoam::augment(VisibilityRecord &record, const ThreadSet &exec,
                          QualMask full, QualMask temp) {
  bool grew =
      record.visibility.join({exec, full, VisibilityLevel::fully_ordered});
  grew |= record.visibility.join(
      {exec, temp & ~full, VisibilityLevel::temporally_ordered});
  if (grew)
    record.indexed = false;
  return grew;
}

/// The members of `group` that W(t, exec, pre, member) holds for: all of
/// them if the common grants witness, those in `exec` if only their own
/// grant can (Def. B.3 (i)).
static ThreadSet getWitnessedMembers(bool transitive, const ThreadSet &exec,
                                     QualMask pre,
                                     const VisibilityRecord &group) {
  VisibilityLevel level = getWitnessLevel(group.timeline);
  QualMask own = getQualBit(group.timeline);
  QualMask seen = transitive ? pre : own;
  if (!transitive && !(pre & own))
    return ThreadSet();
  if (group.visibility.isSeenBy(exec, seen, level))
    return group.actors;
  if (group.memberLevel < level || !(pre & own) ||
      !group.actors.intersects(exec))
    return ThreadSet();
  if (group.actors.isSubsetOf(exec))
    return group.actors;
  ThreadSet witnessed;
  group.actors.forEachThread([&](GlobalThread t) {
    if (exec.contains(t))
      witnessed.insert(getSingleton(t));
  });
  return witnessed;
}

/// Whether the augment by `exec` could be told apart between members: a
/// member's own grant covers a grant to `exec` alone if `exec` is that
/// member.
static std::optional<GlobalThread>
getDistinguishedMember(const ThreadSet &exec, const ThreadSet &members) {
  if (exec.isAll())
    return std::nullopt;
  std::optional<GlobalThread> first = exec.findNotIn(ThreadSet());
  if (!first || !(exec == getSingleton(*first)) || !members.contains(*first))
    return std::nullopt;
  return first;
}

/// Applies `liftPlain` to the plain records of `records` and `liftGroup` to
/// the groups, in place; a `liftGroup` that returns true has split its group
/// into the records it appended to `parts`, which replace it. Both set
/// `grew` when they change a record; the result is whether any did or a
/// group was split.
static bool
liftRecords(std::vector<VisibilityRecord> &records,
            function_ref<void(VisibilityRecord &, bool &)> liftPlain,
            function_ref<bool(VisibilityRecord &,
                              std::vector<VisibilityRecord> &, bool &)>
                liftGroup) {
  std::vector<VisibilityRecord> parts, result;
  bool split = false, grew = false;
  for (size_t i = 0, e = records.size(); i < e; ++i) {
    VisibilityRecord &record = records[i];
    bool replaced = false;
    if (record.isGroup) {
      parts.clear();
      replaced = liftGroup(record, parts, grew);
    } else {
      liftPlain(record, grew);
    }
    if (replaced && !split) {
      split = true;
      result.reserve(e + parts.size());
      for (size_t j = 0; j < i; ++j)
        result.push_back(std::move(records[j]));
    }
    if (!split)
      continue;
    if (!replaced) {
      result.push_back(std::move(record));
      continue;
    }
    for (VisibilityRecord &part : parts)
      result.push_back(std::move(part));
  }
  if (split)
    records = std::move(result);
  return grew || split;
}

/// Augments the members of `group` in `witnessed` (all of them if null): in
/// place, or by splitting it into `parts` (returning true) where members end
/// up different.
static bool augmentGroup(VisibilityRecord &group, const ThreadSet *witnessed,
                         const ThreadSet &exec, QualMask full, QualMask temp,
                         std::vector<VisibilityRecord> &parts, bool &grew) {
  std::optional<GlobalThread> distinguished =
      getDistinguishedMember(exec, group.actors);
  bool all = !witnessed || *witnessed == group.actors;
  if (all && !distinguished) {
    grew |= augment(group, exec, full, temp);
    return false;
  }
  splitGroup(
      group,
      [&](GlobalThread t) {
        if (witnessed && !witnessed->contains(t))
          return 0;
        return distinguished && t.task == distinguished->task &&
                       t.thread == distinguished->thread
                   ? 2
                   : 1;
      },
      [&](VisibilityRecord part, int cls) {
        if (cls)
          augment(part, exec, full, temp);
        parts.push_back(std::move(part));
      });
  return true;
}

bool mlir::exoam::liftFence(std::vector<VisibilityRecord> &records,
                            bool transitive, const ThreadSet &exec,
                            QualMask pre, QualMask full, QualMask temp) {
  return liftRecords(
      records,
      [&](VisibilityRecord &record, bool &grew) {
        if (isWitnessed(transitive, exec, pre, record))
          grew |= augment(record, exec, full, temp);
      },
      [&](VisibilityRecord &group, std::vector<VisibilityRecord> &parts,
          bool &grew) {
        ThreadSet witnessed = getWitnessedMembers(transitive, exec, pre, group);
        return !witnessed.empty() &&
               augmentGroup(group, &witnessed, exec, full, temp, parts, grew);
      });
}

bool mlir::exoam::isBeyondAwaiters(const VisibilityRecord &record,
                                   const BarrierAwaiters &awaiters) {
  // augment's two joins add nothing when a grant covers them (or their
  // timelines are empty).
  const VisibilityFunction &visibility = record.visibility;
  return llvm::all_of(awaiters.grants, [&](auto grant) {
    auto [full, temporal] = grant;
    return (!full || visibility.covers({awaiters.threads, full,
                                        VisibilityLevel::fully_ordered})) &&
           (!temporal ||
            visibility.covers({awaiters.threads, temporal,
                               VisibilityLevel::temporally_ordered}));
  });
}

bool mlir::exoam::liftArrive(
    std::vector<VisibilityRecord> &records, bool transitive,
    const ThreadSet &exec, QualMask pre,
    ArrayRef<std::pair<ElementKey, int64_t>> counts,
    function_ref<const BarrierAwaiters *(const ElementKey &)> awaitersOf) {
  auto observe = [&](VisibilityRecord &record) {
    bool added = false;
    for (const auto &[key, count] : counts) {
      const BarrierAwaiters *awaiters = awaitersOf ? awaitersOf(key) : nullptr;
      if (awaiters && isBeyondAwaiters(record, *awaiters))
        continue;
      added |= observeArrive(record.arrives, key, count);
    }
    if (added)
      record.indexed = false;
    return added;
  };
  return liftRecords(
      records,
      [&](VisibilityRecord &record, bool &grew) {
        if (isWitnessed(transitive, exec, pre, record))
          grew |= observe(record);
      },
      [&](VisibilityRecord &group, std::vector<VisibilityRecord> &parts,
          bool &grew) {
        ThreadSet witnessed = getWitnessedMembers(transitive, exec, pre, group);
        if (witnessed.empty())
          return false;
        if (witnessed == group.actors) {
          grew |= observe(group);
          return false;
        }
        splitGroup(
            group, [&](GlobalThread t) { return witnessed.contains(t); },
            [&](VisibilityRecord part, int cls) {
              if (cls)
                observe(part);
              parts.push_back(std::move(part));
            });
        return true;
      });
}

bool mlir::exoam::liftAwait(std::vector<VisibilityRecord> &records,
                            const ElementKey &barrier, int64_t max,
                            const ThreadSet &exec, QualMask full, QualMask temp,
                            bool own, ArrayRef<int64_t> skipped) {
  auto observed = [&](const VisibilityRecord &record) {
    auto it = record.arrives.find(barrier);
    return it != record.arrives.end() && it->second <= max &&
           !llvm::binary_search(skipped, it->second);
  };
  // With `own`, an executing thread is raised on a record only if the
  // common grants let it see the record at unordered or above on the
  // record's own timeline (a group member also sees itself so).
  auto issuers = [&](const VisibilityRecord &record) {
    return exec.intersect(record.visibility.getThreadsSeeing(
        getQualBit(record.timeline), VisibilityLevel::unordered));
  };
  return liftRecords(
      records,
      [&](VisibilityRecord &record, bool &grew) {
        if (!observed(record))
          return;
        if (!own) {
          grew |= augment(record, exec, full, temp);
          return;
        }
        if (ThreadSet raised = issuers(record); !raised.empty())
          grew |= augment(record, raised, full, temp);
      },
      [&](VisibilityRecord &group, std::vector<VisibilityRecord> &parts,
          bool &grew) {
        if (!observed(group))
          return false;
        if (!own)
          return augmentGroup(group, nullptr, exec, full, temp, parts, grew);
        ThreadSet common = issuers(group);
        ThreadSet selfSeeing = group.memberLevel >= VisibilityLevel::unordered
                                   ? group.actors.intersect(exec)
                                   : ThreadSet();
        if (selfSeeing.empty())
          return !common.empty() &&
                 augmentGroup(group, nullptr, common, full, temp, parts, grew);
        // Each executing member is raised for itself as well: those members
        // become plain records (one class each), the others stay in runs.
        int next = 1;
        splitGroup(
            group,
            [&](GlobalThread t) { return selfSeeing.contains(t) ? next++ : 0; },
            [&](VisibilityRecord part, int cls) {
              if (cls) {
                ThreadSet raised = common;
                raised.insert(part.actors);
                grew |= augment(part, raised, full, temp);
              } else if (!common.empty() && part.isGroup) {
                if (augmentGroup(part, nullptr, common, full, temp, parts,
                                 grew))
                  return;
              } else if (!common.empty()) {
                grew |= augment(part, common, full, temp);
              }
              parts.push_back(std::move(part));
            });
        return true;
      });
}

bool mlir::exoam::forgetBarrier(std::vector<VisibilityRecord> &records,
                                const ElementKey &barrier) {
  bool changed = false;
  for (VisibilityRecord &record : records)
    if (record.arrives.erase(barrier)) {
      record.indexed = false;
      changed = true;
    }
  return changed;
}

//===----------------------------------------------------------------------===//
// Checks (Fig. 7)
//===----------------------------------------------------------------------===//

std::optional<RejectedRecord>
mlir::exoam::findRejectedRecord(ArrayRef<VisibilityRecord> records,
                                const ThreadSet &threads, QualMask timelines,
                                VisibilityLevel level, bool convergent) {
  for (const VisibilityRecord &record : records) {
    // The threads g with S(g, q) >= level for some checked q.
    ThreadSet seeing = record.visibility.getThreadsSeeing(timelines, level);
    if (!record.isGroup) {
      if (!convergent) {
        // t = false: error if some executing thread sees it on none.
        if (std::optional<GlobalThread> blind = threads.findNotIn(seeing))
          return RejectedRecord{record, blind};
      } else if (!threads.intersects(seeing)) {
        // t = true: error if no executing thread sees it.
        return RejectedRecord{record, std::nullopt};
      }
      continue;
    }
    // Member g sees what the common grants give, plus g itself if its own
    // grant qualifies.
    bool ownQualifies = record.memberLevel >= level &&
                        (timelines & getQualBit(record.timeline));
    if (!convergent) {
      std::optional<GlobalThread> blind = threads.findNotIn(seeing);
      if (!blind)
        continue;
      if (!ownQualifies) {
        GlobalThread first = getFirst(record.actors);
        return RejectedRecord{record.getMember(first), blind};
      }
      // Member m fails unless the blind threads are exactly {m}.
      ThreadSet seeingMore = seeing;
      seeingMore.insert(getSingleton(*blind));
      std::optional<GlobalThread> second = threads.findNotIn(seeingMore);
      std::optional<GlobalThread> failing;
      record.actors.forEachThread([&](GlobalThread t) {
        if (!failing &&
            (second || t.task != blind->task || t.thread != blind->thread))
          failing = t;
      });
      if (!failing)
        continue;
      bool isBlind =
          failing->task == blind->task && failing->thread == blind->thread;
      return RejectedRecord{record.getMember(*failing),
                            isBlind ? second : blind};
    }
    if (threads.intersects(seeing))
      continue;
    if (!ownQualifies)
      return RejectedRecord{record.getMember(getFirst(record.actors)),
                            std::nullopt};
    if (std::optional<GlobalThread> outside = record.actors.findNotIn(threads))
      return RejectedRecord{record.getMember(*outside), std::nullopt};
  }
  return std::nullopt;
}
