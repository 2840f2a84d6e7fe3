//===- ControlOps.cpp - exogpu loops, guards and scopes ------------------===//
//
// Part of ExoGPU. `for`, `if`, `device_function` and `warps` (seeds/002
// Fig. 2, Sec. 3.4; guide "Loop Mode", "cuda_threads Loops", "Warp
// Specialization").
//
//===----------------------------------------------------------------------===//

#include "ExoGPU/Dialect/ExoGPU/IR/BodyParsing.h"
#include "ExoGPU/Dialect/ExoGPU/IR/ControlExpr.h"
#include "ExoGPU/Dialect/ExoGPU/IR/ExoGPUOps.h"
#include "ExoGPU/Dialect/ExoGPU/IR/Scope.h"
#include "StatementSyntax.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace mlir::exogpu;

#define GET_OP_CLASSES
#include "ExoGPU/Dialect/ExoGPU/IR/ControlOps.cpp.inc"

/// The largest CTA CUDA launches, and the largest (non-portable) cluster.
static constexpr int64_t kMaxThreadsPerBlock = 1024;
static constexpr int64_t kMaxClusterDim = 16;

//===----------------------------------------------------------------------===//
// ForOp
//===----------------------------------------------------------------------===//

std::optional<int64_t> ForOp::getConstantTripCount() {
  auto lo = dyn_cast<AffineConstantExpr>(getLowerBoundExpr());
  auto hi = dyn_cast<AffineConstantExpr>(getUpperBoundExpr());
  if (!lo || !hi)
    return std::nullopt;
  return std::max<int64_t>(0, hi.getValue() - lo.getValue());
}

ParseResult ForOp::parse(OpAsmParser &parser, OperationState &result) {
  Builder &b = parser.getBuilder();
  OpAsmParser::Argument iterator;
  StringRef modeName;
  SMLoc modeLoc;
  if (parser.parseArgument(iterator) || parser.parseKeyword("in") ||
      (modeLoc = parser.getCurrentLocation(), false) ||
      parser.parseKeyword(&modeName))
    return failure();
  std::optional<LoopMode> mode = symbolizeLoopMode(modeName);
  if (!mode)
    return parser.emitError(modeLoc)
           << "unknown loop mode '" << modeName
           << "' (expected seq, cuda_tasks or cuda_threads)";
  ControlExprParser ctrl(parser);
  AffineExpr lo, hi;
  if (parser.parseLParen() || ctrl.parseExpr(lo) || parser.parseComma() ||
      ctrl.parseExpr(hi))
    return failure();
  if (succeeded(parser.parseOptionalComma())) {
    if (parser.parseKeyword("unit") || parser.parseEqual())
      return failure();
    CollUnitAttr unit = CollUnitAttr::parseBody(parser);
    if (!unit)
      return failure();
    result.addAttribute(getUnitAttrName(result.name), unit);
  }
  if (parser.parseRParen())
    return failure();
  result.addAttribute(getModeAttrName(result.name),
                      LoopModeAttr::get(b.getContext(), *mode));
  result.addAttribute(getBoundsAttrName(result.name),
                      AffineMapAttr::get(ctrl.getMap({lo, hi})));
  if (ctrl.resolve(result.operands) ||
      parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();
  if (StringAttr name = getUserName(b.getContext(), iterator.ssaName.name))
    result.addAttribute(getIterNameAttrName(result.name), name);
  iterator.type = b.getIndexType();
  return parseStatementBody(parser, result, {iterator});
}

void ForOp::print(OpAsmPrinter &p) {
  p << ' ';
  p.printOperand(getIterator());
  p << " in " << stringifyLoopMode(getMode()) << '(';
  printControlExpr(p, getLowerBoundExpr(), getCtrl());
  p << ", ";
  printControlExpr(p, getUpperBoundExpr(), getCtrl());
  if (getUnit()) {
    p << ", unit = ";
    getUnitAttr().printBody(p);
  }
  p << ')';
  p.printOptionalAttrDictWithKeyword(
      (*this)->getAttrs(), {getModeAttrName(), getBoundsAttrName(),
                            getUnitAttrName(), getIterNameAttrName()});
  p << ' ';
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false);
}

void ForOp::getAsmBlockArgumentNames(Region &region,
                                     OpAsmSetValueNameFn setNameFn) {
  if (std::optional<StringRef> name = getIterName())
    setNameFn(getIterator(), *name);
}

/// Checks that `loop` is the single statement of its parent's body.
static bool isSingleChild(Operation *op) {
  Block *block = op->getBlock();
  return block && llvm::hasSingleElement(*block);
}

