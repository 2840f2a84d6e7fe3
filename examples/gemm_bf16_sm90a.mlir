exogpu.import "sm90a"

// The bf16 GEMM of the benchmark (bench/kernels.py, docs/performance.md):
// C = A * B^T with bf16 A: M x K, B: N x K and C: M x N, row major, fp32
// accumulation (cublasGemmEx with bf16 A, B, C and CUBLAS_COMPUTE_32F, "TN"
// layout), for an H100 (sm_90a). The structure of the tf32 kernel
// (examples/gemm_tf32_sm90a.mlir, whose header gives the reasons) with
// 16-bit operands:
//  * persistent, 2-CTA clusters, a 256 x 256 tile of C per task and
//    128 x 256 per CTA, tasks in (m_group, n, m_in_group) order for L2
//    reuse;
//  * 1 producer warp + 3 unused warps (40 registers) and 2 consumer
//    warpgroups (232 registers), blockDim = 384;
//  * a 4-stage ring of 128-byte-swizzled stages, K = 64 per stage (128-byte
//    rows of bf16): a 128 x 64 A tile and a 256 x 64 B tile, 48 KiB a
//    stage; full / empty mbarriers with await lags 0 and 4;
//  * 4 wgmma m64n256k16 (bf16 in, f32 accumulate) per stage and warpgroup,
//    wait_group 1 and the release of the previous stage on cuda_in_order;
//  * epilogue: each warpgroup rounds its accumulator to bf16 into four
//    swizzled 64 x 64 tiles in B stage wg (32 KiB), fences them to the
//    async proxy and one thread stores them with four TMA stores;
//  * a cluster-wide fence at the end of each task (the frees of the stages).
// Frees are not written: the compiler inserts them (seeds/002 Sec. 3.4).
// Checked with `--exogpu-sync-check="M=1024,N=256,K=512"` (test/Examples).

