//===- StatementTransformOps.td - checked statement rewrites -*- tablegen -*-===//
//
// Part of ExoGPU. Exo's statement and expression rewrites and guard
// removal (seeds/002 Sec. 2.3, Sec. 8); conditions in docs/scheduling.md.
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_TRANSFORMOPS_STATEMENTTRANSFORMOPS_TD
#define EXOGPU_TRANSFORMOPS_STATEMENTTRANSFORMOPS_TD

include "ExoGPU/Dialect/ExoGPU/TransformOps/TransformOpsBase.td"

def ReorderStmtsOp : ExoGPU_EditOp<"reorder_stmts"> {
  let summary = "swap two adjacent statements that commute";
  let description = [{
    `s1; s2` becomes `s2; s1`, legal when `s2` uses no buffer or window `s1`
    defines and no element one of them writes is read or written by the
    other (reductions commute with each other; synchronization statements
    have no data effects).

    #### Return modes

    Reads both handles (one statement each, `second` right after `first`);
    the statements move, the handles stay valid.

    ```mlir
    transform.exogpu.reorder_stmts %a, %b
        : !transform.any_op, !transform.any_op
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$first,
                       TransformHandleTypeInterface:$second);
  let assemblyFormat = [{
    $first `,` $second attr-dict `:` type($first) `,` type($second)
  }];
}

def BindExprOp : ExoGPU_RewriteOp<"bind_expr"> {
  let summary = "bind a data expression to a new scalar buffer";
  let description = [{
    `a = e1 * e2 + 4.0` with `e1 * e2` bound to `b` becomes `b : R; b = e1 *
    e2; a = b + 4.0`. The buffer's precision is the expression's; its memory
    is `memory` (default `CudaRmem` in a device function, `DRAM` outside).
    Always legal.

    #### Return modes

    Consumes `target` (one data-expression op). Returns the new alloc and
    assign.

    ```mlir
    %alloc, %assign = transform.exogpu.bind_expr %mul "t"
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$target, StrAttr:$name,
                       OptionalAttr<StrAttr>:$memory);
  let results = (outs TransformHandleTypeInterface:$alloc,
                      TransformHandleTypeInterface:$assign);
  let assemblyFormat = [{
    $target $name (`memory` $memory^)? attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def RewriteExprOp : ExoGPU_EditOp<"rewrite_expr"> {
  let summary = "replace a control expression by an equal one";
  let description = [{
    Replaces control expression number `index` of the statement (a loop's
    `lo` is 0 and `hi` 1; an assign's indices, a read's indices, a window's
    or call's coordinates in printed order; a call's control arguments come
    first) with `expr`, legal when both are equal in every instance of the
    statement under the preconditions and the enclosing loop bounds and
    guards.

    #### Return modes

    Reads `target` (one statement or read); edits it in place.

    ```mlir
    transform.exogpu.rewrite_expr %read at 0 to "(k1 + 1) mod 2"
        : !transform.any_op
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$target,
                       ConfinedAttr<I64Attr, [IntNonNegative]>:$index,
                       StrAttr:$expr);
  let assemblyFormat = [{
    $target `at` $index `to` $expr attr-dict `:` type($target)
  }];
}

def InlineAssignOp : ExoGPU_RewriteOp<"inline_assign"> {
  let summary = "inline an assignment into the reads after it";
  let description = [{
    `x[c] = e; s` becomes `s[x[c] -> e]` and the assignment goes away. Legal
    when `x` is an allocation that only reads after the assignment (in its
    block) use, every such read reads `x[c]`, `e` has the precision of `x`,
    and no statement after the assignment writes what `e` reads.

    #### Return modes

    Consumes `target` (one assign).

    ```mlir
    transform.exogpu.inline_assign %assign : (!transform.any_op) -> ()
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$target);
  let assemblyFormat = [{
    $target attr-dict `:` functional-type(operands, results)
  }];
}

def CommuteExprOp : ExoGPU_EditOp<"commute_expr"> {
  let summary = "swap the operands of a sum or product";
  let description = [{
    `a + b` becomes `b + a` and `a * b` becomes `b * a` (exact in floating
    point). Always legal.

    #### Return modes

    Reads `target` (one `exogpu.add` or `exogpu.mul`).

    ```mlir
    transform.exogpu.commute_expr %mul : !transform.any_op
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$target);
  let assemblyFormat = "$target attr-dict `:` type($target)";
}

def SimplifyOp : ExoGPU_EditOp<"simplify"> {
  let summary = "simplify control expressions in context";
  let description = [{
    Simplifies every control expression in the payload ops of `target`:
    affine simplification, then `(c * q + r) / c -> q` and
    `(c * q + r) mod c -> r` where `0 <= r < c` holds under the enclosing
    loop bounds, guards and preconditions; guards with constant conditions
    are removed (their bodies kept when true). Always legal.

    #### Return modes

    Reads `target` (procs or statements; other payload ops outside procs
    stand for the procs nested in them). Fails on an expression or a
    statement of an instruction body.

    ```mlir
    transform.exogpu.simplify %proc : !transform.any_op
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$target);
  let assemblyFormat = "$target attr-dict `:` type($target)";
}

def EliminateDeadCodeOp : ExoGPU_RewriteOp<"eliminate_dead_code"> {
  let summary = "remove a guard that always or never holds, or a dead loop";
  let description = [{
    A guard whose condition holds in every instance (under the preconditions
    and enclosing bounds and guards) is replaced by its body; one that never
    holds, or a loop that never runs, is removed.

    #### Return modes

    Consumes `target`. Returns the statements left in its place.

    ```mlir
    %s = transform.exogpu.eliminate_dead_code %if
        : (!transform.any_op) -> !transform.any_op
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$target);
  let results = (outs TransformHandleTypeInterface:$result);
  let assemblyFormat = [{
    $target attr-dict `:` functional-type(operands, results)
  }];
}

def RemoveIfOp : ExoGPU_RewriteOp<"remove_if"> {
  let summary = "remove a guard whose excluded instances have dead effects";
  let description = [{
    `if c: s` becomes `s`. Checked (seeds/002 Sec. 8): in every instance the
    guard excluded, `s` fails no run-time check of the meaning (accesses
    within the windows they go through, allocation extents not negative,
    the preconditions and bodies of the procs it calls), writes no
    parameter, and writes no element that is read later (the
    check is value-sensitive where Exo's dependence checks were not:
    `for i in seq(0, 8): if i < 6: tmp[i] = 0` followed by reads of `tmp[i]`
    only for `i < 6` loses its guard). With `unsafe` the check is skipped;
    the step is counted in the proc's `exogpu.unsafe_steps` attribute and a
    warning is emitted.

    #### Return modes

    Consumes `target` (one guard). Returns the statements of its body.

    ```mlir
    %s = transform.exogpu.remove_if %if
        : (!transform.any_op) -> !transform.any_op
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$target, UnitAttr:$unsafe);
  let results = (outs TransformHandleTypeInterface:$result);
  let assemblyFormat = [{
    $target (`unsafe` $unsafe^)? attr-dict `:`
    functional-type(operands, results)
  }];
}

#endif // EXOGPU_TRANSFORMOPS_STATEMENTTRANSFORMOPS_TD
