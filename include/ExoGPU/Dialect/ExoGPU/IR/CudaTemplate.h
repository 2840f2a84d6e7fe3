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
// A placeholder stands for one C++ operand wherever it is written: an
// expansion that is not a name or number with subscripts (`x`, `acc[r][2]`)
// but an expression (the pointer `x + 4 * t`, `&acc[2]`, the value `M / 2`)
// is parenthesized unless the placeholder is a whole operand already, between
// `(`, `,` or `=` and `)`, `,` or `;` (an argument, an asm operand, an
// initializer). So `*{p}`, `{p}[i]`, `{p}->f` and `{n} * 2` read the pointer or
// value the placeholder names (test/Target/CUDA/template-operands.mlir).
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

/// Whether the placeholder `pieces[i]` stands as a whole operand: the
/// nearest text around it (spaces aside) is `(`, `,` or `=` before and `)`,
/// `,` or `;` after. Its expansion then needs no parentheses.
bool isWholeOperand(ArrayRef<CudaTemplatePiece> pieces, size_t i);

/// `expansion` as the operand placeholder `pieces[i]` stands for: itself
/// when it is a name or number with subscripts or the placeholder a whole
/// operand, else parenthesized.
std::string asOperand(ArrayRef<CudaTemplatePiece> pieces, size_t i,
                      const std::string &expansion);

/// Checks every placeholder of `instr`'s template against its parameters
/// (the grammar above). Fails with `error` naming the first bad placeholder.
LogicalResult verifyCudaTemplate(InstrOp instr, std::string &error);

} // namespace mlir::exogpu

#endif // EXOGPU_DIALECT_EXOGPU_IR_CUDATEMPLATE_H
