//===- ProcTransformOps.td - procs, calls, instructions ----*- tablegen -*-===//
//
// Part of ExoGPU. Exo's sub-procedure rewrites and instruction selection
// (seeds/002 Sec. 2.3 "Instruction Substitution"); the count of unsafe
// steps (Sec. 8).
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_TRANSFORMOPS_PROCTRANSFORMOPS_TD
#define EXOGPU_TRANSFORMOPS_PROCTRANSFORMOPS_TD

include "ExoGPU/Dialect/ExoGPU/TransformOps/TransformOpsBase.td"

def InlineOp : ExoGPU_RewriteOp<"inline"> {
  let summary = "inline a call of a proc";
  let description = [{
    Replaces the call by the callee's body with its control parameters
    replaced by the argument expressions and its data parameters by the
    argument windows (composed into the accesses). Always legal; extents
    that become constant make the buffer types static (refused when one is
    below 1).

    #### Return modes

    Consumes `target` (one call of a proc). Returns the inlined statements.

    ```mlir
    %s = transform.exogpu.inline %call
        : (!transform.any_op) -> !transform.any_op
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$target);
  let results = (outs TransformHandleTypeInterface:$result);
  let assemblyFormat = [{
    $target attr-dict `:` functional-type(operands, results)
  }];
}

def ExtractSubprocOp : ExoGPU_RewriteOp<"extract_subproc"> {
  let summary = "move statements into a new proc and call it";
  let description = [{
    The consecutive CPU-scope statements become the body of a new proc
    `name`, placed before the proc they came from: its parameters are the
    control values (sizes stay sizes) and buffers the statements use, its
    preconditions those of the old proc that involve only its parameters
    (when they are a conjunction). A call replaces the statements. Windows
    and barriers defined outside the block cannot be passed, and no
    statement after the block may use a buffer or window it defines.

    #### Return modes

    Consumes `target`. Returns the new proc and the call.

    ```mlir
    %proc, %call = transform.exogpu.extract_subproc %block "tile"
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$target, StrAttr:$name);
  let results = (outs TransformHandleTypeInterface:$proc,
                      TransformHandleTypeInterface:$call);
  let assemblyFormat = [{
    $target $name attr-dict `:` functional-type(operands, results)
  }];
}

def CopyProcOp : ExoGPU_EditOp<"copy_proc"> {
  let summary = "copy a proc, recording that the copy is equivalent";
  let description = [{
    Adds a copy of the proc named `name`, with an `exogpu.equivalent_to`
    attribute naming the proc it stems from. Scheduling the copy with
    checked rewrites keeps it equivalent, which `call_eqv` relies on.

    #### Return modes

    Reads `target` (one proc). Returns the copy.

    ```mlir
    %fast = transform.exogpu.copy_proc %gemm "gemm_fast"
        : (!transform.any_op) -> !transform.any_op
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$target, StrAttr:$name);
  let results = (outs TransformHandleTypeInterface:$result);
  let assemblyFormat = [{
    $target $name attr-dict `:` functional-type(operands, results)
  }];
}

def CallEqvOp : ExoGPU_EditOp<"call_eqv"> {
  let summary = "call an equivalent proc instead";
  let description = [{
    Makes the call call `proc` instead of its callee, legal when both stem
    from the same proc by `copy_proc` and have the same signature.

    #### Return modes

    Reads `target` (one call of a proc).

    ```mlir
    transform.exogpu.call_eqv %call @gemm_fast : !transform.any_op
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$target,
                       FlatSymbolRefAttr:$proc);
  let assemblyFormat = "$target $proc attr-dict `:` type($target)";
}

def ReplaceOp : ExoGPU_RewriteOp<"replace"> {
  let summary = "replace a block by an instruction call (unification)";
  let description = [{
    Unifies the consecutive statements with the body of instruction
    `instr`: the structures must agree statement by statement (loops, guards,
    assigns and reduces, data expressions); the instruction's control
    parameters are solved from its loop bounds, conditions and indices, and
    each data parameter becomes a window of the buffer it stands for (the
    buffer dimensions indexed by the matched loops are the parameter's
    dimensions, in order; the others are points). Parameters the body does
    not determine (a leading dimension only the CUDA template uses) are
    given in `args` as expressions. `barrier` is the trailing `>> z[...]` of
    instructions that complete on a barrier. Refused, naming the first
    difference, when the structures differ, and refused when the call would
    fail a run-time check of the meaning: an argument window outside its
    buffer (a given leading dimension too large), or the body, run on the
    windows, outside them.

    #### Return modes

    Consumes `target`. Returns the call.

    ```mlir
    %call = transform.exogpu.replace %loop with @Sm80_mma_load_a_tf32
        args {lda = "16"} : (!transform.any_op) -> !transform.any_op
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$target,
                       FlatSymbolRefAttr:$instr,
                       OptionalAttr<DictionaryAttr>:$args,
                       OptionalAttr<StrAttr>:$barrier);
  let results = (outs TransformHandleTypeInterface:$result);
  let assemblyFormat = [{
    $target `with` $instr (`args` $args^)? (`barrier` $barrier^)? attr-dict
    `:` functional-type(operands, results)
  }];
}

def ReportUnsafeStepsOp : ExoGPU_TransformOp<"report_unsafe_steps", [
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "report the unsafe steps applied to each proc";
  let description = [{
    Emits a remark at every proc in the payload ops of `target`: the number
    of unsafe (unchecked) steps applied to it, from its
    `exogpu.unsafe_steps` attribute (seeds/002 Sec. 8: Exo's Hopper GEMM
    needed 4-5 such steps).

    #### Return modes

    Reads `target` (procs, or ops holding procs such as the module); fails
    on a statement or an expression, which holds no proc.

    ```mlir
    transform.exogpu.report_unsafe_steps %root : !transform.any_op
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$target);
  let assemblyFormat = "$target attr-dict `:` type($target)";
}

#endif // EXOGPU_TRANSFORMOPS_PROCTRANSFORMOPS_TD
