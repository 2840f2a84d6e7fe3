// RUN: exogpu-opt %s --exogpu-sync-check=N=965 -verify-diagnostics -o /dev/null
// RUN: exogpu-opt %s --exogpu-sync-check="N=965,engine=reference" -verify-diagnostics -o /dev/null
// RUN: exogpu-opt %s --exogpu-sync-check=N=964 -o /dev/null
// RUN: not exogpu-opt %s --exogpu-sync-check=N=4294967296 -o /dev/null 2>&1 | FileCheck %s --check-prefix=HUGE

// An allocation whose extents depend on a size must fit its memory at the
// sizes checked (issue 15: `f32[2147483647, 2147483647]` in shared memory
// was accepted). The verifier bounds constant extents by the shared memory
// of a cluster of 16 CTAs, 3719168 bytes; the check applies the same bound
// once N is known: N = 964 (929296 floats) fits (RUN line 3), N = 965
// (931225) does not, nor does N = 2^32, whose element count overflows
// int64.
// HUGE: error: the allocation of @s [4294967296, 4294967296] has more elements than the 929792 that fit

exogpu.proc @sized_tile(%N: size, %g: f32[4] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, 1) {
      // expected-error @below {{the allocation of @s [965, 965] has more elements than the 929792 that fit in 3719168 bytes of shared memory (227 KiB in each CTA of a cluster of 16)}}
      %s = exogpu.alloc f32[%N, %N] @CudaSmemLinear
      exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
        exogpu.assign %s[0, 0] = 1.0 : f32[?, ?] @CudaSmemLinear
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}
