exogpu.import "sm90a"

// The tf32 GEMM of the benchmark (bench/kernels.py, docs/performance.md):
// C = A * B^T with A: M x K, B: N x K and C: M x N, row major (cuBLAS's
// "TN" layout, cublasSgemm with CUBLAS_TF32_TENSOR_OP_MATH), for an H100
// (sm_90a). The structure of the paper's Hopper GEMM (seeds/002 Sec. 6,
// Fig. 3) and of CUTLASS's warp-specialized persistent kernels:
//  * persistent: the translation launches as many 2-CTA clusters as are
//    resident (one per 2 SMs) and each walks the task nest (Sec. 4.2
//    "Persistent Kernels"). A task is a 256 x 256 tile of C; each CTA of the
//    cluster computes a 128 x 256 half (rows cta * 128 of the tile);
//  * tile order for L2 reuse: the nest (m_group, n, m_in_group) enumerates
//    tasks lexicographically, so consecutive tasks (running at the same time
//    on consecutive clusters) take 4 row blocks (1024 rows of A) against
//    successive column blocks of B: a wave of 66 clusters touches 4 row
//    blocks of A and about 17 column blocks of B per k-step instead of 1-2
//    row blocks and 33 column blocks in plain row-major order;
//  * warp specialization (Sec. 4.2): 1 producer warp and 3 unused warps
//    (setmaxnreg.dec to 40) and 2 consumer warpgroups (setmaxnreg.inc to
//    232), blockDim = 384; the consumers start at warp 4, warpgroup aligned;
//  * a 4-stage ring of 128-byte-swizzled stages (48 KiB each: a 128 x 32 A
//    tile and a 256 x 32 B tile, 192 KiB in all) filled by TMA. `full`
//    mbarriers (TMA completion with expect-tx, producer -> consumers, await
//    lag 0) and `empty` mbarriers (stage release, consumers -> producer,
//    await lag 4: `-5` = ~4, guide "Queue Barrier"); the translation's ring
//    is 5 mbarriers deep (1 + the lags);
//  * each consumer warpgroup issues 4 wgmma m64n256k8 per stage into its
//    64 x 256 accumulator (128 registers per thread) after a wgmma.fence,
//    commits, and waits with wait_group 1: the previous stage's wgmmas are
//    then complete and the stage goes back to the producer while this
//    stage's wgmmas run. The release arrive is on `cuda_in_order` (what the
//    consumer's wait_group 1 already ordered) and the consumer's await on
//    the full barrier on `cuda_generic_and_async`: the translation then
//    emits the arrive right after wgmma.wait_group 1, where a release on
//    cuda_generic_and_async would force wgmma.wait_group 0 and serialize
//    the pipeline. Only the wgmmas' completed reads are left for it to
//    order, so the first thread of each consumer warpgroup arrives for it,
//    `.release.cta` at its own CTA's barrier and `.relaxed.cluster` at the
//    peer's: two arrives per CTA and stage, no memory barrier
//    (docs/cuda-translation.md "mbarrier arrives");
//  * epilogue through shared memory and TMA stores: after wait_group 0 and a
//    barrier of the CTA's 256 consumer threads (both warpgroups' wgmmas have
//    read the B stages), warpgroup wg writes its accumulator as eight
//    swizzled 64 x 32 tiles into B stages 2 wg and 2 wg + 1 (64 KiB), fences
//    them to the async proxy (fence.proxy.async + a named barrier of the
//    warpgroup), and one thread issues eight TMA stores and waits for its
//    bulk group (CudaCommitGroup on tma_to_gmem_async);
//  * a cluster-wide fence at the end of each task: the compiler frees the
//    stages and barriers there and the next task reuses their shared memory
//    (Sec. 4.2 "Shared Memory Allocations": no thread of the cluster passes
//    a free before every access to the freed memory has retired).
//  * TMA multicast of B (seeds/002 Sec. 6; CUTLASS's multicast along the
//    cluster's dimension): both CTAs of a cluster use the same 256 x 32 B
//    tile, so each CTA's producer loads a 128-row half and multicasts it
//    into both CTAs' stage (`>> full[:]`: every CTA's full barrier counts
//    the bytes delivered to it), halving the B traffic from L2; a stage is
//    released to both producers (`>> empty[cta] >> empty[:]`), since either
//    may overwrite it.
// Frees are not written: the compiler inserts them (Sec. 3.4).
// Checked with `--exogpu-sync-check="M=1024,N=256,K=256"` (test/Examples).

