//===- ExoGPUTypes.cpp - exogpu types ------------------------------------===//
//
// Part of ExoGPU. Tensor, window and barrier types (seeds/002 Fig. 10, 12-14).
//
//===----------------------------------------------------------------------===//

#include "ExoGPU/Dialect/ExoGPU/IR/ExoGPUTypes.h"
#include "ExoGPU/Dialect/ExoGPU/IR/ExoGPUDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypeInterfaces.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::exogpu;

#include "ExoGPU/Dialect/ExoGPU/IR/ExoGPUTypeInterfaces.cpp.inc"
#define GET_TYPEDEF_CLASSES
#include "ExoGPU/Dialect/ExoGPU/IR/ExoGPUTypes.cpp.inc"

void ExoGPUDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "ExoGPU/Dialect/ExoGPU/IR/ExoGPUTypes.cpp.inc"
      >();
}

bool mlir::exogpu::isScalarPrecision(Type type) {
  if (type.isF16() || type.isBF16() || type.isF32() || type.isF64())
    return true;
  auto intType = dyn_cast<IntegerType>(type);
  if (!intType)
    return false;
  unsigned width = intType.getWidth();
  if (intType.isSignless())
    return width == 8 || width == 32;
  if (intType.isUnsigned())
    return width == 8 || width == 16;
  return false;
}

//===----------------------------------------------------------------------===//
// Shape and buffer bodies: `f32[?, 16] @Mem`
//===----------------------------------------------------------------------===//

static void printShape(AsmPrinter &printer, ArrayRef<int64_t> shape) {
  printer << '[';
  llvm::interleaveComma(shape, printer, [&](int64_t d) {
    if (ShapedType::isDynamic(d))
      printer << '?';
    else
      printer << d;
  });
  printer << ']';
}

/// Parses an optional `[d, ?, ...]` extent list (`[]` is rank 0).
static ParseResult parseOptionalShape(AsmParser &parser,
                                      SmallVectorImpl<int64_t> &shape) {
  return parser.parseCommaSeparatedList(
      AsmParser::Delimiter::OptionalSquare, [&]() -> ParseResult {
        if (succeeded(parser.parseOptionalQuestion())) {
          shape.push_back(ShapedType::kDynamic);
          return success();
        }
        return parser.parseInteger(shape.emplace_back());
      });
}

/// Prints `f32[?, 16] @Mem`; a scalar prints as `f32 @Mem`.
static void printBufferBody(AsmPrinter &printer, Type elementType,
                            ArrayRef<int64_t> shape, MemoryAttr memory) {
  printer << elementType;
  if (!shape.empty())
    printShape(printer, shape);
  printer << ' ';
  memory.printBody(printer);
}

static ParseResult parseBufferBody(AsmParser &parser, Type &elementType,
                                   SmallVectorImpl<int64_t> &shape,
                                   MemoryAttr &memory) {
  if (parser.parseType(elementType) || parseOptionalShape(parser, shape))
    return failure();
  memory = MemoryAttr::parseBody(parser);
  return success(static_cast<bool>(memory));
}

static LogicalResult verifyBuffer(function_ref<InFlightDiagnostic()> emitError,
                                  Type elementType, ArrayRef<int64_t> shape) {
  if (!isScalarPrecision(elementType))
    return emitError() << "buffer precision must be one of f16, bf16, f32, "
                          "f64, i8, ui8, ui16, i32; got "
                       << elementType;
  for (int64_t d : shape)
    if (!ShapedType::isDynamic(d) && d <= 0)
      return emitError() << "buffer extents must be positive, got " << d;
  return success();
}

//===----------------------------------------------------------------------===//
// DataTensorType
//===----------------------------------------------------------------------===//

LogicalResult
DataTensorType::verify(function_ref<InFlightDiagnostic()> emitError,
                       Type elementType, ArrayRef<int64_t> shape,
                       MemoryAttr memory) {
  return verifyBuffer(emitError, elementType, shape);
}

