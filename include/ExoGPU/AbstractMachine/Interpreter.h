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
#include "llvm/ADT/StringMap.h"

namespace mlir::exoam {

/// Runs `proc` from the initial state (task id 0, empty environment) with
/// `args[i]` as the value of parameter `i` (0 or 1 for an i1 parameter).
/// On an error state, emits an error at the statement where the machine
/// stopped (a failing check, or a statement whose accesses or threads are
/// ill-formed under these values) and returns failure.
LogicalResult interpretProc(ProcOp proc, ArrayRef<int64_t> args);

/// Parses the `name=value` bindings of a pass option (`true` and `false`
/// stand for 1 and 0). Malformed or repeated names are reported on `op`,
/// prefixed by `passName`.
FailureOr<llvm::StringMap<int64_t>>
parseBindings(Operation *op, StringRef passName, ArrayRef<std::string> items);

/// The values of `proc`'s parameters, in order, looked up by name. A
/// missing value or a boolean that is neither 0 nor 1 is reported on `proc`.
FailureOr<SmallVector<int64_t>>
bindParams(ProcOp proc, const llvm::StringMap<int64_t> &bindings,
           StringRef passName);

} // namespace mlir::exoam

#endif // EXOGPU_ABSTRACTMACHINE_INTERPRETER_H
