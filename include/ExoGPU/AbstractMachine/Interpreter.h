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

namespace mlir::exoam {

/// Runs `proc` from the initial state (task id 0, empty environment) with
/// `args[i]` as the value of parameter `i` (0 or 1 for an i1 parameter).
/// On an error state, emits an error at the statement where the machine
/// stopped (a failing check, or a statement whose accesses or threads are
/// ill-formed under these values) and returns failure.
LogicalResult interpretProc(ProcOp proc, ArrayRef<int64_t> args);

} // namespace mlir::exoam

#endif // EXOGPU_ABSTRACTMACHINE_INTERPRETER_H
