"""The bf16 GEMM of the benchmark (bench/kernels.py, docs/performance.md):
C = A * B^T with bf16 A: M x K, B: N x K and C: M x N, row major, fp32
accumulation (cublasGemmEx with bf16 A, B, C and CUBLAS_COMPUTE_32F, "TN"
layout), for an H100 (sm_90a). The structure of the tf32 kernel
(examples/gemm_tf32_sm90a.mlir, whose header gives the reasons) with
16-bit operands:
 * persistent, 2-CTA clusters, a 256 x 256 tile of C per task and
   128 x 256 per CTA, tasks in (m_group, n, m_in_group) order for L2
   reuse;
 * 1 producer warp + 3 unused warps (40 registers) and 2 consumer
   warpgroups (232 registers), blockDim = 384;
 * a 4-stage ring of 128-byte-swizzled stages, K = 64 per stage (128-byte
   rows of bf16): a 128 x 64 A tile and a 256 x 64 B tile, 48 KiB a
   stage; full / empty mbarriers with await lags 0 and 4;
 * 4 wgmma m64n256k16 (bf16 in, f32 accumulate) per stage and warpgroup,
   wait_group 1 and the release of the previous stage on cuda_in_order;
 * epilogue: each warpgroup rounds its accumulator to bf16 into four
   swizzled 64 x 64 tiles in B stage wg (32 KiB), fences them to the
   async proxy and one thread stores them with four TMA stores;
 * a cluster-wide fence at the end of each task (the frees of the stages).
Frees are not written: the compiler inserts them (seeds/002 Sec. 3.4).
Checked with `--exogpu-sync-check="M=1024,N=256,K=512"` (test/Examples).

The Python twin of gemm_bf16_sm90a.mlir: both give the same module
(test/Python/test_examples.py).
"""

from __future__ import annotations

from exogpu.lang import *
from exogpu.stdlib import sm90a

# Fig. 3: the named warps of each CTA.
warp_config = [
    CudaWarpConfig("producer", 1, 40, 0),
    CudaWarpConfig("unused", 3, 40, 0),
    CudaWarpConfig("consumer", 8, 0, 232)]


