//===- ExoGPUAttrs.cpp - exogpu attributes -------------------------------===//
//
// Part of ExoGPU. Memory types (seeds/002 Fig. 12), special windows (Fig. 14),
// collective units (Fig. 11), instruction parameter annotations (Fig. 2
// `Arg`), warp groups (Fig. 3) and conditions (Fig. 1 BExpr).
//
//===----------------------------------------------------------------------===//

#include "ExoGPU/Dialect/ExoGPU/IR/ExoGPUAttrs.h"
#include "ExoGPU/Dialect/ExoGPU/IR/ControlExpr.h"
#include "ExoGPU/Dialect/ExoGPU/IR/ExoGPUDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::exogpu;

#include "ExoGPU/Dialect/ExoGPU/IR/ExoGPUEnums.cpp.inc"
#define GET_ATTRDEF_CLASSES
#include "ExoGPU/Dialect/ExoGPU/IR/ExoGPUAttrs.cpp.inc"

void ExoGPUDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "ExoGPU/Dialect/ExoGPU/IR/ExoGPUAttrs.cpp.inc"
      >();
}

/// Parses `(a, b, ...)` of positive integers if a `(` follows.
static ParseResult parseOptionalIntList(AsmParser &parser,
                                        SmallVectorImpl<int64_t> &values) {
  if (failed(parser.parseOptionalLParen()))
    return success();
  return parser.parseCommaSeparatedList([&]() -> ParseResult {
    int64_t v;
    if (parser.parseInteger(v))
      return failure();
    values.push_back(v);
    return success();
  })
             ? failure()
             : parser.parseRParen();
}

static void printIntList(AsmPrinter &printer, ArrayRef<int64_t> values) {
  if (values.empty())
    return;
  printer << '(';
  llvm::interleaveComma(values, printer);
  printer << ')';
}

/// Parses a bare enum keyword with `symbolize`.
template <typename EnumT>
static FailureOr<EnumT>
parseEnumKeyword(AsmParser &parser, StringRef what,
                 std::optional<EnumT> (*symbolize)(StringRef)) {
  SMLoc loc = parser.getCurrentLocation();
  StringRef keyword;
  if (parser.parseKeyword(&keyword))
    return failure();
  std::optional<EnumT> value = symbolize(keyword);
  if (!value)
    return parser.emitError(loc)
           << "unknown " << what << " '" << keyword << "'";
  return *value;
}

//===----------------------------------------------------------------------===//
// MemoryAttr
//===----------------------------------------------------------------------===//

unsigned MemoryAttr::getArity(MemoryKind kind) {
  switch (kind) {
  case MemoryKind::Sm80_RmemMatrixA:
  case MemoryKind::Sm80_RmemMatrixB:
  case MemoryKind::Sm80_RmemMatrixD:
  case MemoryKind::Sm90_RmemMatrixD:
    return 2;
  case MemoryKind::Sm90_SmemSwizzled:
  case MemoryKind::Sm90_RmemMatrixA:
    return 1;
  default:
    return 0;
  }
}

bool MemoryAttr::isSmem() const {
  switch (getKind()) {
  case MemoryKind::CudaBasicSmem:
  case MemoryKind::CudaSmemAtomicity16B:
  case MemoryKind::CudaSmemLinear:
  case MemoryKind::Sm90_SmemSwizzled:
    return true;
  default:
    return false;
  }
}

bool MemoryAttr::isSyncExempt() const {
  return getKind() == MemoryKind::CudaGridConstant;
}

int64_t MemoryAttr::getMatrixThreads() const {
  switch (getKind()) {
  case MemoryKind::Sm80_RmemMatrixA:
  case MemoryKind::Sm80_RmemMatrixB:
  case MemoryKind::Sm80_RmemMatrixD:
    return 32;
  case MemoryKind::Sm90_RmemMatrixA:
  case MemoryKind::Sm90_RmemMatrixD:
    return 128;
  default:
    return 0;
  }
}

