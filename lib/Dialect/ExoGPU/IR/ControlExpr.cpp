//===- ControlExpr.cpp - quasi-affine control expressions ----------------===//
//
// Part of ExoGPU. Parsing, printing, evaluation and verification of the
// control expressions of seeds/002 Fig. 1 (CExpr, BExpr, WinCoord).
//
//===----------------------------------------------------------------------===//

#include "ExoGPU/Dialect/ExoGPU/IR/ControlExpr.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Operation.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::exogpu;

//===----------------------------------------------------------------------===//
// Evaluation
//===----------------------------------------------------------------------===//

namespace {
/// The instructions of a postfix program: a dimension's value or a constant
/// is pushed (the next program word is its position or value); an
/// operation pops two values and pushes its result.
enum class Instruction : int64_t {
  Dim,
  Const,
  Add,
  Mul,
  FloorDiv,
  CeilDiv,
  Mod
};
} // namespace

/// Appends the program of `expr` to `program`.
static void compile(AffineExpr expr, SmallVectorImpl<int64_t> &program) {
  if (auto c = dyn_cast<AffineConstantExpr>(expr)) {
    program.append({static_cast<int64_t>(Instruction::Const), c.getValue()});
    return;
  }
  if (auto d = dyn_cast<AffineDimExpr>(expr)) {
    program.append({static_cast<int64_t>(Instruction::Dim),
                    static_cast<int64_t>(d.getPosition())});
    return;
  }
  auto bin = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!bin) {
    // A symbol (control expressions have none): its value is unknown.
    program.append({static_cast<int64_t>(Instruction::Dim), -1});
    return;
  }
  compile(bin.getLHS(), program);
  compile(bin.getRHS(), program);
  Instruction op = Instruction::Add;
  switch (expr.getKind()) {
  case AffineExprKind::Add:
    op = Instruction::Add;
    break;
  case AffineExprKind::Mul:
    op = Instruction::Mul;
    break;
  case AffineExprKind::FloorDiv:
    op = Instruction::FloorDiv;
    break;
  case AffineExprKind::CeilDiv:
    op = Instruction::CeilDiv;
    break;
  default:
    op = Instruction::Mod;
    break;
  }
  program.push_back(static_cast<int64_t>(op));
}

/// Runs `program` on `values`; nothing if an intermediate value overflows.
/// With `largest`, raises it to the magnitude of every value pushed.
static std::optional<int64_t> run(ArrayRef<int64_t> program,
                                  ArrayRef<int64_t> values,
                                  uint64_t *largest = nullptr) {
  SmallVector<int64_t, 8> stack;
  auto note = [&](int64_t value) {
    if (largest)
      *largest = std::max(*largest, value < 0 ? uint64_t(0) - uint64_t(value)
                                              : uint64_t(value));
  };
  for (size_t pc = 0; pc < program.size(); ++pc) {
    auto op = static_cast<Instruction>(program[pc]);
    if (op == Instruction::Dim) {
      int64_t position = program[++pc];
      if (position < 0 || static_cast<size_t>(position) >= values.size())
        return std::nullopt;
      stack.push_back(values[position]);
      note(stack.back());
      continue;
    }
    if (op == Instruction::Const) {
      stack.push_back(program[++pc]);
      note(stack.back());
      continue;
    }
    int64_t r = stack.pop_back_val(), &l = stack.back();
    bool overflow = false;
    switch (op) {
    case Instruction::Add:
      overflow = llvm::AddOverflow(l, r, l);
      break;
    case Instruction::Mul:
      overflow = llvm::MulOverflow(l, r, l);
      break;
    case Instruction::FloorDiv:
    case Instruction::CeilDiv:
      // INT64_MIN / -1 is the one quotient past int64.
      overflow = r == -1 && l == std::numeric_limits<int64_t>::min();
      if (!overflow)
        l = r == 0
                ? 0
                : (op == Instruction::FloorDiv ? llvm::divideFloorSigned(l, r)
                                               : llvm::divideCeilSigned(l, r));
      break;
    default: {
      // (l % -1 is 0, and INT64_MIN % -1 would trap.)
      int64_t m = r == 0 || r == -1 ? 0 : l % r;
      // A negative remainder is moved up by the divisor (Fig. 1 mod: the
      // non-negative remainder for a positive divisor).
      overflow = m < 0 && llvm::AddOverflow(m, r, m);
      l = m;
      break;
    }
    }
    if (overflow)
      return std::nullopt;
    note(l);
  }
  return stack.empty() ? std::nullopt : std::optional<int64_t>(stack.back());
}

