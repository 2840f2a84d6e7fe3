exogpu.import "sm80"

// A per-thread asynchronous pipeline (the sm_80 style, issue 15 item 1): one
// 64 x 64 tile of C = A * B (A: 64 x K, B: K x 64) computed by one CTA of
// 256 threads. The K dimension is tiled by 16 and double buffered in shared
// memory. In iteration k every thread copies its 4 floats of A's tile and
// its 4 floats of B's tile with cp.async into buffer k mod 2 and commits
// them as a group of its own (one CudaCommitGroup element per thread,
// cp.async.commit_group); then it waits for its previous group
// (cp.async.wait_group 1, or 0 in the last iteration), a CTA fence makes all
// threads' copies of tile k - 1 visible, the 2 x 4 warps accumulate their
// 32 x 16 sub-tiles of C with mma.m16n8k8 from buffer (k + 1) mod 2 (as in
// examples/sm80_gemm.mlir), and a second fence orders those reads before
// the next iteration's copies overwrite the buffer.
//
// Thread (q, m, c) = 64 q + 4 m + c copies A[16 q + m, 16 k + 4 c : + 4] and
// B[16 k + m, 16 q + 4 c : + 4].

exogpu.proc @tile_sm80_commit_groups(%K: size, %A: f32[64, %K] @CudaGmemLinear,
    %B: f32[%K, 64] @CudaGmemLinear, %C: f32[64, 64] @CudaGmemLinear)
    requires %K mod 16 == 0 {
  exogpu.device_function(blockDim = 256) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %A_smem = exogpu.alloc f32[2, 64, 16] @CudaSmemLinear
      %B_smem = exogpu.alloc f32[2, 16, 64] @CudaSmemLinear
      %D_rmem = exogpu.alloc f32[2, 4, 2, 2, 16, 8] @Sm80_RmemMatrixD(16, 8)
      %cg = exogpu.alloc barrier[4, 16, 4] @CudaCommitGroup
      exogpu.for %mw in cuda_threads(0, 2, unit = 4 * cuda_warp) {
        exogpu.for %nw in cuda_threads(0, 4, unit = cuda_warp) {
          exogpu.for %m_seq in seq(0, 2) {
            exogpu.for %n_seq in seq(0, 2) {
              exogpu.call @Sm80_mma_zero_d_tf32(%D_rmem[%mw, %nw, %m_seq, %n_seq, :, :]) : f32[2, 4, 2, 2, 16, 8] @Sm80_RmemMatrixD(16, 8)
            }
          }
        }
      }
      exogpu.for %k in seq(0, %K / 16 + 1) {
        exogpu.for %q in cuda_threads(0, 4, unit = 64 * cuda_thread) {
          exogpu.for %m in cuda_threads(0, 16, unit = 4 * cuda_thread) {
            exogpu.for %c in cuda_threads(0, 4, unit = cuda_thread) {
              exogpu.if %k < %K / 16 {
                exogpu.call @Sm80_cp_async_f32x4(%A_smem[%k mod 2, %q * 16 + %m, %c * 4:%c * 4 + 4], %A[%q * 16 + %m, %k * 16 + %c * 4:%k * 16 + %c * 4 + 4]) : f32[2, 64, 16] @CudaSmemLinear, f32[64, ?] @CudaGmemLinear
                exogpu.call @Sm80_cp_async_f32x4(%B_smem[%k mod 2, %m, %q * 16 + %c * 4:%q * 16 + %c * 4 + 4], %B[%k * 16 + %m, %q * 16 + %c * 4:%q * 16 + %c * 4 + 4]) : f32[2, 16, 64] @CudaSmemLinear, f32[?, 64] @CudaGmemLinear
                exogpu.arrive(Sm80_cp_async, 1) >> %cg[%q, %m, %c] : barrier[4, 16, 4] @CudaCommitGroup
              }
              exogpu.if %k > 0 {
                exogpu.if %k < %K / 16 {
                  exogpu.await(%cg[%q, %m, %c], cuda_in_order, 1) : barrier[4, 16, 4] @CudaCommitGroup
                }
                exogpu.if %k == %K / 16 {
                  exogpu.await(%cg[%q, %m, %c], cuda_in_order, 0) : barrier[4, 16, 4] @CudaCommitGroup
                }
              }
            }
          }
        }
        exogpu.if %k > 0 {
          exogpu.fence(cuda_in_order, cuda_in_order)
          exogpu.for %mw in cuda_threads(0, 2, unit = 4 * cuda_warp) {
            exogpu.for %nw in cuda_threads(0, 4, unit = cuda_warp) {
              %B_rmem = exogpu.alloc f32[2, 2, 8, 8] @Sm80_RmemMatrixB(8, 8)
              exogpu.for %n_seq in seq(0, 2) {
                exogpu.for %k_seq in seq(0, 2) {
                  exogpu.call @Sm80_mma_load_b_tf32[64](%B_rmem[%k_seq, %n_seq, :, :], %B_smem[(%k + 1) mod 2, %k_seq * 8:%k_seq * 8 + 8, %nw * 16 + %n_seq * 8:%nw * 16 + %n_seq * 8 + 8]) : f32[2, 2, 8, 8] @Sm80_RmemMatrixB(8, 8), f32[2, 16, 64] @CudaSmemLinear
                }
              }
              exogpu.for %m_seq in seq(0, 2) {
                %A_rmem = exogpu.alloc f32[2, 16, 8] @Sm80_RmemMatrixA(16, 8)
                exogpu.for %k_seq in seq(0, 2) {
                  exogpu.call @Sm80_mma_load_a_tf32[16](%A_rmem[%k_seq, :, :], %A_smem[(%k + 1) mod 2, %mw * 32 + %m_seq * 16:%mw * 32 + %m_seq * 16 + 16, %k_seq * 8:%k_seq * 8 + 8]) : f32[2, 16, 8] @Sm80_RmemMatrixA(16, 8), f32[2, 64, 16] @CudaSmemLinear
                }
                exogpu.for %n_seq in seq(0, 2) {
                  exogpu.for %k_seq in seq(0, 2) {
                    exogpu.call @Sm80_mma_tf32(%D_rmem[%mw, %nw, %m_seq, %n_seq, :, :], %A_rmem[%k_seq, :, :], %B_rmem[%k_seq, %n_seq, :, :]) : f32[2, 4, 2, 2, 16, 8] @Sm80_RmemMatrixD(16, 8), f32[2, 16, 8] @Sm80_RmemMatrixA(16, 8), f32[2, 2, 8, 8] @Sm80_RmemMatrixB(8, 8)
                  }
                }
              }
            }
          }
          exogpu.fence(cuda_in_order, cuda_in_order)
        }
      }
      exogpu.for %mw in cuda_threads(0, 2, unit = 4 * cuda_warp) {
        exogpu.for %nw in cuda_threads(0, 4, unit = cuda_warp) {
          exogpu.for %m_seq in seq(0, 2) {
            exogpu.for %n_seq in seq(0, 2) {
              exogpu.call @Sm80_mma_store_d_tf32[64](%C[%mw * 32 + %m_seq * 16:%mw * 32 + %m_seq * 16 + 16, %nw * 16 + %n_seq * 8:%nw * 16 + %n_seq * 8 + 8], %D_rmem[%mw, %nw, %m_seq, %n_seq, :, :]) : f32[64, 64] @CudaGmemLinear, f32[2, 4, 2, 2, 16, 8] @Sm80_RmemMatrixD(16, 8)
            }
          }
        }
      }
    }
  }
}
