//===- MemoryOps.cpp - exogpu alloc, free and window ---------------------===//
//
// Part of ExoGPU. Allocation, free and window statements (seeds/002 Fig. 2,
// memories of Fig. 12-14).
//
//===----------------------------------------------------------------------===//

#include "ExoGPU/Dialect/ExoGPU/IR/ControlExpr.h"
#include "ExoGPU/Dialect/ExoGPU/IR/ExoGPUOps.h"
#include "ExoGPU/Dialect/ExoGPU/IR/Scope.h"
#include "StatementSyntax.h"
#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace mlir::exogpu;

#define GET_OP_CLASSES
#include "ExoGPU/Dialect/ExoGPU/IR/MemoryOps.cpp.inc"

/// The static extent of a control expression, or `?`.
static int64_t getStaticExtent(AffineExpr expr) {
  if (auto c = dyn_cast<AffineConstantExpr>(expr))
    return c.getValue();
  return ShapedType::kDynamic;
}

//===----------------------------------------------------------------------===//
// AllocOp
//===----------------------------------------------------------------------===//

ParseResult AllocOp::parse(OpAsmParser &parser, OperationState &result) {
  MLIRContext *ctx = parser.getContext();
  SMLoc loc = parser.getCurrentLocation();
  ControlExprParser ctrl(parser);
  SmallVector<AffineExpr> extents;
  auto parseExtents = [&]() {
    return parser.parseCommaSeparatedList(
        AsmParser::Delimiter::OptionalSquare,
        [&]() { return ctrl.parseExpr(extents.emplace_back()); });
  };
  Type type;
  if (succeeded(parser.parseOptionalKeyword("barrier"))) {
    if (parseExtents())
      return failure();
    StringAttr name;
    SMLoc nameLoc = parser.getCurrentLocation();
    if (parser.parseSymbolName(name))
      return failure();
    std::optional<BarrierKind> kind = symbolizeBarrierKind(name.getValue());
    if (!kind)
      return parser.emitError(nameLoc)
             << "unknown barrier mechanism '" << name.getValue() << "'";
    bool guarded = succeeded(parser.parseOptionalKeyword("guarded"));
    SmallVector<int64_t> shape;
    for (AffineExpr e : extents)
      shape.push_back(getStaticExtent(e));
    type = BarrierType::getChecked([&] { return parser.emitError(loc); }, ctx,
                                   ArrayRef<int64_t>(shape), *kind, guarded);
  } else {
    Type elementType;
    if (parser.parseType(elementType) || parseExtents())
      return failure();
    MemoryAttr memory = MemoryAttr::parseBody(parser);
    if (!memory)
      return failure();
    SmallVector<int64_t> shape;
    for (AffineExpr e : extents)
      shape.push_back(getStaticExtent(e));
    type = DataTensorType::getChecked([&] { return parser.emitError(loc); },
                                      ctx, elementType,
                                      ArrayRef<int64_t>(shape), memory);
  }
  if (!type)
    return failure();
  result.addTypes(type);
  result.addAttribute(getExtentsAttrName(result.name),
                      AffineMapAttr::get(ctrl.getMap(extents)));
  if (ctrl.resolve(result.operands))
    return failure();
  if (StringAttr userName = getUserName(ctx, parser.getResultName(0).first))
    result.addAttribute(getNameAttrName(result.name), userName);
  return parser.parseOptionalAttrDict(result.attributes);
}

void AllocOp::getAsmResultNames(OpAsmSetValueNameFn setNameFn) {
  if (std::optional<StringRef> name = getName())
    setNameFn(getResult(), *name);
}

void AllocOp::print(OpAsmPrinter &p) {
  ArrayRef<AffineExpr> extents = getExtents().getResults();
  auto printExtents = [&] {
    if (extents.empty())
      return;
    p << '[';
    llvm::interleaveComma(
        extents, p, [&](AffineExpr e) { printControlExpr(p, e, getCtrl()); });
    p << ']';
  };
  if (auto barrier = dyn_cast<BarrierType>(getType())) {
    p << " barrier";
    printExtents();
    p << " @" << stringifyBarrierKind(barrier.getKind());
    if (barrier.getGuarded())
      p << " guarded";
  } else {
    auto tensor = cast<DataTensorType>(getType());
    p << ' ' << tensor.getElementType();
    printExtents();
    p << ' ';
    tensor.getMemory().printBody(p);
  }
  p.printOptionalAttrDict((*this)->getAttrs(),
                          {getExtentsAttrName(), getNameAttrName()});
}

