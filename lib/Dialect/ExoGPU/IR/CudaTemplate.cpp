//===- CudaTemplate.cpp - CUDA templates of instructions ------------------===//
//
// Part of ExoGPU. Parsing and checking of instruction CUDA templates; the
// grammar is documented in CudaTemplate.h.
//
//===----------------------------------------------------------------------===//

#include "ExoGPU/Dialect/ExoGPU/IR/CudaTemplate.h"
#include "ExoGPU/Dialect/ExoGPU/IR/ExoGPUOps.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::exogpu;

static bool isNameStart(char c) { return llvm::isAlpha(c) || c == '_'; }
static bool isNameChar(char c) { return llvm::isAlnum(c) || c == '_'; }

FailureOr<SmallVector<CudaTemplatePiece>>
mlir::exogpu::parseCudaTemplate(StringRef text, std::string &error) {
  SmallVector<CudaTemplatePiece> pieces;
  std::string literal;
  auto flush = [&]() {
    if (literal.empty())
      return;
    pieces.push_back({literal, false, {}, {}});
    literal.clear();
  };
  for (size_t i = 0; i < text.size();) {
    char c = text[i];
    if (c != '{') {
      literal.push_back(c);
      ++i;
      continue;
    }
    if (i + 1 < text.size() && text[i + 1] == '{') {
      literal.push_back('{');
      i += 2;
      continue;
    }
    if (i + 1 >= text.size() || !isNameStart(text[i + 1])) {
      literal.push_back(c);
      ++i;
      continue;
    }
    size_t nameBegin = i + 1, nameEnd = nameBegin;
    while (nameEnd < text.size() && isNameChar(text[nameEnd]))
      ++nameEnd;
    StringRef field;
    size_t end = nameEnd;
    if (end < text.size() && text[end] == '.') {
      size_t fieldBegin = end + 1, fieldEnd = fieldBegin;
      while (fieldEnd < text.size() && isNameChar(text[fieldEnd]))
        ++fieldEnd;
      if (fieldEnd == fieldBegin) {
        error = "placeholder '" + text.substr(i, fieldEnd - i).str() +
                "' has an empty field";
        return failure();
      }
      field = text.slice(fieldBegin, fieldEnd);
      end = fieldEnd;
    }
    if (end >= text.size() || text[end] != '}') {
      error = "placeholder '" + text.substr(i, end - i).str() +
              "' is not closed by '}' (write '{{' for a literal '{')";
      return failure();
    }
    flush();
    pieces.push_back({"", true, text.slice(nameBegin, nameEnd), field});
    i = end + 1;
  }
  flush();
  return pieces;
}

bool mlir::exogpu::isWholeOperand(ArrayRef<CudaTemplatePiece> pieces,
                                  size_t i) {
  auto isLiteral = [&](size_t j) {
    return j < pieces.size() && !pieces[j].isPlaceholder;
  };
  StringRef before =
      i > 0 && isLiteral(i - 1) ? StringRef(pieces[i - 1].text).rtrim() : "";
  StringRef after =
      isLiteral(i + 1) ? StringRef(pieces[i + 1].text).ltrim() : "";
  return !before.empty() && StringRef("(,=").contains(before.back()) &&
         !after.empty() && StringRef("),;").contains(after.front());
}

/// Whether `text` is a name or number followed by subscripts only (`x`,
/// `2.0f`, `acc[r][2 * t]`): an operand no operator around it can split.
static bool isPostfixOperand(StringRef text) {
  size_t end = 0;
  while (end < text.size() && (isNameChar(text[end]) || text[end] == '.'))
    ++end;
  if (end == 0)
    return false;
  while (end < text.size()) {
    if (text[end] != '[')
      return false;
    int depth = 0;
    do {
      depth += text[end] == '[' ? 1 : text[end] == ']' ? -1 : 0;
      ++end;
    } while (end < text.size() && depth > 0);
    if (depth != 0)
      return false;
  }
  return true;
}

