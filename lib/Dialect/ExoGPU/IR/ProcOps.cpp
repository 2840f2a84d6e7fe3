//===- ProcOps.cpp - exogpu procs, instructions and calls ----------------===//
//
// Part of ExoGPU. `Proc`, `Instr` and calls (seeds/002 Fig. 2, Sec. 3.3,
// 3.4 "Proc & Instruction Calls").
//
//===----------------------------------------------------------------------===//

#include "ExoGPU/Dialect/ExoGPU/IR/BodyParsing.h"
#include "ExoGPU/Dialect/ExoGPU/IR/ControlExpr.h"
#include "ExoGPU/Dialect/ExoGPU/IR/CudaTemplate.h"
#include "ExoGPU/Dialect/ExoGPU/IR/ExoGPUOps.h"
#include "ExoGPU/Dialect/ExoGPU/IR/Libraries.h"
#include "ExoGPU/Dialect/ExoGPU/IR/ParamAccess.h"
#include "ExoGPU/Dialect/ExoGPU/IR/Scope.h"
#include "StatementSyntax.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;
using namespace mlir::exogpu;

#define GET_OP_CLASSES
#include "ExoGPU/Dialect/ExoGPU/IR/ProcOps.cpp.inc"

//===----------------------------------------------------------------------===//
// Signatures shared by procs and instructions
//===----------------------------------------------------------------------===//

namespace {
/// A parsed signature: block arguments, kinds, extents and annotations.
struct Signature {
  SmallVector<OpAsmParser::Argument> args;
  SmallVector<int32_t> kinds;
  SmallVector<SmallVector<AffineExpr>> extents;
  SmallVector<Attribute> specs;
};
} // namespace

/// Parses `(%M: size, %x: f32[%M] @Mem {annotations}, ...)`. Annotations in
/// braces are only accepted with `withSpecs` (instructions).
static ParseResult parseSignature(OpAsmParser &parser, Signature &sig,
                                  bool withSpecs) {
  MLIRContext *ctx = parser.getContext();
  Builder b(ctx);
  return parser.parseCommaSeparatedList(
      AsmParser::Delimiter::Paren, [&]() -> ParseResult {
        OpAsmParser::Argument arg;
        if (parser.parseArgument(arg) || parser.parseColon())
          return failure();
        SMLoc loc = parser.getCurrentLocation();
        SmallVector<AffineExpr> extents;
        ParamKind kind = ParamKind::data;
        if (succeeded(parser.parseOptionalKeyword("size"))) {
          kind = ParamKind::size;
          arg.type = b.getIndexType();
        } else if (succeeded(parser.parseOptionalKeyword("index"))) {
          kind = ParamKind::index;
          arg.type = b.getIndexType();
        } else if (succeeded(parser.parseOptionalKeyword("bool"))) {
          kind = ParamKind::boolean;
          arg.type = b.getI1Type();
        } else if (succeeded(parser.parseOptionalKeyword("window"))) {
          // A special window parameter (Fig. 14): a static box.
          auto window = parseCompactWindowBody(parser);
          if (!window)
            return failure();
          if (!window.getSpecial())
            return parser.emitError(loc, "only special windows "
                                         "(@Sm90_tensorMap) are window "
                                         "parameters; use a tensor");
          for (int64_t d : window.getShape())
            extents.push_back(getAffineConstantExpr(d, ctx));
          arg.type = window;
        } else {
          Type elementType;
          ControlExprParser ctrl(parser, sig.args);
          if (parser.parseType(elementType) ||
              parser.parseCommaSeparatedList(
                  AsmParser::Delimiter::OptionalSquare,
                  [&]() { return ctrl.parseExpr(extents.emplace_back()); }))
            return failure();
          MemoryAttr memory = MemoryAttr::parseBody(parser);
          if (!memory)
            return failure();
          SmallVector<int64_t> shape;
          for (AffineExpr e : extents) {
            auto c = dyn_cast<AffineConstantExpr>(e);
            shape.push_back(c ? c.getValue() : ShapedType::kDynamic);
          }
          arg.type = DataTensorType::getChecked(
              [&] { return parser.emitError(loc); }, ctx, elementType,
              ArrayRef<int64_t>(shape), memory);
          if (!arg.type)
            return failure();
        }
        Attribute spec;
        if (withSpecs) {
          spec = ArgSpecAttr::get(ctx, false, false, {}, std::nullopt, {}, {},
                                  false);
          if (succeeded(parser.parseOptionalLBrace())) {
            if (kind != ParamKind::data)
              return parser.emitError(loc, "only data parameters carry "
                                           "instruction annotations");
            if (!(spec = ArgSpecAttr::parseBody(parser)) ||
                parser.parseRBrace())
              return failure();
          }
          sig.specs.push_back(spec);
        }
        sig.args.push_back(arg);
        sig.kinds.push_back(static_cast<int32_t>(kind));
        sig.extents.push_back(std::move(extents));
        return success();
      });
}

