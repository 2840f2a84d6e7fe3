//===- MatchOps.td - finding exogpu statements ------------*- tablegen -*-===//
//
// Part of ExoGPU. Handles to statements, loops and expressions of exogpu
// procs, found by kind, loop iterator name, label or a pattern of the
// statement's text (docs/scheduling.md, "Finding statements").
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_TRANSFORMOPS_MATCHOPS_TD
#define EXOGPU_TRANSFORMOPS_MATCHOPS_TD

include "ExoGPU/Dialect/ExoGPU/TransformOps/TransformOpsBase.td"

def MatchOp : ExoGPU_TransformOp<"match", [NavigationTransformOpTrait,
                                            MemoryEffectsOpInterface]> {
  let summary = "find exogpu statements or expressions inside payload ops";
  let description = [{
    Returns the statements (or data-expression operations) nested in the
    payload ops of `target`, in program order, that satisfy every given
    criterion:
    * `kind`: the op name without `exogpu.` (`for`, `reduce`, `call`,
      `alloc`, ..., or an expression kind: `read`, `mul`, `add`, ...);
    * `iter`: a loop with this iterator name;
    * `label`: a statement whose `exogpu.label` attribute is this string;
    * `pattern`: the statement's first printed line (without `exogpu.`, the
      `%` of names, the trailing type list and ` {`) matches, where each `_`
      standing alone (not part of a name) matches any text: `for k in _`,
      `reduce C[_] += _`, `call @Sm80_mma_tf32(_)`. For an expression the
      text is its infix form, `A[i, k] * B[k, j]`;
    * `callee`: a call of the proc or instruction of this name (`callee
      "Sm80_mma_tf32"`, whatever its arguments);
    * `proc`: a statement of the proc of this name (the other procs of the
      module are not searched).
    `nth` keeps only the match of that index (0-based; negative counts from
    the end). Statements of instruction bodies are never matched.

    #### Return modes

    Reads `target`. Produces a silenceable failure if nothing matches or
    `nth` is out of range.

    ```mlir
    %k = transform.exogpu.match iter "k" in %root
        : (!transform.any_op) -> !transform.any_op
    %r = transform.exogpu.match pattern "reduce C[_] += _" in %root
        : (!transform.any_op) -> !transform.any_op
    %g = transform.exogpu.match iter "i" proc "gemm" in %root
        : (!transform.any_op) -> !transform.any_op
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$target,
                       OptionalAttr<StrAttr>:$kind,
                       OptionalAttr<StrAttr>:$iter,
                       OptionalAttr<StrAttr>:$label,
                       OptionalAttr<StrAttr>:$pattern,
                       OptionalAttr<StrAttr>:$callee,
                       OptionalAttr<StrAttr>:$proc,
                       OptionalAttr<I64Attr>:$nth);
  let results = (outs TransformHandleTypeInterface:$result);
  let assemblyFormat = [{
    (`kind` $kind^)? (`iter` $iter^)? (`label` $label^)?
    (`pattern` $pattern^)? (`callee` $callee^)? (`proc` $proc^)?
    (`nth` $nth^)? `in` $target attr-dict
    `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def GetBlockOp : ExoGPU_TransformOp<"get_block", [NavigationTransformOpTrait,
                                                  MemoryEffectsOpInterface]> {
  let summary = "a statement and the statements that follow it";
  let description = [{
    Returns the `count` consecutive statements starting at the single payload
    statement of `target`: a block for rewrites that take several statements
    (`stage_mem`, `replace`, `extract_subproc`, `add_loop`, ...).

    #### Return modes

    Reads `target`. Produces a silenceable failure unless `target` holds one
    statement followed by at least `count - 1` statements in its block.

    ```mlir
    %b = transform.exogpu.get_block %first count 2
        : (!transform.any_op) -> !transform.any_op
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$target,
                       ConfinedAttr<I64Attr, [IntPositive]>:$count);
  let results = (outs TransformHandleTypeInterface:$result);
  let assemblyFormat = [{
    $target `count` $count attr-dict `:` functional-type(operands, results)
  }];
}

def GetBodyOp : ExoGPU_TransformOp<"get_body", [NavigationTransformOpTrait,
                                                MemoryEffectsOpInterface]> {
  let summary = "the statements of a loop's or a scope's body";
  let description = [{
    Returns the statements directly in the body of the single payload of
    `target` (a loop, guard, device function or warps block).

    #### Return modes

    Reads `target`. Produces a silenceable failure unless `target` holds one
    scope statement with a non-empty body.

    ```mlir
    %stmts = transform.exogpu.get_body %loop
        : (!transform.any_op) -> !transform.any_op
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$target);
  let results = (outs TransformHandleTypeInterface:$result);
  let assemblyFormat = [{
    $target attr-dict `:` functional-type(operands, results)
  }];
}

def SetLabelOp : ExoGPU_EditOp<"set_label"> {
  let summary = "label statements for later matching";
  let description = [{
    Sets the `exogpu.label` attribute of every payload statement of `target`
    to `label`, so that `match label "..."` finds them after rewrites that
    invalidate handles. Rewrites keep the labels of the statements they
    move, and loop rewrites pass a loop's label to the loop that replaces
    it.

    #### Return modes

    Reads `target`. Produces a silenceable failure if a payload is not a
    statement of a proc.

    ```mlir
    transform.exogpu.set_label %loop "k_loop" : !transform.any_op
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$target, StrAttr:$label);
  let assemblyFormat = "$target $label attr-dict `:` type($target)";
}

#endif // EXOGPU_TRANSFORMOPS_MATCHOPS_TD
