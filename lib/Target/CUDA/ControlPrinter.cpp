//===- ControlPrinter.cpp - control expressions as C++ --------------------===//
//
// Part of ExoGPU (internal to the CUDA translation).
//
//===----------------------------------------------------------------------===//

#include "ControlPrinter.h"
#include "mlir/IR/AffineExprVisitor.h"
#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::exogpu;
using namespace mlir::exogpu::cuda;

//===----------------------------------------------------------------------===//
// Bounds
//===----------------------------------------------------------------------===//

static std::optional<int64_t> add(std::optional<int64_t> a,
                                  std::optional<int64_t> b) {
  if (!a || !b)
    return std::nullopt;
  return llvm::checkedAdd(*a, *b);
}

static std::optional<int64_t> mul(std::optional<int64_t> a, int64_t c) {
  if (!a)
    return std::nullopt;
  return llvm::checkedMul(*a, c);
}

IntRange mlir::exogpu::cuda::getRange(AffineExpr expr, DimRangeFn dimRange) {
  if (auto c = dyn_cast<AffineConstantExpr>(expr))
    return IntRange::exact(c.getValue());
  if (auto d = dyn_cast<AffineDimExpr>(expr))
    return dimRange(d.getPosition());
  auto bin = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!bin)
    return {};
  IntRange l = getRange(bin.getLHS(), dimRange);
  auto rhsConst = dyn_cast<AffineConstantExpr>(bin.getRHS());
  switch (expr.getKind()) {
  case AffineExprKind::Add: {
    IntRange r = getRange(bin.getRHS(), dimRange);
    return {add(l.lo, r.lo), add(l.hi, r.hi)};
  }
  case AffineExprKind::Mul: {
    if (!rhsConst)
      return {};
    int64_t c = rhsConst.getValue();
    if (c >= 0)
      return {mul(l.lo, c), mul(l.hi, c)};
    return {mul(l.hi, c), mul(l.lo, c)};
  }
  case AffineExprKind::FloorDiv: {
    if (!rhsConst || rhsConst.getValue() <= 0)
      return {};
    int64_t c = rhsConst.getValue();
    IntRange r;
    if (l.lo)
      r.lo = llvm::divideFloorSigned(*l.lo, c);
    if (l.hi)
      r.hi = llvm::divideFloorSigned(*l.hi, c);
    return r;
  }
  case AffineExprKind::Mod: {
    if (!rhsConst || rhsConst.getValue() <= 0)
      return {};
    int64_t c = rhsConst.getValue();
    if (l.isWithin(c))
      return l;
    return IntRange::between(0, c - 1);
  }
  default:
    return {};
  }
}

//===----------------------------------------------------------------------===//
// Simplification with bounds
//===----------------------------------------------------------------------===//

/// The terms of a sum, each as base * coefficient (a constant term has a
/// null base).
static void collectTerms(AffineExpr expr, int64_t scale,
                         SmallVectorImpl<std::pair<AffineExpr, int64_t>> &out) {
  if (auto c = dyn_cast<AffineConstantExpr>(expr)) {
    out.push_back({AffineExpr(), c.getValue() * scale});
    return;
  }
  if (expr.getKind() == AffineExprKind::Add) {
    auto bin = cast<AffineBinaryOpExpr>(expr);
    collectTerms(bin.getLHS(), scale, out);
    collectTerms(bin.getRHS(), scale, out);
    return;
  }
  if (expr.getKind() == AffineExprKind::Mul) {
    auto bin = cast<AffineBinaryOpExpr>(expr);
    if (auto c = dyn_cast<AffineConstantExpr>(bin.getRHS())) {
      collectTerms(bin.getLHS(), scale * c.getValue(), out);
      return;
    }
  }
  out.push_back({expr, scale});
}

static AffineExpr sumTerms(ArrayRef<std::pair<AffineExpr, int64_t>> terms,
                           MLIRContext *ctx) {
  AffineExpr sum = getAffineConstantExpr(0, ctx);
  for (auto [base, coeff] : terms)
    sum = sum + (base ? base * coeff : getAffineConstantExpr(coeff, ctx));
  return sum;
}

AffineExpr mlir::exogpu::cuda::normalizeControlExpr(AffineExpr expr) {
  auto bin = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!bin)
    return expr;
  if (expr.getKind() == AffineExprKind::FloorDiv)
    return normalizeControlExpr(bin.getLHS()).floorDiv(bin.getRHS());
  if (expr.getKind() == AffineExprKind::Mod)
    return normalizeControlExpr(bin.getLHS()) % bin.getRHS();
  SmallVector<std::pair<AffineExpr, int64_t>> terms, merged;
  collectTerms(expr, 1, terms);
  for (auto [base, coeff] : terms) {
    if (base)
      base = normalizeControlExpr(base);
    auto it = llvm::find_if(merged, [&](auto &m) { return m.first == base; });
    if (it != merged.end())
      it->second += coeff;
    else
      merged.push_back({base, coeff});
  }
  llvm::erase_if(merged, [](auto &m) { return m.second == 0; });
  return sumTerms(merged, expr.getContext());
}