/// Stores the parsed signature's kinds and extents on `result`.
static void addSignatureAttrs(OpAsmParser &parser, OperationState &result,
                              const Signature &sig, StringRef kindsName,
                              StringRef extentsName) {
  Builder &b = parser.getBuilder();
  SmallVector<Attribute> extents;
  for (const auto &e : sig.extents)
    extents.push_back(AffineMapAttr::get(
        AffineMap::get(sig.args.size(), 0, e, b.getContext())));
  SmallVector<Attribute> names;
  for (const OpAsmParser::Argument &arg : sig.args) {
    StringAttr name = getUserName(b.getContext(), arg.ssaName.name);
    names.push_back(name ? name : b.getStringAttr(""));
  }
  result.addAttribute(kindsName, b.getDenseI32ArrayAttr(sig.kinds));
  result.addAttribute(extentsName, b.getArrayAttr(extents));
  result.addAttribute("argNames", b.getArrayAttr(names));
}

/// Names block arguments after the parameter names they were parsed with.
static void setParamNames(Block &body, ArrayAttr names,
                          OpAsmSetValueNameFn setNameFn) {
  for (auto [arg, name] : llvm::zip(body.getArguments(), names))
    if (auto str = dyn_cast<StringAttr>(name); str && !str.empty())
      setNameFn(arg, str.getValue());
}

void ProcOp::getAsmBlockArgumentNames(Region &region,
                                      OpAsmSetValueNameFn setNameFn) {
  setParamNames(getBody().front(), getArgNames(), setNameFn);
}

void InstrOp::getAsmBlockArgumentNames(Region &region,
                                       OpAsmSetValueNameFn setNameFn) {
  setParamNames(getBody().front(), getArgNames(), setNameFn);
}

/// Prints the parameter list; `specs` (instructions) may be empty.
static void printSignature(OpAsmPrinter &p, Block &body,
                           ArrayRef<int32_t> kinds, ArrayAttr extents,
                           ArrayAttr specs) {
  p << '(';
  for (auto [i, arg] : llvm::enumerate(body.getArguments())) {
    if (i)
      p << ", ";
    p.printOperand(arg);
    p << ": ";
    auto kind = static_cast<ParamKind>(kinds[i]);
    if (kind != ParamKind::data) {
      p << stringifyParamKind(kind);
      continue;
    }
    if (auto window = dyn_cast<WindowType>(arg.getType())) {
      printCompactType(p, window);
    } else {
      auto type = cast<DataTensorType>(arg.getType());
      p << type.getElementType();
      AffineMap map = cast<AffineMapAttr>(extents[i]).getValue();
      if (map.getNumResults()) {
        p << '[';
        llvm::interleaveComma(map.getResults(), p, [&](AffineExpr e) {
          printControlExpr(p, e, body.getArguments());
        });
        p << ']';
      }
      p << ' ';
      type.getMemory().printBody(p);
    }
    if (specs) {
      auto spec = cast<ArgSpecAttr>(specs[i]);
      if (!spec.isDefault()) {
        p << " {";
        spec.printBody(p);
        p << '}';
      }
    }
  }
  p << ')';
}

/// Only exogpu statements and expressions make up a proc or instruction
/// body (Fig. 2): reports the first operation of another dialect.
static LogicalResult verifyBodyDialect(Operation *callable) {
  Dialect *exogpu = callable->getDialect();
  WalkResult result = callable->walk([&](Operation *op) {
    if (op == callable || op->getDialect() == exogpu)
      return WalkResult::advance();
    op->emitOpError("is not an exogpu statement; proc and instruction "
                    "bodies hold only exogpu operations");
    return WalkResult::interrupt();
  });
  return failure(result.wasInterrupted());
}

