//===- ExoAMOps.h - exoam operations ----------------------------*- C++ -*-===//
//
// Part of ExoGPU. Every AMIR statement of seeds/002 Fig. 4 is one op.
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_DIALECT_EXOAM_IR_EXOAMOPS_H
#define EXOGPU_DIALECT_EXOAM_IR_EXOAMOPS_H

#include "ExoGPU/Dialect/ExoAM/IR/ExoAMAttrs.h"
#include "ExoGPU/Dialect/ExoAM/IR/ExoAMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::exoam {
class ProcOp;
class LoopOp;
class IfOp;
} // namespace mlir::exoam

#define GET_OP_CLASSES
#include "ExoGPU/Dialect/ExoAM/IR/ControlOps.h.inc"
#define GET_OP_CLASSES
#include "ExoGPU/Dialect/ExoAM/IR/RecordOps.h.inc"
#define GET_OP_CLASSES
#include "ExoGPU/Dialect/ExoAM/IR/SyncOps.h.inc"
#define GET_OP_CLASSES
#include "ExoGPU/Dialect/ExoAM/IR/CheckOps.h.inc"

#endif // EXOGPU_DIALECT_EXOAM_IR_EXOAMOPS_H