LogicalResult ForOp::verify() {
  if (getBody().getNumArguments() != 1 ||
      !getBody().getArgument(0).getType().isIndex())
    return emitOpError("body must have exactly one index argument, the "
                       "iterator");
  if (getBounds().getNumResults() != 2)
    return emitOpError("bounds must have two results (lo, hi)");
  if (failed(verifyControlMap(*this, getBounds(), getCtrl().size(),
                              "loop bounds")))
    return failure();

  bool cuda = isCudaScope(*this);
  switch (getMode()) {
  case LoopMode::seq:
    if (getUnit())
      return emitOpError("only cuda_threads loops take a collective unit");
    return success();
  case LoopMode::cuda_tasks: {
    if (getUnit())
      return emitOpError("only cuda_threads loops take a collective unit");
    Operation *parent = (*this)->getParentOp();
    auto parentLoop = dyn_cast_or_null<ForOp>(parent);
    bool inNest = isa_and_nonnull<DeviceFunctionOp>(parent) ||
                  (parentLoop && parentLoop.getMode() == LoopMode::cuda_tasks);
    if (!inNest)
      return emitOpError("cuda_tasks loops may only form the single child "
                         "nest of a device_function (Sec. 3.4)");
    if (!isSingleChild(*this))
      return emitOpError("a cuda_tasks loop must be the only statement of "
                         "its parent (the device_function body is a single "
                         "nest of cuda_tasks loops)");
    return success();
  }
  case LoopMode::cuda_threads: {
    if (!cuda)
      return emitOpError("only seq loops are allowed at CPU scope");
    if (!getUnit())
      return emitOpError("cuda_threads loops need a collective unit "
                         "(unit = ...)");
    if (!isInsideTasks(*this))
      return emitOpError("cuda_threads loops must be inside the cuda_tasks "
                         "nest");
    auto lo = dyn_cast<AffineConstantExpr>(getLowerBoundExpr());
    if (!lo || lo.getValue() != 0)
      return emitOpError("cuda_threads loops must have lo = 0");
    auto hi = dyn_cast<AffineConstantExpr>(getUpperBoundExpr());
    if (!hi || hi.getValue() <= 0)
      return emitOpError("cuda_threads loops must have a positive constant "
                         "hi");
    return success();
  }
  }
  return success();
}

//===----------------------------------------------------------------------===//
// IfOp
//===----------------------------------------------------------------------===//

ParseResult IfOp::parse(OpAsmParser &parser, OperationState &result) {
  ControlExprParser ctrl(parser);
  auto cond = ctrl.parseConditionAttr();
  if (!cond)
    return failure();
  result.addAttribute(getConditionAttrName(result.name), cond);
  if (ctrl.resolve(result.operands) ||
      parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();
  return parseStatementBody(parser, result);
}

void IfOp::print(OpAsmPrinter &p) {
  p << ' ';
  printCondition(p, getCondition(), getCtrl());
  p.printOptionalAttrDictWithKeyword((*this)->getAttrs(),
                                     {getConditionAttrName()});
  p << ' ';
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false);
}

LogicalResult IfOp::verify() {
  ConditionAttr cond = getCondition();
  if (failed(verifyControlMap(*this, cond.getMap(), getCtrl().size(),
                              "condition")))
    return failure();
  // Boolean atoms name i1 operands; relations use index operands only.
  unsigned next = 0;
  AffineMap map = cond.getMap();
  for (int64_t raw : cond.getAtoms()) {
    auto kind = static_cast<ConditionAtomKind>(raw);
    if (kind == ConditionAtomKind::Bool) {
      unsigned pos = cast<AffineDimExpr>(map.getResult(next++)).getPosition();
      if (!getCtrl()[pos].getType().isInteger(1))
        return emitOpError("a boolean condition atom must be a bool value");
      continue;
    }
    if (kind >= ConditionAtomKind::Bool)
      continue;
    for (int i = 0; i < 2; ++i) {
      bool usesBool = false;
      map.getResult(next++).walk([&](AffineExpr e) {
        if (auto d = dyn_cast<AffineDimExpr>(e))
          usesBool |= getCtrl()[d.getPosition()].getType().isInteger(1);
      });
      if (usesBool)
        return emitOpError("relations compare integer control expressions; "
                           "a bool value cannot be used in arithmetic");
    }
  }
  if (!getBody().args_empty())
    return emitOpError("body must not have arguments");
  return success();
}

//===----------------------------------------------------------------------===//
// DeviceFunctionOp
//===----------------------------------------------------------------------===//

