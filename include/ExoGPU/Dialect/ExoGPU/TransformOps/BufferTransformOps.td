//===- BufferTransformOps.td - checked buffer rewrites -----*- tablegen -*-===//
//
// Part of ExoGPU. Exo's buffer rewrites (seeds/002 Sec. 2.3) and windows;
// conditions in docs/scheduling.md. Buffers are named by a handle to their
// exogpu.alloc, or by a proc handle and a parameter name.
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_TRANSFORMOPS_BUFFERTRANSFORMOPS_TD
#define EXOGPU_TRANSFORMOPS_BUFFERTRANSFORMOPS_TD

include "ExoGPU/Dialect/ExoGPU/TransformOps/TransformOpsBase.td"

def LiftAllocOp : ExoGPU_EditOp<"lift_alloc"> {
  let summary = "move an allocation out of enclosing loops or guards";
  let description = [{
    Moves the allocation out of `levels` enclosing scopes. Legal when its
    extents do not use the iterators of the loops it leaves and are not
    negative anywhere the allocation now runs (also where a guard it leaves
    fails or a loop runs zero times), and it stays in the scope its memory
    is allocated in (shared and register memories stay inside the device
    function). Every level is checked before anything moves.

    #### Return modes

    Reads `target` (one alloc); the alloc moves, the handle stays valid.

    ```mlir
    transform.exogpu.lift_alloc %alloc levels 2 : !transform.any_op
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$target,
                       DefaultValuedAttr<ConfinedAttr<I64Attr, [IntPositive]>,
                                         "1">:$levels);
  let assemblyFormat = [{
    $target (`levels` $levels^)? attr-dict `:` type($target)
  }];
}

def SinkAllocOp : ExoGPU_EditOp<"sink_alloc"> {
  let summary = "move an allocation into the loop or guard after it";
  let description = [{
    Legal when every use is inside that scope and, for a loop, no iteration
    reads an element an earlier iteration wrote (unless the same iteration
    assigned it before).

    #### Return modes

    Reads `target` (one alloc).

    ```mlir
    transform.exogpu.sink_alloc %alloc : !transform.any_op
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$target);
  let assemblyFormat = "$target attr-dict `:` type($target)";
}

def ExpandDimOp : ExoGPU_EditOp<"expand_dim"> {
  let summary = "add a leading dimension to a buffer";
  let description = [{
    `x : T[...]` becomes `x : T[size, ...]` and every access `x[...]`
    becomes `x[index, ...]`. Legal when `0 <= index < size` at the
    allocation. `size` and `index` are control expressions written as text,
    with names visible at the allocation.

    #### Return modes

    Reads `target` (one alloc).

    ```mlir
    transform.exogpu.expand_dim %alloc size "K / 16" index "k1"
        : !transform.any_op
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$target, StrAttr:$size,
                       StrAttr:$index);
  let assemblyFormat = [{
    $target `size` $size `index` $index attr-dict `:` type($target)
  }];
}

def DivideDimOp : ExoGPU_EditOp<"divide_dim"> {
  let summary = "split a buffer dimension in two";
  let description = [{
    Dimension `dim` (extent a multiple of `quotient` under the
    preconditions) becomes `[extent / quotient, quotient]`; an access `i`
    becomes `i / quotient, i mod quotient`, simplified under the enclosing
    loop bounds.

    #### Return modes

    Reads `target` (one alloc).

    ```mlir
    transform.exogpu.divide_dim %alloc dim 0 by 64 : !transform.any_op
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$target,
                       ConfinedAttr<I64Attr, [IntNonNegative]>:$dim,
                       ConfinedAttr<I64Attr, [IntPositive]>:$quotient);
  let assemblyFormat = [{
    $target `dim` $dim `by` $quotient attr-dict `:` type($target)
  }];
}

def MultDimOp : ExoGPU_EditOp<"mult_dim"> {
  let summary = "merge two buffer dimensions";
  let description = [{
    Dimension `lo` (constant extent `c`) is merged into dimension `hi`:
    `x[.., i, .., j, ..]` becomes `x[.., i * c + j, ..]`.

    #### Return modes

    Reads `target` (one alloc).

    ```mlir
    transform.exogpu.mult_dim %alloc dims 0, 2 : !transform.any_op
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$target,
                       ConfinedAttr<I64Attr, [IntNonNegative]>:$hi,
                       ConfinedAttr<I64Attr, [IntNonNegative]>:$lo);
  let assemblyFormat = [{
    $target `dims` $hi `,` $lo attr-dict `:` type($target)
  }];
}

def RearrangeDimOp : ExoGPU_EditOp<"rearrange_dim"> {
  let summary = "permute the dimensions of a buffer";
  let description = [{
    New dimension `i` is old dimension `permutation[i]`; accesses follow.
    Windows and call arguments keep the order of their dimensions.

    #### Return modes

    Reads `target` (one alloc).

    ```mlir
    transform.exogpu.rearrange_dim %alloc [2, 0, 1] : !transform.any_op
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$target,
                       DenseI64ArrayAttr:$permutation);
  let assemblyFormat = "$target $permutation attr-dict `:` type($target)";
}

def ResizeDimOp : ExoGPU_EditOp<"resize_dim"> {
  let summary = "resize a buffer dimension, or fold it into a ring";
  let description = [{
    Dimension `dim` gets extent `size` and accesses `i` become
    `i - offset`, legal when `size` is never negative and every access lies
    in `[offset, offset + size)`.
    With `fold` (a circular buffer; `size` a constant, no offset), accesses
    become `i mod size`, legal when no write of an element congruent modulo
    `size` falls between a write of an element and a later read of it.

    #### Return modes

    Reads `target` (one alloc).

    ```mlir
    transform.exogpu.resize_dim %alloc dim 0 size "2" fold
        : !transform.any_op
    transform.exogpu.resize_dim %alloc dim 1 size "16" offset "8"
        : !transform.any_op
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$target,
                       ConfinedAttr<I64Attr, [IntNonNegative]>:$dim,
                       StrAttr:$size,
                       DefaultValuedStrAttr<StrAttr, "0">:$offset,
                       UnitAttr:$fold);
  let assemblyFormat = [{
    $target `dim` $dim `size` $size (`offset` $offset^)? (`fold` $fold^)?
    attr-dict `:` type($target)
  }];
  let hasVerifier = 1;
}

def DeleteBufferOp : ExoGPU_RewriteOp<"delete_buffer"> {
  let summary = "remove an unused allocation";
  let description = [{
    #### Return modes

    Consumes `target` (one alloc with no uses).

    ```mlir
    transform.exogpu.delete_buffer %alloc : (!transform.any_op) -> ()
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$target);
  let assemblyFormat = [{
    $target attr-dict `:` functional-type(operands, results)
  }];
}

def ReuseBufferOp : ExoGPU_TransformOp<"reuse_buffer", [
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "use an earlier, dead buffer instead of a new allocation";
  let description = [{
    `x : T; ...; y : T; s` becomes `x : T; ...; s[y -> x]`. Legal when both
    have the same type and extents, `x` is allocated earlier in the same
    block and every use of `x`, directly or through its windows, comes
    before `y`'s allocation.

    #### Return modes

    Reads `kept`, consumes `replaced` (one alloc each).

    ```mlir
    transform.exogpu.reuse_buffer %x for %y
        : !transform.any_op, !transform.any_op
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$kept,
                       TransformHandleTypeInterface:$replaced);
  let assemblyFormat = [{
    $kept `for` $replaced attr-dict `:` type($kept) `,` type($replaced)
  }];
}

def SetMemoryOp : ExoGPU_EditOp<"set_memory"> {
  let summary = "change the memory of a buffer";
  let description = [{
    Changes the memory (Fig. 12) of an allocation, or of parameter `param`
    of a proc, and of its windows. Legal when the IR stays valid (the scope
    rules of memories, instruction parameter memories); memories are
    annotations of the sequential meaning.

    #### Return modes

    Reads `target` (one alloc, or one proc with `param`).

    ```mlir
    transform.exogpu.set_memory %alloc to "CudaSmemLinear"
        : !transform.any_op
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$target, StrAttr:$memory,
                       OptionalAttr<StrAttr>:$param);
  let assemblyFormat = [{
    $target (`param` $param^)? `to` $memory attr-dict `:` type($target)
  }];
  let hasVerifier = 1;
}

def SetPrecisionOp : ExoGPU_EditOp<"set_precision"> {
  let summary = "change the precision of a buffer";
  let description = [{
    Changes the element type of an allocation, or of parameter `param` of a
    proc, of its windows and reads. As in Exo, precision is an annotation of
    the sequential meaning; the dialect has no conversions inside
    expressions, so every read must stand where the new precision is
    accepted (the IR stays valid).

    #### Return modes

    Reads `target` (one alloc, or one proc with `param`).

    ```mlir
    transform.exogpu.set_precision %alloc to f16 : !transform.any_op
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$target,
                       TypeAttr:$precision, OptionalAttr<StrAttr>:$param);
  let assemblyFormat = [{
    $target (`param` $param^)? `to` $precision attr-dict `:` type($target)
  }];
}

def StageMemOp : ExoGPU_EditOp<"stage_mem"> {
  let summary = "stage a window of a buffer in a new buffer around a block";
  let description = [{
    Copies the window (`A[i * 16:i * 16 + 16, 0:K]`, names visible at the
    block) into a new buffer `name` in `memory` before the block, redirects
    the block's accesses to it, and copies it back after. The load is left
    out when the block's first statement is a loop nest that overwrites all
    of the window (otherwise the store would write back elements the block
    did not write); the store when the block does not write it. With
    `accum` the block must only reduce into the window: the new buffer
    starts at zero and is added back. Legal when the window lies
    within the buffer and contains every access of the block (bounds
    checks under the preconditions and enclosing bounds), the block uses the
    buffer directly (not through a window, which would bypass the copy) and
    no window or argument spans a dimension the window fixes to a point.

    #### Return modes

    Reads `target` (consecutive statements; they stay valid). Returns the
    new alloc and the load and store loop nests (empty handles when left
    out).

    ```mlir
    %alloc, %load, %store = transform.exogpu.stage_mem %block
        window "A[m * 128:m * 128 + 128, k * 16:k * 16 + 16]"
        into "A_smem" memory "CudaSmemLinear"
        : (!transform.any_op)
        -> (!transform.any_op, !transform.any_op, !transform.any_op)
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$target, StrAttr:$window,
                       StrAttr:$name, StrAttr:$memory, UnitAttr:$accum);
  let results = (outs TransformHandleTypeInterface:$alloc,
                      TransformHandleTypeInterface:$load,
                      TransformHandleTypeInterface:$store);
  let assemblyFormat = [{
    $target `window` $window `into` $name `memory` $memory
    (`accum` $accum^)? attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def InlineWindowOp : ExoGPU_RewriteOp<"inline_window"> {
  let summary = "replace a window by accesses of its source";
  let description = [{
    `y = x[...]; s` becomes `s[y -> x[...]]`. Always legal; special windows
    (tensor maps) stay.

    #### Return modes

    Consumes `target` (one window statement).

    ```mlir
    transform.exogpu.inline_window %w : (!transform.any_op) -> ()
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$target);
  let assemblyFormat = [{
    $target attr-dict `:` functional-type(operands, results)
  }];
}

def BindWindowOp : ExoGPU_EditOp<"bind_window"> {
  let summary = "access a buffer through a new (special) window in a block";
  let description = [{
    Creates `name = buffer[:, ...]`, with the special window `special` if
    given (`Sm90_tensorMap(128, 128, 32)`, a TMA tensor map, Fig. 14), at the
    start of the proc for a parameter or after the buffer's allocation, and
    makes the block's accesses of `buffer` go through it. The identity
    window leaves the sequential meaning unchanged; the IR must stay valid.

    #### Return modes

    Reads `target` (consecutive statements). Returns the window statement.

    ```mlir
    %w = transform.exogpu.bind_window %block buffer "A" into "A_map"
        special "Sm90_tensorMap(128, 128, 32)"
        : (!transform.any_op) -> !transform.any_op
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$target, StrAttr:$buffer,
                       StrAttr:$name, OptionalAttr<StrAttr>:$special);
  let results = (outs TransformHandleTypeInterface:$window);
  let assemblyFormat = [{
    $target `buffer` $buffer `into` $name (`special` $special^)? attr-dict `:`
    functional-type(operands, results)
  }];
}

#endif // EXOGPU_TRANSFORMOPS_BUFFERTRANSFORMOPS_TD
