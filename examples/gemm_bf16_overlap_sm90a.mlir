exogpu.import "sm90a"

// The bf16 GEMM of examples/gemm_bf16_sm90a.mlir (C = A * B^T with bf16 A:
// M x K, B: N x K and C: M x N, row major, f32 accumulation; 256 x 256
// tiles of C computed by 2-CTA clusters, warp specialization, a 4-stage TMA
// ring of K = 64 stages, 2 consumer warpgroups fed by wgmma m64n256k16)
// with its epilogue overlapped with the next tile's loads, as
// examples/gemm_tf32_overlap_sm90a.mlir does for tf32 (docs/performance.md,
// "Overlapped epilogues"):
//  * a task is a column of 4 tiles (rows 1024 m_group + 256 m_in_group, 256
//    columns from 256 n_task) computed one after the other by one cluster:
//    the stages, barriers and the staging buffer are allocated per task, so
//    they live across its 4 tiles, and the ring runs on: while the
//    consumers store tile i, the producer already loads the first 4 stages
//    of tile i + 1 (the consumers released every stage of tile i before
//    their epilogue). The cluster-wide fence that frees the task's shared
//    memory comes once per 4 tiles instead of once per tile. As in
//    gemm_bf16_sm90a, each CTA loads its own B tile (no multicast) and
//    releases its stages to its own producer only;
//  * the epilogue does not write into the ring's stages (the producer is
//    filling them) but into its own staging buffer: per consumer warpgroup
//    two 64 x 64 bf16 swizzled tiles (8 KiB each, 32 KiB per CTA), used in
//    turn. Column block j of the warpgroup's accumulator, rounded to bf16,
//    goes into buffer j mod 2 once the TMA store that last read it (two
//    stores back, possibly of the previous tile) has read it: the storing
//    thread waits for all but its latest bulk group
//    (`await(store_cg, cuda_in_order, 1)`: cp.async.bulk.wait_group 1) and
//    a barrier of the warpgroup tells the others. The warpgroup then writes
//    the tile (conflict-free 4-byte stores of bf16 pairs), fences it to the
//    async proxy and its first thread stores it with TMA; the stores drain
//    while the next tile's main loop runs, and the task waits for them only
//    before its end;
//  * the stage of k-step k is k mod 4 in every tile: the ring's position
//    carries over from one tile to the next only if a tile has a whole
//    number of turns of the ring, so K is a multiple of 4 stages of 64
//    (`requires K mod 256 == 0`; the check rejects the kernel without it);
//  * shared memory per CTA: 64 KiB of A and 128 KiB of B stages (48 KiB a
//    stage), 32 KiB of staging and the mbarrier rings, 225 KiB, and 1 KiB
//    of alignment slack: 226 KiB of the 227 KiB a CTA can have. A third
//    staging buffer per warpgroup would not fit (the translation refuses
//    it), which is why a buffer is rewritten after the store two back.
// Tasks are M / 1024 x N / 256 (64 at 4096^3 for 66 clusters on an H100:
// this variant is for the largest shapes; bench/dispatch.json says which
// variant runs each shape).
// Checked with `--exogpu-sync-check="M=1024,N=256,K=256"` (test/Examples).

