// RUN: exogpu-translate --to-cuda %s | FileCheck %s
// RUN: %if nvcc %{ exogpu-translate --to-cuda %s -o %t.cu && %nvcc -arch=sm_80 -Werror all-warnings -c %t.cu -o %t.o %}

// `{p.strideN}` in an instruction template (CudaTemplate.h): the distance in
// elements between consecutive indices of dimension N of the argument
// window, in the row-major layout of the buffer it windows (a shared
// memory shard, before any swizzle; a global buffer, whose extents may be
// sizes). The N-major wgmma B operand uses it for the distance between its
// 64-column chunks (stdlib/sm90a.mlir).

exogpu.instr @strided_copy(%dst: f32[2, 4] @CudaSmemLinear, %src: f32[4, 2] @CudaGmemLinear)
    target = cuda, unit = cuda_thread,
    cuda = "asm volatile(\22// strides %0 %1 %2 %3 %4 %5\22 :: \22l\22({dst}), \22l\22({src}), \22r\22({dst.stride0}), \22r\22({dst.stride1}), \22r\22({src.stride0}), \22r\22({src.stride1}));" {
  exogpu.for %i in seq(0, 2) {
    exogpu.for %j in seq(0, 4) {
      exogpu.assign %dst[%i, %j] = %src[%j, %i] : f32[2, 4] @CudaSmemLinear, f32[4, 2] @CudaGmemLinear
    }
  }
}

// The window %tile[%t, 1, 0:2, 4:8] of a [8, 3, 16, 32] buffer distributed
// over 8 threads (shard [3, 16, 32]) strides 32 and 1; the window
// %g[%i, 0:4, 8:10] of g: [N, 64, 16] strides 16 and 1, and %g[0:4, %i, 0:2]
// strides 64 * 16 and 1. Strides of dynamic extents are printed.
// CHECK-LABEL: strides_kernel(
// CHECK: "r"(32), "r"(1), "r"(16), "r"(1)
// CHECK: "r"(32), "r"(1), "r"(1024), "r"(1)
// CHECK: "r"(32), "r"(1), "r"(M * 2), "r"(1)
exogpu.proc @strides(%N: size, %M: size, %g: f32[%N, 64, 16] @CudaGmemLinear, %h: f32[%N, %M, 2] @CudaGmemLinear) requires %N >= 4 {
  exogpu.device_function(blockDim = 8) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %tile = exogpu.alloc f32[8, 3, 16, 32] @CudaSmemLinear
      exogpu.for %t in cuda_threads(0, 8, unit = cuda_thread) {
        exogpu.call @strided_copy(%tile[%t, 1, 0:2, 4:8], %g[%t, 0:4, 8:10]) : f32[8, 3, 16, 32] @CudaSmemLinear, f32[?, 64, 16] @CudaGmemLinear
        exogpu.call @strided_copy(%tile[%t, 1, 0:2, 4:8], %g[0:4, %t, 0:2]) : f32[8, 3, 16, 32] @CudaSmemLinear, f32[?, 64, 16] @CudaGmemLinear
        exogpu.call @strided_copy(%tile[%t, 1, 0:2, 4:8], %h[0:4, %t, :]) : f32[8, 3, 16, 32] @CudaSmemLinear, f32[?, ?, 2] @CudaGmemLinear
      }
    }
  }
}
