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

void VisibilityFunction::join(VisibilityGrant grant) {
  // A grant of `invisible`, or of no thread or timeline, changes nothing;
  // nor does one that an existing grant covers (S v g = S).
  if (grant.level == VisibilityLevel::invisible || !grant.timelines ||
      grant.threads.empty())
    return;
  for (const VisibilityGrant &existing : grants)
    if (existing.level >= grant.level &&
        (grant.timelines & ~existing.timelines) == 0 &&
        grant.threads.isSubsetOf(existing.threads))
      return;
  grants.push_back(std::move(grant));
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

/// A hash of (q, f, p), consistent with VisibilityRecord::isSameRecord.
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

void mlir::exoam::addRecords(std::vector<VisibilityRecord> &records,
                             ArrayRef<VisibilityRecord> added) {
  // Equal records hash alike: compare only within a bucket, so that adding
  // m records to n costs O(n + m) rather than O(n m).
  DenseMap<unsigned, SmallVector<unsigned, 1>> buckets;
  for (auto [index, record] : llvm::enumerate(records))
    buckets[hashRecord(record)].push_back(index);
  for (const VisibilityRecord &record : added) {
    SmallVector<unsigned, 1> &bucket = buckets[hashRecord(record)];
    if (llvm::any_of(bucket, [&](unsigned index) {
          return records[index].isSameRecord(record);
        }))
      continue;
    bucket.push_back(records.size());
    records.push_back(record);
  }
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
                         Location origin) {
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
  threads.forEachThread([&](GlobalThread thread) {
    IntervalSet one;
    one.insert(thread.thread, thread.thread);
    add(ThreadSet::get(thread.task, one));
  });
  return records;
}

bool mlir::exoam::isWitnessed(bool transitive, const ThreadSet &exec,
                              QualMask pre, const VisibilityRecord &record) {
  if (transitive)
    return record.visibility.isSeenBy(exec, pre, VisibilityLevel::unordered);
  QualMask own = getQualBit(record.timeline);
  return (pre & own) &&
         record.visibility.isSeenBy(exec, own, VisibilityLevel::unordered);
}

void mlir::exoam::augment(VisibilityRecord &record, const ThreadSet &exec,
                          QualMask full, QualMask temp) {
  record.visibility.join({exec, full, VisibilityLevel::fully_ordered});
  record.visibility.join(
      {exec, temp & ~full, VisibilityLevel::temporally_ordered});
}
