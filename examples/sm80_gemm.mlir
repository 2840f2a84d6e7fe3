exogpu.import "sm80"

// An Ampere tf32 GEMM, C = A * B (A: M x K, B: K x N, C: M x N, row major):
// the guide's appendix kernel (seeds/000, "Appendix: sm_80 cp.async GEMM
// Example", xgemm_Sm80_fence), written with the sm_80 instruction library.
//  * output stationary: each task (CTA, blockDim = 256) computes one
//    M1 x N1 = 128 x 128 tile of C;
//  * the CTA tile is split into a 2 x 4 grid of warps, each owning a
//    Mw x Nw = 64 x 32 sub-tile, i.e. a (Mw/16 = 4) x (Nw/8 = 4) grid of
//    16 x 8 mma.m16n8k8 accumulator tiles;
//  * D_rmem @ Sm80_RmemMatrixD(16, 8) is declared at CTA scope and
//    distributed per warp (guide "Per-Warp Tiles: Distributed Memory"):
//    D_rmem[mw, nw, Mw/16, Nw/8, 16, 8], indexed by the cuda_threads
//    iterators of the warps first (mw: 256 -> 128 threads, nw: 128 -> 32);
//  * the K dimension is tiled by K1 = 16; the A and B tiles are double
//    buffered in shared memory: in iteration k1 all 256 threads issue
//    cp.async (16 bytes each) for tile k1 into buffer k1 mod 2 while the warps
//    run mma on tile k1 - 1 from buffer (k1 + 1) mod 2 (one iteration of lag:
//    no mma in the first iteration, no copy in the last);
//  * one Fence(Sm80_generic, Sm80_generic) per iteration (Sm80_generic =
//    cuda_in_order | Sm80_cp_async, seeds/002 Fig. 16) orders both hazards:
//    the cp.async writes of tile k1 before the mma loads of iteration k1 + 1
//    (RAW), and the mma loads of buffer (k1 + 1) mod 2 before the cp.async
//    writes into the same buffer in iteration k1 + 1 (WAR).
// Frees are not written: the compiler inserts them (paper Sec. 3.4).

