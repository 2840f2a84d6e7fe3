//===- ControlRewriting.cpp - editing control expressions of statements --===//
//
// Part of ExoGPU. See ControlRewriting.h.
//
//===----------------------------------------------------------------------===//

#include "ExoGPU/Transforms/Scheduling/ControlRewriting.h"
#include "ExoGPU/Analysis/Dependences.h"
#include "ExoGPU/Dialect/ExoGPU/IR/ControlExpr.h"
#include "mlir/IR/AffineExprVisitor.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::exogpu;

//===----------------------------------------------------------------------===//
// ValueExpr
//===----------------------------------------------------------------------===//

/// The number of nodes of `expr`.
static unsigned countNodes(AffineExpr expr) {
  unsigned count = 0;
  expr.walk([&](AffineExpr) { ++count; });
  return count;
}

AffineExpr mlir::exogpu::tidyExpr(AffineExpr expr, unsigned numDims) {
  AffineExpr flat = simplifyAffineExpr(expr, numDims, 0);
  return countNodes(flat) <= countNodes(expr) ? flat : expr;
}

AffineExpr mlir::exogpu::remapOperands(AffineExpr expr, ValueRange exprOperands,
                                       SmallVectorImpl<Value> &operands) {
  SmallVector<AffineExpr> dims;
  for (auto [d, v] : llvm::enumerate(exprOperands)) {
    // Only the values the expression uses join the operands.
    if (!expr.isFunctionOfDim(d)) {
      dims.push_back(getAffineConstantExpr(0, expr.getContext()));
      continue;
    }
    auto it = llvm::find(operands, v);
    unsigned index = it - operands.begin();
    if (it == operands.end())
      operands.push_back(v);
    dims.push_back(getAffineDimExpr(index, expr.getContext()));
  }
  return expr.replaceDimsAndSymbols(dims, {});
}

ValueExpr ValueExpr::of(Value value) {
  return {getAffineDimExpr(0, value.getContext()), {value}};
}

ValueExpr ValueExpr::constant(int64_t c, MLIRContext *context) {
  return {getAffineConstantExpr(c, context), {}};
}

ValueExpr ValueExpr::add(const ValueExpr &a, const ValueExpr &b,
                         int64_t scale) {
  ValueExpr result{AffineExpr(), a.operands};
  AffineExpr rhs = remapOperands(b.expr, b.operands, result.operands);
  result.expr = tidyExpr(a.expr + rhs * scale, result.operands.size());
  return result;
}

ValueExpr ValueExpr::mul(const ValueExpr &a, int64_t c) {
  return {tidyExpr(a.expr * c, a.operands.size()), a.operands};
}

//===----------------------------------------------------------------------===//
// Control maps of ops
//===----------------------------------------------------------------------===//

OperandRange mlir::exogpu::getControlOperands(Operation *op) {
  return TypeSwitch<Operation *, OperandRange>(op)
      .Case<ForOp, IfOp, AssignOp, ReduceOp, ReadOp, AllocOp, WindowOp, CallOp,
            ArriveOp, AwaitOp>([](auto op) { return op.getCtrl(); })
      .Default([](Operation *op) {
        return OperandRange(op->getOperands().end(), op->getOperands().end());
      });
}

SmallVector<AffineMap> mlir::exogpu::getControlMaps(Operation *op) {
  return TypeSwitch<Operation *, SmallVector<AffineMap>>(op)
      .Case([](ForOp op) { return SmallVector<AffineMap>{op.getBounds()}; })
      .Case([](IfOp op) {
        return SmallVector<AffineMap>{op.getCondition().getMap()};
      })
      .Case<AssignOp, ReduceOp, ReadOp>(
          [](auto op) { return SmallVector<AffineMap>{op.getIndices()}; })
      .Case([](AllocOp op) { return SmallVector<AffineMap>{op.getExtents()}; })
      .Case<WindowOp, ArriveOp, AwaitOp>(
          [](auto op) { return SmallVector<AffineMap>{op.getCoords()}; })
      .Case([](CallOp op) {
        return SmallVector<AffineMap>{op.getCtrlArgs(), op.getCoords()};
      })
      .Default([](Operation *) { return SmallVector<AffineMap>{}; });
}