std::optional<int64_t>
ControlExprEvaluator::evaluate(AffineExpr expr, ArrayRef<int64_t> values) {
  auto [it, inserted] = programs.try_emplace(expr);
  if (inserted)
    compile(expr, it->second);
  return run(it->second, values, watching ? &largestMagnitude : nullptr);
}

void ControlExprEvaluator::watchMagnitudes(bool watch) {
  watching = watch;
  largestMagnitude = 0;
}

std::optional<int64_t>
mlir::exogpu::tryEvaluateControlExpr(AffineExpr expr,
                                     ArrayRef<int64_t> values) {
  SmallVector<int64_t, 8> program;
  compile(expr, program);
  return run(program, values);
}

int64_t mlir::exogpu::evaluateControlExpr(AffineExpr expr,
                                          ArrayRef<int64_t> values) {
  return tryEvaluateControlExpr(expr, values).value_or(0);
}

unsigned mlir::exogpu::getCoordArity(CoordKind kind) {
  switch (kind) {
  case CoordKind::Point:
    return 1;
  case CoordKind::Interval:
    return 2;
  case CoordKind::Full:
    return 0;
  }
  return 0;
}

//===----------------------------------------------------------------------===//
// Parsing
//===----------------------------------------------------------------------===//

std::optional<unsigned>
ControlExprParser::findName(const OpAsmParser::UnresolvedOperand &name) const {
  if (scope) {
    for (auto [i, arg] : llvm::enumerate(*scope))
      if (arg.ssaName.name == name.name && arg.ssaName.number == name.number)
        return static_cast<unsigned>(i);
    return std::nullopt;
  }
  for (auto [i, known] : llvm::enumerate(operands))
    if (known.name == name.name && known.number == name.number)
      return static_cast<unsigned>(i);
  return std::nullopt;
}

ControlExprParser::NameKind ControlExprParser::kindOf(unsigned index) const {
  if (scope)
    return (*scope)[index].type && (*scope)[index].type.isInteger(1)
               ? NameKind::Bool
               : NameKind::Index;
  return kinds[index];
}

FailureOr<unsigned>
ControlExprParser::useName(const OpAsmParser::UnresolvedOperand &name,
                           NameKind kind) {
  std::optional<unsigned> known = findName(name);
  if (!known && scope)
    return parser.emitError(name.location)
           << "'" << name.name
           << "' is not a parameter declared before "
              "this use";
  if (known) {
    if (kindOf(*known) != kind)
      return parser.emitError(name.location)
             << "'" << name.name
             << "' is used both as a boolean and as an "
                "integer control value";
    return *known;
  }
  operands.push_back(name);
  kinds.push_back(kind);
  return static_cast<unsigned>(operands.size() - 1);
}

ParseResult ControlExprParser::parsePositiveInt(int64_t &value) {
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseInteger(value))
    return failure();
  if (value <= 0)
    return parser.emitError(loc)
           << "control expressions divide only by positive constants";
  return success();
}

ParseResult ControlExprParser::parseFactor(AffineExpr &expr) {
  MLIRContext *ctx = parser.getContext();
  if (succeeded(parser.parseOptionalLParen()))
    return failure(parseSum(expr, AffineExpr()) || parser.parseRParen());
  if (succeeded(parser.parseOptionalMinus())) {
    AffineExpr inner;
    if (parseFactor(inner))
      return failure();
    expr = -inner;
    return success();
  }
  OpAsmParser::UnresolvedOperand name;
  OptionalParseResult hasName = parser.parseOptionalOperand(name);
  if (hasName.has_value()) {
    if (failed(*hasName))
      return failure();
    FailureOr<unsigned> pos = useName(name, NameKind::Index);
    if (failed(pos))
      return failure();
    expr = getAffineDimExpr(*pos, ctx);
    return success();
  }
  int64_t value = 0;
  SMLoc loc = parser.getCurrentLocation();
  OptionalParseResult hasInt = parser.parseOptionalInteger(value);
  if (!hasInt.has_value())
    return parser.emitError(loc, "expected a control expression (integer, "
                                 "SSA name, '-' or '(')");
  if (failed(*hasInt))
    return failure();
  expr = getAffineConstantExpr(value, ctx);
  return success();
}