/// Verifies a signature: one kind and extent map per parameter, argument
/// types consistent with kinds, extents over size parameters only.
template <typename CallableT>
static LogicalResult verifySignature(CallableT op) {
  Block &body = op.getBody().front();
  unsigned n = body.getNumArguments();
  if (op.getArgKinds().size() != n || op.getArgExtents().size() != n ||
      op.getArgNames().size() != n)
    return op.emitOpError("needs one kind, extent map and name per "
                          "parameter");
  for (unsigned i = 0; i < n; ++i) {
    int32_t raw = op.getArgKinds()[i];
    if (!symbolizeParamKind(raw) ||
        raw == static_cast<int32_t>(ParamKind::barrier))
      return op.emitOpError()
             << "parameter " << i << " has invalid kind " << raw;
    auto kind = static_cast<ParamKind>(raw);
    Type type = body.getArgument(i).getType();
    auto mapAttr = dyn_cast<AffineMapAttr>(op.getArgExtents()[i]);
    if (!mapAttr)
      return op.emitOpError()
             << "parameter " << i << " extents must be an affine map";
    AffineMap map = mapAttr.getValue();
    if (failed(verifyControlMap(op, map, n, "parameter extents")))
      return failure();
    if (kind != ParamKind::data) {
      bool ok = kind == ParamKind::boolean ? type.isInteger(1) : type.isIndex();
      if (!ok || map.getNumResults())
        return op.emitOpError() << "control parameter " << i << " must have a "
                                << (kind == ParamKind::boolean ? "i1" : "index")
                                << " type and no extents";
      continue;
    }
    auto tensor = dyn_cast<BufferTypeInterface>(type);
    auto window = dyn_cast<WindowType>(type);
    if (!tensor || tensor.getRank() != map.getNumResults() ||
        (window && !window.getSpecial()))
      return op.emitOpError() << "data parameter " << i
                              << " must be a tensor (or a special window) "
                                 "with one extent per dimension";
    for (auto [dim, expr] : llvm::zip(tensor.getShape(), map.getResults())) {
      auto c = dyn_cast<AffineConstantExpr>(expr);
      if ((c && dim != c.getValue()) || (!c && !ShapedType::isDynamic(dim)))
        return op.emitOpError()
               << "data parameter " << i << " type does not match its extents";
      bool onlySizes = true;
      expr.walk([&](AffineExpr e) {
        if (auto d = dyn_cast<AffineDimExpr>(e))
          onlySizes &= op.getArgKinds()[d.getPosition()] ==
                       static_cast<int32_t>(ParamKind::size);
      });
      if (!onlySizes)
        return op.emitOpError() << "extents of data parameter " << i
                                << " may only use size parameters";
    }
  }
  return success();
}

//===----------------------------------------------------------------------===//
// ProcOp
//===----------------------------------------------------------------------===//

ParseResult ProcOp::parse(OpAsmParser &parser, OperationState &result) {
  StringAttr name;
  Signature sig;
  if (parser.parseSymbolName(name, getSymNameAttrName(result.name),
                             result.attributes) ||
      parseSignature(parser, sig, /*withSpecs=*/false))
    return failure();
  addSignatureAttrs(parser, result, sig, getArgKindsAttrName(result.name),
                    getArgExtentsAttrName(result.name));
  if (succeeded(parser.parseOptionalKeyword("requires"))) {
    ControlExprParser ctrl(parser, sig.args);
    auto cond = ctrl.parseConditionAttr();
    if (!cond)
      return failure();
    result.addAttribute(getPreconditionsAttrName(result.name), cond);
  }
  if (parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();
  return parseStatementBody(parser, result, sig.args);
}

void ProcOp::print(OpAsmPrinter &p) {
  p << ' ';
  p.printSymbolName(getSymName());
  Block &body = getBody().front();
  printSignature(p, body, getArgKinds(), getArgExtents(), {});
  if (ConditionAttr pre = getPreconditionsAttr()) {
    p << " requires ";
    printCondition(p, pre, body.getArguments());
  }
  p.printOptionalAttrDictWithKeyword(
      (*this)->getAttrs(),
      {getSymNameAttrName(), getArgKindsAttrName(), getArgExtentsAttrName(),
       getArgNamesAttrName(), getPreconditionsAttrName()});
  p << ' ';
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false);
}

