//===- CheckDiagnostics.cpp - errors of failing checks -------------------===//
//
// Part of ExoGPU. Messages of failing CheckReads, CheckMutates and
// CheckBarrier statements (seeds/002 Fig. 7).
//
//===----------------------------------------------------------------------===//

#include "CheckDiagnostics.h"
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

void mlir::exoam::reportInvisibleRecord(Operation *check, const ElementKey &key,
                                        bool isRead,
                                        const VisibilityRecord &record,
                                        const VisibilityQuery &query,
                                        std::optional<GlobalThread> blind) {
  StringRef kind = isRead ? "read" : "mutate";
  std::string timelines = formatTimelines(query.timelines);
  InFlightDiagnostic diag = emitError(check->getLoc());
  diag << check->getName().stripDialect() << " failed on " << format(key)
       << ": a " << kind << " recorded on "
       << exogpu::stringifyQualTimeline(record.timeline)
       << " is not visible at " << stringifyVisibilityLevel(query.level)
       << " on any of " << timelines;
  ThreadSet seer;
  if (blind) {
    diag << " to thread " << format(*blind) << " of the checking threads "
         << format(query.threads);
    IntervalSet one;
    one.insert(blind->thread, blind->thread);
    seer = ThreadSet::get(blind->task, one);
  } else {
    diag << " to any of the checking threads " << format(query.threads);
    seer = query.threads;
  }
  VisibilityLevel best = getBestLevel(record, query.timelines, seer);
  diag.attachNote(record.origin)
      << "the " << kind << " was recorded here by " << format(record.actors)
      << "; "
      << (blind ? "that thread sees it at "
                : "the best any checking "
                  "thread sees it is ")
      << stringifyVisibilityLevel(best) << " on " << timelines;
}

void mlir::exoam::reportBarrierMismatch(Operation *check, const ElementKey &key,
                                        int64_t arrives, int64_t awaits) {
  emitError(check->getLoc())
      << check->getName().stripDialect() << " failed on " << format(key)
      << ": arrive count " << arrives << " differs from await count " << awaits;
}
