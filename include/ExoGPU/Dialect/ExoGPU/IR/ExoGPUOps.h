//===- ExoGPUOps.h - exogpu operations --------------------------*- C++ -*-===//
//
// Part of ExoGPU. Every statement of seeds/002 Fig. 2 is one op.
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_DIALECT_EXOGPU_IR_EXOGPUOPS_H
#define EXOGPU_DIALECT_EXOGPU_IR_EXOGPUOPS_H

#include "ExoGPU/Dialect/ExoGPU/IR/ExoGPUAttrs.h"
#include "ExoGPU/Dialect/ExoGPU/IR/ExoGPUDialect.h"
#include "ExoGPU/Dialect/ExoGPU/IR/ExoGPUTypes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/RegionKindInterface.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace mlir::exogpu {
struct Library;
} // namespace mlir::exogpu

#define GET_OP_CLASSES
#include "ExoGPU/Dialect/ExoGPU/IR/ControlOps.h.inc"
#define GET_OP_CLASSES
#include "ExoGPU/Dialect/ExoGPU/IR/DataOps.h.inc"
#define GET_OP_CLASSES
#include "ExoGPU/Dialect/ExoGPU/IR/MemoryOps.h.inc"
#define GET_OP_CLASSES
#include "ExoGPU/Dialect/ExoGPU/IR/SyncOps.h.inc"
#define GET_OP_CLASSES
#include "ExoGPU/Dialect/ExoGPU/IR/ProcOps.h.inc"
#define GET_OP_CLASSES
#include "ExoGPU/Dialect/ExoGPU/IR/ImportOps.h.inc"

namespace mlir::exogpu {
/// Whether `op` computes a value of a data expression: a read, a literal or
/// an operation of the expression region of an assign or reduce (every
/// expression op but the region's yield).
bool isDataExpressionOp(Operation *op);

/// The type of the window statement that takes coordinates `kinds`/`exprs`
/// of a buffer of type `source`: an interval whose width is constant and a
/// whole dimension of static extent are static.
WindowType inferWindowType(BufferTypeInterface source, ArrayRef<int32_t> kinds,
                           ArrayRef<AffineExpr> exprs,
                           SpecialWindowAttr special);

/// The name a data expression prints `op` by when it is a function of its
/// operands (`max(a, b)`, `exp2(a)`, `log2(a)`), else an empty name.
StringRef dataFunctionName(Operation *op);
} // namespace mlir::exogpu

#endif // EXOGPU_DIALECT_EXOGPU_IR_EXOGPUOPS_H
