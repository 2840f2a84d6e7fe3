//===- CodeWriter.cpp - indented C++ text ---------------------------------===//
//
// Part of ExoGPU (internal to the CUDA translation).
//
//===----------------------------------------------------------------------===//

#include "CodeWriter.h"
#include "mlir/IR/Location.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"

using namespace mlir;
using namespace mlir::exogpu::cuda;

void CodeWriter::line(const Twine &text) {
  std::string content = std::string(2 * indent, ' ') + text.str() + "\n";
  write(content);
}

void CodeWriter::write(StringRef text) {
  if (captures.empty())
    out << text;
  else
    captures.back() += text.str();
}

std::string CodeWriter::popCapture() {
  std::string text = std::move(captures.back());
  captures.pop_back();
  return text;
}

void CodeWriter::open(const Twine &header) {
  std::string text = header.str();
  line(text.empty() ? "{" : text + " {");
  ++indent;
}

void CodeWriter::close(StringRef suffix) {
  if (indent > 0)
    --indent;
  line("}" + suffix);
}

void CodeWriter::comment(const Twine &text) {
  std::string content = text.str();
  SmallVector<StringRef> lines;
  StringRef(content).split(lines, '\n');
  for (StringRef l : lines)
    line("// " + l.rtrim());
}

std::string mlir::exogpu::cuda::formatLocation(Location loc) {
  if (auto fused = dyn_cast<FusedLoc>(loc))
    for (Location inner : fused.getLocations())
      if (std::string text = formatLocation(inner); !text.empty())
        return text;
  if (auto nameLoc = dyn_cast<NameLoc>(loc))
    return formatLocation(nameLoc.getChildLoc());
  if (auto fileLoc = dyn_cast<FileLineColLoc>(loc)) {
    StringRef file = llvm::sys::path::filename(fileLoc.getFilename());
    if (file.empty() || file == "-")
      file = "<stdin>";
    return (file + ":" + Twine(fileLoc.getLine())).str();
  }
  return "";
}

std::string mlir::exogpu::cuda::summarizeOp(Operation *op, AsmState &state) {
  std::string text;
  {
    llvm::raw_string_ostream os(text);
    op->print(os, state);
  }
  StringRef first = StringRef(text).split('\n').first.trim();
  // Regions print as ` {` or, with skipRegions, ` {...}`.
  if (op->getNumRegions() != 0) {
    first.consume_back("{...}");
    first.consume_back("{");
    first = first.rtrim();
  }
  // Drop the trailing type list ` : f32[?] @CudaGmemLinear, ...`.
  size_t colon = first.rfind(" : ");
  if (colon != StringRef::npos)
    first = first.take_front(colon);
  std::string result;
  for (size_t i = 0; i < first.size(); ++i) {
    if (first.substr(i).starts_with("exogpu.")) {
      i += strlen("exogpu.") - 1;
      continue;
    }
    if (first[i] != '%')
      result.push_back(first[i]);
  }
  return result;
}
