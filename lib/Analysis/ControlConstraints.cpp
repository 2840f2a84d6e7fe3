//===- ControlConstraints.cpp - Presburger sets over control values ------===//
//
// Part of ExoGPU. Builds the integer sets the scheduling legality checks
// query (see ControlConstraints.h) and decides them with
// presburger::IntegerPolyhedron.
//
//===----------------------------------------------------------------------===//

#include "ExoGPU/Analysis/ControlConstraints.h"
#include "ExoGPU/Dialect/ExoGPU/IR/ExoGPUOps.h"
#include "mlir/Analysis/FlatLinearValueConstraints.h"
#include "mlir/Analysis/Presburger/IntegerRelation.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::exogpu;
using presburger::IntegerPolyhedron;
using presburger::PresburgerSpace;

uint64_t
mlir::exogpu::boundMagnitude(AffineExpr expr,
                             function_ref<uint64_t(unsigned)> dimBound) {
  if (auto c = dyn_cast<AffineConstantExpr>(expr))
    return c.getValue() < 0 ? 0 - static_cast<uint64_t>(c.getValue())
                            : static_cast<uint64_t>(c.getValue());
  if (auto d = dyn_cast<AffineDimExpr>(expr))
    return dimBound(d.getPosition());
  if (!isa<AffineBinaryOpExpr>(expr))
    return UINT64_MAX;
  auto bin = cast<AffineBinaryOpExpr>(expr);
  uint64_t lhs = boundMagnitude(bin.getLHS(), dimBound);
  uint64_t rhs = boundMagnitude(bin.getRHS(), dimBound);
  if (expr.getKind() == AffineExprKind::Mul)
    return llvm::SaturatingMultiply(lhs, rhs);
  // A floor division or remainder is at most its dividend plus its divisor.
  return llvm::SaturatingAdd(lhs, rhs);
}

/// Whether `v` is within the range the queries handle.
static bool inRange(int64_t v) {
  return v >= -static_cast<int64_t>(kMaxControlMagnitude) &&
         v <= static_cast<int64_t>(kMaxControlMagnitude);
}

LinearForm LinearForm::plus(const LinearForm &other, int64_t scale) const {
  LinearForm result = *this;
  result.overflow |= other.overflow || !inRange(scale);
  int64_t product;
  for (auto [column, coeff] : other.terms) {
    result.overflow |= llvm::MulOverflow(coeff, scale, product);
    result.terms.push_back({column, product});
  }
  result.overflow |=
      llvm::MulOverflow(other.constant, scale, product) ||
      llvm::AddOverflow(result.constant, product, result.constant);
  result.overflow |=
      !inRange(result.constant) || llvm::any_of(result.terms, [](auto term) {
        return !inRange(term.second);
      });
  return result;
}

bool InstanceScope::isPrivate(Operation *op) const {
  return llvm::any_of(privateRoots, [&](Operation *root) {
    return root == op || root->isProperAncestor(op);
  });
}

unsigned InstanceScope::copyOf(Value value) const {
  auto arg = dyn_cast<BlockArgument>(value);
  if (!arg)
    return 0;
  Operation *loop = arg.getOwner()->getParentOp();
  if (!isa_and_nonnull<ForOp>(loop))
    return 0;
  return isPrivate(loop) ? copy : 0;
}

std::string mlir::exogpu::getControlName(Value value) {
  auto arg = dyn_cast<BlockArgument>(value);
  if (!arg)
    return "?";
  Operation *owner = arg.getOwner()->getParentOp();
  if (auto loop = dyn_cast_or_null<ForOp>(owner))
    return loop.getIterName() ? loop.getIterName()->str() : "?";
  ArrayAttr names;
  if (auto proc = dyn_cast_or_null<ProcOp>(owner))
    names = proc.getArgNames();
  else if (auto instr = dyn_cast_or_null<InstrOp>(owner))
    names = instr.getArgNames();
  if (names && arg.getArgNumber() < names.size())
    if (auto name = dyn_cast<StringAttr>(names[arg.getArgNumber()]);
        name && !name.empty())
      return name.str();
  return "?";
}