ParseResult ControlExprParser::parseTerm(AffineExpr &expr, AffineExpr leading) {
  if (leading)
    expr = leading;
  else if (parseFactor(expr))
    return failure();
  while (true) {
    SMLoc loc = parser.getCurrentLocation();
    if (succeeded(parser.parseOptionalStar())) {
      AffineExpr rhs;
      if (parseFactor(rhs))
        return failure();
      if (!isa<AffineConstantExpr>(expr) && !isa<AffineConstantExpr>(rhs) &&
          !(expr * rhs).isPureAffine())
        return parser.emitError(loc)
               << "control expressions are quasi-affine: one side of '*' "
                  "must be a constant";
      expr = expr * rhs;
      continue;
    }
    int64_t divisor;
    if (succeeded(parser.parseOptionalSlash())) {
      if (parsePositiveInt(divisor))
        return failure();
      expr = expr.floorDiv(divisor);
      continue;
    }
    if (succeeded(parser.parseOptionalKeyword("mod"))) {
      if (parsePositiveInt(divisor))
        return failure();
      expr = expr % divisor;
      continue;
    }
    return success();
  }
}

ParseResult ControlExprParser::parseSum(AffineExpr &expr, AffineExpr leading) {
  if (parseTerm(expr, leading))
    return failure();
  while (true) {
    AffineExpr rhs;
    if (succeeded(parser.parseOptionalPlus())) {
      if (parseTerm(rhs, AffineExpr()))
        return failure();
      expr = expr + rhs;
    } else if (succeeded(parser.parseOptionalMinus())) {
      if (parseTerm(rhs, AffineExpr()))
        return failure();
      expr = expr - rhs;
    } else {
      return success();
    }
  }
}

ParseResult ControlExprParser::parseExpr(AffineExpr &expr) {
  return parseSum(expr, AffineExpr());
}

/// Parses a relational operator, if one follows.
static std::optional<ConditionAtomKind> parseOptionalRelation(AsmParser &p) {
  if (succeeded(p.parseOptionalEqual())) {
    if (failed(p.parseOptionalEqual()))
      return std::nullopt;
    return ConditionAtomKind::Eq;
  }
  if (succeeded(p.parseOptionalLess()))
    return succeeded(p.parseOptionalEqual()) ? ConditionAtomKind::Le
                                             : ConditionAtomKind::Lt;
  if (succeeded(p.parseOptionalGreater()))
    return succeeded(p.parseOptionalEqual()) ? ConditionAtomKind::Ge
                                             : ConditionAtomKind::Gt;
  return std::nullopt;
}

ParseResult ControlExprParser::parseAtom(SmallVectorImpl<AffineExpr> &exprs,
                                         SmallVectorImpl<int64_t> &atoms) {
  auto push = [&](ConditionAtomKind kind, ArrayRef<AffineExpr> operandsOf) {
    exprs.append(operandsOf.begin(), operandsOf.end());
    atoms.push_back(static_cast<int64_t>(kind));
    return success();
  };
  if (succeeded(parser.parseOptionalKeyword("true")))
    return push(ConditionAtomKind::True, {});
  if (succeeded(parser.parseOptionalKeyword("false")))
    return push(ConditionAtomKind::False, {});

  // A name alone is a boolean atom; a name followed by arithmetic or a
  // relation starts an integer relation.
  AffineExpr lhs;
  AffineExpr newName;
  OpAsmParser::UnresolvedOperand name;
  OptionalParseResult hasName = parser.parseOptionalOperand(name);
  if (hasName.has_value()) {
    if (failed(*hasName))
      return failure();
    std::optional<unsigned> known = findName(name);
    if (known && kindOf(*known) == NameKind::Bool)
      return push(ConditionAtomKind::Bool,
                  getAffineDimExpr(*known, parser.getContext()));
    FailureOr<unsigned> pos = useName(name, NameKind::Index);
    if (failed(pos))
      return failure();
    AffineExpr dim = getAffineDimExpr(*pos, parser.getContext());
    if (!known)
      newName = dim;
    if (parseSum(lhs, dim))
      return failure();
  } else if (parseExpr(lhs)) {
    return failure();
  }

  SMLoc loc = parser.getCurrentLocation();
  std::optional<ConditionAtomKind> rel = parseOptionalRelation(parser);
  if (!rel) {
    if (newName && lhs == newName) {
      kinds[cast<AffineDimExpr>(newName).getPosition()] = NameKind::Bool;
      return push(ConditionAtomKind::Bool, newName);
    }
    return parser.emitError(loc, "expected a relation ('==', '<', '<=', '>' "
                                 "or '>=')");
  }
  AffineExpr rhs;
  if (parseExpr(rhs))
    return failure();
  return push(*rel, {lhs, rhs});
}

