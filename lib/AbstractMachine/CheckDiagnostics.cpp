//===- CheckDiagnostics.cpp - errors of failing checks -------------------===//
//
// Part of ExoGPU. Messages of failing CheckReads, CheckMutates and
// CheckBarrier statements (seeds/002 Fig. 7).
//
//===----------------------------------------------------------------------===//

#include "CheckDiagnostics.h"
#include "ExoGPU/Dialect/ExoAM/IR/SyncTimelines.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Operation.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::exoam;
using exogpu::QualTimeline;

/// Prints a timeline set as `[a, b]`.
static std::string formatTimelines(QualMask timelines) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << '[';
  bool first = true;
  for (uint32_t i = 0; i <= exogpu::getMaxEnumValForQualTimeline(); ++i) {
    std::optional<QualTimeline> q = exogpu::symbolizeQualTimeline(i);
    if (!q || !(timelines & getQualBit(*q)))
      continue;
    os << (first ? "" : ", ") << exogpu::stringifyQualTimeline(*q);
    first = false;
  }
  os << ']';
  return text;
}

template <typename T> static std::string format(const T &value) {
  std::string text;
  llvm::raw_string_ostream os(text);
  value.print(os);
  return text;
}

/// The highest level at which some thread of `threads` sees `record` on
/// some of `timelines`.
static VisibilityLevel getBestLevel(const VisibilityRecord &record,
                                    QualMask timelines,
                                    const ThreadSet &threads) {
  for (VisibilityLevel level :
       {VisibilityLevel::fully_ordered, VisibilityLevel::temporally_ordered,
        VisibilityLevel::unordered, VisibilityLevel::atomic_only})
    if (threads.intersects(
            record.visibility.getThreadsSeeing(timelines, level)))
      return level;
  return VisibilityLevel::invisible;
}

/// Sync timelines (Fig. 16) whose set selected by `select` meets `mask`,
/// fewest timelines first, at most `limit` of them.
static SmallVector<exogpu::SyncTimeline, 4>
suggestSyncTimelines(QualMask mask,
                     function_ref<QualMask(exogpu::SyncTimeline)> select,
                     unsigned limit = 3) {
  SmallVector<std::pair<unsigned, exogpu::SyncTimeline>> candidates;
  for (uint32_t i = 0; i <= exogpu::getMaxEnumValForSyncTimeline(); ++i) {
    std::optional<exogpu::SyncTimeline> s = exogpu::symbolizeSyncTimeline(i);
    if (!s || !(select(*s) & mask))
      continue;
    candidates.push_back({llvm::popcount(select(*s)), *s});
  }
  llvm::stable_sort(candidates, llvm::less_first());
  SmallVector<exogpu::SyncTimeline, 4> result;
  for (const auto &candidate : ArrayRef(candidates).take_front(limit))
    result.push_back(candidate.second);
  return result;
}

/// Sync timelines as "a, b".
static std::string formatSyncTimelines(ArrayRef<exogpu::SyncTimeline> list) {
  std::string text;
  for (auto [index, timeline] : llvm::enumerate(list))
    text += (index ? ", " : "") + exogpu::stringifySyncTimeline(timeline).str();
  return text;
}

/// The hazard a failing check of `purpose` reports on a `recordIsRead`
/// record.
static StringRef getHazardName(AccessPurpose purpose, bool recordIsRead) {
  switch (purpose) {
  case AccessPurpose::read:
    return "RAW";
  case AccessPurpose::write:
    return recordIsRead ? "WAR" : "WAW";
  case AccessPurpose::free:
    return "use-after-free";
  }
  return "";
}

std::optional<int64_t> mlir::exoam::getOnlyTask(const ThreadSet &threads) {
  std::optional<int64_t> only;
  bool several = false;
  if (!threads.isAll())
    threads.forEachTask([&](int64_t task) {
      several |= only.has_value();
      only = task;
    });
  if (several)
    return std::nullopt;
  return only;
}

// (A hazard's iterations name both tasks in the kernel's iterators.)
std::string mlir::exoam::formatThreads(const ThreadSet &threads,
                                       std::optional<int64_t> task) {
  std::optional<int64_t> own = getOnlyTask(threads);
  if (!own || *own == ThreadSet::kFinishedTask)
    return format(threads);
  std::string text;
  llvm::raw_string_ostream os(text);
  os << (threads.count() == 1 ? "thread " : "threads ");
  threads.getThreadsOf(*own)->print(os);
  if (own != task)
    os << " of another task";
  return text;
}

std::string mlir::exoam::formatThread(GlobalThread thread,
                                      std::optional<int64_t> task) {
  IntervalSet one;
  one.insert(thread.thread, thread.thread);
  return formatThreads(ThreadSet::get(thread.task, one), task);
}

