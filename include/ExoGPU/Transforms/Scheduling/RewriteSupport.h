//===- RewriteSupport.h - checks shared by the scheduling rewrites -*- C++ -*-//
//
// Part of ExoGPU. Preconditions the scheduling rewrites check (loops are
// seq loops, statements are adjacent) and the tentative verification of
// annotation rewrites: change, verify, and undo with an explanation if the
// IR verifier rejects the result.
//
// Every rewrite takes statements of an exogpu.proc, never of an instruction
// body: the transform ops check their handles before they call a rewrite
// (HandleUtils.h), so the rewrites do not check it again.
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_TRANSFORMS_SCHEDULING_REWRITESUPPORT_H
#define EXOGPU_TRANSFORMS_SCHEDULING_REWRITESUPPORT_H

#include "ExoGPU/Dialect/ExoGPU/IR/ExoGPUOps.h"
#include "ExoGPU/Transforms/Scheduling/Refusal.h"

namespace mlir::exogpu {

/// Checks that `loop` is a seq loop; `rewrite` names the rewrite.
LogicalResult checkSeqLoop(ForOp loop, StringRef rewrite, Refusal &refusal);

/// Checks that `second` is the statement right after `first`; `rewrite`
/// names the rewrite.
LogicalResult checkAdjacent(Operation *first, Operation *second,
                            StringRef rewrite, Refusal &refusal);

/// Checks that `magnitude` (a factor, or the boundMagnitude of an expression
/// a rewrite builds) is within kMaxControlMagnitude, the range the analyses
/// handle; beyond it a rewrite would fold constants near the 64-bit limits.
/// `rewrite` names the rewrite.
LogicalResult checkControlMagnitude(uint64_t magnitude, Location loc,
                                    StringRef rewrite, Refusal &refusal);

/// The boundMagnitude of `expr` with every dimension at magnitude 1: a bound
/// on its flattened coefficients.
uint64_t coefficientMagnitude(AffineExpr expr);

/// Explains at `loc` that `what` does not hold in every instance, with the
/// counterexample `witness` (may be empty).
void explainNotInvariant(Refusal &refusal, Location loc, const Twine &what,
                         StringRef witness);

/// Verifies `root` and the calls under it against their callees (which the
/// enclosing symbol table would check).
LogicalResult verifyWithSymbolUses(Operation *root);

/// The result types a rewrite changed (value, old type), to undo it.
using TypeChanges = SmallVector<std::pair<Value, Type>>;

/// Gives the allocations, windows and splits at or under `root` the result
/// types their extents, coordinates and sources determine, in program order
/// (a window or split after its source). Substituting a control value can make
/// an extent constant: `alloc f32[i]` unrolled at `i = 2` is `f32[2]`. Appends
/// what changed to `changes`. Fails, restoring every type it changed, when an
/// extent becomes a constant that is not positive (no buffer type has one).
LogicalResult updateBufferTypes(Operation *root, TypeChanges &changes);

/// Restores the types `changes` recorded.
void restoreBufferTypes(ArrayRef<std::pair<Value, Type>> changes);

/// The undo log of a tentative rewrite that edits statements in place: it
/// records each statement (its properties, discardable attributes and
/// operands) before the first change, and the result types that change, so
/// that a rewrite whose result does not verify can restore the IR exactly
/// and refuse.
class EditJournal {
public:
  /// Records `op` before it changes (once; later calls do nothing).
  void record(Operation *op);
  /// The result types changed, for updateBufferTypes.
  TypeChanges &getTypeChanges() { return typeChanges; }
  /// Restores every recorded statement and type.
  void restore();

private:
  struct Entry {
    Operation *op;
    Attribute properties;
    DictionaryAttr discardable;
    SmallVector<Value> operands;
  };
  SmallVector<Entry> entries;
  TypeChanges typeChanges;
};

/// Verifies `root` (usually the proc a rewrite changed). On failure, explains
/// at `loc` that `what` would make the IR invalid, with the verifier's
/// errors as notes, and returns failure; the caller then undoes its change.
LogicalResult verifyOrExplain(Operation *root, Location loc, const Twine &what,
                              Refusal &refusal);

/// Completes a tentative rewrite of statements of `root`: gives the buffers
/// under `root` the types their extents determine (updateBufferTypes) and
/// verifies `root`. If either fails, restores what `journal` recorded,
/// explains at `loc` that `what` would make the IR invalid, and fails; the
/// caller then erases the statements it created.
LogicalResult finishTentativeEdit(EditJournal &journal, Operation *root,
                                  Location loc, const Twine &what,
                                  Refusal &refusal);

} // namespace mlir::exogpu

#endif // EXOGPU_TRANSFORMS_SCHEDULING_REWRITESUPPORT_H