ParseResult
ControlExprParser::parseCondition(SmallVectorImpl<AffineExpr> &exprs,
                                  SmallVectorImpl<int64_t> &atoms) {
  while (true) {
    if (parseAtom(exprs, atoms))
      return failure();
    if (succeeded(parser.parseOptionalKeyword("and")))
      continue;
    if (succeeded(parser.parseOptionalKeyword("or"))) {
      atoms.push_back(static_cast<int64_t>(ConditionAtomKind::Or));
      continue;
    }
    return success();
  }
}

ConditionAttr ControlExprParser::parseConditionAttr() {
  SmallVector<AffineExpr> exprs;
  SmallVector<int64_t> atoms;
  SMLoc loc = parser.getCurrentLocation();
  if (parseCondition(exprs, atoms))
    return {};
  return ConditionAttr::getChecked([&] { return parser.emitError(loc); },
                                   parser.getContext(), getMap(exprs),
                                   ArrayRef<int64_t>(atoms));
}

ParseResult ControlExprParser::parseCoords(WindowCoords &coords,
                                           bool pointsOnly, bool optional) {
  return parser.parseCommaSeparatedList(
      optional ? AsmParser::Delimiter::OptionalSquare
               : AsmParser::Delimiter::Square,
      [&]() -> ParseResult {
        SMLoc loc = parser.getCurrentLocation();
        if (succeeded(parser.parseOptionalColon())) {
          if (pointsOnly)
            return parser.emitError(loc, "expected a point index here, not a "
                                         "window");
          coords.kinds.push_back(static_cast<int32_t>(CoordKind::Full));
          return success();
        }
        AffineExpr lo;
        if (parseExpr(lo))
          return failure();
        coords.exprs.push_back(lo);
        if (failed(parser.parseOptionalColon())) {
          coords.kinds.push_back(static_cast<int32_t>(CoordKind::Point));
          return success();
        }
        if (pointsOnly)
          return parser.emitError(loc, "expected a point index here, not a "
                                       "window");
        AffineExpr hi;
        if (parseExpr(hi))
          return failure();
        coords.exprs.push_back(hi);
        coords.kinds.push_back(static_cast<int32_t>(CoordKind::Interval));
        return success();
      });
}

AffineMap ControlExprParser::getMap(ArrayRef<AffineExpr> exprs) const {
  unsigned numDims = scope ? scope->size() : operands.size();
  return AffineMap::get(numDims, 0, exprs, parser.getContext());
}

ParseResult ControlExprParser::resolve(SmallVectorImpl<Value> &values) {
  Builder b(parser.getContext());
  for (auto [name, kind] : llvm::zip(operands, kinds))
    if (parser.resolveOperand(name,
                              kind == NameKind::Bool ? Type(b.getI1Type())
                                                     : Type(b.getIndexType()),
                              values))
      return failure();
  return success();
}

//===----------------------------------------------------------------------===//
// Printing
//===----------------------------------------------------------------------===//

namespace {
/// Binding strength: a sum, a product-like term, a factor.
enum class Prec { Sum = 0, Term = 1, Factor = 2 };
} // namespace

/// Prints dimension `i` of an expression (an SSA name).
using DimPrinter = function_ref<void(unsigned)>;

static void printExpr(raw_ostream &os, AffineExpr expr, DimPrinter printDim,
                      Prec context);