bool MemoryAttr::isRmem() const {
  switch (getKind()) {
  case MemoryKind::CudaRmem:
  case MemoryKind::Sm80_RmemMatrixA:
  case MemoryKind::Sm80_RmemMatrixB:
  case MemoryKind::Sm80_RmemMatrixD:
  case MemoryKind::Sm90_RmemMatrixA:
  case MemoryKind::Sm90_RmemMatrixD:
    return true;
  default:
    return false;
  }
}

bool MemoryAttr::isHost() const { return getKind() == MemoryKind::DRAM; }

bool MemoryAttr::isCpuAllocated() const {
  switch (getKind()) {
  case MemoryKind::DRAM:
  case MemoryKind::CudaGmemLinear:
  case MemoryKind::CudaGridConstant:
    return true;
  default:
    return false;
  }
}

bool MemoryAttr::isAbstract(MemoryKind kind) {
  switch (kind) {
  case MemoryKind::CudaBasicDeviceVisible:
  case MemoryKind::CudaBasicSmem:
  case MemoryKind::CudaDeviceVisibleAtomicity16B:
  case MemoryKind::CudaDeviceVisibleLinear:
  case MemoryKind::CudaSmemAtomicity16B:
    return true;
  default:
    return false;
  }
}

/// The base types a memory kind directly derives from (Fig. 12: the "base
/// type for ..." rows). Linear order implies 16-byte atomicity; every CUDA
/// shared memory is device visible.
static ArrayRef<MemoryKind> getMemoryBases(MemoryKind kind) {
  using K = MemoryKind;
  switch (kind) {
  case K::CudaDeviceVisibleAtomicity16B:
  case K::CudaBasicSmem:
  case K::CudaGridConstant: {
    static const K bases[] = {K::CudaBasicDeviceVisible};
    return bases;
  }
  case K::CudaDeviceVisibleLinear: {
    static const K bases[] = {K::CudaDeviceVisibleAtomicity16B};
    return bases;
  }
  case K::CudaGmemLinear: {
    static const K bases[] = {K::CudaDeviceVisibleLinear};
    return bases;
  }
  case K::CudaSmemAtomicity16B: {
    static const K bases[] = {K::CudaBasicSmem,
                              K::CudaDeviceVisibleAtomicity16B};
    return bases;
  }
  case K::CudaSmemLinear: {
    static const K bases[] = {K::CudaSmemAtomicity16B,
                              K::CudaDeviceVisibleLinear};
    return bases;
  }
  case K::Sm90_SmemSwizzled: {
    static const K bases[] = {K::CudaSmemAtomicity16B};
    return bases;
  }
  default:
    return {};
  }
}

static bool derivesFrom(MemoryKind kind, MemoryKind base) {
  if (kind == base)
    return true;
  for (MemoryKind parent : getMemoryBases(kind))
    if (derivesFrom(parent, base))
      return true;
  return false;
}

bool MemoryAttr::conformsTo(MemoryAttr required) const {
  if (*this == required)
    return true;
  // Parameterized memories match only exactly; base types have no params.
  return required.getArgs().empty() && isAbstract(required.getKind()) &&
         derivesFrom(getKind(), required.getKind());
}

LogicalResult MemoryAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 MemoryKind kind, ArrayRef<int64_t> args) {
  unsigned arity = getArity(kind);
  if (args.size() != arity)
    return emitError() << "memory " << stringifyMemoryKind(kind) << " takes "
                       << arity << " parameter(s), got " << args.size();
  for (int64_t a : args)
    if (a <= 0)
      return emitError() << "memory " << stringifyMemoryKind(kind)
                         << " parameters must be positive";
  if (kind == MemoryKind::Sm90_SmemSwizzled && args[0] != 32 && args[0] != 64 &&
      args[0] != 128)
    return emitError() << "Sm90_SmemSwizzled takes a swizzle of 32, 64 or "
                          "128 bytes, got "
                       << args[0];
  return success();
}

