exogpu.import "sm90a"

// A tf32 GEMM for shapes too small to fill an H100 with the 256 x 256
// tiles of examples/gemm_tf32_sm90a.mlir (C = A * B^T, row major: A is
// M x K, B is N x K): tiles of 128 x 128, one per CTA (no cluster), and the
// K range split in two (docs/performance.md, "Small shapes"):
//  * a task is a tile of C and one of the two halves of K, interleaved:
//    half s takes the 32-column k-steps s, s + 2, s + 4, ... (the split is a
//    constant, so the step index 2 k + s stays quasi-affine, seeds/002
//    Fig. 1). 1024^3 gives 64 tiles and 128 tasks, one wave on an H100's
//    132 SMs; M = N = 1024, K = 65536 the same, each task 1024 k-steps;
//  * the proc zeroes C on its stream first, and each task adds its partial
//    tile into C with TMA reduce-adds (atomic per element). With two
//    addends per element the result does not depend on their order:
//    (0 + a) + b = (0 + b) + a exactly;
//  * warp specialization as in gemm_tf32_sm90a: 1 producer warp, 3 unused,
//    2 consumer warpgroups, each with a 64 x 128 accumulator (64
//    registers per thread) fed by wgmma m64n128k8;
//  * a 6-stage TMA ring of 32 KiB stages (a 128 x 32 A tile and a 128 x 32
//    B tile, 128-byte swizzled; 192 KiB): `empty` awaited at lag 6 (-7);
//  * epilogue: after wait_group 0 and a barrier of the 256 consumer
//    threads, warpgroup wg writes its accumulator as four swizzled 64 x 32
//    tiles into A stages 2 wg and 2 wg + 1 (conflict-free 8-byte stores),
//    fences them to the async proxy, and one thread reduce-adds them into C.
// Checked with `--exogpu-sync-check="M=128,N=128,K=128"` (test/Examples).

