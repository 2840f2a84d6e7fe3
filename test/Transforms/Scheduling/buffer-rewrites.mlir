// RUN: exogpu-opt %s --transform-interpreter -split-input-file | FileCheck %s

// stage_mem of an accumulator: the first statement overwrites the window, so
// there is no load; the store copies it back. Then expand_dim + lift_alloc
// give one buffer for all iterations, and the dimension rewrites reshape it
// (accesses simplified under the loop bounds).
// CHECK-LABEL: exogpu.proc @stage_and_reshape
// CHECK: %Cacc = exogpu.alloc f32[2, %M / 4 * 2] @DRAM
// CHECK-NEXT: exogpu.for %io in seq(0, %M / 4) {
// CHECK-NEXT: exogpu.for %ii in seq(0, 4) {
// CHECK-NEXT: exogpu.assign %Cacc[%ii / 2, %io * 2 + %ii mod 2] = 0.0
// CHECK: exogpu.reduce %Cacc[%ii / 2, %io * 2 + %ii mod 2] += %A[%io * 4 + %ii, %k]
// CHECK: exogpu.for %i0 in seq(0, 4) {
// CHECK-NEXT: exogpu.assign %C[%io * 4 + %i0] = %Cacc[%i0 / 2, %io * 2 + %i0 mod 2]
module attributes {transform.with_named_sequence} {
  exogpu.proc @stage_and_reshape(%M: size, %K: size, %A: f32[%M, %K] @DRAM, %C: f32[%M] @DRAM) requires %M mod 4 == 0 {
    exogpu.for %io in seq(0, %M / 4) {
      exogpu.for %ii in seq(0, 4) {
        exogpu.assign %C[%io * 4 + %ii] = 0.0 : f32[?] @DRAM
      }
      exogpu.for %ii in seq(0, 4) {
        exogpu.for %k in seq(0, %K) {
          exogpu.reduce %C[%io * 4 + %ii] += %A[%io * 4 + %ii, %k] : f32[?] @DRAM, f32[?, ?] @DRAM
        }
      }
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.exogpu.match kind "for" nth 1 in %root : (!transform.any_op) -> !transform.any_op
    %b = transform.exogpu.get_block %a count 2 : (!transform.any_op) -> !transform.any_op
    %alloc, %load, %store = transform.exogpu.stage_mem %b window "C[io * 4 : io * 4 + 4]" into "Cacc" memory "DRAM" : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.exogpu.expand_dim %alloc size "M / 4" index "io" : !transform.any_op
    transform.exogpu.lift_alloc %alloc : !transform.any_op
    transform.exogpu.divide_dim %alloc dim 1 by 2 : !transform.any_op
    transform.exogpu.rearrange_dim %alloc [1, 0, 2] : !transform.any_op
    transform.exogpu.mult_dim %alloc dims 1, 2 : !transform.any_op
    transform.yield
  }
}

// -----

// stage_mem with a load (the block reads the window) and accumulation.
// CHECK-LABEL: exogpu.proc @stage_load_accum
// CHECK: %xs = exogpu.alloc f32[4] @DRAM
// CHECK-NEXT: exogpu.for %i0 in seq(0, 4) {
// CHECK-NEXT: exogpu.assign %xs[%i0] = %x[%j * 4 + %i0]
// CHECK: %ys = exogpu.alloc f32[4] @DRAM
// CHECK-NEXT: exogpu.for %i0 in seq(0, 4) {
// CHECK-NEXT: exogpu.assign %ys[%i0] = 0.0
// CHECK: exogpu.reduce %ys[%i] += %xs[%i]
// CHECK: exogpu.for %i0 in seq(0, 4) {
// CHECK-NEXT: exogpu.reduce %y[%j * 4 + %i0] += %ys[%i0]
module attributes {transform.with_named_sequence} {
  exogpu.proc @stage_load_accum(%N: size, %x: f32[%N * 4] @DRAM, %y: f32[%N * 4] @DRAM) {
    exogpu.for %j in seq(0, %N) {
      exogpu.for %i in seq(0, 4) {
        exogpu.reduce %y[%j * 4 + %i] += %x[%j * 4 + %i] : f32[?] @DRAM, f32[?] @DRAM
      }
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %i = transform.exogpu.match iter "i" in %root : (!transform.any_op) -> !transform.any_op
    %a1, %l1, %s1 = transform.exogpu.stage_mem %i window "x[j * 4 : j * 4 + 4]" into "xs" memory "DRAM" : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %a2, %l2, %s2 = transform.exogpu.stage_mem %i window "y[j * 4 : j * 4 + 4]" into "ys" memory "DRAM" accum : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// resize_dim with an offset, and folding a per-iteration buffer into a ring
// of 2: each iteration writes t[k] and the next reads it, so no congruent
// write falls in between.
// CHECK-LABEL: exogpu.proc @resize_fold
// CHECK: %t = exogpu.alloc f32[2] @DRAM
// CHECK: exogpu.assign %t[%k mod 2] = %x[%k]
// CHECK: exogpu.assign %y[%k - 1] = %t[(%k - 1) mod 2]
// CHECK: %u = exogpu.alloc f32[2] @DRAM
// CHECK-NEXT: exogpu.assign %u[0] = 1.0
// CHECK-NEXT: exogpu.assign %u[1] = 2.0
module attributes {transform.with_named_sequence} {
  exogpu.proc @resize_fold(%N: size, %x: f32[%N] @DRAM, %y: f32[%N] @DRAM) {
    %t = exogpu.alloc f32[%N] @DRAM
    exogpu.for %k in seq(0, %N + 1) {
      exogpu.if %k < %N {
        exogpu.assign %t[%k] = %x[%k] : f32[?] @DRAM, f32[?] @DRAM
      }
      exogpu.if %k > 0 {
        exogpu.assign %y[%k - 1] = %t[%k - 1] : f32[?] @DRAM, f32[?] @DRAM
      }
    }
    %u = exogpu.alloc f32[8] @DRAM
    exogpu.assign %u[3] = 1.0 : f32[8] @DRAM
    exogpu.assign %u[4] = 2.0 : f32[8] @DRAM
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %t = transform.exogpu.match kind "alloc" nth 0 in %root : (!transform.any_op) -> !transform.any_op
    transform.exogpu.resize_dim %t dim 0 size "2" fold : !transform.any_op
    %u = transform.exogpu.match kind "alloc" nth 1 in %root : (!transform.any_op) -> !transform.any_op
    transform.exogpu.resize_dim %u dim 0 size "2" offset "3" : !transform.any_op
    transform.yield
  }
}

// -----

// sink_alloc of a temporary each iteration assigns before reading;
// delete_buffer and reuse_buffer.
// CHECK-LABEL: exogpu.proc @sink_delete_reuse
// CHECK-NEXT: %a = exogpu.alloc f32 @DRAM
// CHECK-NEXT: exogpu.assign %a[] = 1.0
// CHECK-NEXT: exogpu.assign %x[0] = %a[]
// CHECK-NEXT: exogpu.assign %a[] = 2.0
// CHECK-NEXT: exogpu.assign %x[1] = %a[]
// CHECK-NEXT: exogpu.for %i in seq(0, 2) {
// CHECK-NEXT: %t = exogpu.alloc f32 @DRAM
// CHECK-NEXT: exogpu.assign %t[] = %x[%i]
module attributes {transform.with_named_sequence} {
  exogpu.proc @sink_delete_reuse(%x: f32[2] @DRAM, %y: f32[2] @DRAM) {
    %a = exogpu.alloc f32 @DRAM
    exogpu.assign %a[] = 1.0 : f32 @DRAM
    exogpu.assign %x[0] = %a[] : f32[2] @DRAM, f32 @DRAM
    %b = exogpu.alloc f32 @DRAM
    exogpu.assign %b[] = 2.0 : f32 @DRAM
    exogpu.assign %x[1] = %b[] : f32[2] @DRAM, f32 @DRAM
    %unused = exogpu.alloc f32[4] @DRAM
    %t = exogpu.alloc f32 @DRAM
    exogpu.for %i in seq(0, 2) {
      exogpu.assign %t[] = %x[%i] : f32 @DRAM, f32[2] @DRAM
      exogpu.assign %y[%i] = %t[] : f32[2] @DRAM, f32 @DRAM
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.exogpu.match pattern "a = alloc _" in %root : (!transform.any_op) -> !transform.any_op
    %b = transform.exogpu.match pattern "b = alloc _" in %root : (!transform.any_op) -> !transform.any_op
    transform.exogpu.reuse_buffer %a for %b : !transform.any_op, !transform.any_op
    %u = transform.exogpu.match pattern "unused = alloc _" in %root : (!transform.any_op) -> !transform.any_op
    transform.exogpu.delete_buffer %u : (!transform.any_op) -> ()
    %t = transform.exogpu.match pattern "t = alloc _" in %root : (!transform.any_op) -> !transform.any_op
    transform.exogpu.sink_alloc %t : !transform.any_op
    transform.yield
  }
}

// -----

// set_memory and set_precision of an allocation; a window is inlined.
// CHECK-LABEL: exogpu.proc @memory_precision_window
// CHECK: %s = exogpu.alloc f16[4] @CudaSmemLinear
// CHECK: exogpu.assign %s[%t] = %x[%task * 4 + %t]
// CHECK: exogpu.assign %x[%task * 4 + %t] = %s[%t]
module attributes {transform.with_named_sequence} {
  exogpu.proc @memory_precision_window(%N: size, %x: f32[%N * 4] @CudaGmemLinear) {
    exogpu.device_function(blockDim = 4) {
      exogpu.for %task in cuda_tasks(0, %N) {
        %s = exogpu.alloc f32[4] @CudaRmem
        %w = exogpu.window %x[%task * 4:%task * 4 + 4] : f32[?] @CudaGmemLinear
        exogpu.for %t in cuda_threads(0, 4, unit = cuda_thread) {
          exogpu.assign %s[%t] = %w[%t] : f32[4] @CudaRmem, window f32[4] @CudaGmemLinear
          exogpu.assign %w[%t] = %s[%t] : window f32[4] @CudaGmemLinear, f32[4] @CudaRmem
        }
      }
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %s = transform.exogpu.match kind "alloc" in %root : (!transform.any_op) -> !transform.any_op
    transform.exogpu.set_memory %s to "CudaSmemLinear" : !transform.any_op
    transform.exogpu.set_precision %s to f16 : !transform.any_op
    %w = transform.exogpu.match kind "window" in %root : (!transform.any_op) -> !transform.any_op
    transform.exogpu.inline_window %w : (!transform.any_op) -> ()
    transform.yield
  }
}

// -----

// bind_window gives the block's accesses of a parameter a TMA tensor map
// window, created at the start of the proc; set_memory of a parameter.
// CHECK-LABEL: exogpu.proc @bind_tensor_map
// CHECK-NEXT: %A_map = exogpu.window %A[:, :] @Sm90_tensorMap(128, 64, 32)
// CHECK: exogpu.assign %s[%i, %j] = %A_map[%task * 64 + %i, %j]
module attributes {transform.with_named_sequence} {
  exogpu.proc @bind_tensor_map(%M: size, %A: f32[%M, 32] @CudaGmemLinear) requires %M mod 64 == 0 {
    exogpu.device_function(blockDim = 32) {
      exogpu.for %task in cuda_tasks(0, %M / 64) {
        %s = exogpu.alloc f32[64, 32] @CudaSmemLinear
        exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
          exogpu.for %i in seq(0, 64) {
            exogpu.for %j in seq(0, 32) {
              exogpu.assign %s[%i, %j] = %A[%task * 64 + %i, %j] : f32[64, 32] @CudaSmemLinear, f32[?, 32] @CudaGmemLinear
            }
          }
        }
      }
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %i = transform.exogpu.match iter "i" in %root : (!transform.any_op) -> !transform.any_op
    %w = transform.exogpu.bind_window %i buffer "A" into "A_map" special "Sm90_tensorMap(128, 64, 32)" : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
