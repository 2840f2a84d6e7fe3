// A seeded synchronization bug for the bug study (docs/gpu-validation.md):
// examples/cta_reduction.mlir @cta_sum_fence with its first fence at warp
// scope instead of CTA scope. The fence sits inside the warp loop, so it
// is a warp-scope Fence (__syncwarp, Sec. 2.1: "at warp scope it maps to
// __syncwarp") that orders the shared-memory writes of one warp only, but
// every thread then sums all 128 elements of buf, written by four warps.
// test/SyncCheck/fence.mlir has the minimal form (@raw_warp_scope_fence).

// CHECK-LABEL: exogpu.proc @cta_sum_warp_fence(
exogpu.proc @cta_sum_warp_fence(%N: size, %gmem: f32[%N] @CudaGmemLinear,
                                %out: f32[%N] @CudaGmemLinear)
    requires %N mod 128 == 0 {
  exogpu.device_function(blockDim = 128) {
    exogpu.for %task in cuda_tasks(0, %N / 128) {
      %buf = exogpu.alloc f32[128] @CudaSmemLinear
      %accum = exogpu.alloc f32[128] @CudaRmem
      exogpu.for %w in cuda_threads(0, 4, unit = cuda_warp) {
        exogpu.for %lane in cuda_threads(0, 32, unit = cuda_thread) {
          exogpu.assign %buf[%w * 32 + %lane] = %gmem[%task * 128 + %w * 32 + %lane] : f32[128] @CudaSmemLinear, f32[?] @CudaGmemLinear
        }
        // The bug: __syncwarp where __syncthreads is needed.
        // CHECK: exogpu.fence(cuda_in_order, cuda_in_order)
        exogpu.fence(cuda_in_order, cuda_in_order)
      }
      exogpu.for %tid in cuda_threads(0, 128, unit = cuda_thread) {
        exogpu.assign %accum[%tid] = 0.0 : f32[128] @CudaRmem
        exogpu.for %i in seq(0, 128) {
          exogpu.reduce %accum[%tid] += %buf[%i] : f32[128] @CudaRmem, f32[128] @CudaSmemLinear
        }
        exogpu.assign %out[%task * 128 + %tid] = %accum[%tid] : f32[?] @CudaGmemLinear, f32[128] @CudaRmem
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}