LogicalResult ProcOp::verify() {
  if (failed(verifySignature(*this)))
    return failure();
  if (ConditionAttr pre = getPreconditionsAttr()) {
    if (failed(verifyControlMap(*this, pre.getMap(), getNumParams(),
                                "preconditions")))
      return failure();
    bool onlyControl = true;
    for (AffineExpr e : pre.getMap().getResults())
      e.walk([&](AffineExpr sub) {
        if (auto d = dyn_cast<AffineDimExpr>(sub))
          onlyControl &= getParamKind(d.getPosition()) != ParamKind::data;
      });
    if (!onlyControl)
      return emitOpError("preconditions may only use control parameters");
  }
  return success();
}

// The body's statements verified first (a parent verifier that looks at its
// children runs after them).
LogicalResult ProcOp::verifyRegions() { return verifyBodyDialect(*this); }

//===----------------------------------------------------------------------===//
// InstrOp
//===----------------------------------------------------------------------===//

ParseResult InstrOp::parse(OpAsmParser &parser, OperationState &result) {
  MLIRContext *ctx = parser.getContext();
  Builder &b = parser.getBuilder();
  StringAttr name;
  Signature sig;
  if (parser.parseSymbolName(name, getSymNameAttrName(result.name),
                             result.attributes) ||
      parseSignature(parser, sig, /*withSpecs=*/true))
    return failure();
  addSignatureAttrs(parser, result, sig, getArgKindsAttrName(result.name),
                    getArgExtentsAttrName(result.name));
  result.addAttribute(getArgSpecsAttrName(result.name),
                      b.getArrayAttr(sig.specs));
  bool hasTarget = false, hasUnit = false;
  SMLoc propsLoc = parser.getCurrentLocation();
  auto parseProperty = [&]() -> ParseResult {
    SMLoc loc = parser.getCurrentLocation();
    StringRef key;
    if (parser.parseKeyword(&key) || parser.parseEqual())
      return failure();
    if (key == "target") {
      StringRef value;
      if (parser.parseKeyword(&value))
        return failure();
      std::optional<InstrTarget> target = symbolizeInstrTarget(value);
      if (!target)
        return parser.emitError(loc, "target must be cpu or cuda");
      hasTarget = true;
      result.addAttribute(getTargetAttrName(result.name),
                          InstrTargetAttr::get(ctx, *target));
      return success();
    }
    if (key == "unit") {
      CollUnitAttr unit = CollUnitAttr::parseBody(parser);
      if (!unit)
        return failure();
      hasUnit = true;
      result.addAttribute(getUnitAttrName(result.name), unit);
      return success();
    }
    if (key == "barrier") {
      StringAttr mech;
      if (parser.parseSymbolName(mech))
        return failure();
      std::optional<BarrierKind> kind = symbolizeBarrierKind(mech.getValue());
      if (!kind)
        return parser.emitError(loc)
               << "unknown barrier mechanism '" << mech.getValue() << "'";
      result.addAttribute(getBarrierAttrName(result.name),
                          BarrierKindAttr::get(ctx, *kind));
      return success();
    }
    if (key == "barrier_dist") {
      SmallVector<Attribute> units;
      if (parser.parseCommaSeparatedList(
              AsmParser::Delimiter::Square, [&]() -> ParseResult {
                CollUnitAttr unit = CollUnitAttr::parseBody(parser);
                if (!unit)
                  return failure();
                units.push_back(unit);
                return success();
              }))
        return failure();
      result.addAttribute(getBarrierDistAttrName(result.name),
                          b.getArrayAttr(units));
      return success();
    }
    if (key == "cuda") {
      std::string code;
      if (parser.parseString(&code))
        return failure();
      result.addAttribute(getCudaAttrName(result.name), b.getStringAttr(code));
      return success();
    }
    return parser.emitError(loc)
           << "unknown instruction property '" << key
           << "' (expected target, unit, barrier, barrier_dist or cuda)";
  };
  if (parser.parseCommaSeparatedList(parseProperty))
    return failure();
  if (!hasTarget || !hasUnit)
    return parser.emitError(propsLoc, "an instruction needs a target and a "
                                      "collective unit");
  if (parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();
  return parseStatementBody(parser, result, sig.args);
}

void InstrOp::print(OpAsmPrinter &p) {
  p << ' ';
  p.printSymbolName(getSymName());
  Block &body = getBody().front();
  printSignature(p, body, getArgKinds(), getArgExtents(), getArgSpecs());
  p.printNewline();
  p << "    target = " << stringifyInstrTarget(getTarget()) << ", unit = ";
  getUnitAttr().printBody(p);
  if (std::optional<BarrierKind> kind = getBarrier())
    p << ", barrier = @" << stringifyBarrierKind(*kind);
  if (ArrayAttr dist = getBarrierDistAttr()) {
    p << ", barrier_dist = [";
    llvm::interleaveComma(
        dist, p, [&](Attribute a) { cast<CollUnitAttr>(a).printBody(p); });
    p << ']';
  }
  if (std::optional<StringRef> code = getCuda()) {
    p << ", cuda = ";
    p.printString(*code);
  }
  p.printOptionalAttrDictWithKeyword(
      (*this)->getAttrs(),
      {getSymNameAttrName(), getArgKindsAttrName(), getArgExtentsAttrName(),
       getArgNamesAttrName(), getArgSpecsAttrName(), getTargetAttrName(),
       getUnitAttrName(), getBarrierAttrName(), getBarrierDistAttrName(),
       getCudaAttrName()});
  p << ' ';
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false);
}

