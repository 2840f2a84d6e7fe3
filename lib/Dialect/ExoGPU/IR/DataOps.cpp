//===- DataOps.cpp - exogpu assignments and data expressions -------------===//
//
// Part of ExoGPU. `x[c*] = e` and `x[c*] += e` (seeds/002 Fig. 2) with their
// data expressions (Fig. 1 DExpr), printed and parsed in infix form:
//   expr := term (('+' | '-') term)*
//   term := unary (('*' | '/') unary)*
//   unary := '-' unary | '(' expr ')' | fn '(' expr (',' expr)* ')'
//          | number | %buffer[indices]
//   fn    := 'max' | 'exp2' | 'log2'
//
//===----------------------------------------------------------------------===//

#include "ExoGPU/Dialect/ExoGPU/IR/ControlExpr.h"
#include "ExoGPU/Dialect/ExoGPU/IR/ExoGPUOps.h"
#include "ExoGPU/Dialect/ExoGPU/IR/Scope.h"
#include "StatementSyntax.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include <cstdlib>

using namespace mlir;
using namespace mlir::exogpu;

#define GET_OP_CLASSES
#include "ExoGPU/Dialect/ExoGPU/IR/DataOps.cpp.inc"

namespace {
/// A parsed data expression before its types are known.
struct ExprNode {
  enum class Kind {
    Read,
    Int,
    Float,
    Add,
    Sub,
    Mul,
    Div,
    Neg,
    Max,
    Exp2,
    Log2
  } kind;
  SMLoc loc;
  unsigned use = 0;        // Read: index into the statement's buffer uses.
  unsigned firstCoord = 0; // Read: first coordinate expression.
  unsigned numCoords = 0;  // Read: number of coordinates.
  int64_t intValue = 0;    // Int
  double floatValue = 0;   // Float
  std::unique_ptr<ExprNode> lhs, rhs;
};

/// Parses the infix data expression of one statement.
class DataExprParser {
public:
  DataExprParser(OpAsmParser &parser, ControlExprParser &ctrl,
                 BufferNameList &names, WindowCoords &coords)
      : parser(parser), ctrl(ctrl), names(names), coords(coords) {}

  FailureOr<std::unique_ptr<ExprNode>> parseExpr() {
    auto lhs = parseTerm();
    while (succeeded(lhs)) {
      SMLoc loc = parser.getCurrentLocation();
      ExprNode::Kind kind;
      if (succeeded(parser.parseOptionalPlus()))
        kind = ExprNode::Kind::Add;
      else if (succeeded(parser.parseOptionalMinus()))
        kind = ExprNode::Kind::Sub;
      else
        break;
      auto rhs = parseTerm();
      if (failed(rhs))
        return failure();
      lhs = makeBinary(kind, loc, std::move(*lhs), std::move(*rhs));
    }
    return lhs;
  }

private:
  static std::unique_ptr<ExprNode> makeBinary(ExprNode::Kind kind, SMLoc loc,
                                              std::unique_ptr<ExprNode> lhs,
                                              std::unique_ptr<ExprNode> rhs) {
    auto node = std::make_unique<ExprNode>();
    node->kind = kind;
    node->loc = loc;
    node->lhs = std::move(lhs);
    node->rhs = std::move(rhs);
    return node;
  }

  FailureOr<std::unique_ptr<ExprNode>> parseTerm() {
    auto lhs = parseUnary();
    while (succeeded(lhs)) {
      SMLoc loc = parser.getCurrentLocation();
      ExprNode::Kind kind;
      if (succeeded(parser.parseOptionalStar()))
        kind = ExprNode::Kind::Mul;
      else if (succeeded(parser.parseOptionalSlash()))
        kind = ExprNode::Kind::Div;
      else
        break;
      auto rhs = parseUnary();
      if (failed(rhs))
        return failure();
      lhs = makeBinary(kind, loc, std::move(*lhs), std::move(*rhs));
    }
    return lhs;
  }

