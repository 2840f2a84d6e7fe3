// RUN: exogpu-opt %s --exogpu-insert-frees | FileCheck %s

// CHECK-LABEL: exogpu.proc @nested
exogpu.proc @nested(%N: size, %x: f32[%N] @CudaGmemLinear) {
  // CHECK: %tmp = exogpu.alloc f32[%N] @CudaGmemLinear
  %tmp = exogpu.alloc f32[%N] @CudaGmemLinear
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, 4) {
      // CHECK: %s = exogpu.alloc f32[32] @CudaSmemLinear
      // CHECK-NEXT: %z = exogpu.alloc barrier @CudaMbarrier
      %s = exogpu.alloc f32[32] @CudaSmemLinear
      %z = exogpu.alloc barrier @CudaMbarrier
      exogpu.for %t in cuda_threads(0, 32, unit = cuda_thread) {
        // CHECK: %r = exogpu.alloc f32 @CudaRmem
        %r = exogpu.alloc f32 @CudaRmem
        exogpu.assign %r[] = 1.0 : f32 @CudaRmem
        exogpu.assign %s[%t] = %r[] : f32[32] @CudaSmemLinear, f32 @CudaRmem
        // CHECK: exogpu.assign %s[%t] = %r[]
        // CHECK-NEXT: exogpu.free %r : f32 @CudaRmem
        // CHECK-NEXT: }
      }
      // Reverse allocation order at the end of the task body.
      // CHECK: exogpu.free %z : barrier @CudaMbarrier
      // CHECK-NEXT: exogpu.free %s : f32[32] @CudaSmemLinear
      // CHECK-NEXT: }
    }
  }
  // CHECK: exogpu.free %tmp : f32[?] @CudaGmemLinear
  // CHECK-NEXT: }
}



// An allocation that is already freed keeps its single free.
// CHECK-LABEL: exogpu.proc @already_freed
exogpu.proc @already_freed() {
  // CHECK: %g = exogpu.alloc f32[4] @CudaGmemLinear
  // CHECK-NEXT: exogpu.free %g
  // CHECK-NOT: exogpu.free
  %g = exogpu.alloc f32[4] @CudaGmemLinear
  exogpu.free %g : f32[4] @CudaGmemLinear
}
