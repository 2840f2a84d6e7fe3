//===- ParamAccess.h - how callables access their parameters ----*- C++ -*-===//
//
// Part of ExoGPU. The access mode of each data parameter of an instruction
// or proc, decided by a static analysis of its body (seeds/002 Sec. 5.2.3):
// only read is read-only, only written (assigned) is write-only, anything
// else (reduced, or read and written) is read-write. Accesses through
// windows and splits count for the parameter they view; a proc passes its
// callees' modes on to the buffers it passes them. The abstract-machine
// lowering (Fig. 19), the CUDA translation (const pointers) and the sequential
// runner (which parameters to fill, which to poison) use it.
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_DIALECT_EXOGPU_IR_PARAMACCESS_H
#define EXOGPU_DIALECT_EXOGPU_IR_PARAMACCESS_H

#include "ExoGPU/Dialect/ExoGPU/IR/ExoGPUOps.h"

namespace mlir::exogpu {

enum class ParamAccessMode { ReadOnly, WriteOnly, ReadWrite };

/// The access mode of every parameter of `instr`, in order (control
/// parameters are read-only).
SmallVector<ParamAccessMode> getParamAccessModes(InstrOp instr);

/// The access mode of every parameter of `proc`, in order (control
/// parameters are read-only), following its calls: an argument of a call
/// is accessed as the callee accesses the parameter. A recursive call
/// counts as reading and writing its arguments.
SmallVector<ParamAccessMode> getParamAccessModes(ProcOp proc);

/// How the statements nested in `scope` access the buffer `root` (a data
/// parameter or an allocation), through windows and calls as above; nullopt
/// if they do not access it.
std::optional<ParamAccessMode> getBufferAccessMode(Operation *scope,
                                                   Value root);

} // namespace mlir::exogpu

#endif // EXOGPU_DIALECT_EXOGPU_IR_PARAMACCESS_H
