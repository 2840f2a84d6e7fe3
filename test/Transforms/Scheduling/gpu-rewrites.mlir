// RUN: exogpu-opt %s --transform-interpreter -split-input-file | FileCheck %s

// wrap_device_function launches the loop nest (its outer loop a cuda_tasks
// loop, the host parameter moved to global memory); set_loop_mode makes the
// inner loop a cuda_threads loop; a fence, a guarded arrive/await pair on a
// new barrier.
// CHECK-LABEL: exogpu.proc @launch(%N: size, %x: f32[%N, 32] @CudaGmemLinear)
// CHECK-NEXT: exogpu.device_function(blockDim = 32) {
// CHECK-NEXT: exogpu.for %i in cuda_tasks(0, %N) {
// CHECK-NEXT: %z = exogpu.alloc barrier[1] @CudaMbarrier
// CHECK-NEXT: exogpu.for %t in cuda_threads(0, 32, unit = cuda_thread) {
// CHECK-NEXT: exogpu.assign %x[%i, %t] = 1.0
// CHECK-NEXT: }
// CHECK-NEXT: exogpu.if %i >= 0 {
// CHECK-NEXT: exogpu.arrive(cuda_in_order, 1) >> %z[0]
// CHECK-NEXT: }
// CHECK-NEXT: exogpu.await(%z[0], cuda_in_order, 0)
// CHECK-NEXT: exogpu.fence(cuda_in_order, cuda_in_order)
module attributes {transform.with_named_sequence} {
  exogpu.proc @launch(%N: size, %x: f32[%N, 32] @DRAM) {
    exogpu.for %i in seq(0, %N) {
      exogpu.for %t in seq(0, 32) {
        exogpu.assign %x[%i, %t] = 1.0 : f32[?, 32] @DRAM
      }
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %i = transform.exogpu.match iter "i" in %root : (!transform.any_op) -> !transform.any_op
    %k = transform.exogpu.wrap_device_function %i tasks 1 params_to "CudaGmemLinear" {blockDim = 32} : (!transform.any_op) -> !transform.any_op
    %t = transform.exogpu.match iter "t" in %root : (!transform.any_op) -> !transform.any_op
    transform.exogpu.set_loop_mode %t "cuda_threads" unit "cuda_thread" : !transform.any_op
    %f = transform.exogpu.insert_fence %i at "end" "cuda_in_order", "cuda_in_order" : (!transform.any_op) -> !transform.any_op
    %z = transform.exogpu.insert_barrier_alloc %t at "before" "z" [1] "CudaMbarrier" : (!transform.any_op) -> !transform.any_op
    %w = transform.exogpu.insert_await %f at "before" "z[0]" "cuda_in_order" count 0 : (!transform.any_op) -> !transform.any_op
    %a = transform.exogpu.insert_arrive %w at "before" "cuda_in_order" count 1 to ["z[0]"] guard "i >= 0" : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A warp config and warps blocks: by name, and a range of a named group.
// CHECK-LABEL: exogpu.proc @warps
// CHECK: exogpu.device_function(warps = ["producer" = (1, 40, 0), "consumer" = (4, 0, 232)]) {
// CHECK: exogpu.warps "producer" {
// CHECK: exogpu.warps "consumer"(0, 4) {
module attributes {transform.with_named_sequence} {
  exogpu.proc @warps(%N: size, %x: f32[%N] @DRAM) {
    exogpu.for %i in seq(0, %N) {
      exogpu.assign %x[%i] = 1.0 : f32[?] @DRAM
      exogpu.assign %x[%i] = 2.0 : f32[?] @DRAM
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %i = transform.exogpu.match iter "i" in %root : (!transform.any_op) -> !transform.any_op
    %k = transform.exogpu.wrap_device_function %i tasks 1 params_to "CudaGmemLinear" {warps = [#exogpu.warp_group<"producer" = (1, 40, 0)>, #exogpu.warp_group<"consumer" = (4, 0, 232)>]} : (!transform.any_op) -> !transform.any_op
    %f1 = transform.exogpu.match kind "assign" nth 0 in %root : (!transform.any_op) -> !transform.any_op
    %f2 = transform.exogpu.match kind "assign" nth 1 in %root : (!transform.any_op) -> !transform.any_op
    %w1 = transform.exogpu.wrap_warps %f1 name "producer" : (!transform.any_op) -> !transform.any_op
    %w2 = transform.exogpu.wrap_warps %f2 name "consumer" range [0, 4] : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// set_trailing_barrier replaces the barrier of an instruction call.
// CHECK-LABEL: exogpu.proc @trailing
// CHECK: exogpu.call @tma(%s, %x) >> %full[0]
module attributes {transform.with_named_sequence} {
  exogpu.instr @tma(%dst: f32[4] @CudaSmemLinear, %src: f32[4] @CudaGmemLinear)
      target = cuda, unit = cuda_thread, barrier = @CudaMbarrier, cuda = "" {
    exogpu.for %i in seq(0, 4) {
      exogpu.assign %dst[%i] = %src[%i] : f32[4] @CudaSmemLinear, f32[4] @CudaGmemLinear
    }
  }
  exogpu.proc @trailing(%x: f32[4] @CudaGmemLinear) {
    exogpu.device_function(blockDim = 32) {
      exogpu.for %task in cuda_tasks(0, 1) {
        %s = exogpu.alloc f32[4] @CudaSmemLinear
        %full = exogpu.alloc barrier[1] @CudaMbarrier
        %other = exogpu.alloc barrier[1] @CudaMbarrier
        exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
          exogpu.call @tma(%s, %x) >> %other[0] : f32[4] @CudaSmemLinear, f32[4] @CudaGmemLinear, barrier[1] @CudaMbarrier
        }
      }
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %c = transform.exogpu.match pattern "call @tma(_" in %root : (!transform.any_op) -> !transform.any_op
    transform.exogpu.set_trailing_barrier %c "full[0]" : !transform.any_op
    transform.yield
  }
}