void MemoryAttr::printBody(AsmPrinter &printer) const {
  printer << '@' << stringifyMemoryKind(getKind());
  printIntList(printer, getArgs());
}

MemoryAttr MemoryAttr::parseBody(AsmParser &parser) {
  SMLoc loc = parser.getCurrentLocation();
  StringAttr name;
  if (parser.parseSymbolName(name))
    return {};
  std::optional<MemoryKind> kind = symbolizeMemoryKind(name.getValue());
  if (!kind) {
    parser.emitError(loc) << "unknown memory type '" << name.getValue() << "'";
    return {};
  }
  SmallVector<int64_t> args;
  if (parseOptionalIntList(parser, args))
    return {};
  return getChecked([&] { return parser.emitError(loc); }, parser.getContext(),
                    *kind, args);
}

void MemoryAttr::print(AsmPrinter &printer) const {
  printer << '<';
  printBody(printer);
  printer << '>';
}

Attribute MemoryAttr::parse(AsmParser &parser, Type) {
  if (parser.parseLess())
    return {};
  MemoryAttr attr = parseBody(parser);
  if (!attr || parser.parseGreater())
    return {};
  return attr;
}

//===----------------------------------------------------------------------===//
// SpecialWindowAttr
//===----------------------------------------------------------------------===//

LogicalResult
SpecialWindowAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                          int64_t swizzle, ArrayRef<int64_t> box) {
  if (swizzle != 0 && swizzle != 32 && swizzle != 64 && swizzle != 128)
    return emitError() << "Sm90_tensorMap swizzle must be 0, 32, 64 or 128, "
                          "got "
                       << swizzle;
  if (box.empty() || box.size() > 5)
    return emitError() << "Sm90_tensorMap box must have 1 to 5 dimensions";
  for (int64_t b : box)
    if (b < 1 || b > 256)
      return emitError() << "Sm90_tensorMap box extents must be in [1, 256], "
                            "got "
                         << b;
  return success();
}

void SpecialWindowAttr::printBody(AsmPrinter &printer) const {
  printer << "@Sm90_tensorMap(" << getSwizzle();
  for (int64_t b : getBox())
    printer << ", " << b;
  printer << ')';
}

OptionalParseResult
SpecialWindowAttr::parseOptionalBody(AsmParser &parser,
                                     SpecialWindowAttr &attr) {
  SMLoc loc = parser.getCurrentLocation();
  StringAttr name;
  if (failed(parser.parseOptionalSymbolName(name)))
    return std::nullopt;
  if (name.getValue() != "Sm90_tensorMap")
    return parser.emitError(loc)
           << "unknown special window '" << name.getValue()
           << "' (Fig. 14 defines Sm90_tensorMap)";
  SmallVector<int64_t> values;
  if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Paren, [&]() {
        return parser.parseInteger(values.emplace_back());
      }))
    return failure();
  if (values.empty())
    return parser.emitError(loc, "Sm90_tensorMap needs a swizzle and a box");
  attr = getChecked([&] { return parser.emitError(loc); }, parser.getContext(),
                    values.front(), ArrayRef<int64_t>(values).drop_front());
  return success(static_cast<bool>(attr));
}

void SpecialWindowAttr::print(AsmPrinter &printer) const {
  printer << '<';
  printBody(printer);
  printer << '>';
}

Attribute SpecialWindowAttr::parse(AsmParser &parser, Type) {
  SpecialWindowAttr attr;
  if (parser.parseLess())
    return {};
  OptionalParseResult parsed = parseOptionalBody(parser, attr);
  if (!parsed.has_value()) {
    parser.emitError(parser.getCurrentLocation(),
                     "expected @Sm90_tensorMap(...)");
    return {};
  }
  if (failed(*parsed) || parser.parseGreater())
    return {};
  return attr;
}

//===----------------------------------------------------------------------===//
// CollUnitAttr
//===----------------------------------------------------------------------===//

