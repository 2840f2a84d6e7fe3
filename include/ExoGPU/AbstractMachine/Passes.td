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
    Runs each `exoam.proc` of the module with the reference abstract machine
    (seeds/002 Fig. 6, 7, 21, 22, App. B), binding its parameters to the
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
               "values of the procs' control parameters, as name=value">
  ];
}

#endif // EXOGPU_ABSTRACTMACHINE_PASSES_TD