void mlir::exogpu::setControlMaps(Operation *op, ArrayRef<AffineMap> maps,
                                  ValueRange operands) {
  // Used dimensions, in order of first use.
  SmallVector<unsigned> order;
  SmallVector<bool> used(operands.size(), false);
  for (AffineMap map : maps)
    for (AffineExpr result : map.getResults())
      result.walk([&](AffineExpr e) {
        if (auto d = dyn_cast<AffineDimExpr>(e))
          if (!used[d.getPosition()]) {
            used[d.getPosition()] = true;
            order.push_back(d.getPosition());
          }
      });
  MLIRContext *ctx = op->getContext();
  SmallVector<AffineExpr> dims(operands.size(), getAffineConstantExpr(0, ctx));
  SmallVector<Value> newOperands;
  for (auto [i, d] : llvm::enumerate(order)) {
    dims[d] = getAffineDimExpr(i, ctx);
    newOperands.push_back(operands[d]);
  }
  SmallVector<AffineMap> newMaps;
  for (AffineMap map : maps)
    newMaps.push_back(map.replaceDimsAndSymbols(dims, {}, order.size(), 0));
  TypeSwitch<Operation *>(op)
      .Case([&](ForOp op) {
        op.setBoundsAttr(AffineMapAttr::get(newMaps[0]));
        op.getCtrlMutable().assign(newOperands);
      })
      .Case([&](IfOp op) {
        op.setConditionAttr(
            ConditionAttr::get(ctx, newMaps[0], op.getCondition().getAtoms()));
        op.getCtrlMutable().assign(newOperands);
      })
      .Case<AssignOp, ReduceOp, ReadOp>([&](auto op) {
        op.setIndicesAttr(AffineMapAttr::get(newMaps[0]));
        op.getCtrlMutable().assign(newOperands);
      })
      .Case([&](AllocOp op) {
        op.setExtentsAttr(AffineMapAttr::get(newMaps[0]));
        op.getCtrlMutable().assign(newOperands);
      })
      .Case<WindowOp, ArriveOp, AwaitOp>([&](auto op) {
        op.setCoordsAttr(AffineMapAttr::get(newMaps[0]));
        op.getCtrlMutable().assign(newOperands);
      })
      .Case([&](CallOp op) {
        op.setCtrlArgsAttr(AffineMapAttr::get(newMaps[0]));
        op.setCoordsAttr(AffineMapAttr::get(newMaps[1]));
        op.getCtrlMutable().assign(newOperands);
      });
}

void mlir::exogpu::substituteControlValues(
    Operation *root, ArrayRef<ControlSubstitution> substitutions) {
  root->walk([&](Operation *op) {
    OperandRange ctrl = getControlOperands(op);
    auto find = [&](Value v) {
      return llvm::find_if(substitutions, [&](const ControlSubstitution &s) {
        return s.value == v;
      });
    };
    if (llvm::none_of(ctrl,
                      [&](Value v) { return find(v) != substitutions.end(); }))
      return;
    SmallVector<Value> operands;
    SmallVector<AffineExpr> dims;
    for (Value v : ctrl) {
      auto it = find(v);
      if (it != substitutions.end())
        dims.push_back(remapOperands(it->replacement.expr,
                                     it->replacement.operands, operands));
      else
        dims.push_back(remapOperands(getAffineDimExpr(0, op->getContext()), {v},
                                     operands));
    }
    SmallVector<AffineMap> maps;
    for (AffineMap map : getControlMaps(op)) {
      SmallVector<AffineExpr> results;
      for (AffineExpr e : map.getResults())
        results.push_back(
            tidyExpr(e.replaceDimsAndSymbols(dims, {}), operands.size()));
      maps.push_back(
          AffineMap::get(operands.size(), 0, results, op->getContext()));
    }
    setControlMaps(op, maps, operands);
  });
}

//===----------------------------------------------------------------------===//
// Simplification in context
//===----------------------------------------------------------------------===//

/// Appends the summands of `expr`.
static void collectSummands(AffineExpr expr, SmallVectorImpl<AffineExpr> &out) {
  if (expr.getKind() == AffineExprKind::Add) {
    auto bin = cast<AffineBinaryOpExpr>(expr);
    collectSummands(bin.getLHS(), out);
    collectSummands(bin.getRHS(), out);
    return;
  }
  out.push_back(expr);
}