// CHECK-LABEL: exogpu.proc @gemm_bf16_sm90a(
// CHECK-SAME: requires %M mod 1024 == 0 and %N mod 256 == 0 and %K mod 64 == 0
exogpu.proc @gemm_bf16_sm90a(%M: size, %N: size, %K: size,
    %A: bf16[%M, %K] @CudaGmemLinear, %B: bf16[%N, %K] @CudaGmemLinear,
    %C: bf16[%M, %N] @CudaGmemLinear)
    requires %M mod 1024 == 0 and %N mod 256 == 0 and %K mod 64 == 0 {
  %A_map = exogpu.window %A[:, :] @Sm90_tensorMap(128, 128, 64) : bf16[?, ?] @CudaGmemLinear
  %B_map = exogpu.window %B[:, :] @Sm90_tensorMap(128, 256, 64) : bf16[?, ?] @CudaGmemLinear
  // CHECK: %C_map = exogpu.window %C[:, :] @Sm90_tensorMap(128, 64, 64)
  %C_map = exogpu.window %C[:, :] @Sm90_tensorMap(128, 64, 64) : bf16[?, ?] @CudaGmemLinear
  // CHECK: exogpu.device_function(clusterDim = 2, warps = ["producer" = (1, 40, 0), "unused" = (3, 40, 0), "consumer" = (8, 0, 232)])
  exogpu.device_function(clusterDim = 2, warps = ["producer" = (1, 40, 0), "unused" = (3, 40, 0), "consumer" = (8, 0, 232)]) {
    // CHECK: exogpu.for %m_group in cuda_tasks(0, %M / 1024)
    exogpu.for %m_group in cuda_tasks(0, %M / 1024) {
      exogpu.for %n_task in cuda_tasks(0, %N / 256) {
        // CHECK: exogpu.for %m_in_group in cuda_tasks(0, 4)
        exogpu.for %m_in_group in cuda_tasks(0, 4) {
          %A_smem = exogpu.alloc bf16[2, 4, 128, 64] @Sm90_SmemSwizzled(128)
          %B_smem = exogpu.alloc bf16[2, 4, 256, 64] @Sm90_SmemSwizzled(128)
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

          exogpu.for %k in seq(0, %K / 64) {
            // Producer: wait until the consumers released the stage, load
            // the A and B tiles into it, arrive at its full barrier.
            exogpu.warps "producer" {
              exogpu.for %cta in cuda_threads(0, 2, unit = cuda_cta_in_cluster) {
                exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
                  // CHECK: exogpu.await(%empty[%cta], cuda_generic_and_async, -5)
                  exogpu.await(%empty[%cta], cuda_generic_and_async, -5) : barrier[2] @CudaMbarrier
                  exogpu.call @Sm90_tma_load_128x64_bf16(%A_smem[%cta, %k mod 4, :, :], %A_map[((%m_group * 4 + %m_in_group) * 2 + %cta) * 128:((%m_group * 4 + %m_in_group) * 2 + %cta) * 128 + 128, %k * 64:%k * 64 + 64]) >> %full[%cta] : bf16[2, 4, 128, 64] @Sm90_SmemSwizzled(128), window bf16[?, ?] @CudaGmemLinear @Sm90_tensorMap(128, 128, 64), barrier[2] @CudaMbarrier
                  exogpu.call @Sm90_tma_load_256x64_bf16(%B_smem[%cta, %k mod 4, :, :], %B_map[%n_task * 256:%n_task * 256 + 256, %k * 64:%k * 64 + 64]) >> %full[%cta] : bf16[2, 4, 256, 64] @Sm90_SmemSwizzled(128), window bf16[?, ?] @CudaGmemLinear @Sm90_tensorMap(128, 256, 64), barrier[2] @CudaMbarrier
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
                    // CHECK: exogpu.call @Sm90_mma_async_bf16_m64n256k16(%D[%cta, %wg, :, :], %A_smem[%cta, %k mod 4, %wg * 64:%wg * 64 + 64, %kk * 16:%kk * 16 + 16], %B_smem[%cta, %k mod 4, :, %kk * 16:%kk * 16 + 16])
                    exogpu.call @Sm90_mma_async_bf16_m64n256k16(%D[%cta, %wg, :, :], %A_smem[%cta, %k mod 4, %wg * 64:%wg * 64 + 64, %kk * 16:%kk * 16 + 16], %B_smem[%cta, %k mod 4, :, %kk * 16:%kk * 16 + 16]) : f32[2, 2, 64, 256] @Sm90_RmemMatrixD(64, 256), bf16[2, 4, 128, 64] @Sm90_SmemSwizzled(128), bf16[2, 4, 256, 64] @Sm90_SmemSwizzled(128)
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
                exogpu.for %j in seq(0, 4) {
                  // CHECK: exogpu.call @Sm90_store_d_m64n256_tile64x64_bf16[%j](%B_smem[%cta, %wg, %j * 64:%j * 64 + 64, :], %D[%cta, %wg, :, :])
                  exogpu.call @Sm90_store_d_m64n256_tile64x64_bf16[%j](%B_smem[%cta, %wg, %j * 64:%j * 64 + 64, :], %D[%cta, %wg, :, :]) : bf16[2, 4, 256, 64] @Sm90_SmemSwizzled(128), f32[2, 2, 64, 256] @Sm90_RmemMatrixD(64, 256)
                }
                // CHECK: exogpu.fence(cuda_in_order, cuda_async_proxy)
                exogpu.fence(cuda_in_order, cuda_async_proxy)
                exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
                  exogpu.for %j in seq(0, 4) {
                    // CHECK: exogpu.call @Sm90_tma_store_64x64_bf16(
                    exogpu.call @Sm90_tma_store_64x64_bf16(%C_map[((%m_group * 4 + %m_in_group) * 2 + %cta) * 128 + %wg * 64:((%m_group * 4 + %m_in_group) * 2 + %cta) * 128 + %wg * 64 + 64, %n_task * 256 + %j * 64:%n_task * 256 + %j * 64 + 64], %B_smem[%cta, %wg, %j * 64:%j * 64 + 64, :]) : window bf16[?, ?] @CudaGmemLinear @Sm90_tensorMap(128, 64, 64), bf16[2, 4, 256, 64] @Sm90_SmemSwizzled(128)
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
