//===- Passes.td - exogpu transformation passes ------------*- tablegen -*-===//
//
// Part of ExoGPU. Passes that rewrite exogpu IR.
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_TRANSFORMS_PASSES_TD
#define EXOGPU_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def ExoGPUInsertFrees : Pass<"exogpu-insert-frees", "ModuleOp"> {
  let summary = "End every allocation's lifetime with a free";
  let description = [{
    Users do not write `free` statements; the compiler adds them (paper
    seeds/002 Sec. 3.4, "Alloc & Free"). This pass appends, at the end of the
    block of every `exogpu.alloc` that has no free, an `exogpu.free`, in
    reverse allocation order. The synchronization check then verifies that
    no access to a freed shared-memory variable or barrier is still in flight
    (Fig. 5 `free x`, `free z`).

    ```mlir
    %s = exogpu.alloc f32[128] @CudaSmemLinear
    ...
    exogpu.free %s : f32[128] @CudaSmemLinear
    ```
  }];
  let dependentDialects = ["::mlir::exogpu::ExoGPUDialect"];
}

def ExoGPULinkImports : Pass<"exogpu-link-imports", "ModuleOp"> {
  let summary = "Copy the definitions the module's imports bring into it";
  let description = [{
    Replaces each `exogpu.import` by the definitions of the file it names
    and of the files that file imports, each file once, in the order `cat`
    would have prepended them (docs/design/exogpu-dialect.md "Imports"). The
    result holds the whole program and reads like the concatenated files.
    A definition the module already holds a copy of is not copied again.
    The CUDA translation, `--convert-exogpu-to-standard` and `exogpu-run`
    link their input themselves; the other passes read imported definitions
    where they are.

    ```
    exogpu-opt --exogpu-link-imports examples/sm90a_gemm.mlir
    ```
  }];
}

#endif // EXOGPU_TRANSFORMS_PASSES_TD