QualTimeline InstrOp::getParamInitTimeline(unsigned i) {
  if (std::optional<QualTimeline> init = getParamSpec(i).getInit())
    return *init;
  if (getTarget() == InstrTarget::cpu)
    return QualTimeline::cpu_in_order_qual;
  if (cast<BufferTypeInterface>(getParam(i).getType()).getMemory().isRmem())
    return QualTimeline::cuda_in_order_rmem_qual;
  return QualTimeline::cuda_in_order_ram_qual;
}

/// Whether the accesses of a parameter in `memory`, recorded on `timeline`,
/// may be `convergent` (Fig. 7, t = true: one thread's synchronization
/// stands for the unit's). Only where the hardware makes one access for the
/// unit: registers, which no other thread reaches, whatever timeline they
/// are recorded on, and the collective async-proxy operations (wgmma's
/// shared-memory operands, a TMA copy), whatever memory they reach. Loads,
/// stores and cp.async copies to memory threads share are made by each
/// thread on its own, and so is an access to shared or global memory that
/// claims a register timeline: the rule looks at both, so no `init`
/// spelling makes a shared-memory store convergent.
static bool mayBeConvergent(QualTimeline timeline, MemoryAttr memory) {
  if (memory.isRmem())
    return true;
  switch (timeline) {
  case QualTimeline::wgmma_async_smem_qual:
  case QualTimeline::tma_to_smem_async_qual:
  case QualTimeline::tma_to_gmem_async_qual:
    return true;
  default:
    return false;
  }
}

