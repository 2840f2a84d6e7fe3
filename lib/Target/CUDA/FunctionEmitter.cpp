//===- FunctionEmitter.cpp - statements of one C++ function ---------------===//
//
// Part of ExoGPU (internal to the CUDA translation). Statements common to
// host and device code and the expansion of instruction templates
// (CudaTemplate.h gives the placeholder grammar).
//
//===----------------------------------------------------------------------===//

#include "FunctionEmitter.h"
#include "ExoGPU/Dialect/ExoGPU/IR/CudaTemplate.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::exogpu;
using namespace mlir::exogpu::cuda;

LogicalResult FunctionEmitter::emitBlock(Block &block) {
  size_t mark = state.names.mark();
  for (Operation &op : block)
    if (failed(emitOp(&op)))
      return failure();
  state.names.release(mark);
  return success();
}

LogicalResult FunctionEmitter::emitScopeBody(
    Block &block, ArrayRef<std::pair<Value, std::string>> declarations) {
  SmallVector<unsigned> before;
  for (auto &[value, init] : declarations)
    before.push_back(state.useCounts[value]);
  out.pushCapture();
  LogicalResult result = emitBlock(block);
  std::string body = out.popCapture();
  if (failed(result))
    return failure();
  for (auto [declaration, count] : llvm::zip(declarations, before))
    if (state.useCounts[declaration.first] != count)
      out.line("const int " + state.names.lookup(declaration.first).str() +
               " = " + declaration.second + ";");
  out.write(body);
  return success();
}

LogicalResult FunctionEmitter::emitOp(Operation *op) {
  if (auto loop = dyn_cast<ForOp>(op)) {
    if (loop.getMode() == LoopMode::seq)
      return emitSeqFor(loop);
  } else if (auto guard = dyn_cast<IfOp>(op)) {
    return emitIf(guard);
  } else if (auto assign = dyn_cast<AssignOp>(op)) {
    return emitWrite(op, assign.getDest(), assign.getIndices(),
                     assign.getCtrl(), assign.getValueExpr(), false);
  } else if (auto reduce = dyn_cast<ReduceOp>(op)) {
    return emitWrite(op, reduce.getDest(), reduce.getIndices(),
                     reduce.getCtrl(), reduce.getValueExpr(), true);
  } else if (auto window = dyn_cast<WindowOp>(op)) {
    return emitWindow(window);
  } else if (auto call = dyn_cast<CallOp>(op)) {
    if (InstrOp instr = call.lookupInstr())
      return emitInstrCall(call, instr);
  }
  return emitInternalError(op->getLoc())
         << "'" << op->getName() << "' is not supported at this scope";
}

void FunctionEmitter::bindIterator(ForOp loop, IntRange range) {
  Value iter = loop.getIterator();
  state.names.bind(iter, getPreferredName(iter, "i"));
  state.ranges[iter] = range;
}

/// Whether `op` indexes register storage with `iter`.
static bool indexesRegistersWith(Operation *op, Value iter) {
  bool found = false;
  op->walk([&](Operation *nested) {
    bool usesIter = llvm::is_contained(nested->getOperands(), iter);
    if (!usesIter)
      return;
    for (Value operand : nested->getOperands())
      if (auto buffer = dyn_cast<BufferTypeInterface>(operand.getType()))
        found |= buffer.getMemory().isRmem();
  });
  return found;
}

bool mlir::exogpu::cuda::shouldUnroll(ForOp loop) {
  std::optional<int64_t> trips = loop.getConstantTripCount();
  return trips && *trips <= 256 &&
         indexesRegistersWith(loop, loop.getIterator());
}

LogicalResult FunctionEmitter::emitSeqFor(ForOp loop) {
  out.comment(state.describe(loop));
  AffineExpr loExpr =
      state.space.lift(loop.getLowerBoundExpr(), loop.getCtrl());
  AffineExpr hiExpr =
      state.space.lift(loop.getUpperBoundExpr(), loop.getCtrl());
  std::string lo = state.print(loExpr), hi = state.print(hiExpr);
  auto dimRange = [&](unsigned d) { return state.getDimRange(d); };
  IntRange loRange = getRange(loExpr, dimRange);
  IntRange hiRange = getRange(hiExpr, dimRange);
  IntRange range{loRange.lo, hiRange.hi
                                 ? std::optional<int64_t>(*hiRange.hi - 1)
                                 : std::nullopt};
  size_t mark = state.names.mark();
  bindIterator(loop, range);
  std::string name = state.print(loop.getIterator());
  if (shouldUnroll(loop))
    out.line("#pragma unroll");
  out.open("for (int " + name + " = " + lo + "; " + name + " < " + hi + "; ++" +
           name + ")");
  if (failed(emitBlock(loop.getBody().front())))
    return failure();
  out.close();
  state.names.release(mark);
  return success();
}