int64_t DeviceFunctionOp::getThreadsPerBlock() {
  if (std::optional<int64_t> blockDim = getBlockDim())
    return *blockDim;
  int64_t warps = 0;
  if (ArrayAttr config = getWarpConfigAttr())
    for (Attribute a : config)
      warps += cast<WarpGroupAttr>(a).getCount();
  return 32 * warps;
}

WarpGroupAttr DeviceFunctionOp::lookupWarpGroup(StringRef name) {
  if (ArrayAttr config = getWarpConfigAttr())
    for (Attribute a : config)
      if (cast<WarpGroupAttr>(a).getName() == name)
        return cast<WarpGroupAttr>(a);
  return {};
}

int64_t DeviceFunctionOp::getFirstWarpOf(StringRef name) {
  int64_t first = 0;
  if (ArrayAttr config = getWarpConfigAttr())
    for (Attribute a : config) {
      auto group = cast<WarpGroupAttr>(a);
      if (group.getName() == name)
        return first;
      first += group.getCount();
    }
  return -1;
}

ParseResult DeviceFunctionOp::parse(OpAsmParser &parser,
                                    OperationState &result) {
  Builder &b = parser.getBuilder();
  int64_t clusterDim = 1;
  auto parseField = [&]() -> ParseResult {
    SMLoc loc = parser.getCurrentLocation();
    StringRef key;
    if (parser.parseKeyword(&key) || parser.parseEqual())
      return failure();
    int64_t value;
    if (key == "clusterDim")
      return parser.parseInteger(clusterDim);
    if (key == "blockDim") {
      if (parser.parseInteger(value))
        return failure();
      result.addAttribute(getBlockDimAttrName(result.name),
                          b.getI64IntegerAttr(value));
      return success();
    }
    if (key == "warps") {
      SmallVector<Attribute> groups;
      if (parser.parseCommaSeparatedList(
              AsmParser::Delimiter::Square, [&]() -> ParseResult {
                SMLoc groupLoc = parser.getCurrentLocation();
                std::string name;
                int64_t count, dec, inc;
                if (parser.parseString(&name) || parser.parseEqual() ||
                    parser.parseLParen() || parser.parseInteger(count) ||
                    parser.parseComma() || parser.parseInteger(dec) ||
                    parser.parseComma() || parser.parseInteger(inc) ||
                    parser.parseRParen())
                  return failure();
                auto group = WarpGroupAttr::getChecked(
                    [&] { return parser.emitError(groupLoc); },
                    parser.getContext(), StringRef(name), count, dec, inc);
                if (!group)
                  return failure();
                groups.push_back(group);
                return success();
              }))
        return failure();
      result.addAttribute(getWarpConfigAttrName(result.name),
                          b.getArrayAttr(groups));
      return success();
    }
    return parser.emitError(loc) << "unknown device_function parameter '" << key
                                 << "' (expected clusterDim, blockDim or "
                                    "warps)";
  };
  if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Paren, parseField))
    return failure();
  result.addAttribute(getClusterDimAttrName(result.name),
                      b.getI64IntegerAttr(clusterDim));
  if (parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();
  return parseStatementBody(parser, result);
}

void DeviceFunctionOp::print(OpAsmPrinter &p) {
  SmallVector<std::function<void()>> fields;
  if (getClusterDim() != 1)
    fields.push_back([&] { p << "clusterDim = " << getClusterDim(); });
  if (std::optional<int64_t> blockDim = getBlockDim())
    fields.push_back([&, blockDim] { p << "blockDim = " << *blockDim; });
  if (ArrayAttr config = getWarpConfigAttr())
    fields.push_back([&, config] {
      p << "warps = [";
      llvm::interleaveComma(config, p, [&](Attribute a) {
        auto group = cast<WarpGroupAttr>(a);
        p << '"' << group.getName() << "\" = (" << group.getCount() << ", "
          << group.getRegDec() << ", " << group.getRegInc() << ')';
      });
      p << ']';
    });
  p << '(';
  llvm::interleaveComma(fields, p, [](auto &f) { f(); });
  p << ')';
  p.printOptionalAttrDictWithKeyword(
      (*this)->getAttrs(), {getClusterDimAttrName(), getBlockDimAttrName(),
                            getWarpConfigAttrName()});
  p << ' ';
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false);
}

