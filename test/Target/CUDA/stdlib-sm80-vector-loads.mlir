// RUN: exogpu-translate --to-cuda %s | FileCheck %s
// RUN: exogpu-opt %s --exogpu-sync-check -o /dev/null
// RUN: exogpu-opt %s --exogpu-sync-check=engine=reference -o /dev/null
// RUN: %if nvcc %{ exogpu-translate --to-cuda %s -o %t.cu && %nvcc -arch=sm_80 -Werror all-warnings -Xptxas -v -c %t.cu -o %t.o 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: %if nvcc && cuobjdump %{ %cuobjdump -sass %t.o | FileCheck %s --check-prefix=SASS --implicit-check-not=LDL --implicit-check-not=STL %}
exogpu.import "sm80"

// The 16-byte global loads of stdlib/sm80.mlir (examples/gemv_fast.mlir),
// called from a kernel that passes the collective analysis, the distributed
// memory deduction and the synchronization check (both engines): each
// thread loads 4 floats of a row of A (streamed, no L1 allocation) and 4 of
// x (through L1) into registers and writes their products. The template's
// expansion, ptxas (no spills, no stack) and one 128-bit load each in the
// SASS.

// PTXAS: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// SASS-DAG: LDG.E.128.CONSTANT
// SASS-DAG: LDG.E.NA.128.CONSTANT

// CHECK-LABEL: {{^}}vector_loads_kernel(
// CHECK: float a[4];
// CHECK: float v[4];
// CHECK: call @cuda_ld_global_stream_f32x4(a[t, :], A[task, t * 4:t * 4 + 4])
// CHECK-NEXT: asm("ld.global.nc.L1::no_allocate.v4.f32 {%0, %1, %2, %3}, [%4];" : "=f"(a[0]), "=f"(a[1]), "=f"(a[2]), "=f"(a[3]) : "l"(A + task * 128 + t * 4));
// CHECK: call @cuda_ld_global_nc_f32x4(v[t, :], x[t * 4:t * 4 + 4])
// CHECK-NEXT: asm("ld.global.nc.v4.f32 {%0, %1, %2, %3}, [%4];" : "=f"(v[0]), "=f"(v[1]), "=f"(v[2]), "=f"(v[3]) : "l"(x + t * 4));
exogpu.proc @vector_loads(%A: f32[4, 128] @CudaGmemLinear, %x: f32[128] @CudaGmemLinear, %y: f32[4, 128] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, 4) {
      %a = exogpu.alloc f32[32, 4] @CudaRmem
      %v = exogpu.alloc f32[32, 4] @CudaRmem
      exogpu.for %t in cuda_threads(0, 32, unit = cuda_thread) {
        exogpu.call @cuda_ld_global_stream_f32x4(%a[%t, :], %A[%task, %t * 4:%t * 4 + 4]) : f32[32, 4] @CudaRmem, f32[4, 128] @CudaGmemLinear
        exogpu.call @cuda_ld_global_nc_f32x4(%v[%t, :], %x[%t * 4:%t * 4 + 4]) : f32[32, 4] @CudaRmem, f32[128] @CudaGmemLinear
        exogpu.for %e in seq(0, 4) {
          exogpu.assign %y[%task, %t * 4 + %e] = %a[%t, %e] * %v[%t, %e] : f32[4, 128] @CudaGmemLinear, f32[32, 4] @CudaRmem, f32[32, 4] @CudaRmem
        }
      }
    }
  }
}