LogicalResult FunctionEmitter::emitIf(IfOp op) {
  out.comment(state.describe(op));
  out.open("if (" + state.printCondition(op.getCondition(), op.getCtrl()) +
           ")");
  if (failed(emitBlock(op.getBody().front())))
    return failure();
  out.close();
  return success();
}

LogicalResult FunctionEmitter::emitWrite(Operation *op, Value dest,
                                         AffineMap indices, ValueRange ctrl,
                                         Value valueExpr, bool reduce) {
  FailureOr<BufferView> view = state.getView(dest, op->getLoc());
  if (failed(view))
    return failure();
  FailureOr<std::string> lhs =
      state.elementRef(*view, state.space.lift(indices, ctrl), op->getLoc());
  FailureOr<std::string> rhs = emitDataExpr(valueExpr);
  if (failed(lhs) || failed(rhs))
    return failure();
  Type elementType = cast<BufferTypeInterface>(dest.getType()).getElementType();
  std::string value = *rhs;
  if (valueExpr.getType() != elementType)
    value = "static_cast<" + getCType(elementType) + ">(" + value + ")";
  out.comment(state.describe(op));
  out.line(*lhs + (reduce ? " += " : " = ") + value + ";");
  return success();
}

namespace {
/// Precedence of a printed data expression.
enum class DataPrec { Additive = 0, Multiplicative = 1, Unary = 2 };
} // namespace

/// The CUDA function computing a data-expression function (`max`, `exp2`,
/// `log2`) in its precision: the accurate math library functions of CUDA
/// (cuda_fp16.h and cuda_bf16.h for 16-bit floats, the integer overloads of
/// `max` for integers).
static std::string getDataFunctionName(Operation *op) {
  Type type = op->getResult(0).getType();
  bool half = type.isF16() || type.isBF16();
  std::string suffix = type.isF32() ? "f" : "";
  if (isa<MaxOp>(op)) {
    if (half)
      return "__hmax";
    return isa<FloatType>(type) ? "fmax" + suffix : "max";
  }
  std::string name = isa<Exp2Op>(op) ? "exp2" : "log2";
  return half ? "h" + name : name + suffix;
}

static FailureOr<std::pair<std::string, DataPrec>> printData(ProcState &state,
                                                             Value value) {
  Operation *op = value.getDefiningOp();
  if (!op)
    return emitInternalError(state.proc.getLoc())
           << "data expression reads a block argument";
  if (auto read = dyn_cast<ReadOp>(op)) {
    FailureOr<BufferView> view = state.getView(read.getSource(), op->getLoc());
    if (failed(view))
      return failure();
    FailureOr<std::string> ref = state.elementRef(
        *view, state.space.lift(read.getIndices(), read.getCtrl()),
        op->getLoc());
    if (failed(ref))
      return failure();
    return std::make_pair(*ref, DataPrec::Unary);
  }
  if (auto constant = dyn_cast<ConstantOp>(op))
    return std::make_pair(
        formatLiteral(cast<TypedAttr>(constant.getValue()), value.getType()),
        DataPrec::Unary);
  if (auto neg = dyn_cast<NegOp>(op)) {
    auto operand = printData(state, neg.getOperand());
    if (failed(operand))
      return failure();
    std::string text = operand->second == DataPrec::Unary
                           ? operand->first
                           : "(" + operand->first + ")";
    return std::make_pair("-" + text, DataPrec::Unary);
  }
  if (isa<MaxOp, Exp2Op, Log2Op>(op)) {
    std::string call = getDataFunctionName(op) + "(";
    for (auto [i, operand] : llvm::enumerate(op->getOperands())) {
      auto printed = printData(state, operand);
      if (failed(printed))
        return failure();
      call += (i ? ", " : "") + printed->first;
    }
    return std::make_pair(call + ")", DataPrec::Unary);
  }
  const char *symbol = nullptr;
  DataPrec prec = DataPrec::Additive;
  Value lhsValue, rhsValue;
  if (auto add = dyn_cast<AddOp>(op)) {
    symbol = " + ";
    lhsValue = add.getLhs(), rhsValue = add.getRhs();
  } else if (auto sub = dyn_cast<SubOp>(op)) {
    symbol = " - ";
    lhsValue = sub.getLhs(), rhsValue = sub.getRhs();
  } else if (auto mul = dyn_cast<MulOp>(op)) {
    symbol = " * ", prec = DataPrec::Multiplicative;
    lhsValue = mul.getLhs(), rhsValue = mul.getRhs();
  } else if (auto div = dyn_cast<DivOp>(op)) {
    symbol = " / ", prec = DataPrec::Multiplicative;
    lhsValue = div.getLhs(), rhsValue = div.getRhs();
  } else {
    return emitInternalError(op->getLoc())
           << "unsupported data expression '" << op->getName() << "'";
  }
  auto lhs = printData(state, lhsValue);
  auto rhs = printData(state, rhsValue);
  if (failed(lhs) || failed(rhs))
    return failure();
  // Operations round one at a time in the element type, so the C++ tree
  // must be the exogpu tree: a right operand of equal precedence keeps its
  // parentheses (a * (b * c) is not (a * b) * c in floating point).
  std::string l = lhs->second < prec ? "(" + lhs->first + ")" : lhs->first;
  std::string r = rhs->second <= prec ? "(" + rhs->first + ")" : rhs->first;
  return std::make_pair(l + symbol + r, prec);
}

