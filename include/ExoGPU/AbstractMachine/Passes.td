//===- Passes.td - abstract machine passes -----------------*- tablegen -*-===//
//
// Passes that run the abstract machine of seeds/002 Sec. 5.3 on exoam IR.
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_ABSTRACTMACHINE_PASSES_TD
#define EXOGPU_ABSTRACTMACHINE_PASSES_TD

include "mlir/Pass/PassBase.td"

def ExoAMInterpret : Pass<"exoam-interpret", "ModuleOp"> {
  let summary = "Interpret every exoam.proc on the abstract machine";
  let description = [{
    Runs each `exoam.proc` of the module on the abstract machine (seeds/002
    Fig. 6, 7, 21, 22, App. B; `engine=box`, the default, or the reference
    store, `engine=reference`), binding its parameters to the
    given values. A failing check or an ill-formed statement stops that
    proc's run with an error at the statement; the pass then fails. A
    program that passes leaves the IR unchanged and prints nothing.

    Values are given as `name=value` pairs, directly or through `args`:

    ```
    exogpu-opt --exoam-interpret="M=64,N=32" kernel.exoam.mlir
    exogpu-opt --pass-pipeline="builtin.module(exoam-interpret{args=M=64,N=32})"
    ```

    `i1` parameters take `true`, `false`, `1` or `0`.
  }];
  let dependentDialects = ["::mlir::exoam::ExoAMDialect"];
  let options = [
    ListOption<"args", "args", "std::string",
               "values of the procs' control parameters, one name=value item "
               "each (M=64; a bool is true or false)">,
    Option<"engine", "engine", "std::string", /*default=*/"\"box\"",
           "how the machine stores its state: box (fast, the default) or "
           "reference (one state per element; the test oracle)">,
    Option<"replayTasks", "replay-tasks", "bool", /*default=*/"true",
           "let the box engine replay a task from an earlier task's summary "
           "where that gives the same result">,
    Option<"replayRemarks", "replay-remarks", "bool", /*default=*/"false",
           "emit a remark at each task loop: how many of its tasks ran and "
           "how many were replayed">,
    Option<"bulkLoops", "bulk-loops", "bool", /*default=*/"true",
           "let the box engine run the iterations of a loop that only "
           "checks, clears and records in bulk once they reach a fixed "
           "point">,
    Option<"progressSeconds", "progress-seconds", "int",
           /*default=*/"-1",
           "seconds between the lines on stderr that tell where a long run "
           "is (-1: every 10 s when stderr is a terminal, else none; 0: at "
           "every loop iteration); never diagnostics">,
    Option<"maxSteps", "max-steps", "uint64_t", /*default=*/"1000000000",
           "the most steps a run may take (a statement run, a task replayed, "
           "a batch of loop iterations applied at once); a loop whose "
           "remaining iterations would take more is refused before it runs "
           "them">,
    Option<"maxMemory", "max-memory", "uint64_t", /*default=*/"4096",
           "the most heap (MiB) a run may grow to; the reference engine "
           "refuses an allocation whose elements' states could take more">,
  ];
}

def ExoGPUSyncCheck : Pass<"exogpu-sync-check", "ModuleOp"> {
  let summary = "Check that a proc's synchronization preserves its "
                "sequential meaning (Sec. 5)";
  let description = [{
    The synchronization check of seeds/002 Sec. 5 at concrete sizes: on a
    copy of the module, inserts the compiler's frees, runs the collective
    analysis and the distributed memory deduction (Sec. 4, 4.1), translates
    each entry proc (a proc no other proc calls, or the one named by `proc`)
    to abstract machine IR (Fig. 5, 17-20) and runs it
    on the abstract machine (Fig. 6, 7, 21, 22, App. B) with the given
    values of its size, index and bool parameters. The module is left
    unchanged; a program that passes prints nothing else.

    A failure is reported at the exogpu statement whose check failed: the
    hazard (RAW, WAR, WAW, use after free of shared memory, or an
    arrive/await count mismatch at a barrier's free), the variable and
    element, the earlier access with its location, threads and timeline,
    the iteration each access ran at (the values of the source loops
    around it, `k = 0, kk = 0, cta = 0, wg = 1`), and the synchronization
    that would order the two. With `repair` (the default), the check then
    tries `exogpu.fence(pre, post)` with the suggested timelines right
    before the later access and right after the earlier one, each on a
    copy, and names the first the check accepts and where it goes.

    `args` (the `name=value` items, also written directly: `M=64,N=32`)
    binds every size, index and bool parameter of the procs checked: an
    integer, or `true` / `false` for a bool. From C++,
    `ExoGPUSyncCheckOptions::args` takes the same items, one per element:
    `options.args = {"M=64", "N=32"}`.

    ```
    exogpu-opt --exogpu-sync-check="M=1024,N=1024,K=512" gemm.mlir
    exogpu-opt --exogpu-sync-check="proc=gemm M=256 N=256 K=64" gemm.mlir
    ```
  }];
  let dependentDialects = ["::mlir::exoam::ExoAMDialect"];
  let options = [
    ListOption<"args", "args", "std::string",
               "values of the procs' control parameters, one name=value item "
               "each (M=64; a bool is true or false)">,
    Option<"procName", "proc", "std::string", /*default=*/"",
           "check only this proc (default: every proc no other proc calls)">,
    Option<"engine", "engine", "std::string", /*default=*/"\"box\"",
           "how the machine stores its state: box (fast, the default) or "
           "reference (one state per element; the test oracle)">,
    Option<"replayTasks", "replay-tasks", "bool", /*default=*/"true",
           "let the box engine replay a task from an earlier task's summary "
           "where that gives the same result">,
    Option<"replayRemarks", "replay-remarks", "bool", /*default=*/"false",
           "emit a remark at each task loop: how many of its tasks ran and "
           "how many were replayed">,
    Option<"bulkLoops", "bulk-loops", "bool", /*default=*/"true",
           "let the box engine run the iterations of a loop that only "
           "checks, clears and records in bulk once they reach a fixed "
           "point">,
    Option<"progressSeconds", "progress-seconds", "int",
           /*default=*/"-1",
           "seconds between the lines on stderr that tell where a long run "
           "is (-1: every 10 s when stderr is a terminal, else none; 0: at "
           "every loop iteration); never diagnostics">,
    Option<"maxSteps", "max-steps", "uint64_t", /*default=*/"1000000000",
           "the most steps a run may take (a statement run, a task replayed, "
           "a batch of loop iterations applied at once); a loop whose "
           "remaining iterations would take more is refused before it runs "
           "them">,
    Option<"maxMemory", "max-memory", "uint64_t", /*default=*/"4096",
           "the most heap (MiB) a run may grow to; the reference engine "
           "refuses an allocation whose elements' states could take more">,
    Option<"repair", "repair", "bool", /*default=*/"true",
           "after a hazard, look for a fence the check accepts (each "
           "candidate checked on a copy) and name it in a note">,
  ];
}

#endif // EXOGPU_ABSTRACTMACHINE_PASSES_TD
