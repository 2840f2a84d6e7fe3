//===- GPUTransformOps.td - GPU annotations ----------------*- tablegen -*-===//
//
// Part of ExoGPU. The scheduling operations Exo-GPU adds (seeds/002 Sec.
// 2.3): loop modes, device functions, warp specialization and
// synchronization. Annotations of the sequential meaning: each keeps the IR
// valid; the collective analysis, the distributed memory deduction and the
// synchronization check verify the result.
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_TRANSFORMOPS_GPUTRANSFORMOPS_TD
#define EXOGPU_TRANSFORMOPS_GPUTRANSFORMOPS_TD

include "ExoGPU/Dialect/ExoGPU/TransformOps/TransformOpsBase.td"
include "ExoGPU/Dialect/ExoGPU/IR/ExoGPUAttrs.td"

def SetLoopModeOp : ExoGPU_EditOp<"set_loop_mode"> {
  let summary = "make a loop seq, cuda_tasks or cuda_threads";
  let description = [{
    Sets the loop mode and, for `cuda_threads`, the collective unit
    (`cuda_thread`, `4 * cuda_warp`, `cuda_warpgroup`, ...; Fig. 11).
    Undone with the verifier's explanation when the loop cannot have that
    mode there (Sec. 3.4: `cuda_threads` loops inside the tasks nest, with
    `lo = 0` and a constant `hi`).

    #### Return modes

    Reads `target` (one loop).

    ```mlir
    transform.exogpu.set_loop_mode %t "cuda_threads" unit "cuda_thread"
        : !transform.any_op
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$target, StrAttr:$mode,
                       OptionalAttr<StrAttr>:$unit);
  let assemblyFormat = [{
    $target $mode (`unit` $unit^)? attr-dict `:` type($target)
  }];
  let hasVerifier = 1;
}

def WrapDeviceFunctionOp : ExoGPU_EditOp<"wrap_device_function"> {
  let summary = "launch a loop nest as a CUDA kernel";
  let description = [{
    Wraps the loop nest in `exogpu.device_function` with the given
    `clusterDim`, `blockDim` or warp config (Fig. 3), and turns its `tasks`
    outermost loops (a perfect nest) into `cuda_tasks` loops. With
    `params_to`, the proc parameters in host memory that only the kernel
    uses move to that memory (`CudaGmemLinear`).

    #### Return modes

    Reads `target` (one loop at CPU scope). Returns the device function.

    ```mlir
    %kernel = transform.exogpu.wrap_device_function %m tasks 2
        {blockDim = 256} params_to "CudaGmemLinear"
        : (!transform.any_op) -> !transform.any_op
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$target,
                       ConfinedAttr<I64Attr, [IntPositive]>:$tasks,
                       DefaultValuedAttr<ConfinedAttr<I64Attr, [IntPositive]>,
                                         "1">:$clusterDim,
                       OptionalAttr<I64Attr>:$blockDim,
                       OptionalAttr<TypedArrayAttrBase<ExoGPU_WarpGroupAttr,
                           "warp config">>:$warps,
                       OptionalAttr<StrAttr>:$params_to);
  let results = (outs TransformHandleTypeInterface:$result);
  let assemblyFormat = [{
    $target `tasks` $tasks (`params_to` $params_to^)? attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def WrapWarpsOp : ExoGPU_EditOp<"wrap_warps"> {
  let summary = "restrict statements to named or numbered warps";
  let description = [{
    Wraps the consecutive statements in `exogpu.warps "name"` and/or
    `exogpu.warps(lo, hi)` (guide, "Warp Specialization").

    #### Return modes

    Reads `target`. Returns the warps block.

    ```mlir
    %p = transform.exogpu.wrap_warps %block name "producer"
        : (!transform.any_op) -> !transform.any_op
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$target,
                       OptionalAttr<StrAttr>:$name,
                       OptionalAttr<DenseI64ArrayAttr>:$range);
  let results = (outs TransformHandleTypeInterface:$result);
  let assemblyFormat = [{
    $target (`name` $name^)? (`range` $range^)? attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

/// Shared by the ops that insert a statement: where it goes.
class ExoGPU_InsertOp<string mnemonic> : ExoGPU_EditOp<mnemonic> {
  code insertDescription = [{
    The statement goes `before` or `after` the single payload statement of
    `target`, or at the `start` or `end` of its body. With `guard`, it is
    wrapped in `if guard` (a condition written as text, names visible at the
    place).
  }];
  let hasVerifier = 1;
}

def InsertFenceOp : ExoGPU_InsertOp<"insert_fence"> {
  let summary = "insert a fence";
  let description = [{
    Inserts `exogpu.fence(pre, post)` (sync timelines of Fig. 16).
  }] # insertDescription # [{

    #### Return modes

    Reads `target`. Returns the fence.

    ```mlir
    %f = transform.exogpu.insert_fence %k1 at "end" "Sm80_generic",
        "Sm80_generic" : (!transform.any_op) -> !transform.any_op
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$target,
                       StrAttr:$position, StrAttr:$pre, StrAttr:$post,
                       OptionalAttr<StrAttr>:$guard);
  let results = (outs TransformHandleTypeInterface:$result);
  let assemblyFormat = [{
    $target `at` $position $pre `,` $post (`guard` $guard^)? attr-dict `:`
    functional-type(operands, results)
  }];
}

def InsertArriveOp : ExoGPU_InsertOp<"insert_arrive"> {
  let summary = "insert the arrive half of a split barrier";
  let description = [{
    Inserts `exogpu.arrive(timeline, count) >> barriers...` (barrier
    accesses written as text: `full[cta]`).
  }] # insertDescription # [{

    #### Return modes

    Reads `target`. Returns the arrive.

    ```mlir
    %a = transform.exogpu.insert_arrive %stmt at "after" "tma_to_smem_async"
        count 1 to ["full[cta]"] : (!transform.any_op) -> !transform.any_op
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$target,
                       StrAttr:$position, StrAttr:$timeline, I64Attr:$count,
                       StrArrayAttr:$barriers, OptionalAttr<StrAttr>:$guard);
  let results = (outs TransformHandleTypeInterface:$result);
  let assemblyFormat = [{
    $target `at` $position $timeline `count` $count `to` $barriers
    (`guard` $guard^)? attr-dict `:` functional-type(operands, results)
  }];
}

def InsertAwaitOp : ExoGPU_InsertOp<"insert_await"> {
  let summary = "insert the await half of a split barrier";
  let description = [{
    Inserts `exogpu.await(barrier, timeline, count)`.
  }] # insertDescription # [{

    #### Return modes

    Reads `target`. Returns the await.

    ```mlir
    %w = transform.exogpu.insert_await %stmt at "before" "empty[cta]"
        "cuda_generic_and_async" count -5
        : (!transform.any_op) -> !transform.any_op
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$target,
                       StrAttr:$position, StrAttr:$barrier, StrAttr:$timeline,
                       I64Attr:$count, OptionalAttr<StrAttr>:$guard);
  let results = (outs TransformHandleTypeInterface:$result);
  let assemblyFormat = [{
    $target `at` $position $barrier $timeline `count` $count
    (`guard` $guard^)? attr-dict `:` functional-type(operands, results)
  }];
}

def InsertBarrierAllocOp : ExoGPU_InsertOp<"insert_barrier_alloc"> {
  let summary = "insert a barrier allocation";
  let description = [{
    Inserts `name = exogpu.alloc barrier[shape] @mechanism` (Fig. 13;
    `guarded` for the explicitly guarded barrier of Fig. 10).
  }] # insertDescription # [{

    #### Return modes

    Reads `target`. Returns the alloc.

    ```mlir
    %full = transform.exogpu.insert_barrier_alloc %stmt at "before" "full"
        [2] "CudaMbarrier" : (!transform.any_op) -> !transform.any_op
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$target,
                       StrAttr:$position, StrAttr:$name,
                       DenseI64ArrayAttr:$shape, StrAttr:$mechanism,
                       UnitAttr:$guarded);
  let results = (outs TransformHandleTypeInterface:$result);
  let assemblyFormat = [{
    $target `at` $position $name $shape $mechanism (`guarded` $guarded^)?
    attr-dict `:` functional-type(operands, results)
  }];
}

def SetTrailingBarrierOp : ExoGPU_EditOp<"set_trailing_barrier"> {
  let summary = "set the barrier an instruction call completes on";
  let description = [{
    Sets the trailing `>> barrier` of an instruction call (TMA completes on
    an mbarrier), or removes it without `barrier`.

    #### Return modes

    Reads `target` (one call).

    ```mlir
    transform.exogpu.set_trailing_barrier %tma "full[cta]"
        : !transform.any_op
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$target,
                       OptionalAttr<StrAttr>:$barrier);
  let assemblyFormat = "$target ($barrier^)? attr-dict `:` type($target)";
}

#endif // EXOGPU_TRANSFORMOPS_GPUTRANSFORMOPS_TD
