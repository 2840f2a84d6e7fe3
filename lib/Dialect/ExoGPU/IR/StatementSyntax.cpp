//===- StatementSyntax.cpp - shared syntax of exogpu statements ----------===//
//
// Part of ExoGPU.
//
//===----------------------------------------------------------------------===//

#include "StatementSyntax.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::exogpu;

OptionalParseResult BufferNameList::parseOptionalName(OpAsmParser &parser) {
  OpAsmParser::UnresolvedOperand name;
  OptionalParseResult parsed = parser.parseOptionalOperand(name);
  if (!parsed.has_value() || failed(*parsed))
    return parsed;
  auto it = llvm::find_if(distinct, [&](auto &known) {
    return known.name == name.name && known.number == name.number;
  });
  distinctOf.push_back(it - distinct.begin());
  if (it == distinct.end())
    distinct.push_back(name);
  uses.push_back(name);
  return success();
}

ParseResult BufferNameList::parseTypes(OpAsmParser &parser) {
  if (distinct.empty())
    return success();
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseColon() ||
      parser.parseCommaSeparatedList([&]() -> ParseResult {
        return parseCompactType(parser, types.emplace_back());
      }))
    return failure();
  if (types.size() != distinct.size())
    return parser.emitError(loc)
           << "expected " << distinct.size()
           << " type(s), one per distinct buffer or barrier named, got "
           << types.size();
  return success();
}

ParseResult BufferNameList::resolve(OpAsmParser &parser,
                                    SmallVectorImpl<Value> &values) {
  for (auto [use, index] : llvm::zip(uses, distinctOf))
    if (parser.resolveOperand(use, types[index], values))
      return failure();
  return success();
}

void mlir::exogpu::printBufferTypes(OpAsmPrinter &printer,
                                    ArrayRef<Value> uses) {
  llvm::SetVector<Value> distinct(uses.begin(), uses.end());
  if (distinct.empty())
    return;
  printer << " : ";
  llvm::interleaveComma(distinct, printer, [&](Value v) {
    printCompactType(printer, v.getType());
  });
}

FailureOr<SmallVector<AccessView>>
mlir::exogpu::splitAccesses(Operation *op, ArrayRef<int32_t> kinds,
                            ArrayRef<int32_t> counts, AffineMap map) {
  SmallVector<AccessView> views;
  unsigned nextKind = 0, nextExpr = 0;
  ArrayRef<AffineExpr> results = map.getResults();
  for (int32_t count : counts) {
    if (count < 0 || nextKind + count > kinds.size())
      return op->emitOpError("coordinate counts exceed the coordinate kinds");
    ArrayRef<int32_t> slice = kinds.slice(nextKind, count);
    unsigned numExprs = 0;
    for (int32_t raw : slice) {
      if (raw < 0 || raw > static_cast<int32_t>(CoordKind::Full))
        return op->emitOpError() << "invalid coordinate kind " << raw;
      numExprs += getCoordArity(static_cast<CoordKind>(raw));
    }
    if (nextExpr + numExprs > results.size())
      return op->emitOpError("coordinates need more expressions than the "
                             "coordinate map has");
    views.push_back({slice, results.slice(nextExpr, numExprs)});
    nextKind += count;
    nextExpr += numExprs;
  }
  if (nextKind != kinds.size() || nextExpr != results.size())
    return op->emitOpError("coordinate kinds or expressions left unused");
  return views;
}

LogicalResult mlir::exogpu::verifyAccessRank(Operation *op,
                                             ArrayRef<int32_t> kinds,
                                             unsigned rank, bool allowWhole,
                                             StringRef what) {
  if (kinds.size() == rank || (allowWhole && kinds.empty()))
    return success();
  return op->emitOpError() << what << " has " << kinds.size()
                           << " coordinate(s) for a buffer of rank " << rank;
}