/// Prints `expr` with dimension `d` named after `operands[d]`.
static void printExprTo(llvm::raw_ostream &os, AffineExpr expr,
                        ValueRange operands) {
  if (auto c = dyn_cast<AffineConstantExpr>(expr)) {
    os << c.getValue();
    return;
  }
  if (auto d = dyn_cast<AffineDimExpr>(expr)) {
    os << getControlName(operands[d.getPosition()]);
    return;
  }
  auto bin = cast<AffineBinaryOpExpr>(expr);
  auto paren = [&](AffineExpr e) {
    bool nested =
        isa<AffineBinaryOpExpr>(e) && e.getKind() == AffineExprKind::Add;
    if (nested)
      os << '(';
    printExprTo(os, e, operands);
    if (nested)
      os << ')';
  };
  switch (expr.getKind()) {
  case AffineExprKind::Add:
    printExprTo(os, bin.getLHS(), operands);
    if (auto c = dyn_cast<AffineConstantExpr>(bin.getRHS());
        c && c.getValue() < 0) {
      os << " - " << -c.getValue();
      return;
    }
    os << " + ";
    printExprTo(os, bin.getRHS(), operands);
    return;
  case AffineExprKind::Mul:
    paren(bin.getLHS());
    os << " * ";
    paren(bin.getRHS());
    return;
  case AffineExprKind::FloorDiv:
    paren(bin.getLHS());
    os << " / ";
    paren(bin.getRHS());
    return;
  default:
    paren(bin.getLHS());
    os << " mod ";
    paren(bin.getRHS());
    return;
  }
}

std::string mlir::exogpu::printControlText(AffineExpr expr,
                                           ValueRange operands) {
  std::string text;
  llvm::raw_string_ostream os(text);
  printExprTo(os, expr, operands);
  return text;
}

ControlSet::ControlSet() { conjunctions.emplace_back(); }

unsigned ControlSet::getColumn(Value value, unsigned copy) {
  auto [it, inserted] = columns.try_emplace({value, copy}, numColumns);
  if (!inserted)
    return it->second;
  unsigned column = numColumns++;
  columnValues.push_back({value, copy});
  if (value.getType().isInteger(1)) {
    addNonNegative(LinearForm::ofColumn(column));
    addLessEqual(LinearForm::ofColumn(column), LinearForm::ofConstant(1));
  }
  return column;
}

unsigned ControlSet::addLocalColumn() {
  columnValues.push_back({Value(), 0});
  return numColumns++;
}

void ControlSet::addRow(const Row &row) {
  // A constraint the queries cannot represent exactly is left out: the set
  // only grows, and isEmpty no longer claims emptiness.
  if (row.form.overflow) {
    imprecise = true;
    return;
  }
  for (Conjunction &conj : conjunctions)
    conj.push_back(row);
}

LinearForm ControlSet::linearize(AffineExpr expr, ValueRange operands,
                                 const InstanceScope &scope) {
  unsigned numDims = operands.size();
  // Flattening computes in 64 bits: bound its coefficients first.
  if (boundMagnitude(expr, [](unsigned) { return uint64_t(1); }) >
      kMaxControlMagnitude) {
    LinearForm unknown;
    unknown.overflow = true;
    return unknown;
  }
  SmallVector<int64_t> flat;
  FlatLinearConstraints locals;
  // Quasi-affine expressions (the verifier's rule) always flatten.
  if (failed(getFlattenedAffineExpr(expr, numDims, 0, &flat, &locals)))
    return LinearForm::ofConstant(0);
  unsigned numLocals = flat.size() - numDims - 1;
  SmallVector<unsigned> varColumns;
  for (Value operand : operands)
    varColumns.push_back(getColumn(operand, scope.copyOf(operand)));
  for (unsigned i = 0; i < numLocals; ++i)
    varColumns.push_back(addLocalColumn());
  auto toForm = [&](ArrayRef<int64_t> coeffs) {
    LinearForm form;
    for (unsigned v = 0, e = varColumns.size(); v < e; ++v)
      if (coeffs[v])
        form.terms.push_back({varColumns[v], coeffs[v]});
    form.constant = coeffs.back();
    return form;
  };
  // The local columns' defining constraints (dims, then locals).
  for (unsigned r = 0, e = locals.getNumEqualities(); r < e; ++r)
    addRow({toForm(locals.getEquality64(r)), /*isEquality=*/true});
  for (unsigned r = 0, e = locals.getNumInequalities(); r < e; ++r)
    addRow({toForm(locals.getInequality64(r)), /*isEquality=*/false});
  return toForm(flat);
}

