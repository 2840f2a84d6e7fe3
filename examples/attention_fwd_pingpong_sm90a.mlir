exogpu.import "sm90a"

// Attention forward for Hopper (sm_90a) with FlashAttention-3's
// inter-warpgroup ping-pong: the kernels of examples/attention_fwd_sm90a.mlir
// (D = 128, every key and causal; same tiles, warps, rings and intra-
// warpgroup overlap: see that file) where the two consumer warpgroups take
// turns issuing their wgmmas, so that one warpgroup's softmax runs while the
// other's matrix products occupy the tensor cores (FA3's authors report
// 570 -> 620 TFLOP/s from it at head dimension 128).
//
// The turns are two mbarriers, %turn0 and %turn1 (FA3 uses named barriers:
// bar.sync / bar.arrive): at step j, warpgroup w awaits its own, issues
// S = Q K_j^T and O += P_(j-1) V_(j-1), and arrives on the other's;
// then it waits for S, computes the softmax, waits for O and rescales it.
// Warpgroup 1 arrives on %turn0 once before the steps (warpgroup 0 goes
// first) and warpgroup 0 awaits it once after them (the turn passed at the
// last step), so every arrive has its await. Both K_j and V_(j-1) are
// awaited before the turn (the products of one turn need both).
//
// The turns order no data: they are synchronization the check verifies
// like any other (a turn that never comes is a hang it reports), and the
// sequential meaning is that of the kernels without them, which equals the
// naive twins (examples/reference/attention.mlir).
// Checked by test/Examples/attention_fwd_pingpong_sm90a.test; timed next to
// the kernels without turns by bench/attention.py.