// CHECK-LABEL: exogpu.proc @gemm_tf32_sm90a(
// CHECK-SAME: requires %M mod 1024 == 0 and %N mod 256 == 0 and %K mod 32 == 0
exogpu.proc @gemm_tf32_sm90a(%M: size, %N: size, %K: size,
    %A: f32[%M, %K] @CudaGmemLinear, %B: f32[%N, %K] @CudaGmemLinear,
    %C: f32[%M, %N] @CudaGmemLinear)
    requires %M mod 1024 == 0 and %N mod 256 == 0 and %K mod 32 == 0 {
  %A_map = exogpu.window %A[:, :] @Sm90_tensorMap(128, 128, 32) : f32[?, ?] @CudaGmemLinear
  %B_map = exogpu.window %B[:, :] @Sm90_tensorMap(128, 128, 32) : f32[?, ?] @CudaGmemLinear
  // CHECK: %C_map = exogpu.window %C[:, :] @Sm90_tensorMap(128, 64, 32)
  %C_map = exogpu.window %C[:, :] @Sm90_tensorMap(128, 64, 32) : f32[?, ?] @CudaGmemLinear
  // CHECK: exogpu.device_function(clusterDim = 2, warps = ["producer" = (1, 40, 0), "unused" = (3, 40, 0), "consumer" = (8, 0, 232)])
  exogpu.device_function(clusterDim = 2, warps = ["producer" = (1, 40, 0), "unused" = (3, 40, 0), "consumer" = (8, 0, 232)]) {
    // CHECK: exogpu.for %m_group in cuda_tasks(0, %M / 1024)
    exogpu.for %m_group in cuda_tasks(0, %M / 1024) {
      exogpu.for %n_task in cuda_tasks(0, %N / 256) {
        // CHECK: exogpu.for %m_in_group in cuda_tasks(0, 4)
        exogpu.for %m_in_group in cuda_tasks(0, 4) {
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

          exogpu.for %k in seq(0, %K / 32) {
            // Producer: wait until the consumers released the stage, load
            // the A and B tiles into it, arrive at its full barrier.
            exogpu.warps "producer" {
              exogpu.for %cta in cuda_threads(0, 2, unit = cuda_cta_in_cluster) {
                exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
                  // CHECK: exogpu.await(%empty[%cta], cuda_generic_and_async, -5)
                  exogpu.await(%empty[%cta], cuda_generic_and_async, -5) : barrier[2] @CudaMbarrier
                  exogpu.call @Sm90_tma_load_128x32_f32(%A_smem[%cta, %k mod 4, :, :], %A_map[((%m_group * 4 + %m_in_group) * 2 + %cta) * 128:((%m_group * 4 + %m_in_group) * 2 + %cta) * 128 + 128, %k * 32:%k * 32 + 32]) >> %full[%cta] : f32[2, 4, 128, 32] @Sm90_SmemSwizzled(128), window f32[?, ?] @CudaGmemLinear @Sm90_tensorMap(128, 128, 32), barrier[2] @CudaMbarrier
                  // CHECK: exogpu.call @Sm90_tma_multicast_load_128x32_f32(%B_smem[:, %k mod 4, %cta * 128:%cta * 128 + 128, :], %B_map[%n_task * 256 + %cta * 128:%n_task * 256 + %cta * 128 + 128, %k * 32:%k * 32 + 32]) >> %full[:]
                  exogpu.call @Sm90_tma_multicast_load_128x32_f32(%B_smem[:, %k mod 4, %cta * 128:%cta * 128 + 128, :], %B_map[%n_task * 256 + %cta * 128:%n_task * 256 + %cta * 128 + 128, %k * 32:%k * 32 + 32]) >> %full[:] : f32[2, 4, 256, 32] @Sm90_SmemSwizzled(128), window f32[?, ?] @CudaGmemLinear @Sm90_tensorMap(128, 128, 32), barrier[2] @CudaMbarrier
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
                  // CHECK: exogpu.arrive(cuda_in_order, 1) >> %empty[%cta] >> %empty[:]
                  exogpu.arrive(cuda_in_order, 1) >> %empty[%cta] >> %empty[:] : barrier[2] @CudaMbarrier
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
              exogpu.arrive(cuda_in_order, 1) >> %empty[%cta] >> %empty[:] : barrier[2] @CudaMbarrier
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
                    // CHECK: exogpu.call @Sm90_tma_store_64x32_f32(
                    exogpu.call @Sm90_tma_store_64x32_f32(%C_map[((%m_group * 4 + %m_in_group) * 2 + %cta) * 128 + %wg * 64:((%m_group * 4 + %m_in_group) * 2 + %cta) * 128 + %wg * 64 + 64, %n_task * 256 + %j * 32:%n_task * 256 + %j * 32 + 32], %B_smem[%cta, %wg * 2 + %j / 4, %j mod 4 * 64:%j mod 4 * 64 + 64, :]) : window f32[?, ?] @CudaGmemLinear @Sm90_tensorMap(128, 64, 32), f32[2, 4, 256, 32] @Sm90_SmemSwizzled(128)
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