/// Whether the static extents of `op` fit the hardware's limits (dynamic
/// extents are checked where their sizes are known: the synchronization
/// check's ALLOC).
static LogicalResult verifyAllocationLimits(AllocOp op) {
  std::optional<AllocationLimit> limit = getAllocationLimit(op.getType());
  if (!limit)
    return success();
  ArrayRef<int64_t> shape;
  if (auto barrier = dyn_cast<BarrierType>(op.getType()))
    shape = barrier.getShape();
  else
    shape = cast<DataTensorType>(op.getType()).getShape();
  int64_t volume = 1;
  for (int64_t extent : shape) {
    if (ShapedType::isDynamic(extent))
      return success();
    if (llvm::MulOverflow(volume, extent, volume))
      volume = std::numeric_limits<int64_t>::max();
  }
  if (volume <= limit->elements)
    return success();
  return op.emitOpError() << "allocates more than " << limit->describe();
}

LogicalResult AllocOp::verify() {
  if (failed(
          verifyControlMap(*this, getExtents(), getCtrl().size(), "extents")))
    return failure();
  ArrayRef<int64_t> shape;
  if (auto barrier = dyn_cast<BarrierType>(getType())) {
    shape = barrier.getShape();
    if (barrier.getKind() == BarrierKind::CudaDeviceBarrier)
      return emitOpError("CudaDeviceBarrier is the base type of barriers "
                         "(Fig. 13); allocate a concrete mechanism");
    if (!isCudaScope(*this))
      return emitOpError("barriers are allocated in CUDA scope");
  } else if (auto tensor = dyn_cast<DataTensorType>(getType())) {
    shape = tensor.getShape();
    MemoryAttr memory = tensor.getMemory();
    if (MemoryAttr::isAbstract(memory.getKind()))
      return emitOpError() << stringifyMemoryKind(memory.getKind())
                           << " is a base memory type (Fig. 12) and cannot "
                              "be allocated";
    bool cuda = isCudaScope(*this);
    if (memory.isCpuAllocated() && cuda)
      return emitOpError() << stringifyMemoryKind(memory.getKind())
                           << " is allocated in CPU scope, outside "
                              "device_function";
    if (!memory.isCpuAllocated() && !cuda)
      return emitOpError() << stringifyMemoryKind(memory.getKind())
                           << " is allocated in CUDA scope, inside a "
                              "device_function";
  } else {
    return emitOpError("allocates a tensor or a barrier");
  }
  if (shape.size() != getExtents().getNumResults())
    return emitOpError() << "result has rank " << shape.size() << " but "
                         << getExtents().getNumResults() << " extents";
  for (auto [dim, expr] : llvm::zip(shape, getExtents().getResults())) {
    int64_t expected = getStaticExtent(expr);
    if (dim != expected)
      return emitOpError("result extents must match the extent expressions "
                         "(static where constant, '?' otherwise)");
    if (!ShapedType::isDynamic(expected) && expected <= 0)
      return emitOpError("extents must be positive");
  }
  return verifyAllocationLimits(*this);
}

//===----------------------------------------------------------------------===//
// FreeOp
//===----------------------------------------------------------------------===//

ParseResult FreeOp::parse(OpAsmParser &parser, OperationState &result) {
  OpAsmParser::UnresolvedOperand buffer;
  Type type;
  if (parser.parseOperand(buffer) ||
      parser.parseOptionalAttrDict(result.attributes) || parser.parseColon() ||
      parseCompactType(parser, type) ||
      parser.resolveOperand(buffer, type, result.operands))
    return failure();
  return success();
}

void FreeOp::print(OpAsmPrinter &p) {
  p << ' ';
  p.printOperand(getBuffer());
  p.printOptionalAttrDict((*this)->getAttrs());
  p << " : ";
  printCompactType(p, getBuffer().getType());
}

LogicalResult FreeOp::verify() {
  auto alloc = getBuffer().getDefiningOp<AllocOp>();
  if (!alloc)
    return emitOpError("frees only values produced by exogpu.alloc");
  if (alloc->getBlock() != (*this)->getBlock())
    return emitOpError("must be in the block of its allocation");
  for (Operation *user : getBuffer().getUsers())
    if (user != getOperation() && isa<FreeOp>(user))
      return emitOpError("allocation is freed twice");
  return success();
}

