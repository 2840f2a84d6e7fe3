exogpu.import "sm90a"

// A bf16 GEMM for shapes too small to fill an H100 with the 256 x 256
// tiles of examples/gemm_bf16_sm90a.mlir (C = A * B^T with bf16 A: M x K,
// B: N x K and C: M x N, row major, f32 accumulation): the bf16 twin of
// examples/gemm_tf32_128x128_sm90a.mlir, whose header gives the reasons
// (docs/performance.md, "Small shapes"):
//  * a task is a 128 x 128 tile of C, one per CTA (no cluster), and one of
//    the two halves of K, interleaved: half s takes the 64-column k-steps
//    s, s + 2, s + 4, ... (step 2 k + s; `requires K mod 128 == 0`).
//    1024^3 gives 64 tiles and 128 tasks, one wave on an H100's 132 SMs;
//    M = N = 1024, K = 65536 the same, each task 512 k-steps;
//  * the proc zeroes C on its stream first (`cuda_memset_zero_bf16`), and
//    each task adds its partial tile into C with TMA reduce-adds (atomic
//    per element);
//  * rounding: each half's f32 partial sum is rounded to bf16 when the
//    epilogue writes it, and the reduce-add rounds their sum to bf16 again,
//    so C differs from a single f32 sum rounded once (the naive twin) by
//    up to two bf16 roundings: the tolerance is the bf16 one, not 0. With
//    two addends into zeros the result still does not depend on their
//    order: (0 + a) + b = (0 + b) + a exactly, so a run is deterministic;
//  * warp specialization as in gemm_bf16_sm90a: 1 producer warp, 3 unused,
//    2 consumer warpgroups, each with a 64 x 128 accumulator (64 registers
//    per thread) fed by 4 wgmma m64n128k16 per stage;
//  * a 6-stage TMA ring of 32 KiB stages (a 128 x 64 A tile and a 128 x 64
//    B tile, 128-byte swizzled; 192 KiB): `empty` awaited at lag 6 (-7);
//  * epilogue: after wait_group 0 and a barrier of the 256 consumer
//    threads, warpgroup wg rounds its accumulator to bf16 into two swizzled
//    64 x 64 tiles, A stage wg (conflict-free 4-byte stores), fences them to
//    the async proxy, and one thread reduce-adds them into C.
// Checked with `--exogpu-sync-check="M=128,N=128,K=128"` (test/Examples).

