//===- SyncOps.td - exogpu fence, arrive and await ---------*- tablegen -*-===//
//
// The synchronization statements of Fig. 2: the non-split barrier `Fence` and
// the split barrier pair `Arrive` / `Await`, parameterized by the sync
// timelines of Fig. 16.
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_SYNC_OPS_TD
#define EXOGPU_SYNC_OPS_TD

include "ExoGPU/Dialect/ExoGPU/IR/ExoGPUTypes.td"

def ExoGPU_FenceOp : ExoGPU_Op<"fence"> {
  let summary = "a non-split barrier: `Fence(pre, post)`";
  let description = [{
    All threads of the executing collective rendezvous; accesses before the
    fence on `pre`'s timelines are ordered before accesses after it on
    `post`'s timelines (Sec. 2.1, Fig. 16). Only in CUDA scope.

    ```mlir
    exogpu.fence(cuda_in_order, cuda_in_order)
    ```
  }];
  let arguments = (ins ExoGPU_SyncTimelineAttr:$pre,
                       ExoGPU_SyncTimelineAttr:$post);
  let assemblyFormat = [{
    `(` custom<SyncTimeline>($pre) `,` custom<SyncTimeline>($post) `)`
    attr-dict
  }];
  let hasVerifier = 1;
}

def ExoGPU_ArriveOp : ExoGPU_Op<"arrive", [AttrSizedOperandSegments]> {
  let summary = "the arrive half of a split barrier: `Arrive(tl, n) >> z...`";
  let description = [{
    Arrives at one barrier, or at several with multicast (`>> z1 >> z2`, all
    mbarriers). Accesses before the arrive on `tl`'s timelines are ordered
    before accesses after the paired await. `n` is the arrive count (1 for
    commit groups and cluster sync).

    ```mlir
    exogpu.arrive(wgmma_async, 1) >> %cg[%cta, %wg]
        : barrier[2, 2] @CudaCommitGroup
    ```
  }];
  let arguments = (ins ExoGPU_SyncTimelineAttr:$timeline, I64Attr:$count,
                       Variadic<ExoGPU_BarrierType>:$barriers,
                       DenseI32ArrayAttr:$coordKinds,
                       DenseI32ArrayAttr:$coordCounts, AffineMapAttr:$coords,
                       Variadic<Index>:$ctrl);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def ExoGPU_AwaitOp : ExoGPU_Op<"await"> {
  let summary = "the await half of a split barrier: `Await(z, tl, n)`";
  let description = [{
    Waits for the paired arrive. With `n >= 0` the await pairs with the
    `n`-th prior arrive on the same barrier (`wait_group n`); with `n < 0` it
    pairs with arrive number `awaits - ~n` (a ring of depth `~n`; guide,
    "Queue Barrier").

    ```mlir
    exogpu.await(%cg[%cta, %wg], cuda_in_order, 0)
        : barrier[2, 2] @CudaCommitGroup
    ```
  }];
  let arguments = (ins ExoGPU_BarrierType:$barrier,
                       DenseI32ArrayAttr:$coordKinds, AffineMapAttr:$coords,
                       Variadic<Index>:$ctrl,
                       ExoGPU_SyncTimelineAttr:$timeline, I64Attr:$count);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

#endif // EXOGPU_SYNC_OPS_TD
