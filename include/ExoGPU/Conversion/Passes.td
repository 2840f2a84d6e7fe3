//===- Passes.td - exogpu conversion passes ----------------*- tablegen -*-===//
//
// The translation of GPU IR to abstract machine IR (seeds/002 Sec. 5.2) and
// the lowering of procs to their sequential meaning in upstream MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_CONVERSION_PASSES_TD
#define EXOGPU_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertExoGPUToExoAM : Pass<"convert-exogpu-to-exoam", "ModuleOp"> {
  let summary = "Translate exogpu procs to abstract machine IR (Sec. 5.2)";
  let description = [{
    Runs the collective analysis and replaces every `exogpu.proc` by the
    `exoam.proc` of the translation T_s (seeds/002 Fig. 5, 17-20): loops
    become `exoam.loop` (a `cuda_tasks` iteration starts with
    `exoam.inc_task_id`), `warps` blocks become `exoam.if true`, a
    `device_function` is bracketed by `cuda_stream_sync` fences, data
    statements become checks and records of their accesses, and instruction
    calls convert each argument by access mode and atomicity (Fig. 19).
    Window statements and calls of procs outside device functions are
    inlined; instruction definitions are dropped. Every exoam statement
    carries the thread mapping of the exogpu statement it comes from and
    its location.

    Frees are translated where they are written; run
    `--exogpu-insert-frees` first to add the compiler's frees, as
    `--exogpu-sync-check` does.

    ```
    exogpu-opt --exogpu-insert-frees --convert-exogpu-to-exoam kernel.mlir
    ```
  }];
  let dependentDialects = ["::mlir::exoam::ExoAMDialect"];
}

def ConvertExoGPUToStandard : Pass<"convert-exogpu-to-standard", "ModuleOp"> {
  let summary = "Lower exogpu procs to their sequential meaning in upstream "
                "MLIR (func, scf, memref, arith, math, affine, cf)";
  let description = [{
    An ExoGPU program is its sequential meaning (seeds/002 Sec. 2.3:
    seq[p1] = ... = seq[pN] = par[pN]). This pass replaces every
    `exogpu.proc` by a `func.func` of the same name that computes that
    meaning on the CPU, so upstream passes can lower it to LLVM and
    `exogpu-run` can execute it:

    * `size` and `index` parameters become `index` arguments, `bool`
      parameters `i1`, data parameters `memref`s of their precision with
      strided layouts (windows may be passed); the precondition and the
      dynamic extents of the data parameters are checked with `cf.assert`
      on entry and at every call (a message names the check and its
      location);
    * every loop (`seq`, `cuda_tasks`, `cuda_threads`) is an `scf.for` run in
      order; `device_function` and `warps` bodies are inlined in place;
    * control expressions become `affine.apply` (`/` and `mod` are floor
      division and the non-negative remainder, as in affine maps);
      conditions become `arith.cmpi` in disjunctive normal form;
    * windows (special windows included) become rank-reducing
      `memref.subview`s: a point coordinate drops its dimension;
    * allocations become `memref.alloca` in the entry block when their shape
      is static and the function's stack budget (1 MiB) allows, else a
      `memref.alloc` freed at the end of the allocating block; barrier
      allocations, `free`, `fence`, `arrive` and `await` vanish; memory
      types and distributed dimensions do not change values;
    * data expressions compute in their precision with one rounding per
      operation (`ui8` and `ui16` are stored as `i8` and `i16` with
      unsigned arithmetic; integer division by zero gives -1 and never
      traps; `max` is `arith.maxnumf` or `arith.maxsi` / `arith.maxui`,
      `exp2` and `log2` are `math.exp2` and `math.log2`), with an implicit
      conversion at the write;
    * an instruction call inlines the instruction's body with the actual
      control arguments and argument windows (locations are call-site
      locations); a proc call becomes a `func.call`.

    The module's `exogpu.import`s are linked in first (as
    `--exogpu-link-imports` does): imported procs become functions too.
    Instruction definitions are dropped. Recursive procs are rejected.

    ```
    exogpu-opt --convert-exogpu-to-standard kernel.mlir
    ```
  }];
  let dependentDialects = [
    "::mlir::affine::AffineDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::cf::ControlFlowDialect",
    "::mlir::func::FuncDialect",
    "::mlir::math::MathDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect",
  ];
}

#endif // EXOGPU_CONVERSION_PASSES_TD
