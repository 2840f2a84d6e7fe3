// RUN: exogpu-translate --to-cuda %s | FileCheck %s
// RUN: exogpu-opt %s --exogpu-sync-check -o /dev/null
// RUN: %if nvcc %{ exogpu-translate --to-cuda %s -o %t.cu && %nvcc %sm90a -Werror all-warnings -Xptxas -v -c %t.cu -o %t.o 2>&1 | FileCheck %s --check-prefix=PTXAS %}

// Warp specialization (seeds/002 Fig. 3, Sec. 4.2; guide "Warp
// Specialization"): one code path per named warp group, setmaxnreg per
// warpgroup with __launch_bounds__(blockDim, 1) so ptxas honours it, each
// path running the whole task loop with only its own warps blocks; CTA
// barriers across paths use the non-aligned barrier.sync.
// PTXAS-NOT: {{[1-9][0-9]*}} bytes spill

// CHECK-LABEL: __global__ void __launch_bounds__(384, 1)
// CHECK-NEXT: roles_kernel(
// CHECK: const int exo_warp = __shfl_sync(0xffffffffu, exo_thread / 32, 0);
// CHECK-NEXT: if (exo_warp < 4) {
// CHECK-NEXT: // warps 0-3: "loader", "idle", 40 registers
// CHECK-NEXT: asm volatile("setmaxnreg.dec.sync.aligned.u32 40;");
// CHECK-NEXT: if (exo_warp < 1) {
// CHECK-NEXT: // warp group "loader": warp 0
// CHECK: warp-specialization.mlir:{{[0-9]+}}: warps "loader"
// CHECK: // warp-specialization.mlir:{{[0-9]+}}: fence(cuda_in_order, cuda_in_order)
// CHECK-NEXT: asm volatile("barrier.sync 0;" ::: "memory");
// CHECK: } else {
// CHECK-NEXT: // warp group "idle": warps 1-3
// CHECK-NOT: warps "loader"
// CHECK-NOT: warps "math"
// CHECK: asm volatile("barrier.sync 0;" ::: "memory");
// CHECK: } else {
// CHECK-NEXT: // warps 4-11: "math", 232 registers
// CHECK-NEXT: asm volatile("setmaxnreg.inc.sync.aligned.u32 232;");
// CHECK: warp-specialization.mlir:{{[0-9]+}}: warps "math"
// CHECK: const int wg = exo_thread / 128 - 1;
// CHECK: asm volatile("barrier.sync 0;" ::: "memory");
exogpu.proc @roles(%g: f32[256] @CudaGmemLinear, %out: f32[256] @CudaGmemLinear) {
  exogpu.device_function(warps = ["loader" = (1, 40, 0), "idle" = (3, 40, 0), "math" = (8, 0, 232)]) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %s = exogpu.alloc f32[256] @CudaSmemLinear
      exogpu.warps "loader" {
        exogpu.for %t in cuda_threads(0, 32, unit = cuda_thread) {
          exogpu.for %i in seq(0, 8) {
            exogpu.assign %s[%i * 32 + %t] = %g[%i * 32 + %t] : f32[256] @CudaSmemLinear, f32[256] @CudaGmemLinear
          }
        }
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
      exogpu.warps "math" {
        exogpu.for %wg in cuda_threads(0, 2, unit = cuda_warpgroup) {
          exogpu.for %t in cuda_threads(0, 128, unit = cuda_thread) {
            exogpu.assign %out[%wg * 128 + %t] = %s[%wg * 128 + %t] * 2.0 : f32[256] @CudaGmemLinear, f32[256] @CudaSmemLinear
          }
        }
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// Without register counts, each warp group is its own branch.
// CHECK-LABEL: plain_groups_kernel(
// CHECK: if (exo_warp < 2) {
// CHECK-NEXT: // warps 0-1: "a"
// CHECK: } else {
// CHECK-NEXT: // warps 2-3: "b"
exogpu.proc @plain_groups(%out: f32[128] @CudaGmemLinear) {
  exogpu.device_function(warps = ["a" = (2, 0, 0), "b" = (2, 0, 0)]) {
    exogpu.for %task in cuda_tasks(0, 1) {
      exogpu.warps "a" {
        exogpu.for %t in cuda_threads(0, 64, unit = cuda_thread) {
          exogpu.assign %out[%t] = 1.0 : f32[128] @CudaGmemLinear
        }
      }
      exogpu.warps "b" {
        exogpu.for %t in cuda_threads(0, 64, unit = cuda_thread) {
          exogpu.assign %out[64 + %t] = 2.0 : f32[128] @CudaGmemLinear
        }
      }
    }
  }
}
