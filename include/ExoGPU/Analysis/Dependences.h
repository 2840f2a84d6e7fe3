//===- Dependences.h - legality queries of the scheduling rewrites -*- C++ -*-//
//
// Part of ExoGPU. The checks behind Exo's rewrites (seeds/002 Sec. 2.3: a
// rewrite is only permitted when it preserves the sequential meaning),
// decided over Presburger sets (ControlConstraints.h) built from the
// statements' access relations (BufferAccesses.h), the proc's
// preconditions, the enclosing loop bounds and the enclosing guards:
//  * conflicts between two sets of statement instances in an order a
//    rewrite reverses (commuting statements, reordering loops, fission,
//    fusion);
//  * conditions and expressions that hold in every instance of a statement;
//  * dead effects: writes no later statement reads (guard removal, Sec. 8);
//  * circular-buffer folding: no write to a congruent element between a
//    write and a read of the same element.
// Every refusal names the accesses involved, with their locations, and an
// instance that exhibits the problem. Instances that would fail a run-time
// check of the meaning are found by RuntimeChecks.h.
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_ANALYSIS_DEPENDENCES_H
#define EXOGPU_ANALYSIS_DEPENDENCES_H

#include "ExoGPU/Analysis/BufferAccesses.h"
#include "ExoGPU/Analysis/ControlConstraints.h"
#include "llvm/ADT/DenseSet.h"

namespace mlir::exogpu {

/// A set of statement instances under construction: the constraints of
/// their enclosing scopes plus whatever a query adds.
class InstanceSet {
public:
  ControlSet &getSet() { return set; }

  /// Adds the bounds of the loops enclosing `op`, the conditions of the
  /// enclosing guards and the proc's preconditions (size parameters are
  /// positive), each value in the copy `scope` gives it. Shared scopes are
  /// added once.
  void addContext(Operation *op, const InstanceScope &scope);

  /// Adds: `iter(loop)` in copy `a` is less than (or equal to) in copy `b`.
  void addIteratorLess(Operation *loop, unsigned a, unsigned b);
  void addIteratorEqual(Operation *loop, unsigned a, unsigned b);

  /// Adds: the instance of leaf statement `a` (scope `sa`) runs before the
  /// instance of leaf statement `b` (scope `sb`) in the sequential order.
  void addHappensBefore(Operation *a, const InstanceScope &sa, Operation *b,
                        const InstanceScope &sb);

  /// Adds: accesses `a` and `b` touch a common element of the same buffer
  /// instance (an allocation inside a loop is a new buffer per iteration).
  void addSameElement(const BufferAccess &a, const InstanceScope &sa,
                      const BufferAccess &b, const InstanceScope &sb);

  /// Adds: the element `index` (a column per dimension) lies in `access`.
  void addInAccess(const BufferAccess &access, const InstanceScope &scope,
                   ArrayRef<unsigned> index);

private:
  ControlSet set;
  llvm::DenseSet<std::pair<Operation *, unsigned>> addedScopes;
};

/// Two accesses that a rewrite would reorder or otherwise change, and an
/// instance showing it.
struct AccessConflict {
  BufferAccess first, second;
  std::string witness;
};

/// Attaches the notes "first access ... / second access ..." of a conflict
/// to `diag`.
void attachConflictNotes(Diagnostic &diag, const AccessConflict &conflict,
                         StringRef firstRole, StringRef secondRole);

/// Which pairs of accesses a query looks at.
enum class ConflictKind {
  /// At least one mutates, and not both reduce (reductions commute).
  Dependence,
  /// The first mutates and the second reads.
  WriteThenRead,
  /// At least one mutates (two reductions race when different threads make
  /// them).
  Race,
};

/// Finds two accesses, one made by an instance of the statements `first`
/// (scope `firstScope`) and one by an instance of `second` (scope
/// `secondScope`), of the kind `kind`, that touch the same element in
/// instances satisfying `constrain`. Both instances satisfy their
/// statements' contexts.
std::optional<AccessConflict>
findConflict(AccessCollector &collector, ArrayRef<Operation *> first,
             const InstanceScope &firstScope, ArrayRef<Operation *> second,
             const InstanceScope &secondScope, ConflictKind kind,
             function_ref<void(InstanceSet &, const BufferAccess &,
                               const BufferAccess &)>
                 constrain);

/// Whether `condition` (over `operands`) holds in every instance of `op`
/// (`expectTrue`), or in none (`!expectTrue`). On failure, `witness`
/// describes a counterexample.
bool isConditionInvariant(Operation *op, ConditionAttr condition,
                          ValueRange operands, bool expectTrue,
                          std::string *witness = nullptr);

/// Whether `lhs` (over `lhsOperands`) `rel` `rhs` (over `rhsOperands`)
/// holds in every instance of `op`; `rel` is Eq, Lt, Le, Gt or Ge.
bool isRelationInvariant(Operation *op, AffineExpr lhs, ValueRange lhsOperands,
                         ConditionAtomKind rel, AffineExpr rhs,
                         ValueRange rhsOperands,
                         std::string *witness = nullptr);

/// Whether the statements `stmts` (consecutive statements of one block) are
/// idempotent: running them twice in a row has the effect of running them
/// once. Sufficient: no reductions, and no element both written and read by
/// them. On failure, `conflict` is set.
bool isIdempotent(AccessCollector &collector, ArrayRef<Operation *> stmts,
                  std::optional<AccessConflict> &conflict);

/// Whether some value defined in `producers` (or nested in them) is used by
/// `users` (or nested in them); returns the first such user.
Operation *findUseOfDefinitions(ArrayRef<Operation *> producers,
                                ArrayRef<Operation *> users);

} // namespace mlir::exogpu

#endif // EXOGPU_ANALYSIS_DEPENDENCES_H
