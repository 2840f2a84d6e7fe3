//===- CheckOps.td - exoam visibility and barrier checks ---*- tablegen -*-===//
//
// The AMIR checking statements of Fig. 4 (rules in Fig. 7): `check_reads`,
// `check_mutates` and `check_barrier`; and the checks that the sequential
// program is defined at the given values: `check_condition` (preconditions)
// and `check_bounds` (accesses through windows). A check leaves the state
// unchanged or stops the abstract machine with an error.
//
//===----------------------------------------------------------------------===//

#ifndef EXOAM_CHECK_OPS_TD
#define EXOAM_CHECK_OPS_TD

include "ExoGPU/Dialect/ExoAM/IR/ExoAMAttrs.td"
include "ExoGPU/Dialect/ExoGPU/IR/ExoGPUAttrs.td"

/// CheckReads and CheckMutates share their operands (Fig. 4).
class ExoAM_VisibilityCheckOp<string mnemonic, string which, string rule>
    : ExoAM_StmtOp<mnemonic> {
  let summary = "check that earlier " # which # "s are visible: `Check" #
                rule # "(tau_v, t, e#, tau_q*)`";
  let description = [{
    Fails (Fig. 7 CHECK}] # !toupper(rule) # [{) when some }] # which #
    [{ record of an accessed element is not visible at `level` on any of the
    `timelines` to every executing thread (without `convergent`), or to any
    executing thread (with `convergent`, the `t` flag).

    The optional `for read`, `for write` or `for free` names the access the
    check guards, which the translation from GPU IR records so a failure
    names its hazard (RAW, WAR, WAW, or an access still in flight at a
    free); it does not change the semantics.

    ```mlir
    exoam.}] # mnemonic # [{ fully_ordered @x[%i] on [cuda_in_order_ram_qual]
        threads gpu[128 (%t, 1, 0)]
    exoam.}] # mnemonic # [{ temporally_ordered @x[%i]
        on [cuda_in_order_ram_qual] for write threads gpu[128 (%t, 1, 0)]
    ```
  }];
  let arguments = (ins ExoAM_VisibilityLevelAttr:$level, UnitAttr:$convergent,
                       ExoAM_AccessAttr:$target,
                       ExoAM_QualTimelineSetAttr:$timelines,
                       OptionalAttr<ExoAM_AccessPurposeAttr>:$purpose,
                       ExoAM_ThreadMappingAttr:$threads,
                       Variadic<Index>:$ctrl);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def ExoAM_CheckReadsOp
    : ExoAM_VisibilityCheckOp<"check_reads", "read", "Reads">;
def ExoAM_CheckMutatesOp
    : ExoAM_VisibilityCheckOp<"check_mutates", "mutate", "Mutates">;

def ExoAM_CheckBarrierOp : ExoAM_StmtOp<"check_barrier"> {
  let summary = "check arrive/await consistency: `CheckBarrier(e_z#)`";
  let description = [{
    Fails when some accessed barrier element has an arrive count different
    from its await count (Fig. 7 CHECKBARRIER); the arrive count of an
    element that multicast arrives of other homes reached is the number of
    phases they started there, if larger. The translation of a barrier free
    runs it over the whole barrier (Fig. 5).

    ```mlir
    exoam.check_barrier @ring[0 to 3]
    ```
  }];
  let arguments = (ins ExoAM_AccessAttr:$barrier, Variadic<Index>:$ctrl);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def ExoAM_CheckConditionOp : ExoAM_StmtOp<"check_condition"> {
  let summary = "stop unless a condition on control values holds";
  let description = [{
    Fails when the condition is false: the sequential program is not defined
    there. The translation from GPU IR checks a proc's `requires` clause with
    it at the proc's entry and at every inlined call (Sec. 3.3). The
    condition is a Fig. 1 boolean expression over `ctrl`, spelled as in
    `exoam.if`; `what` names it in the source for the error.

    ```mlir
    exoam.check_condition %N mod 128 == 0,
        "the precondition of @vector_add (requires N mod 128 == 0)"
    ```
  }];
  let arguments = (ins ExoGPU_ConditionAttr:$condition, StrAttr:$what,
                       Variadic<AnyTypeOf<[Index, I1]>>:$ctrl);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def ExoAM_CheckBoundsOp : ExoAM_StmtOp<"check_bounds"> {
  let summary = "stop unless an access lies within a window of its variable";
  let description = [{
    Fails when some element of `target` lies outside `window` (both accesses
    of one variable). The translation from GPU IR checks with it that an
    access through a window of a buffer (a window statement, or a buffer
    argument of an inlined proc) stays inside the window, and that a window
    stays inside the buffer it is taken of. Every rule also checks its
    accesses against the extents of the variable's allocation (`alloc`).

    ```mlir
    exoam.check_bounds @x[%i + 3] within @x[3 to 10]
    ```
  }];
  let arguments = (ins ExoAM_AccessAttr:$target, ExoAM_AccessAttr:$window,
                       Variadic<Index>:$ctrl);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

#endif // EXOAM_CHECK_OPS_TD