//===----------------------------------------------------------------------===//
// WindowOp
//===----------------------------------------------------------------------===//

WindowType mlir::exogpu::inferWindowType(BufferTypeInterface source,
                                         ArrayRef<int32_t> kinds,
                                         ArrayRef<AffineExpr> exprs,
                                         SpecialWindowAttr special) {
  return WindowType::get(source.getContext(), source.getElementType(),
                         getAccessShape(source.getShape(), kinds, exprs),
                         source.getMemory(), special);
}

ParseResult WindowOp::parse(OpAsmParser &parser, OperationState &result) {
  ControlExprParser ctrl(parser);
  BufferNameList names;
  WindowCoords coords;
  SmallVector<int32_t> counts;
  if (parseAccess(parser, ctrl, names, coords, counts, /*pointsOnly=*/false))
    return failure();
  SpecialWindowAttr special;
  OptionalParseResult hasSpecial =
      SpecialWindowAttr::parseOptionalBody(parser, special);
  if (hasSpecial.has_value()) {
    if (failed(*hasSpecial))
      return failure();
    result.addAttribute(getSpecialAttrName(result.name), special);
  }
  if (parser.parseOptionalAttrDict(result.attributes) ||
      names.parseTypes(parser))
    return failure();
  SmallVector<Value> buffers;
  if (names.resolve(parser, buffers) || ctrl.resolve(result.operands))
    return failure();
  auto source = dyn_cast<BufferTypeInterface>(buffers.front().getType());
  if (!source)
    return parser.emitError(parser.getNameLoc(),
                            "windows are taken of data buffers");
  result.operands.insert(result.operands.begin(), buffers.front());
  Builder &b = parser.getBuilder();
  result.addAttribute(getCoordKindsAttrName(result.name),
                      b.getDenseI32ArrayAttr(coords.kinds));
  result.addAttribute(getCoordsAttrName(result.name),
                      AffineMapAttr::get(ctrl.getMap(coords.exprs)));
  result.addTypes(inferWindowType(source, coords.kinds, coords.exprs, special));
  if (StringAttr userName =
          getUserName(b.getContext(), parser.getResultName(0).first))
    result.addAttribute(getNameAttrName(result.name), userName);
  return success();
}

void WindowOp::getAsmResultNames(OpAsmSetValueNameFn setNameFn) {
  if (std::optional<StringRef> name = getName())
    setNameFn(getResult(), *name);
}

Value WindowOp::getViewSource() { return getSource(); }

void WindowOp::print(OpAsmPrinter &p) {
  p << ' ';
  printAccess(p, getSource(), getCoordKinds(), getCoords().getResults(),
              getCtrl());
  if (SpecialWindowAttr special = getSpecialAttr()) {
    p << ' ';
    special.printBody(p);
  }
  p.printOptionalAttrDict((*this)->getAttrs(),
                          {getCoordKindsAttrName(), getCoordsAttrName(),
                           getSpecialAttrName(), getNameAttrName()});
  printBufferTypes(p, {getSource()});
}

LogicalResult WindowOp::verify() {
  auto source = cast<BufferTypeInterface>(getSource().getType());
  if (failed(verifyControlMap(*this, getCoords(), getCtrl().size(),
                              "window coordinates")) ||
      failed(verifyCoords(*this, getCoordKinds(), getCoords().getNumResults(),
                          "window")) ||
      failed(verifyAccessRank(*this, getCoordKinds(), source.getRank(),
                              /*allowWhole=*/true, "window")) ||
      failed(verifyStaticBounds(*this, source.getShape(), getCoordKinds(),
                                getCoords().getResults(), "window")))
    return failure();
  if (auto sourceWindow = dyn_cast<WindowType>(getSource().getType());
      sourceWindow && sourceWindow.getSpecial())
    return emitOpError("cannot take a window of a special window");
  WindowType expected = inferWindowType(
      source, getCoordKinds(), getCoords().getResults(), getSpecialAttr());
  if (getType() != expected)
    return emitOpError() << "result type must be " << expected;
  if (SpecialWindowAttr special = getSpecialAttr()) {
    if (isCudaScope(*this))
      return emitOpError("tensor maps are built in CPU scope, outside "
                         "device_function");
    if (source.getMemory().getKind() != MemoryKind::CudaGmemLinear)
      return emitOpError("Sm90_tensorMap windows are taken of "
                         "CudaGmemLinear buffers");
    if (special.getBox().size() != expected.getShape().size())
      return emitOpError() << "Sm90_tensorMap box has "
                           << special.getBox().size()
                           << " dimension(s), the window has "
                           << expected.getShape().size();
  }
  return success();
}