/// `summand / c` if it is a multiple of `c` by its form (`k` or `x * k` with
/// `c | k`).
static std::optional<AffineExpr> divideExactly(AffineExpr summand, int64_t c) {
  if (auto k = dyn_cast<AffineConstantExpr>(summand))
    return k.getValue() % c == 0 ? std::optional(getAffineConstantExpr(
                                       k.getValue() / c, summand.getContext()))
                                 : std::nullopt;
  if (summand.getKind() != AffineExprKind::Mul)
    return std::nullopt;
  auto bin = cast<AffineBinaryOpExpr>(summand);
  auto k = dyn_cast<AffineConstantExpr>(bin.getRHS());
  if (!k || k.getValue() % c != 0)
    return std::nullopt;
  return bin.getLHS() * (k.getValue() / c);
}

static AffineExpr simplifyInContext(AffineExpr expr, ValueRange operands,
                                    Operation *op) {
  auto bin = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!bin)
    return expr;
  AffineExpr lhs = simplifyInContext(bin.getLHS(), operands, op);
  AffineExpr rhs = simplifyInContext(bin.getRHS(), operands, op);
  auto c = dyn_cast<AffineConstantExpr>(rhs);
  bool divMod = expr.getKind() == AffineExprKind::FloorDiv ||
                expr.getKind() == AffineExprKind::Mod;
  if (!divMod || !c || c.getValue() <= 0)
    return getAffineBinaryOpExpr(expr.getKind(), lhs, rhs);
  int64_t divisor = c.getValue();
  MLIRContext *ctx = expr.getContext();
  SmallVector<AffineExpr> summands;
  collectSummands(lhs, summands);
  AffineExpr q = getAffineConstantExpr(0, ctx);
  AffineExpr r = getAffineConstantExpr(0, ctx);
  for (AffineExpr s : summands) {
    if (std::optional<AffineExpr> part = divideExactly(s, divisor))
      q = q + *part;
    else
      r = r + s;
  }
  bool isDiv = expr.getKind() == AffineExprKind::FloorDiv;
  AffineExpr zero = getAffineConstantExpr(0, ctx);
  bool inRange =
      isRelationInvariant(op, r, operands, ConditionAtomKind::Ge, zero, {}) &&
      isRelationInvariant(op, r, operands, ConditionAtomKind::Lt, c, {});
  if (inRange)
    return isDiv ? q : r;
  return isDiv ? q + r.floorDiv(divisor) : r % divisor;
}

void mlir::exogpu::simplifyControl(Operation *root) {
  root->walk([&](Operation *op) {
    // Extents and window coordinates determine result types: they stay as
    // written.
    if (isa<AllocOp, WindowOp>(op))
      return;
    SmallVector<AffineMap> maps = getControlMaps(op);
    if (maps.empty())
      return;
    OperandRange ctrl = getControlOperands(op);
    SmallVector<Value> operands(ctrl.begin(), ctrl.end());
    bool changed = false;
    SmallVector<AffineMap> newMaps;
    for (AffineMap map : maps) {
      SmallVector<AffineExpr> results;
      for (AffineExpr e : map.getResults()) {
        AffineExpr s = tidyExpr(
            simplifyInContext(tidyExpr(e, operands.size()), operands, op),
            operands.size());
        changed |= s != e;
        results.push_back(s);
      }
      newMaps.push_back(
          AffineMap::get(operands.size(), 0, results, op->getContext()));
    }
    if (changed)
      setControlMaps(op, newMaps, operands);
  });
}

//===----------------------------------------------------------------------===//
// Names and text
//===----------------------------------------------------------------------===//

Value mlir::exogpu::lookupName(StringRef name, Operation *at,
                               ArrayRef<std::pair<StringRef, Value>> extra) {
  name.consume_front("%");
  for (auto [extraName, value] : extra)
    if (extraName == name)
      return value;
  for (Operation *op = at; op; op = op->getParentOp()) {
    if (op->getBlock()) {
      // Allocations, windows and splits earlier in the block (the nearest
      // first).
      for (Operation *prev = op->getPrevNode(); prev;
           prev = prev->getPrevNode()) {
        if (auto alloc = dyn_cast<AllocOp>(prev);
            alloc && alloc.getName() == name)
          return alloc.getResult();
        if (auto window = dyn_cast<WindowOp>(prev);
            window && window.getName() == name)
          return window.getResult();
        if (auto split = dyn_cast<SplitOp>(prev);
            split && split.getName() == name)
          return split.getResult();
      }
    }
    Operation *parent = op->getParentOp();
    if (auto loop = dyn_cast_or_null<ForOp>(parent);
        loop && loop.getIterName() == name)
      return loop.getIterator();
    if (auto proc = dyn_cast_or_null<ProcOp>(parent)) {
      for (auto [i, attr] : llvm::enumerate(proc.getArgNames()))
        if (cast<StringAttr>(attr).getValue() == name)
          return proc.getParam(i);
      return {};
    }
  }
  return {};
}