void DataTensorType::print(AsmPrinter &printer) const {
  printer << '<';
  printBufferBody(printer, getElementType(), getShape(), getMemory());
  printer << '>';
}

Type DataTensorType::parse(AsmParser &parser) {
  SMLoc loc = parser.getCurrentLocation();
  Type elementType;
  SmallVector<int64_t> shape;
  MemoryAttr memory;
  if (parser.parseLess() ||
      parseBufferBody(parser, elementType, shape, memory) ||
      parser.parseGreater())
    return {};
  return getChecked([&] { return parser.emitError(loc); }, parser.getContext(),
                    elementType, shape, memory);
}

//===----------------------------------------------------------------------===//
// WindowType
//===----------------------------------------------------------------------===//

LogicalResult WindowType::verify(function_ref<InFlightDiagnostic()> emitError,
                                 Type elementType, ArrayRef<int64_t> shape,
                                 MemoryAttr memory, SpecialWindowAttr special) {
  return verifyBuffer(emitError, elementType, shape);
}

static void printWindowBody(AsmPrinter &printer, WindowType type) {
  printBufferBody(printer, type.getElementType(), type.getShape(),
                  type.getMemory());
  if (type.getSpecial()) {
    printer << ' ';
    type.getSpecial().printBody(printer);
  }
}

WindowType mlir::exogpu::parseCompactWindowBody(AsmParser &parser) {
  SMLoc loc = parser.getCurrentLocation();
  Type elementType;
  SmallVector<int64_t> shape;
  MemoryAttr memory;
  SpecialWindowAttr special;
  if (parseBufferBody(parser, elementType, shape, memory))
    return {};
  // The special window follows the memory: `@Mem @Sm90_tensorMap(...)`.
  OptionalParseResult hasSpecial =
      SpecialWindowAttr::parseOptionalBody(parser, special);
  if (hasSpecial.has_value() && failed(*hasSpecial))
    return {};
  return WindowType::getChecked([&] { return parser.emitError(loc); },
                                parser.getContext(), elementType, shape, memory,
                                special);
}

void WindowType::print(AsmPrinter &printer) const {
  printer << '<';
  printWindowBody(printer, *this);
  printer << '>';
}

Type WindowType::parse(AsmParser &parser) {
  if (parser.parseLess())
    return {};
  WindowType type = parseCompactWindowBody(parser);
  if (!type || parser.parseGreater())
    return {};
  return type;
}

//===----------------------------------------------------------------------===//
// BarrierType
//===----------------------------------------------------------------------===//

LogicalResult BarrierType::verify(function_ref<InFlightDiagnostic()> emitError,
                                  ArrayRef<int64_t> shape, BarrierKind kind,
                                  bool guarded) {
  for (int64_t d : shape)
    if (ShapedType::isDynamic(d) || d <= 0)
      return emitError() << "barrier array extents must be positive constants";
  if (guarded && kind != BarrierKind::CudaMbarrier)
    return emitError() << "only CudaMbarrier barriers can be explicitly "
                          "guarded (Fig. 10 barrier(z))";
  return success();
}

/// Prints `[2, 2] @CudaMbarrier guarded` (no shape for a single barrier).
static void printBarrierBody(AsmPrinter &printer, BarrierType type) {
  if (!type.getShape().empty()) {
    printShape(printer, type.getShape());
    printer << ' ';
  }
  printer << '@' << stringifyBarrierKind(type.getKind());
  if (type.getGuarded())
    printer << " guarded";
}

static BarrierType parseBarrierBody(AsmParser &parser) {
  SMLoc loc = parser.getCurrentLocation();
  SmallVector<int64_t> shape;
  if (parseOptionalShape(parser, shape))
    return {};
  StringAttr name;
  SMLoc nameLoc = parser.getCurrentLocation();
  if (parser.parseSymbolName(name))
    return {};
  std::optional<BarrierKind> kind = symbolizeBarrierKind(name.getValue());
  if (!kind) {
    parser.emitError(nameLoc)
        << "unknown barrier mechanism '" << name.getValue() << "'";
    return {};
  }
  bool guarded = succeeded(parser.parseOptionalKeyword("guarded"));
  return BarrierType::getChecked([&] { return parser.emitError(loc); },
                                 parser.getContext(), shape, *kind, guarded);
}

