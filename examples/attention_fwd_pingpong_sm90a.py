"""Attention forward for Hopper (sm_90a) with FlashAttention-3's
inter-warpgroup ping-pong: the kernels of attention_fwd_sm90a.py (D = 128,
every key and causal) where the two consumer warpgroups take turns issuing
their wgmmas through two mbarriers, turn0 and turn1, so that one
warpgroup's softmax runs while the other's matrix products occupy the
tensor cores. The design and the checks are in the header of
attention_fwd_pingpong_sm90a.mlir.

The Python twin of attention_fwd_pingpong_sm90a.mlir: both give the same
module (test/Python/test_examples.py).
"""

from __future__ import annotations

from exogpu.lang import *
from exogpu.stdlib import sm90a

# Fig. 3: the named warps of each CTA.
warp_config = [
    CudaWarpConfig("producer", 1, 24, 0),
    CudaWarpConfig("unused", 3, 24, 0),
    CudaWarpConfig("consumer", 8, 0, 240)]


@proc
def attention_fwd_d128_pingpong(BH: size, S: size, Q: bf16[BH, S, 128] @ CudaGmemLinear,
                                K: bf16[BH, S, 128] @ CudaGmemLinear,
                                V: bf16[BH, S, 128] @ CudaGmemLinear,
                                O: bf16[BH, S, 128] @ CudaGmemLinear,
                                LSE: f32[BH, S] @ CudaGmemLinear):
    assert S % 128 == 0
    Q_map = Q[:, :, :] @ Sm90_tensorMap(128, 1, 128, 64)
    K_map = K[:, :, :] @ Sm90_tensorMap(128, 1, 128, 64)
    V_map = V[:, :, :] @ Sm90_tensorMap(128, 1, 128, 64)
    O_map = O[:, :, :] @ Sm90_tensorMap(128, 1, 64, 64)
    with CudaDeviceFunction(warp_config=warp_config):
        for bh in cuda_tasks(0, BH):
            for i in cuda_tasks(0, S / 128):
                Q_smem: bf16[2, 128, 64] @ Sm90_SmemSwizzled(128)
                K_smem: bf16[2, 2, 128, 64] @ Sm90_SmemSwizzled(128)
                V_smem: bf16[2, 2, 128, 64] @ Sm90_SmemSwizzled(128)
                S_acc: f32[2, 64, 128] @ Sm90_RmemMatrixD(64, 128)
                O_acc: f32[2, 64, 128] @ Sm90_RmemMatrixD(64, 128)
                P: bf16[2, 8, 64, 16] @ Sm90_RmemMatrixA(64)
                m: f32[2, 128, 2] @ CudaRmem
                corr: f32[2, 128, 2] @ CudaRmem
                bias: f32[2, 128, 2] @ CudaRmem
                l: f32[2, 128, 2] @ CudaRmem
                c: f32[2, 128] @ CudaRmem
                q_full: barrier @ CudaMbarrier
                k_full: barrier @ CudaMbarrier
                k_empty: barrier @ CudaMbarrier
                v_full: barrier @ CudaMbarrier
                v_empty: barrier @ CudaMbarrier
                cg: barrier[2] @ CudaCommitGroup
                store_cg: barrier[2, 1] @ CudaCommitGroup
                turn0: barrier @ CudaMbarrier
                turn1: barrier @ CudaMbarrier

                # Producer: the Q tile of the task.
                with CudaWarps(name="producer"):
                    for t in cuda_threads(0, 1, unit=cuda_thread):
                        for d in seq(0, 2):
                            Sm90_tma_load_3d_1x128x64_bf16(
                                Q_smem[d, :, :],
                                Q_map[bh:bh + 1, i * 128:i * 128 + 128,
                                      d * 64:d * 64 + 64]) >> q_full
                        Arrive(tma_to_smem_async, 1) >> q_full
                # Consumers: two warpgroups, 64 query rows each.
                with CudaWarps(name="consumer"):
                    for wg in cuda_threads(0, 2, unit=cuda_warpgroup):
                        Sm90_zero_d_m64n128_f32(O_acc[wg, :, :])
                        for t in cuda_threads(0, 128, unit=cuda_thread):
                            c[wg, t] = 0.12751743
                            for r in seq(0, 2):
                                m[wg, t, r] = -1.0e30
                                l[wg, t, r] = 0.0
                    Await(q_full, cuda_generic_and_async, ~0)
                # Step 0: load K_0 and V_0; S = Q K_0^T, its softmax, P.
                with CudaWarps(name="producer"):
                    for t in cuda_threads(0, 1, unit=cuda_thread):
                        Await(k_empty, cuda_generic_and_async, ~2)
                        for d in seq(0, 2):
                            Sm90_tma_load_3d_1x128x64_bf16(
                                K_smem[0 % 2, d, :, :],
                                K_map[bh:bh + 1, 0 * 128:0 * 128 + 128,
                                      d * 64:d * 64 + 64]) >> k_full
                        Arrive(tma_to_smem_async, 1) >> k_full
                        Await(v_empty, cuda_generic_and_async, ~2)
                        for d in seq(0, 2):
                            Sm90_tma_load_3d_1x128x64_bf16(
                                V_smem[0 % 2, d, :, :],
                                V_map[bh:bh + 1, 0 * 128:0 * 128 + 128,
                                      d * 64:d * 64 + 64]) >> v_full
                        Arrive(tma_to_smem_async, 1) >> v_full
                with CudaWarps(name="consumer"):
                    Await(k_full, cuda_generic_and_async, ~0)
                    for wg in cuda_threads(0, 2, unit=cuda_warpgroup):
                        Sm90_zero_d_m64n128_f32(S_acc[wg, :, :])
                        Fence(wgmma_fence_1, wgmma_fence_2)
                        for d in seq(0, 2):
                            for kk in seq(0, 4):
                                Sm90_mma_async_bf16_m64n128k16(
                                    S_acc[wg, :, :],
                                    Q_smem[d, wg * 64:wg * 64 + 64, kk * 16:kk * 16 + 16],
                                    K_smem[0 % 2, d, :, kk * 16:kk * 16 + 16])
                        Arrive(wgmma_async, 1) >> cg[wg]
                        Await(cg[wg], cuda_in_order, 0)
                        for t in cuda_threads(0, 128, unit=cuda_thread):
                            for r in seq(0, 2):
                                bias[wg, t, r] = m[wg, t, r]
                        Sm90_row_max_d_m64n128_f32(m[wg, :, :], S_acc[wg, :, :])
                        for t in cuda_threads(0, 128, unit=cuda_thread):
                            for r in seq(0, 2):
                                corr[wg, t, r] = exp2(
                                    (bias[wg, t, r] - m[wg, t, r]) * c[wg, t])
                                bias[wg, t, r] = m[wg, t, r] * c[wg, t]
                                l[wg, t, r] = l[wg, t, r] * corr[wg, t, r]
                        Sm90_exp2_d_m64n128_f32(
                            S_acc[wg, :, :], c[wg, :], bias[wg, :, :])
                        Sm90_row_sum_d_m64n128_f32(l[wg, :, :], S_acc[wg, :, :])
                        for kk in seq(0, 8):
                            Sm90_convert_d_to_a_m64n128_bf16(
                                kk, P[wg, kk, :, :], S_acc[wg, :, :])
                    Arrive(cuda_in_order, 1) >> k_empty
                # Warpgroup 0 takes the first turn of the steps below.
                with CudaWarps(name="consumer"):
                    for wg in cuda_threads(0, 2, unit=cuda_warpgroup):
                        if wg == 1:
                            Arrive(cuda_in_order, 1) >> turn0
                # Step j: load K_j and V_j; issue S = Q K_j^T and O += P V_(j-1);
                # the softmax of S runs while the second wgmma does; then rescale
                # O and make the new P.
                for j in seq(1, S / 128):
                    with CudaWarps(name="producer"):
                        for t in cuda_threads(0, 1, unit=cuda_thread):
                            Await(k_empty, cuda_generic_and_async, ~2)
                            for d in seq(0, 2):
                                Sm90_tma_load_3d_1x128x64_bf16(
                                    K_smem[j % 2, d, :, :],
                                    K_map[bh:bh + 1, j * 128:j * 128 + 128,
                                          d * 64:d * 64 + 64]) >> k_full
                            Arrive(tma_to_smem_async, 1) >> k_full
                            Await(v_empty, cuda_generic_and_async, ~2)
                            for d in seq(0, 2):
                                Sm90_tma_load_3d_1x128x64_bf16(
                                    V_smem[j % 2, d, :, :],
                                    V_map[bh:bh + 1, j * 128:j * 128 + 128,
                                          d * 64:d * 64 + 64]) >> v_full
                            Arrive(tma_to_smem_async, 1) >> v_full
                    with CudaWarps(name="consumer"):
                        Await(k_full, cuda_generic_and_async, ~0)
                        Await(v_full, cuda_generic_and_async, ~0)
                        for wg in cuda_threads(0, 2, unit=cuda_warpgroup):
                            # This warpgroup's turn: the other one has issued its
                            # wgmmas of the step before (or, for warpgroup 0 at
                            # step 1, given the first turn).
                            if wg == 0:
                                Await(turn0, cuda_in_order, ~0)
                            if wg == 1:
                                Await(turn1, cuda_in_order, ~0)
                            for kk in seq(0, 8):
                                Sm90_fence_operand_a_bf16(P[wg, kk, :, :])
                            Sm90_zero_d_m64n128_f32(S_acc[wg, :, :])
                            Fence(wgmma_fence_1, wgmma_fence_2)
                            for d in seq(0, 2):
                                for kk in seq(0, 4):
                                    Sm90_mma_async_bf16_m64n128k16(
                                        S_acc[wg, :, :],
                                        Q_smem[d, wg * 64:wg * 64 + 64,
                                               kk * 16:kk * 16 + 16],
                                        K_smem[j % 2, d, :, kk * 16:kk * 16 + 16])
                            Arrive(wgmma_async, 1) >> cg[wg]
                            Fence(wgmma_fence_1, wgmma_fence_2)
                            for kk in seq(0, 8):
                                Sm90_mma_async_rs_bf16_m64n128k16_nmajor(
                                    O_acc[wg, :, :], P[wg, kk, :, :],
                                    V_smem[(j - 1) % 2, 0:2, kk * 16:kk * 16 + 16, :])
                            Arrive(wgmma_async, 1) >> cg[wg]
                            # The other warpgroup's turn: its wgmmas run while this
                            # one computes the softmax.
                            if wg == 0:
                                Arrive(cuda_in_order, 1) >> turn1
                            if wg == 1:
                                Arrive(cuda_in_order, 1) >> turn0
                            Await(cg[wg], cuda_in_order, 1)
                            for t in cuda_threads(0, 128, unit=cuda_thread):
                                for r in seq(0, 2):
                                    bias[wg, t, r] = m[wg, t, r]
                            Sm90_row_max_d_m64n128_f32(m[wg, :, :], S_acc[wg, :, :])
                            for t in cuda_threads(0, 128, unit=cuda_thread):
                                for r in seq(0, 2):
                                    corr[wg, t, r] = exp2(
                                        (bias[wg, t, r] - m[wg, t, r]) * c[wg, t])
                                    bias[wg, t, r] = m[wg, t, r] * c[wg, t]
                                    l[wg, t, r] = l[wg, t, r] * corr[wg, t, r]
                            Sm90_exp2_d_m64n128_f32(
                                S_acc[wg, :, :], c[wg, :], bias[wg, :, :])
                            Sm90_row_sum_d_m64n128_f32(l[wg, :, :], S_acc[wg, :, :])
                            Await(cg[wg], cuda_in_order, 0)
                            Sm90_scale_d_rows_m64n128_f32(
                                O_acc[wg, :, :], corr[wg, :, :])
                            for kk in seq(0, 8):
                                Sm90_convert_d_to_a_m64n128_bf16(
                                    kk, P[wg, kk, :, :], S_acc[wg, :, :])
                        Arrive(cuda_in_order, 1) >> k_empty
                        Arrive(cuda_in_order, 1) >> v_empty
                with CudaWarps(name="consumer"):
                    # The turn warpgroup 1 passed at the last step.
                    for wg in cuda_threads(0, 2, unit=cuda_warpgroup):
                        if wg == 0:
                            Await(turn0, cuda_in_order, ~0)
                    # The last O += P V.
                    Await(v_full, cuda_generic_and_async, ~0)
                    for wg in cuda_threads(0, 2, unit=cuda_warpgroup):
                        for kk in seq(0, 8):
                            Sm90_fence_operand_a_bf16(P[wg, kk, :, :])
                        Fence(wgmma_fence_1, wgmma_fence_2)
                        for kk in seq(0, 8):
                            Sm90_mma_async_rs_bf16_m64n128k16_nmajor(
                                O_acc[wg, :, :], P[wg, kk, :, :],
                                V_smem[(S / 128 - 1) % 2, 0:2, kk * 16:kk * 16 + 16, :])
                        Arrive(wgmma_async, 1) >> cg[wg]
                        Await(cg[wg], cuda_in_order, 0)
                    Arrive(cuda_in_order, 1) >> v_empty
                    # Epilogue: O / l and the log-sum-exp; O through the Q tile (each
                    # warpgroup read only its own rows) and TMA.
                    for wg in cuda_threads(0, 2, unit=cuda_warpgroup):
                        for t in cuda_threads(0, 128, unit=cuda_thread):
                            for r in seq(0, 2):
                                bias[wg, t, r] = 1.0 / l[wg, t, r]
                                if t % 4 == 0:
                                    LSE[bh,
                                        i * 128 + wg * 64 + t / 32 * 16 + t % 32 / 4 + r * 8] = (
                                        m[wg, t, r] * c[wg, t] + log2(l[wg, t,
                                                                        r])) * 0.6931471805599453
                        Sm90_scale_d_rows_m64n128_f32(O_acc[wg, :, :], bias[wg, :, :])
                        for d in seq(0, 2):
                            Sm90_store_d_m64n128_tile64x64_bf16(
                                d, Q_smem[d, wg * 64:wg * 64 + 64, :], O_acc[wg, :, :])
                        Fence(cuda_in_order, cuda_async_proxy)
                        for t in cuda_threads(0, 1, unit=cuda_thread):
                            for d in seq(0, 2):
                                Sm90_tma_store_3d_1x64x64_bf16(
                                    O_map[bh:bh + 1,
                                          i * 128 + wg * 64:i * 128 + wg * 64 + 64, d * 64:d * 64 + 64],
                                    Q_smem[d, wg * 64:wg * 64 + 64, :])
                            Arrive(tma_to_gmem_async, 1) >> store_cg[wg, t]
                            Await(store_cg[wg, t], cuda_in_order, 0)
                # The compiler frees the tiles and barriers here; the next task
                # reuses their shared memory once every warp is done with them.
                Fence(cuda_generic_and_async, cuda_in_order)


