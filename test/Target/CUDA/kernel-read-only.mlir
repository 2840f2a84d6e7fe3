// RUN: exogpu-translate --to-cuda %s | FileCheck %s
// RUN: exogpu-opt %s --exogpu-sync-check -o /dev/null
// RUN: %if nvcc %{ exogpu-translate --to-cuda %s -o %t.cu && %nvcc -arch=sm_80 -Werror all-warnings -c %t.cu -o %t.o %}
exogpu.import "sm80"

// The accepted twins of invalid.mlir's kernel_read_only cases: the
// non-coherent loads of stdlib/sm80.mlir read a buffer that their kernel
// never writes. One kernel of the proc writes `x` and the next reads it
// through ld.global.nc (the kernel boundary orders them; the precondition
// holds per kernel), and the second kernel writes `y`, another buffer.

// CHECK-LABEL: {{^}}fill_then_read_nc_kernel(
// CHECK: x[
// CHECK-LABEL: {{^}}fill_then_read_nc_kernel_1(
// CHECK: asm("ld.global.nc.v4.f32 {%0, %1, %2, %3}, [%4];" : "=f"(v[0]), "=f"(v[1]), "=f"(v[2]), "=f"(v[3]) : "l"(x + t * 4));
exogpu.proc @fill_then_read_nc(%x: f32[128] @CudaGmemLinear, %y: f32[128] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, 1) {
      exogpu.for %t in cuda_threads(0, 32, unit = cuda_thread) {
        exogpu.for %e in seq(0, 4) {
          exogpu.assign %x[%t * 4 + %e] = 1.0 : f32[128] @CudaGmemLinear
        }
      }
    }
  }
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %v = exogpu.alloc f32[32, 4] @CudaRmem
      exogpu.for %t in cuda_threads(0, 32, unit = cuda_thread) {
        exogpu.call @cuda_ld_global_nc_f32x4(%v[%t, :], %x[%t * 4:%t * 4 + 4]) : f32[32, 4] @CudaRmem, f32[128] @CudaGmemLinear
        exogpu.for %e in seq(0, 4) {
          exogpu.assign %y[%t * 4 + %e] = %v[%t, %e] : f32[128] @CudaGmemLinear, f32[32, 4] @CudaRmem
        }
      }
    }
  }
}