LogicalResult InstrOp::verify() {
  if (failed(verifySignature(*this)))
    return failure();
  if (getArgSpecs().size() != getNumParams())
    return emitOpError("needs one annotation per parameter");
  for (unsigned i = 0, e = getNumParams(); i < e; ++i) {
    ArgSpecAttr spec = getParamSpec(i);
    if (getParamKind(i) != ParamKind::data) {
      if (!spec.isDefault())
        return emitOpError() << "control parameter " << i
                             << " cannot carry instruction annotations";
      continue;
    }
    auto type = cast<BufferTypeInterface>(getParam(i).getType());
    if (spec.getDist().size() > type.getRank())
      return emitOpError() << "parameter " << i << " distributes "
                           << spec.getDist().size()
                           << " dimension(s) but has rank " << type.getRank();
    QualTimeline init = getParamInitTimeline(i);
    if (spec.getConvergent() && !mayBeConvergent(init, type.getMemory()))
      return emitOpError()
             << "parameter " << i << " is convergent but its accesses ("
             << stringifyQualTimeline(init) << " on "
             << stringifyMemoryKind(type.getMemory().getKind())
             << ") are made by each thread on its own; only registers and "
                "collective async-proxy accesses (wgmma, TMA) may be "
                "convergent";
    if (spec.getKernelReadOnly()) {
      MemoryAttr memory = type.getMemory();
      if (!memory.isCpuAllocated() || memory.isHost())
        return emitOpError()
               << "parameter " << i << " is kernel_read_only but lives in "
               << stringifyMemoryKind(memory.getKind())
               << "; only global memory is read through the non-coherent "
                  "path";
    }
  }
  if (getBarrierDistAttr() && !getBarrier())
    return emitOpError("barrier_dist needs a barrier mechanism");
  if (getBarrier() && *getBarrier() == BarrierKind::CudaDeviceBarrier)
    return emitOpError("CudaDeviceBarrier is abstract (Fig. 13)");
  if (getTarget() == InstrTarget::cpu &&
      getUnit().getKind() != CollUnitKind::standalone_thread)
    return emitOpError("CPU instructions run as a standalone_thread");
  std::string templateError;
  if (failed(verifyCudaTemplate(*this, templateError)))
    return emitOpError("CUDA template: ") << templateError;
  return success();
}

LogicalResult InstrOp::verifyRegions() {
  if (failed(verifyBodyDialect(*this)))
    return failure();
  // The body, verified now, says which parameters it writes.
  SmallVector<ParamAccessMode> modes = getParamAccessModes(*this);
  for (unsigned i = 0, e = getNumParams(); i < e; ++i)
    if (getParamSpec(i).getKernelReadOnly() &&
        modes[i] != ParamAccessMode::ReadOnly)
      return emitOpError()
             << "parameter " << i
             << " is kernel_read_only but the instruction's body writes it";
  return success();
}

//===----------------------------------------------------------------------===//
// CallOp
//===----------------------------------------------------------------------===//

ParseResult CallOp::parse(OpAsmParser &parser, OperationState &result) {
  Builder &b = parser.getBuilder();
  FlatSymbolRefAttr callee;
  if (parser.parseAttribute(callee, getCalleeAttrName(result.name),
                            result.attributes))
    return failure();
  ControlExprParser ctrl(parser);
  SmallVector<AffineExpr> ctrlArgs;
  if (parser.parseCommaSeparatedList(
          AsmParser::Delimiter::OptionalSquare,
          [&]() { return ctrl.parseExpr(ctrlArgs.emplace_back()); }))
    return failure();
  BufferNameList names;
  WindowCoords coords;
  SmallVector<int32_t> counts;
  if (parser.parseCommaSeparatedList(
          AsmParser::Delimiter::Paren, [&]() -> ParseResult {
            return parseAccess(parser, ctrl, names, coords, counts,
                               /*pointsOnly=*/false);
          }))
    return failure();
  unsigned numData = names.getNumUses();
  bool hasBarrier = succeeded(parser.parseOptionalGreater());
  if (hasBarrier &&
      (parser.parseGreater() ||
       parseAccess(parser, ctrl, names, coords, counts, /*pointsOnly=*/false)))
    return failure();
  if (parser.parseOptionalAttrDict(result.attributes) ||
      names.parseTypes(parser))
    return failure();
  SmallVector<Value> buffers, ctrlValues;
  if (names.resolve(parser, buffers) || ctrl.resolve(ctrlValues))
    return failure();
  result.addOperands(buffers);
  result.addOperands(ctrlValues);
  result.addAttribute(getCtrlArgsAttrName(result.name),
                      AffineMapAttr::get(ctrl.getMap(ctrlArgs)));
  result.addAttribute(getCoordKindsAttrName(result.name),
                      b.getDenseI32ArrayAttr(coords.kinds));
  result.addAttribute(getCoordCountsAttrName(result.name),
                      b.getDenseI32ArrayAttr(counts));
  result.addAttribute(getCoordsAttrName(result.name),
                      AffineMapAttr::get(ctrl.getMap(coords.exprs)));
  result.addAttribute(
      getOperandSegmentSizesAttrName(result.name),
      b.getDenseI32ArrayAttr({static_cast<int32_t>(numData),
                              static_cast<int32_t>(hasBarrier),
                              static_cast<int32_t>(ctrlValues.size())}));
  return success();
}

