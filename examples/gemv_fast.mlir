exogpu.import "sm80"

// The fp32 GEMV of the benchmark (bench/kernels.py, docs/performance.md):
// y = A * x with A: M x N row major, tuned for memory bandwidth (the
// paper's GEMV, seeds/002 Sec. 6: warp shuffles and scalar math, no tensor
// cores). It reads A once (4 M N bytes), so its speed is A's bytes over the
// time, against the H100's 3.35 TB/s.
//  * a task (CTA of 4 warps, blockDim = 128) owns 16 rows; warp w owns rows
//    task * 16 + 4 w .. + 3: each x chunk loaded serves 4 rows;
//  * lane l reads 16 bytes per row at columns j * 256 + u * 128 + 4 l
//    (u = 0, 1): a warp reads 512 contiguous bytes of each row per load
//    instruction (coalesced LDG.E.128), and each lane has 8 loads of A and
//    2 of x (10 x 16 bytes) issued before the 32 FMAs that consume them
//    (register buffers a and xv, indexed by constants after unrolling);
//  * A is streamed with ld.global.nc.L1::no_allocate (read once), x with
//    ld.global.nc (reread by every warp: L1 keeps it);
//  * the 32 per-lane partial sums of each row fold into lane 0 through a
//    shuffle-down tree (deltas 16, 8, 4, 2, 1; stdlib sm80
//    @cuda_shfl_down_f32), which writes y;
//  * M / 16 tasks: 512 CTAs at M = 8192 (about 4 per SM, 16 warps, 64 KiB
//    of loads in flight per SM), 1024 at M = 16384; the persistent grid
//    holds them all at once (16 CTAs of 128 threads fit an SM).
// Frees are not written: the compiler inserts them (seeds/002 Sec. 3.4).
// Checked with `--exogpu-sync-check="M=32,N=512"` (test/Examples).