FailureOr<std::string> FunctionEmitter::emitDataExpr(Value value) {
  auto printed = printData(state, value);
  if (failed(printed))
    return failure();
  return printed->first;
}

LogicalResult FunctionEmitter::emitWindow(WindowOp window) {
  FailureOr<BufferView> source =
      state.getView(window.getSource(), window.getLoc());
  if (failed(source))
    return failure();
  FailureOr<BufferView> view = state.applyCoords(
      *source, window.getCoordKinds(),
      state.space.lift(window.getCoords(), window.getCtrl()), window.getLoc());
  if (failed(view))
    return failure();
  state.views[window.getResult()] = *view;
  return success();
}

FailureOr<SmallVector<BufferView>> FunctionEmitter::getCallViews(CallOp call) {
  unsigned numAccesses =
      call.getDataArgs().size() + (call.getBarrier() ? 1 : 0);
  FailureOr<SmallVector<AccessView>> accesses = splitAccesses(
      call, call.getCoordKinds(), call.getCoordCounts(), call.getCoords());
  if (failed(accesses))
    return failure();
  if (accesses->size() != numAccesses)
    return emitInternalError(call.getLoc())
           << "call has " << accesses->size() << " coordinate lists for "
           << numAccesses << " buffers";
  SmallVector<BufferView> views;
  for (auto [buffer, access] : llvm::zip(call.getDataArgs(), *accesses)) {
    FailureOr<BufferView> base = state.getView(buffer, call.getLoc());
    if (failed(base))
      return failure();
    SmallVector<AffineExpr> exprs;
    for (AffineExpr e : access.exprs)
      exprs.push_back(state.space.lift(e, call.getCtrl()));
    FailureOr<BufferView> view =
        state.applyCoords(*base, access.kinds, exprs, call.getLoc());
    if (failed(view))
      return failure();
    views.push_back(*view);
  }
  return views;
}

std::string FunctionEmitter::printControlArg(CallOp call, unsigned index,
                                             ParamKind kind) {
  AffineExpr expr = call.getCtrlArgs().getResult(index);
  if (kind == ParamKind::boolean) {
    if (auto c = dyn_cast<AffineConstantExpr>(expr))
      return c.getValue() ? "true" : "false";
    return state.print(expr, call.getCtrl()) + " != 0";
  }
  return state.print(expr, call.getCtrl());
}

FailureOr<std::string> FunctionEmitter::getBarrierAddress(CallOp call) {
  return emitInternalError(call.getLoc())
         << "{bar} names an mbarrier, which only device code has";
}

/// The inline-asm constraint of a read-write register operand of `type`.
static std::optional<StringRef> getRegisterConstraint(Type type) {
  if (type.isF32())
    return StringRef("+f");
  if (type.isF64())
    return StringRef("+d");
  if (type.isInteger(32))
    return StringRef("+r");
  return std::nullopt;
}