void BarrierType::print(AsmPrinter &printer) const {
  printer << '<';
  printBarrierBody(printer, *this);
  printer << '>';
}

Type BarrierType::parse(AsmParser &parser) {
  if (parser.parseLess())
    return {};
  BarrierType type = parseBarrierBody(parser);
  if (!type || parser.parseGreater())
    return {};
  return type;
}

//===----------------------------------------------------------------------===//
// Compact forms used in statement type lists
//===----------------------------------------------------------------------===//

void mlir::exogpu::printCompactType(AsmPrinter &printer, Type type) {
  if (auto tensor = dyn_cast<DataTensorType>(type))
    return printBufferBody(printer, tensor.getElementType(), tensor.getShape(),
                           tensor.getMemory());
  if (auto window = dyn_cast<WindowType>(type)) {
    printer << "window ";
    return printWindowBody(printer, window);
  }
  if (auto barrier = dyn_cast<BarrierType>(type)) {
    printer << "barrier";
    if (barrier.getShape().empty())
      printer << ' ';
    return printBarrierBody(printer, barrier);
  }
  printer << type;
}

ParseResult mlir::exogpu::parseCompactType(AsmParser &parser, Type &type) {
  if (succeeded(parser.parseOptionalKeyword("window"))) {
    type = parseCompactWindowBody(parser);
    return success(static_cast<bool>(type));
  }
  if (succeeded(parser.parseOptionalKeyword("barrier"))) {
    type = parseBarrierBody(parser);
    return success(static_cast<bool>(type));
  }
  SMLoc loc = parser.getCurrentLocation();
  Type elementType;
  SmallVector<int64_t> shape;
  MemoryAttr memory;
  if (parseBufferBody(parser, elementType, shape, memory))
    return failure();
  type = DataTensorType::getChecked([&] { return parser.emitError(loc); },
                                    parser.getContext(), elementType, shape,
                                    memory);
  return success(static_cast<bool>(type));
}

/// Hard limits of the hardware an allocation must fit (the CUDA C++
/// Programming Guide's compute capability 9.0 table): 227 KiB of shared
/// memory per CTA and a register file of 64K 32-bit registers per SM, in each
/// of the at most 16 CTAs of a cluster an allocation may be distributed over
/// (Sec. 4.1; the per-CTA share is the distributed memory analysis' concern,
/// and the CUDA translation checks a CTA's layout), and as many barrier
/// elements as mbarriers (8 bytes each) fit there.
static constexpr int64_t kMaxClusterCtas = 16;
static constexpr int64_t kMaxSharedBytes = kMaxClusterCtas * 227 * 1024;
static constexpr int64_t kMaxRegisterBytes = kMaxClusterCtas * 64 * 1024 * 4;
static constexpr int64_t kMaxBarrierElements = kMaxSharedBytes / 8;

std::optional<AllocationLimit> mlir::exogpu::getAllocationLimit(Type type) {
  if (isa<BarrierType>(type))
    return AllocationLimit{kMaxBarrierElements, 1, "barrier elements"};
  auto tensor = dyn_cast<DataTensorType>(type);
  if (!tensor)
    return std::nullopt;
  MemoryAttr memory = tensor.getMemory();
  Type element = tensor.getElementType();
  int64_t elementBytes = element.isIntOrFloat()
                             ? std::max(1u, element.getIntOrFloatBitWidth() / 8)
                             : 4;
  if (memory.isSmem())
    return AllocationLimit{kMaxSharedBytes / elementBytes, elementBytes,
                           "bytes of shared memory (227 KiB in each CTA of a "
                           "cluster of 16)"};
  if (memory.isRmem())
    return AllocationLimit{kMaxRegisterBytes / elementBytes, elementBytes,
                           "bytes of registers (the register file of an SM in "
                           "each CTA of a cluster of 16)"};
  return std::nullopt;
}
