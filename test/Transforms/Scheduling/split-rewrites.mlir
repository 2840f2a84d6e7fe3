// RUN: exogpu-opt %s --transform-interpreter -split-input-file | FileCheck %s

// Scheduling rewrites of procs that use exogpu.split: the rewrites that
// can carry a split along do (types, names, windows of splits, accesses
// through splits in the legality checks); the others refuse
// (split-rewrites-invalid.mlir).

// reorder_stmts sees through splits: s[0, k] and s[1, k] are t[k] and
// t[4 + k], disjoint.
// CHECK-LABEL: exogpu.proc @reorder_through_split
// CHECK:      exogpu.for %k in seq(0, 4) {
// CHECK-NEXT:   exogpu.assign %s[1, %k] = 2.0
// CHECK-NEXT: }
// CHECK-NEXT: exogpu.for %k in seq(0, 4) {
// CHECK-NEXT:   exogpu.assign %s[0, %k] = 1.0
module attributes {transform.with_named_sequence} {
  exogpu.proc @reorder_through_split(%y: f32[8] @DRAM) {
    %t = exogpu.alloc f32[8] @DRAM
    %s = exogpu.split %t dim 0 by 4 : f32[8] @DRAM
    exogpu.for %k in seq(0, 4) {
      exogpu.assign %s[0, %k] = 1.0 : window f32[2, 4] @DRAM
    }
    exogpu.for %k in seq(0, 4) {
      exogpu.assign %s[1, %k] = 2.0 : window f32[2, 4] @DRAM
    }
    exogpu.for %j in seq(0, 8) {
      exogpu.assign %y[%j] = %t[%j] : f32[8] @DRAM, f32[8] @DRAM
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.exogpu.match kind "for" nth 0 in %root : (!transform.any_op) -> !transform.any_op
    %b = transform.exogpu.match kind "for" nth 1 in %root : (!transform.any_op) -> !transform.any_op
    transform.exogpu.reorder_stmts %a, %b : !transform.any_op, !transform.any_op
    transform.yield
  }
}

// -----

// inline_window of a window of a split: its uses index the split.
// CHECK-LABEL: exogpu.proc @inline_window_of_split
// CHECK-NOT:  exogpu.window
// CHECK:      exogpu.assign %A_chunks[%m, 1, %k + 2] = 0.0
module attributes {transform.with_named_sequence} {
  exogpu.proc @inline_window_of_split(%M: size, %K: size, %A: f32[%M, %K] @DRAM) requires %K mod 8 == 0 and %K >= 16 {
    %A_chunks = exogpu.split %A dim 1 by 8 : f32[?, ?] @DRAM
    %w = exogpu.window %A_chunks[:, 1, 2:6] : window f32[?, ?, 8] @DRAM
    exogpu.for %m in seq(0, %M) {
      exogpu.for %k in seq(0, 4) {
        exogpu.assign %w[%m, %k] = 0.0 : window f32[?, 4] @DRAM
      }
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %w = transform.exogpu.match kind "window" in %root : (!transform.any_op) -> !transform.any_op
    transform.exogpu.inline_window %w : (!transform.any_op) -> ()
    transform.yield
  }
}

// -----

// set_precision retypes the splits of the buffer and the reads through
// them.
// CHECK-LABEL: exogpu.proc @retype_split
// CHECK:      %s = exogpu.split %t dim 0 by 2 : f16[8] @CudaSmemLinear
// CHECK:      exogpu.assign %y[%i] = %s[%i, 1] : f16[4] @CudaGmemLinear, window f16[4, 2] @CudaSmemLinear
module attributes {transform.with_named_sequence} {
  exogpu.proc @retype_split(%y: f16[4] @CudaGmemLinear) {
    exogpu.device_function(blockDim = 32) {
      exogpu.for %task in cuda_tasks(0, 1) {
        %t = exogpu.alloc f32[8] @CudaSmemLinear
        %s = exogpu.split %t dim 0 by 2 : f32[8] @CudaSmemLinear
        exogpu.for %th in cuda_threads(0, 1, unit = cuda_thread) {
          exogpu.for %i in seq(0, 4) {
            exogpu.assign %s[%i, 1] = 2.0 : window f32[4, 2] @CudaSmemLinear
            exogpu.assign %y[%i] = %s[%i, 1] : f16[4] @CudaGmemLinear, window f32[4, 2] @CudaSmemLinear
          }
        }
      }
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.exogpu.match kind "alloc" in %root : (!transform.any_op) -> !transform.any_op
    transform.exogpu.set_precision %a to f16 : !transform.any_op
    transform.yield
  }
}

// -----

// divide_dim of a buffer whose window is split: the window keeps its
// shape, the split is unchanged.
// CHECK-LABEL: exogpu.proc @divide_under_split
// CHECK:      %t = exogpu.alloc f32[2, 2, 8] @DRAM
// CHECK-NEXT: %w = exogpu.window %t[1, 0, :]
// CHECK-NEXT: %s = exogpu.split %w dim 0 by 4 : window f32[8] @DRAM
module attributes {transform.with_named_sequence} {
  exogpu.proc @divide_under_split(%y: f32[8] @DRAM) {
    %t = exogpu.alloc f32[4, 8] @DRAM
    %w = exogpu.window %t[2, :] : f32[4, 8] @DRAM
    %s = exogpu.split %w dim 0 by 4 : window f32[8] @DRAM
    exogpu.for %i in seq(0, 2) {
      exogpu.for %j in seq(0, 4) {
        exogpu.assign %s[%i, %j] = %y[%i * 4 + %j] : window f32[2, 4] @DRAM, f32[8] @DRAM
      }
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.exogpu.match kind "alloc" in %root : (!transform.any_op) -> !transform.any_op
    transform.exogpu.divide_dim %a dim 0 by 2 : !transform.any_op
    transform.yield
  }
}

// -----

// inline of a call whose callee splits its parameter: the split of the
// argument gets the static type its source now has.
// CHECK-LABEL: exogpu.proc @inline_split_callee
// CHECK:      %s = exogpu.split %y dim 0 by 2 : f32[8] @DRAM
// CHECK-NEXT: exogpu.assign %s[3, 1] = 1.0 : window f32[4, 2] @DRAM
module attributes {transform.with_named_sequence} {
  exogpu.proc @pairs(%K: size, %x: f32[%K] @DRAM) requires %K mod 2 == 0 and %K >= 8 {
    %s = exogpu.split %x dim 0 by 2 : f32[?] @DRAM
    exogpu.assign %s[3, 1] = 1.0 : window f32[?, 2] @DRAM
  }
  exogpu.proc @inline_split_callee(%y: f32[8] @DRAM) {
    exogpu.call @pairs[8](%y) : f32[8] @DRAM
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %c = transform.exogpu.match kind "call" in %root : (!transform.any_op) -> !transform.any_op
    %s = transform.exogpu.inline %c : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// bind_window finds a split by its name: the TMA tensor map of the [M, S,
// KC] view of A that the split-k kernel takes.
// CHECK-LABEL: exogpu.proc @bind_split_map
// CHECK:      %A_chunks = exogpu.split %A dim 1 by 32
// CHECK-NEXT: %A_map = exogpu.window %A_chunks[:, :, :] @Sm90_tensorMap(128, 64, 1, 32)
// CHECK:      exogpu.assign %s[%i, %j] = %A_map[%task * 64 + %i, %c, %j]
module attributes {transform.with_named_sequence} {
  exogpu.proc @bind_split_map(%M: size, %K: size, %A: f32[%M, %K] @CudaGmemLinear) requires %M mod 64 == 0 and %K mod 32 == 0 {
    %A_chunks = exogpu.split %A dim 1 by 32 : f32[?, ?] @CudaGmemLinear
    exogpu.device_function(blockDim = 32) {
      exogpu.for %task in cuda_tasks(0, %M / 64) {
        %s = exogpu.alloc f32[64, 32] @CudaSmemLinear
        exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
          exogpu.for %c in seq(0, %K / 32) {
            exogpu.for %i in seq(0, 64) {
              exogpu.for %j in seq(0, 32) {
                exogpu.assign %s[%i, %j] = %A_chunks[%task * 64 + %i, %c, %j] : f32[64, 32] @CudaSmemLinear, window f32[?, ?, 32] @CudaGmemLinear
              }
            }
          }
        }
      }
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %i = transform.exogpu.match iter "i" in %root : (!transform.any_op) -> !transform.any_op
    %w = transform.exogpu.bind_window %i buffer "A_chunks" into "A_map" special "Sm90_tensorMap(128, 64, 1, 32)" : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// remove_if: the excluded instances stay within the split's extents (s[1,
// 0] and s[1, 1]) and write only the allocation, which nothing reads.
// CHECK-LABEL: exogpu.proc @remove_if_within_split
// CHECK-NOT:  exogpu.if
// CHECK:      exogpu.assign %s[%i / 4, %i mod 4] = 1.0
module attributes {transform.with_named_sequence} {
  exogpu.proc @remove_if_within_split(%y: f32[4] @DRAM) {
    %t = exogpu.alloc f32[8] @DRAM
    %s = exogpu.split %t dim 0 by 4 : f32[8] @DRAM
    exogpu.for %i in seq(0, 6) {
      exogpu.if %i < 4 {
        exogpu.assign %s[%i / 4, %i mod 4] = 1.0 : window f32[2, 4] @DRAM
      }
    }
    exogpu.assign %y[0] = 2.0 : f32[4] @DRAM
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %g = transform.exogpu.match kind "if" in %root : (!transform.any_op) -> !transform.any_op
    %s = transform.exogpu.remove_if %g : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