void ControlSet::addEqualZero(const LinearForm &form) { addRow({form, true}); }
void ControlSet::addNonNegative(const LinearForm &form) {
  addRow({form, false});
}
void ControlSet::addEqual(const LinearForm &lhs, const LinearForm &rhs) {
  addEqualZero(lhs.plus(rhs, -1));
}
void ControlSet::addLessEqual(const LinearForm &lhs, const LinearForm &rhs) {
  addNonNegative(rhs.plus(lhs, -1));
}
void ControlSet::addLess(const LinearForm &lhs, const LinearForm &rhs) {
  addNonNegative(rhs.plus(lhs, -1).plus(LinearForm::ofConstant(-1)));
}

void ControlSet::addDisjunction(
    unsigned numAlternatives,
    function_ref<void(ControlSet &, unsigned)> addAlternative) {
  SmallVector<Conjunction, 1> result;
  for (Conjunction &conj : conjunctions) {
    for (unsigned i = 0; i < numAlternatives; ++i) {
      ControlSet alternative = *this;
      alternative.conjunctions.assign(1, conj);
      addAlternative(alternative, i);
      // Columns the alternative created exist in every conjunction.
      numColumns = alternative.numColumns;
      imprecise |= alternative.imprecise;
      columns = alternative.columns;
      columnValues = alternative.columnValues;
      for (Conjunction &c : alternative.conjunctions)
        result.push_back(std::move(c));
    }
  }
  conjunctions = std::move(result);
}

namespace {
/// One atom of a condition as linear constraints: an atom is a disjunction of
/// rows (a negated equality is `<` or `>`).
using AtomAlternatives = SmallVector<std::pair<LinearForm, bool>, 2>;
} // namespace

/// The alternatives of atom `kind` on `lhs`, `rhs` (or its negation); a
/// constant atom yields no rows when true and no alternatives when false.
static AtomAlternatives atomRows(ConditionAtomKind kind, const LinearForm &lhs,
                                 const LinearForm &rhs, bool negated,
                                 bool &alwaysTrue) {
  alwaysTrue = false;
  LinearForm diff = lhs.plus(rhs, -1); // lhs - rhs
  LinearForm minusOne = LinearForm::ofConstant(-1);
  auto ge = [](LinearForm f) { return std::make_pair(f, false); };
  auto lt = [&] { return ge(rhs.plus(lhs, -1).plus(minusOne)); };
  auto le = [&] { return ge(rhs.plus(lhs, -1)); };
  auto gt = [&] { return ge(diff.plus(minusOne)); };
  auto geq = [&] { return ge(diff); };
  switch (kind) {
  case ConditionAtomKind::Eq:
    if (negated)
      return {lt(), gt()};
    return {std::make_pair(diff, true)};
  case ConditionAtomKind::Lt:
    return {negated ? geq() : lt()};
  case ConditionAtomKind::Le:
    return {negated ? gt() : le()};
  case ConditionAtomKind::Gt:
    return {negated ? le() : gt()};
  case ConditionAtomKind::Ge:
    return {negated ? lt() : geq()};
  case ConditionAtomKind::Bool:
    return {std::make_pair(lhs.plus(LinearForm::ofConstant(negated ? 0 : -1)),
                           true)};
  case ConditionAtomKind::True:
    alwaysTrue = !negated;
    return {};
  case ConditionAtomKind::False:
    alwaysTrue = negated;
    return {};
  case ConditionAtomKind::Or:
    break;
  }
  return {};
}

