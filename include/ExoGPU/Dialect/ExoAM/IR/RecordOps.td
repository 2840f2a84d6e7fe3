//===- RecordOps.td - exoam allocation and access records --*- tablegen -*-===//
//
// The AMIR statements that update the synchronization environment with
// accesses (Fig. 4, rules in Fig. 22): `alloc`, `record_read`,
// `record_mutate`, `clear_reads` and `clear_mutates`.
//
//===----------------------------------------------------------------------===//

#ifndef EXOAM_RECORD_OPS_TD
#define EXOAM_RECORD_OPS_TD

include "ExoGPU/Dialect/ExoAM/IR/ExoAMAttrs.td"
include "ExoGPU/Dialect/ExoGPU/IR/ExoGPUEnums.td"

def ExoAM_AllocOp : ExoAM_StmtOp<"alloc"> {
  let summary = "begin a variable's lifetime: `Alloc(x[c*])`";
  let description = [{
    Resets every element of the index box `[0, n_1) x ... x [0, n_k)` to the
    empty state: no read or mutate records and barrier counts `(0, 0)`
    (Fig. 22 ALLOC). The coordinates are points, the extents `n_i`. With
    `barrier` the variable is a barrier variable (`z`), otherwise data.

    `capacity N "what"` bounds the allocation by the memory it lives in (the
    hardware limit of exogpu's allocations, getAllocationLimit): an ALLOC
    whose extents, with the values of the run, make more than `N` elements
    is an error naming `what`. Static extents must fit.

    `ring R` (barriers only) makes each element a ring of `R` mbarriers, as
    the CUDA translation implements a `CudaMbarrier` (its depth,
    ExoGPU/Analysis/MbarrierRing.h): the machine then checks the rules of
    docs/abstract-machine.md "Rings" (arrives and awaits numbered per
    thread, one collective per phase, slot reuse, waits that skip a phase,
    hangs). Without it, a barrier has the unbounded phases of Fig. 22.

    ```mlir
    exoam.alloc @smem[2, 128]
    exoam.alloc barrier @full[4] ring 5
    exoam.alloc @tile[%N, 64] capacity 929792 "3719168 bytes of shared memory"
    ```
  }];
  let arguments = (ins ExoAM_AccessAttr:$target, UnitAttr:$barrier,
                       OptionalAttr<ConfinedAttr<I64Attr, [IntPositive]>>:
                           $ring,
                       OptionalAttr<ConfinedAttr<I64Attr, [IntPositive]>>:
                           $capacity,
                       OptionalAttr<StrAttr>:$capacityOf,
                       Variadic<Index>:$ctrl);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

/// RecordRead and RecordMutate share their operands (Fig. 4).
class ExoAM_RecordOp<string mnemonic, string which>
    : ExoAM_StmtOp<mnemonic> {
  let summary = "record a " # which # ": `Record" # which #
                "(tau_v, t, e#, tau_q, tau_q*, e_z#)`";
  let arguments = (ins ExoAM_VisibilityLevelAttr:$level, UnitAttr:$convergent,
                       ExoAM_AccessAttr:$target,
                       ExoGPU_QualTimelineAttr:$timeline,
                       ExoAM_QualTimelineSetAttr:$atomic,
                       TypedArrayAttrBase<ExoAM_AccessAttr,
                                          "barrier accesses">:$barriers,
                       OptionalAttr<ExoAM_AccessAttr>:$home,
                       ExoAM_ThreadMappingAttr:$threads,
                       Variadic<Index>:$ctrl);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def ExoAM_RecordReadOp : ExoAM_RecordOp<"record_read", "Read"> {
  let description = [{
    Adds the records `R(tau_v, t, tau_q, tau_q*, W_ez, rho, g_s)` of Def. B.1
    to the read set of every accessed element (Fig. 22 RECORDREAD). The
    executing threads `g_s` see the read at `level` on `timeline`; every
    thread sees it at `atomic_only` on the `atomic` timelines. `convergent`
    (the `t` flag, Fig. 20 `T_cvg`) makes one record for all executing
    threads, otherwise one per thread. The barrier accesses after `>>`
    (`e_z#`) store their current arrive counts in the records' `P`; with a
    `home` barrier element, they all store the home's count instead: the
    phase of the issuing CTA's barrier that a multicast completion belongs
    to in every CTA it reaches (docs/abstract-machine.md, "Multicast").

    ```mlir
    exoam.record_read fully_ordered @A[%i, 0 to 15] on cuda_in_order_ram_qual
        threads gpu[128 (%t, 1, 0)]
    exoam.record_read unordered convergent @B[0 to 7] on wgmma_async_smem_qual
        >> @cg[%wg] threads gpu[256 (%wg, 128, 0)]
    exoam.record_mutate unordered @S[1, 0 to 127] on tma_to_smem_async_qual
        >> @full[1] home @full[%cta] threads gpu[2 (%cta, 128, 0), 128]
    ```
  }];
}

def ExoAM_RecordMutateOp : ExoAM_RecordOp<"record_mutate", "Mutate"> {
  let description = [{
    Like `record_read`, but adds the records to the mutate set of every
    accessed element (Fig. 22 RECORDMUTATE).

    ```mlir
    exoam.record_mutate unordered @C[%i] on tma_to_gmem_async_qual
        atomic = [tma_to_gmem_async_qual] >> @cg[0] threads gpu[128 (_, 1, 0)]
    ```
  }];
}

/// ClearReads and ClearMutates take one access (Fig. 4).
class ExoAM_ClearOp<string mnemonic, string which, string rule>
    : ExoAM_StmtOp<mnemonic> {
  let summary = "forget the " # which # " records of the accessed elements";
  let description = [{
    Empties the }] # which # [{ record set of every accessed element (Fig. 22
    }] # rule # [{). An overwrite uses it after checking the records it
    replaces (Fig. 5, 19).

    ```mlir
    exoam.}] # mnemonic # [{ @acc[%i, 0 to 7]
    ```
  }];
  let arguments = (ins ExoAM_AccessAttr:$target, Variadic<Index>:$ctrl);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def ExoAM_ClearReadsOp : ExoAM_ClearOp<"clear_reads", "read", "CLEARREADS">;
def ExoAM_ClearMutatesOp
    : ExoAM_ClearOp<"clear_mutates", "mutate", "CLEARMUTATES">;

#endif // EXOAM_RECORD_OPS_TD
