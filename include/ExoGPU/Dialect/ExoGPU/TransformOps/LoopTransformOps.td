//===- LoopTransformOps.td - checked loop rewrites ---------*- tablegen -*-===//
//
// Part of ExoGPU. Exo's loop and scope rewrites (seeds/002 Sec. 2.3), each
// checked to preserve the sequential meaning of the proc; a refused rewrite
// is a silenceable failure that names the conflicting accesses. The
// conditions are in docs/scheduling.md.
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_TRANSFORMOPS_LOOPTRANSFORMOPS_TD
#define EXOGPU_TRANSFORMOPS_LOOPTRANSFORMOPS_TD

include "ExoGPU/Dialect/ExoGPU/TransformOps/TransformOpsBase.td"

def DivideLoopOp : ExoGPU_RewriteOp<"divide_loop"> {
  let summary = "split a seq loop into an outer and an inner loop";
  let description = [{
    `for i in seq(lo, hi): s` becomes `for io in seq(0, n): for ii in
    seq(0, factor): s[i -> lo + factor * io + ii]`. `tail` handles the
    iterations past the last full block: `perfect` proves that `factor`
    divides `hi - lo` under the preconditions, `guard` (the default) rounds
    the outer loop up and guards the body with `lo + factor * io + ii < hi`,
    `cut` adds a loop `for ii in seq(0, (hi - lo) mod factor)` for them and
    needs `lo <= hi` proven (for `hi < lo` the remainder would still run
    iterations). `factor` is at most 2^40.

    #### Return modes

    Consumes `target` (one seq loop). Returns the outer loop, the inner loop
    and the tail loop (empty unless `cut`). Produces a silenceable failure if
    `perfect` or `cut` cannot be proven.

    ```mlir
    %io, %ii, %tail = transform.exogpu.divide_loop %i by 16 into "io", "ii"
        tail "perfect" : (!transform.any_op)
        -> (!transform.any_op, !transform.any_op, !transform.any_op)
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$target,
                       ConfinedAttr<I64Attr, [IntPositive]>:$factor,
                       StrAttr:$outer_name, StrAttr:$inner_name,
                       DefaultValuedStrAttr<StrAttr, "guard">:$tail);
  let results = (outs TransformHandleTypeInterface:$outer,
                      TransformHandleTypeInterface:$inner,
                      TransformHandleTypeInterface:$tail_loop);
  let assemblyFormat = [{
    $target `by` $factor `into` $outer_name `,` $inner_name
    (`tail` $tail^)? attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def ReorderLoopsOp : ExoGPU_RewriteOp<"reorder_loops"> {
  let summary = "swap a seq loop with the seq loop that is its body";
  let description = [{
    `for i: for j: s` becomes `for j: for i: s`. Legal when the bounds of
    `j` do not use `i` and no two instances of `s` whose order changes (an
    earlier `i` with a later `j`) touch an element that one of them writes
    (reductions commute with each other).

    #### Return modes

    Consumes `target` (the outer loop). Returns the new outer and inner
    loops. Produces a silenceable failure naming the conflicting accesses if
    the order matters.

    ```mlir
    %j, %i = transform.exogpu.reorder_loops %outer
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$target);
  let results = (outs TransformHandleTypeInterface:$outer,
                      TransformHandleTypeInterface:$inner);
  let assemblyFormat = [{
    $target attr-dict `:` functional-type(operands, results)
  }];
}

def FissionOp : ExoGPU_RewriteOp<"fission"> {
  let summary = "split the loops and guards around a gap into two copies";
  let description = [{
    The gap is after the statement `target`. The `levels` enclosing loops or
    guards are each split into two copies, the first holding the statements
    before the gap: `for i: (s1; s2)` becomes `for i: s1; for i: s2`. Legal
    when the statements after the gap use no buffer or window defined before
    it and no instance of an after-statement that ran before an instance of
    a before-statement conflicts with it.

    #### Return modes

    Consumes `target`. Returns the two copies of the outermost split scope.

    ```mlir
    %first, %second = transform.exogpu.fission after %stmt levels 2
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$target,
                       DefaultValuedAttr<ConfinedAttr<I64Attr, [IntPositive]>,
                                         "1">:$levels);
  let results = (outs TransformHandleTypeInterface:$first,
                      TransformHandleTypeInterface:$second);
  let assemblyFormat = [{
    `after` $target (`levels` $levels^)? attr-dict `:`
    functional-type(operands, results)
  }];
}

def FuseOp : ExoGPU_RewriteOp<"fuse"> {
  let summary = "fuse two adjacent loops or guards";
  let description = [{
    `for i: s1; for j: s2` becomes `for i: s1; s2[j -> i]` when the bounds
    are equal under the preconditions and no instance of `s2` that now runs
    before a later instance of `s1` conflicts with it. Two adjacent guards
    with the same condition always fuse.

    #### Return modes

    Consumes both handles (one statement each, `second` right after
    `first`). Returns the fused statement.

    ```mlir
    %l = transform.exogpu.fuse %a, %b
        : (!transform.any_op, !transform.any_op) -> !transform.any_op
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$first,
                       TransformHandleTypeInterface:$second);
  let results = (outs TransformHandleTypeInterface:$result);
  let assemblyFormat = [{
    $first `,` $second attr-dict `:` functional-type(operands, results)
  }];
}

def UnrollLoopOp : ExoGPU_RewriteOp<"unroll_loop"> {
  let summary = "replace a loop with constant bounds by copies of its body";
  let description = [{
    `for i in seq(0, 3): s` becomes `s[i -> 0]; s[i -> 1]; s[i -> 2]`.
    Always legal for at most 1024 iterations (counted without overflow);
    refused when the copies would fold constants beyond 2^40 or give a
    buffer a constant extent below 1. Extents and window bounds that become
    constant make the buffer types static.

    #### Return modes

    Consumes `target`. Returns the new statements.

    ```mlir
    %stmts = transform.exogpu.unroll_loop %l
        : (!transform.any_op) -> !transform.any_op
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$target);
  let results = (outs TransformHandleTypeInterface:$result);
  let assemblyFormat = [{
    $target attr-dict `:` functional-type(operands, results)
  }];
}

def CutLoopOp : ExoGPU_RewriteOp<"cut_loop"> {
  let summary = "split a loop's range at a point";
  let description = [{
    `for i in seq(lo, hi): s` becomes `for i in seq(lo, cut): s; for i in
    seq(cut, hi): s`, legal when `lo <= cut <= hi` under the preconditions.
    `cut` is a control expression written as text (`K / 16`, `1`).

    #### Return modes

    Consumes `target`. Returns both loops.

    ```mlir
    %a, %b = transform.exogpu.cut_loop %l at "1"
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$target, StrAttr:$cut);
  let results = (outs TransformHandleTypeInterface:$first,
                      TransformHandleTypeInterface:$second);
  let assemblyFormat = [{
    $target `at` $cut attr-dict `:` functional-type(operands, results)
  }];
}

def ShiftLoopOp : ExoGPU_RewriteOp<"shift_loop"> {
  let summary = "shift a loop's range to start at a new lower bound";
  let description = [{
    `for i in seq(lo, hi): s` becomes `for i in seq(new_lo, new_lo + hi -
    lo): s[i -> i + lo - new_lo]`, legal when `new_lo >= 0`.

    #### Return modes

    Consumes `target`. Returns the shifted loop.

    ```mlir
    %l2 = transform.exogpu.shift_loop %l to "1"
        : (!transform.any_op) -> !transform.any_op
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$target, StrAttr:$new_lo);
  let results = (outs TransformHandleTypeInterface:$result);
  let assemblyFormat = [{
    $target `to` $new_lo attr-dict `:` functional-type(operands, results)
  }];
}

def ExtendLoopOp : ExoGPU_RewriteOp<"extend_loop"> {
  let summary = "run a loop over a larger range, guarding the body";
  let description = [{
    `for i in seq(lo, hi): s` becomes `for i in seq(new_lo, new_hi): if lo
    <= i and i < hi: s` (atoms the new bounds imply are left out), legal
    when `new_lo <= lo` and `hi <= new_hi`: the added iterations do nothing.
    Used to give two loops a common range before `fuse` (software
    pipelining).

    #### Return modes

    Consumes `target`. Returns the extended loop.

    ```mlir
    %l2 = transform.exogpu.extend_loop %l to "0", "K / 16 + 1"
        : (!transform.any_op) -> !transform.any_op
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$target, StrAttr:$new_lo,
                       StrAttr:$new_hi);
  let results = (outs TransformHandleTypeInterface:$result);
  let assemblyFormat = [{
    $target `to` $new_lo `,` $new_hi attr-dict `:`
    functional-type(operands, results)
  }];
}

def RemoveLoopOp : ExoGPU_RewriteOp<"remove_loop"> {
  let summary = "remove a loop whose body does not depend on it";
  let description = [{
    `for i: s` becomes `s`, legal when `s` does not use `i`, the loop runs at
    least once under the preconditions, and `s` is idempotent (no reduction,
    no element both written and read by `s`).

    #### Return modes

    Consumes `target`. Returns the statements of the former body.

    ```mlir
    %s = transform.exogpu.remove_loop %l
        : (!transform.any_op) -> !transform.any_op
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$target);
  let results = (outs TransformHandleTypeInterface:$result);
  let assemblyFormat = [{
    $target attr-dict `:` functional-type(operands, results)
  }];
}

def AddLoopOp : ExoGPU_RewriteOp<"add_loop"> {
  let summary = "wrap statements in a new loop";
  let description = [{
    The consecutive statements of `target` become `for name in seq(0, hi):
    block`; with `guard`, `for name in seq(0, hi): if name == 0: block`.
    Legal when `hi >= 1` under the preconditions, no statement after the
    block uses a buffer or window it defines and, without `guard` and unless
    `hi` is 1, the block is idempotent.

    #### Return modes

    Consumes `target`. Returns the loop.

    ```mlir
    %t = transform.exogpu.add_loop %block "t" to "1"
        : (!transform.any_op) -> !transform.any_op
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$target, StrAttr:$name,
                       StrAttr:$hi, UnitAttr:$guard);
  let results = (outs TransformHandleTypeInterface:$result);
  let assemblyFormat = [{
    $target $name `to` $hi (`guard` $guard^)? attr-dict `:`
    functional-type(operands, results)
  }];
}

def LiftScopeOp : ExoGPU_RewriteOp<"lift_scope"> {
  let summary = "swap a loop or guard with the scope it is alone in";
  let description = [{
    `for i: if c: s` becomes `if c: for i: s` (legal when `c` does not use
    `i`); `if c: for i: s` becomes `for i: if c: s`; `if a: if b: s` becomes
    `if b: if a: s`; two loops are reordered as by `reorder_loops`.

    #### Return modes

    Consumes `target` (the inner scope). Returns the new outer scope.

    ```mlir
    %g = transform.exogpu.lift_scope %if
        : (!transform.any_op) -> !transform.any_op
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$target);
  let results = (outs TransformHandleTypeInterface:$result);
  let assemblyFormat = [{
    $target attr-dict `:` functional-type(operands, results)
  }];
}

def MultLoopsOp : ExoGPU_RewriteOp<"mult_loops"> {
  let summary = "merge two nested loops into one";
  let description = [{
    `for i in seq(0, e): for j in seq(0, c): s` (c a constant) becomes
    `for k in seq(0, e * c): s[i -> k / c, j -> k mod c]`. Always legal
    while the coefficients of `e * c` stay within 2^40.

    #### Return modes

    Consumes `target` (the outer loop). Returns the merged loop.

    ```mlir
    %k = transform.exogpu.mult_loops %i into "k"
        : (!transform.any_op) -> !transform.any_op
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$target, StrAttr:$name);
  let results = (outs TransformHandleTypeInterface:$result);
  let assemblyFormat = [{
    $target `into` $name attr-dict `:` functional-type(operands, results)
  }];
}

#endif // EXOGPU_TRANSFORMOPS_LOOPTRANSFORMOPS_TD