LogicalResult mlir::exogpu::verifyStaticBounds(Operation *op,
                                               ArrayRef<int64_t> shape,
                                               ArrayRef<int32_t> kinds,
                                               ArrayRef<AffineExpr> exprs,
                                               StringRef what) {
  if (kinds.size() != shape.size())
    return success(); // a whole buffer, or a rank the caller reports
  auto constantOf = [](AffineExpr expr) -> std::optional<int64_t> {
    if (auto constant = dyn_cast<AffineConstantExpr>(expr))
      return constant.getValue();
    return std::nullopt;
  };
  unsigned next = 0;
  for (auto [dim, kind] : llvm::enumerate(kinds)) {
    auto coordKind = static_cast<CoordKind>(kind);
    unsigned arity = getCoordArity(coordKind);
    if (next + arity > exprs.size())
      return success(); // verifyCoords reports it
    ArrayRef<AffineExpr> coord = exprs.slice(next, arity);
    next += arity;
    if (coordKind == CoordKind::Full)
      continue;
    // memref.subview's rule: the offset (a point, or an interval's start)
    // lies in [0, E), an interval's end in [0, E], its size is not negative.
    int64_t extent = shape[dim];
    std::optional<int64_t> lo = constantOf(coord[0]);
    std::optional<int64_t> hi =
        coordKind == CoordKind::Interval ? constantOf(coord[1]) : lo;
    auto outside = [&](StringRef bound, int64_t value) {
      InFlightDiagnostic diag = op->emitOpError()
                                << what << " " << bound << " " << value
                                << " is outside dimension " << dim;
      if (!ShapedType::isDynamic(extent))
        diag << " of extent " << extent;
      return diag;
    };
    StringRef start = coordKind == CoordKind::Point ? "index" : "lower bound";
    bool isStatic = !ShapedType::isDynamic(extent);
    if (lo && (*lo < 0 || (isStatic && *lo >= extent)))
      return outside(start, *lo);
    if (coordKind != CoordKind::Interval)
      continue;
    if (hi && (*hi < 0 || (isStatic && *hi > extent)))
      return outside("upper bound", *hi);
    if (lo && hi && *hi < *lo)
      return op->emitOpError()
             << what << " interval " << *lo << ":" << *hi << " of dimension "
             << dim << " has a negative extent";
  }
  return success();
}

OptionalParseResult
mlir::exogpu::parseOptionalAccess(OpAsmParser &parser, ControlExprParser &ctrl,
                                  BufferNameList &names, WindowCoords &coords,
                                  SmallVectorImpl<int32_t> &coordCounts,
                                  bool pointsOnly) {
  OptionalParseResult parsed = names.parseOptionalName(parser);
  if (!parsed.has_value() || failed(*parsed))
    return parsed;
  unsigned before = coords.kinds.size();
  if (ctrl.parseCoords(coords, pointsOnly, /*optional=*/true))
    return failure();
  coordCounts.push_back(coords.kinds.size() - before);
  return success();
}

ParseResult mlir::exogpu::parseAccess(OpAsmParser &parser,
                                      ControlExprParser &ctrl,
                                      BufferNameList &names,
                                      WindowCoords &coords,
                                      SmallVectorImpl<int32_t> &coordCounts,
                                      bool pointsOnly) {
  SMLoc loc = parser.getCurrentLocation();
  OptionalParseResult parsed =
      parseOptionalAccess(parser, ctrl, names, coords, coordCounts, pointsOnly);
  if (!parsed.has_value())
    return parser.emitError(loc, "expected a buffer or barrier name");
  return *parsed;
}

void mlir::exogpu::printAccess(OpAsmPrinter &printer, Value buffer,
                               ArrayRef<int32_t> kinds,
                               ArrayRef<AffineExpr> exprs, ValueRange ctrl) {
  printer.printOperand(buffer);
  unsigned rank = 0;
  if (auto b = dyn_cast<BufferTypeInterface>(buffer.getType()))
    rank = b.getRank();
  else if (auto z = dyn_cast<BarrierType>(buffer.getType()))
    rank = z.getRank();
  if (kinds.empty() && rank > 0)
    return;
  printCoords(printer, kinds, exprs, ctrl);
}

SmallVector<int64_t> mlir::exogpu::getAccessShape(ArrayRef<int64_t> bufferShape,
                                                  ArrayRef<int32_t> kinds,
                                                  ArrayRef<AffineExpr> exprs) {
  if (kinds.empty())
    return llvm::to_vector(bufferShape);
  SmallVector<int64_t> shape;
  unsigned next = 0;
  for (auto [dim, raw] : llvm::enumerate(kinds)) {
    switch (static_cast<CoordKind>(raw)) {
    case CoordKind::Point:
      ++next;
      break;
    case CoordKind::Interval: {
      AffineExpr extent = exprs[next + 1] - exprs[next];
      auto c = dyn_cast<AffineConstantExpr>(extent);
      shape.push_back(c ? c.getValue() : ShapedType::kDynamic);
      next += 2;
      break;
    }
    case CoordKind::Full:
      shape.push_back(dim < bufferShape.size() ? bufferShape[dim]
                                               : ShapedType::kDynamic);
      break;
    }
  }
  return shape;
}

StringAttr mlir::exogpu::getUserName(MLIRContext *ctx, StringRef ssaName) {
  ssaName.consume_front("%");
  if (ssaName.empty() || llvm::isDigit(ssaName.front()) ||
      ssaName.starts_with("arg"))
    return {};
  return StringAttr::get(ctx, ssaName);
}