// Head dimension 128, every key.
// CHECK-LABEL: exogpu.proc @attention_fwd_d128_pingpong(
// CHECK-SAME: requires %S mod 128 == 0
exogpu.proc @attention_fwd_d128_pingpong(%BH: size, %S: size,
    %Q: bf16[%BH, %S, 128] @CudaGmemLinear, %K: bf16[%BH, %S, 128] @CudaGmemLinear,
    %V: bf16[%BH, %S, 128] @CudaGmemLinear, %O: bf16[%BH, %S, 128] @CudaGmemLinear,
    %LSE: f32[%BH, %S] @CudaGmemLinear)
    requires %S mod 128 == 0 {
  %Q_map = exogpu.window %Q[:, :, :] @Sm90_tensorMap(128, 1, 128, 64) : bf16[?, ?, 128] @CudaGmemLinear
  %K_map = exogpu.window %K[:, :, :] @Sm90_tensorMap(128, 1, 128, 64) : bf16[?, ?, 128] @CudaGmemLinear
  %V_map = exogpu.window %V[:, :, :] @Sm90_tensorMap(128, 1, 128, 64) : bf16[?, ?, 128] @CudaGmemLinear
  %O_map = exogpu.window %O[:, :, :] @Sm90_tensorMap(128, 1, 64, 64) : bf16[?, ?, 128] @CudaGmemLinear
  // CHECK: exogpu.device_function(warps = ["producer" = (1, 24, 0), "unused" = (3, 24, 0), "consumer" = (8, 0, 240)])
  exogpu.device_function(warps = ["producer" = (1, 24, 0), "unused" = (3, 24, 0), "consumer" = (8, 0, 240)]) {
    exogpu.for %bh in cuda_tasks(0, %BH) {
      exogpu.for %i in cuda_tasks(0, %S / 128) {
        %Q_smem = exogpu.alloc bf16[2, 128, 64] @Sm90_SmemSwizzled(128)
        %K_smem = exogpu.alloc bf16[2, 2, 128, 64] @Sm90_SmemSwizzled(128)
        %V_smem = exogpu.alloc bf16[2, 2, 128, 64] @Sm90_SmemSwizzled(128)
        %S_acc = exogpu.alloc f32[2, 64, 128] @Sm90_RmemMatrixD(64, 128)
        %O_acc = exogpu.alloc f32[2, 64, 128] @Sm90_RmemMatrixD(64, 128)
        %P = exogpu.alloc bf16[2, 8, 64, 16] @Sm90_RmemMatrixA(64)
        %m = exogpu.alloc f32[2, 128, 2] @CudaRmem
        %corr = exogpu.alloc f32[2, 128, 2] @CudaRmem
        %bias = exogpu.alloc f32[2, 128, 2] @CudaRmem
        %l = exogpu.alloc f32[2, 128, 2] @CudaRmem
        %c = exogpu.alloc f32[2, 128] @CudaRmem
        %q_full = exogpu.alloc barrier @CudaMbarrier
        %k_full = exogpu.alloc barrier @CudaMbarrier
        %k_empty = exogpu.alloc barrier @CudaMbarrier
        %v_full = exogpu.alloc barrier @CudaMbarrier
        %v_empty = exogpu.alloc barrier @CudaMbarrier
        %cg = exogpu.alloc barrier[2] @CudaCommitGroup
        %store_cg = exogpu.alloc barrier[2, 1] @CudaCommitGroup
        %turn0 = exogpu.alloc barrier @CudaMbarrier
        %turn1 = exogpu.alloc barrier @CudaMbarrier

        // Producer: the Q tile of the task.
        exogpu.warps "producer" {
          exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
            exogpu.for %d in seq(0, 2) {
              exogpu.call @Sm90_tma_load_3d_1x128x64_bf16(%Q_smem[%d, :, :], %Q_map[%bh:%bh + 1, %i * 128:%i * 128 + 128, %d * 64:%d * 64 + 64]) >> %q_full : bf16[2, 128, 64] @Sm90_SmemSwizzled(128), window bf16[?, ?, 128] @CudaGmemLinear @Sm90_tensorMap(128, 1, 128, 64), barrier @CudaMbarrier
            }
            exogpu.arrive(tma_to_smem_async, 1) >> %q_full : barrier @CudaMbarrier
          }
        }
        // Consumers: two warpgroups, 64 query rows each.
        exogpu.warps "consumer" {
          exogpu.for %wg in cuda_threads(0, 2, unit = cuda_warpgroup) {
            exogpu.call @Sm90_zero_d_m64n128_f32(%O_acc[%wg, :, :]) : f32[2, 64, 128] @Sm90_RmemMatrixD(64, 128)
            exogpu.for %t in cuda_threads(0, 128, unit = cuda_thread) {
              exogpu.assign %c[%wg, %t] = 0.12751743 : f32[2, 128] @CudaRmem
              exogpu.for %r in seq(0, 2) {
                exogpu.assign %m[%wg, %t, %r] = -1.0e30 : f32[2, 128, 2] @CudaRmem
                exogpu.assign %l[%wg, %t, %r] = 0.0 : f32[2, 128, 2] @CudaRmem
              }
            }
          }
          exogpu.await(%q_full, cuda_generic_and_async, -1) : barrier @CudaMbarrier
        }
        // Step 0: load K_0 and V_0; S = Q K_0^T, its softmax, P.
        exogpu.warps "producer" {
          exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
            exogpu.await(%k_empty, cuda_generic_and_async, -3) : barrier @CudaMbarrier
            exogpu.for %d in seq(0, 2) {
              exogpu.call @Sm90_tma_load_3d_1x128x64_bf16(%K_smem[0 mod 2, %d, :, :], %K_map[%bh:%bh + 1, 0 * 128:0 * 128 + 128, %d * 64:%d * 64 + 64]) >> %k_full : bf16[2, 2, 128, 64] @Sm90_SmemSwizzled(128), window bf16[?, ?, 128] @CudaGmemLinear @Sm90_tensorMap(128, 1, 128, 64), barrier @CudaMbarrier
            }
            exogpu.arrive(tma_to_smem_async, 1) >> %k_full : barrier @CudaMbarrier
            exogpu.await(%v_empty, cuda_generic_and_async, -3) : barrier @CudaMbarrier
            exogpu.for %d in seq(0, 2) {
              exogpu.call @Sm90_tma_load_3d_1x128x64_bf16(%V_smem[0 mod 2, %d, :, :], %V_map[%bh:%bh + 1, 0 * 128:0 * 128 + 128, %d * 64:%d * 64 + 64]) >> %v_full : bf16[2, 2, 128, 64] @Sm90_SmemSwizzled(128), window bf16[?, ?, 128] @CudaGmemLinear @Sm90_tensorMap(128, 1, 128, 64), barrier @CudaMbarrier
            }
            exogpu.arrive(tma_to_smem_async, 1) >> %v_full : barrier @CudaMbarrier
          }
        }
        exogpu.warps "consumer" {
          exogpu.await(%k_full, cuda_generic_and_async, -1) : barrier @CudaMbarrier
          exogpu.for %wg in cuda_threads(0, 2, unit = cuda_warpgroup) {
            exogpu.call @Sm90_zero_d_m64n128_f32(%S_acc[%wg, :, :]) : f32[2, 64, 128] @Sm90_RmemMatrixD(64, 128)
            exogpu.fence(wgmma_fence_1, wgmma_fence_2)
            exogpu.for %d in seq(0, 2) {
              exogpu.for %kk in seq(0, 4) {
                exogpu.call @Sm90_mma_async_bf16_m64n128k16(%S_acc[%wg, :, :], %Q_smem[%d, %wg * 64:%wg * 64 + 64, %kk * 16:%kk * 16 + 16], %K_smem[0 mod 2, %d, :, %kk * 16:%kk * 16 + 16]) : f32[2, 64, 128] @Sm90_RmemMatrixD(64, 128), bf16[2, 128, 64] @Sm90_SmemSwizzled(128), bf16[2, 2, 128, 64] @Sm90_SmemSwizzled(128)
              }
            }
            exogpu.arrive(wgmma_async, 1) >> %cg[%wg] : barrier[2] @CudaCommitGroup
            exogpu.await(%cg[%wg], cuda_in_order, 0) : barrier[2] @CudaCommitGroup
            exogpu.for %t in cuda_threads(0, 128, unit = cuda_thread) {
              exogpu.for %r in seq(0, 2) {
                exogpu.assign %bias[%wg, %t, %r] = %m[%wg, %t, %r] : f32[2, 128, 2] @CudaRmem, f32[2, 128, 2] @CudaRmem
              }
            }
            exogpu.call @Sm90_row_max_d_m64n128_f32(%m[%wg, :, :], %S_acc[%wg, :, :]) : f32[2, 128, 2] @CudaRmem, f32[2, 64, 128] @Sm90_RmemMatrixD(64, 128)
            exogpu.for %t in cuda_threads(0, 128, unit = cuda_thread) {
              exogpu.for %r in seq(0, 2) {
                exogpu.assign %corr[%wg, %t, %r] = exp2((%bias[%wg, %t, %r] - %m[%wg, %t, %r]) * %c[%wg, %t]) : f32[2, 128, 2] @CudaRmem, f32[2, 128, 2] @CudaRmem, f32[2, 128, 2] @CudaRmem, f32[2, 128] @CudaRmem
                exogpu.assign %bias[%wg, %t, %r] = %m[%wg, %t, %r] * %c[%wg, %t] : f32[2, 128, 2] @CudaRmem, f32[2, 128, 2] @CudaRmem, f32[2, 128] @CudaRmem
                exogpu.assign %l[%wg, %t, %r] = %l[%wg, %t, %r] * %corr[%wg, %t, %r] : f32[2, 128, 2] @CudaRmem, f32[2, 128, 2] @CudaRmem
              }
            }
            exogpu.call @Sm90_exp2_d_m64n128_f32(%S_acc[%wg, :, :], %c[%wg, :], %bias[%wg, :, :]) : f32[2, 64, 128] @Sm90_RmemMatrixD(64, 128), f32[2, 128] @CudaRmem, f32[2, 128, 2] @CudaRmem
            exogpu.call @Sm90_row_sum_d_m64n128_f32(%l[%wg, :, :], %S_acc[%wg, :, :]) : f32[2, 128, 2] @CudaRmem, f32[2, 64, 128] @Sm90_RmemMatrixD(64, 128)
            exogpu.for %kk in seq(0, 8) {
              exogpu.call @Sm90_convert_d_to_a_m64n128_bf16[%kk](%P[%wg, %kk, :, :], %S_acc[%wg, :, :]) : bf16[2, 8, 64, 16] @Sm90_RmemMatrixA(64), f32[2, 64, 128] @Sm90_RmemMatrixD(64, 128)
            }
          }
          exogpu.arrive(cuda_in_order, 1) >> %k_empty : barrier @CudaMbarrier
        }
        // Warpgroup 0 takes the first turn of the steps below.
        exogpu.warps "consumer" {
          exogpu.for %wg in cuda_threads(0, 2, unit = cuda_warpgroup) {
            exogpu.if %wg == 1 {
              exogpu.arrive(cuda_in_order, 1) >> %turn0 : barrier @CudaMbarrier
            }
          }
        }
        // Step j: load K_j and V_j; issue S = Q K_j^T and O += P V_(j-1);
        // the softmax of S runs while the second wgmma does; then rescale
        // O and make the new P.
        exogpu.for %j in seq(1, %S / 128) {
          exogpu.warps "producer" {
            exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
              exogpu.await(%k_empty, cuda_generic_and_async, -3) : barrier @CudaMbarrier
              exogpu.for %d in seq(0, 2) {
                exogpu.call @Sm90_tma_load_3d_1x128x64_bf16(%K_smem[%j mod 2, %d, :, :], %K_map[%bh:%bh + 1, %j * 128:%j * 128 + 128, %d * 64:%d * 64 + 64]) >> %k_full : bf16[2, 2, 128, 64] @Sm90_SmemSwizzled(128), window bf16[?, ?, 128] @CudaGmemLinear @Sm90_tensorMap(128, 1, 128, 64), barrier @CudaMbarrier
              }
              exogpu.arrive(tma_to_smem_async, 1) >> %k_full : barrier @CudaMbarrier
              exogpu.await(%v_empty, cuda_generic_and_async, -3) : barrier @CudaMbarrier
              exogpu.for %d in seq(0, 2) {
                exogpu.call @Sm90_tma_load_3d_1x128x64_bf16(%V_smem[%j mod 2, %d, :, :], %V_map[%bh:%bh + 1, %j * 128:%j * 128 + 128, %d * 64:%d * 64 + 64]) >> %v_full : bf16[2, 2, 128, 64] @Sm90_SmemSwizzled(128), window bf16[?, ?, 128] @CudaGmemLinear @Sm90_tensorMap(128, 1, 128, 64), barrier @CudaMbarrier
              }
              exogpu.arrive(tma_to_smem_async, 1) >> %v_full : barrier @CudaMbarrier
            }
          }
          exogpu.warps "consumer" {
            exogpu.await(%k_full, cuda_generic_and_async, -1) : barrier @CudaMbarrier
            exogpu.await(%v_full, cuda_generic_and_async, -1) : barrier @CudaMbarrier
            exogpu.for %wg in cuda_threads(0, 2, unit = cuda_warpgroup) {
              // This warpgroup's turn: the other one has issued its
              // wgmmas of the step before (or, for warpgroup 0 at
              // step 1, given the first turn).
              // CHECK: exogpu.await(%turn0[], cuda_in_order, -1)
              exogpu.if %wg == 0 {
                exogpu.await(%turn0, cuda_in_order, -1) : barrier @CudaMbarrier
              }
              exogpu.if %wg == 1 {
                exogpu.await(%turn1, cuda_in_order, -1) : barrier @CudaMbarrier
              }
              exogpu.for %kk in seq(0, 8) {
                exogpu.call @Sm90_fence_operand_a_bf16(%P[%wg, %kk, :, :]) : bf16[2, 8, 64, 16] @Sm90_RmemMatrixA(64)
              }
              exogpu.call @Sm90_zero_d_m64n128_f32(%S_acc[%wg, :, :]) : f32[2, 64, 128] @Sm90_RmemMatrixD(64, 128)
              exogpu.fence(wgmma_fence_1, wgmma_fence_2)
              exogpu.for %d in seq(0, 2) {
                exogpu.for %kk in seq(0, 4) {
                  exogpu.call @Sm90_mma_async_bf16_m64n128k16(%S_acc[%wg, :, :], %Q_smem[%d, %wg * 64:%wg * 64 + 64, %kk * 16:%kk * 16 + 16], %K_smem[%j mod 2, %d, :, %kk * 16:%kk * 16 + 16]) : f32[2, 64, 128] @Sm90_RmemMatrixD(64, 128), bf16[2, 128, 64] @Sm90_SmemSwizzled(128), bf16[2, 2, 128, 64] @Sm90_SmemSwizzled(128)
                }
              }
              exogpu.arrive(wgmma_async, 1) >> %cg[%wg] : barrier[2] @CudaCommitGroup
              exogpu.fence(wgmma_fence_1, wgmma_fence_2)
              exogpu.for %kk in seq(0, 8) {
                // CHECK: exogpu.call @Sm90_mma_async_rs_bf16_m64n128k16_nmajor(%O_acc[%wg, :, :], %P[%wg, %kk, :, :]
                exogpu.call @Sm90_mma_async_rs_bf16_m64n128k16_nmajor(%O_acc[%wg, :, :], %P[%wg, %kk, :, :], %V_smem[(%j - 1) mod 2, 0:2, %kk * 16:%kk * 16 + 16, :]) : f32[2, 64, 128] @Sm90_RmemMatrixD(64, 128), bf16[2, 8, 64, 16] @Sm90_RmemMatrixA(64), bf16[2, 2, 128, 64] @Sm90_SmemSwizzled(128)
              }
              exogpu.arrive(wgmma_async, 1) >> %cg[%wg] : barrier[2] @CudaCommitGroup
              // The other warpgroup's turn: its wgmmas run while this
              // one computes the softmax.
              // CHECK: exogpu.arrive(cuda_in_order, 1) >> %turn1[]
              exogpu.if %wg == 0 {
                exogpu.arrive(cuda_in_order, 1) >> %turn1 : barrier @CudaMbarrier
              }
              exogpu.if %wg == 1 {
                exogpu.arrive(cuda_in_order, 1) >> %turn0 : barrier @CudaMbarrier
              }
              // CHECK: exogpu.await(%cg[%wg], cuda_in_order, 1)
              exogpu.await(%cg[%wg], cuda_in_order, 1) : barrier[2] @CudaCommitGroup
              exogpu.for %t in cuda_threads(0, 128, unit = cuda_thread) {
                exogpu.for %r in seq(0, 2) {
                  exogpu.assign %bias[%wg, %t, %r] = %m[%wg, %t, %r] : f32[2, 128, 2] @CudaRmem, f32[2, 128, 2] @CudaRmem
                }
              }
              exogpu.call @Sm90_row_max_d_m64n128_f32(%m[%wg, :, :], %S_acc[%wg, :, :]) : f32[2, 128, 2] @CudaRmem, f32[2, 64, 128] @Sm90_RmemMatrixD(64, 128)
              exogpu.for %t in cuda_threads(0, 128, unit = cuda_thread) {
                exogpu.for %r in seq(0, 2) {
                  exogpu.assign %corr[%wg, %t, %r] = exp2((%bias[%wg, %t, %r] - %m[%wg, %t, %r]) * %c[%wg, %t]) : f32[2, 128, 2] @CudaRmem, f32[2, 128, 2] @CudaRmem, f32[2, 128, 2] @CudaRmem, f32[2, 128] @CudaRmem
                  exogpu.assign %bias[%wg, %t, %r] = %m[%wg, %t, %r] * %c[%wg, %t] : f32[2, 128, 2] @CudaRmem, f32[2, 128, 2] @CudaRmem, f32[2, 128] @CudaRmem
                  exogpu.assign %l[%wg, %t, %r] = %l[%wg, %t, %r] * %corr[%wg, %t, %r] : f32[2, 128, 2] @CudaRmem, f32[2, 128, 2] @CudaRmem
                }
              }
              exogpu.call @Sm90_exp2_d_m64n128_f32(%S_acc[%wg, :, :], %c[%wg, :], %bias[%wg, :, :]) : f32[2, 64, 128] @Sm90_RmemMatrixD(64, 128), f32[2, 128] @CudaRmem, f32[2, 128, 2] @CudaRmem
              exogpu.call @Sm90_row_sum_d_m64n128_f32(%l[%wg, :, :], %S_acc[%wg, :, :]) : f32[2, 128, 2] @CudaRmem, f32[2, 64, 128] @Sm90_RmemMatrixD(64, 128)
              exogpu.await(%cg[%wg], cuda_in_order, 0) : barrier[2] @CudaCommitGroup
              exogpu.call @Sm90_scale_d_rows_m64n128_f32(%O_acc[%wg, :, :], %corr[%wg, :, :]) : f32[2, 64, 128] @Sm90_RmemMatrixD(64, 128), f32[2, 128, 2] @CudaRmem
              exogpu.for %kk in seq(0, 8) {
                exogpu.call @Sm90_convert_d_to_a_m64n128_bf16[%kk](%P[%wg, %kk, :, :], %S_acc[%wg, :, :]) : bf16[2, 8, 64, 16] @Sm90_RmemMatrixA(64), f32[2, 64, 128] @Sm90_RmemMatrixD(64, 128)
              }
            }
            exogpu.arrive(cuda_in_order, 1) >> %k_empty : barrier @CudaMbarrier
            exogpu.arrive(cuda_in_order, 1) >> %v_empty : barrier @CudaMbarrier
          }
        }
        exogpu.warps "consumer" {
          // The turn warpgroup 1 passed at the last step.
          exogpu.for %wg in cuda_threads(0, 2, unit = cuda_warpgroup) {
            exogpu.if %wg == 0 {
              exogpu.await(%turn0, cuda_in_order, -1) : barrier @CudaMbarrier
            }
          }
          // The last O += P V.
          exogpu.await(%v_full, cuda_generic_and_async, -1) : barrier @CudaMbarrier
          exogpu.for %wg in cuda_threads(0, 2, unit = cuda_warpgroup) {
            exogpu.for %kk in seq(0, 8) {
              exogpu.call @Sm90_fence_operand_a_bf16(%P[%wg, %kk, :, :]) : bf16[2, 8, 64, 16] @Sm90_RmemMatrixA(64)
            }
            exogpu.fence(wgmma_fence_1, wgmma_fence_2)
            exogpu.for %kk in seq(0, 8) {
              // CHECK: exogpu.call @Sm90_mma_async_rs_bf16_m64n128k16_nmajor(%O_acc[%wg, :, :], %P[%wg, %kk, :, :]
              exogpu.call @Sm90_mma_async_rs_bf16_m64n128k16_nmajor(%O_acc[%wg, :, :], %P[%wg, %kk, :, :], %V_smem[(%S / 128 - 1) mod 2, 0:2, %kk * 16:%kk * 16 + 16, :]) : f32[2, 64, 128] @Sm90_RmemMatrixD(64, 128), bf16[2, 8, 64, 16] @Sm90_RmemMatrixA(64), bf16[2, 2, 128, 64] @Sm90_SmemSwizzled(128)
            }
            exogpu.arrive(wgmma_async, 1) >> %cg[%wg] : barrier[2] @CudaCommitGroup
            exogpu.await(%cg[%wg], cuda_in_order, 0) : barrier[2] @CudaCommitGroup
          }
          exogpu.arrive(cuda_in_order, 1) >> %v_empty : barrier @CudaMbarrier
          // Epilogue: O / l and the log-sum-exp; O through the Q tile (each
          // warpgroup read only its own rows) and TMA.
          exogpu.for %wg in cuda_threads(0, 2, unit = cuda_warpgroup) {
            exogpu.for %t in cuda_threads(0, 128, unit = cuda_thread) {
              exogpu.for %r in seq(0, 2) {
                exogpu.assign %bias[%wg, %t, %r] = 1.0 / %l[%wg, %t, %r] : f32[2, 128, 2] @CudaRmem, f32[2, 128, 2] @CudaRmem
                exogpu.if %t mod 4 == 0 {
                  exogpu.assign %LSE[%bh, %i * 128 + %wg * 64 + %t / 32 * 16 + %t mod 32 / 4 + %r * 8] = (%m[%wg, %t, %r] * %c[%wg, %t] + log2(%l[%wg, %t, %r])) * 0.6931471805599453 : f32[?, ?] @CudaGmemLinear, f32[2, 128, 2] @CudaRmem, f32[2, 128] @CudaRmem, f32[2, 128, 2] @CudaRmem
                }
              }
            }
            exogpu.call @Sm90_scale_d_rows_m64n128_f32(%O_acc[%wg, :, :], %bias[%wg, :, :]) : f32[2, 64, 128] @Sm90_RmemMatrixD(64, 128), f32[2, 128, 2] @CudaRmem
            exogpu.for %d in seq(0, 2) {
              exogpu.call @Sm90_store_d_m64n128_tile64x64_bf16[%d](%Q_smem[%d, %wg * 64:%wg * 64 + 64, :], %O_acc[%wg, :, :]) : bf16[2, 128, 64] @Sm90_SmemSwizzled(128), f32[2, 64, 128] @Sm90_RmemMatrixD(64, 128)
            }
            exogpu.fence(cuda_in_order, cuda_async_proxy)
            exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
              exogpu.for %d in seq(0, 2) {
                exogpu.call @Sm90_tma_store_3d_1x64x64_bf16(%O_map[%bh:%bh + 1, %i * 128 + %wg * 64:%i * 128 + %wg * 64 + 64, %d * 64:%d * 64 + 64], %Q_smem[%d, %wg * 64:%wg * 64 + 64, :]) : window bf16[?, ?, 128] @CudaGmemLinear @Sm90_tensorMap(128, 1, 64, 64), bf16[2, 128, 64] @Sm90_SmemSwizzled(128)
              }
              exogpu.arrive(tma_to_gmem_async, 1) >> %store_cg[%wg, %t] : barrier[2, 1] @CudaCommitGroup
              exogpu.await(%store_cg[%wg, %t], cuda_in_order, 0) : barrier[2, 1] @CudaCommitGroup
            }
          }
        }
        // The compiler frees the tiles and barriers here; the next task
        // reuses their shared memory once every warp is done with them.
        exogpu.fence(cuda_generic_and_async, cuda_in_order)
      }
    }
  }
}


