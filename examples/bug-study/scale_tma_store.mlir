exogpu.import "sm90a"

// C = 2 X (X, C: M x 32, row major) through a TMA store, for the
// synchronization bug study (docs/gpu-validation.md): generic-proxy
// shared-memory writes that the async proxy reads next.
//  * one task (CTA of 128 threads) per 128-row tile; thread t writes row t
//    of the 128-byte-swizzled tile S with in-order stores;
//  * Fence(cuda_in_order, cuda_async_proxy): __syncthreads and, in every
//    writing thread before it, fence.proxy.async.shared::cta (seeds/004
//    "async proxy": generic writes become visible to TMA only through it);
//  * thread 0 stores the tile with a TMA store (stdlib sm90a
//    @Sm90_tma_store_128x32_f32) and waits for its bulk group before the
//    tile is freed; a CTA-wide fence ends the task, so the next task of a
//    persistent CTA rewrites S only after the store read it.
// The seeded bug (utils/gpuval/cases.py, `missing-proxy-fence`) weakens the
// first fence to Fence(cuda_in_order, cuda_in_order).

// CHECK-LABEL: exogpu.proc @scale_tma_store(
exogpu.proc @scale_tma_store(%M: size, %X: f32[%M, 32] @CudaGmemLinear,
                             %C: f32[%M, 32] @CudaGmemLinear)
    requires %M mod 128 == 0 {
  %C_map = exogpu.window %C[:, :] @Sm90_tensorMap(128, 128, 32) : f32[?, 32] @CudaGmemLinear
  exogpu.device_function(blockDim = 128) {
    exogpu.for %task in cuda_tasks(0, %M / 128) {
      %S = exogpu.alloc f32[128, 32] @Sm90_SmemSwizzled(128)
      %cg = exogpu.alloc barrier[1] @CudaCommitGroup
      exogpu.for %t in cuda_threads(0, 128, unit = cuda_thread) {
        exogpu.for %j in seq(0, 32) {
          exogpu.assign %S[%t, %j] = %X[%task * 128 + %t, %j] * 2.0 : f32[128, 32] @Sm90_SmemSwizzled(128), f32[?, 32] @CudaGmemLinear
        }
      }
      // CHECK: exogpu.fence(cuda_in_order, cuda_async_proxy)
      exogpu.fence(cuda_in_order, cuda_async_proxy)
      exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
        exogpu.call @Sm90_tma_store_128x32_f32(%C_map[%task * 128:%task * 128 + 128, :], %S[:, :]) : window f32[?, 32] @CudaGmemLinear @Sm90_tensorMap(128, 128, 32), f32[128, 32] @Sm90_SmemSwizzled(128)
        exogpu.arrive(tma_to_gmem_async, 1) >> %cg[%t] : barrier[1] @CudaCommitGroup
        exogpu.await(%cg[%t], cuda_in_order, 0) : barrier[1] @CudaCommitGroup
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}