LogicalResult FunctionEmitter::emitInstrCall(CallOp call, InstrOp instr) {
  std::optional<StringRef> text = instr.getCuda();
  if (!text)
    return emitTranslationError(call.getLoc())
           << "instruction " << instr.getSymName() << " has no CUDA template";
  std::string error;
  FailureOr<SmallVector<CudaTemplatePiece>> pieces =
      parseCudaTemplate(*text, error);
  if (failed(pieces))
    return emitInternalError(call.getLoc()) << error;
  FailureOr<SmallVector<BufferView>> views = getCallViews(call);
  if (failed(views))
    return failure();
  // Parameter -> position among control arguments / data arguments.
  SmallVector<unsigned> position(instr.getNumParams());
  unsigned numCtrl = 0, numData = 0;
  for (unsigned i = 0, e = instr.getNumParams(); i < e; ++i)
    position[i] =
        instr.getParamKind(i) == ParamKind::data ? numData++ : numCtrl++;
  if (numData != call.getDataArgs().size() ||
      numCtrl != call.getCtrlArgs().getNumResults())
    return emitInternalError(call.getLoc())
           << "call does not match the parameters of " << instr.getSymName();
  ArrayAttr names = instr.getArgNames();
  std::string expanded;
  for (auto [index, piece] : llvm::enumerate(*pieces)) {
    if (!piece.isPlaceholder) {
      expanded += piece.text;
      continue;
    }
    // The expansion as the one operand the placeholder stands for.
    auto operand = [&, index = index](const std::string &text) {
      return asOperand(*pieces, index, text);
    };
    if (piece.name == "bar") {
      FailureOr<std::string> address = getBarrierAddress(call);
      if (failed(address))
        return failure();
      expanded += operand(*address);
      continue;
    }
    unsigned param = 0;
    while (param < names.size() &&
           cast<StringAttr>(names[param]).getValue() != piece.name)
      ++param;
    if (param == names.size())
      return emitInternalError(call.getLoc())
             << "template placeholder {" << piece.name
             << "} names no parameter";
    if (instr.getParamKind(param) != ParamKind::data) {
      std::string value =
          printControlArg(call, position[param], instr.getParamKind(param));
      expanded += operand(value);
      continue;
    }
    const BufferView &view = (*views)[position[param]];
    Value arg = call.getDataArgs()[position[param]];
    StringRef field = piece.field;
    if (field == "map" || (field.size() > 1 && field[0] == 'c' &&
                           llvm::all_of(field.drop_front(), [](char c) {
                             return llvm::isDigit(c);
                           }))) {
      auto it = state.tensorMaps.find(arg);
      if (it == state.tensorMaps.end())
        return emitInternalError(call.getLoc())
               << "{" << piece.name << "." << field
               << "} needs a tensor-map window argument";
      state.noteUse(arg);
      if (field == "map") {
        expanded += it->second.name;
        continue;
      }
      // The origin of the call's window relative to the tensor map's.
      unsigned coord = std::stoul(field.drop_front().str());
      SmallVector<unsigned> mapDims = it->second.view.getIntervalDims();
      if (coord >= mapDims.size())
        return emitInternalError(call.getLoc())
               << "{" << piece.name << "." << field << "} is past the "
               << mapDims.size() << " dimension(s) of the tensor map";
      unsigned d = mapDims[coord];
      AffineExpr relative =
          normalizeControlExpr(view.dims[d].lo - it->second.view.dims[d].lo);
      expanded += operand(state.print(relative));
      continue;
    }
    unsigned strideDim;
    if (field.consume_front("stride") && !field.getAsInteger(10, strideDim)) {
      FailureOr<std::string> stride =
          state.elementStride(view, strideDim, call.getLoc());
      if (failed(stride))
        return failure();
      expanded += operand(*stride);
      continue;
    }
    field = piece.field;
    if (field.empty()) {
      FailureOr<std::string> pointer = state.pointerTo(view, call.getLoc());
      if (failed(pointer))
        return failure();
      expanded += operand(*pointer);
      continue;
    }
    FailureOr<SmallVector<std::string>> elements =
        state.listElements(view, call.getLoc());
    if (failed(elements))
      return failure();
    if (field == "list") {
      expanded += "{";
      for (size_t i = 0; i < elements->size(); ++i)
        expanded += (i ? ", %" : "%") + std::to_string(i);
      expanded += "}";
      continue;
    }
    if (field == "regs") {
      std::optional<StringRef> constraint =
          getRegisterConstraint(view.root->elementType);
      if (!constraint)
        return emitTranslationError(call.getLoc())
               << "{" << piece.name << ".regs} needs 32-bit or f64 elements";
      for (size_t i = 0; i < elements->size(); ++i)
        expanded += (i ? ", \"" : "\"") + constraint->str() + "\"(" +
                    (*elements)[i] + ")";
      continue;
    }
    size_t element = std::stoul(field.str());
    if (element >= elements->size())
      return emitInternalError(call.getLoc())
             << "{" << piece.name << "." << field << "} is past the "
             << elements->size() << " element(s) of the argument";
    expanded += operand((*elements)[element]);
  }
  out.comment(state.describe(call));
  SmallVector<StringRef> lines;
  StringRef(expanded).split(lines, '\n');
  for (StringRef line : lines)
    out.line(line.trim());
  return success();
}