unsigned CollUnitAttr::getArity(CollUnitKind kind) {
  switch (kind) {
  case CollUnitKind::cuda_threads_strided:
    return 2;
  case CollUnitKind::cuda_cta_in_cluster_strided:
  case CollUnitKind::cuda_warp_in_cluster_strided:
    return 1;
  default:
    return 0;
  }
}

bool CollUnitAttr::isScalable(CollUnitKind kind) {
  switch (kind) {
  case CollUnitKind::standalone_thread:
  case CollUnitKind::cuda_quadpair:
  case CollUnitKind::cuda_cluster:
  case CollUnitKind::cuda_agnostic_sub_cta:
  case CollUnitKind::cuda_agnostic_intact_cta:
    return false;
  default:
    return true;
  }
}

LogicalResult CollUnitAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                   CollUnitKind kind, int64_t scale,
                                   ArrayRef<int64_t> args) {
  if (scale < 1)
    return emitError() << "collective unit scale must be positive, got "
                       << scale;
  if (scale != 1 && !isScalable(kind))
    return emitError() << "collective unit " << stringifyCollUnitKind(kind)
                       << " cannot be scaled (Fig. 11)";
  unsigned arity = getArity(kind);
  if (args.size() != arity)
    return emitError() << "collective unit " << stringifyCollUnitKind(kind)
                       << " takes " << arity << " parameter(s), got "
                       << args.size();
  for (int64_t a : args)
    if (a < 1)
      return emitError() << "collective unit parameters must be positive";
  return success();
}

void CollUnitAttr::printBody(AsmPrinter &printer) const {
  if (getScale() != 1)
    printer << getScale() << " * ";
  printer << stringifyCollUnitKind(getKind());
  printIntList(printer, getArgs());
}

CollUnitAttr CollUnitAttr::parseBody(AsmParser &parser) {
  SMLoc loc = parser.getCurrentLocation();
  int64_t scale = 1;
  OptionalParseResult hasScale = parser.parseOptionalInteger(scale);
  if (hasScale.has_value() && (failed(*hasScale) || parser.parseStar()))
    return {};
  FailureOr<CollUnitKind> kind = parseEnumKeyword<CollUnitKind>(
      parser, "collective unit", symbolizeCollUnitKind);
  if (failed(kind))
    return {};
  SmallVector<int64_t> args;
  if (parseOptionalIntList(parser, args))
    return {};
  return getChecked([&] { return parser.emitError(loc); }, parser.getContext(),
                    *kind, scale, args);
}

void CollUnitAttr::print(AsmPrinter &printer) const {
  printer << '<';
  printBody(printer);
  printer << '>';
}

Attribute CollUnitAttr::parse(AsmParser &parser, Type) {
  if (parser.parseLess())
    return {};
  CollUnitAttr attr = parseBody(parser);
  if (!attr || parser.parseGreater())
    return {};
  return attr;
}

//===----------------------------------------------------------------------===//
// ArgSpecAttr
//===----------------------------------------------------------------------===//

bool ArgSpecAttr::isDefault() const {
  return !getOutOfOrder() && !getConvergent() && getDist().empty() &&
         !getInit() && getExt().empty() && getAtomic().empty() &&
         !getKernelReadOnly();
}

static void printQualList(AsmPrinter &printer, ArrayRef<QualTimeline> list) {
  printer << '[';
  llvm::interleaveComma(list, printer, [&](QualTimeline q) {
    printer << stringifyQualTimeline(q);
  });
  printer << ']';
}

static ParseResult parseQualList(AsmParser &parser,
                                 SmallVectorImpl<QualTimeline> &list) {
  return parser.parseCommaSeparatedList(
      AsmParser::Delimiter::Square, [&]() -> ParseResult {
        FailureOr<QualTimeline> q = parseEnumKeyword<QualTimeline>(
            parser, "qualitative timeline", symbolizeQualTimeline);
        if (failed(q))
          return failure();
        list.push_back(*q);
        return success();
      });
}

