//===- CudaTemplate.h - CUDA templates of instructions ----------*- C++ -*-===//
//
// Part of ExoGPU. An `exogpu.instr` carries a CUDA C++ / inline PTX template
// (seeds/002 Sec. 3.3, "hardware instructions"; DESIGN.md "CUDA
// translation"): literal text with placeholders that the translation
// replaces at each call. The grammar:
//
//   template    := (text | '{{' | placeholder)*
//   placeholder := '{' name ('.' field)? '}'
//   name        := [A-Za-z_][A-Za-z0-9_]*     a parameter name, or `bar`
//   field       := [A-Za-z0-9_]+
//
// `{{` is a literal `{`; any other `{` not followed by a letter or `_` is
// literal text (so C blocks and PTX vector operands need no escaping). What a
// placeholder means depends on the parameter (docs/cuda-translation.md):
//
//   {p}       control parameter: its value; data parameter: a pointer to the
//             first element of the argument window (a register parameter:
//             its first register)
//   {p.N}     data parameter: element N of the argument window in row-major
//             order over its non-distributed dimensions (registers of a
//             register-matrix tile in the instruction's layout)
//   {p.strideN} shared or global memory parameter: the distance in elements
//             between consecutive indices of window dimension N (outermost
//             first) in the buffer's row-major layout, before any swizzle
//   {p.regs}  register parameter: every element as an inline-asm read-write
//             operand ("+f"(x0), "+f"(x1), ...)
//   {p.list}  register parameter: the PTX vector `{%0, %1, ...}` of those
//             operands, numbered from 0
//   {p.map}   tensor-map window parameter: the CUtensorMap
//   {p.cN}    tensor-map window parameter: the origin coordinate of window
//             dimension N (outermost first, as written in the window)
//   {bar}     the mbarrier a `>> z` call completes on (instructions with a
//             barrier mechanism)
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_DIALECT_EXOGPU_IR_CUDATEMPLATE_H
#define EXOGPU_DIALECT_EXOGPU_IR_CUDATEMPLATE_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace mlir::exogpu {

class InstrOp;

/// One piece of a parsed CUDA template.
struct CudaTemplatePiece {
  /// Literal text (with `{{` already turned into `{`) when `isPlaceholder`
  /// is false.
  std::string text;
  bool isPlaceholder = false;
  /// The placeholder's name and field (empty when absent).
  StringRef name;
  StringRef field;
};

/// Splits `text` into literal text and placeholders. Fails with `error` on a
/// placeholder that is not closed or has a malformed field.
FailureOr<SmallVector<CudaTemplatePiece>> parseCudaTemplate(StringRef text,
                                                            std::string &error);

/// Checks every placeholder of `instr`'s template against its parameters
/// (the grammar above). Fails with `error` naming the first bad placeholder.
LogicalResult verifyCudaTemplate(InstrOp instr, std::string &error);

} // namespace mlir::exogpu

#endif // EXOGPU_DIALECT_EXOGPU_IR_CUDATEMPLATE_H