  FailureOr<std::unique_ptr<ExprNode>> parseUnary() {
    auto node = std::make_unique<ExprNode>();
    node->loc = parser.getCurrentLocation();
    if (succeeded(parser.parseOptionalMinus()))
      return parseNegated(std::move(node));
    if (succeeded(parser.parseOptionalLParen())) {
      auto inner = parseExpr();
      if (failed(inner) || parser.parseRParen())
        return failure();
      return inner;
    }
    StringRef function;
    if (succeeded(
            parser.parseOptionalKeyword(&function, {"max", "exp2", "log2"})))
      return parseFunction(function, std::move(node));
    int64_t intValue = 0;
    OptionalParseResult hasInt = parser.parseOptionalInteger(intValue);
    if (hasInt.has_value()) {
      if (failed(*hasInt))
        return failure();
      node->kind = ExprNode::Kind::Int;
      node->intValue = intValue;
      return node;
    }
    SmallVector<int32_t> counts;
    node->use = names.getNumUses();
    node->firstCoord = coords.kinds.size();
    OptionalParseResult read = parseOptionalAccess(parser, ctrl, names, coords,
                                                   counts, /*pointsOnly=*/true);
    if (read.has_value()) {
      if (failed(*read))
        return failure();
      node->kind = ExprNode::Kind::Read;
      node->numCoords = counts.front();
      return node;
    }
    double floatValue;
    if (parser.parseFloat(floatValue))
      return failure();
    node->kind = ExprNode::Kind::Float;
    node->floatValue = floatValue;
    return node;
  }

  /// The operand of a unary minus, after the minus. `-5` is the literal
  /// minus five, so that every integer constant the printer writes,
  /// INT32_MIN included, reads back as itself.
  FailureOr<std::unique_ptr<ExprNode>>
  parseNegated(std::unique_ptr<ExprNode> node) {
    FailureOr<std::unique_ptr<ExprNode>> inner = failure();
    SMLoc innerLoc = parser.getCurrentLocation();
    if (succeeded(parser.parseOptionalMinus())) {
      auto nested = std::make_unique<ExprNode>();
      nested->loc = innerLoc;
      inner = parseNegated(std::move(nested));
    } else {
      int64_t literal = 0;
      OptionalParseResult hasLiteral = parser.parseOptionalInteger(literal);
      if (hasLiteral.has_value()) {
        if (failed(*hasLiteral))
          return failure();
        node->kind = ExprNode::Kind::Int;
        node->intValue = -literal;
        return node;
      }
      inner = parseUnary();
    }
    if (failed(inner))
      return failure();
    node->kind = ExprNode::Kind::Neg;
    node->lhs = std::move(*inner);
    return node;
  }

  /// `fn(args)` after the function's name: `max` takes two arguments,
  /// `exp2` and `log2` one.
  FailureOr<std::unique_ptr<ExprNode>>
  parseFunction(StringRef function, std::unique_ptr<ExprNode> node) {
    node->kind = llvm::StringSwitch<ExprNode::Kind>(function)
                     .Case("max", ExprNode::Kind::Max)
                     .Case("exp2", ExprNode::Kind::Exp2)
                     .Default(ExprNode::Kind::Log2);
    if (parser.parseLParen())
      return failure();
    unsigned arity = node->kind == ExprNode::Kind::Max ? 2 : 1;
    for (unsigned i = 0; i < arity; ++i) {
      if (i && parser.parseComma())
        return failure();
      auto arg = parseExpr();
      if (failed(arg))
        return failure();
      (i ? node->rhs : node->lhs) = std::move(*arg);
    }
    if (parser.parseRParen())
      return failure();
    return node;
  }

  OpAsmParser &parser;
  ControlExprParser &ctrl;
  BufferNameList &names;
  WindowCoords &coords;
};

/// Materializes a parsed expression as expression ops once types are known.
class DataExprBuilder {
public:
  DataExprBuilder(OpAsmParser &parser, OpBuilder &builder, Location loc,
                  ArrayRef<Value> buffers, ArrayRef<AffineExpr> coordExprs,
                  ValueRange ctrl, unsigned numCtrl)
      : parser(parser), builder(builder), loc(loc), buffers(buffers),
        coordExprs(coordExprs), ctrl(ctrl), numCtrl(numCtrl) {}

