exogpu.import "sm80"

// A warp-per-row fp32 GEMV, y = A * x (A: M x N, row major), with the warp
// reduction done by warp shuffles: the GEMV kernel of the paper's evaluation
// (seeds/002 Sec. 6, "a full-precision fp32 GEMV kernel using warp shuffles
// and scalar math", after [12] cuda_hgemv).
//  * one task (CTA of 4 warps, blockDim = 128) per 4 rows of A; warp w of
//    the task owns row task * 4 + w;
//  * lane l of a warp accumulates the columns j * 32 + l (coalesced loads) in
//    its own register shard part[w, l] (Sec. 2.1 "Distributed Memory": the
//    per-thread partial sums are one allocation f32[4, 32] @ CudaRmem,
//    distributed over warps and lanes by the cuda_threads iterators);
//  * a shuffle-down tree (deltas 16, 8, 4, 2, 1; stdlib sm80
//    @cuda_shfl_down_f32, a convergent warp instruction, the only way a lane
//    may read another lane's registers) folds the 32 partial sums into lane 0,
//    which writes y.
// Frees are not written: the compiler inserts them (paper Sec. 3.4).

// CHECK-LABEL: exogpu.proc @gemv_shuffle(
// CHECK-SAME: requires %M mod 4 == 0 and %N mod 32 == 0
exogpu.proc @gemv_shuffle(%M: size, %N: size, %A: f32[%M, %N] @CudaGmemLinear,
                          %x: f32[%N] @CudaGmemLinear, %y: f32[%M] @CudaGmemLinear)
    requires %M mod 4 == 0 and %N mod 32 == 0 {
  exogpu.device_function(blockDim = 128) {
    // CHECK: exogpu.for %task in cuda_tasks(0, %M / 4)
    exogpu.for %task in cuda_tasks(0, %M / 4) {
      // CHECK: %part = exogpu.alloc f32[4, 32] @CudaRmem
      %part = exogpu.alloc f32[4, 32] @CudaRmem
      %shfl = exogpu.alloc f32[4, 32] @CudaRmem
      // CHECK: exogpu.for %w in cuda_threads(0, 4, unit = cuda_warp)
      exogpu.for %w in cuda_threads(0, 4, unit = cuda_warp) {
        // Per-lane partial dot products over the columns j * 32 + lane.
        exogpu.for %lane in cuda_threads(0, 32, unit = cuda_thread) {
          exogpu.assign %part[%w, %lane] = 0.0 : f32[4, 32] @CudaRmem
          exogpu.for %j in seq(0, %N / 32) {
            // CHECK: exogpu.reduce %part[%w, %lane] += %A[%task * 4 + %w, %j * 32 + %lane] * %x[%j * 32 + %lane]
            exogpu.reduce %part[%w, %lane] += %A[%task * 4 + %w, %j * 32 + %lane] * %x[%j * 32 + %lane] : f32[4, 32] @CudaRmem, f32[?, ?] @CudaGmemLinear, f32[?] @CudaGmemLinear
          }
        }
        // Shuffle-down tree: after the round with delta d, lane l < d holds
        // the sum of lanes l, l + d, ..., so lane 0 ends with the row's sum.
        // CHECK: exogpu.call @cuda_shfl_down_f32[16](%shfl[%w, :], %part[%w, :])
        exogpu.call @cuda_shfl_down_f32[16](%shfl[%w, :], %part[%w, :]) : f32[4, 32] @CudaRmem, f32[4, 32] @CudaRmem
        exogpu.for %lane in cuda_threads(0, 32, unit = cuda_thread) {
          // CHECK: exogpu.reduce %part[%w, %lane] += %shfl[%w, %lane]
          exogpu.reduce %part[%w, %lane] += %shfl[%w, %lane] : f32[4, 32] @CudaRmem, f32[4, 32] @CudaRmem
        }
        exogpu.call @cuda_shfl_down_f32[8](%shfl[%w, :], %part[%w, :]) : f32[4, 32] @CudaRmem, f32[4, 32] @CudaRmem
        exogpu.for %lane in cuda_threads(0, 32, unit = cuda_thread) {
          exogpu.reduce %part[%w, %lane] += %shfl[%w, %lane] : f32[4, 32] @CudaRmem, f32[4, 32] @CudaRmem
        }
        exogpu.call @cuda_shfl_down_f32[4](%shfl[%w, :], %part[%w, :]) : f32[4, 32] @CudaRmem, f32[4, 32] @CudaRmem
        exogpu.for %lane in cuda_threads(0, 32, unit = cuda_thread) {
          exogpu.reduce %part[%w, %lane] += %shfl[%w, %lane] : f32[4, 32] @CudaRmem, f32[4, 32] @CudaRmem
        }
        exogpu.call @cuda_shfl_down_f32[2](%shfl[%w, :], %part[%w, :]) : f32[4, 32] @CudaRmem, f32[4, 32] @CudaRmem
        exogpu.for %lane in cuda_threads(0, 32, unit = cuda_thread) {
          exogpu.reduce %part[%w, %lane] += %shfl[%w, %lane] : f32[4, 32] @CudaRmem, f32[4, 32] @CudaRmem
        }
        // CHECK: exogpu.call @cuda_shfl_down_f32[1](%shfl[%w, :], %part[%w, :])
        exogpu.call @cuda_shfl_down_f32[1](%shfl[%w, :], %part[%w, :]) : f32[4, 32] @CudaRmem, f32[4, 32] @CudaRmem
        exogpu.for %lane in cuda_threads(0, 32, unit = cuda_thread) {
          exogpu.reduce %part[%w, %lane] += %shfl[%w, %lane] : f32[4, 32] @CudaRmem, f32[4, 32] @CudaRmem
          // Lane 0 holds the row's dot product.
          // CHECK: exogpu.if %lane == 0
          exogpu.if %lane == 0 {
            // CHECK: exogpu.assign %y[%task * 4 + %w] = %part[%w, %lane]
            exogpu.assign %y[%task * 4 + %w] = %part[%w, %lane] : f32[?] @CudaGmemLinear, f32[4, 32] @CudaRmem
          }
        }
      }
    }
  }
}