static AffineExpr simplifyTree(AffineExpr expr, DimRangeFn dimRange) {
  auto bin = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!bin)
    return expr;
  AffineExpr lhs = simplifyTree(bin.getLHS(), dimRange);
  AffineExpr rhs = simplifyTree(bin.getRHS(), dimRange);
  auto c = dyn_cast<AffineConstantExpr>(rhs);
  bool isDiv = expr.getKind() == AffineExprKind::FloorDiv;
  bool isMod = expr.getKind() == AffineExprKind::Mod;
  if (!(isDiv || isMod) || !c || c.getValue() <= 0) {
    switch (expr.getKind()) {
    case AffineExprKind::Add:
      return lhs + rhs;
    case AffineExprKind::Mul:
      return lhs * rhs;
    case AffineExprKind::FloorDiv:
      return lhs.floorDiv(rhs);
    case AffineExprKind::Mod:
      return lhs % rhs;
    default:
      return expr;
    }
  }
  int64_t divisor = c.getValue();
  SmallVector<std::pair<AffineExpr, int64_t>> terms, multiples, rest;
  collectTerms(lhs, 1, terms);
  for (auto term : terms)
    (term.second % divisor == 0 ? multiples : rest).push_back(term);
  MLIRContext *ctx = expr.getContext();
  AffineExpr remainder = sumTerms(rest, ctx);
  bool remainderFits = getRange(remainder, dimRange).isWithin(divisor);
  if (isMod)
    return remainderFits ? remainder : remainder % divisor;
  for (auto &term : multiples)
    term.second /= divisor;
  AffineExpr quotient = sumTerms(multiples, ctx);
  return remainderFits ? quotient : quotient + remainder.floorDiv(divisor);
}

AffineExpr mlir::exogpu::cuda::simplifyWithRanges(AffineExpr expr,
                                                  unsigned numDims,
                                                  DimRangeFn dimRange) {
  expr = simplifyAffineExpr(expr, numDims, 0);
  return simplifyAffineExpr(simplifyTree(expr, dimRange), numDims, 0);
}

//===----------------------------------------------------------------------===//
// Printing
//===----------------------------------------------------------------------===//

namespace {
/// Precedence of a printed C++ expression.
enum class Prec { Additive = 0, Multiplicative = 1, Primary = 2 };

struct Printed {
  std::string text;
  Prec prec;
};

class Printer {
public:
  Printer(DimNameFn dimName, DimRangeFn dimRange)
      : dimName(dimName), dimRange(dimRange) {}

  Printed print(AffineExpr expr) {
    if (auto c = dyn_cast<AffineConstantExpr>(expr))
      return {std::to_string(c.getValue()),
              c.getValue() < 0 ? Prec::Additive : Prec::Primary};
    if (auto d = dyn_cast<AffineDimExpr>(expr))
      return {dimName(d.getPosition()), Prec::Primary};
    auto bin = cast<AffineBinaryOpExpr>(expr);
    switch (expr.getKind()) {
    case AffineExprKind::Add:
      return printSum(expr);
    case AffineExprKind::Mul: {
      SmallVector<std::pair<AffineExpr, int64_t>> terms;
      collectTerms(expr, 1, terms);
      if (terms.size() == 1 && terms[0].first) {
        auto [base, coeff] = terms[0];
        if (coeff == -1)
          return {"-" + wrap(print(base), Prec::Primary), Prec::Additive};
        return {wrap(print(base), Prec::Multiplicative) + " * " +
                    std::to_string(coeff),
                Prec::Multiplicative};
      }
      return printSum(expr);
    }
    case AffineExprKind::FloorDiv:
    case AffineExprKind::Mod: {
      bool isDiv = expr.getKind() == AffineExprKind::FloorDiv;
      Printed lhs = print(bin.getLHS());
      Printed rhs = print(bin.getRHS());
      if (getRange(bin.getLHS(), dimRange).isNonNegative())
        return {wrap(lhs, Prec::Multiplicative) + (isDiv ? " / " : " % ") +
                    wrap(rhs, Prec::Primary),
                Prec::Multiplicative};
      return {std::string(isDiv ? "exo::floordiv(" : "exo::floormod(") +
                  lhs.text + ", " + rhs.text + ")",
              Prec::Primary};
    }
    default:
      return {"<unsupported>", Prec::Primary};
    }
  }

private:
  static std::string wrap(const Printed &p, Prec min) {
    return p.prec >= min ? p.text : "(" + p.text + ")";
  }

