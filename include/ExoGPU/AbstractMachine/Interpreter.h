//===- Interpreter.h - the reference abstract machine -----------*- C++ -*-===//
//
// Part of ExoGPU. A direct implementation of the big-step semantics of AMIR
// (seeds/002 Fig. 6, 7, 21, 22 and App. B). It favors being obviously the
// rules over speed: it is the oracle that faster engines are tested against.
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_ABSTRACTMACHINE_INTERPRETER_H
#define EXOGPU_ABSTRACTMACHINE_INTERPRETER_H

#include "ExoGPU/Dialect/ExoAM/IR/ExoAMOps.h"
#include "ExoGPU/Dialect/ExoGPU/IR/ExoGPUAttrs.h"
#include "llvm/ADT/StringMap.h"

namespace mlir::exoam {

/// How the machine stores the synchronization environment (SyncStore.h).
/// Both give the same verdicts and diagnostics.
enum class Engine {
  /// One state per element, every lift over every record: the rules as
  /// written, the test oracle.
  Reference,
  /// States shared between elements with the same history, lifts over the
  /// records they can change: the default.
  Box,
};

/// Parses `reference` or `box`.
std::optional<Engine> parseEngine(StringRef name);

/// The hazard a run reported, as data: where a repair could go and what it
/// could order (SyncCheckPass looks for a fence the check accepts).
struct HazardReport {
  /// The statements of the later access (the failing check) and of the
  /// earlier access it is not ordered after.
  Location later, earlier;
  /// Sync timelines a fence between the two could take, fewest timelines
  /// first: for its `pre` (covering the earlier access's timeline) and its
  /// `post` (covering the later access's).
  SmallVector<exogpu::SyncTimeline, 4> pre, post;
};

/// How to run the machine.
struct InterpretOptions {
  Engine engine = Engine::Box;
  /// Whether the box engine replays tasks from an earlier task's summary
  /// where that gives the same result (docs/abstract-machine.md "Task
  /// replay").
  bool replayTasks = true;
  /// Whether the box engine runs the iterations of loops whose bodies only
  /// check, clear and record in bulk once they reach a fixed point
  /// (docs/abstract-machine.md "Loops in bulk").
  bool bulkLoops = true;
  /// Whether to emit a remark per replayable task loop: how many of its
  /// tasks ran statement by statement and how many were replayed.
  bool replayRemarks = false;
  /// Whether the box engine rewrites the records of a finished replayable
  /// task into their finished form (docs/abstract-machine.md "Finished
  /// tasks"); a diagnostic that would name such a record comes from a run
  /// without the rewrite.
  bool compactFinishedTasks = true;
  /// Seconds between the lines on stderr that tell where a long run is: -1
  /// every 10 s when stderr is a terminal and never otherwise, 0 at every
  /// loop iteration (what the tests use). They are not diagnostics, so that
  /// no verdict and no verified diagnostic depends on wall-clock time.
  int progressSeconds = -1;
  /// The most steps a run may take (a statement run, a task replayed, a
  /// batch of iterations applied at once); a loop whose remaining iterations
  /// would take more is refused before it runs them.
  uint64_t maxSteps = 1'000'000'000;
  /// The most heap (MiB) a run may grow to; the reference engine refuses an
  /// ALLOC whose elements' states could take more.
  uint64_t maxMemoryMiB = 4096;
  /// Set to the hazard of a failing CheckReads or CheckMutates, if given.
  std::optional<HazardReport> *hazard = nullptr;
};

/// Runs `proc` from the initial state (task id 0, empty environment) with
/// `args[i]` as the value of parameter `i` (0 or 1 for an i1 parameter).
/// On an error state, emits an error at the statement where the machine
/// stopped (a failing check, or a statement whose accesses or threads are
/// ill-formed under these values) and returns failure.
LogicalResult interpretProc(ProcOp proc, ArrayRef<int64_t> args,
                            const InterpretOptions &options = {});

/// The value a pass option gives a parameter.
struct Binding {
  int64_t value;
  /// Whether it was written `true` or `false` (a value for a bool parameter
  /// only).
  bool boolean;
};
using Bindings = llvm::StringMap<Binding>;

/// Parses the `name=value` bindings of a pass option (`true` and `false`
/// stand for 1 and 0). Malformed or repeated names are reported on `op`,
/// prefixed by `passName`.
FailureOr<Bindings> parseBindings(Operation *op, StringRef passName,
                                  ArrayRef<std::string> items);

/// Rewrites pass options where `name=value` items stand for themselves
/// (`M=64,N=32 engine=box`) into `args=M=64,N=32 engine=box`: items naming
/// an option of the interpreting passes (`args`, `engine`, `proc`,
/// `replay-tasks`, `replay-remarks`, `bulk-loops`, `progress-seconds`,
/// `max-steps`, `max-memory`) are kept.
std::string expandBindingShorthand(StringRef options);

/// The values of `proc`'s parameters, in order, looked up by name. A
/// missing value, a boolean that is neither 0 nor 1, or `true` or `false`
/// for an integer parameter is reported on `proc`.
FailureOr<SmallVector<int64_t>>
bindParams(ProcOp proc, const Bindings &bindings, StringRef passName);

} // namespace mlir::exoam

#endif // EXOGPU_ABSTRACTMACHINE_INTERPRETER_H
