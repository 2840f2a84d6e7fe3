//===- SyncRepair.h - checking a program, repairing a hazard ----*- C++ -*-===//
//
// Part of ExoGPU (internal to the abstract machine). One run of the
// synchronization check on a linked copy of a module, and the search for a
// fence that repairs the hazard a run reported: each candidate is inserted
// into a copy and checked again, and only one the check accepts is
// suggested (docs/abstract-machine.md "Reading a hazard report").
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_LIB_ABSTRACTMACHINE_SYNCREPAIR_H
#define EXOGPU_LIB_ABSTRACTMACHINE_SYNCREPAIR_H

#include "ExoGPU/AbstractMachine/Interpreter.h"
#include "mlir/IR/BuiltinOps.h"

#include <optional>
#include <string>

namespace mlir::exoam {

/// Checks the procs `procNames` of `program` (a module with its imports
/// linked and its frees inserted) at `bindings`: the collective analysis and
/// the distributed memory deduction it rests on, the translation to AMIR and
/// the abstract machine. Errors go to the context's diagnostic handlers.
LogicalResult checkProgram(ModuleOp program, ArrayRef<std::string> procNames,
                           const Bindings &bindings, StringRef passName,
                           const InterpretOptions &options);

/// Looks for an `exogpu.fence(pre, post)` that makes the check of
/// `program` pass where `hazard` was reported, inserted right before a
/// statement around the later access or right after one around the earlier
/// access (below the innermost statement around both, outermost first),
/// with the pre and post timelines the hazard suggests, those of one
/// hardware family first. Each trial (at most 12) checks a copy with the
/// box engine, its diagnostics dropped. Returns the repair as a sentence:
/// the fence and where it goes.
std::optional<std::string>
findSyncRepair(ModuleOp program, ArrayRef<std::string> procNames,
               const Bindings &bindings, StringRef passName,
               const InterpretOptions &options, const HazardReport &hazard);

} // namespace mlir::exoam

#endif // EXOGPU_LIB_ABSTRACTMACHINE_SYNCREPAIR_H
