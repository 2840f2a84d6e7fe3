//===- Passes.td - exogpu analysis passes ------------------*- tablegen -*-===//
//
// Passes that run the collective analysis (seeds/002 Sec. 4) and the
// distributed memory deduction (Sec. 4.1), report their errors and, on
// request, explain their results as remarks.
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_ANALYSIS_PASSES_TD
#define EXOGPU_ANALYSIS_PASSES_TD

include "mlir/Pass/PassBase.td"

def CollectiveAnalysisPass : Pass<"exogpu-collective-analysis", "ModuleOp"> {
  let summary = "Compute which threads execute each statement (Sec. 4)";
  let description = [{
    Runs the collective analysis on every `exogpu.proc`: each scope inside a
    `device_function` gets its collective tiling, derived at the device
    function, `cuda_threads` loops and `warps` blocks. Reports as errors:
    `cuda_threads` loops that ask for more threads than their scope has,
    collective units that cannot be aligned with the scope's tiling, `warps`
    ranges outside the collective and unknown warp names, instruction calls
    at a scope whose collective does not match the instruction's unit, and
    assignments executed by more than one thread.

    With `emit-remarks`, emits a remark for every `cuda_threads` loop,
    `warps` block and instruction call giving its tiling and the thread
    sets of the first iterations of its (innermost) iterator, the other
    iterators at 0:

    ```
    remark: cuda_threads %arg3: tiling [128: %arg3(box 16, tiles 8,
      pitch 16)]; 16 thread(s); %arg3 = 0: [0, 15]; %arg3 = 1: [16, 31]; ...
    ```
  }];
  let options = [
    Option<"emitRemarks", "emit-remarks", "bool", /*default=*/"false",
           "Emit a remark with the tiling and thread sets of every "
           "cuda_threads loop, warps block and instruction call">,
    Option<"remarkIterations", "remark-iterations", "unsigned",
           /*default=*/"4",
           "How many iterations of the innermost iterator remarks show">,
  ];
}

def DistributedMemoryPass : Pass<"exogpu-distributed-memory", "ModuleOp"> {
  let summary = "Deduce the distributed dimensions of CUDA allocations "
                "(Sec. 4.1)";
  let description = [{
    Runs the distributed memory deduction on every `exogpu.proc` (guide,
    "Distributed Memory", rules 1-4): the leading indices of each use of a
    CUDA-scoped allocation must be `cuda_threads` iterators whose tiling
    operators chain from the allocating tile down to the memory's native
    unit (barriers: every index), and every use must deduce the same
    distribution. Reports the failures of Sec. 4.1 (i)-(iii) as errors, and
    the errors of the collective analysis it builds on.

    With `emit-remarks`, emits a remark per allocation with its deduced
    layout:

    ```
    remark: 2 distributed dim(s) [2, 4] with thread pitches [128, 32];
      shards of 32 thread(s); shard 0 owned by [0, 31]
    ```
  }];
  let options = [
    Option<"emitRemarks", "emit-remarks", "bool", /*default=*/"false",
           "Emit a remark with the deduced layout of every allocation">,
  ];
}

#endif // EXOGPU_ANALYSIS_PASSES_TD