// CHECK-LABEL: exogpu.proc @gemm_tf32_128x128_sm90a(
// CHECK-SAME: requires %M mod 128 == 0 and %N mod 128 == 0 and %K mod 64 == 0
exogpu.proc @gemm_tf32_128x128_sm90a(%M: size, %N: size, %K: size,
    %A: f32[%M, %K] @CudaGmemLinear, %B: f32[%N, %K] @CudaGmemLinear,
    %C: f32[%M, %N] @CudaGmemLinear)
    requires %M mod 128 == 0 and %N mod 128 == 0 and %K mod 64 == 0 {
  // C = 0 on the stream, before the tasks add their partial tiles.
  // CHECK: exogpu.call @cuda_memset_zero_f32[%M, %N](%C)
  exogpu.call @cuda_memset_zero_f32[%M, %N](%C) : f32[?, ?] @CudaGmemLinear
  %A_map = exogpu.window %A[:, :] @Sm90_tensorMap(128, 128, 32) : f32[?, ?] @CudaGmemLinear
  %B_map = exogpu.window %B[:, :] @Sm90_tensorMap(128, 128, 32) : f32[?, ?] @CudaGmemLinear
  %C_map = exogpu.window %C[:, :] @Sm90_tensorMap(128, 64, 32) : f32[?, ?] @CudaGmemLinear
  // CHECK: exogpu.device_function(warps = ["producer" = (1, 40, 0), "unused" = (3, 40, 0), "consumer" = (8, 0, 232)])
  exogpu.device_function(warps = ["producer" = (1, 40, 0), "unused" = (3, 40, 0), "consumer" = (8, 0, 232)]) {
    exogpu.for %m_task in cuda_tasks(0, %M / 128) {
      exogpu.for %n_task in cuda_tasks(0, %N / 128) {
        // CHECK: exogpu.for %s in cuda_tasks(0, 2)
        exogpu.for %s in cuda_tasks(0, 2) {
          %A_smem = exogpu.alloc f32[6, 128, 32] @Sm90_SmemSwizzled(128)
          %B_smem = exogpu.alloc f32[6, 128, 32] @Sm90_SmemSwizzled(128)
          %D = exogpu.alloc f32[2, 64, 128] @Sm90_RmemMatrixD(64, 128)
          %full = exogpu.alloc barrier @CudaMbarrier
          %empty = exogpu.alloc barrier @CudaMbarrier
          %cg = exogpu.alloc barrier[2] @CudaCommitGroup
          %store_cg = exogpu.alloc barrier[2, 1] @CudaCommitGroup

          exogpu.warps "consumer" {
            exogpu.for %wg in cuda_threads(0, 2, unit = cuda_warpgroup) {
              exogpu.call @Sm90_zero_d_m64n128_f32(%D[%wg, :, :]) : f32[2, 64, 128] @Sm90_RmemMatrixD(64, 128)
            }
          }

          exogpu.for %k in seq(0, %K / 64) {
            // Producer: k-step 2 k + s of the tile into stage k mod 6.
            exogpu.warps "producer" {
              exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
                // CHECK: exogpu.await(%empty[], cuda_generic_and_async, -7)
                exogpu.await(%empty, cuda_generic_and_async, -7) : barrier @CudaMbarrier
                // CHECK: exogpu.call @Sm90_tma_load_128x32_f32(%A_smem[%k mod 6, :, :], %A_map[%m_task * 128:%m_task * 128 + 128, (%k * 2 + %s) * 32:(%k * 2 + %s) * 32 + 32]) >> %full[]
                exogpu.call @Sm90_tma_load_128x32_f32(%A_smem[%k mod 6, :, :], %A_map[%m_task * 128:%m_task * 128 + 128, (%k * 2 + %s) * 32:(%k * 2 + %s) * 32 + 32]) >> %full : f32[6, 128, 32] @Sm90_SmemSwizzled(128), window f32[?, ?] @CudaGmemLinear @Sm90_tensorMap(128, 128, 32), barrier @CudaMbarrier
                exogpu.call @Sm90_tma_load_128x32_f32(%B_smem[%k mod 6, :, :], %B_map[%n_task * 128:%n_task * 128 + 128, (%k * 2 + %s) * 32:(%k * 2 + %s) * 32 + 32]) >> %full : f32[6, 128, 32] @Sm90_SmemSwizzled(128), window f32[?, ?] @CudaGmemLinear @Sm90_tensorMap(128, 128, 32), barrier @CudaMbarrier
                exogpu.arrive(tma_to_smem_async, 1) >> %full : barrier @CudaMbarrier
              }
            }
            // Consumers: as in gemm_tf32_sm90a, with 64 x 128 accumulators.
            exogpu.warps "consumer" {
              exogpu.await(%full, cuda_generic_and_async, -1) : barrier @CudaMbarrier
              exogpu.for %wg in cuda_threads(0, 2, unit = cuda_warpgroup) {
                exogpu.fence(wgmma_fence_1, wgmma_fence_2)
                exogpu.for %kk in seq(0, 4) {
                  // CHECK: exogpu.call @Sm90_mma_async_tf32_m64n128k8(%D[%wg, :, :], %A_smem[%k mod 6, %wg * 64:%wg * 64 + 64, %kk * 8:%kk * 8 + 8], %B_smem[%k mod 6, :, %kk * 8:%kk * 8 + 8])
                  exogpu.call @Sm90_mma_async_tf32_m64n128k8(%D[%wg, :, :], %A_smem[%k mod 6, %wg * 64:%wg * 64 + 64, %kk * 8:%kk * 8 + 8], %B_smem[%k mod 6, :, %kk * 8:%kk * 8 + 8]) : f32[2, 64, 128] @Sm90_RmemMatrixD(64, 128), f32[6, 128, 32] @Sm90_SmemSwizzled(128), f32[6, 128, 32] @Sm90_SmemSwizzled(128)
                }
                exogpu.arrive(wgmma_async, 1) >> %cg[%wg] : barrier[2] @CudaCommitGroup
                exogpu.await(%cg[%wg], cuda_in_order, 1) : barrier[2] @CudaCommitGroup
              }
              exogpu.if %k > 0 {
                exogpu.arrive(cuda_in_order, 1) >> %empty : barrier @CudaMbarrier
              }
            }
          }

          // Epilogue: drain, release the last stage, write the
          // accumulators into the A stages and reduce-add them into C.
          exogpu.warps "consumer" {
            exogpu.for %wg in cuda_threads(0, 2, unit = cuda_warpgroup) {
              exogpu.await(%cg[%wg], cuda_in_order, 0) : barrier[2] @CudaCommitGroup
            }
            exogpu.arrive(cuda_in_order, 1) >> %empty : barrier @CudaMbarrier
            // Both warpgroups' wgmmas have read the stages before either
            // overwrites them.
            exogpu.fence(cuda_in_order, cuda_in_order)
            exogpu.for %wg in cuda_threads(0, 2, unit = cuda_warpgroup) {
              exogpu.for %j in seq(0, 4) {
                // CHECK: exogpu.call @Sm90_store_d_m64n128_tile64x32_f32[%j](%A_smem[%wg * 2 + %j / 2, %j mod 2 * 64:%j mod 2 * 64 + 64, :], %D[%wg, :, :])
                exogpu.call @Sm90_store_d_m64n128_tile64x32_f32[%j](%A_smem[%wg * 2 + %j / 2, %j mod 2 * 64:%j mod 2 * 64 + 64, :], %D[%wg, :, :]) : f32[6, 128, 32] @Sm90_SmemSwizzled(128), f32[2, 64, 128] @Sm90_RmemMatrixD(64, 128)
              }
              exogpu.fence(cuda_in_order, cuda_async_proxy)
              exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
                exogpu.for %j in seq(0, 4) {
                  // CHECK: exogpu.call @Sm90_tma_reduce_add_64x32_f32(
                  exogpu.call @Sm90_tma_reduce_add_64x32_f32(%C_map[%m_task * 128 + %wg * 64:%m_task * 128 + %wg * 64 + 64, %n_task * 128 + %j * 32:%n_task * 128 + %j * 32 + 32], %A_smem[%wg * 2 + %j / 2, %j mod 2 * 64:%j mod 2 * 64 + 64, :]) : window f32[?, ?] @CudaGmemLinear @Sm90_tensorMap(128, 64, 32), f32[6, 128, 32] @Sm90_SmemSwizzled(128)
                }
                exogpu.arrive(tma_to_gmem_async, 1) >> %store_cg[%wg, %t] : barrier[2, 1] @CudaCommitGroup
                exogpu.await(%store_cg[%wg, %t], cuda_in_order, 0) : barrier[2, 1] @CudaCommitGroup
              }
            }
          }
          // The stages and barriers are freed here: the CTA is done with
          // them before the next task reuses their shared memory.
          exogpu.fence(cuda_generic_and_async, cuda_in_order)
        }
      }
    }
  }
}
