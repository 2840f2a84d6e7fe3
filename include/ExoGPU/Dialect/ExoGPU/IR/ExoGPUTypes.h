//===- ExoGPUTypes.h - exogpu types -----------------------------*- C++ -*-===//
//
// Part of ExoGPU. Tensor, window and barrier types (seeds/002 Fig. 10).
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_DIALECT_EXOGPU_IR_EXOGPUTYPES_H
#define EXOGPU_DIALECT_EXOGPU_IR_EXOGPUTYPES_H

#include "ExoGPU/Dialect/ExoGPU/IR/ExoGPUAttrs.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Types.h"

namespace mlir::exogpu {
class MemoryAttr;
} // namespace mlir::exogpu

#include "ExoGPU/Dialect/ExoGPU/IR/ExoGPUTypeInterfaces.h.inc"

#define GET_TYPEDEF_CLASSES
#include "ExoGPU/Dialect/ExoGPU/IR/ExoGPUTypes.h.inc"

namespace mlir::exogpu {
/// Whether `type` is one of the precisions of Fig. 10 (plus bf16).
bool isScalarPrecision(Type type);

/// Prints a buffer or barrier type without the `!exogpu.x<...>` wrapper, as
/// statements list the types of the buffers they name: `f32[?, 16] @Mem`,
/// `window f32[16] @Mem`, `barrier[2] @CudaMbarrier`.
void printCompactType(AsmPrinter &printer, Type type);
/// Parses what printCompactType prints.
ParseResult parseCompactType(AsmParser &parser, Type &type);
/// Parses the body of a compact window type (after the `window` keyword).
WindowType parseCompactWindowBody(AsmParser &parser);

/// The hardware limit an allocation of a buffer or barrier type must fit:
/// at most `elements` elements, `elements * elementBytes` being the
/// capacity `what` describes (e.g. "bytes of shared memory (227 KiB in each
/// CTA of a cluster of 16)", or "barrier elements" with elementBytes 1).
struct AllocationLimit {
  int64_t elements;
  int64_t elementBytes;
  StringRef what;

  /// The capacity in words: "3719168 bytes of shared memory (...)".
  std::string describe() const {
    return std::to_string(elements * elementBytes) + " " + what.str();
  }
};
/// The limit of `type` (shared memory, registers, barriers), or nothing for
/// memory the hardware does not bound per kernel (global memory).
std::optional<AllocationLimit> getAllocationLimit(Type type);
} // namespace mlir::exogpu

#endif // EXOGPU_DIALECT_EXOGPU_IR_EXOGPUTYPES_H