namespace {
/// A recursive-descent parser of the control-expression text of scheduling
/// scripts.
class TextParser {
public:
  TextParser(StringRef text, Operation *at, Location loc, Refusal &refusal,
             ArrayRef<std::pair<StringRef, Value>> extra)
      : text(text), at(at), loc(loc), refusal(refusal), extra(extra) {}

  SmallVector<Value, 4> operands;

  FailureOr<AffineExpr> parseExpr() {
    FailureOr<AffineExpr> lhs = parseTerm();
    while (succeeded(lhs)) {
      if (consume("+")) {
        FailureOr<AffineExpr> rhs = parseTerm();
        if (failed(rhs))
          return failure();
        lhs = *lhs + *rhs;
      } else if (consume("-")) {
        FailureOr<AffineExpr> rhs = parseTerm();
        if (failed(rhs))
          return failure();
        lhs = *lhs - *rhs;
      } else {
        break;
      }
    }
    return lhs;
  }

  /// Appends the atoms of a DNF condition.
  LogicalResult parseCondition(SmallVectorImpl<AffineExpr> &exprs,
                               SmallVectorImpl<int64_t> &atoms) {
    do {
      if (!atoms.empty())
        atoms.push_back(static_cast<int64_t>(ConditionAtomKind::Or));
      do {
        if (failed(parseAtom(exprs, atoms)))
          return failure();
      } while (consumeKeyword("and"));
    } while (consumeKeyword("or"));
    return success();
  }

  LogicalResult parseAccess(ParsedAccess &access) {
    StringRef name = lexName();
    if (name.empty())
      return error("expected a buffer name");
    access.buffer = lookupName(name, at, extra);
    if (!access.buffer ||
        !isa<BufferTypeInterface, BarrierType>(access.buffer.getType()))
      return error("no buffer named '" + name + "' is visible here");
    if (!consume("["))
      return success();
    do {
      if (consume(":")) {
        access.kinds.push_back(static_cast<int32_t>(CoordKind::Full));
        continue;
      }
      FailureOr<AffineExpr> lo = parseExpr();
      if (failed(lo))
        return failure();
      access.exprs.push_back(*lo);
      if (!consume(":")) {
        access.kinds.push_back(static_cast<int32_t>(CoordKind::Point));
        continue;
      }
      FailureOr<AffineExpr> hi = parseExpr();
      if (failed(hi))
        return failure();
      access.exprs.push_back(*hi);
      access.kinds.push_back(static_cast<int32_t>(CoordKind::Interval));
    } while (consume(","));
    if (!consume("]"))
      return error("expected ']'");
    return success();
  }

  LogicalResult finish() {
    skipSpace();
    if (pos != text.size())
      return error("unexpected '" + text.drop_front(pos) + "'");
    return success();
  }

  LogicalResult error(const Twine &message) {
    refusal.at(loc) << "cannot parse '" << text << "': " << message;
    return failure();
  }

private:
  void skipSpace() {
    while (pos < text.size() && isspace(text[pos]))
      ++pos;
  }
  bool consume(StringRef token) {
    skipSpace();
    if (!text.drop_front(pos).starts_with(token))
      return false;
    // `<` must not eat the start of `<=`.
    if ((token == "<" || token == ">") &&
        text.drop_front(pos + 1).starts_with("="))
      return false;
    pos += token.size();
    return true;
  }
  bool consumeKeyword(StringRef keyword) {
    skipSpace();
    StringRef rest = text.drop_front(pos);
    if (!rest.starts_with(keyword))
      return false;
    StringRef after = rest.drop_front(keyword.size());
    if (!after.empty() && (isalnum(after[0]) || after[0] == '_'))
      return false;
    pos += keyword.size();
    return true;
  }
  StringRef lexName() {
    skipSpace();
    size_t start = pos;
    if (pos < text.size() && text[pos] == '%')
      ++pos;
    size_t nameStart = pos;
    while (pos < text.size() && (isalnum(text[pos]) || text[pos] == '_'))
      ++pos;
    if (pos == nameStart || isdigit(text[nameStart])) {
      pos = start;
      return {};
    }
    return text.slice(nameStart, pos);
  }
  std::optional<int64_t> lexInt() {
    skipSpace();
    size_t start = pos;
    while (pos < text.size() && isdigit(text[pos]))
      ++pos;
    int64_t value;
    if (pos == start || text.slice(start, pos).getAsInteger(10, value)) {
      pos = start;
      return std::nullopt;
    }
    return value;
  }
  FailureOr<int64_t> expectPositiveInt(StringRef what) {
    std::optional<int64_t> value = lexInt();
    if (!value || *value <= 0) {
      (void)error(Twine("expected a positive integer after '") + what + "'");
      return failure();
    }
    return *value;
  }

