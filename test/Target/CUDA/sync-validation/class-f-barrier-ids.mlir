// RUN: exogpu-opt %s --exogpu-sync-check -o /dev/null
// RUN: exogpu-translate --to-cuda %s | FileCheck %s
// RUN: not exogpu-translate --to-cuda %s --sync-lowering-faults=shared-barrier-ids -o /dev/null 2>&1 | FileCheck %s --check-prefix=FAULT
// RUN: %if nvcc %{ exogpu-translate --to-cuda %s -o %t.cu && %nvcc -arch=sm_80 -Werror all-warnings -c %t.cu -o %t.o %}

// Issue 30, class F: a named barrier id is used with one set of threads and
// one thread count (PTX requires every bar.sync of an id in flight to name
// the same count). Warps 0-1 of each warpgroup meet at a Fence, then the
// whole warpgroup: the 64-thread barriers (ids 1, 2) and the 128-thread
// ones (ids 3, 4) get ids of their own; the two Fences of whole
// warpgroups share theirs (the cheap form: one family of ids for one set
// of participants). The validator rejects one family of ids for both
// (--sync-lowering-faults=shared-barrier-ids), naming the id and both
// sets of threads.

// FAULT: sync-validation/class-f-barrier-ids.mlir:[[@LINE+23]]:9: error: CUDA translation: cannot justify the lowering of this Fence: named barrier 1 is used by threads {0-127} of a CTA with 128 threads, and elsewhere by {0-63} with 64 (missing: a barrier id of its own for each set of participating warps)

// CHECK-LABEL: nested_warp_pair_and_warpgroup_kernel(
// CHECK: // class-f-barrier-ids.mlir:{{[0-9]+}}: fence(cuda_in_order, cuda_in_order)
// CHECK-NEXT: asm volatile("bar.sync %0, %1;" :: "r"(1 + exo_thread / 128), "r"(64) : "memory");
// CHECK: // class-f-barrier-ids.mlir:{{[0-9]+}}: fence(cuda_in_order, cuda_in_order)
// CHECK-NEXT: asm volatile("bar.sync %0, %1;" :: "r"(3 + exo_thread / 128), "r"(128) : "memory");
// CHECK: // class-f-barrier-ids.mlir:{{[0-9]+}}: fence(cuda_in_order, cuda_in_order)
// CHECK-NEXT: asm volatile("bar.sync %0, %1;" :: "r"(3 + exo_thread / 128), "r"(128) : "memory");
exogpu.proc @nested_warp_pair_and_warpgroup(%out: f32[1024] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 256) {
    exogpu.for %task in cuda_tasks(0, 2) {
      %s = exogpu.alloc f32[2, 128] @CudaSmemLinear
      exogpu.for %wg in cuda_threads(0, 2, unit = cuda_warpgroup) {
        exogpu.for %h in cuda_threads(0, 1, unit = 2 * cuda_warp) {
          exogpu.for %t in cuda_threads(0, 64, unit = cuda_thread) {
            exogpu.assign %s[%wg, %t] = 1.0 : f32[2, 128] @CudaSmemLinear
          }
          exogpu.fence(cuda_in_order, cuda_in_order)
          exogpu.for %t in cuda_threads(0, 64, unit = cuda_thread) {
            exogpu.assign %out[%task * 512 + %wg * 256 + %t] = %s[%wg, 63 - %t] : f32[1024] @CudaGmemLinear, f32[2, 128] @CudaSmemLinear
          }
        }
        exogpu.fence(cuda_in_order, cuda_in_order)
        exogpu.for %t in cuda_threads(0, 128, unit = cuda_thread) {
          exogpu.assign %s[%wg, %t] = 2.0 : f32[2, 128] @CudaSmemLinear
        }
        exogpu.fence(cuda_in_order, cuda_in_order)
        exogpu.for %t in cuda_threads(0, 128, unit = cuda_thread) {
          exogpu.assign %out[%task * 512 + %wg * 256 + 128 + %t] = %s[%wg, 127 - %t] : f32[1024] @CudaGmemLinear, f32[2, 128] @CudaSmemLinear
        }
      }
      exogpu.fence(cuda_generic_and_async, cuda_in_order)
    }
  }
}
