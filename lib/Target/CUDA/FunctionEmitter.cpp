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
  size_t facts = knownZero.size();
  for (Operation &op : block)
    if (failed(emitOp(&op)))
      return failure();
  state.names.release(mark);
  knownZero.truncate(facts);
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
      out.line("const " + getControlType() + " " +
               state.names.lookup(declaration.first).str() + " = " +
               declaration.second + ";");
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
  } else if (auto split = dyn_cast<SplitOp>(op)) {
    return emitSplit(split);
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
  out.open("for (" + getControlType() + " " + name + " = " + lo + "; " + name +
           " < " + hi + "; ++" + name + ")");
  if (failed(emitBlock(loop.getBody().front())))
    return failure();
  out.close();
  state.names.release(mark);
  return success();
}

/// The expressions (over the space) that `condition` (over `ctrl`) holds
/// to be 0 where it is one conjunction: its atoms `e == 0` and `0 == e`.
static SmallVector<AffineExpr>
getZeroAtoms(ControlSpace &space, ConditionAttr condition, ValueRange ctrl) {
  SmallVector<AffineExpr> zero;
  ArrayRef<AffineExpr> exprs = condition.getMap().getResults();
  size_t next = 0;
  for (int64_t code : condition.getAtoms()) {
    auto atom = static_cast<ConditionAtomKind>(code);
    switch (atom) {
    case ConditionAtomKind::Or:
      return {};
    case ConditionAtomKind::True:
    case ConditionAtomKind::False:
      continue;
    case ConditionAtomKind::Bool:
      ++next;
      continue;
    default:
      break;
    }
    if (next + 2 > exprs.size())
      return {};
    AffineExpr lhs = exprs[next], rhs = exprs[next + 1];
    next += 2;
    if (atom != ConditionAtomKind::Eq)
      continue;
    zero.push_back(normalizeControlExpr(space.lift(lhs - rhs, ctrl)));
  }
  return zero;
}

LogicalResult FunctionEmitter::emitIf(IfOp op) {
  out.comment(state.describe(op));
  out.open("if (" + state.printCondition(op.getCondition(), op.getCtrl()) +
           ")");
  size_t facts = knownZero.size();
  llvm::append_range(
      knownZero, getZeroAtoms(state.space, op.getCondition(), op.getCtrl()));
  LogicalResult body = emitBlock(op.getBody().front());
  knownZero.truncate(facts);
  if (failed(body))
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
  std::string type = getCType(elementType);
  std::string value = *rhs;
  if (valueExpr.getType() != elementType)
    value = "exo::convert<" + type + ">(" + value + ")";
  out.comment(state.describe(op));
  if (!reduce)
    out.line(*lhs + " = " + value + ";");
  else if (isa<IntegerType>(elementType))
    out.line(*lhs + " = exo::wrap_add<" + type + ">(" + *lhs + ", " + value +
             ");");
  else
    out.line(*lhs + " += " + value + ";");
  return success();
}

//===----------------------------------------------------------------------===//
// Data expressions (docs/cuda-translation.md "Arithmetic")
//===----------------------------------------------------------------------===//

namespace {
/// Precedence of a printed C++ expression, loosest first.
enum class DataPrec { Additive, Multiplicative, Unary, Primary };

/// A data expression as C++ text and the precedence of its outermost
/// operator.
struct PrintedData {
  std::string text;
  DataPrec prec;
};

/// Prints the data expressions of one statement. Every operation of the
/// exogpu tree is one C++ operation in the same order and grouping (one
/// rounding each, docs/running.md "Arithmetic"):
///   * floating-point `+`, `-`, `/` are C++ operators; `*` rounds on its own
///     (`__fmul_rn`, `__dmul_rn` in device code, `__hmul_rn` for 16-bit
///     floats), so that no compiler contracts it with an add into an FMA;
///   * integer arithmetic wraps in its precision's width (exo::wrap_add and
///     friends) and division never traps (exo::int_div);
///   * operands are parenthesized by precedence, never glued: `-(-x)`.
class DataPrinter {
public:
  DataPrinter(ProcState &state, bool deviceCode)
      : state(state), deviceCode(deviceCode) {}

  FailureOr<PrintedData> print(Value value);

private:
  static std::string wrap(const PrintedData &p, DataPrec min) {
    return p.prec >= min ? p.text : "(" + p.text + ")";
  }

  /// The C++ function computing a function-style data expression (`max`,
  /// `exp2`, `log2`) in its precision.
  static std::string getFunctionName(Operation *op);

  FailureOr<PrintedData> printBinary(Operation *op);

  ProcState &state;
  bool deviceCode;
};
} // namespace

std::string DataPrinter::getFunctionName(Operation *op) {
  Type type = op->getResult(0).getType();
  bool half = type.isF16() || type.isBF16();
  std::string suffix = type.isF32() ? "f" : "";
  if (isa<MaxOp>(op)) {
    if (half)
      return "__hmax";
    return isa<FloatType>(type) ? "fmax" + suffix : "max";
  }
  // 16-bit floats: computed in f32 and rounded once (runtime.cuh).
  std::string name = isa<Exp2Op>(op) ? "exp2" : "log2";
  return half ? "exo::" + name : name + suffix;
}