  /// The precision a subtree has on its own (a read's), or null if it is
  /// made of literals only.
  Type getIntrinsicType(const ExprNode &node) {
    switch (node.kind) {
    case ExprNode::Kind::Read:
      if (auto b = dyn_cast<BufferTypeInterface>(buffers[node.use].getType()))
        return b.getElementType();
      return {};
    case ExprNode::Kind::Int:
    case ExprNode::Kind::Float:
      return {};
    case ExprNode::Kind::Neg:
    case ExprNode::Kind::Exp2:
    case ExprNode::Kind::Log2:
      return getIntrinsicType(*node.lhs);
    default:
      if (Type t = getIntrinsicType(*node.lhs))
        return t;
      return getIntrinsicType(*node.rhs);
    }
  }

  FailureOr<Value> build(const ExprNode &node, Type expected) {
    switch (node.kind) {
    case ExprNode::Kind::Read: {
      auto type = dyn_cast<BufferTypeInterface>(buffers[node.use].getType());
      if (!type)
        return parser.emitError(node.loc, "only data buffers can be read in "
                                          "a data expression");
      // Coordinates of this read: all points, one expression each.
      ArrayRef<AffineExpr> exprs =
          coordExprs.slice(node.firstCoord, node.numCoords);
      AffineMap map = AffineMap::get(numCtrl, 0, exprs, builder.getContext());
      return ReadOp::create(builder, loc, type.getElementType(),
                            buffers[node.use], map, ctrl)
          .getResult();
    }
    case ExprNode::Kind::Int:
    case ExprNode::Kind::Float: {
      TypedAttr value;
      if (isa<FloatType>(expected)) {
        double v = node.kind == ExprNode::Kind::Int
                       ? static_cast<double>(node.intValue)
                       : node.floatValue;
        value = builder.getFloatAttr(expected, v);
      } else if (node.kind == ExprNode::Kind::Int) {
        value = builder.getIntegerAttr(expected, node.intValue);
      } else {
        return parser.emitError(node.loc)
               << "floating-point literal used at integer precision "
               << expected;
      }
      return ConstantOp::create(builder, loc, expected, value).getResult();
    }
    case ExprNode::Kind::Neg:
    case ExprNode::Kind::Exp2:
    case ExprNode::Kind::Log2: {
      FailureOr<Value> inner = build(*node.lhs, expected);
      if (failed(inner))
        return failure();
      if (node.kind == ExprNode::Kind::Exp2)
        return Exp2Op::create(builder, loc, *inner).getResult();
      if (node.kind == ExprNode::Kind::Log2)
        return Log2Op::create(builder, loc, *inner).getResult();
      return NegOp::create(builder, loc, *inner).getResult();
    }
    default:
      break;
    }
    Type type = getIntrinsicType(node);
    if (!type)
      type = expected;
    FailureOr<Value> lhs = build(*node.lhs, type);
    FailureOr<Value> rhs = failed(lhs) ? lhs : build(*node.rhs, type);
    if (failed(rhs))
      return failure();
    if (lhs->getType() != rhs->getType())
      return parser.emitError(node.loc)
             << "operands of a data operation must have one precision, got "
             << lhs->getType() << " and " << rhs->getType();
    switch (node.kind) {
    case ExprNode::Kind::Add:
      return AddOp::create(builder, loc, *lhs, *rhs).getResult();
    case ExprNode::Kind::Sub:
      return SubOp::create(builder, loc, *lhs, *rhs).getResult();
    case ExprNode::Kind::Mul:
      return MulOp::create(builder, loc, *lhs, *rhs).getResult();
    case ExprNode::Kind::Max:
      return MaxOp::create(builder, loc, *lhs, *rhs).getResult();
    default:
      return DivOp::create(builder, loc, *lhs, *rhs).getResult();
    }
  }

private:
  OpAsmParser &parser;
  OpBuilder &builder;
  Location loc;
  ArrayRef<Value> buffers;
  ArrayRef<AffineExpr> coordExprs;
  ValueRange ctrl;
  unsigned numCtrl;
};
} // namespace