// CHECK-LABEL: exogpu.proc @gemv_fast(
// CHECK-SAME: requires %M mod 16 == 0 and %N mod 256 == 0
exogpu.proc @gemv_fast(%M: size, %N: size, %A: f32[%M, %N] @CudaGmemLinear,
                       %x: f32[%N] @CudaGmemLinear, %y: f32[%M] @CudaGmemLinear)
    requires %M mod 16 == 0 and %N mod 256 == 0 {
  exogpu.device_function(blockDim = 128) {
    // CHECK: exogpu.for %task in cuda_tasks(0, %M / 16)
    exogpu.for %task in cuda_tasks(0, %M / 16) {
      // Per lane: partial sums of its warp's 4 rows, the shuffled values,
      // and the loaded A and x vectors of one iteration (2 chunks).
      %part = exogpu.alloc f32[4, 32, 4] @CudaRmem
      %shfl = exogpu.alloc f32[4, 32, 4] @CudaRmem
      %a = exogpu.alloc f32[4, 32, 2, 4, 4] @CudaRmem
      %xv = exogpu.alloc f32[4, 32, 2, 4] @CudaRmem
      exogpu.for %w in cuda_threads(0, 4, unit = cuda_warp) {
        exogpu.for %lane in cuda_threads(0, 32, unit = cuda_thread) {
          exogpu.for %r in seq(0, 4) {
            exogpu.assign %part[%w, %lane, %r] = 0.0 : f32[4, 32, 4] @CudaRmem
          }
          exogpu.for %j in seq(0, %N / 256) {
            exogpu.for %u in seq(0, 2) {
              // CHECK: exogpu.call @cuda_ld_global_nc_f32x4(%xv[%w, %lane, %u, :], %x[%j * 256 + %u * 128 + %lane * 4:%j * 256 + %u * 128 + %lane * 4 + 4])
              exogpu.call @cuda_ld_global_nc_f32x4(%xv[%w, %lane, %u, :], %x[%j * 256 + %u * 128 + %lane * 4:%j * 256 + %u * 128 + %lane * 4 + 4]) : f32[4, 32, 2, 4] @CudaRmem, f32[?] @CudaGmemLinear
              exogpu.for %r in seq(0, 4) {
                // CHECK: exogpu.call @cuda_ld_global_stream_f32x4(%a[%w, %lane, %u, %r, :], %A[%task * 16 + %w * 4 + %r, %j * 256 + %u * 128 + %lane * 4:%j * 256 + %u * 128 + %lane * 4 + 4])
                exogpu.call @cuda_ld_global_stream_f32x4(%a[%w, %lane, %u, %r, :], %A[%task * 16 + %w * 4 + %r, %j * 256 + %u * 128 + %lane * 4:%j * 256 + %u * 128 + %lane * 4 + 4]) : f32[4, 32, 2, 4, 4] @CudaRmem, f32[?, ?] @CudaGmemLinear
              }
            }
            exogpu.for %u in seq(0, 2) {
              exogpu.for %r in seq(0, 4) {
                exogpu.for %e in seq(0, 4) {
                  // CHECK: exogpu.reduce %part[%w, %lane, %r] += %a[%w, %lane, %u, %r, %e] * %xv[%w, %lane, %u, %e]
                  exogpu.reduce %part[%w, %lane, %r] += %a[%w, %lane, %u, %r, %e] * %xv[%w, %lane, %u, %e] : f32[4, 32, 4] @CudaRmem, f32[4, 32, 2, 4, 4] @CudaRmem, f32[4, 32, 2, 4] @CudaRmem
                }
              }
            }
          }
        }
        // Shuffle-down tree per row: after the round with delta d, lane
        // l < d holds the sum of lanes l, l + d, ..., so lane 0 ends with
        // the row's dot product.
        exogpu.for %r in seq(0, 4) {
          // CHECK: exogpu.call @cuda_shfl_down_f32[16](%shfl[%w, :, %r], %part[%w, :, %r])
          exogpu.call @cuda_shfl_down_f32[16](%shfl[%w, :, %r], %part[%w, :, %r]) : f32[4, 32, 4] @CudaRmem, f32[4, 32, 4] @CudaRmem
          exogpu.for %lane in cuda_threads(0, 32, unit = cuda_thread) {
            exogpu.reduce %part[%w, %lane, %r] += %shfl[%w, %lane, %r] : f32[4, 32, 4] @CudaRmem, f32[4, 32, 4] @CudaRmem
          }
          exogpu.call @cuda_shfl_down_f32[8](%shfl[%w, :, %r], %part[%w, :, %r]) : f32[4, 32, 4] @CudaRmem, f32[4, 32, 4] @CudaRmem
          exogpu.for %lane in cuda_threads(0, 32, unit = cuda_thread) {
            exogpu.reduce %part[%w, %lane, %r] += %shfl[%w, %lane, %r] : f32[4, 32, 4] @CudaRmem, f32[4, 32, 4] @CudaRmem
          }
          exogpu.call @cuda_shfl_down_f32[4](%shfl[%w, :, %r], %part[%w, :, %r]) : f32[4, 32, 4] @CudaRmem, f32[4, 32, 4] @CudaRmem
          exogpu.for %lane in cuda_threads(0, 32, unit = cuda_thread) {
            exogpu.reduce %part[%w, %lane, %r] += %shfl[%w, %lane, %r] : f32[4, 32, 4] @CudaRmem, f32[4, 32, 4] @CudaRmem
          }
          exogpu.call @cuda_shfl_down_f32[2](%shfl[%w, :, %r], %part[%w, :, %r]) : f32[4, 32, 4] @CudaRmem, f32[4, 32, 4] @CudaRmem
          exogpu.for %lane in cuda_threads(0, 32, unit = cuda_thread) {
            exogpu.reduce %part[%w, %lane, %r] += %shfl[%w, %lane, %r] : f32[4, 32, 4] @CudaRmem, f32[4, 32, 4] @CudaRmem
          }
          exogpu.call @cuda_shfl_down_f32[1](%shfl[%w, :, %r], %part[%w, :, %r]) : f32[4, 32, 4] @CudaRmem, f32[4, 32, 4] @CudaRmem
          exogpu.for %lane in cuda_threads(0, 32, unit = cuda_thread) {
            exogpu.reduce %part[%w, %lane, %r] += %shfl[%w, %lane, %r] : f32[4, 32, 4] @CudaRmem, f32[4, 32, 4] @CudaRmem
          }
        }
        exogpu.for %lane in cuda_threads(0, 32, unit = cuda_thread) {
          // CHECK: exogpu.if %lane == 0
          exogpu.if %lane == 0 {
            exogpu.for %r in seq(0, 4) {
              // CHECK: exogpu.assign %y[%task * 16 + %w * 4 + %r] = %part[%w, %lane, %r]
              exogpu.assign %y[%task * 16 + %w * 4 + %r] = %part[%w, %lane, %r] : f32[?] @CudaGmemLinear, f32[4, 32, 4] @CudaRmem
            }
          }
        }
      }
    }
  }
}
