//===- ParamAccess.h - how instructions access their parameters -*- C++ -*-===//
//
// Part of ExoGPU. The access mode of each data parameter of an instruction,
// decided by a static analysis of its body (seeds/002 Sec. 5.2.3): only read
// is read-only, only written (assigned) is write-only, anything else
// (reduced, or read and written) is read-write. The abstract-machine lowering
// (Fig. 19) and the CUDA translation (const pointers) both use it.
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

} // namespace mlir::exogpu

#endif // EXOGPU_DIALECT_EXOGPU_IR_PARAMACCESS_H