/// Emits the hazard form of a failing check that knows the access it guards.
static InFlightDiagnostic
reportHazard(Operation *check, AccessPurpose purpose, const ElementKey &key,
             bool isRead, const VisibilityRecord &record,
             const VisibilityQuery &query, std::optional<GlobalThread> blind,
             VisibilityLevel best, const HazardContext &context) {
  StringRef earlier = isRead ? "read" : "write";
  std::string timelines = formatTimelines(query.timelines);
  InFlightDiagnostic diag = emitError(check->getLoc());
  diag << getHazardName(purpose, isRead) << " hazard on " << format(key)
       << ": ";
  if (purpose == AccessPurpose::free)
    diag << "the shared memory is freed (and may be reused) while an earlier "
         << earlier << " may still be in flight";
  else
    diag << "this " << (purpose == AccessPurpose::read ? "read" : "write")
         << " is not ordered after an earlier " << earlier;
  std::optional<int64_t> task = getOnlyTask(query.threads);
  diag << " by " << formatThreads(record.actors, task) << " on "
       << exogpu::stringifyQualTimeline(record.timeline) << "; ";
  if (blind && query.threads.count() == 1)
    diag << formatThreads(query.threads, task) << " sees it at "
         << stringifyVisibilityLevel(best);
  else if (blind)
    diag << "thread " << blind->thread << " of "
         << formatThreads(query.threads, task) << " sees it at "
         << stringifyVisibilityLevel(best);
  else
    diag << "the best any of " << formatThreads(query.threads, task)
         << " sees it is " << stringifyVisibilityLevel(best);
  diag << " on " << timelines << ", not "
       << stringifyVisibilityLevel(query.level);
  if (!context.laterIteration.empty())
    diag << "; this "
         << (purpose == AccessPurpose::read    ? "read"
             : purpose == AccessPurpose::write ? "write"
                                               : "free")
         << " runs at " << context.laterIteration;
  Diagnostic &note = diag.attachNote(record.origin);
  note << "the earlier " << earlier << " is here";
  if (!context.earlierIteration.empty())
    note << ", run at " << context.earlierIteration;
  bool full = query.level == VisibilityLevel::fully_ordered;
  SmallVector<exogpu::SyncTimeline, 4> pre =
      suggestSyncTimelines(getQualBit(record.timeline), getFullTimelines);
  SmallVector<exogpu::SyncTimeline, 4> post = suggestSyncTimelines(
      query.timelines, full ? getFullTimelines : getTemporalTimelines);
  diag.attachNote(check->getLoc())
      << "missing synchronization between the two: a Fence(pre, post) whose "
         "collective contains both threads, or an Arrive(pre) >> z by the "
         "earlier accessor paired with an Await(z, post, N) by this one; "
         "pre must cover "
      << exogpu::stringifyQualTimeline(record.timeline) << " (for example "
      << formatSyncTimelines(pre) << ") and post must "
      << (full ? "fully" : "temporally") << " cover " << timelines
      << " (for example " << formatSyncTimelines(post) << ")";
  if (context.report)
    *context.report = HazardReport{check->getLoc(), record.origin, pre, post};
  return diag;
}

void mlir::exoam::reportInvisibleRecord(Operation *check, const ElementKey &key,
                                        bool isRead,
                                        const VisibilityRecord &record,
                                        const VisibilityQuery &query,
                                        std::optional<GlobalThread> blind,
                                        const HazardContext &context,
                                        std::optional<DiagnosticNote> cause) {
  ThreadSet seer = query.threads;
  if (blind) {
    IntervalSet one;
    one.insert(blind->thread, blind->thread);
    seer = ThreadSet::get(blind->task, one);
  }
  VisibilityLevel best = getBestLevel(record, query.timelines, seer);
  auto purposeAttr = check->getAttrOfType<AccessPurposeAttr>("purpose");
  if (purposeAttr) {
    InFlightDiagnostic diag =
        reportHazard(check, purposeAttr.getValue(), key, isRead, record, query,
                     blind, best, context);
    if (cause)
      diag.attachNote(cause->loc) << cause->text;
    return;
  }

  StringRef kind = isRead ? "read" : "mutate";
  std::string timelines = formatTimelines(query.timelines);
  InFlightDiagnostic diag = emitError(check->getLoc());
  diag << check->getName().stripDialect() << " failed on " << format(key)
       << ": a " << kind << " recorded on "
       << exogpu::stringifyQualTimeline(record.timeline)
       << " is not visible at " << stringifyVisibilityLevel(query.level)
       << " on any of " << timelines;
  if (blind)
    diag << " to thread " << format(*blind) << " of the checking threads "
         << format(query.threads);
  else
    diag << " to any of the checking threads " << format(query.threads);
  diag.attachNote(record.origin)
      << "the " << kind << " was recorded here by " << format(record.actors)
      << "; "
      << (blind ? "that thread sees it at "
                : "the best any checking "
                  "thread sees it is ")
      << stringifyVisibilityLevel(best) << " on " << timelines;
  if (cause)
    diag.attachNote(cause->loc) << cause->text;
}

void mlir::exoam::reportBarrierMismatch(Operation *check, const ElementKey &key,
                                        int64_t arrives, int64_t awaits) {
  emitError(check->getLoc())
      << check->getName().stripDialect() << " failed on " << format(key)
      << ": arrive count " << arrives << " differs from await count " << awaits
      << " (barrier mismatch: every Arrive must be paired with an Await "
         "before the barrier is freed)";
}
