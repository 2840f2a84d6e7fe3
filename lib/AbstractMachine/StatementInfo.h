//===- StatementInfo.h - what the engine reads off statements ---*- C++ -*-===//
//
// Part of ExoGPU. Static facts about AMIR statements that the box engine's
// shortcuts (task replay, loops run in bulk; docs/abstract-machine.md) decide
// on: which accesses and thread mapping a statement holds, and how its
// windows move with chosen iterators.
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_LIB_ABSTRACTMACHINE_STATEMENTINFO_H
#define EXOGPU_LIB_ABSTRACTMACHINE_STATEMENTINFO_H

#include "ExoGPU/Dialect/ExoAM/IR/ExoAMOps.h"

namespace mlir::exoam {

/// Whether `loop`'s body starts with inc_task_id (a cuda_tasks loop, Fig. 5).
bool isTaskLoop(LoopOp loop);

/// The thread mapping of a statement, if it has one.
ThreadMappingAttr getThreadMapping(Operation *op);

/// Calls `fn` with every access a statement holds (its target, its barrier,
/// each of its barriers) and the name of the attribute holding it.
void forEachAccess(Operation *op,
                   function_ref<void(StringAttr, AccessAttr)> fn);

/// Whether an ALLOC of `var` runs before `op` whenever `op` runs within one
/// execution of `body`: an earlier statement of `op`'s block, or of an
/// enclosing block inside `body`, allocates it. `op` must be inside `body`.
bool isAllocatedBefore(Operation *op, StringAttr var, Block &body);

/// Whether every access to `var` in `proc` is in the body of a task loop
/// (its innermost one), after an ALLOC of `var` there that dominates it
/// (isAllocatedBefore): then each lifetime of `var` that is used lies within
/// one task.
bool hasLifetimesWithinTasks(ProcOp proc, StringAttr var);

/// What the AWAITs on a barrier variable can add to a record (Fig. 22 AWAIT's
/// augment): their executing threads lie among the first `threads` threads
/// of a task, and each joins fully_ordered on the timelines of one `full`
/// set and temporally_ordered on those of the paired `temporal` set.
struct AwaitReach {
  int64_t threads = 0;
  SmallVector<std::pair<QualMask, QualMask>, 1> grants;
};

/// The reach of the AWAITs on `var` in `proc`, if every lifetime of `var`
/// lies within one task (hasLifetimesWithinTasks) and no AWAIT runs on the
/// CPU.
std::optional<AwaitReach> getAwaitReach(ProcOp proc, StringAttr var);

/// Iterators of interest among a statement's control operands:
/// `iteratorOf[i]` is the number of the iterator that operand i is, or -1.
/// An expression or mapping that names an operand past the list counts as
/// using one (it is ill-formed).
using IteratorMap = ArrayRef<int>;

/// The IteratorMap of `op`'s operands with `iterator` the one iterator of
/// interest.
SmallVector<int> getIteratorMap(Operation *op, Value iterator);

/// Whether `expr` uses an iterator of interest.
bool usesIterator(AffineExpr expr, IteratorMap iteratorOf);

/// Whether `threads` selects threads by an iterator of interest.
bool usesIterator(ThreadMappingAttr threads, IteratorMap iteratorOf);

/// The coefficients c_i of `expr` = sum_i c_i * (iterator i) + (an
/// expression of the other operands), for `count` iterators; nothing if it
/// has no such form (an iterator under mod or a division) or a coefficient
/// overflows.
std::optional<SmallVector<int64_t>>
getIteratorCoefficients(AffineExpr expr, IteratorMap iteratorOf,
                        unsigned count);

/// Per dimension of `access`, the coefficients of the iterators in its
/// bounds (getIteratorCoefficients; both bounds of a range must agree):
/// windows at iterator values differing by d are translated by the
/// coefficients times d. Nothing if a bound has no such form.
std::optional<SmallVector<SmallVector<int64_t>>>
getAccessShifts(AccessAttr access, IteratorMap iteratorOf, unsigned count);

/// E(y + period) - E(y) for the one iterator of interest y (every entry of
/// `iteratorOf` that is not -1 names it) and `expr` = E, if that difference
/// is the same for all values of y and of the other operands: y appears in
/// linear terms, or under a mod or a division whose divisor divides the
/// change of its operand (`y mod 2` changes by 0 when `period` is even).
/// Nothing otherwise, or if a difference overflows (or is INT64_MIN). With
/// `largest`, raises it to the magnitude of the difference of every
/// subexpression.
std::optional<int64_t> getPeriodShift(AffineExpr expr, IteratorMap iteratorOf,
                                      int64_t period,
                                      int64_t *largest = nullptr);

/// Appends the divisors of the mod and division terms of `expr` whose
/// operand uses the iterator of interest: a period that each of them divides
/// (their product) makes getPeriodShift defined wherever y is linear inside.
void collectIteratorDivisors(AffineExpr expr, IteratorMap iteratorOf,
                             SmallVectorImpl<int64_t> &divisors);

/// Per dimension of `access`, getPeriodShift of its bounds (both bounds of a
/// range must agree; `largest` as there); nothing if one has none.
std::optional<SmallVector<int64_t>>
getAccessPeriodShifts(AccessAttr access, IteratorMap iteratorOf, int64_t period,
                      int64_t *largest = nullptr);

} // namespace mlir::exoam

#endif // EXOGPU_LIB_ABSTRACTMACHINE_STATEMENTINFO_H
