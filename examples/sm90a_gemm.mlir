exogpu.import "sm90a"

// A Hopper tf32 GEMM, C = A * B^T (A: M x K, B: N x K, row major), the kernel
// the synchronization-check benchmark times (issue 4):
//  * clusters of 2 CTAs; each cluster computes a 256 x 256 tile of C, each
//    CTA a 128 x 256 tile;
//  * warp specialization: 1 producer warp (40 registers), 3 unused warps, and
//    2 consumer warpgroups (232 registers), blockDim = 384 (paper Fig. 3);
//  * a 4-stage ring of 128-byte-swizzled shared-memory stages filled by TMA:
//    each CTA loads its own 128 x 32 A tile; both CTAs of a cluster use the
//    same 256 x 32 B tile, so each loads one 128-row half of it and
//    multicasts it into both CTAs' stage (as the paper's kernel and CUTLASS
//    do: B multicast along M, the cluster's dimension);
//  * `full` mbarriers (TMA completion, producer -> consumers; each CTA's
//    counts its A tile and both B halves) and `empty` mbarriers (stage
//    release, consumers -> producers) with ring lag 4 (`-5` = ~4, guide
//    "Queue Barrier"); both producers write into every CTA's B stage, so the
//    consumers release a stage to both (multicast arrive
//    `>> empty[cta] >> empty[:]`);
//  * wgmma m64n256k8 per consumer warpgroup after a wgmma.fence, one commit
//    group in flight;
//  * the timelines say exactly what each side needs, which is what keeps
//    the pipeline full once translated (docs/cuda-translation.md
//    "Synchronization"): consumers await a stage on cuda_generic_and_async
//    (the TMA bytes become visible to their wgmmas and to in-order code), and
//    release the previous stage with Arrive(cuda_in_order): after
//    `await(cg, .., 1)` the wgmmas that read that stage are complete and
//    in order, while the wgmmas just issued keep running. An
//    Arrive(cuda_generic_and_async) would also order those pending wgmmas
//    and so lower to wgmma.wait_group 0 before every release;
//  * a cluster-wide fence at the end of each task, so the compiler's frees
//    of the stages and barriers are safe (the next task reuses them).
// Frees are not written: the compiler inserts them (paper Sec. 3.4).
// Passes `--exogpu-sync-check`; test/SyncCheck has its seeded bugs.

