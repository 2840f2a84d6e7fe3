//===- CodeWriter.h - indented C++ text -------------------------*- C++ -*-===//
//
// Part of ExoGPU (internal to the CUDA translation). Writes indented C++
// lines, blocks and the comments that point each group of emitted statements
// back at the exogpu statement it comes from.
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_LIB_TARGET_CUDA_CODEWRITER_H
#define EXOGPU_LIB_TARGET_CUDA_CODEWRITER_H

#include "mlir/IR/AsmState.h"
#include "mlir/IR/Operation.h"
#include "llvm/Support/raw_ostream.h"

#include <vector>

namespace mlir::exogpu::cuda {

/// Indented C++ output.
class CodeWriter {
public:
  explicit CodeWriter(raw_ostream &os) : out(os) {}

  /// Writes one line at the current indentation.
  void line(const Twine &text);
  /// Writes an empty line.
  void blank() { out << "\n"; }
  /// Writes `header {` and indents.
  void open(const Twine &header);
  /// Dedents and writes `}` followed by `suffix`.
  void close(StringRef suffix = "");
  /// Writes `// text`, one comment line per line of text.
  void comment(const Twine &text);

  /// Starts collecting lines instead of writing them (nests).
  void pushCapture() { captures.emplace_back(); }
  /// Stops the innermost collection and returns its text.
  std::string popCapture();
  /// Writes text collected earlier, as is.
  void write(StringRef text);

  raw_ostream &stream() { return out; }
  unsigned getIndent() const { return indent; }
  void setIndent(unsigned level) { indent = level; }

private:
  raw_ostream &out;
  unsigned indent = 0;
  std::vector<std::string> captures;
};

/// The source position of `op` as `file.mlir:line`, or an empty string.
std::string formatLocation(Location loc);

/// A one-line rendering of an exogpu statement for a comment: the op as
/// printed (its header only, for ops with regions), without the `exogpu.`
/// prefix, the `%` of names and the trailing type list.
std::string summarizeOp(Operation *op, AsmState &state);

} // namespace mlir::exogpu::cuda

#endif // EXOGPU_LIB_TARGET_CUDA_CODEWRITER_H