void ControlSet::addCondition(ConditionAttr condition, ValueRange operands,
                              const InstanceScope &scope, bool negated) {
  SmallVector<LinearForm> results;
  for (AffineExpr e : condition.getMap().getResults())
    results.push_back(linearize(e, operands, scope));
  // The DNF as conjunctions of atoms (each atom: alternatives).
  SmallVector<SmallVector<AtomAlternatives>> conjuncts(1);
  SmallVector<bool> conjunctFalse(1, false);
  unsigned next = 0;
  for (int64_t raw : condition.getAtoms()) {
    auto kind = static_cast<ConditionAtomKind>(raw);
    if (kind == ConditionAtomKind::Or) {
      conjuncts.emplace_back();
      conjunctFalse.push_back(false);
      continue;
    }
    LinearForm lhs, rhs;
    if (kind == ConditionAtomKind::Bool) {
      lhs = results[next++];
    } else if (kind != ConditionAtomKind::True &&
               kind != ConditionAtomKind::False) {
      lhs = results[next++];
      rhs = results[next++];
    }
    bool alwaysTrue;
    AtomAlternatives rows = atomRows(kind, lhs, rhs, negated, alwaysTrue);
    if (alwaysTrue)
      continue;
    if (rows.empty())
      conjunctFalse.back() = true;
    else
      conjuncts.back().push_back(std::move(rows));
  }
  auto addRows = [](ControlSet &set, const AtomAlternatives &rows, unsigned i) {
    set.addRow({rows[i].first, rows[i].second});
  };
  if (!negated) {
    // One alternative per conjunct; each adds all its atoms (one row each).
    addDisjunction(conjuncts.size(), [&](ControlSet &set, unsigned c) {
      if (conjunctFalse[c]) {
        set.addNonNegative(LinearForm::ofConstant(-1));
        return;
      }
      for (const AtomAlternatives &atom : conjuncts[c])
        addRows(set, atom, 0);
    });
    return;
  }
  // not (C1 or C2 ...) = not C1 and not C2 ...; not Ci = one of its negated
  // atoms holds. A conjunct that is false already holds negated.
  for (auto [c, atoms] : llvm::enumerate(conjuncts)) {
    if (conjunctFalse[c])
      continue;
    SmallVector<std::pair<unsigned, unsigned>> choices;
    for (auto [a, atom] : llvm::enumerate(atoms))
      for (unsigned r = 0; r < atom.size(); ++r)
        choices.push_back({a, r});
    addDisjunction(choices.size(), [&](ControlSet &set, unsigned i) {
      addRows(set, atoms[choices[i].first], choices[i].second);
    });
  }
}

/// The polyhedron of one conjunction over `numColumns` columns.
static IntegerPolyhedron
toPolyhedron(unsigned numColumns, ArrayRef<std::pair<LinearForm, bool>> rows) {
  IntegerPolyhedron poly(PresburgerSpace::getSetSpace(numColumns));
  SmallVector<int64_t> coeffs(numColumns + 1);
  for (const auto &[form, isEquality] : rows) {
    std::fill(coeffs.begin(), coeffs.end(), 0);
    for (auto [column, coeff] : form.terms)
      coeffs[column] += coeff;
    coeffs.back() = form.constant;
    if (isEquality)
      poly.addEquality(coeffs);
    else
      poly.addInequality(coeffs);
  }
  return poly;
}

/// The rows of a conjunction in the form toPolyhedron takes.
template <typename ConjunctionT>
static SmallVector<std::pair<LinearForm, bool>>
rowsOf(const ConjunctionT &conj) {
  SmallVector<std::pair<LinearForm, bool>> rows;
  for (const auto &row : conj)
    rows.push_back({row.form, row.isEquality});
  return rows;
}

bool ControlSet::isEmpty() const {
  if (imprecise)
    return false;
  for (const Conjunction &conj : conjunctions)
    if (!toPolyhedron(numColumns, rowsOf(conj)).isIntegerEmpty())
      return false;
  return true;
}

std::string ControlSet::describeSample() const {
  if (imprecise)
    return "";
  for (const Conjunction &conj : conjunctions) {
    std::optional<SmallVector<DynamicAPInt, 8>> sample =
        toPolyhedron(numColumns, rowsOf(conj)).findIntegerSample();
    if (!sample)
      continue;
    std::string text;
    llvm::raw_string_ostream os(text);
    bool first = true;
    // Shared values first, then each copy.
    unsigned maxCopy = 0;
    for (auto [value, copy] : columnValues)
      maxCopy = std::max(maxCopy, copy);
    for (unsigned wanted = 0; wanted <= maxCopy; ++wanted) {
      for (auto [column, key] : llvm::enumerate(columnValues)) {
        auto [value, copy] = key;
        if (!value || copy != wanted ||
            !(value.getType().isIndex() || value.getType().isInteger(1)))
          continue;
        std::string name = getControlName(value);
        if (name == "?")
          continue;
        os << (first ? "" : ", ") << name;
        for (unsigned c = 1; c < copy; ++c)
          os << '\'';
        os << " = " << int64_t((*sample)[column]);
        first = false;
      }
    }
    return text;
  }
  return "";
}