// CHECK-LABEL: exogpu.proc @gemm_sm90a(
exogpu.proc @gemm_sm90a(%M: size, %N: size, %K: size,
    %A: f32[%M, %K] @CudaGmemLinear, %B: f32[%N, %K] @CudaGmemLinear,
    %C: f32[%M, %N] @CudaGmemLinear)
    requires %M mod 256 == 0 and %N mod 256 == 0 and %K mod 32 == 0 {
  // CHECK: exogpu.window %A[:, :] @Sm90_tensorMap(128, 128, 32)
  %A_map = exogpu.window %A[:, :] @Sm90_tensorMap(128, 128, 32) : f32[?, ?] @CudaGmemLinear
  %B_map = exogpu.window %B[:, :] @Sm90_tensorMap(128, 128, 32) : f32[?, ?] @CudaGmemLinear
  // CHECK: exogpu.device_function(clusterDim = 2, warps = ["producer" = (1, 40, 0), "unused" = (3, 40, 0), "consumer" = (8, 0, 232)])
  exogpu.device_function(clusterDim = 2, warps = ["producer" = (1, 40, 0), "unused" = (3, 40, 0), "consumer" = (8, 0, 232)]) {
    exogpu.for %m_task in cuda_tasks(0, %M / 256) {
      exogpu.for %n_task in cuda_tasks(0, %N / 256) {
        %A_smem = exogpu.alloc f32[2, 4, 128, 32] @Sm90_SmemSwizzled(128)
        %B_smem = exogpu.alloc f32[2, 4, 256, 32] @Sm90_SmemSwizzled(128)
        %D = exogpu.alloc f32[2, 2, 64, 256] @Sm90_RmemMatrixD(64, 256)
        %full = exogpu.alloc barrier[2] @CudaMbarrier
        %empty = exogpu.alloc barrier[2] @CudaMbarrier
        %cg = exogpu.alloc barrier[2, 2] @CudaCommitGroup

        exogpu.warps "consumer" {
          exogpu.for %cta in cuda_threads(0, 2, unit = cuda_cta_in_cluster) {
            exogpu.for %wg in cuda_threads(0, 2, unit = cuda_warpgroup) {
              exogpu.call @Sm90_zero_d_m64n256_f32(%D[%cta, %wg, :, :]) : f32[2, 2, 64, 256] @Sm90_RmemMatrixD(64, 256)
            }
          }
        }

        // CHECK: exogpu.for %k in seq(0, %K / 32)
        exogpu.for %k in seq(0, %K / 32) {
          // Producer: wait until the consumers of both CTAs released the
          // stage, load the A tile and multicast this CTA's half of the B
          // tile into it, and arrive at the stage's full barrier (the
          // expect-tx of the A tile and both B halves).
          exogpu.warps "producer" {
            exogpu.for %cta in cuda_threads(0, 2, unit = cuda_cta_in_cluster) {
              exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
                // CHECK: exogpu.await(%empty[%cta], cuda_generic_and_async, -5)
                exogpu.await(%empty[%cta], cuda_generic_and_async, -5) : barrier[2] @CudaMbarrier
                exogpu.call @Sm90_tma_load_128x32_f32(%A_smem[%cta, %k mod 4, :, :], %A_map[(%m_task * 2 + %cta) * 128:(%m_task * 2 + %cta) * 128 + 128, %k * 32:%k * 32 + 32]) >> %full[%cta] : f32[2, 4, 128, 32] @Sm90_SmemSwizzled(128), window f32[?, ?] @CudaGmemLinear @Sm90_tensorMap(128, 128, 32), barrier[2] @CudaMbarrier
                // CHECK: exogpu.call @Sm90_tma_multicast_load_128x32_f32(%B_smem[:, %k mod 4, %cta * 128:%cta * 128 + 128, :], %B_map[%n_task * 256 + %cta * 128:%n_task * 256 + %cta * 128 + 128, %k * 32:%k * 32 + 32]) >> %full[:]
                exogpu.call @Sm90_tma_multicast_load_128x32_f32(%B_smem[:, %k mod 4, %cta * 128:%cta * 128 + 128, :], %B_map[%n_task * 256 + %cta * 128:%n_task * 256 + %cta * 128 + 128, %k * 32:%k * 32 + 32]) >> %full[:] : f32[2, 4, 256, 32] @Sm90_SmemSwizzled(128), window f32[?, ?] @CudaGmemLinear @Sm90_tensorMap(128, 128, 32), barrier[2] @CudaMbarrier
                // CHECK: exogpu.arrive(tma_to_smem_async, 1) >> %full[%cta]
                exogpu.arrive(tma_to_smem_async, 1) >> %full[%cta] : barrier[2] @CudaMbarrier
              }
            }
          }
          // Consumers: wait for the stage (both warpgroups of a CTA), issue
          // wgmma, keep one commit group in flight per warpgroup, and release
          // the previous iteration's stage to the producers of both CTAs
          // (only completed accesses: cuda_in_order).
          exogpu.warps "consumer" {
            exogpu.for %cta in cuda_threads(0, 2, unit = cuda_cta_in_cluster) {
              exogpu.await(%full[%cta], cuda_generic_and_async, -1) : barrier[2] @CudaMbarrier
              exogpu.for %wg in cuda_threads(0, 2, unit = cuda_warpgroup) {
                // wgmma.fence: the accumulator's in-order writes (zeroing)
                // and earlier wgmma accesses are ordered before the wgmma
                // reads them (Fig. 16 wgmma_fence_1 / wgmma_fence_2).
                // CHECK: exogpu.fence(wgmma_fence_1, wgmma_fence_2)
                exogpu.fence(wgmma_fence_1, wgmma_fence_2)
                exogpu.for %kk in seq(0, 4) {
                  // CHECK: exogpu.call @Sm90_mma_async_tf32_m64n256k8(%D[%cta, %wg, :, :], %A_smem[%cta, %k mod 4, %wg * 64:%wg * 64 + 64, %kk * 8:%kk * 8 + 8], %B_smem[%cta, %k mod 4, :, %kk * 8:%kk * 8 + 8])
                  exogpu.call @Sm90_mma_async_tf32_m64n256k8(%D[%cta, %wg, :, :], %A_smem[%cta, %k mod 4, %wg * 64:%wg * 64 + 64, %kk * 8:%kk * 8 + 8], %B_smem[%cta, %k mod 4, :, %kk * 8:%kk * 8 + 8]) : f32[2, 2, 64, 256] @Sm90_RmemMatrixD(64, 256), f32[2, 4, 128, 32] @Sm90_SmemSwizzled(128), f32[2, 4, 256, 32] @Sm90_SmemSwizzled(128)
                }
                exogpu.arrive(wgmma_async, 1) >> %cg[%cta, %wg] : barrier[2, 2] @CudaCommitGroup
                exogpu.await(%cg[%cta, %wg], cuda_in_order, 1) : barrier[2, 2] @CudaCommitGroup
              }
              exogpu.if %k > 0 {
                // CHECK: exogpu.arrive(cuda_in_order, 1) >> %empty[%cta] >> %empty[:]
                exogpu.arrive(cuda_in_order, 1) >> %empty[%cta] >> %empty[:] : barrier[2] @CudaMbarrier
              }
            }
          }
        }

        // Drain the last commit group, store the accumulators and release
        // the last stage (so arrive and await counts match when the
        // barriers are freed).
        exogpu.warps "consumer" {
          exogpu.for %cta in cuda_threads(0, 2, unit = cuda_cta_in_cluster) {
            exogpu.for %wg in cuda_threads(0, 2, unit = cuda_warpgroup) {
              exogpu.await(%cg[%cta, %wg], cuda_in_order, 0) : barrier[2, 2] @CudaCommitGroup
              // CHECK: exogpu.call @Sm90_store_d_m64n256_f32[%N](
              exogpu.call @Sm90_store_d_m64n256_f32[%N](%C[(%m_task * 2 + %cta) * 128 + %wg * 64:(%m_task * 2 + %cta) * 128 + %wg * 64 + 64, %n_task * 256:%n_task * 256 + 256], %D[%cta, %wg, :, :]) : f32[?, ?] @CudaGmemLinear, f32[2, 2, 64, 256] @Sm90_RmemMatrixD(64, 256)
            }
            exogpu.arrive(cuda_in_order, 1) >> %empty[%cta] >> %empty[:] : barrier[2] @CudaMbarrier
          }
        }
        // The compiler frees the stages and barriers here and the next task
        // reuses their shared memory: the whole cluster must be done with
        // them first (barrier.cluster; Sec. 4.2 "Shared Memory Allocations").
        // CHECK: exogpu.fence(cuda_generic_and_async, cuda_in_order)
        exogpu.fence(cuda_generic_and_async, cuda_in_order)
      }
    }
  }
}