// CHECK-LABEL: exogpu.proc @gemm_bf16_overlap_sm90a(
// CHECK-SAME: requires %M mod 1024 == 0 and %N mod 256 == 0 and %K mod 256 == 0
exogpu.proc @gemm_bf16_overlap_sm90a(%M: size, %N: size, %K: size,
    %A: bf16[%M, %K] @CudaGmemLinear, %B: bf16[%N, %K] @CudaGmemLinear,
    %C: bf16[%M, %N] @CudaGmemLinear)
    requires %M mod 1024 == 0 and %N mod 256 == 0 and %K mod 256 == 0 {
  %A_map = exogpu.window %A[:, :] @Sm90_tensorMap(128, 128, 64) : bf16[?, ?] @CudaGmemLinear
  %B_map = exogpu.window %B[:, :] @Sm90_tensorMap(128, 256, 64) : bf16[?, ?] @CudaGmemLinear
  // CHECK: %C_map = exogpu.window %C[:, :] @Sm90_tensorMap(128, 64, 64)
  %C_map = exogpu.window %C[:, :] @Sm90_tensorMap(128, 64, 64) : bf16[?, ?] @CudaGmemLinear
  // CHECK: exogpu.device_function(clusterDim = 2, warps = ["producer" = (1, 40, 0), "unused" = (3, 40, 0), "consumer" = (8, 0, 232)])
  exogpu.device_function(clusterDim = 2, warps = ["producer" = (1, 40, 0), "unused" = (3, 40, 0), "consumer" = (8, 0, 232)]) {
    // CHECK: exogpu.for %m_group in cuda_tasks(0, %M / 1024)
    exogpu.for %m_group in cuda_tasks(0, %M / 1024) {
      exogpu.for %n_task in cuda_tasks(0, %N / 256) {
        %A_smem = exogpu.alloc bf16[2, 4, 128, 64] @Sm90_SmemSwizzled(128)
        %B_smem = exogpu.alloc bf16[2, 4, 256, 64] @Sm90_SmemSwizzled(128)
        // CHECK: %E = exogpu.alloc bf16[2, 4, 64, 64] @Sm90_SmemSwizzled(128)
        %E = exogpu.alloc bf16[2, 4, 64, 64] @Sm90_SmemSwizzled(128)
        %D = exogpu.alloc f32[2, 2, 64, 256] @Sm90_RmemMatrixD(64, 256)
        %full = exogpu.alloc barrier[2] @CudaMbarrier
        %empty = exogpu.alloc barrier[2] @CudaMbarrier
        %cg = exogpu.alloc barrier[2, 2] @CudaCommitGroup
        %store_cg = exogpu.alloc barrier[2, 2, 1] @CudaCommitGroup

        // CHECK: exogpu.for %m_in_group in seq(0, 4)
        exogpu.for %m_in_group in seq(0, 4) {
          exogpu.warps "consumer" {
            exogpu.for %cta in cuda_threads(0, 2, unit = cuda_cta_in_cluster) {
              exogpu.for %wg in cuda_threads(0, 2, unit = cuda_warpgroup) {
                exogpu.call @Sm90_zero_d_m64n256_f32(%D[%cta, %wg, :, :]) : f32[2, 2, 64, 256] @Sm90_RmemMatrixD(64, 256)
              }
            }
          }

          exogpu.for %k in seq(0, %K / 64) {
            // Producer: the ring runs on across the tiles of the task.
            exogpu.warps "producer" {
              exogpu.for %cta in cuda_threads(0, 2, unit = cuda_cta_in_cluster) {
                exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
                  // CHECK: exogpu.await(%empty[%cta], cuda_generic_and_async, -5)
                  exogpu.await(%empty[%cta], cuda_generic_and_async, -5) : barrier[2] @CudaMbarrier
                  // CHECK: exogpu.call @Sm90_tma_load_128x64_bf16(%A_smem[%cta, %k mod 4, :, :], %A_map[((%m_group * 4 + %m_in_group) * 2 + %cta) * 128:((%m_group * 4 + %m_in_group) * 2 + %cta) * 128 + 128, %k * 64:%k * 64 + 64]) >> %full[%cta]
                  exogpu.call @Sm90_tma_load_128x64_bf16(%A_smem[%cta, %k mod 4, :, :], %A_map[((%m_group * 4 + %m_in_group) * 2 + %cta) * 128:((%m_group * 4 + %m_in_group) * 2 + %cta) * 128 + 128, %k * 64:%k * 64 + 64]) >> %full[%cta] : bf16[2, 4, 128, 64] @Sm90_SmemSwizzled(128), window bf16[?, ?] @CudaGmemLinear @Sm90_tensorMap(128, 128, 64), barrier[2] @CudaMbarrier
                  exogpu.call @Sm90_tma_load_256x64_bf16(%B_smem[%cta, %k mod 4, :, :], %B_map[%n_task * 256:%n_task * 256 + 256, %k * 64:%k * 64 + 64]) >> %full[%cta] : bf16[2, 4, 256, 64] @Sm90_SmemSwizzled(128), window bf16[?, ?] @CudaGmemLinear @Sm90_tensorMap(128, 256, 64), barrier[2] @CudaMbarrier
                  exogpu.arrive(tma_to_smem_async, 1) >> %full[%cta] : barrier[2] @CudaMbarrier
                }
              }
            }
            // Consumers: as in gemm_bf16_sm90a.
            exogpu.warps "consumer" {
              exogpu.for %cta in cuda_threads(0, 2, unit = cuda_cta_in_cluster) {
                exogpu.await(%full[%cta], cuda_generic_and_async, -1) : barrier[2] @CudaMbarrier
                exogpu.for %wg in cuda_threads(0, 2, unit = cuda_warpgroup) {
                  exogpu.fence(wgmma_fence_1, wgmma_fence_2)
                  exogpu.for %kk in seq(0, 4) {
                    // CHECK: exogpu.call @Sm90_mma_async_bf16_m64n256k16(%D[%cta, %wg, :, :], %A_smem[%cta, %k mod 4, %wg * 64:%wg * 64 + 64, %kk * 16:%kk * 16 + 16], %B_smem[%cta, %k mod 4, :, %kk * 16:%kk * 16 + 16])
                    exogpu.call @Sm90_mma_async_bf16_m64n256k16(%D[%cta, %wg, :, :], %A_smem[%cta, %k mod 4, %wg * 64:%wg * 64 + 64, %kk * 16:%kk * 16 + 16], %B_smem[%cta, %k mod 4, :, %kk * 16:%kk * 16 + 16]) : f32[2, 2, 64, 256] @Sm90_RmemMatrixD(64, 256), bf16[2, 4, 128, 64] @Sm90_SmemSwizzled(128), bf16[2, 4, 256, 64] @Sm90_SmemSwizzled(128)
                  }
                  exogpu.arrive(wgmma_async, 1) >> %cg[%cta, %wg] : barrier[2, 2] @CudaCommitGroup
                  exogpu.await(%cg[%cta, %wg], cuda_in_order, 1) : barrier[2, 2] @CudaCommitGroup
                }
                exogpu.if %k > 0 {
                  exogpu.arrive(cuda_in_order, 1) >> %empty[%cta] : barrier[2] @CudaMbarrier
                }
              }
            }
          }

          // Epilogue: drain the wgmmas and release the last stage (the
          // producer goes on with the next tile), then store the
          // accumulators through the staging buffer.
          exogpu.warps "consumer" {
            exogpu.for %cta in cuda_threads(0, 2, unit = cuda_cta_in_cluster) {
              exogpu.for %wg in cuda_threads(0, 2, unit = cuda_warpgroup) {
                exogpu.await(%cg[%cta, %wg], cuda_in_order, 0) : barrier[2, 2] @CudaCommitGroup
              }
              exogpu.arrive(cuda_in_order, 1) >> %empty[%cta] : barrier[2] @CudaMbarrier
              exogpu.for %wg in cuda_threads(0, 2, unit = cuda_warpgroup) {
                exogpu.for %j in seq(0, 4) {
                  // Staging buffer j mod 2 is free once the TMA store two
                  // stores back has read it.
                  exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
                    // CHECK: exogpu.await(%store_cg[%cta, %wg, %t], cuda_in_order, 1)
                    exogpu.await(%store_cg[%cta, %wg, %t], cuda_in_order, 1) : barrier[2, 2, 1] @CudaCommitGroup
                  }
                  exogpu.fence(cuda_in_order, cuda_in_order)
                  // CHECK: exogpu.call @Sm90_store_d_m64n256_tile64x64_bf16[%j](%E[%cta, %wg * 2 + %j mod 2, :, :], %D[%cta, %wg, :, :])
                  exogpu.call @Sm90_store_d_m64n256_tile64x64_bf16[%j](%E[%cta, %wg * 2 + %j mod 2, :, :], %D[%cta, %wg, :, :]) : bf16[2, 4, 64, 64] @Sm90_SmemSwizzled(128), f32[2, 2, 64, 256] @Sm90_RmemMatrixD(64, 256)
                  exogpu.fence(cuda_in_order, cuda_async_proxy)
                  exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
                    // CHECK: exogpu.call @Sm90_tma_store_64x64_bf16(
                    exogpu.call @Sm90_tma_store_64x64_bf16(%C_map[((%m_group * 4 + %m_in_group) * 2 + %cta) * 128 + %wg * 64:((%m_group * 4 + %m_in_group) * 2 + %cta) * 128 + %wg * 64 + 64, %n_task * 256 + %j * 64:%n_task * 256 + %j * 64 + 64], %E[%cta, %wg * 2 + %j mod 2, :, :]) : window bf16[?, ?] @CudaGmemLinear @Sm90_tensorMap(128, 64, 64), bf16[2, 4, 64, 64] @Sm90_SmemSwizzled(128)
                    exogpu.arrive(tma_to_gmem_async, 1) >> %store_cg[%cta, %wg, %t] : barrier[2, 2, 1] @CudaCommitGroup
                  }
                }
              }
            }
          }
        }

        // The task's TMA stores have completed before the cluster frees its
        // shared memory for the next task.
        exogpu.warps "consumer" {
          exogpu.for %cta in cuda_threads(0, 2, unit = cuda_cta_in_cluster) {
            exogpu.for %wg in cuda_threads(0, 2, unit = cuda_warpgroup) {
              exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
                exogpu.await(%store_cg[%cta, %wg, %t], cuda_in_order, 0) : barrier[2, 2, 1] @CudaCommitGroup
              }
            }
          }
        }
        // CHECK: exogpu.fence(cuda_generic_and_async, cuda_in_order)
        exogpu.fence(cuda_generic_and_async, cuda_in_order)
      }
    }
  }
}
