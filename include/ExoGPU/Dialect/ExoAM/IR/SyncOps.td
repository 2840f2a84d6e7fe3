//===- SyncOps.td - exoam fence, arrive and await ----------*- tablegen -*-===//
//
// The AMIR synchronization statements of Fig. 4 (rules in Fig. 22 and
// Def. B.2, B.3): `fence`, `arrive` and `await`.
//
//===----------------------------------------------------------------------===//

#ifndef EXOAM_SYNC_OPS_TD
#define EXOAM_SYNC_OPS_TD

include "ExoGPU/Dialect/ExoAM/IR/ExoAMAttrs.td"

def ExoAM_FenceOp : ExoAM_StmtOp<"fence"> {
  let summary = "a non-split barrier: `Fence(t, tau_q_pre*, tau_q_full*, "
                "tau_q_temp*)`";
  let description = [{
    Raises the visibility of every record witnessed by the executing threads
    (Def. B.3 `W`) on the `pre` timelines: the executing threads then see it
    `fully_ordered` on the `full` timelines and `temporally_ordered` on the
    `temp` timelines not in `full` (Def. B.3 `A`; Fig. 22 FENCE). A
    `transitive` fence (Fig. 16 `trnstv?`) witnesses a record that any
    executing thread sees on any `pre` timeline; a non-transitive one only a
    record made on a `pre` timeline and seen on that timeline.

    ```mlir
    exoam.fence transitive pre = qfull(cuda_in_order)
        full = qfull(cuda_in_order) temp = qtmp(cuda_in_order)
        threads gpu[128]
    ```
  }];
  let arguments = (ins UnitAttr:$transitive, ExoAM_QualTimelineSetAttr:$pre,
                       ExoAM_QualTimelineSetAttr:$full,
                       ExoAM_QualTimelineSetAttr:$temp,
                       ExoAM_ThreadMappingAttr:$threads,
                       Variadic<Index>:$ctrl);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def ExoAM_ArriveOp : ExoAM_StmtOp<"arrive"> {
  let summary = "the arrive half of a split barrier: `Arrive(t, tau_q*, "
                "e_z#*)`";
  let description = [{
    The barrier accesses after `>>` must share exactly one element, the home
    barrier (Fig. 22 ARRIVE). Every record witnessed by the executing threads
    on the `pre` timelines (Def. B.3 `W`) notes, for each accessed barrier
    element, the home barrier's current arrive count in its `P` (the phase
    this arrive belongs to in every element a multicast arrive reaches;
    docs/abstract-machine.md, "Multicast"); then the home barrier's arrive
    count increases by one and every other accessed element records that it
    reached that phase. A later `await` on a barrier element raises the
    records whose noted counts it pairs with.

    ```mlir
    exoam.arrive transitive pre = [cuda_in_order_rmem_qual,
        cuda_in_order_ram_qual] >> @full[%k mod 4] threads gpu[128]
    ```
  }];
  let arguments = (ins UnitAttr:$transitive, ExoAM_QualTimelineSetAttr:$pre,
                       TypedArrayAttrBase<ExoAM_AccessAttr,
                                          "barrier accesses">:$barriers,
                       ExoAM_ThreadMappingAttr:$threads,
                       Variadic<Index>:$ctrl);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def ExoAM_AwaitOp : ExoAM_StmtOp<"await"> {
  let summary = "the await half of a split barrier: `Await(e_z#, "
                "tau_q_full*, tau_q_temp*, n)`";
  let description = [{
    The barrier access denotes one element with counts `(a, w)`. With
    `n >= 0` the await pairs with every arrive numbered up to
    `Max = a - (n + 1)`, i.e. all but the last `n` (`wait_group n`); with
    `n < 0` with those up to `Max = w + n + 1`, a ring of depth `~n`
    (guide "Queue Barrier"). Records whose `P` holds a paired count are
    raised for the executing threads as by a fence with `full` and `temp`;
    the await count becomes `max(w, Max + 1)` for `n >= 0`, `w + 1`
    otherwise (Fig. 22 AWAIT).

    With `own` (the translation's await of a commit group: a
    `cp.async.wait_group` or `wgmma.wait_group` covers only the groups the
    waiting thread or warpgroup committed), an executing thread is raised
    only on the paired records it sees at `unordered` or above on their own
    timeline, i.e. on the asynchronous work it issued itself
    (docs/abstract-machine.md, "Commit groups").

    ```mlir
    exoam.await @full[%k mod 4] full = qfull(cuda_in_order)
        temp = qtmp(cuda_in_order) n = -1 threads gpu[128]
    exoam.await own @cg[0] full = qfull(cuda_in_order)
        temp = qtmp(cuda_in_order) n = 0 threads gpu[128]
    ```
  }];
  let arguments = (ins UnitAttr:$own, ExoAM_AccessAttr:$barrier,
                       ExoAM_QualTimelineSetAttr:$full,
                       ExoAM_QualTimelineSetAttr:$temp, I64Attr:$n,
                       ExoAM_ThreadMappingAttr:$threads,
                       Variadic<Index>:$ctrl);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def ExoAM_CompleteOp : ExoAM_StmtOp<"complete"> {
  let summary = "the completion of an asynchronous call on ring barriers "
                "(`complete_tx`)";
  let description = [{
    The asynchronous copy of a call `g(...) >> z` signals the barrier
    elements after `>>` when its bytes have landed (PTX `complete_tx` of a
    TMA load), in the phase of the issuing threads' next arrive: the current
    arrive count of `home` (for a multicast completion, the issuing CTA's
    element), else of each element itself. For elements that are rings of
    mbarriers (`alloc ... ring R`), the signal must reach its ring slot after
    the slot's previous phase completed, and only an await of exactly that
    phase waits for it (docs/abstract-machine.md, "Rings"); on other barrier
    elements the statement does nothing. The translation emits it after the
    records of a call that completes on a `CudaMbarrier`; the records
    themselves observe the barrier (`record_mutate ... >> @z[...]`).

    ```mlir
    exoam.complete >> @full[%cta] threads gpu[384 (%cta, 1, 128)]
    exoam.complete >> @full[0 to 1] home @full[%cta] threads gpu[768 (%cta, 384, 128)]
    ```
  }];
  let arguments = (ins TypedArrayAttrBase<ExoAM_AccessAttr,
                                          "barrier accesses">:$barriers,
                       OptionalAttr<ExoAM_AccessAttr>:$home,
                       ExoAM_ThreadMappingAttr:$threads,
                       Variadic<Index>:$ctrl);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

#endif // EXOAM_SYNC_OPS_TD