LogicalResult DeviceFunctionOp::verify() {
  if (isCudaScope(*this))
    return emitOpError("device functions cannot be nested");
  bool hasBlockDim = getBlockDim().has_value();
  bool hasWarps = static_cast<bool>(getWarpConfigAttr());
  if (hasBlockDim == hasWarps)
    return emitOpError("needs exactly one of blockDim and a warp config");
  if (getClusterDim() > kMaxClusterDim)
    return emitOpError() << "clusterDim must be at most " << kMaxClusterDim
                         << ", got " << getClusterDim();
  if (hasWarps) {
    llvm::StringSet<> names;
    for (Attribute a : getWarpConfigAttr())
      if (!names.insert(cast<WarpGroupAttr>(a).getName()).second)
        return emitOpError()
               << "warp group name '" << cast<WarpGroupAttr>(a).getName()
               << "' is used twice";
  }
  int64_t threads = getThreadsPerBlock();
  if (threads < 1 || threads > kMaxThreadsPerBlock)
    return emitOpError() << "blockDim must be in [1, " << kMaxThreadsPerBlock
                         << "], got " << threads;
  if (!getBody().args_empty())
    return emitOpError("body must not have arguments");
  return success();
}

LogicalResult DeviceFunctionOp::verifyRegions() {
  // (After the body's ops are verified: a loop there has its mode.)
  Block &body = getBody().front();
  auto tasks = body.empty() ? ForOp() : dyn_cast<ForOp>(body.front());
  if (!llvm::hasSingleElement(body) || !tasks ||
      tasks.getMode() != LoopMode::cuda_tasks)
    return emitOpError("body must be a single nest of cuda_tasks loops "
                       "(Sec. 3.4)");
  return success();
}

//===----------------------------------------------------------------------===//
// WarpsOp
//===----------------------------------------------------------------------===//

ParseResult WarpsOp::parse(OpAsmParser &parser, OperationState &result) {
  Builder &b = parser.getBuilder();
  std::string name;
  if (succeeded(parser.parseOptionalString(&name)))
    result.addAttribute(getWarpNameAttrName(result.name),
                        b.getStringAttr(name));
  if (succeeded(parser.parseOptionalLParen())) {
    int64_t lo, hi;
    if (parser.parseInteger(lo) || parser.parseComma() ||
        parser.parseInteger(hi) || parser.parseRParen())
      return failure();
    result.addAttribute(getLoAttrName(result.name), b.getI64IntegerAttr(lo));
    result.addAttribute(getHiAttrName(result.name), b.getI64IntegerAttr(hi));
  }
  if (parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();
  return parseStatementBody(parser, result);
}

void WarpsOp::print(OpAsmPrinter &p) {
  if (std::optional<StringRef> name = getWarpName())
    p << " \"" << *name << '"';
  if (getLo() && getHi())
    p << '(' << *getLo() << ", " << *getHi() << ')';
  p.printOptionalAttrDictWithKeyword(
      (*this)->getAttrs(),
      {getWarpNameAttrName(), getLoAttrName(), getHiAttrName()});
  p << ' ';
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false);
}

LogicalResult WarpsOp::verify() {
  if (getLo().has_value() != getHi().has_value())
    return emitOpError("needs both lo and hi, or neither");
  if (!getWarpName() && !getLo())
    return emitOpError("needs a warp name, a warp range, or both");
  if (getLo() && (*getLo() < 0 || *getLo() >= *getHi()))
    return emitOpError() << "warp range [" << *getLo() << ", " << *getHi()
                         << ") must satisfy 0 <= lo < hi";
  DeviceFunctionOp device = getEnclosingDeviceFunction(*this);
  if (!device || !isInsideTasks(*this))
    return emitOpError("warps blocks are only allowed inside the cuda_tasks "
                       "nest of a device_function");
  if (!getBody().args_empty())
    return emitOpError("body must not have arguments");
  if (std::optional<StringRef> name = getWarpName()) {
    WarpGroupAttr group = device.lookupWarpGroup(*name);
    if (!group)
      return emitOpError() << "names warp group '" << *name
                           << "', which the device_function's warp config "
                              "does not define";
    if (getHi() && *getHi() > group.getCount())
      return emitOpError() << "warp range [" << *getLo() << ", " << *getHi()
                           << ") exceeds the " << group.getCount()
                           << " warp(s) of group '" << *name << "'";
    for (Operation *p = (*this)->getParentOp(); p != device;
         p = p->getParentOp())
      if (auto outer = dyn_cast<WarpsOp>(p); outer && outer.getWarpName())
        return emitOpError("named warps blocks cannot be nested in another "
                           "named warps block");
    return success();
  }
  // Numbered blocks under a warp config must be nested in a named block
  // (guide, "Warp Specialization", footnote).
  if (device.getWarpConfigAttr()) {
    bool named = false;
    for (Operation *p = (*this)->getParentOp(); p != device;
         p = p->getParentOp())
      if (auto outer = dyn_cast<WarpsOp>(p); outer && outer.getWarpName())
        named = true;
    if (!named)
      return emitOpError("numbered warps blocks in a device_function with a "
                         "warp config must be nested in a named warps block");
  }
  return success();
}
