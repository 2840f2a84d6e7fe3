//===- ControlOps.td - exoam procs, loops, guards, tasks --*- tablegen -*-===//
//
// The structural AMIR statements of Fig. 4 and their big-step rules in
// Fig. 21: `proc`, `loop`, `if` and `inc_task_id`.
//
//===----------------------------------------------------------------------===//

#ifndef EXOAM_CONTROL_OPS_TD
#define EXOAM_CONTROL_OPS_TD

include "ExoGPU/Dialect/ExoAM/IR/ExoAMAttrs.td"
include "ExoGPU/Dialect/ExoGPU/IR/ExoGPUAttrs.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/IR/SymbolInterfaces.td"

def ExoAM_ProcOp : ExoAM_Op<"proc", [IsolatedFromAbove, NoTerminator,
    SingleBlock, Symbol,
    DeclareOpInterfaceMethods<OpAsmOpInterface,
                              ["getAsmBlockArgumentNames"]>]> {
  let summary = "an AMIR procedure: `proc y* do s#`";
  let description = [{
    The translation of a GPU IR proc (Sec. 5.2.4): only its control
    parameters remain, as `index` (sizes, indices) or `i1` (booleans) block
    arguments. `argNames` keeps the parameter names, which the interpreter
    binds to values (`--exoam-interpret="M=64,N=32"`).

    Data and barrier variables are names. A name keeps one rank across all
    its accesses and allocations, and a name allocated as data is never
    used where Fig. 4 expects a barrier access (`e_z#`).

    ```mlir
    exoam.proc @copy(%N: index) {
      exoam.loop %i in (0, %N) {
        exoam.record_read fully_ordered @x[%i] on cpu_in_order_qual threads cpu
      }
    }
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name, StrArrayAttr:$argNames);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
}

def ExoAM_LoopOp : ExoAM_StmtOp<"loop", [NoTerminator, SingleBlock]> {
  let summary = "a loop: `for y in loop(c_lo, c_hi) do s#`";
  let description = [{
    Runs its body once for each `y` in the half-open interval `[lo, hi)`, in
    order (Fig. 21 LOOPSTEP, LOOPDONE). The bounds are quasi-affine control
    expressions over `ctrl`; `bounds` has two results.

    ```mlir
    exoam.loop %k in (0, %K / 16) {
    }
    ```
  }];
  let arguments = (ins AffineMapAttr:$bounds, Variadic<Index>:$ctrl);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The loop iterator.
    ::mlir::BlockArgument getIterator() { return getBody().getArgument(0); }
  }];
}

def ExoAM_IfOp : ExoAM_StmtOp<"if", [NoTerminator, SingleBlock]> {
  let summary = "a guard: `if b then s#`";
  let description = [{
    Runs its body when the condition holds (Fig. 21 IF-TRUE, IF-FALSE). The
    condition is a Fig. 1 boolean expression over `ctrl` in the spelling of
    `exogpu.if`: relations of quasi-affine expressions, `i1` operands and
    `true` / `false`, combined with `and` and `or`.

    ```mlir
    exoam.if %i < %N and %flag {
    }
    ```
  }];
  let arguments = (ins ExoGPU_ConditionAttr:$condition,
                       Variadic<AnyTypeOf<[Index, I1]>>:$ctrl);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def ExoAM_IncTaskIdOp : ExoAM_StmtOp<"inc_task_id"> {
  let summary = "start the next task: `IncTaskID`";
  let description = [{
    Increments the task id `iota` (Fig. 21 INCTASKID). The translation of a
    `cuda_tasks` loop runs it at the start of every iteration (Fig. 5), so
    GPU statements of different iterations execute as different global
    threads (Def. 5.2).

    ```mlir
    exoam.inc_task_id
    ```
  }];
  let assemblyFormat = "attr-dict";
}

#endif // EXOAM_CONTROL_OPS_TD