// Head dimension 128, causal: query row r sees keys 0..r.
// CHECK-LABEL: exogpu.proc @attention_fwd_d128_causal_pingpong(
// CHECK-SAME: requires %S mod 128 == 0
exogpu.proc @attention_fwd_d128_causal_pingpong(%BH: size, %S: size,
    %Q: bf16[%BH, %S, 128] @CudaGmemLinear, %K: bf16[%BH, %S, 128] @CudaGmemLinear,
    %V: bf16[%BH, %S, 128] @CudaGmemLinear, %O: bf16[%BH, %S, 128] @CudaGmemLinear,
    %LSE: f32[%BH, %S] @CudaGmemLinear)
    requires %S mod 128 == 0 {
  %Q_map = exogpu.window %Q[:, :, :] @Sm90_tensorMap(128, 1, 128, 64) : bf16[?, ?, 128] @CudaGmemLinear
  %K_map = exogpu.window %K[:, :, :] @Sm90_tensorMap(128, 1, 128, 64) : bf16[?, ?, 128] @CudaGmemLinear
  %V_map = exogpu.window %V[:, :, :] @Sm90_tensorMap(128, 1, 128, 64) : bf16[?, ?, 128] @CudaGmemLinear
  %O_map = exogpu.window %O[:, :, :] @Sm90_tensorMap(128, 1, 64, 64) : bf16[?, ?, 128] @CudaGmemLinear
  // CHECK: exogpu.device_function(warps = ["producer" = (1, 24, 0), "unused" = (3, 24, 0), "consumer" = (8, 0, 240)])
  exogpu.device_function(warps = ["producer" = (1, 24, 0), "unused" = (3, 24, 0), "consumer" = (8, 0, 240)]) {
    exogpu.for %bh in cuda_tasks(0, %BH) {
      exogpu.for %i in cuda_tasks(0, %S / 128) {
        %Q_smem = exogpu.alloc bf16[2, 128, 64] @Sm90_SmemSwizzled(128)
        %K_smem = exogpu.alloc bf16[2, 2, 128, 64] @Sm90_SmemSwizzled(128)
        %V_smem = exogpu.alloc bf16[2, 2, 128, 64] @Sm90_SmemSwizzled(128)
        %S_acc = exogpu.alloc f32[2, 64, 128] @Sm90_RmemMatrixD(64, 128)
        %O_acc = exogpu.alloc f32[2, 64, 128] @Sm90_RmemMatrixD(64, 128)
        %P = exogpu.alloc bf16[2, 8, 64, 16] @Sm90_RmemMatrixA(64)
        %m = exogpu.alloc f32[2, 128, 2] @CudaRmem
        %corr = exogpu.alloc f32[2, 128, 2] @CudaRmem
        %bias = exogpu.alloc f32[2, 128, 2] @CudaRmem
        %l = exogpu.alloc f32[2, 128, 2] @CudaRmem
        %c = exogpu.alloc f32[2, 128] @CudaRmem
        %q_full = exogpu.alloc barrier @CudaMbarrier
        %k_full = exogpu.alloc barrier @CudaMbarrier
        %k_empty = exogpu.alloc barrier @CudaMbarrier
        %v_full = exogpu.alloc barrier @CudaMbarrier
        %v_empty = exogpu.alloc barrier @CudaMbarrier
        %cg = exogpu.alloc barrier[2] @CudaCommitGroup
        %store_cg = exogpu.alloc barrier[2, 1] @CudaCommitGroup
        %turn0 = exogpu.alloc barrier @CudaMbarrier
        %turn1 = exogpu.alloc barrier @CudaMbarrier

        // Producer: the Q tile of the task.
        exogpu.warps "producer" {
          exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
            exogpu.for %d in seq(0, 2) {
              exogpu.call @Sm90_tma_load_3d_1x128x64_bf16(%Q_smem[%d, :, :], %Q_map[%bh:%bh + 1, (%S / 128 - 1 - %i) * 128:(%S / 128 - 1 - %i) * 128 + 128, %d * 64:%d * 64 + 64]) >> %q_full : bf16[2, 128, 64] @Sm90_SmemSwizzled(128), window bf16[?, ?, 128] @CudaGmemLinear @Sm90_tensorMap(128, 1, 128, 64), barrier @CudaMbarrier
            }
            exogpu.arrive(tma_to_smem_async, 1) >> %q_full : barrier @CudaMbarrier
          }
        }
        // Consumers: two warpgroups, 64 query rows each.
        exogpu.warps "consumer" {
          exogpu.for %wg in cuda_threads(0, 2, unit = cuda_warpgroup) {
            exogpu.call @Sm90_zero_d_m64n128_f32(%O_acc[%wg, :, :]) : f32[2, 64, 128] @Sm90_RmemMatrixD(64, 128)
            exogpu.for %t in cuda_threads(0, 128, unit = cuda_thread) {
              exogpu.assign %c[%wg, %t] = 0.12751743 : f32[2, 128] @CudaRmem
              exogpu.for %r in seq(0, 2) {
                exogpu.assign %m[%wg, %t, %r] = -1.0e30 : f32[2, 128, 2] @CudaRmem
                exogpu.assign %l[%wg, %t, %r] = 0.0 : f32[2, 128, 2] @CudaRmem
              }
            }
          }
          exogpu.await(%q_full, cuda_generic_and_async, -1) : barrier @CudaMbarrier
        }
        // Step 0: load K_0 and V_0; S = Q K_0^T, its softmax, P.
        exogpu.warps "producer" {
          exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
            exogpu.await(%k_empty, cuda_generic_and_async, -3) : barrier @CudaMbarrier
            exogpu.for %d in seq(0, 2) {
              exogpu.call @Sm90_tma_load_3d_1x128x64_bf16(%K_smem[0 mod 2, %d, :, :], %K_map[%bh:%bh + 1, (%S / 128 - 1 - %i - 0) * 128:(%S / 128 - 1 - %i - 0) * 128 + 128, %d * 64:%d * 64 + 64]) >> %k_full : bf16[2, 2, 128, 64] @Sm90_SmemSwizzled(128), window bf16[?, ?, 128] @CudaGmemLinear @Sm90_tensorMap(128, 1, 128, 64), barrier @CudaMbarrier
            }
            exogpu.arrive(tma_to_smem_async, 1) >> %k_full : barrier @CudaMbarrier
            exogpu.await(%v_empty, cuda_generic_and_async, -3) : barrier @CudaMbarrier
            exogpu.for %d in seq(0, 2) {
              exogpu.call @Sm90_tma_load_3d_1x128x64_bf16(%V_smem[0 mod 2, %d, :, :], %V_map[%bh:%bh + 1, (%S / 128 - 1 - %i - 0) * 128:(%S / 128 - 1 - %i - 0) * 128 + 128, %d * 64:%d * 64 + 64]) >> %v_full : bf16[2, 2, 128, 64] @Sm90_SmemSwizzled(128), window bf16[?, ?, 128] @CudaGmemLinear @Sm90_tensorMap(128, 1, 128, 64), barrier @CudaMbarrier
            }
            exogpu.arrive(tma_to_smem_async, 1) >> %v_full : barrier @CudaMbarrier
          }
        }
        exogpu.warps "consumer" {
          exogpu.await(%k_full, cuda_generic_and_async, -1) : barrier @CudaMbarrier
          exogpu.for %wg in cuda_threads(0, 2, unit = cuda_warpgroup) {
            exogpu.call @Sm90_zero_d_m64n128_f32(%S_acc[%wg, :, :]) : f32[2, 64, 128] @Sm90_RmemMatrixD(64, 128)
            exogpu.fence(wgmma_fence_1, wgmma_fence_2)
            exogpu.for %d in seq(0, 2) {
              exogpu.for %kk in seq(0, 4) {
                exogpu.call @Sm90_mma_async_bf16_m64n128k16(%S_acc[%wg, :, :], %Q_smem[%d, %wg * 64:%wg * 64 + 64, %kk * 16:%kk * 16 + 16], %K_smem[0 mod 2, %d, :, %kk * 16:%kk * 16 + 16]) : f32[2, 64, 128] @Sm90_RmemMatrixD(64, 128), bf16[2, 128, 64] @Sm90_SmemSwizzled(128), bf16[2, 2, 128, 64] @Sm90_SmemSwizzled(128)
              }
            }
            exogpu.arrive(wgmma_async, 1) >> %cg[%wg] : barrier[2] @CudaCommitGroup
            exogpu.await(%cg[%wg], cuda_in_order, 0) : barrier[2] @CudaCommitGroup
            exogpu.call @Sm90_mask_causal_d_m64n128_f32[%wg * 64](%S_acc[%wg, :, :]) : f32[2, 64, 128] @Sm90_RmemMatrixD(64, 128)
            exogpu.for %t in cuda_threads(0, 128, unit = cuda_thread) {
              exogpu.for %r in seq(0, 2) {
                exogpu.assign %bias[%wg, %t, %r] = %m[%wg, %t, %r] : f32[2, 128, 2] @CudaRmem, f32[2, 128, 2] @CudaRmem
              }
            }
            exogpu.call @Sm90_row_max_d_m64n128_f32(%m[%wg, :, :], %S_acc[%wg, :, :]) : f32[2, 128, 2] @CudaRmem, f32[2, 64, 128] @Sm90_RmemMatrixD(64, 128)
            exogpu.for %t in cuda_threads(0, 128, unit = cuda_thread) {
              exogpu.for %r in seq(0, 2) {
                exogpu.assign %corr[%wg, %t, %r] = exp2((%bias[%wg, %t, %r] - %m[%wg, %t, %r]) * %c[%wg, %t]) : f32[2, 128, 2] @CudaRmem, f32[2, 128, 2] @CudaRmem, f32[2, 128, 2] @CudaRmem, f32[2, 128] @CudaRmem
                exogpu.assign %bias[%wg, %t, %r] = %m[%wg, %t, %r] * %c[%wg, %t] : f32[2, 128, 2] @CudaRmem, f32[2, 128, 2] @CudaRmem, f32[2, 128] @CudaRmem
                exogpu.assign %l[%wg, %t, %r] = %l[%wg, %t, %r] * %corr[%wg, %t, %r] : f32[2, 128, 2] @CudaRmem, f32[2, 128, 2] @CudaRmem
              }
            }
            exogpu.call @Sm90_exp2_d_m64n128_f32(%S_acc[%wg, :, :], %c[%wg, :], %bias[%wg, :, :]) : f32[2, 64, 128] @Sm90_RmemMatrixD(64, 128), f32[2, 128] @CudaRmem, f32[2, 128, 2] @CudaRmem
            exogpu.call @Sm90_row_sum_d_m64n128_f32(%l[%wg, :, :], %S_acc[%wg, :, :]) : f32[2, 128, 2] @CudaRmem, f32[2, 64, 128] @Sm90_RmemMatrixD(64, 128)
            exogpu.for %kk in seq(0, 8) {
              exogpu.call @Sm90_convert_d_to_a_m64n128_bf16[%kk](%P[%wg, %kk, :, :], %S_acc[%wg, :, :]) : bf16[2, 8, 64, 16] @Sm90_RmemMatrixA(64), f32[2, 64, 128] @Sm90_RmemMatrixD(64, 128)
            }
          }
          exogpu.arrive(cuda_in_order, 1) >> %k_empty : barrier @CudaMbarrier
        }
        // Warpgroup 0 takes the first turn of the steps below.
        exogpu.warps "consumer" {
          exogpu.for %wg in cuda_threads(0, 2, unit = cuda_warpgroup) {
            exogpu.if %wg == 1 {
              exogpu.arrive(cuda_in_order, 1) >> %turn0 : barrier @CudaMbarrier
            }
          }
        }
        // Step j: load K_j and V_j; issue S = Q K_j^T and O += P V_(j-1);
        // the softmax of S runs while the second wgmma does; then rescale
        // O and make the new P.
        exogpu.for %j in seq(1, %S / 128 - %i) {
          exogpu.warps "producer" {
            exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
              exogpu.await(%k_empty, cuda_generic_and_async, -3) : barrier @CudaMbarrier
              exogpu.for %d in seq(0, 2) {
                exogpu.call @Sm90_tma_load_3d_1x128x64_bf16(%K_smem[%j mod 2, %d, :, :], %K_map[%bh:%bh + 1, (%S / 128 - 1 - %i - %j) * 128:(%S / 128 - 1 - %i - %j) * 128 + 128, %d * 64:%d * 64 + 64]) >> %k_full : bf16[2, 2, 128, 64] @Sm90_SmemSwizzled(128), window bf16[?, ?, 128] @CudaGmemLinear @Sm90_tensorMap(128, 1, 128, 64), barrier @CudaMbarrier
              }
              exogpu.arrive(tma_to_smem_async, 1) >> %k_full : barrier @CudaMbarrier
              exogpu.await(%v_empty, cuda_generic_and_async, -3) : barrier @CudaMbarrier
              exogpu.for %d in seq(0, 2) {
                exogpu.call @Sm90_tma_load_3d_1x128x64_bf16(%V_smem[%j mod 2, %d, :, :], %V_map[%bh:%bh + 1, (%S / 128 - 1 - %i - %j) * 128:(%S / 128 - 1 - %i - %j) * 128 + 128, %d * 64:%d * 64 + 64]) >> %v_full : bf16[2, 2, 128, 64] @Sm90_SmemSwizzled(128), window bf16[?, ?, 128] @CudaGmemLinear @Sm90_tensorMap(128, 1, 128, 64), barrier @CudaMbarrier
              }
              exogpu.arrive(tma_to_smem_async, 1) >> %v_full : barrier @CudaMbarrier
            }
          }
          exogpu.warps "consumer" {
            exogpu.await(%k_full, cuda_generic_and_async, -1) : barrier @CudaMbarrier
            exogpu.await(%v_full, cuda_generic_and_async, -1) : barrier @CudaMbarrier
            exogpu.for %wg in cuda_threads(0, 2, unit = cuda_warpgroup) {
              // This warpgroup's turn: the other one has issued its
              // wgmmas of the step before (or, for warpgroup 0 at
              // step 1, given the first turn).
              // CHECK: exogpu.await(%turn0[], cuda_in_order, -1)
              exogpu.if %wg == 0 {
                exogpu.await(%turn0, cuda_in_order, -1) : barrier @CudaMbarrier
              }
              exogpu.if %wg == 1 {
                exogpu.await(%turn1, cuda_in_order, -1) : barrier @CudaMbarrier
              }
              exogpu.for %kk in seq(0, 8) {
                exogpu.call @Sm90_fence_operand_a_bf16(%P[%wg, %kk, :, :]) : bf16[2, 8, 64, 16] @Sm90_RmemMatrixA(64)
              }
              exogpu.call @Sm90_zero_d_m64n128_f32(%S_acc[%wg, :, :]) : f32[2, 64, 128] @Sm90_RmemMatrixD(64, 128)
              exogpu.fence(wgmma_fence_1, wgmma_fence_2)
              exogpu.for %d in seq(0, 2) {
                exogpu.for %kk in seq(0, 4) {
                  exogpu.call @Sm90_mma_async_bf16_m64n128k16(%S_acc[%wg, :, :], %Q_smem[%d, %wg * 64:%wg * 64 + 64, %kk * 16:%kk * 16 + 16], %K_smem[%j mod 2, %d, :, %kk * 16:%kk * 16 + 16]) : f32[2, 64, 128] @Sm90_RmemMatrixD(64, 128), bf16[2, 128, 64] @Sm90_SmemSwizzled(128), bf16[2, 2, 128, 64] @Sm90_SmemSwizzled(128)
                }
              }
              exogpu.arrive(wgmma_async, 1) >> %cg[%wg] : barrier[2] @CudaCommitGroup
              exogpu.fence(wgmma_fence_1, wgmma_fence_2)
              exogpu.for %kk in seq(0, 8) {
                // CHECK: exogpu.call @Sm90_mma_async_rs_bf16_m64n128k16_nmajor(%O_acc[%wg, :, :], %P[%wg, %kk, :, :]
                exogpu.call @Sm90_mma_async_rs_bf16_m64n128k16_nmajor(%O_acc[%wg, :, :], %P[%wg, %kk, :, :], %V_smem[(%j - 1) mod 2, 0:2, %kk * 16:%kk * 16 + 16, :]) : f32[2, 64, 128] @Sm90_RmemMatrixD(64, 128), bf16[2, 8, 64, 16] @Sm90_RmemMatrixA(64), bf16[2, 2, 128, 64] @Sm90_SmemSwizzled(128)
              }
              exogpu.arrive(wgmma_async, 1) >> %cg[%wg] : barrier[2] @CudaCommitGroup
              // The other warpgroup's turn: its wgmmas run while this
              // one computes the softmax.
              // CHECK: exogpu.arrive(cuda_in_order, 1) >> %turn1[]
              exogpu.if %wg == 0 {
                exogpu.arrive(cuda_in_order, 1) >> %turn1 : barrier @CudaMbarrier
              }
              exogpu.if %wg == 1 {
                exogpu.arrive(cuda_in_order, 1) >> %turn0 : barrier @CudaMbarrier
              }
              // CHECK: exogpu.await(%cg[%wg], cuda_in_order, 1)
              exogpu.await(%cg[%wg], cuda_in_order, 1) : barrier[2] @CudaCommitGroup
              exogpu.for %t in cuda_threads(0, 128, unit = cuda_thread) {
                exogpu.for %r in seq(0, 2) {
                  exogpu.assign %bias[%wg, %t, %r] = %m[%wg, %t, %r] : f32[2, 128, 2] @CudaRmem, f32[2, 128, 2] @CudaRmem
                }
              }
              exogpu.call @Sm90_row_max_d_m64n128_f32(%m[%wg, :, :], %S_acc[%wg, :, :]) : f32[2, 128, 2] @CudaRmem, f32[2, 64, 128] @Sm90_RmemMatrixD(64, 128)
              exogpu.for %t in cuda_threads(0, 128, unit = cuda_thread) {
                exogpu.for %r in seq(0, 2) {
                  exogpu.assign %corr[%wg, %t, %r] = exp2((%bias[%wg, %t, %r] - %m[%wg, %t, %r]) * %c[%wg, %t]) : f32[2, 128, 2] @CudaRmem, f32[2, 128, 2] @CudaRmem, f32[2, 128, 2] @CudaRmem, f32[2, 128] @CudaRmem
                  exogpu.assign %bias[%wg, %t, %r] = %m[%wg, %t, %r] * %c[%wg, %t] : f32[2, 128, 2] @CudaRmem, f32[2, 128, 2] @CudaRmem, f32[2, 128] @CudaRmem
                  exogpu.assign %l[%wg, %t, %r] = %l[%wg, %t, %r] * %corr[%wg, %t, %r] : f32[2, 128, 2] @CudaRmem, f32[2, 128, 2] @CudaRmem
                }
              }
              exogpu.call @Sm90_exp2_d_m64n128_f32(%S_acc[%wg, :, :], %c[%wg, :], %bias[%wg, :, :]) : f32[2, 64, 128] @Sm90_RmemMatrixD(64, 128), f32[2, 128] @CudaRmem, f32[2, 128, 2] @CudaRmem
              exogpu.call @Sm90_row_sum_d_m64n128_f32(%l[%wg, :, :], %S_acc[%wg, :, :]) : f32[2, 128, 2] @CudaRmem, f32[2, 64, 128] @Sm90_RmemMatrixD(64, 128)
              exogpu.await(%cg[%wg], cuda_in_order, 0) : barrier[2] @CudaCommitGroup
              exogpu.call @Sm90_scale_d_rows_m64n128_f32(%O_acc[%wg, :, :], %corr[%wg, :, :]) : f32[2, 64, 128] @Sm90_RmemMatrixD(64, 128), f32[2, 128, 2] @CudaRmem
              exogpu.for %kk in seq(0, 8) {
                exogpu.call @Sm90_convert_d_to_a_m64n128_bf16[%kk](%P[%wg, %kk, :, :], %S_acc[%wg, :, :]) : bf16[2, 8, 64, 16] @Sm90_RmemMatrixA(64), f32[2, 64, 128] @Sm90_RmemMatrixD(64, 128)
              }
            }
            exogpu.arrive(cuda_in_order, 1) >> %k_empty : barrier @CudaMbarrier
            exogpu.arrive(cuda_in_order, 1) >> %v_empty : barrier @CudaMbarrier
          }
        }
        exogpu.warps "consumer" {
          // The turn warpgroup 1 passed at the last step.
          exogpu.for %wg in cuda_threads(0, 2, unit = cuda_warpgroup) {
            exogpu.if %wg == 0 {
              exogpu.await(%turn0, cuda_in_order, -1) : barrier @CudaMbarrier
            }
          }
          // The last O += P V.
          exogpu.await(%v_full, cuda_generic_and_async, -1) : barrier @CudaMbarrier
          exogpu.for %wg in cuda_threads(0, 2, unit = cuda_warpgroup) {
            exogpu.for %kk in seq(0, 8) {
              exogpu.call @Sm90_fence_operand_a_bf16(%P[%wg, %kk, :, :]) : bf16[2, 8, 64, 16] @Sm90_RmemMatrixA(64)
            }
            exogpu.fence(wgmma_fence_1, wgmma_fence_2)
            exogpu.for %kk in seq(0, 8) {
              // CHECK: exogpu.call @Sm90_mma_async_rs_bf16_m64n128k16_nmajor(%O_acc[%wg, :, :], %P[%wg, %kk, :, :]
              exogpu.call @Sm90_mma_async_rs_bf16_m64n128k16_nmajor(%O_acc[%wg, :, :], %P[%wg, %kk, :, :], %V_smem[(%S / 128 - %i - 1) mod 2, 0:2, %kk * 16:%kk * 16 + 16, :]) : f32[2, 64, 128] @Sm90_RmemMatrixD(64, 128), bf16[2, 8, 64, 16] @Sm90_RmemMatrixA(64), bf16[2, 2, 128, 64] @Sm90_SmemSwizzled(128)
            }
            exogpu.arrive(wgmma_async, 1) >> %cg[%wg] : barrier[2] @CudaCommitGroup
            exogpu.await(%cg[%wg], cuda_in_order, 0) : barrier[2] @CudaCommitGroup
          }
          exogpu.arrive(cuda_in_order, 1) >> %v_empty : barrier @CudaMbarrier
          // Epilogue: O / l and the log-sum-exp; O through the Q tile (each
          // warpgroup read only its own rows) and TMA.
          exogpu.for %wg in cuda_threads(0, 2, unit = cuda_warpgroup) {
            exogpu.for %t in cuda_threads(0, 128, unit = cuda_thread) {
              exogpu.for %r in seq(0, 2) {
                exogpu.assign %bias[%wg, %t, %r] = 1.0 / %l[%wg, %t, %r] : f32[2, 128, 2] @CudaRmem, f32[2, 128, 2] @CudaRmem
                exogpu.if %t mod 4 == 0 {
                  exogpu.assign %LSE[%bh, (%S / 128 - 1 - %i) * 128 + %wg * 64 + %t / 32 * 16 + %t mod 32 / 4 + %r * 8] = (%m[%wg, %t, %r] * %c[%wg, %t] + log2(%l[%wg, %t, %r])) * 0.6931471805599453 : f32[?, ?] @CudaGmemLinear, f32[2, 128, 2] @CudaRmem, f32[2, 128] @CudaRmem, f32[2, 128, 2] @CudaRmem
                }
              }
            }
            exogpu.call @Sm90_scale_d_rows_m64n128_f32(%O_acc[%wg, :, :], %bias[%wg, :, :]) : f32[2, 64, 128] @Sm90_RmemMatrixD(64, 128), f32[2, 128, 2] @CudaRmem
            exogpu.for %d in seq(0, 2) {
              exogpu.call @Sm90_store_d_m64n128_tile64x64_bf16[%d](%Q_smem[%d, %wg * 64:%wg * 64 + 64, :], %O_acc[%wg, :, :]) : bf16[2, 128, 64] @Sm90_SmemSwizzled(128), f32[2, 64, 128] @Sm90_RmemMatrixD(64, 128)
            }
            exogpu.fence(cuda_in_order, cuda_async_proxy)
            exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
              exogpu.for %d in seq(0, 2) {
                exogpu.call @Sm90_tma_store_3d_1x64x64_bf16(%O_map[%bh:%bh + 1, (%S / 128 - 1 - %i) * 128 + %wg * 64:(%S / 128 - 1 - %i) * 128 + %wg * 64 + 64, %d * 64:%d * 64 + 64], %Q_smem[%d, %wg * 64:%wg * 64 + 64, :]) : window bf16[?, ?, 128] @CudaGmemLinear @Sm90_tensorMap(128, 1, 64, 64), bf16[2, 128, 64] @Sm90_SmemSwizzled(128)
              }
              exogpu.arrive(tma_to_gmem_async, 1) >> %store_cg[%wg, %t] : barrier[2, 1] @CudaCommitGroup
              exogpu.await(%store_cg[%wg, %t], cuda_in_order, 0) : barrier[2, 1] @CudaCommitGroup
            }
          }
        }
        // The compiler frees the tiles and barriers here; the next task
        // reuses their shared memory once every warp is done with them.
        exogpu.fence(cuda_generic_and_async, cuda_in_order)
      }
    }
  }
}

