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

/// Explains at `loc` that `what` does not hold in every instance, with the
/// counterexample `witness` (may be empty).
void explainNotInvariant(Refusal &refusal, Location loc, const Twine &what,
                         StringRef witness);

/// Verifies `root` and the calls under it against their callees (which the
/// enclosing symbol table would check).
LogicalResult verifyWithSymbolUses(Operation *root);

/// Verifies `root` (usually the proc a rewrite changed). On failure, explains
/// at `loc` that `what` would make the IR invalid, with the verifier's
/// errors as notes, and returns failure; the caller then undoes its change.
LogicalResult verifyOrExplain(Operation *root, Location loc, const Twine &what,
                              Refusal &refusal);

} // namespace mlir::exogpu

#endif // EXOGPU_TRANSFORMS_SCHEDULING_REWRITESUPPORT_H