// CHECK-LABEL: exogpu.proc @gemm_sm80(
// CHECK-SAME: requires %M mod 128 == 0 and %N mod 128 == 0 and %K mod 16 == 0
exogpu.proc @gemm_sm80(%M: size, %N: size, %K: size,
    %A: f32[%M, %K] @CudaGmemLinear, %B: f32[%K, %N] @CudaGmemLinear,
    %C: f32[%M, %N] @CudaGmemLinear)
    requires %M mod 128 == 0 and %N mod 128 == 0 and %K mod 16 == 0 {
  // CHECK: exogpu.device_function(blockDim = 256)
  exogpu.device_function(blockDim = 256) {
    exogpu.for %m2 in cuda_tasks(0, %M / 128) {
      exogpu.for %n2 in cuda_tasks(0, %N / 128) {
        // Per-CTA code: input tiles (double buffered) and accumulators.
        // CHECK: %A_smem = exogpu.alloc f32[2, 128, 16] @CudaSmemLinear
        %A_smem = exogpu.alloc f32[2, 128, 16] @CudaSmemLinear
        // CHECK: %B_smem = exogpu.alloc f32[2, 16, 128] @CudaSmemLinear
        %B_smem = exogpu.alloc f32[2, 16, 128] @CudaSmemLinear
        // CHECK: %D_rmem = exogpu.alloc f32[2, 4, 4, 4, 16, 8] @Sm80_RmemMatrixD(16, 8)
        %D_rmem = exogpu.alloc f32[2, 4, 4, 4, 16, 8] @Sm80_RmemMatrixD(16, 8)

        // Each warp zeros its accumulators.
        // CHECK: exogpu.for %mw in cuda_threads(0, 2, unit = 4 * cuda_warp)
        exogpu.for %mw in cuda_threads(0, 2, unit = 4 * cuda_warp) {
          // CHECK: exogpu.for %nw in cuda_threads(0, 4, unit = cuda_warp)
          exogpu.for %nw in cuda_threads(0, 4, unit = cuda_warp) {
            exogpu.for %m_seq in seq(0, 4) {
              exogpu.for %n_seq in seq(0, 4) {
                // CHECK: exogpu.call @Sm80_mma_zero_d_tf32(%D_rmem[%mw, %nw, %m_seq, %n_seq, :, :])
                exogpu.call @Sm80_mma_zero_d_tf32(%D_rmem[%mw, %nw, %m_seq, %n_seq, :, :]) : f32[2, 4, 4, 4, 16, 8] @Sm80_RmemMatrixD(16, 8)
              }
            }
          }
        }

        // K tiles loop, double buffered; 1 iteration delay between load and
        // use. Don't accumulate in the first iteration, don't load in the
        // last.
        // CHECK: exogpu.for %k1 in seq(0, %K / 16 + 1)
        exogpu.for %k1 in seq(0, %K / 16 + 1) {
          // CHECK: exogpu.if %k1 < %K / 16
          exogpu.if %k1 < %K / 16 {
            // Load the 128 x 16 A tile: the CTA as a 64 x 4 grid of threads,
            // each copying 4 floats, twice.
            exogpu.for %m1 in seq(0, 2) {
              exogpu.for %m0 in cuda_threads(0, 64, unit = 4 * cuda_thread) {
                exogpu.for %k0 in cuda_threads(0, 4, unit = cuda_thread) {
                  // CHECK: exogpu.call @Sm80_cp_async_f32x4(%A_smem[%k1 mod 2, %m1 * 64 + %m0, %k0 * 4:%k0 * 4 + 4]
                  exogpu.call @Sm80_cp_async_f32x4(%A_smem[%k1 mod 2, %m1 * 64 + %m0, %k0 * 4:%k0 * 4 + 4], %A[%m2 * 128 + %m1 * 64 + %m0, %k1 * 16 + %k0 * 4:%k1 * 16 + %k0 * 4 + 4]) : f32[2, 128, 16] @CudaSmemLinear, f32[?, ?] @CudaGmemLinear
                }
              }
            }
            // Load the 16 x 128 B tile: the CTA as an 8 x 32 grid of threads,
            // each copying 4 floats, twice.
            exogpu.for %k0_seq in seq(0, 2) {
              exogpu.for %k0_par in cuda_threads(0, 8, unit = 32 * cuda_thread) {
                exogpu.for %n0 in cuda_threads(0, 32, unit = cuda_thread) {
                  // CHECK: exogpu.call @Sm80_cp_async_f32x4(%B_smem[%k1 mod 2, %k0_seq * 8 + %k0_par, %n0 * 4:%n0 * 4 + 4]
                  exogpu.call @Sm80_cp_async_f32x4(%B_smem[%k1 mod 2, %k0_seq * 8 + %k0_par, %n0 * 4:%n0 * 4 + 4], %B[%k1 * 16 + %k0_seq * 8 + %k0_par, %n2 * 128 + %n0 * 4:%n2 * 128 + %n0 * 4 + 4]) : f32[2, 16, 128] @CudaSmemLinear, f32[?, ?] @CudaGmemLinear
                }
              }
            }
          }
          // CHECK: exogpu.if %k1 > 0
          exogpu.if %k1 > 0 {
            // Split the CTA into the 2 x 4 grid of warps; each consumes the
            // buffer the copies of the previous iteration filled.
            exogpu.for %mw in cuda_threads(0, 2, unit = 4 * cuda_warp) {
              exogpu.for %nw in cuda_threads(0, 4, unit = cuda_warp) {
                // Load all B operand tiles of the warp's columns ahead of time.
                %B_rmem = exogpu.alloc f32[2, 4, 8, 8] @Sm80_RmemMatrixB(8, 8)
                exogpu.for %n_seq in seq(0, 4) {
                  exogpu.for %k_seq in seq(0, 2) {
                    // CHECK: exogpu.call @Sm80_mma_load_b_tf32[128](%B_rmem[%k_seq, %n_seq, :, :], %B_smem[(%k1 + 1) mod 2,
                    exogpu.call @Sm80_mma_load_b_tf32[128](%B_rmem[%k_seq, %n_seq, :, :], %B_smem[(%k1 + 1) mod 2, %k_seq * 8:%k_seq * 8 + 8, %nw * 32 + %n_seq * 8:%nw * 32 + %n_seq * 8 + 8]) : f32[2, 4, 8, 8] @Sm80_RmemMatrixB(8, 8), f32[2, 16, 128] @CudaSmemLinear
                  }
                }
                exogpu.for %m_seq in seq(0, 4) {
                  // Load the A operand tiles of this 16-row slice.
                  %A_rmem = exogpu.alloc f32[2, 16, 8] @Sm80_RmemMatrixA(16, 8)
                  exogpu.for %k_seq in seq(0, 2) {
                    // CHECK: exogpu.call @Sm80_mma_load_a_tf32[16](%A_rmem[%k_seq, :, :], %A_smem[(%k1 + 1) mod 2,
                    exogpu.call @Sm80_mma_load_a_tf32[16](%A_rmem[%k_seq, :, :], %A_smem[(%k1 + 1) mod 2, %mw * 64 + %m_seq * 16:%mw * 64 + %m_seq * 16 + 16, %k_seq * 8:%k_seq * 8 + 8]) : f32[2, 16, 8] @Sm80_RmemMatrixA(16, 8), f32[2, 128, 16] @CudaSmemLinear
                  }
                  // Accumulate into the warp's own shard of D_rmem.
                  exogpu.for %n_seq in seq(0, 4) {
                    exogpu.for %k_seq in seq(0, 2) {
                      // CHECK: exogpu.call @Sm80_mma_tf32(%D_rmem[%mw, %nw, %m_seq, %n_seq, :, :], %A_rmem[%k_seq, :, :], %B_rmem[%k_seq, %n_seq, :, :])
                      exogpu.call @Sm80_mma_tf32(%D_rmem[%mw, %nw, %m_seq, %n_seq, :, :], %A_rmem[%k_seq, :, :], %B_rmem[%k_seq, %n_seq, :, :]) : f32[2, 4, 4, 4, 16, 8] @Sm80_RmemMatrixD(16, 8), f32[2, 16, 8] @Sm80_RmemMatrixA(16, 8), f32[2, 4, 8, 8] @Sm80_RmemMatrixB(8, 8)
                    }
                  }
                }
              }
            }
          }
          // Sm80_generic = cuda_in_order | Sm80_cp_async: the copies of this
          // iteration land before the next iteration's mma loads, and this
          // iteration's mma loads finish before the next iteration's copies
          // overwrite their buffer.
          // CHECK: exogpu.fence(Sm80_generic, Sm80_generic)
          exogpu.fence(Sm80_generic, Sm80_generic)
        }

        // Each warp writes its accumulators to C.
        exogpu.for %mw in cuda_threads(0, 2, unit = 4 * cuda_warp) {
          exogpu.for %nw in cuda_threads(0, 4, unit = cuda_warp) {
            exogpu.for %m_seq in seq(0, 4) {
              exogpu.for %n_seq in seq(0, 4) {
                // CHECK: exogpu.call @Sm80_mma_store_d_tf32[%N](
                exogpu.call @Sm80_mma_store_d_tf32[%N](%C[%m2 * 128 + %mw * 64 + %m_seq * 16:%m2 * 128 + %mw * 64 + %m_seq * 16 + 16, %n2 * 128 + %nw * 32 + %n_seq * 8:%n2 * 128 + %nw * 32 + %n_seq * 8 + 8], %D_rmem[%mw, %nw, %m_seq, %n_seq, :, :]) : f32[?, ?] @CudaGmemLinear, f32[2, 4, 4, 4, 16, 8] @Sm80_RmemMatrixD(16, 8)
              }
            }
          }
        }
      }
    }
  }
}
