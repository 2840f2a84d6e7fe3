//===- ProcRewrites.h - procs, calls and instruction selection --*- C++ -*-===//
//
// Part of ExoGPU. Exo's sub-procedure rewrites: `inline`, `extract_subproc`,
// `call_eqv` (with `copy_proc`, which records that two procs are
// equivalent), and `replace`, which selects an instruction (seeds/002 Sec.
// 2.3 "Instruction Substitution"): it unifies a block with the
// instruction's body, solving for the instruction's control arguments and
// the windows of its data arguments, and refuses when the structures
// differ.
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_TRANSFORMS_SCHEDULING_PROCREWRITES_H
#define EXOGPU_TRANSFORMS_SCHEDULING_PROCREWRITES_H

#include "ExoGPU/Transforms/Scheduling/ControlRewriting.h"
#include "ExoGPU/Transforms/Scheduling/RewriteSupport.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::exogpu {

/// The proc attribute naming the proc a copy was made from (its
/// equivalence class, for call_eqv).
constexpr StringLiteral kEquivalentToAttrName = "exogpu.equivalent_to";

/// Inlines a call of a proc: its body with the parameters replaced by the
/// arguments (windows composed); extents that become constant make static
/// types (refused when one is below 1). Returns the new statements.
FailureOr<SmallVector<Operation *>> inlineCall(RewriterBase &rewriter,
                                               CallOp call, Refusal &refusal);

/// Moves the consecutive CPU-scope statements `block` into a new proc
/// `name` (parameters: the control values and buffers they use, with the
/// preconditions that only involve those) and calls it; nothing after the
/// block may use what it defines. Returns the proc and the call.
FailureOr<std::pair<ProcOp, CallOp>> extractSubproc(RewriterBase &rewriter,
                                                    ArrayRef<Operation *> block,
                                                    StringRef name,
                                                    Refusal &refusal);

/// A copy of `proc` named `name`, recorded as equivalent to it.
FailureOr<ProcOp> copyProc(RewriterBase &rewriter, ProcOp proc, StringRef name,
                           Refusal &refusal);

/// Makes `call` call `other` instead, legal when both procs are copies of
/// one proc (copy_proc; every rewrite since was checked) with the same
/// signature.
LogicalResult callEqv(RewriterBase &rewriter, CallOp call, ProcOp other,
                      Refusal &refusal);

/// Replaces `block` by a call of `instr` when the block is the instruction's
/// body with the instruction's parameters substituted: control parameters
/// by expressions, data parameters by windows of the block's buffers.
/// `given` supplies control arguments the body does not determine (by
/// parameter name, as expressions parsed at the block); `barrier` is the
/// trailing `>> barrier` of instructions that complete on one. The call must
/// pass no run-time check of the meaning: its windows lie within their
/// buffers, and the body, run on them, within its parameters.
FailureOr<CallOp>
replaceWithInstr(RewriterBase &rewriter, ArrayRef<Operation *> block,
                 InstrOp instr, ArrayRef<std::pair<StringRef, ValueExpr>> given,
                 const ParsedAccess *barrier, Refusal &refusal);

} // namespace mlir::exogpu

#endif // EXOGPU_TRANSFORMS_SCHEDULING_PROCREWRITES_H