std::string mlir::exogpu::asOperand(ArrayRef<CudaTemplatePiece> pieces,
                                    size_t i, const std::string &expansion) {
  if (isPostfixOperand(expansion) || isWholeOperand(pieces, i))
    return expansion;
  return "(" + expansion + ")";
}

/// The number of elements `{p.N}` may name for a data parameter of `type`
/// whose first `numDist` dimensions are distributed, or nullopt if the shape
/// is not static.
static std::optional<int64_t> getElementCount(BufferTypeInterface type,
                                              unsigned numDist) {
  ArrayRef<int64_t> shape = type.getShape();
  int64_t count = 1;
  for (int64_t extent : shape.drop_front(numDist)) {
    if (ShapedType::isDynamic(extent))
      return std::nullopt;
    count *= extent;
  }
  if (int64_t threads = type.getMemory().getMatrixThreads())
    count /= threads;
  return count;
}

LogicalResult mlir::exogpu::verifyCudaTemplate(InstrOp instr,
                                               std::string &error) {
  std::optional<StringRef> text = instr.getCuda();
  if (!text)
    return success();
  FailureOr<SmallVector<CudaTemplatePiece>> pieces =
      parseCudaTemplate(*text, error);
  if (failed(pieces))
    return failure();
  ArrayAttr names = instr.getArgNames();
  auto fail = [&](const CudaTemplatePiece &piece, const Twine &why) {
    error = ("placeholder '{" + piece.name +
             (piece.field.empty() ? "" : "." + piece.field) + "}' " + why)
                .str();
    return failure();
  };
  for (const CudaTemplatePiece &piece : *pieces) {
    if (!piece.isPlaceholder)
      continue;
    if (piece.name == "bar") {
      if (!instr.getBarrier())
        return fail(piece, "needs a barrier mechanism (`barrier = @...`)");
      if (!piece.field.empty())
        return fail(piece, "takes no field");
      continue;
    }
    std::optional<unsigned> index;
    for (unsigned i = 0, e = names.size(); i < e; ++i)
      if (cast<StringAttr>(names[i]).getValue() == piece.name)
        index = i;
    if (!index)
      return fail(piece, "names no parameter of the instruction");
    if (instr.getParamKind(*index) != ParamKind::data) {
      if (!piece.field.empty())
        return fail(piece, "names a control parameter, which has no fields");
      continue;
    }
    auto type = cast<BufferTypeInterface>(instr.getParam(*index).getType());
    auto window = dyn_cast<WindowType>(type);
    if (window && window.getSpecial()) {
      int64_t coord;
      if (piece.field == "map")
        continue;
      if (piece.field.size() > 1 && piece.field[0] == 'c' &&
          !piece.field.drop_front().getAsInteger(10, coord) &&
          coord < static_cast<int64_t>(type.getRank()))
        continue;
      return fail(piece, "must be `.map` or `.c0` .. `.c" +
                             Twine(type.getRank() - 1) +
                             "` for a tensor-map parameter");
    }
    if (piece.field.empty())
      continue;
    bool isRegister = type.getMemory().isRmem();
    unsigned numDist = instr.getParamSpec(*index).getDist().size();
    StringRef stride = piece.field;
    unsigned dim;
    if (stride.consume_front("stride") && !stride.getAsInteger(10, dim)) {
      if (isRegister)
        return fail(piece, "needs a shared or global memory parameter");
      if (dim + numDist >= type.getRank())
        return fail(piece, "is past the " + Twine(type.getRank() - numDist) +
                               " non-distributed dimension(s) of the "
                               "parameter");
      continue;
    }
    if (piece.field == "regs" || piece.field == "list") {
      if (!isRegister)
        return fail(piece, "needs a register parameter");
      continue;
    }
    int64_t element;
    if (piece.field.getAsInteger(10, element))
      return fail(piece, "has an unknown field (expected an element number, "
                         "`strideN`, `regs` or `list`)");
    std::optional<int64_t> count = getElementCount(type, numDist);
    if (count && element >= *count)
      return fail(piece, "is past the " + Twine(*count) +
                             " element(s) of the parameter");
  }
  return success();
}