void CallOp::print(OpAsmPrinter &p) {
  p << ' ';
  p.printAttributeWithoutType(getCalleeAttr());
  if (getCtrlArgs().getNumResults()) {
    p << '[';
    llvm::interleaveComma(getCtrlArgs().getResults(), p, [&](AffineExpr e) {
      printControlExpr(p, e, getCtrl());
    });
    p << ']';
  }
  SmallVector<Value> named(getDataArgs().begin(), getDataArgs().end());
  if (getBarrier())
    named.push_back(getBarrier());
  FailureOr<SmallVector<AccessView>> accesses =
      splitAccesses(*this, getCoordKinds(), getCoordCounts(), getCoords());
  p << '(';
  for (unsigned i = 0, e = getDataArgs().size(); i < e; ++i) {
    if (i)
      p << ", ";
    printAccess(p, named[i], (*accesses)[i].kinds, (*accesses)[i].exprs,
                getCtrl());
  }
  p << ')';
  if (getBarrier()) {
    p << " >> ";
    printAccess(p, getBarrier(), accesses->back().kinds, accesses->back().exprs,
                getCtrl());
  }
  p.printOptionalAttrDict((*this)->getAttrs(),
                          {getCalleeAttrName(), getCtrlArgsAttrName(),
                           getCoordKindsAttrName(), getCoordCountsAttrName(),
                           getCoordsAttrName(),
                           getOperandSegmentSizesAttrName()});
  printBufferTypes(p, named);
}

LogicalResult CallOp::verify() {
  if (failed(verifyControlMap(*this, getCtrlArgs(), getCtrl().size(),
                              "control arguments")) ||
      failed(verifyControlMap(*this, getCoords(), getCtrl().size(),
                              "argument coordinates")))
    return failure();
  unsigned numAccesses = getDataArgs().size() + (getBarrier() ? 1 : 0);
  if (getCoordCounts().size() != numAccesses)
    return emitOpError("needs one coordinate list per data argument and "
                       "barrier");
  FailureOr<SmallVector<AccessView>> accesses =
      splitAccesses(*this, getCoordKinds(), getCoordCounts(), getCoords());
  if (failed(accesses))
    return failure();
  for (auto [arg, access] : llvm::zip(getDataArgs(), *accesses)) {
    auto type = cast<BufferTypeInterface>(arg.getType());
    if (failed(verifyAccessRank(*this, access.kinds, type.getRank(),
                                /*allowWhole=*/true, "data argument")) ||
        failed(verifyStaticBounds(*this, type.getShape(), access.kinds,
                                  access.exprs, "data argument window")))
      return failure();
  }
  if (getBarrier() &&
      failed(verifyAccessRank(*this, accesses->back().kinds,
                              getBarrier().getType().getRank(),
                              /*allowWhole=*/true, "barrier argument")))
    return failure();
  return success();
}

