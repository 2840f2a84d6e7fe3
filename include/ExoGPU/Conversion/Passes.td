//===- Passes.td - exogpu conversion passes ----------------*- tablegen -*-===//
//
// The translation of GPU IR to abstract machine IR (seeds/002 Sec. 5.2).
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

#endif // EXOGPU_CONVERSION_PASSES_TD