# Head dimension 128, causal: query row r sees keys 0..r.
@proc
def attention_fwd_d128_causal_pingpong(BH: size, S: size, Q: bf16[BH, S, 128] @ CudaGmemLinear,
                                       K: bf16[BH, S, 128] @ CudaGmemLinear,
                                       V: bf16[BH, S, 128] @ CudaGmemLinear,
                                       O: bf16[BH, S, 128] @ CudaGmemLinear,
                                       LSE: f32[BH, S] @ CudaGmemLinear):
    assert S % 128 == 0
    Q_map = Q[:, :, :] @ Sm90_tensorMap(128, 1, 128, 64)
    K_map = K[:, :, :] @ Sm90_tensorMap(128, 1, 128, 64)
    V_map = V[:, :, :] @ Sm90_tensorMap(128, 1, 128, 64)
    O_map = O[:, :, :] @ Sm90_tensorMap(128, 1, 64, 64)
    with CudaDeviceFunction(warp_config=warp_config):
        for bh in cuda_tasks(0, BH):
            for i in cuda_tasks(0, S / 128):
                Q_smem: bf16[2, 128, 64] @ Sm90_SmemSwizzled(128)
                K_smem: bf16[2, 2, 128, 64] @ Sm90_SmemSwizzled(128)
                V_smem: bf16[2, 2, 128, 64] @ Sm90_SmemSwizzled(128)
                S_acc: f32[2, 64, 128] @ Sm90_RmemMatrixD(64, 128)
                O_acc: f32[2, 64, 128] @ Sm90_RmemMatrixD(64, 128)
                P: bf16[2, 8, 64, 16] @ Sm90_RmemMatrixA(64)
                m: f32[2, 128, 2] @ CudaRmem
                corr: f32[2, 128, 2] @ CudaRmem
                bias: f32[2, 128, 2] @ CudaRmem
                l: f32[2, 128, 2] @ CudaRmem
                c: f32[2, 128] @ CudaRmem
                q_full: barrier @ CudaMbarrier
                k_full: barrier @ CudaMbarrier
                k_empty: barrier @ CudaMbarrier
                v_full: barrier @ CudaMbarrier
                v_empty: barrier @ CudaMbarrier
                cg: barrier[2] @ CudaCommitGroup
                store_cg: barrier[2, 1] @ CudaCommitGroup
                turn0: barrier @ CudaMbarrier
                turn1: barrier @ CudaMbarrier

                # Producer: the Q tile of the task.
                with CudaWarps(name="producer"):
                    for t in cuda_threads(0, 1, unit=cuda_thread):
                        for d in seq(0, 2):
                            Sm90_tma_load_3d_1x128x64_bf16(
                                Q_smem[d, :, :],
                                Q_map[bh:bh + 1,
                                      (S / 128 - 1 - i) * 128:(S / 128 - 1 - i) * 128 + 128, d * 64:d * 64 + 64]) >> q_full
                        Arrive(tma_to_smem_async, 1) >> q_full
                # Consumers: two warpgroups, 64 query rows each.
                with CudaWarps(name="consumer"):
                    for wg in cuda_threads(0, 2, unit=cuda_warpgroup):
                        Sm90_zero_d_m64n128_f32(O_acc[wg, :, :])
                        for t in cuda_threads(0, 128, unit=cuda_thread):
                            c[wg, t] = 0.12751743
                            for r in seq(0, 2):
                                m[wg, t, r] = -1.0e30
                                l[wg, t, r] = 0.0
                    Await(q_full, cuda_generic_and_async, ~0)
                # Step 0: load K_0 and V_0; S = Q K_0^T, its softmax, P.
                with CudaWarps(name="producer"):
                    for t in cuda_threads(0, 1, unit=cuda_thread):
                        Await(k_empty, cuda_generic_and_async, ~2)
                        for d in seq(0, 2):
                            Sm90_tma_load_3d_1x128x64_bf16(
                                K_smem[0 % 2, d, :, :],
                                K_map[bh:bh + 1,
                                      (S / 128 - 1 - i - 0) * 128:(S / 128 - 1 - i - 0) * 128 + 128, d * 64:d * 64 + 64]) >> k_full
                        Arrive(tma_to_smem_async, 1) >> k_full
                        Await(v_empty, cuda_generic_and_async, ~2)
                        for d in seq(0, 2):
                            Sm90_tma_load_3d_1x128x64_bf16(
                                V_smem[0 % 2, d, :, :],
                                V_map[bh:bh + 1,
                                      (S / 128 - 1 - i - 0) * 128:(S / 128 - 1 - i - 0) * 128 + 128, d * 64:d * 64 + 64]) >> v_full
                        Arrive(tma_to_smem_async, 1) >> v_full
                with CudaWarps(name="consumer"):
                    Await(k_full, cuda_generic_and_async, ~0)
                    for wg in cuda_threads(0, 2, unit=cuda_warpgroup):
                        Sm90_zero_d_m64n128_f32(S_acc[wg, :, :])
                        Fence(wgmma_fence_1, wgmma_fence_2)
                        for d in seq(0, 2):
                            for kk in seq(0, 4):
                                Sm90_mma_async_bf16_m64n128k16(
                                    S_acc[wg, :, :],
                                    Q_smem[d, wg * 64:wg * 64 + 64, kk * 16:kk * 16 + 16],
                                    K_smem[0 % 2, d, :, kk * 16:kk * 16 + 16])
                        Arrive(wgmma_async, 1) >> cg[wg]
                        Await(cg[wg], cuda_in_order, 0)
                        Sm90_mask_causal_d_m64n128_f32(wg * 64, S_acc[wg, :, :])
                        for t in cuda_threads(0, 128, unit=cuda_thread):
                            for r in seq(0, 2):
                                bias[wg, t, r] = m[wg, t, r]
                        Sm90_row_max_d_m64n128_f32(m[wg, :, :], S_acc[wg, :, :])
                        for t in cuda_threads(0, 128, unit=cuda_thread):
                            for r in seq(0, 2):
                                corr[wg, t, r] = exp2(
                                    (bias[wg, t, r] - m[wg, t, r]) * c[wg, t])
                                bias[wg, t, r] = m[wg, t, r] * c[wg, t]
                                l[wg, t, r] = l[wg, t, r] * corr[wg, t, r]
                        Sm90_exp2_d_m64n128_f32(
                            S_acc[wg, :, :], c[wg, :], bias[wg, :, :])
                        Sm90_row_sum_d_m64n128_f32(l[wg, :, :], S_acc[wg, :, :])
                        for kk in seq(0, 8):
                            Sm90_convert_d_to_a_m64n128_bf16(
                                kk, P[wg, kk, :, :], S_acc[wg, :, :])
                    Arrive(cuda_in_order, 1) >> k_empty
                # Warpgroup 0 takes the first turn of the steps below.
                with CudaWarps(name="consumer"):
                    for wg in cuda_threads(0, 2, unit=cuda_warpgroup):
                        if wg == 1:
                            Arrive(cuda_in_order, 1) >> turn0
                # Step j: load K_j and V_j; issue S = Q K_j^T and O += P V_(j-1);
                # the softmax of S runs while the second wgmma does; then rescale
                # O and make the new P.
                for j in seq(1, S / 128 - i):
                    with CudaWarps(name="producer"):
                        for t in cuda_threads(0, 1, unit=cuda_thread):
                            Await(k_empty, cuda_generic_and_async, ~2)
                            for d in seq(0, 2):
                                Sm90_tma_load_3d_1x128x64_bf16(
                                    K_smem[j % 2, d, :, :],
                                    K_map[bh:bh + 1,
                                          (S / 128 - 1 - i - j) * 128:(S / 128 - 1 - i - j) * 128 + 128, d * 64:d * 64 + 64]) >> k_full
                            Arrive(tma_to_smem_async, 1) >> k_full
                            Await(v_empty, cuda_generic_and_async, ~2)
                            for d in seq(0, 2):
                                Sm90_tma_load_3d_1x128x64_bf16(
                                    V_smem[j % 2, d, :, :],
                                    V_map[bh:bh + 1,
                                          (S / 128 - 1 - i - j) * 128:(S / 128 - 1 - i - j) * 128 + 128, d * 64:d * 64 + 64]) >> v_full
                            Arrive(tma_to_smem_async, 1) >> v_full
                    with CudaWarps(name="consumer"):
                        Await(k_full, cuda_generic_and_async, ~0)
                        Await(v_full, cuda_generic_and_async, ~0)
                        for wg in cuda_threads(0, 2, unit=cuda_warpgroup):
                            # This warpgroup's turn: the other one has issued its
                            # wgmmas of the step before (or, for warpgroup 0 at
                            # step 1, given the first turn).
                            if wg == 0:
                                Await(turn0, cuda_in_order, ~0)
                            if wg == 1:
                                Await(turn1, cuda_in_order, ~0)
                            for kk in seq(0, 8):
                                Sm90_fence_operand_a_bf16(P[wg, kk, :, :])
                            Sm90_zero_d_m64n128_f32(S_acc[wg, :, :])
                            Fence(wgmma_fence_1, wgmma_fence_2)
                            for d in seq(0, 2):
                                for kk in seq(0, 4):
                                    Sm90_mma_async_bf16_m64n128k16(
                                        S_acc[wg, :, :],
                                        Q_smem[d, wg * 64:wg * 64 + 64,
                                               kk * 16:kk * 16 + 16],
                                        K_smem[j % 2, d, :, kk * 16:kk * 16 + 16])
                            Arrive(wgmma_async, 1) >> cg[wg]
                            Fence(wgmma_fence_1, wgmma_fence_2)
                            for kk in seq(0, 8):
                                Sm90_mma_async_rs_bf16_m64n128k16_nmajor(
                                    O_acc[wg, :, :], P[wg, kk, :, :],
                                    V_smem[(j - 1) % 2, 0:2, kk * 16:kk * 16 + 16, :])
                            Arrive(wgmma_async, 1) >> cg[wg]
                            # The other warpgroup's turn: its wgmmas run while this
                            # one computes the softmax.
                            if wg == 0:
                                Arrive(cuda_in_order, 1) >> turn1
                            if wg == 1:
                                Arrive(cuda_in_order, 1) >> turn0
                            Await(cg[wg], cuda_in_order, 1)
                            for t in cuda_threads(0, 128, unit=cuda_thread):
                                for r in seq(0, 2):
                                    bias[wg, t, r] = m[wg, t, r]
                            Sm90_row_max_d_m64n128_f32(m[wg, :, :], S_acc[wg, :, :])
                            for t in cuda_threads(0, 128, unit=cuda_thread):
                                for r in seq(0, 2):
                                    corr[wg, t, r] = exp2(
                                        (bias[wg, t, r] - m[wg, t, r]) * c[wg, t])
                                    bias[wg, t, r] = m[wg, t, r] * c[wg, t]
                                    l[wg, t, r] = l[wg, t, r] * corr[wg, t, r]
                            Sm90_exp2_d_m64n128_f32(
                                S_acc[wg, :, :], c[wg, :], bias[wg, :, :])
                            Sm90_row_sum_d_m64n128_f32(l[wg, :, :], S_acc[wg, :, :])
                            Await(cg[wg], cuda_in_order, 0)
                            Sm90_scale_d_rows_m64n128_f32(
                                O_acc[wg, :, :], corr[wg, :, :])
                            for kk in seq(0, 8):
                                Sm90_convert_d_to_a_m64n128_bf16(
                                    kk, P[wg, kk, :, :], S_acc[wg, :, :])
                        Arrive(cuda_in_order, 1) >> k_empty
                        Arrive(cuda_in_order, 1) >> v_empty
                with CudaWarps(name="consumer"):
                    # The turn warpgroup 1 passed at the last step.
                    for wg in cuda_threads(0, 2, unit=cuda_warpgroup):
                        if wg == 0:
                            Await(turn0, cuda_in_order, ~0)
                    # The last O += P V.
                    Await(v_full, cuda_generic_and_async, ~0)
                    for wg in cuda_threads(0, 2, unit=cuda_warpgroup):
                        for kk in seq(0, 8):
                            Sm90_fence_operand_a_bf16(P[wg, kk, :, :])
                        Fence(wgmma_fence_1, wgmma_fence_2)
                        for kk in seq(0, 8):
                            Sm90_mma_async_rs_bf16_m64n128k16_nmajor(
                                O_acc[wg, :, :], P[wg, kk, :, :],
                                V_smem[(S / 128 - i - 1) % 2, 0:2, kk * 16:kk * 16 + 16,
                                       :])
                        Arrive(wgmma_async, 1) >> cg[wg]
                        Await(cg[wg], cuda_in_order, 0)
                    Arrive(cuda_in_order, 1) >> v_empty
                    # Epilogue: O / l and the log-sum-exp; O through the Q tile (each
                    # warpgroup read only its own rows) and TMA.
                    for wg in cuda_threads(0, 2, unit=cuda_warpgroup):
                        for t in cuda_threads(0, 128, unit=cuda_thread):
                            for r in seq(0, 2):
                                bias[wg, t, r] = 1.0 / l[wg, t, r]
                                if t % 4 == 0:
                                    LSE[bh, (
                                        S / 128 - 1 - i) * 128 + wg * 64 + t / 32 * 16 + t % 32 / 4 + r * 8] = (m[wg,
                                                                                                                  t, r] * c[wg,
                                                                                                                            t] + log2(l[wg,
                                                                                                                                        t, r])) * 0.6931471805599453
                        Sm90_scale_d_rows_m64n128_f32(O_acc[wg, :, :], bias[wg, :, :])
                        for d in seq(0, 2):
                            Sm90_store_d_m64n128_tile64x64_bf16(
                                d, Q_smem[d, wg * 64:wg * 64 + 64, :], O_acc[wg, :, :])
                        Fence(cuda_in_order, cuda_async_proxy)
                        for t in cuda_threads(0, 1, unit=cuda_thread):
                            for d in seq(0, 2):
                                Sm90_tma_store_3d_1x64x64_bf16(
                                    O_map[bh:bh + 1,
                                          (S / 128 - 1 - i) * 128 + wg * 64:(S / 128 - 1 - i) * 128 + wg * 64 + 64, d * 64:d * 64 + 64],
                                    Q_smem[d, wg * 64:wg * 64 + 64, :])
                            Arrive(tma_to_gmem_async, 1) >> store_cg[wg, t]
                            Await(store_cg[wg, t], cuda_in_order, 0)
                # The compiler frees the tiles and barriers here; the next task
                # reuses their shared memory once every warp is done with them.
                Fence(cuda_generic_and_async, cuda_in_order)
