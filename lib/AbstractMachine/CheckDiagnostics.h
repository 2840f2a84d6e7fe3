//===- CheckDiagnostics.h - errors of failing checks ------------*- C++ -*-===//
//
// Part of ExoGPU (internal to the abstract machine). The errors the abstract
// machine reports when a check of seeds/002 Fig. 7 fails: what was checked,
// on which element, which recorded access is not visible, where it was
// recorded, and which threads and timelines were involved.
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_LIB_ABSTRACTMACHINE_CHECKDIAGNOSTICS_H
#define EXOGPU_LIB_ABSTRACTMACHINE_CHECKDIAGNOSTICS_H

#include "ExoGPU/AbstractMachine/Interpreter.h"
#include "ExoGPU/AbstractMachine/SyncEnv.h"

namespace mlir {
class Operation;
} // namespace mlir

namespace mlir::exoam {

/// `threads` as the kernel numbers them when they are threads of one task:
/// `threads 128..255` or `thread 5` (within their CTA or cluster), followed
/// by `of another task` unless that task is `task` (the task of the
/// statement reported at). The machine's form (`{task 2: 0..31; task 3:
/// 0..31}`, task ids counted over every cuda_tasks iteration) otherwise.
std::string formatThreads(const ThreadSet &threads,
                          std::optional<int64_t> task);

/// One thread so: `thread 5`, or `thread 5 of another task`.
std::string formatThread(GlobalThread thread, std::optional<int64_t> task);

/// The one task all of `threads` belong to, if they are finitely many of
/// one task.
std::optional<int64_t> getOnlyTask(const ThreadSet &threads);

/// What a CheckReads / CheckMutates asked for.
struct VisibilityQuery {
  VisibilityLevel level;
  QualMask timelines;
  bool convergent;
  const ThreadSet &threads;
};

/// A note a diagnostic ends with: where, and what.
struct DiagnosticNote {
  Location loc;
  std::string text;
};

/// Where the two accesses of a hazard ran, in the source's terms, and where
/// to put the hazard as data.
struct HazardContext {
  /// The iterators of the source loops around the checking statement and
  /// around the earlier access when it ran, `k = 0, kk = 1` (empty: not
  /// known).
  std::string laterIteration, earlierIteration;
  /// Set to the hazard, if given.
  std::optional<HazardReport> *report = nullptr;
};

/// Emits the error of a failing CheckReads / CheckMutates `check` on
/// element `key`: `record` (a read if `isRead`, else a mutate) is not
/// visible as `query` requires, to `blind` (without `convergent`) or to any
/// checking thread (with it); with `cause`, a note on why.
void reportInvisibleRecord(Operation *check, const ElementKey &key, bool isRead,
                           const VisibilityRecord &record,
                           const VisibilityQuery &query,
                           std::optional<GlobalThread> blind,
                           const HazardContext &context,
                           std::optional<DiagnosticNote> cause = std::nullopt);

/// Emits the error of a failing CheckBarrier on element `key`.
void reportBarrierMismatch(Operation *check, const ElementKey &key,
                           int64_t arrives, int64_t awaits);

} // namespace mlir::exoam

#endif // EXOGPU_LIB_ABSTRACTMACHINE_CHECKDIAGNOSTICS_H