/// Parses `%x[indices] <op> expr : types` for assign (`=`) and reduce (`+=`).
static ParseResult parseWriteOp(OpAsmParser &parser, OperationState &result,
                                bool isReduce) {
  ControlExprParser ctrl(parser);
  BufferNameList names;
  WindowCoords coords;
  SmallVector<int32_t> counts;
  if (parseAccess(parser, ctrl, names, coords, counts, /*pointsOnly=*/true))
    return failure();
  if (isReduce && parser.parsePlus())
    return failure();
  if (parser.parseEqual())
    return failure();
  DataExprParser exprParser(parser, ctrl, names, coords);
  FailureOr<std::unique_ptr<ExprNode>> expr = exprParser.parseExpr();
  if (failed(expr) || parser.parseOptionalAttrDict(result.attributes) ||
      names.parseTypes(parser))
    return failure();

  SmallVector<Value> buffers, ctrlValues;
  if (names.resolve(parser, buffers) || ctrl.resolve(ctrlValues))
    return failure();
  auto destType = dyn_cast<BufferTypeInterface>(buffers.front().getType());
  if (!destType)
    return parser.emitError(parser.getNameLoc(),
                            "the destination must be a data buffer");

  unsigned numCtrl = ctrl.getNumOperands();
  ArrayRef<AffineExpr> destExprs =
      ArrayRef<AffineExpr>(coords.exprs).take_front(counts.front());
  result.addOperands(buffers.front());
  result.addOperands(ctrlValues);
  result.addAttribute("indices",
                      AffineMapAttr::get(AffineMap::get(numCtrl, 0, destExprs,
                                                        parser.getContext())));

  OpBuilder builder(parser.getContext());
  Region *region = result.addRegion();
  Block *block = builder.createBlock(region);
  builder.setInsertionPointToEnd(block);
  Location loc = parser.getEncodedSourceLoc(parser.getNameLoc());
  DataExprBuilder exprBuilder(parser, builder, loc, buffers, coords.exprs,
                              ctrlValues, numCtrl);
  FailureOr<Value> value = exprBuilder.build(**expr, destType.getElementType());
  if (failed(value))
    return failure();
  YieldOp::create(builder, loc, *value);
  return success();
}

/// Collects the buffers named by an expression tree, left to right.
static void collectReads(Value value, SmallVectorImpl<Value> &buffers) {
  Operation *def = value.getDefiningOp();
  if (!def)
    return;
  if (auto read = dyn_cast<ReadOp>(def)) {
    buffers.push_back(read.getSource());
    return;
  }
  for (Value operand : def->getOperands())
    collectReads(operand, buffers);
}

/// The shortest decimal spelling of `value` that reads back exactly, with a
/// '.' or exponent so it reads as a float literal.
static std::string formatShortestDouble(double value) {
  std::string text;
  for (int precision = 1; precision <= 17; ++precision) {
    text = llvm::formatv("{0}", llvm::format("%.*g", precision, value)).str();
    if (std::strtod(text.c_str(), nullptr) == value)
      break;
  }
  // An MLIR float literal has a '.' before any exponent: 1e+30 reads back
  // as 1.0e+30.
  if (text.find_first_of(".n") == std::string::npos)
    text.insert(std::min(text.find_first_of("eE"), text.size()), ".0");
  return text;
}

/// Binding strength of expression printing.
enum class DataPrec { Sum = 0, Product = 1, Unary = 2 };