void ArgSpecAttr::printBody(AsmPrinter &printer) const {
  SmallVector<std::function<void()>> fields;
  if (getOutOfOrder())
    fields.push_back([&] { printer << "out_of_order"; });
  if (getConvergent())
    fields.push_back([&] { printer << "convergent"; });
  if (!getDist().empty())
    fields.push_back([&] {
      printer << "dist = [";
      llvm::interleaveComma(getDist(), printer,
                            [&](CollUnitAttr u) { u.printBody(printer); });
      printer << ']';
    });
  if (getInit())
    fields.push_back(
        [&] { printer << "init = " << stringifyQualTimeline(*getInit()); });
  if (!getExt().empty())
    fields.push_back([&] {
      printer << "ext = ";
      printQualList(printer, getExt());
    });
  if (!getAtomic().empty())
    fields.push_back([&] {
      printer << "atomic = ";
      printQualList(printer, getAtomic());
    });
  if (getKernelReadOnly())
    fields.push_back([&] { printer << "kernel_read_only"; });
  llvm::interleaveComma(fields, printer, [](auto &f) { f(); });
}

ArgSpecAttr ArgSpecAttr::parseBody(AsmParser &parser) {
  bool outOfOrder = false, convergent = false, kernelReadOnly = false;
  SmallVector<CollUnitAttr> dist;
  std::optional<QualTimeline> init;
  SmallVector<QualTimeline> ext, atomic;
  auto parseField = [&]() -> ParseResult {
    SMLoc loc = parser.getCurrentLocation();
    StringRef key;
    if (parser.parseKeyword(&key))
      return failure();
    if (key == "out_of_order")
      return outOfOrder = true, success();
    if (key == "convergent")
      return convergent = true, success();
    if (key == "kernel_read_only")
      return kernelReadOnly = true, success();
    if (parser.parseEqual())
      return failure();
    if (key == "dist")
      return parser.parseCommaSeparatedList(
          AsmParser::Delimiter::Square, [&]() -> ParseResult {
            CollUnitAttr unit = CollUnitAttr::parseBody(parser);
            if (!unit)
              return failure();
            dist.push_back(unit);
            return success();
          });
    if (key == "init") {
      FailureOr<QualTimeline> q = parseEnumKeyword<QualTimeline>(
          parser, "qualitative timeline", symbolizeQualTimeline);
      if (failed(q))
        return failure();
      init = *q;
      return success();
    }
    if (key == "ext")
      return parseQualList(parser, ext);
    if (key == "atomic")
      return parseQualList(parser, atomic);
    return parser.emitError(loc)
           << "unknown instruction parameter annotation '" << key << "'";
  };
  // An empty body is the default annotation.
  if (succeeded(parser.parseOptionalKeyword("default")))
    return get(parser.getContext(), false, false, {}, std::nullopt, {}, {},
               false);
  if (parser.parseCommaSeparatedList(parseField))
    return {};
  return get(parser.getContext(), outOfOrder, convergent, dist, init, ext,
             atomic, kernelReadOnly);
}

void ArgSpecAttr::print(AsmPrinter &printer) const {
  printer << '<';
  if (isDefault())
    printer << "default";
  else
    printBody(printer);
  printer << '>';
}

Attribute ArgSpecAttr::parse(AsmParser &parser, Type) {
  if (parser.parseLess())
    return {};
  ArgSpecAttr attr = parseBody(parser);
  if (!attr || parser.parseGreater())
    return {};
  return attr;
}

//===----------------------------------------------------------------------===//
// WarpGroupAttr
//===----------------------------------------------------------------------===//

/// setmaxnreg accepts register counts in [24, 256] that are multiples of 8.
static bool isValidRegCount(int64_t n) {
  return n >= 24 && n <= 256 && n % 8 == 0;
}