// CHECK-LABEL: exogpu.proc @gemm_bf16_128x128_sm90a(
// CHECK-SAME: requires %M mod 128 == 0 and %N mod 128 == 0 and %K mod 128 == 0
exogpu.proc @gemm_bf16_128x128_sm90a(%M: size, %N: size, %K: size,
    %A: bf16[%M, %K] @CudaGmemLinear, %B: bf16[%N, %K] @CudaGmemLinear,
    %C: bf16[%M, %N] @CudaGmemLinear)
    requires %M mod 128 == 0 and %N mod 128 == 0 and %K mod 128 == 0 {
  // C = 0 on the stream, before the tasks add their partial tiles.
  // CHECK: exogpu.call @cuda_memset_zero_bf16[%M, %N](%C)
  exogpu.call @cuda_memset_zero_bf16[%M, %N](%C) : bf16[?, ?] @CudaGmemLinear
  %A_map = exogpu.window %A[:, :] @Sm90_tensorMap(128, 128, 64) : bf16[?, ?] @CudaGmemLinear
  %B_map = exogpu.window %B[:, :] @Sm90_tensorMap(128, 128, 64) : bf16[?, ?] @CudaGmemLinear
  // CHECK: %C_map = exogpu.window %C[:, :] @Sm90_tensorMap(128, 64, 64)
  %C_map = exogpu.window %C[:, :] @Sm90_tensorMap(128, 64, 64) : bf16[?, ?] @CudaGmemLinear
  // CHECK: exogpu.device_function(warps = ["producer" = (1, 40, 0), "unused" = (3, 40, 0), "consumer" = (8, 0, 232)])
  exogpu.device_function(warps = ["producer" = (1, 40, 0), "unused" = (3, 40, 0), "consumer" = (8, 0, 232)]) {
    exogpu.for %m_task in cuda_tasks(0, %M / 128) {
      exogpu.for %n_task in cuda_tasks(0, %N / 128) {
        // CHECK: exogpu.for %s in cuda_tasks(0, 2)
        exogpu.for %s in cuda_tasks(0, 2) {
          %A_smem = exogpu.alloc bf16[6, 128, 64] @Sm90_SmemSwizzled(128)
          %B_smem = exogpu.alloc bf16[6, 128, 64] @Sm90_SmemSwizzled(128)
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

          exogpu.for %k in seq(0, %K / 128) {
            // Producer: k-step 2 k + s of the tile into stage k mod 6.
            exogpu.warps "producer" {
              exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
                // CHECK: exogpu.await(%empty[], cuda_generic_and_async, -7)
                exogpu.await(%empty, cuda_generic_and_async, -7) : barrier @CudaMbarrier
                // CHECK: exogpu.call @Sm90_tma_load_128x64_bf16(%A_smem[%k mod 6, :, :], %A_map[%m_task * 128:%m_task * 128 + 128, (%k * 2 + %s) * 64:(%k * 2 + %s) * 64 + 64]) >> %full[]
                exogpu.call @Sm90_tma_load_128x64_bf16(%A_smem[%k mod 6, :, :], %A_map[%m_task * 128:%m_task * 128 + 128, (%k * 2 + %s) * 64:(%k * 2 + %s) * 64 + 64]) >> %full : bf16[6, 128, 64] @Sm90_SmemSwizzled(128), window bf16[?, ?] @CudaGmemLinear @Sm90_tensorMap(128, 128, 64), barrier @CudaMbarrier
                exogpu.call @Sm90_tma_load_128x64_bf16(%B_smem[%k mod 6, :, :], %B_map[%n_task * 128:%n_task * 128 + 128, (%k * 2 + %s) * 64:(%k * 2 + %s) * 64 + 64]) >> %full : bf16[6, 128, 64] @Sm90_SmemSwizzled(128), window bf16[?, ?] @CudaGmemLinear @Sm90_tensorMap(128, 128, 64), barrier @CudaMbarrier
                exogpu.arrive(tma_to_smem_async, 1) >> %full : barrier @CudaMbarrier
              }
            }
            // Consumers: as in gemm_bf16_sm90a, with 64 x 128 accumulators.
            exogpu.warps "consumer" {
              exogpu.await(%full, cuda_generic_and_async, -1) : barrier @CudaMbarrier
              exogpu.for %wg in cuda_threads(0, 2, unit = cuda_warpgroup) {
                exogpu.fence(wgmma_fence_1, wgmma_fence_2)
                exogpu.for %kk in seq(0, 4) {
                  // CHECK: exogpu.call @Sm90_mma_async_bf16_m64n128k16(%D[%wg, :, :], %A_smem[%k mod 6, %wg * 64:%wg * 64 + 64, %kk * 16:%kk * 16 + 16], %B_smem[%k mod 6, :, %kk * 16:%kk * 16 + 16])
                  exogpu.call @Sm90_mma_async_bf16_m64n128k16(%D[%wg, :, :], %A_smem[%k mod 6, %wg * 64:%wg * 64 + 64, %kk * 16:%kk * 16 + 16], %B_smem[%k mod 6, :, %kk * 16:%kk * 16 + 16]) : f32[2, 64, 128] @Sm90_RmemMatrixD(64, 128), bf16[6, 128, 64] @Sm90_SmemSwizzled(128), bf16[6, 128, 64] @Sm90_SmemSwizzled(128)
                }
                exogpu.arrive(wgmma_async, 1) >> %cg[%wg] : barrier[2] @CudaCommitGroup
                exogpu.await(%cg[%wg], cuda_in_order, 1) : barrier[2] @CudaCommitGroup
              }
              exogpu.if %k > 0 {
                exogpu.arrive(cuda_in_order, 1) >> %empty : barrier @CudaMbarrier
              }
            }
          }

          // Epilogue: drain, release the last stage, round the accumulators
          // to bf16 into the A stages and reduce-add them into C.
          exogpu.warps "consumer" {
            exogpu.for %wg in cuda_threads(0, 2, unit = cuda_warpgroup) {
              exogpu.await(%cg[%wg], cuda_in_order, 0) : barrier[2] @CudaCommitGroup
            }
            exogpu.arrive(cuda_in_order, 1) >> %empty : barrier @CudaMbarrier
            // Both warpgroups' wgmmas have read the stages before either
            // overwrites them.
            // CHECK: exogpu.fence(cuda_in_order, cuda_in_order)
            exogpu.fence(cuda_in_order, cuda_in_order)
            exogpu.for %wg in cuda_threads(0, 2, unit = cuda_warpgroup) {
              exogpu.for %j in seq(0, 2) {
                // CHECK: exogpu.call @Sm90_store_d_m64n128_tile64x64_bf16[%j](%A_smem[%wg, %j * 64:%j * 64 + 64, :], %D[%wg, :, :])
                exogpu.call @Sm90_store_d_m64n128_tile64x64_bf16[%j](%A_smem[%wg, %j * 64:%j * 64 + 64, :], %D[%wg, :, :]) : bf16[6, 128, 64] @Sm90_SmemSwizzled(128), f32[2, 64, 128] @Sm90_RmemMatrixD(64, 128)
              }
              // CHECK: exogpu.fence(cuda_in_order, cuda_async_proxy)
              exogpu.fence(cuda_in_order, cuda_async_proxy)
              exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
                exogpu.for %j in seq(0, 2) {
                  // CHECK: exogpu.call @Sm90_tma_reduce_add_64x64_bf16(%C_map[%m_task * 128 + %wg * 64:%m_task * 128 + %wg * 64 + 64, %n_task * 128 + %j * 64:%n_task * 128 + %j * 64 + 64], %A_smem[%wg, %j * 64:%j * 64 + 64, :])
                  exogpu.call @Sm90_tma_reduce_add_64x64_bf16(%C_map[%m_task * 128 + %wg * 64:%m_task * 128 + %wg * 64 + 64, %n_task * 128 + %j * 64:%n_task * 128 + %j * 64 + 64], %A_smem[%wg, %j * 64:%j * 64 + 64, :]) : window bf16[?, ?] @CudaGmemLinear @Sm90_tensorMap(128, 64, 64), bf16[6, 128, 64] @Sm90_SmemSwizzled(128)
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