//===----------------------------------------------------------------------===//
// SplitOp
//===----------------------------------------------------------------------===//

WindowType SplitOp::inferType(BufferTypeInterface source, int64_t dim,
                              int64_t factor) {
  SmallVector<int64_t> shape(source.getShape());
  int64_t extent = shape[dim];
  shape[dim] = ShapedType::isDynamic(extent) ? extent : extent / factor;
  shape.insert(shape.begin() + dim + 1, factor);
  return WindowType::get(source.getContext(), source.getElementType(), shape,
                         source.getMemory(), SpecialWindowAttr());
}

ParseResult SplitOp::parse(OpAsmParser &parser, OperationState &result) {
  OpAsmParser::UnresolvedOperand source;
  int64_t dim = 0, factor = 0;
  Type sourceType;
  SMLoc typeLoc;
  if (parser.parseOperand(source) || parser.parseKeyword("dim") ||
      parser.parseInteger(dim) || parser.parseKeyword("by") ||
      parser.parseInteger(factor) ||
      parser.parseOptionalAttrDict(result.attributes) || parser.parseColon())
    return failure();
  typeLoc = parser.getCurrentLocation();
  if (parseCompactType(parser, sourceType) ||
      parser.resolveOperand(source, sourceType, result.operands))
    return failure();
  auto buffer = dyn_cast<BufferTypeInterface>(sourceType);
  if (!buffer)
    return parser.emitError(typeLoc, "splits a data buffer");
  // The verifier reports a bad dimension or factor; the type needs sane ones.
  if (dim < 0 || dim >= static_cast<int64_t>(buffer.getRank()) || factor <= 0)
    return parser.emitError(typeLoc)
           << "split dim " << dim << " by " << factor
           << ": the dimension must be one of the buffer's " << buffer.getRank()
           << " and the factor positive";
  Builder &b = parser.getBuilder();
  result.addAttribute(getDimAttrName(result.name), b.getI64IntegerAttr(dim));
  result.addAttribute(getFactorAttrName(result.name),
                      b.getI64IntegerAttr(factor));
  result.addTypes(inferType(buffer, dim, factor));
  if (StringAttr userName =
          getUserName(b.getContext(), parser.getResultName(0).first))
    result.addAttribute(getNameAttrName(result.name), userName);
  return success();
}

void SplitOp::getAsmResultNames(OpAsmSetValueNameFn setNameFn) {
  if (std::optional<StringRef> name = getName())
    setNameFn(getResult(), *name);
}

Value SplitOp::getViewSource() { return getSource(); }

void SplitOp::print(OpAsmPrinter &p) {
  p << ' ';
  p.printOperand(getSource());
  p << " dim " << getDim() << " by " << getFactor();
  p.printOptionalAttrDict(
      (*this)->getAttrs(),
      {getDimAttrName(), getFactorAttrName(), getNameAttrName()});
  p << " : ";
  printCompactType(p, getSource().getType());
}

LogicalResult SplitOp::verify() {
  auto source = cast<BufferTypeInterface>(getSource().getType());
  int64_t dim = getDim(), factor = getFactor();
  if (dim < 0 || dim >= static_cast<int64_t>(source.getRank()))
    return emitOpError() << "splits dimension " << dim
                         << " of a buffer of rank " << source.getRank();
  if (factor <= 0)
    return emitOpError() << "split factor " << factor << " is not positive";
  if (auto window = dyn_cast<WindowType>(getSource().getType());
      window && window.getSpecial())
    return emitOpError("cannot split a special window; split the buffer and "
                       "take the special window of the split");
  MemoryAttr memory = source.getMemory();
  if (memory.isRmem() || memory.getKind() == MemoryKind::Sm90_SmemSwizzled)
    return emitOpError() << "cannot split a buffer in "
                         << stringifyMemoryKind(memory.getKind())
                         << ": only memories laid out as plain row-major "
                            "arrays are split";
  int64_t extent = source.getShape()[dim];
  if (!ShapedType::isDynamic(extent) && extent % factor != 0)
    return emitOpError() << "dimension " << dim << " has extent " << extent
                         << ", not a multiple of the split factor " << factor;
  WindowType expected = inferType(source, dim, factor);
  if (getType() != expected)
    return emitOpError() << "result type must be " << expected;
  return success();
}