LogicalResult
WarpGroupAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                      StringRef name, int64_t count, int64_t regDec,
                      int64_t regInc) {
  if (name.empty())
    return emitError() << "warp group needs a name";
  if (count < 1)
    return emitError() << "warp group '" << name << "' needs at least one warp";
  if (regDec && regInc)
    return emitError() << "warp group '" << name
                       << "' cannot both decrease and increase its registers";
  for (int64_t n : {regDec, regInc})
    if (n && !isValidRegCount(n))
      return emitError() << "warp group '" << name
                         << "': setmaxnreg register count must be a multiple "
                            "of 8 in [24, 256], got "
                         << n;
  return success();
}

//===----------------------------------------------------------------------===//
// ConditionAttr
//===----------------------------------------------------------------------===//

/// Number of map results an atom consumes.
static unsigned getAtomArity(ConditionAtomKind kind) {
  switch (kind) {
  case ConditionAtomKind::Eq:
  case ConditionAtomKind::Lt:
  case ConditionAtomKind::Le:
  case ConditionAtomKind::Gt:
  case ConditionAtomKind::Ge:
    return 2;
  case ConditionAtomKind::Bool:
    return 1;
  default:
    return 0;
  }
}

LogicalResult
ConditionAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                      AffineMap map, ArrayRef<int64_t> atoms) {
  unsigned next = 0;
  bool expectAtom = true;
  for (int64_t raw : atoms) {
    if (raw < 0 || raw > static_cast<int64_t>(ConditionAtomKind::Or))
      return emitError() << "invalid condition atom kind " << raw;
    auto kind = static_cast<ConditionAtomKind>(raw);
    if (kind == ConditionAtomKind::Or && expectAtom)
      return emitError() << "malformed condition: 'or' must separate atoms";
    expectAtom = kind == ConditionAtomKind::Or;
    unsigned arity = getAtomArity(kind);
    if (next + arity > map.getNumResults())
      return emitError() << "condition atoms need more expressions than the "
                            "map has";
    if (kind == ConditionAtomKind::Bool &&
        !isa<AffineDimExpr>(map.getResult(next)))
      return emitError() << "boolean condition atom must be an operand";
    next += arity;
  }
  if (expectAtom)
    return emitError() << "condition must end with an atom";
  if (next != map.getNumResults())
    return emitError() << "condition map has unused expressions";
  return success();
}

/// Evaluates `condition`, `evaluate` giving each expression's value.
static bool evaluateCondition(ConditionAttr condition,
                              function_ref<int64_t(AffineExpr)> evaluate) {
  AffineMap map = condition.getMap();
  unsigned next = 0;
  bool clause = true;
  for (int64_t raw : condition.getAtoms()) {
    auto kind = static_cast<ConditionAtomKind>(raw);
    if (kind == ConditionAtomKind::Or) {
      if (clause)
        return true;
      clause = true;
      continue;
    }
    bool atom = false;
    if (kind == ConditionAtomKind::True || kind == ConditionAtomKind::False) {
      atom = kind == ConditionAtomKind::True;
    } else if (kind == ConditionAtomKind::Bool) {
      atom = evaluate(map.getResult(next++)) != 0;
    } else {
      int64_t l = evaluate(map.getResult(next++));
      int64_t r = evaluate(map.getResult(next++));
      atom = (kind == ConditionAtomKind::Eq && l == r) ||
             (kind == ConditionAtomKind::Lt && l < r) ||
             (kind == ConditionAtomKind::Le && l <= r) ||
             (kind == ConditionAtomKind::Gt && l > r) ||
             (kind == ConditionAtomKind::Ge && l >= r);
    }
    clause = clause && atom;
  }
  return clause;
}

bool ConditionAttr::evaluate(ArrayRef<int64_t> values) const {
  return evaluateCondition(*this, [&](AffineExpr expr) {
    return evaluateControlExpr(expr, values);
  });
}

bool ConditionAttr::evaluate(ArrayRef<int64_t> values,
                             ControlExprEvaluator &evaluator) const {
  return evaluateCondition(*this, [&](AffineExpr expr) {
    return evaluator.evaluate(expr, values).value_or(0);
  });
}