/// If `expr` is `x * c` with a negative constant `c`, or a negative constant,
/// returns the negated expression so a sum can print `a - x * |c|`.
static AffineExpr getNegatedIfNegative(AffineExpr expr) {
  if (auto c = dyn_cast<AffineConstantExpr>(expr))
    return c.getValue() < 0
               ? getAffineConstantExpr(-c.getValue(), expr.getContext())
               : AffineExpr();
  if (expr.getKind() != AffineExprKind::Mul)
    return {};
  auto mul = cast<AffineBinaryOpExpr>(expr);
  auto c = dyn_cast<AffineConstantExpr>(mul.getRHS());
  if (!c || c.getValue() >= 0)
    return {};
  return c.getValue() == -1 ? mul.getLHS() : mul.getLHS() * -c.getValue();
}

static void printExpr(raw_ostream &os, AffineExpr expr, DimPrinter printDim,
                      Prec context) {
  if (auto c = dyn_cast<AffineConstantExpr>(expr)) {
    os << c.getValue();
    return;
  }
  if (auto d = dyn_cast<AffineDimExpr>(expr)) {
    printDim(d.getPosition());
    return;
  }
  auto bin = cast<AffineBinaryOpExpr>(expr);
  Prec own = expr.getKind() == AffineExprKind::Add ? Prec::Sum : Prec::Term;
  bool parens = static_cast<int>(own) < static_cast<int>(context);
  if (parens)
    os << '(';
  switch (expr.getKind()) {
  case AffineExprKind::Add:
    printExpr(os, bin.getLHS(), printDim, Prec::Sum);
    if (AffineExpr negated = getNegatedIfNegative(bin.getRHS())) {
      os << " - ";
      printExpr(os, negated, printDim, Prec::Term);
    } else {
      os << " + ";
      printExpr(os, bin.getRHS(), printDim, Prec::Term);
    }
    break;
  case AffineExprKind::Mul:
    if (auto c = dyn_cast<AffineConstantExpr>(bin.getRHS());
        c && c.getValue() == -1) {
      os << '-';
      printExpr(os, bin.getLHS(), printDim, Prec::Factor);
      break;
    }
    printExpr(os, bin.getLHS(), printDim, Prec::Term);
    os << " * ";
    printExpr(os, bin.getRHS(), printDim, Prec::Factor);
    break;
  case AffineExprKind::FloorDiv:
    printExpr(os, bin.getLHS(), printDim, Prec::Term);
    os << " / ";
    printExpr(os, bin.getRHS(), printDim, Prec::Factor);
    break;
  case AffineExprKind::Mod:
    printExpr(os, bin.getLHS(), printDim, Prec::Term);
    os << " mod ";
    printExpr(os, bin.getRHS(), printDim, Prec::Factor);
    break;
  default:
    // Not producible by the parser and rejected by verifyControlMap.
    os << "<<ceildiv>>";
    break;
  }
  if (parens)
    os << ')';
}

/// Prints dimension `i` as operand `i`, or a marker past the operands.
static void printOperandDim(OpAsmPrinter &printer, ValueRange operands,
                            unsigned i) {
  if (i < operands.size())
    printer.printOperand(operands[i]);
  else
    printer << "<<invalid d" << i << ">>";
}

/// Prints dimension `i` as `names[i]`.
static void printNamedDim(raw_ostream &os, ArrayRef<StringRef> names,
                          unsigned i) {
  if (i < names.size())
    os << names[i];
  else
    os << "<<invalid d" << i << ">>";
}

void mlir::exogpu::printControlExpr(OpAsmPrinter &printer, AffineExpr expr,
                                    ValueRange operands) {
  printExpr(
      printer.getStream(), expr,
      [&](unsigned i) { printOperandDim(printer, operands, i); }, Prec::Sum);
}

void mlir::exogpu::printControlExpr(raw_ostream &os, AffineExpr expr,
                                    ArrayRef<StringRef> names) {
  printExpr(
      os, expr, [&](unsigned i) { printNamedDim(os, names, i); }, Prec::Sum);
}

