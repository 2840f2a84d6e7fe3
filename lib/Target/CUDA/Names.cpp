//===- Names.cpp - C++ identifiers and types ------------------------------===//
//
// Part of ExoGPU (internal to the CUDA translation). User names become C++
// identifiers; element types become C++ types and literals.
//
//===----------------------------------------------------------------------===//

#include "Translation.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/StringExtras.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

using namespace mlir;
using namespace mlir::exogpu;
using namespace mlir::exogpu::cuda;

/// Identifiers C++, CUDA and the runtime header reserve.
static bool isReserved(StringRef name) {
  static const llvm::StringSet<> reserved = {
      "alignas",   "alignof",   "asm",      "auto",    "bool",     "break",
      "case",      "catch",     "char",     "class",   "const",    "constexpr",
      "continue",  "default",   "delete",   "do",      "double",   "else",
      "enum",      "explicit",  "extern",   "false",   "float",    "for",
      "friend",    "goto",      "if",       "inline",  "int",      "long",
      "mutable",   "namespace", "new",      "nullptr", "operator", "private",
      "protected", "public",    "register", "return",  "short",    "signed",
      "sizeof",    "static",    "struct",   "switch",  "template", "this",
      "throw",     "true",      "try",      "typedef", "typename", "union",
      "unsigned",  "using",     "virtual",  "void",    "volatile", "while",
      "threadIdx", "blockIdx",  "blockDim", "gridDim", "warpSize", "stream",
      "exo",       "std",       "main",     "min",     "max",      "half",
      "size_t"};
  return reserved.contains(name) || name.starts_with("exo_") ||
         name.starts_with("__");
}

/// `text` as an identifier: other characters become `_`.
static std::string sanitize(StringRef text) {
  std::string name;
  for (char c : text)
    name.push_back(llvm::isAlnum(c) || c == '_' ? c : '_');
  if (name.empty() || llvm::isDigit(name.front()))
    name.insert(name.begin(), 'v');
  if (isReserved(name))
    name += "_";
  return name;
}

std::string NameTable::fresh(StringRef base) {
  std::string candidate = sanitize(base);
  for (unsigned i = 1; used.contains(candidate); ++i)
    candidate = sanitize(base) + "_" + std::to_string(i);
  used.insert(candidate);
  taken.push_back(candidate);
  return candidate;
}

void NameTable::release(size_t mark) {
  while (taken.size() > mark) {
    used.erase(taken.back());
    taken.pop_back();
  }
}

const std::string &NameTable::bind(Value value, StringRef preferred) {
  auto [it, inserted] = names.try_emplace(value);
  if (inserted)
    it->second = fresh(preferred);
  return it->second;
}

StringRef NameTable::lookup(Value value) const {
  auto it = names.find(value);
  return it == names.end() ? StringRef() : StringRef(it->second);
}

std::string mlir::exogpu::cuda::getPreferredName(Value value,
                                                 StringRef fallback) {
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    Operation *owner = arg.getOwner()->getParentOp();
    if (auto loop = dyn_cast<ForOp>(owner))
      if (std::optional<StringRef> name = loop.getIterName())
        return name->str();
    if (isa<ProcOp, InstrOp>(owner)) {
      ArrayAttr names = isa<ProcOp>(owner) ? cast<ProcOp>(owner).getArgNames()
                                           : cast<InstrOp>(owner).getArgNames();
      if (arg.getArgNumber() < names.size())
        return cast<StringAttr>(names[arg.getArgNumber()]).str();
    }
    return fallback.str();
  }
  if (auto alloc = value.getDefiningOp<AllocOp>())
    if (std::optional<StringRef> name = alloc.getName())
      return name->str();
  if (auto window = value.getDefiningOp<WindowOp>())
    if (std::optional<StringRef> name = window.getName())
      return name->str();
  return fallback.str();
}

std::string mlir::exogpu::cuda::getCType(Type type) {
  if (type.isF32())
    return "float";
  if (type.isF64())
    return "double";
  if (type.isF16())
    return "__half";
  if (type.isBF16())
    return "__nv_bfloat16";
  if (auto integer = dyn_cast<IntegerType>(type)) {
    std::string base = integer.isUnsigned() ? "uint" : "int";
    return base + std::to_string(integer.getWidth()) + "_t";
  }
  return "void";
}

/// The shortest `%.Ng` text of `value` that reads back as the same value in
/// a type of `digits` significant digits at most.
static std::string formatShortest(double value, int digits, bool isFloat) {
  char text[64];
  for (int precision = 1; precision <= digits; ++precision) {
    snprintf(text, sizeof(text), "%.*g", precision, value);
    double back = strtod(text, nullptr);
    if (isFloat ? static_cast<float>(back) == static_cast<float>(value)
                : back == value)
      break;
  }
  std::string result = text;
  if (result.find_first_of(".eEni") == std::string::npos)
    result += ".0";
  return result;
}

std::string mlir::exogpu::cuda::formatLiteral(TypedAttr value,
                                              Type elementType) {
  if (auto f = dyn_cast<FloatAttr>(value)) {
    double d = f.getValueAsDouble();
    if (std::isnan(d))
      return elementType.isF64() ? "double(NAN)"
                                 : getCType(elementType) + "(NAN)";
    if (std::isinf(d))
      return getCType(elementType) + (d > 0 ? "(INFINITY)" : "(-INFINITY)");
    if (elementType.isF64())
      return formatShortest(d, 17, false);
    std::string literal = formatShortest(d, 9, true) + "f";
    if (elementType.isF32())
      return literal;
    return getCType(elementType) + "(" + literal + ")";
  }
  if (auto i = dyn_cast<IntegerAttr>(value)) {
    // The value in the element's width: i8 200 is -56, ui8 -1 is 255.
    APInt bits = i.getValue().zextOrTrunc(elementType.getIntOrFloatBitWidth());
    bool isSigned = !elementType.isUnsignedInteger();
    if (elementType.isInteger(32) && isSigned) {
      // -2147483648 would be a long: minus applied to 2147483648.
      if (bits.isMinSignedValue())
        return "INT32_MIN";
      return std::to_string(bits.getSExtValue());
    }
    std::string literal = isSigned ? std::to_string(bits.getSExtValue())
                                   : std::to_string(bits.getZExtValue());
    return getCType(elementType) + "(" + literal + ")";
  }
  return "0";
}
