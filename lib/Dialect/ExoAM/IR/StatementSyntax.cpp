//===- StatementSyntax.cpp - shared syntax of exoam statements -----------===//
//
// Part of ExoGPU. Parsing and printing of the clauses AMIR statements share:
// accesses `@x[c, c1 to c2]`, barrier lists `>> @z[...]`, thread mappings
// `threads gpu[...]`, visibility levels and qualitative-timeline sets.
//
//===----------------------------------------------------------------------===//

#include "StatementSyntax.h"
#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace mlir::exoam;

//===----------------------------------------------------------------------===//
// Parsing
//===----------------------------------------------------------------------===//

ParseResult StatementParser::parseAccess(ParsedAccess &access,
                                         bool pointsOnly) {
  if (parser.parseSymbolName(access.var))
    return failure();
  return parser.parseCommaSeparatedList(
      AsmParser::Delimiter::Square, [&]() -> ParseResult {
        SMLoc loc = parser.getCurrentLocation();
        AffineExpr lo;
        if (ctrl.parseExpr(lo))
          return failure();
        access.exprs.push_back(lo);
        if (failed(parser.parseOptionalKeyword("to"))) {
          access.kinds.push_back(static_cast<int32_t>(AccessCoordKind::Point));
          return success();
        }
        if (pointsOnly)
          return parser.emitError(loc, "expected a point coordinate here, "
                                       "not a range");
        AffineExpr hi;
        if (ctrl.parseExpr(hi))
          return failure();
        access.exprs.push_back(hi);
        access.kinds.push_back(static_cast<int32_t>(AccessCoordKind::Range));
        return success();
      });
}

ParseResult
StatementParser::parseBarrierList(SmallVectorImpl<ParsedAccess> &barriers,
                                  bool required) {
  while (true) {
    SMLoc loc = parser.getCurrentLocation();
    if (failed(parser.parseOptionalGreater())) {
      if (required && barriers.empty())
        return parser.emitError(loc, "expected '>> @barrier[...]'");
      return success();
    }
    if (parser.parseGreater() || parseAccess(barriers.emplace_back()))
      return failure();
  }
}

ParseResult StatementParser::parseOptionalHome(OperationState &result,
                                               StringAttr name) {
  if (failed(parser.parseOptionalKeyword("home")))
    return success();
  ParsedAccess home;
  if (parseAccess(home))
    return failure();
  AccessAttr attr = buildAccess(home);
  if (!attr)
    return failure();
  result.addAttribute(name, attr);
  return success();
}

/// Parses one `(%i, box, offset)` or `(_, box, offset)` tiling operator after
/// its `(`.
static ParseResult parseTilingOp(OpAsmParser &parser,
                                 exogpu::ControlExprParser &ctrl,
                                 ParsedThreads::Op &op) {
  if (failed(parser.parseOptionalKeyword("_"))) {
    SMLoc loc = parser.getCurrentLocation();
    AffineExpr iter;
    if (ctrl.parseExpr(iter))
      return failure();
    auto dim = dyn_cast<AffineDimExpr>(iter);
    if (!dim)
      return parser.emitError(loc, "a tiling iterator is one control value "
                                   "or '_'");
    op.iter = dim.getPosition();
  }
  return failure(parser.parseComma() || parser.parseInteger(op.linearBox) ||
                 parser.parseComma() || parser.parseInteger(op.linearOffset) ||
                 parser.parseRParen());
}

ParseResult StatementParser::parseThreads(ParsedThreads &threads) {
  SMLoc loc = parser.getCurrentLocation();
  StringRef scope;
  if (parser.parseKeyword("threads") || parser.parseKeyword(&scope))
    return failure();
  std::optional<ExecScope> parsed = symbolizeExecScope(scope);
  if (!parsed)
    return parser.emitError(loc,
                            "expected 'threads cpu' or 'threads gpu[...]'");
  threads.scope = *parsed;
  if (threads.scope == ExecScope::cpu)
    return success();
  return parser.parseCommaSeparatedList(
      AsmParser::Delimiter::Square, [&]() -> ParseResult {
        ParsedThreads::Dim &dim = threads.dims.emplace_back();
        if (parser.parseInteger(dim.extent))
          return failure();
        while (succeeded(parser.parseOptionalLParen()))
          if (parseTilingOp(parser, ctrl, dim.ops.emplace_back()))
            return failure();
        return success();
      });
}

ParseResult StatementParser::parseLevel(VisibilityLevel &level) {
  SMLoc loc = parser.getCurrentLocation();
  StringRef keyword;
  if (parser.parseKeyword(&keyword))
    return failure();
  std::optional<VisibilityLevel> parsed = symbolizeVisibilityLevel(keyword);
  if (!parsed)
    return parser.emitError(loc)
           << "unknown visibility level '" << keyword
           << "' (expected invisible, atomic_only, unordered, "
              "temporally_ordered or fully_ordered)";
  level = *parsed;
  return success();
}

