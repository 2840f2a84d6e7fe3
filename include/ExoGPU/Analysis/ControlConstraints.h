//===- ControlConstraints.h - Presburger sets over controls --*- C++ -*-===//
//
// Part of ExoGPU. The legality checks of the scheduling rewrites ask whether
// some statement instances exist: "is there an iteration of s1 and a later
// iteration of s2 that touch the same element?". The instances are integer
// points over SSA control values (proc size/index parameters and loop
// iterators), constrained by the proc's preconditions, the bounds of the
// enclosing loops and the enclosing guards (seeds/002 Fig. 1 control
// expressions are quasi-affine, so all of these are Presburger formulas).
//
// A ControlSet is a union of conjunctions of linear constraints over columns.
// A column is a control value in one *copy*: comparing two instances of a
// statement needs two copies of the iterators they do not share. Copy 0 is
// shared by all instances of a query; copies 1, 2, ... are private to one
// side. `mod` and floor division become local columns, the way
// getFlattenedAffineExprs flattens them. Emptiness is decided with
// presburger::IntegerPolyhedron (MLIR's Presburger library).
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_ANALYSIS_CONTROLCONSTRAINTS_H
#define EXOGPU_ANALYSIS_CONTROLCONSTRAINTS_H

#include "ExoGPU/Dialect/ExoGPU/IR/ExoGPUAttrs.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <optional>
#include <string>

namespace mlir::exogpu {

/// A bound on the magnitude of `expr` and of every subexpression, constants
/// included, when dimension `d` has magnitude at most `dimBound(d)`
/// (saturating at UINT64_MAX). With every bound 1 it bounds the
/// coefficients of the flattened form; with the bound of one dimension and 0
/// for the others, the constants folding computes when that dimension is
/// replaced by a constant.
uint64_t boundMagnitude(AffineExpr expr,
                        function_ref<uint64_t(unsigned)> dimBound);

/// The largest coefficient or constant a query works with: larger ones (in
/// a script or a program) make the query give up, conservatively
/// (ControlSet::isEmpty says no), instead of overflowing 64-bit arithmetic.
constexpr uint64_t kMaxControlMagnitude = uint64_t(1) << 40;

/// A linear form over columns: sum of coefficient * column, plus a constant.
struct LinearForm {
  SmallVector<std::pair<unsigned, int64_t>, 4> terms;
  int64_t constant = 0;
  /// Set when a coefficient or the constant left the range the queries
  /// handle (kMaxControlMagnitude): the form is unknown.
  bool overflow = false;

  /// `this + scale * other`.
  LinearForm plus(const LinearForm &other, int64_t scale = 1) const;
  static LinearForm ofConstant(int64_t c) {
    LinearForm f;
    f.constant = c;
    return f;
  }
  static LinearForm ofColumn(unsigned column) {
    LinearForm f;
    f.terms.push_back({column, 1});
    return f;
  }
};

/// Which copy of each control value a statement instance reads: the
/// iterators of the loops at or below one of `privateRoots` are copy `copy`;
/// every other value (enclosing iterators, parameters) is the shared copy 0.
/// The conditions of `ignoredGuards` are left out of the instance's context
/// (a query about the instances a guard excludes adds their negation).
struct InstanceScope {
  SmallVector<Operation *, 2> privateRoots;
  unsigned copy = 0;
  SmallVector<Operation *, 1> ignoredGuards;

  InstanceScope() = default;
  InstanceScope(ArrayRef<Operation *> roots, unsigned copy)
      : privateRoots(roots.begin(), roots.end()), copy(copy) {}

  /// Whether scope op `op` (a loop or guard) is at or below a private root.
  bool isPrivate(Operation *op) const;
  /// The copy of `value` this instance uses.
  unsigned copyOf(Value value) const;
};

/// The user's name of a control value: a loop's iterator name or a
/// parameter name; "?" if it has none.
std::string getControlName(Value value);

/// `expr` in the paper's infix spelling with dimension `d` named after
/// `operands[d]` (`io * 16 + ii`, `k mod 2`), for diagnostics and patterns.
std::string printControlText(AffineExpr expr, ValueRange operands);

/// A union of conjunctions of integer constraints over control-value
/// columns, built incrementally for one query.
class ControlSet {
public:
  ControlSet();

  /// The column of `value` in copy `copy`, created on first use. Booleans
  /// (i1 parameters) are 0/1 columns.
  unsigned getColumn(Value value, unsigned copy);
  /// A fresh existentially quantified column.
  unsigned addLocalColumn();

  /// The linear form of `expr`, whose dimension `d` is `operands[d]` in the
  /// copy `scope` gives it. getFlattenedAffineExpr turns each `mod` / floor
  /// division into a local column; its defining constraints are added to
  /// every conjunction.
  LinearForm linearize(AffineExpr expr, ValueRange operands,
                       const InstanceScope &scope);

  /// Adds `form == 0`, `form >= 0` to every conjunction.
  void addEqualZero(const LinearForm &form);
  void addNonNegative(const LinearForm &form);
  /// Adds `lhs == rhs`, `lhs <= rhs`, `lhs < rhs`.
  void addEqual(const LinearForm &lhs, const LinearForm &rhs);
  void addLessEqual(const LinearForm &lhs, const LinearForm &rhs);
  void addLess(const LinearForm &lhs, const LinearForm &rhs);

  /// Adds a disjunction: every conjunction is replaced by one copy per
  /// alternative, each constrained by `addAlternative(set, i)`. No
  /// alternatives makes the set empty.
  void
  addDisjunction(unsigned numAlternatives,
                 function_ref<void(ControlSet &, unsigned)> addAlternative);

  /// Adds `condition` (in DNF, over `operands` in `scope`'s copies), or its
  /// negation.
  void addCondition(ConditionAttr condition, ValueRange operands,
                    const InstanceScope &scope, bool negated = false);

  /// Whether no integer point satisfies the set. A set with a constraint
  /// whose coefficients left the range the queries handle (see
  /// kMaxControlMagnitude) is never reported empty.
  bool isEmpty() const;

  /// An integer point of the set, described as `name = value` for the
  /// named columns (control values with a name) of copy `copy` (or all
  /// copies), for diagnostics: "i = 3, j = 0". Empty if the set is empty.
  std::string describeSample() const;

private:
  /// One linear constraint: `form == 0` or `form >= 0`.
  struct Row {
    LinearForm form;
    bool isEquality;
  };
  /// One conjunction: its rows.
  using Conjunction = SmallVector<Row, 16>;

  void addRow(const Row &row);

  unsigned numColumns = 0;
  /// Whether a constraint was left out because its form overflowed.
  bool imprecise = false;
  DenseMap<std::pair<Value, unsigned>, unsigned> columns;
  /// The (value, copy) of each named column, for describeSample.
  SmallVector<std::pair<Value, unsigned>> columnValues;
  SmallVector<Conjunction, 1> conjunctions;
};

} // namespace mlir::exogpu

#endif // EXOGPU_ANALYSIS_CONTROLCONSTRAINTS_H