/// Checks the data arguments of a call against the callee's parameters:
/// count, precision, memory type (Sec. 3.4) and static extents.
template <typename CallableT>
static LogicalResult verifyArguments(CallOp call, CallableT callee) {
  SmallVector<unsigned> control, data;
  for (unsigned i = 0, e = callee.getNumParams(); i < e; ++i)
    (callee.getParamKind(i) == ParamKind::data ? data : control).push_back(i);
  if (call.getCtrlArgs().getNumResults() != control.size())
    return call.emitOpError()
           << "passes " << call.getCtrlArgs().getNumResults()
           << " control argument(s), @" << callee.getSymName() << " takes "
           << control.size();
  if (call.getDataArgs().size() != data.size())
    return call.emitOpError()
           << "passes " << call.getDataArgs().size() << " data argument(s), @"
           << callee.getSymName() << " takes " << data.size();
  SmallVector<AccessView> accesses = *splitAccesses(
      call, call.getCoordKinds(), call.getCoordCounts(), call.getCoords());
  for (auto [n, param] : llvm::enumerate(data)) {
    Value arg = call.getDataArgs()[n];
    auto argType = cast<BufferTypeInterface>(arg.getType());
    auto paramType =
        cast<BufferTypeInterface>(callee.getParam(param).getType());
    if (auto special = dyn_cast<WindowType>(paramType)) {
      auto argWindow = dyn_cast<WindowType>(argType);
      if (!argWindow || argWindow.getSpecial() != special.getSpecial())
        return call.emitOpError() << "data argument " << n
                                  << " must be a special window " << special;
    } else if (auto argWindow = dyn_cast<WindowType>(argType);
               argWindow && argWindow.getSpecial()) {
      return call.emitOpError() << "data argument " << n
                                << " is a special window, the parameter is "
                                   "a tensor";
    }
    if (argType.getElementType() != paramType.getElementType())
      return call.emitOpError()
             << "data argument " << n << " has precision "
             << argType.getElementType() << ", parameter requires "
             << paramType.getElementType();
    if (!argType.getMemory().conformsTo(paramType.getMemory()))
      return call.emitOpError()
             << "data argument " << n << " is in memory "
             << stringifyMemoryKind(argType.getMemory().getKind())
             << ", parameter requires "
             << stringifyMemoryKind(paramType.getMemory().getKind());
    SmallVector<int64_t> shape = getAccessShape(
        argType.getShape(), accesses[n].kinds, accesses[n].exprs);
    if (shape.size() != paramType.getRank())
      return call.emitOpError()
             << "data argument " << n << " is a window of " << shape.size()
             << " dimension(s), parameter has " << paramType.getRank();
    for (auto [got, want] : llvm::zip(shape, paramType.getShape()))
      if (!ShapedType::isDynamic(got) && !ShapedType::isDynamic(want) &&
          got != want)
        return call.emitOpError() << "data argument " << n << " has extent "
                                  << got << " where the parameter has " << want;
  }
  return success();
}

Operation *CallOp::lookupCallee(SymbolTableCollection *symbolTables) {
  return lookupSymbol(*this, getCalleeAttr().getAttr(), symbolTables);
}

InstrOp CallOp::lookupInstr() {
  return dyn_cast_or_null<InstrOp>(lookupCallee());
}

ProcOp CallOp::lookupProc() { return dyn_cast_or_null<ProcOp>(lookupCallee()); }

LogicalResult CallOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  Operation *callee = lookupCallee(&symbolTable);
  if (auto proc = dyn_cast_or_null<ProcOp>(callee)) {
    if (isCudaScope(*this))
      return emitOpError("procs are called only at CPU scope; inside a "
                         "device_function call instructions");
    if (getBarrier())
      return emitOpError("only instruction calls end with '>> barrier'");
    return verifyArguments(*this, proc);
  }
  auto instr = dyn_cast_or_null<InstrOp>(callee);
  if (!instr)
    return emitOpError()
           << "'" << getCallee()
           << "' does not name an exogpu.proc or exogpu.instr of this "
              "module or of the files it imports (exogpu.import)";
  bool cuda = isCudaScope(*this);
  if (instr.getTarget() == InstrTarget::cuda &&
      (!cuda || !isInsideTasks(*this)))
    return emitOpError() << "CUDA instruction @" << instr.getSymName()
                         << " must be called inside the cuda_tasks nest of "
                            "a device_function";
  if (instr.getTarget() == InstrTarget::cpu && cuda)
    return emitOpError() << "CPU instruction @" << instr.getSymName()
                         << " cannot be called in CUDA scope";
  std::optional<BarrierKind> mechanism = instr.getBarrier();
  if (mechanism && !getBarrier())
    return emitOpError() << "@" << instr.getSymName() << " completes through a "
                         << stringifyBarrierKind(*mechanism)
                         << ": end the call with '>> barrier'";
  if (!mechanism && getBarrier())
    return emitOpError() << "@" << instr.getSymName()
                         << " takes no trailing barrier";
  if (mechanism && getBarrier().getType().getKind() != *mechanism)
    return emitOpError() << "@" << instr.getSymName() << " needs a "
                         << stringifyBarrierKind(*mechanism) << " barrier, got "
                         << stringifyBarrierKind(
                                getBarrier().getType().getKind());
  return verifyArguments(*this, instr);
}
