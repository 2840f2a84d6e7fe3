// Vector addition, Z = X + Y over N elements: the guide's first kernel
// (seeds/000, "Loop Mode", figure "Simple vector addition example": "We
// break X and Y into chunks of 128 values, each handled by one task").
//  * one task (CTA of 128 threads) per 128-element chunk, `cuda_tasks`;
//  * one thread per element, `cuda_threads(0, 128, unit = cuda_thread)`;
//  * the precondition makes the chunks cover N exactly.
// Only in-order CUDA accesses to global memory, so no synchronization is
// needed: each thread reads and writes only its own element.

// CHECK-LABEL: exogpu.proc @vector_add(
// CHECK-SAME: %N: size, %X: f32[%N] @CudaGmemLinear, %Y: f32[%N] @CudaGmemLinear, %Z: f32[%N] @CudaGmemLinear) requires %N mod 128 == 0
exogpu.proc @vector_add(%N: size, %X: f32[%N] @CudaGmemLinear,
                        %Y: f32[%N] @CudaGmemLinear, %Z: f32[%N] @CudaGmemLinear)
    requires %N mod 128 == 0 {
  // CHECK: exogpu.device_function(blockDim = 128)
  exogpu.device_function(blockDim = 128) {
    // CHECK: exogpu.for %task in cuda_tasks(0, %N / 128)
    exogpu.for %task in cuda_tasks(0, %N / 128) {
      // CHECK: exogpu.for %tid in cuda_threads(0, 128, unit = cuda_thread)
      exogpu.for %tid in cuda_threads(0, 128, unit = cuda_thread) {
        // CHECK: exogpu.assign %Z[%task * 128 + %tid] = %X[%task * 128 + %tid] + %Y[%task * 128 + %tid]
        exogpu.assign %Z[%task * 128 + %tid] = %X[%task * 128 + %tid] + %Y[%task * 128 + %tid] : f32[?] @CudaGmemLinear, f32[?] @CudaGmemLinear, f32[?] @CudaGmemLinear
      }
    }
  }
}