  /// A sum with its positive terms first, then `- term` for negative ones.
  Printed printSum(AffineExpr expr) {
    SmallVector<std::pair<AffineExpr, int64_t>> terms;
    collectTerms(expr, 1, terms);
    std::stable_partition(terms.begin(), terms.end(),
                          [](auto &t) { return t.second > 0; });
    std::string text;
    int64_t constant = 0;
    for (auto [base, coeff] : terms) {
      if (!base) {
        constant += coeff;
        continue;
      }
      bool negative = coeff < 0 && !text.empty();
      int64_t magnitude = negative ? -coeff : coeff;
      std::string term;
      if (magnitude == 1)
        term = wrap(print(base), Prec::Multiplicative);
      else if (magnitude == -1)
        term = "-" + wrap(print(base), Prec::Primary);
      else
        term = wrap(print(base), Prec::Multiplicative) + " * " +
               std::to_string(magnitude);
      if (text.empty())
        text = term;
      else
        text += (negative ? " - " : " + ") + term;
    }
    if (text.empty())
      return {std::to_string(constant),
              constant < 0 ? Prec::Additive : Prec::Primary};
    if (constant > 0)
      text += " + " + std::to_string(constant);
    else if (constant < 0)
      text += " - " + std::to_string(-constant);
    return {text, Prec::Additive};
  }

  DimNameFn dimName;
  DimRangeFn dimRange;
};
} // namespace

std::string mlir::exogpu::cuda::printControlExpr(AffineExpr expr,
                                                 DimNameFn dimName,
                                                 DimRangeFn dimRange) {
  return Printer(dimName, dimRange).print(expr).text;
}

std::string mlir::exogpu::cuda::printConditionExpr(ConditionAttr condition,
                                                   DimNameFn operand,
                                                   DimRangeFn dimRange) {
  AffineMap map = condition.getMap();
  unsigned next = 0;
  SmallVector<std::string> clauses;
  SmallVector<std::string> atoms;
  auto endClause = [&]() {
    std::string clause = atoms.empty() ? "true" : atoms.front();
    for (size_t i = 1; i < atoms.size(); ++i)
      clause += " && " + atoms[i];
    clauses.push_back(clause);
    atoms.clear();
  };
  auto print = [&](AffineExpr e) {
    return printControlExpr(e, operand, dimRange);
  };
  for (int64_t raw : condition.getAtoms()) {
    auto kind = static_cast<ConditionAtomKind>(raw);
    switch (kind) {
    case ConditionAtomKind::Or:
      endClause();
      continue;
    case ConditionAtomKind::True:
      atoms.push_back("true");
      continue;
    case ConditionAtomKind::False:
      atoms.push_back("false");
      continue;
    case ConditionAtomKind::Bool:
      atoms.push_back(print(map.getResult(next++)));
      continue;
    default:
      break;
    }
    std::string lhs = print(map.getResult(next++));
    std::string rhs = print(map.getResult(next++));
    const char *op = kind == ConditionAtomKind::Eq   ? " == "
                     : kind == ConditionAtomKind::Lt ? " < "
                     : kind == ConditionAtomKind::Le ? " <= "
                     : kind == ConditionAtomKind::Gt ? " > "
                                                     : " >= ";
    atoms.push_back(lhs + op + rhs);
  }
  endClause();
  if (clauses.size() == 1)
    return clauses.front();
  std::string text;
  for (const std::string &clause : clauses) {
    if (!text.empty())
      text += " || ";
    text +=
        clause.find("&&") != std::string::npos ? "(" + clause + ")" : clause;
  }
  return text;
}

//===----------------------------------------------------------------------===//
// ControlSpace
//===----------------------------------------------------------------------===//

unsigned ControlSpace::getDim(Value value) {
  auto [it, inserted] = dims.try_emplace(value, values.size());
  if (inserted)
    values.push_back(value);
  return it->second;
}

AffineExpr ControlSpace::lift(AffineExpr expr, ValueRange operands) {
  SmallVector<AffineExpr> replacements;
  for (Value operand : operands)
    replacements.push_back(getAffineDimExpr(getDim(operand), context));
  return expr.replaceDimsAndSymbols(replacements, {});
}

SmallVector<AffineExpr> ControlSpace::lift(AffineMap map, ValueRange operands) {
  return llvm::map_to_vector(map.getResults(),
                             [&](AffineExpr e) { return lift(e, operands); });
}
