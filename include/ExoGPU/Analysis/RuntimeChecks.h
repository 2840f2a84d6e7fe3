//===- RuntimeChecks.h - instances that fail a run-time check --*- C++ -*-===//
//
// Part of ExoGPU. The sequential meaning checks at run time what the IR
// cannot check statically (docs/running.md, "Run-time checks"): every
// access, window and call argument lies within the extents of the buffer it
// is taken of (a split's extents for accesses through a split), the extent
// a split divides is a multiple of its factor, allocation extents are not
// negative, a called proc's precondition holds, its size arguments are
// positive (its contract) and its data arguments have the extents its
// signature gives. A rewrite that makes statement instances run that did not
// run before (removing a guard, selecting an instruction whose call passes
// new windows) must show that none of these checks fails in them, in the
// statements themselves and in every proc or instruction body they call.
//
// The query is decided over Presburger sets (ControlConstraints.h) built
// like the dependence queries (Dependences.h): the context of each
// statement instance, the rewrite's own constraints, and, inside a callee,
// the callee's loops, guards and precondition with its parameters bound to
// the call's arguments.
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_ANALYSIS_RUNTIMECHECKS_H
#define EXOGPU_ANALYSIS_RUNTIMECHECKS_H

#include "ExoGPU/Analysis/Dependences.h"

namespace mlir::exogpu {

/// A run-time check that fails in some instance.
struct RuntimeFailure {
  /// The statement or read whose check fails; inside a callee when `calls`
  /// is not empty.
  Operation *op = nullptr;
  /// What fails: "index 0 of 'x' is outside [0, N)", "the precondition of
  /// @f does not hold", ...
  std::string what;
  /// An instance that fails it ("N = 5, i = 4"; empty if none is known).
  std::string witness;
  /// The calls through which `op` is reached, outermost first.
  SmallVector<Operation *, 2> calls;
};

/// Finds an instance of the statements `stmts` (and of what they call), in
/// scope `scope` and satisfying `constrain` (may be null), that fails a
/// run-time check of the sequential meaning.
std::optional<RuntimeFailure>
findRuntimeFailure(ArrayRef<Operation *> stmts, const InstanceScope &scope,
                   function_ref<void(InstanceSet &)> constrain = nullptr);

/// Attaches notes locating `failure` (the failing statement, the calls
/// leading to it) to `diag`.
void attachRuntimeFailureNotes(Diagnostic &diag, const RuntimeFailure &failure);

} // namespace mlir::exogpu

#endif // EXOGPU_ANALYSIS_RUNTIMECHECKS_H