/// Prints a condition in DNF, naming its dimensions with `printDim`.
static void printConditionWith(raw_ostream &os, ConditionAttr condition,
                               DimPrinter printDim) {
  AffineMap map = condition.getMap();
  unsigned next = 0;
  bool first = true;
  for (int64_t raw : condition.getAtoms()) {
    auto kind = static_cast<ConditionAtomKind>(raw);
    if (kind == ConditionAtomKind::Or) {
      os << " or ";
      first = true;
      continue;
    }
    if (!first)
      os << " and ";
    first = false;
    switch (kind) {
    case ConditionAtomKind::True:
      os << "true";
      break;
    case ConditionAtomKind::False:
      os << "false";
      break;
    case ConditionAtomKind::Bool:
      printExpr(os, map.getResult(next++), printDim, Prec::Sum);
      break;
    default: {
      printExpr(os, map.getResult(next++), printDim, Prec::Sum);
      static const char *const symbols[] = {" == ", " < ", " <= ", " > ",
                                            " >= "};
      os << symbols[raw];
      printExpr(os, map.getResult(next++), printDim, Prec::Sum);
      break;
    }
    }
  }
}

void mlir::exogpu::printCondition(OpAsmPrinter &printer,
                                  ConditionAttr condition,
                                  ValueRange operands) {
  printConditionWith(printer.getStream(), condition, [&](unsigned i) {
    printOperandDim(printer, operands, i);
  });
}

void mlir::exogpu::printCondition(raw_ostream &os, ConditionAttr condition,
                                  ArrayRef<StringRef> names) {
  printConditionWith(os, condition,
                     [&](unsigned i) { printNamedDim(os, names, i); });
}

void mlir::exogpu::printCoords(OpAsmPrinter &printer, ArrayRef<int32_t> kinds,
                               ArrayRef<AffineExpr> exprs,
                               ValueRange operands) {
  printer << '[';
  unsigned next = 0;
  llvm::interleaveComma(kinds, printer, [&](int32_t raw) {
    switch (static_cast<CoordKind>(raw)) {
    case CoordKind::Point:
      printControlExpr(printer, exprs[next++], operands);
      break;
    case CoordKind::Interval:
      printControlExpr(printer, exprs[next++], operands);
      printer << ':';
      printControlExpr(printer, exprs[next++], operands);
      break;
    case CoordKind::Full:
      printer << ':';
      break;
    }
  });
  printer << ']';
}

//===----------------------------------------------------------------------===//
// Verification
//===----------------------------------------------------------------------===//

/// Whether `expr` is in the quasi-affine grammar of Fig. 1.
static bool isQuasiAffine(AffineExpr expr) {
  if (isa<AffineConstantExpr, AffineDimExpr>(expr))
    return true;
  if (isa<AffineSymbolExpr>(expr))
    return false;
  auto bin = cast<AffineBinaryOpExpr>(expr);
  if (!isQuasiAffine(bin.getLHS()) || !isQuasiAffine(bin.getRHS()))
    return false;
  auto rhsConst = dyn_cast<AffineConstantExpr>(bin.getRHS());
  switch (expr.getKind()) {
  case AffineExprKind::Add:
    return true;
  case AffineExprKind::Mul:
    return rhsConst || isa<AffineConstantExpr>(bin.getLHS());
  case AffineExprKind::FloorDiv:
  case AffineExprKind::Mod:
    return rhsConst && rhsConst.getValue() > 0;
  default:
    return false;
  }
}

LogicalResult mlir::exogpu::verifyControlMap(Operation *op, AffineMap map,
                                             unsigned numCtrl, StringRef what) {
  if (map.getNumSymbols() != 0)
    return op->emitOpError() << what << " must not use affine symbols";
  if (map.getNumDims() != numCtrl)
    return op->emitOpError()
           << what << " has " << map.getNumDims()
           << " dimensions but the op has " << numCtrl << " control operands";
  for (AffineExpr e : map.getResults())
    if (!isQuasiAffine(e))
      return op->emitOpError()
             << what
             << " must be quasi-affine (Fig. 1: +, -, * constant, / "
                "positive constant, mod positive constant)";
  return success();
}

LogicalResult mlir::exogpu::verifyCoords(Operation *op, ArrayRef<int32_t> kinds,
                                         unsigned numExprs, StringRef what) {
  unsigned needed = 0;
  for (int32_t raw : kinds) {
    if (raw < 0 || raw > static_cast<int32_t>(CoordKind::Full))
      return op->emitOpError()
             << what << " has an invalid coordinate kind " << raw;
    needed += getCoordArity(static_cast<CoordKind>(raw));
  }
  if (needed != numExprs)
    return op->emitOpError() << what << " needs " << needed
                             << " coordinate expressions, has " << numExprs;
  return success();
}
