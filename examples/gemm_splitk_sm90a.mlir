exogpu.import "sm90a"

// The split-k tf32 GEMM of the benchmark (bench/kernels.py,
// docs/performance.md) for long K: C = A * B^T with A: M x K, B: N x K,
// C: M x N, row major, K = S * KC split into S chunks of KC (the paper's
// split-k kernels with TMA reduce-add, seeds/002 Sec. 6: split factors
// 1-16). The split factor is a run-time size: A and B are taken as their
// row-major views [M, S, KC] and [N, S, KC] (the same memory as [M, K] and
// [N, K]), and rank-3 tensor maps load a 1-chunk-deep box of them.
//  * C is zeroed first on the stream (cudaMemsetAsync through the CPU
//    instruction @cuda_memset_zero_f32; the kernel's launch fence orders
//    it, seeds/002 Fig. 5);
//  * a task is (256 x 256 tile of C, chunk s): tasks (m, n, s), 2-CTA
//    clusters, 128 x 256 per CTA, the producer / consumer pipeline of
//    examples/gemm_tf32_sm90a.mlir (4-stage TMA ring, full / empty
//    mbarriers with lags 0 and 4, 2 consumer warpgroups with wgmma
//    m64n256k8 and wait_group 1, release on cuda_in_order) over the KC / 32
//    stages of the chunk;
//  * epilogue: each warpgroup writes its 64 x 256 partial tile as eight
//    swizzled 64 x 32 tiles into two B stages, and one thread adds them into
//    C with TMA reduce-adds (cp.reduce.async.bulk.tensor .add: atomic per
//    element, so the S tasks of a tile need no synchronization between
//    them; the instruction's `atomic` annotation tells the synchronization
//    check so);
//  * a cluster-wide fence at the end of each task (the frees of the stages).
// S is chosen per shape by the caller: with 66 resident clusters on an
// H100, M = N = 1024 takes S = 4 (64 tasks) and M = N = 256 takes S = 64.
// Frees are not written: the compiler inserts them (seeds/002 Sec. 3.4).
// Checked with `--exogpu-sync-check="M=256,N=256,S=4,KC=128"` (test/Examples).

