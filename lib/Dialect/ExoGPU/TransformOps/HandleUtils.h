//===- HandleUtils.h - payload checks of transform.exogpu ops ---*- C++ -*-===//
//
// Part of ExoGPU (internal to the transform ops). Every misuse of a handle
// (an empty handle after its statement was erased, several payloads where
// one is needed, the wrong kind of statement, statements of different procs
// or blocks) becomes a silenceable failure at the transform op, never a
// crash; a refused rewrite becomes a silenceable failure with the
// rewrite's explanation.
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_LIB_DIALECT_EXOGPU_TRANSFORMOPS_HANDLEUTILS_H
#define EXOGPU_LIB_DIALECT_EXOGPU_TRANSFORMOPS_HANDLEUTILS_H

#include "ExoGPU/Dialect/ExoGPU/IR/ExoGPUOps.h"
#include "ExoGPU/Transforms/Scheduling/Refusal.h"
#include "mlir/Dialect/Transform/Interfaces/TransformInterfaces.h"

namespace mlir::exogpu {

/// Whether `op` is a statement of an exogpu.proc (not an expression, not in
/// an instruction body).
bool isProcStatement(Operation *op);

/// The single payload statement of `handle`; `what` names what is expected
/// ("a seq loop"). `accept` filters the kind.
DiagnosedSilenceableFailure
getSingleStatement(transform::TransformOpInterface self,
                   transform::TransformState &state, Value handle,
                   StringRef what, function_ref<bool(Operation *)> accept,
                   Operation *&result);

/// Like getSingleStatement, for one op of type OpTy.
template <typename OpTy>
DiagnosedSilenceableFailure getSingle(transform::TransformOpInterface self,
                                      transform::TransformState &state,
                                      Value handle, StringRef what,
                                      OpTy &result) {
  Operation *op = nullptr;
  DiagnosedSilenceableFailure diag = getSingleStatement(
      self, state, handle, what, [](Operation *op) { return isa<OpTy>(op); },
      op);
  if (diag.succeeded())
    result = cast<OpTy>(op);
  return diag;
}

/// The payload statements of `handle` as a block: one or more consecutive
/// statements of one block of one proc, in program order.
DiagnosedSilenceableFailure
getStatementBlock(transform::TransformOpInterface self,
                  transform::TransformState &state, Value handle,
                  SmallVectorImpl<Operation *> &block);

/// Checks that `a` and `b` are statements of the same proc.
DiagnosedSilenceableFailure checkSameProc(transform::TransformOpInterface self,
                                          Operation *a, Operation *b);

/// Runs a checked rewrite of a statement of `proc`: a refusal `rewrite`
/// explains becomes a silenceable failure; after success the proc must
/// verify (verifyRewritten).
DiagnosedSilenceableFailure
runRewrite(transform::TransformOpInterface self, Operation *proc,
           function_ref<LogicalResult(Refusal &)> rewrite);

/// Defines OpT::getEffects as the effects of an edit op.
#define EXOGPU_EDIT_EFFECTS(OpT)                                               \
  void OpT::getEffects(                                                        \
      SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {               \
    getEditEffects(*this, effects);                                            \
  }

/// Gets the single payload op of type OpT of `handle` into a new variable
/// `var`, or returns the silenceable failure from the enclosing apply().
#define EXOGPU_GET_SINGLE(OpT, var, handle, what)                              \
  OpT var;                                                                     \
  if (DiagnosedSilenceableFailure diag =                                       \
          getSingle<OpT>(*this, state, handle, what, var);                     \
      !diag.succeeded())                                                       \
    return diag;

/// The silenceable failure of a refused rewrite.
DiagnosedSilenceableFailure refused(Refusal &refusal, Location fallback);

/// Verifies the proc a rewrite changed: a definite failure if the rewrite
/// left invalid IR (an internal error, reported rather than passed on).
DiagnosedSilenceableFailure
verifyRewritten(transform::TransformOpInterface self, Operation *proc);

/// The memory `text` names, written as in exogpu IR (`CudaSmemLinear`,
/// `Sm80_RmemMatrixD(16, 8)`), or null.
MemoryAttr parseMemoryName(MLIRContext *ctx, StringRef text);

/// Verifier rule of the ops that take a memory: `text` names one (Fig. 12).
LogicalResult verifyMemoryName(Operation *op, StringRef text);

/// Sets result `result` to `ops` (null ops are left out).
void setResultOps(transform::TransformResults &results, Value result,
                  ArrayRef<Operation *> ops);

/// Effects of an edit op: reads its handles, produces its results, modifies
/// the payload.
void getEditEffects(Operation *op,
                    SmallVectorImpl<MemoryEffects::EffectInstance> &effects);

} // namespace mlir::exogpu

#endif // EXOGPU_LIB_DIALECT_EXOGPU_TRANSFORMOPS_HANDLEUTILS_H
