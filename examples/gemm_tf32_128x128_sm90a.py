"""A tf32 GEMM for shapes too small to fill an H100 with the 256 x 256
tiles of examples/gemm_tf32_sm90a.mlir (C = A * B^T, row major: A is
M x K, B is N x K): tiles of 128 x 128, one per CTA (no cluster), and the
K range split in two (docs/performance.md, "Small shapes"):
 * a task is a tile of C and one of the two halves of K, interleaved:
   half s takes the 32-column k-steps s, s + 2, s + 4, ... (the split is a
   constant, so the step index 2 k + s stays quasi-affine, seeds/002
   Fig. 1). 1024^3 gives 64 tiles and 128 tasks, one wave on an H100's
   132 SMs; M = N = 1024, K = 65536 the same, each task 1024 k-steps;
 * the proc zeroes C on its stream first, and each task adds its partial
   tile into C with TMA reduce-adds (atomic per element). With two
   addends per element the result does not depend on their order:
   (0 + a) + b = (0 + b) + a exactly;
 * warp specialization as in gemm_tf32_sm90a: 1 producer warp, 3 unused,
   2 consumer warpgroups, each with a 64 x 128 accumulator (64
   registers per thread) fed by wgmma m64n128k8;
 * a 6-stage TMA ring of 32 KiB stages (a 128 x 32 A tile and a 128 x 32
   B tile, 128-byte swizzled; 192 KiB): `empty` awaited at lag 6 (-7);
 * epilogue: after wait_group 0 and a barrier of the 256 consumer
   threads, warpgroup wg writes its accumulator as four swizzled 64 x 32
   tiles into A stages 2 wg and 2 wg + 1 (conflict-free 8-byte stores),
   fences them to the async proxy, and one thread reduce-adds them into C.
Checked with `--exogpu-sync-check="M=128,N=128,K=128"` (test/Examples).

The Python twin of gemm_tf32_128x128_sm90a.mlir: both give the same module
(test/Python/test_examples.py).

The Python twin of gemm_tf32_128x128_sm90a.mlir: both give the same module
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
def gemm_tf32_128x128_sm90a(M: size, N: size, K: size, A: f32[M, K] @ CudaGmemLinear,
                            B: f32[N, K] @ CudaGmemLinear, C: f32[M, N] @ CudaGmemLinear):
    assert M % 128 == 0 and N % 128 == 0 and K % 64 == 0
    # C = 0 on the stream, before the tasks add their partial tiles.
    cuda_memset_zero_f32(M, N, C)
    A_map = A[:, :] @ Sm90_tensorMap(128, 128, 32)
    B_map = B[:, :] @ Sm90_tensorMap(128, 128, 32)
    C_map = C[:, :] @ Sm90_tensorMap(128, 64, 32)
    with CudaDeviceFunction(warp_config=warp_config):
        for m_task in cuda_tasks(0, M / 128):
            for n_task in cuda_tasks(0, N / 128):
                for s in cuda_tasks(0, 2):
                    A_smem: f32[6, 128, 32] @ Sm90_SmemSwizzled(128)
                    B_smem: f32[6, 128, 32] @ Sm90_SmemSwizzled(128)
                    D: f32[2, 64, 128] @ Sm90_RmemMatrixD(64, 128)
                    full: barrier @ CudaMbarrier
                    empty: barrier @ CudaMbarrier
                    cg: barrier[2] @ CudaCommitGroup
                    store_cg: barrier[2, 1] @ CudaCommitGroup

                    with CudaWarps(name="consumer"):
                        for wg in cuda_threads(0, 2, unit=cuda_warpgroup):
                            Sm90_zero_d_m64n128_f32(D[wg, :, :])

                    for k in seq(0, K / 64):
                        # Producer: k-step 2 k + s of the tile into stage k mod 6.
                        with CudaWarps(name="producer"):
                            for t in cuda_threads(0, 1, unit=cuda_thread):
                                Await(empty, cuda_generic_and_async, ~6)
                                Sm90_tma_load_128x32_f32(
                                    A_smem[k % 6, :, :],
                                    A_map[m_task * 128:m_task * 128 + 128,
                                          (k * 2 + s) * 32:(k * 2 + s) * 32 + 32]) >> full
                                Sm90_tma_load_128x32_f32(
                                    B_smem[k % 6, :, :],
                                    B_map[n_task * 128:n_task * 128 + 128,
                                          (k * 2 + s) * 32:(k * 2 + s) * 32 + 32]) >> full
                                Arrive(tma_to_smem_async, 1) >> full
                        # Consumers: as in gemm_tf32_sm90a, with 64 x 128 accumulators.
                        with CudaWarps(name="consumer"):
                            Await(full, cuda_generic_and_async, ~0)
                            for wg in cuda_threads(0, 2, unit=cuda_warpgroup):
                                Fence(wgmma_fence_1, wgmma_fence_2)
                                for kk in seq(0, 4):
                                    Sm90_mma_async_tf32_m64n128k8(
                                        D[wg, :, :],
                                        A_smem[k % 6, wg * 64:wg * 64 + 64,
                                               kk * 8:kk * 8 + 8],
                                        B_smem[k % 6, :, kk * 8:kk * 8 + 8])
                                Arrive(wgmma_async, 1) >> cg[wg]
                                Await(cg[wg], cuda_in_order, 1)
                            if k > 0:
                                Arrive(cuda_in_order, 1) >> empty

                    # Epilogue: drain, release the last stage, write the
                    # accumulators into the A stages and reduce-add them into C.
                    with CudaWarps(name="consumer"):
                        for wg in cuda_threads(0, 2, unit=cuda_warpgroup):
                            Await(cg[wg], cuda_in_order, 0)
                        Arrive(cuda_in_order, 1) >> empty
                        # Both warpgroups' wgmmas have read the stages before either
                        # overwrites them.
                        Fence(cuda_in_order, cuda_in_order)
                        for wg in cuda_threads(0, 2, unit=cuda_warpgroup):
                            for j in seq(0, 4):
                                Sm90_store_d_m64n128_tile64x32_f32(
                                    j,
                                    A_smem[wg * 2 + j / 2, j % 2 * 64:j % 2 * 64 + 64, :],
                                    D[wg, :, :])
                            Fence(cuda_in_order, cuda_async_proxy)
                            for t in cuda_threads(0, 1, unit=cuda_thread):
                                for j in seq(0, 4):
                                    Sm90_tma_reduce_add_64x32_f32(
                                        C_map[m_task * 128 + wg * 64:m_task * 128 + wg * 64 + 64,
                                              n_task * 128 + j * 32:n_task * 128 + j * 32 + 32],
                                        A_smem[wg * 2 + j / 2, j % 2 * 64:j % 2 * 64 + 64,
                                               :])
                                Arrive(tma_to_gmem_async, 1) >> store_cg[wg, t]
                                Await(store_cg[wg, t], cuda_in_order, 0)
                    # The stages and barriers are freed here: the CTA is done with
                    # them before the next task reuses their shared memory.
                    Fence(cuda_generic_and_async, cuda_in_order)