// CHECK-LABEL: exogpu.proc @gemm_splitk_sm90a(
// CHECK-SAME: requires %M mod 256 == 0 and %N mod 256 == 0 and %KC mod 32 == 0
exogpu.proc @gemm_splitk_sm90a(%M: size, %N: size, %S: size, %KC: size,
    %A: f32[%M, %S, %KC] @CudaGmemLinear, %B: f32[%N, %S, %KC] @CudaGmemLinear,
    %C: f32[%M, %N] @CudaGmemLinear)
    requires %M mod 256 == 0 and %N mod 256 == 0 and %KC mod 32 == 0 {
  // C = 0 on the stream, before the kernel's tasks add their partial tiles.
  // CHECK: exogpu.call @cuda_memset_zero_f32[%M, %N](%C)
  exogpu.call @cuda_memset_zero_f32[%M, %N](%C) : f32[?, ?] @CudaGmemLinear
  %A_map = exogpu.window %A[:, :, :] @Sm90_tensorMap(128, 128, 1, 32) : f32[?, ?, ?] @CudaGmemLinear
  %B_map = exogpu.window %B[:, :, :] @Sm90_tensorMap(128, 256, 1, 32) : f32[?, ?, ?] @CudaGmemLinear
  // CHECK: %C_map = exogpu.window %C[:, :] @Sm90_tensorMap(128, 64, 32)
  %C_map = exogpu.window %C[:, :] @Sm90_tensorMap(128, 64, 32) : f32[?, ?] @CudaGmemLinear
  // CHECK: exogpu.device_function(clusterDim = 2, warps = ["producer" = (1, 40, 0), "unused" = (3, 40, 0), "consumer" = (8, 0, 232)])
  exogpu.device_function(clusterDim = 2, warps = ["producer" = (1, 40, 0), "unused" = (3, 40, 0), "consumer" = (8, 0, 232)]) {
    exogpu.for %m_task in cuda_tasks(0, %M / 256) {
      exogpu.for %n_task in cuda_tasks(0, %N / 256) {
        // CHECK: exogpu.for %s in cuda_tasks(0, %S)
        exogpu.for %s in cuda_tasks(0, %S) {
          %A_smem = exogpu.alloc f32[2, 4, 128, 32] @Sm90_SmemSwizzled(128)
          %B_smem = exogpu.alloc f32[2, 4, 256, 32] @Sm90_SmemSwizzled(128)
          %D = exogpu.alloc f32[2, 2, 64, 256] @Sm90_RmemMatrixD(64, 256)
          %full = exogpu.alloc barrier[2] @CudaMbarrier
          %empty = exogpu.alloc barrier[2] @CudaMbarrier
          %cg = exogpu.alloc barrier[2, 2] @CudaCommitGroup
          %store_cg = exogpu.alloc barrier[2, 2, 1] @CudaCommitGroup

          exogpu.warps "consumer" {
            exogpu.for %cta in cuda_threads(0, 2, unit = cuda_cta_in_cluster) {
              exogpu.for %wg in cuda_threads(0, 2, unit = cuda_warpgroup) {
                exogpu.call @Sm90_zero_d_m64n256_f32(%D[%cta, %wg, :, :]) : f32[2, 2, 64, 256] @Sm90_RmemMatrixD(64, 256)
              }
            }
          }

          exogpu.for %k in seq(0, %KC / 32) {
            // Producer: wait until the consumers released the stage, load
            // the A and B tiles into it, arrive at its full barrier.
            exogpu.warps "producer" {
              exogpu.for %cta in cuda_threads(0, 2, unit = cuda_cta_in_cluster) {
                exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
                  // CHECK: exogpu.await(%empty[%cta], cuda_generic_and_async, -5)
                  exogpu.await(%empty[%cta], cuda_generic_and_async, -5) : barrier[2] @CudaMbarrier
                  exogpu.call @Sm90_tma_load_3d_128x32_f32(%A_smem[%cta, %k mod 4, :, :], %A_map[(%m_task * 2 + %cta) * 128:(%m_task * 2 + %cta) * 128 + 128, %s:%s + 1, %k * 32:%k * 32 + 32]) >> %full[%cta] : f32[2, 4, 128, 32] @Sm90_SmemSwizzled(128), window f32[?, ?, ?] @CudaGmemLinear @Sm90_tensorMap(128, 128, 1, 32), barrier[2] @CudaMbarrier
                  exogpu.call @Sm90_tma_load_3d_256x32_f32(%B_smem[%cta, %k mod 4, :, :], %B_map[%n_task * 256:%n_task * 256 + 256, %s:%s + 1, %k * 32:%k * 32 + 32]) >> %full[%cta] : f32[2, 4, 256, 32] @Sm90_SmemSwizzled(128), window f32[?, ?, ?] @CudaGmemLinear @Sm90_tensorMap(128, 256, 1, 32), barrier[2] @CudaMbarrier
                  exogpu.arrive(tma_to_smem_async, 1) >> %full[%cta] : barrier[2] @CudaMbarrier
                }
              }
            }
            // Consumers: wait for the stage, issue the wgmmas of both
            // warpgroups, keep one commit group in flight per warpgroup, and
            // release the previous iteration's stage to the producer.
            exogpu.warps "consumer" {
              exogpu.for %cta in cuda_threads(0, 2, unit = cuda_cta_in_cluster) {
                // CHECK: exogpu.await(%full[%cta], cuda_generic_and_async, -1)
                exogpu.await(%full[%cta], cuda_generic_and_async, -1) : barrier[2] @CudaMbarrier
                exogpu.for %wg in cuda_threads(0, 2, unit = cuda_warpgroup) {
                  exogpu.fence(wgmma_fence_1, wgmma_fence_2)
                  exogpu.for %kk in seq(0, 4) {
                    // CHECK: exogpu.call @Sm90_mma_async_tf32_m64n256k8(%D[%cta, %wg, :, :], %A_smem[%cta, %k mod 4, %wg * 64:%wg * 64 + 64, %kk * 8:%kk * 8 + 8], %B_smem[%cta, %k mod 4, :, %kk * 8:%kk * 8 + 8])
                    exogpu.call @Sm90_mma_async_tf32_m64n256k8(%D[%cta, %wg, :, :], %A_smem[%cta, %k mod 4, %wg * 64:%wg * 64 + 64, %kk * 8:%kk * 8 + 8], %B_smem[%cta, %k mod 4, :, %kk * 8:%kk * 8 + 8]) : f32[2, 2, 64, 256] @Sm90_RmemMatrixD(64, 256), f32[2, 4, 128, 32] @Sm90_SmemSwizzled(128), f32[2, 4, 256, 32] @Sm90_SmemSwizzled(128)
                  }
                  exogpu.arrive(wgmma_async, 1) >> %cg[%cta, %wg] : barrier[2, 2] @CudaCommitGroup
                  // CHECK: exogpu.await(%cg[%cta, %wg], cuda_in_order, 1)
                  exogpu.await(%cg[%cta, %wg], cuda_in_order, 1) : barrier[2, 2] @CudaCommitGroup
                }
                exogpu.if %k > 0 {
                  // CHECK: exogpu.arrive(cuda_in_order, 1) >> %empty[%cta]
                  exogpu.arrive(cuda_in_order, 1) >> %empty[%cta] : barrier[2] @CudaMbarrier
                }
              }
            }
          }

          // Epilogue: drain the wgmmas, release the last stage (arrive and
          // await counts match when the barriers are freed), write the
          // accumulators into the B stages and store them with TMA.
          exogpu.warps "consumer" {
            exogpu.for %cta in cuda_threads(0, 2, unit = cuda_cta_in_cluster) {
              exogpu.for %wg in cuda_threads(0, 2, unit = cuda_warpgroup) {
                exogpu.await(%cg[%cta, %wg], cuda_in_order, 0) : barrier[2, 2] @CudaCommitGroup
              }
              exogpu.arrive(cuda_in_order, 1) >> %empty[%cta] : barrier[2] @CudaMbarrier
              // Both warpgroups' wgmmas have read the B stages before either
              // overwrites them (a named barrier of the 256 consumer threads).
              exogpu.fence(cuda_in_order, cuda_in_order)
              exogpu.for %wg in cuda_threads(0, 2, unit = cuda_warpgroup) {
                exogpu.for %j in seq(0, 8) {
                  // CHECK: exogpu.call @Sm90_store_d_m64n256_tile64x32_f32[%j](%B_smem[%cta, %wg * 2 + %j / 4, %j mod 4 * 64:%j mod 4 * 64 + 64, :], %D[%cta, %wg, :, :])
                  exogpu.call @Sm90_store_d_m64n256_tile64x32_f32[%j](%B_smem[%cta, %wg * 2 + %j / 4, %j mod 4 * 64:%j mod 4 * 64 + 64, :], %D[%cta, %wg, :, :]) : f32[2, 4, 256, 32] @Sm90_SmemSwizzled(128), f32[2, 2, 64, 256] @Sm90_RmemMatrixD(64, 256)
                }
                // CHECK: exogpu.fence(cuda_in_order, cuda_async_proxy)
                exogpu.fence(cuda_in_order, cuda_async_proxy)
                exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
                  exogpu.for %j in seq(0, 8) {
                    // CHECK: exogpu.call @Sm90_tma_reduce_add_64x32_f32(
                    exogpu.call @Sm90_tma_reduce_add_64x32_f32(%C_map[(%m_task * 2 + %cta) * 128 + %wg * 64:(%m_task * 2 + %cta) * 128 + %wg * 64 + 64, %n_task * 256 + %j * 32:%n_task * 256 + %j * 32 + 32], %B_smem[%cta, %wg * 2 + %j / 4, %j mod 4 * 64:%j mod 4 * 64 + 64, :]) : window f32[?, ?] @CudaGmemLinear @Sm90_tensorMap(128, 64, 32), f32[2, 4, 256, 32] @Sm90_SmemSwizzled(128)
                  }
                  exogpu.arrive(tma_to_gmem_async, 1) >> %store_cg[%cta, %wg, %t] : barrier[2, 2, 1] @CudaCommitGroup
                  exogpu.await(%store_cg[%cta, %wg, %t], cuda_in_order, 0) : barrier[2, 2, 1] @CudaCommitGroup
                }
              }
            }
          }
          // The compiler frees the stages and barriers here and the next
          // task reuses their shared memory: the whole cluster must be done
          // with them first (barrier.cluster, after the TMA stores' wait).
          // CHECK: exogpu.fence(cuda_generic_and_async, cuda_in_order)
          exogpu.fence(cuda_generic_and_async, cuda_in_order)
        }
      }
    }
  }
}