static void printDataExpr(OpAsmPrinter &p, Value value, DataPrec context) {
  Operation *def = value.getDefiningOp();
  if (auto read = dyn_cast_or_null<ReadOp>(def)) {
    p.printOperand(read.getSource());
    SmallVector<int32_t> kinds(read.getIndices().getNumResults(),
                               static_cast<int32_t>(CoordKind::Point));
    printCoords(p, kinds, read.getIndices().getResults(), read.getCtrl());
    return;
  }
  if (auto constant = dyn_cast_or_null<ConstantOp>(def)) {
    if (auto f = dyn_cast<FloatAttr>(constant.getValue())) {
      p << formatShortestDouble(f.getValueAsDouble());
    } else if (auto i = dyn_cast<IntegerAttr>(constant.getValue())) {
      if (i.getType().isUnsignedInteger())
        p << i.getValue().getZExtValue();
      else
        p << i.getValue().getSExtValue();
    }
    return;
  }
  if (auto neg = dyn_cast_or_null<NegOp>(def)) {
    // Never glued to a minus of its operand: -(-x), -(-2.0).
    Operation *operand = neg.getOperand().getDefiningOp();
    bool glued = isa_and_nonnull<NegOp>(operand);
    if (auto constant = dyn_cast_or_null<ConstantOp>(operand)) {
      auto value = cast<TypedAttr>(constant.getValue());
      if (auto f = dyn_cast<FloatAttr>(value))
        glued = f.getValue().isNegative();
      else if (auto i = dyn_cast<IntegerAttr>(value))
        glued = !i.getType().isUnsignedInteger() && i.getValue().isNegative();
    }
    p << (glued ? "-(" : "-");
    printDataExpr(p, neg.getOperand(), DataPrec::Unary);
    if (glued)
      p << ')';
    return;
  }
  // Functions: their arguments need no parentheses of their own.
  if (StringRef name = dataFunctionName(def); !name.empty()) {
    p << name << '(';
    llvm::interleaveComma(def->getOperands(), p, [&](Value arg) {
      printDataExpr(p, arg, DataPrec::Sum);
    });
    p << ')';
    return;
  }
  auto printBinary = [&](auto op, DataPrec own) {
    bool parens = static_cast<int>(own) < static_cast<int>(context);
    if (parens)
      p << '(';
    printDataExpr(p, op.getLhs(), own);
    p << ' ' << decltype(op)::getSymbol() << ' ';
    printDataExpr(p, op.getRhs(),
                  static_cast<DataPrec>(static_cast<int>(own) + 1));
    if (parens)
      p << ')';
  };
  if (auto op = dyn_cast_or_null<AddOp>(def))
    return printBinary(op, DataPrec::Sum);
  if (auto op = dyn_cast_or_null<SubOp>(def))
    return printBinary(op, DataPrec::Sum);
  if (auto op = dyn_cast_or_null<MulOp>(def))
    return printBinary(op, DataPrec::Product);
  if (auto op = dyn_cast_or_null<DivOp>(def))
    return printBinary(op, DataPrec::Product);
  p << "<<unprintable>>";
}

template <typename WriteOpT>
static void printWriteOp(WriteOpT op, OpAsmPrinter &p, StringRef symbol) {
  p << ' ';
  SmallVector<int32_t> kinds(op.getIndices().getNumResults(),
                             static_cast<int32_t>(CoordKind::Point));
  p.printOperand(op.getDest());
  printCoords(p, kinds, op.getIndices().getResults(), op.getCtrl());
  p << ' ' << symbol << ' ';
  printDataExpr(p, op.getValueExpr(), DataPrec::Sum);
  p.printOptionalAttrDict(op->getAttrs(), {"indices"});
  SmallVector<Value> buffers{op.getDest()};
  collectReads(op.getValueExpr(), buffers);
  printBufferTypes(p, buffers);
}

/// Checks that a statement at `op`'s device scope may access `memory` directly:
/// host memory only from CPU code, CUDA memories only from device code (guide,
/// "Async Blocks": global memory is allocated from the CPU but accessed only
/// by CUDA code).
static LogicalResult verifyAccessScope(Operation *op, MemoryAttr memory) {
  bool cuda = isCudaScope(op);
  if (cuda && memory.isHost())
    return op->emitOpError("CUDA code cannot access host memory (DRAM)");
  if (!cuda && !memory.isHost())
    return op->emitOpError()
           << "CPU code cannot access " << stringifyMemoryKind(memory.getKind())
           << " directly; access it inside a device_function";
  return success();
}

/// Checks that a write statement's expression region (verified before) ends
/// in yield.
static LogicalResult verifyExpressionRegion(Operation *op) {
  Block &block = op->getRegion(0).front();
  if (block.empty() || !isa<YieldOp>(block.back()))
    return op->emitOpError("expression region must end with exogpu.yield");
  return success();
}

/// Checks a write statement: point indices matching the destination rank,
/// and the scope of the memory accessed.
template <typename WriteOpT> static LogicalResult verifyWriteOp(WriteOpT op) {
  auto dest = cast<BufferTypeInterface>(op.getDest().getType());
  if (failed(verifyControlMap(op, op.getIndices(), op.getCtrl().size(),
                              "destination indices")))
    return failure();
  if (op.getIndices().getNumResults() != dest.getRank())
    return op.emitOpError()
           << "destination has rank " << dest.getRank() << " but "
           << op.getIndices().getNumResults() << " indices";
  // An instruction body is the sequential meaning of its instruction: a TMA
  // store writes through its tensor-map parameter (stdlib/sm90a.mlir).
  if (op->template getParentOfType<InstrOp>())
    return success();
  if (isa<WindowType>(dest) && cast<WindowType>(dest).getSpecial())
    return op.emitOpError("cannot write through a special window outside an "
                          "instruction body");
  return verifyAccessScope(op, dest.getMemory());
}