ParseResult StatementParser::parseNamedSet(StringRef keyword,
                                           QualTimelineSetAttr &set) {
  if (parser.parseKeyword(keyword) || parser.parseEqual())
    return failure();
  set = QualTimelineSetAttr::parseBody(parser);
  return success(set != nullptr);
}

AccessAttr StatementParser::buildAccess(const ParsedAccess &access) {
  return AccessAttr::getChecked(
      [&] { return parser.emitError(parser.getNameLoc()); },
      parser.getContext(), access.var, ArrayRef<int32_t>(access.kinds),
      ctrl.getMap(access.exprs));
}

ArrayAttr StatementParser::buildAccessArray(ArrayRef<ParsedAccess> accesses) {
  SmallVector<Attribute> attrs;
  for (const ParsedAccess &access : accesses) {
    AccessAttr attr = buildAccess(access);
    if (!attr)
      return {};
    attrs.push_back(attr);
  }
  return ArrayAttr::get(parser.getContext(), attrs);
}

ThreadMappingAttr StatementParser::buildThreads(const ParsedThreads &threads) {
  MLIRContext *ctx = parser.getContext();
  auto emitError = [&] { return parser.emitError(parser.getNameLoc()); };
  SmallVector<TilingDimAttr> dims;
  for (const ParsedThreads::Dim &dim : threads.dims) {
    SmallVector<TilingOpAttr> ops;
    for (const ParsedThreads::Op &op : dim.ops) {
      auto attr = TilingOpAttr::getChecked(emitError, ctx, op.iter,
                                           op.linearBox, op.linearOffset);
      if (!attr)
        return {};
      ops.push_back(attr);
    }
    auto attr = TilingDimAttr::getChecked(emitError, ctx, dim.extent,
                                          ArrayRef<TilingOpAttr>(ops));
    if (!attr)
      return {};
    dims.push_back(attr);
  }
  return ThreadMappingAttr::getChecked(emitError, ctx, threads.scope,
                                       ArrayRef<TilingDimAttr>(dims));
}

ParseResult StatementParser::finish(OperationState &result) {
  return failure(ctrl.resolve(result.operands) ||
                 parser.parseOptionalAttrDict(result.attributes));
}

//===----------------------------------------------------------------------===//
// Printing
//===----------------------------------------------------------------------===//

void mlir::exoam::printAccess(OpAsmPrinter &printer, AccessAttr access,
                              ValueRange ctrl) {
  printer.printSymbolName(access.getVar().getValue());
  printer << '[';
  unsigned next = 0;
  AffineMap coords = access.getCoords();
  llvm::interleaveComma(access.getKinds(), printer, [&](int32_t kind) {
    exogpu::printControlExpr(printer, coords.getResult(next++), ctrl);
    if (kind == static_cast<int32_t>(AccessCoordKind::Range)) {
      printer << " to ";
      exogpu::printControlExpr(printer, coords.getResult(next++), ctrl);
    }
  });
  printer << ']';
}

void mlir::exoam::printBarrierList(OpAsmPrinter &printer, ArrayAttr barriers,
                                   ValueRange ctrl) {
  for (Attribute barrier : barriers) {
    printer << " >> ";
    printAccess(printer, cast<AccessAttr>(barrier), ctrl);
  }
}

void mlir::exoam::printOptionalHome(OpAsmPrinter &printer, AccessAttr home,
                                    ValueRange ctrl) {
  if (!home)
    return;
  printer << " home ";
  printAccess(printer, home, ctrl);
}

void mlir::exoam::printThreads(OpAsmPrinter &printer, ThreadMappingAttr threads,
                               ValueRange ctrl) {
  printer << " threads " << stringifyExecScope(threads.getScope());
  if (threads.getScope() == ExecScope::cpu)
    return;
  printer << '[';
  llvm::interleaveComma(threads.getDims(), printer, [&](TilingDimAttr dim) {
    printer << dim.getExtent();
    for (TilingOpAttr op : dim.getOps()) {
      printer << " (";
      if (std::optional<int64_t> iter = op.getIter())
        printer.printOperand(ctrl[*iter]);
      else
        printer << '_';
      printer << ", " << op.getLinearBox() << ", " << op.getLinearOffset()
              << ')';
    }
  });
  printer << ']';
}

void mlir::exoam::printNamedSet(OpAsmPrinter &printer, StringRef keyword,
                                QualTimelineSetAttr set) {
  printer << ' ' << keyword << " = ";
  set.printBody(printer);
}