  FailureOr<AffineExpr> parseTerm() {
    FailureOr<AffineExpr> lhs = parseFactor();
    while (succeeded(lhs)) {
      if (consume("*")) {
        FailureOr<AffineExpr> rhs = parseFactor();
        if (failed(rhs))
          return failure();
        if (!isa<AffineConstantExpr>(*lhs) && !isa<AffineConstantExpr>(*rhs)) {
          (void)error("a product needs a constant factor (quasi-affine)");
          return failure();
        }
        lhs = *lhs * *rhs;
      } else if (consume("/")) {
        FailureOr<int64_t> d = expectPositiveInt("/");
        if (failed(d))
          return failure();
        lhs = lhs->floorDiv(*d);
      } else if (consume("%") || consumeKeyword("mod")) {
        FailureOr<int64_t> d = expectPositiveInt("mod");
        if (failed(d))
          return failure();
        lhs = *lhs % *d;
      } else {
        break;
      }
    }
    return lhs;
  }

  FailureOr<AffineExpr> parseFactor() {
    MLIRContext *ctx = at->getContext();
    if (consume("-")) {
      FailureOr<AffineExpr> inner = parseFactor();
      if (failed(inner))
        return failure();
      return -*inner;
    }
    if (consume("(")) {
      FailureOr<AffineExpr> inner = parseExpr();
      if (failed(inner) || (!consume(")") && failed(error("expected ')'"))))
        return failure();
      return inner;
    }
    if (std::optional<int64_t> value = lexInt())
      return getAffineConstantExpr(*value, ctx);
    StringRef name = lexName();
    if (name.empty()) {
      (void)error("expected an expression");
      return failure();
    }
    Value value = lookupName(name, at, extra);
    if (!value || !value.getType().isIndex()) {
      (void)error("no control value named '" + name + "' is visible here");
      return failure();
    }
    return useValue(value);
  }

  AffineExpr useValue(Value value) {
    return remapOperands(getAffineDimExpr(0, at->getContext()), {value},
                         operands);
  }

  LogicalResult parseAtom(SmallVectorImpl<AffineExpr> &exprs,
                          SmallVectorImpl<int64_t> &atoms) {
    if (consumeKeyword("true")) {
      atoms.push_back(static_cast<int64_t>(ConditionAtomKind::True));
      return success();
    }
    if (consumeKeyword("false")) {
      atoms.push_back(static_cast<int64_t>(ConditionAtomKind::False));
      return success();
    }
    // A boolean parameter on its own.
    size_t start = pos;
    StringRef name = lexName();
    if (!name.empty()) {
      Value value = lookupName(name, at, extra);
      if (value && value.getType().isInteger(1)) {
        exprs.push_back(useValue(value));
        atoms.push_back(static_cast<int64_t>(ConditionAtomKind::Bool));
        return success();
      }
    }
    pos = start;
    FailureOr<AffineExpr> lhs = parseExpr();
    if (failed(lhs))
      return failure();
    ConditionAtomKind kind;
    if (consume("=="))
      kind = ConditionAtomKind::Eq;
    else if (consume("<="))
      kind = ConditionAtomKind::Le;
    else if (consume(">="))
      kind = ConditionAtomKind::Ge;
    else if (consume("<"))
      kind = ConditionAtomKind::Lt;
    else if (consume(">"))
      kind = ConditionAtomKind::Gt;
    else
      return error("expected a relation (==, <, <=, >, >=)");
    FailureOr<AffineExpr> rhs = parseExpr();
    if (failed(rhs))
      return failure();
    exprs.push_back(*lhs);
    exprs.push_back(*rhs);
    atoms.push_back(static_cast<int64_t>(kind));
    return success();
  }

