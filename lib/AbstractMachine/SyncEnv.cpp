//===- SyncEnv.cpp - the synchronization environment rho -----------------===//
//
// Part of ExoGPU. Visibility functions and records (seeds/002 Def. 5.3), the
// record constructor R (Def. B.1), lift (Def. B.2), witness W and augment A
// (Def. B.3), written as directly as the definitions allow.
//
//===----------------------------------------------------------------------===//

#include "ExoGPU/AbstractMachine/SyncEnv.h"
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

void VisibilityFunction::join(VisibilityGrant grant) {
  // A grant of `invisible`, or of no thread or timeline, changes nothing.
  if (grant.level == VisibilityLevel::invisible || !grant.timelines ||
      grant.threads.empty())
    return;
  grants.push_back(std::move(grant));
}

//===----------------------------------------------------------------------===//
// ElementKey, SyncEnv
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

const ElementState *SyncEnv::lookup(const ElementKey &key) const {
  auto it = elements.find(key);
  return it == elements.end() ? nullptr : &it->second;
}

/// Whether `index` lies in `[0, extents[i])` in every dimension.
static bool isInBox(ArrayRef<int64_t> index, ArrayRef<int64_t> extents) {
  if (index.size() != extents.size())
    return false;
  for (auto [i, n] : llvm::zip(index, extents))
    if (i < 0 || i >= n)
      return false;
  return true;
}

void SyncEnv::reset(StringAttr var, ArrayRef<int64_t> extents) {
  // An empty state is the same as no entry: erase the elements in the box.
  auto it = elements.lower_bound(ElementKey{var, {}});
  while (it != elements.end() && it->first.var == var) {
    if (isInBox(it->first.index, extents))
      it = elements.erase(it);
    else
      ++it;
  }
}

void SyncEnv::lift(function_ref<void(VisibilityRecord &)> lambda) {
  for (auto &entry : elements) {
    for (VisibilityRecord &record : entry.second.reads)
      lambda(record);
    for (VisibilityRecord &record : entry.second.mutates)
      lambda(record);
  }
}

//===----------------------------------------------------------------------===//
// App. B helpers
//===----------------------------------------------------------------------===//

void mlir::exoam::addRecord(std::vector<VisibilityRecord> &records,
                            VisibilityRecord record) {
  for (const VisibilityRecord &existing : records)
    if (existing.isSameRecord(record))
      return;
  records.push_back(std::move(record));
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
    return exec.intersects(
        record.visibility.getThreadsSeeing(pre, VisibilityLevel::unordered));
  QualMask own = getQualBit(record.timeline);
  return (pre & own) && exec.intersects(record.visibility.getThreadsSeeing(
                            own, VisibilityLevel::unordered));
}

void mlir::exoam::augment(VisibilityRecord &record, const ThreadSet &exec,
                          QualMask full, QualMask temp) {
  record.visibility.join({exec, full, VisibilityLevel::fully_ordered});
  record.visibility.join(
      {exec, temp & ~full, VisibilityLevel::temporally_ordered});
}