@proc
def gemm_bf16_sm90a(M: size, N: size, K: size, A: bf16[M, K] @ CudaGmemLinear,
                    B: bf16[N, K] @ CudaGmemLinear, C: bf16[M, N] @ CudaGmemLinear):
    assert M % 1024 == 0 and N % 256 == 0 and K % 64 == 0
    A_map = A[:, :] @ Sm90_tensorMap(128, 128, 64)
    B_map = B[:, :] @ Sm90_tensorMap(128, 256, 64)
    C_map = C[:, :] @ Sm90_tensorMap(128, 64, 64)
    with CudaDeviceFunction(clusterDim=2, warp_config=warp_config):
        for m_group in cuda_tasks(0, M / 1024):
            for n_task in cuda_tasks(0, N / 256):
                for m_in_group in cuda_tasks(0, 4):
                    A_smem: bf16[2, 4, 128, 64] @ Sm90_SmemSwizzled(128)
                    B_smem: bf16[2, 4, 256, 64] @ Sm90_SmemSwizzled(128)
                    D: f32[2, 2, 64, 256] @ Sm90_RmemMatrixD(64, 256)
                    full: barrier[2] @ CudaMbarrier
                    empty: barrier[2] @ CudaMbarrier
                    cg: barrier[2, 2] @ CudaCommitGroup
                    store_cg: barrier[2, 2, 1] @ CudaCommitGroup

                    with CudaWarps(name="consumer"):
                        for cta in cuda_threads(0, 2, unit=cuda_cta_in_cluster):
                            for wg in cuda_threads(0, 2, unit=cuda_warpgroup):
                                Sm90_zero_d_m64n256_f32(D[cta, wg, :, :])

                    for k in seq(0, K / 64):
                        # Producer: wait until the consumers released the stage, load
                        # the A and B tiles into it, arrive at its full barrier.
                        with CudaWarps(name="producer"):
                            for cta in cuda_threads(0, 2, unit=cuda_cta_in_cluster):
                                for t in cuda_threads(0, 1, unit=cuda_thread):
                                    Await(empty[cta], cuda_generic_and_async, ~4)
                                    Sm90_tma_load_128x64_bf16(
                                        A_smem[cta, k % 4, :, :],
                                        A_map[((m_group * 4 + m_in_group) * 2 + cta) * 128:((m_group * 4 + m_in_group) * 2 + cta) * 128 + 128,
                                              k * 64:k * 64 + 64]) >> full[cta]
                                    Sm90_tma_load_256x64_bf16(
                                        B_smem[cta, k % 4, :, :],
                                        B_map[n_task * 256:n_task * 256 + 256,
                                              k * 64:k * 64 + 64]) >> full[cta]
                                    Arrive(tma_to_smem_async, 1) >> full[cta]
                        # Consumers: wait for the stage, issue the wgmmas of both
                        # warpgroups, keep one commit group in flight per warpgroup, and
                        # release the previous iteration's stage to the producer.
                        with CudaWarps(name="consumer"):
                            for cta in cuda_threads(0, 2, unit=cuda_cta_in_cluster):
                                Await(full[cta], cuda_generic_and_async, ~0)
                                for wg in cuda_threads(0, 2, unit=cuda_warpgroup):
                                    Fence(wgmma_fence_1, wgmma_fence_2)
                                    for kk in seq(0, 4):
                                        Sm90_mma_async_bf16_m64n256k16(
                                            D[cta, wg, :, :],
                                            A_smem[cta, k % 4, wg * 64:wg * 64 + 64,
                                                   kk * 16:kk * 16 + 16],
                                            B_smem[cta, k % 4, :, kk * 16:kk * 16 + 16])
                                    Arrive(wgmma_async, 1) >> cg[cta, wg]
                                    Await(cg[cta, wg], cuda_in_order, 1)
                                if k > 0:
                                    Arrive(cuda_in_order, 1) >> empty[cta]

                    # Epilogue: drain the wgmmas, release the last stage (arrive and
                    # await counts match when the barriers are freed), write the
                    # accumulators into the B stages and store them with TMA.
                    with CudaWarps(name="consumer"):
                        for cta in cuda_threads(0, 2, unit=cuda_cta_in_cluster):
                            for wg in cuda_threads(0, 2, unit=cuda_warpgroup):
                                Await(cg[cta, wg], cuda_in_order, 0)
                            Arrive(cuda_in_order, 1) >> empty[cta]
                            # Both warpgroups' wgmmas have read the B stages before either
                            # overwrites them (a named barrier of the 256 consumer threads).
                            Fence(cuda_in_order, cuda_in_order)
                            for wg in cuda_threads(0, 2, unit=cuda_warpgroup):
                                for j in seq(0, 4):
                                    Sm90_store_d_m64n256_tile64x64_bf16(
                                        j, B_smem[cta, wg, j * 64:j * 64 + 64, :],
                                        D[cta, wg, :, :])
                                Fence(cuda_in_order, cuda_async_proxy)
                                for t in cuda_threads(0, 1, unit=cuda_thread):
                                    for j in seq(0, 4):
                                        Sm90_tma_store_64x64_bf16(
                                            C_map[((m_group * 4 + m_in_group) * 2 + cta) * 128 + wg * 64:((m_group * 4 + m_in_group) * 2 + cta) * 128 + wg * 64 + 64,
                                                  n_task * 256 + j * 64:n_task * 256 + j * 64 + 64],
                                            B_smem[cta, wg, j * 64:j * 64 + 64, :])
                                    Arrive(tma_to_gmem_async, 1) >> store_cg[cta, wg, t]
                                    Await(store_cg[cta, wg, t], cuda_in_order, 0)
                    # The compiler frees the stages and barriers here and the next
                    # task reuses their shared memory: the whole cluster must be done
                    # with them first (barrier.cluster, after the TMA stores' wait).
                    Fence(cuda_generic_and_async, cuda_in_order)