  StringRef text;
  size_t pos = 0;
  Operation *at;
  Location loc;
  Refusal &refusal;
  ArrayRef<std::pair<StringRef, Value>> extra;
};
} // namespace

FailureOr<ValueExpr>
mlir::exogpu::parseControlText(StringRef text, Operation *at, Location loc,
                               Refusal &refusal,
                               ArrayRef<std::pair<StringRef, Value>> extra) {
  TextParser parser(text, at, loc, refusal, extra);
  FailureOr<AffineExpr> expr = parser.parseExpr();
  if (failed(expr) || failed(parser.finish()))
    return failure();
  return ValueExpr{tidyExpr(*expr, parser.operands.size()), parser.operands};
}

FailureOr<ParsedCondition>
mlir::exogpu::parseConditionText(StringRef text, Operation *at, Location loc,
                                 Refusal &refusal,
                                 ArrayRef<std::pair<StringRef, Value>> extra) {
  TextParser parser(text, at, loc, refusal, extra);
  SmallVector<AffineExpr> exprs;
  SmallVector<int64_t> atoms;
  if (failed(parser.parseCondition(exprs, atoms)) || failed(parser.finish()))
    return failure();
  MLIRContext *ctx = at->getContext();
  AffineMap map = AffineMap::get(parser.operands.size(), 0, exprs, ctx);
  return ParsedCondition{ConditionAttr::get(ctx, map, atoms), parser.operands};
}

FailureOr<ParsedAccess>
mlir::exogpu::parseAccessText(StringRef text, Operation *at, Location loc,
                              Refusal &refusal,
                              ArrayRef<std::pair<StringRef, Value>> extra) {
  TextParser parser(text, at, loc, refusal, extra);
  ParsedAccess access;
  if (failed(parser.parseAccess(access)) || failed(parser.finish()))
    return failure();
  access.operands = parser.operands;
  return access;
}

//===----------------------------------------------------------------------===//
// Building statements
//===----------------------------------------------------------------------===//

ForOp mlir::exogpu::createLoop(OpBuilder &builder, Location loc, StringRef name,
                               LoopMode mode, const ValueExpr &lo,
                               const ValueExpr &hi, CollUnitAttr unit) {
  MLIRContext *ctx = builder.getContext();
  SmallVector<Value> operands;
  AffineExpr l = remapOperands(lo.expr, lo.operands, operands);
  AffineExpr h = remapOperands(hi.expr, hi.operands, operands);
  AffineMap bounds = AffineMap::get(operands.size(), 0, {l, h}, ctx);
  auto loop = ForOp::create(builder, loc, LoopModeAttr::get(ctx, mode),
                            AffineMapAttr::get(bounds), unit,
                            builder.getStringAttr(name), operands);
  OpBuilder::InsertionGuard guard(builder);
  builder.createBlock(&loop.getBody(), {}, {builder.getIndexType()}, {loc});
  return loop;
}

IfOp mlir::exogpu::createIf(OpBuilder &builder, Location loc,
                            ConditionAttr condition, ValueRange operands) {
  auto guard = IfOp::create(builder, loc, condition, operands);
  OpBuilder::InsertionGuard insertion(builder);
  builder.createBlock(&guard.getBody());
  return guard;
}

ParsedCondition mlir::exogpu::makeCondition(
    MLIRContext *context,
    ArrayRef<std::tuple<ValueExpr, ConditionAtomKind, ValueExpr>> relations) {
  ParsedCondition result;
  SmallVector<AffineExpr> exprs;
  SmallVector<int64_t> atoms;
  for (const auto &[lhs, kind, rhs] : relations) {
    exprs.push_back(remapOperands(lhs.expr, lhs.operands, result.operands));
    exprs.push_back(remapOperands(rhs.expr, rhs.operands, result.operands));
    atoms.push_back(static_cast<int64_t>(kind));
  }
  if (relations.empty())
    atoms.push_back(static_cast<int64_t>(ConditionAtomKind::True));
  result.condition = ConditionAttr::get(
      context, AffineMap::get(result.operands.size(), 0, exprs, context),
      atoms);
  return result;
}