Value AssignOp::getValueExpr() {
  return cast<YieldOp>(getValue().front().getTerminator()).getValue();
}
Value ReduceOp::getValueExpr() {
  return cast<YieldOp>(getValue().front().getTerminator()).getValue();
}

ParseResult AssignOp::parse(OpAsmParser &parser, OperationState &result) {
  return parseWriteOp(parser, result, /*isReduce=*/false);
}
void AssignOp::print(OpAsmPrinter &p) { printWriteOp(*this, p, "="); }
LogicalResult AssignOp::verify() { return verifyWriteOp(*this); }
LogicalResult AssignOp::verifyRegions() {
  return verifyExpressionRegion(*this);
}

ParseResult ReduceOp::parse(OpAsmParser &parser, OperationState &result) {
  return parseWriteOp(parser, result, /*isReduce=*/true);
}
void ReduceOp::print(OpAsmPrinter &p) { printWriteOp(*this, p, "+="); }
LogicalResult ReduceOp::verify() { return verifyWriteOp(*this); }
LogicalResult ReduceOp::verifyRegions() {
  return verifyExpressionRegion(*this);
}

/// A write of `dest`, plus a read for a reduction.
template <typename WriteOpT>
static void addWriteEffects(
    WriteOpT op,
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects,
    bool reads) {
  if (reads)
    effects.emplace_back(MemoryEffects::Read::get(), &op.getDestMutable());
  effects.emplace_back(MemoryEffects::Write::get(), &op.getDestMutable());
}

void AssignOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  addWriteEffects(*this, effects, /*reads=*/false);
}
void ReduceOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  addWriteEffects(*this, effects, /*reads=*/true);
}

//===----------------------------------------------------------------------===//
// Expression ops
//===----------------------------------------------------------------------===//

void ReadOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  effects.emplace_back(MemoryEffects::Read::get(), &getSourceMutable());
}

LogicalResult ReadOp::verify() {
  auto source = cast<BufferTypeInterface>(getSource().getType());
  if (failed(verifyControlMap(*this, getIndices(), getCtrl().size(),
                              "read indices")))
    return failure();
  if (getIndices().getNumResults() != source.getRank())
    return emitOpError() << "reads a buffer of rank " << source.getRank()
                         << " with " << getIndices().getNumResults()
                         << " indices";
  if (getType() != source.getElementType())
    return emitOpError() << "result type " << getType()
                         << " differs from the buffer precision "
                         << source.getElementType();
  // Instruction bodies describe behavior and are not placed in a scope.
  if ((*this)->getParentOfType<InstrOp>())
    return success();
  return verifyAccessScope(*this, source.getMemory());
}

/// Checks that a function defined on floating-point values gets one.
static LogicalResult verifyFloatFunction(Operation *op, Type type) {
  if (!isa<FloatType>(type))
    return op->emitOpError() << "takes a floating-point operand, got " << type;
  return success();
}

LogicalResult Exp2Op::verify() { return verifyFloatFunction(*this, getType()); }
LogicalResult Log2Op::verify() { return verifyFloatFunction(*this, getType()); }

StringRef mlir::exogpu::dataFunctionName(Operation *op) {
  if (isa_and_nonnull<MaxOp>(op))
    return "max";
  if (isa_and_nonnull<Exp2Op>(op))
    return "exp2";
  if (isa_and_nonnull<Log2Op>(op))
    return "log2";
  return {};
}

bool mlir::exogpu::isDataExpressionOp(Operation *op) {
  return isa<ReadOp, ConstantOp, AddOp, SubOp, MulOp, DivOp, NegOp, MaxOp,
             Exp2Op, Log2Op>(op);
}

LogicalResult ConstantOp::verify() {
  if (getValue().getType() != getType())
    return emitOpError() << "literal of type " << getValue().getType()
                         << " does not match the result type " << getType();
  return success();
}