FailureOr<PrintedData> DataPrinter::print(Value value) {
  Operation *op = value.getDefiningOp();
  if (!op)
    return emitInternalError(state.proc.getLoc())
           << "data expression reads a block argument";
  Type type = value.getType();
  if (auto read = dyn_cast<ReadOp>(op)) {
    FailureOr<BufferView> view = state.getView(read.getSource(), op->getLoc());
    if (failed(view))
      return failure();
    FailureOr<std::string> ref = state.elementRef(
        *view, state.space.lift(read.getIndices(), read.getCtrl()),
        op->getLoc());
    if (failed(ref))
      return failure();
    return PrintedData{*ref, DataPrec::Primary};
  }
  if (auto constant = dyn_cast<ConstantOp>(op)) {
    std::string text =
        formatLiteral(cast<TypedAttr>(constant.getValue()), type);
    return PrintedData{text,
                       text[0] == '-' ? DataPrec::Unary : DataPrec::Primary};
  }
  if (auto neg = dyn_cast<NegOp>(op)) {
    FailureOr<PrintedData> operand = print(neg.getOperand());
    if (failed(operand))
      return failure();
    if (isa<IntegerType>(type)) {
      // A negative literal (`-1` parses as the negation of 1) is a literal.
      if (auto constant = neg.getOperand().getDefiningOp<ConstantOp>()) {
        APInt value = cast<IntegerAttr>(constant.getValue()).getValue();
        std::string text = formatLiteral(
            IntegerAttr::get(type, APInt(value.getBitWidth(), 0) - value),
            type);
        return PrintedData{text, text[0] == '-' ? DataPrec::Unary
                                                : DataPrec::Primary};
      }
      return PrintedData{"exo::wrap_neg<" + getCType(type) + ">(" +
                             operand->text + ")",
                         DataPrec::Primary};
    }
    return PrintedData{"-" + wrap(*operand, DataPrec::Primary),
                       DataPrec::Unary};
  }
  if (isa<MaxOp, Exp2Op, Log2Op>(op)) {
    std::string call = getFunctionName(op) + "(";
    for (auto [i, operand] : llvm::enumerate(op->getOperands())) {
      FailureOr<PrintedData> printed = print(operand);
      if (failed(printed))
        return failure();
      call += (i ? ", " : "") + printed->text;
    }
    return PrintedData{call + ")", DataPrec::Primary};
  }
  if (isa<AddOp, SubOp, MulOp, DivOp>(op))
    return printBinary(op);
  return emitInternalError(op->getLoc())
         << "unsupported data expression '" << op->getName() << "'";
}

FailureOr<PrintedData> DataPrinter::printBinary(Operation *op) {
  FailureOr<PrintedData> lhs = print(op->getOperand(0));
  FailureOr<PrintedData> rhs = print(op->getOperand(1));
  if (failed(lhs) || failed(rhs))
    return failure();
  Type type = op->getResult(0).getType();
  auto call = [&](StringRef function) {
    return PrintedData{function.str() + "(" + lhs->text + ", " + rhs->text +
                           ")",
                       DataPrec::Primary};
  };
  if (isa<IntegerType>(type)) {
    StringRef function = isa<AddOp>(op)   ? "exo::wrap_add"
                         : isa<SubOp>(op) ? "exo::wrap_sub"
                         : isa<MulOp>(op) ? "exo::wrap_mul"
                                          : "exo::int_div";
    return call((function + "<" + getCType(type) + ">").str());
  }
  if (isa<MulOp>(op)) {
    if (type.isF16() || type.isBF16())
      return call("__hmul_rn");
    // Host compilers do not contract across statements or without an FMA
    // target; docs/cuda-translation.md says how to keep them from it.
    if (deviceCode)
      return call(type.isF64() ? "__dmul_rn" : "__fmul_rn");
  }
  bool additive = isa<AddOp, SubOp>(op);
  DataPrec prec = additive ? DataPrec::Additive : DataPrec::Multiplicative;
  StringRef symbol = isa<AddOp>(op)   ? " + "
                     : isa<SubOp>(op) ? " - "
                     : isa<MulOp>(op) ? " * "
                                      : " / ";
  // The C++ tree must be the exogpu tree: a right operand of equal
  // precedence keeps its parentheses (a - (b - c) is not a - b - c).
  DataPrec rightMin = additive ? DataPrec::Multiplicative : DataPrec::Unary;
  return PrintedData{wrap(*lhs, prec) + symbol.str() + wrap(*rhs, rightMin),
                     prec};
}

FailureOr<std::string> FunctionEmitter::emitDataExpr(Value value) {
  FailureOr<PrintedData> printed =
      DataPrinter(state, isDeviceCode()).print(value);
  if (failed(printed))
    return failure();
  return printed->text;
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

LogicalResult FunctionEmitter::emitSplit(SplitOp split) {
  FailureOr<BufferView> source =
      state.getView(split.getSource(), split.getLoc());
  if (failed(source))
    return failure();
  unsigned dim = split.getDim();
  int64_t factor = split.getFactor();
  FailureOr<BufferView> view =
      state.applySplit(*source, dim, factor, split.getLoc());
  if (failed(view))
    return failure();
  state.views[split.getResult()] = *view;
  // The split dimension must divide evenly. Its extent modulo the factor
  // decides here when it folds to a constant (as a static extent, which the
  // verifier checked, does); any other is checked at run time.
  AffineExpr extent = source->dims[source->getIntervalDims()[dim]].extent;
  AffineExpr remainder = normalizeControlExpr(extent % factor);
  auto constant = dyn_cast<AffineConstantExpr>(remainder);
  if (!constant) {
    // A guard around the split, or an earlier split's check, shows it.
    if (llvm::is_contained(knownZero, remainder)) {
      out.comment(state.describe(split));
      out.comment("The split dimension's extent is a multiple of the factor "
                  "here (a guard around it, or an earlier check)");
      return success();
    }
    knownZero.push_back(remainder);
    return checkSplitExtent(split, remainder);
  }
  if (constant.getValue() != 0)
    return emitTranslationError(split.getLoc())
           << "the extent of dimension " << dim
           << " is not a multiple of the split factor " << factor
           << " (it leaves a remainder of " << constant.getValue() << ")";
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
