// RUN: exogpu-opt %s --exogpu-sync-check -o /dev/null
// RUN: exogpu-translate --to-cuda %s | FileCheck %s
// RUN: not exogpu-translate --to-cuda %s --sync-lowering-faults=no-syncwarp -o /dev/null 2>&1 | FileCheck %s --check-prefix=FAULT
// RUN: %if nvcc %{ exogpu-translate --to-cuda %s -o %t.cu && %nvcc -arch=sm_80 -Werror all-warnings -c %t.cu -o %t.o %}

// Issue 30, class B: an await hands on what its arrivers made visible, to
// the awaiting threads only. A writer thread stores s[0] and arrives on b1;
// in the relay warp only lane 5 awaits b1, then the whole warp arrives on
// b2; the reader warp awaits b2 and reads s[0]. Lane 0, which issues the
// warp's one elected arrive, never acquired b1: the warp must meet at
// __syncwarp() first. In the twin the whole relay warp awaits b1, so lane 0
// has what it hands on and the elected arrive goes without __syncwarp().
// The validator rejects the relay's arrive without __syncwarp()
// (--sync-lowering-faults=no-syncwarp), naming the store and lane 5.

// FAULT: sync-validation/class-b-partial-await.mlir:[[@LINE+31]]:11: error: CUDA translation: cannot justify the lowering of this synchronization: it hands on the write of s (thread 37 may see it) as the synchronization check relies on; missing: __syncwarp() before lane 0 of each warp arrives for it (thread 37 may see what lane 0 does not)
// FAULT: sync-validation/class-b-partial-await.mlir:[[@LINE+19]]:11: note: the write is here

// CHECK-LABEL: lane_awaits_then_warp_arrives_kernel(
// CHECK: // class-b-partial-await.mlir:{{[0-9]+}}: arrive(cuda_in_order, 1) >> b1[]
// CHECK-NEXT: exo::mbarrier_arrive(&b1[0]);
// CHECK: if (r == 5) {
// CHECK: exo::mbarrier_wait(&b1[0], b1_awaited % 2);
// CHECK: // class-b-partial-await.mlir:{{[0-9]+}}: arrive(cuda_in_order, 1) >> b2[]
// CHECK-NEXT: __syncwarp();
// CHECK-NEXT: if (exo_thread % 32 == 0) {
// CHECK-NEXT: exo::mbarrier_arrive(&b2[0]);
exogpu.proc @lane_awaits_then_warp_arrives(%out: f32[64] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 96) {
    exogpu.for %task in cuda_tasks(0, 2) {
      %s = exogpu.alloc f32[32] @CudaSmemLinear
      %b1 = exogpu.alloc barrier @CudaMbarrier
      %b2 = exogpu.alloc barrier @CudaMbarrier
      exogpu.warps(0, 1) {
        exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
          exogpu.assign %s[0] = 1.0 : f32[32] @CudaSmemLinear
          exogpu.arrive(cuda_in_order, 1) >> %b1 : barrier @CudaMbarrier
        }
      }
      exogpu.warps(1, 2) {
        exogpu.for %w in cuda_threads(0, 1, unit = cuda_warp) {
          exogpu.for %r in cuda_threads(0, 32, unit = cuda_thread) {
            exogpu.if %r == 5 {
              exogpu.await(%b1, cuda_in_order, -1) : barrier @CudaMbarrier
            }
          }
          exogpu.arrive(cuda_in_order, 1) >> %b2 : barrier @CudaMbarrier
        }
      }
      exogpu.warps(2, 3) {
        exogpu.for %w in cuda_threads(0, 1, unit = cuda_warp) {
          exogpu.await(%b2, cuda_in_order, -1) : barrier @CudaMbarrier
          exogpu.for %t in cuda_threads(0, 32, unit = cuda_thread) {
            exogpu.assign %out[%task * 32 + %t] = %s[0] : f32[64] @CudaGmemLinear, f32[32] @CudaSmemLinear
          }
        }
      }
      exogpu.fence(cuda_generic_and_async, cuda_in_order)
    }
  }
}

// CHECK-LABEL: warp_awaits_then_warp_arrives_kernel(
// CHECK: exo::mbarrier_wait(&b1[0], b1_awaited % 2);
// CHECK-NEXT: ++b1_awaited;
// CHECK-NEXT: // class-b-partial-await.mlir:{{[0-9]+}}: arrive(cuda_in_order, 1) >> b2[]
// CHECK-NEXT: if (exo_thread % 32 == 0) {
// CHECK-NEXT: exo::mbarrier_arrive(&b2[0]);
exogpu.proc @warp_awaits_then_warp_arrives(%out: f32[64] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 96) {
    exogpu.for %task in cuda_tasks(0, 2) {
      %s = exogpu.alloc f32[32] @CudaSmemLinear
      %b1 = exogpu.alloc barrier @CudaMbarrier
      %b2 = exogpu.alloc barrier @CudaMbarrier
      exogpu.warps(0, 1) {
        exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
          exogpu.assign %s[0] = 1.0 : f32[32] @CudaSmemLinear
          exogpu.arrive(cuda_in_order, 1) >> %b1 : barrier @CudaMbarrier
        }
      }
      exogpu.warps(1, 2) {
        exogpu.for %w in cuda_threads(0, 1, unit = cuda_warp) {
          exogpu.await(%b1, cuda_in_order, -1) : barrier @CudaMbarrier
          exogpu.arrive(cuda_in_order, 1) >> %b2 : barrier @CudaMbarrier
        }
      }
      exogpu.warps(2, 3) {
        exogpu.for %w in cuda_threads(0, 1, unit = cuda_warp) {
          exogpu.await(%b2, cuda_in_order, -1) : barrier @CudaMbarrier
          exogpu.for %t in cuda_threads(0, 32, unit = cuda_thread) {
            exogpu.assign %out[%task * 32 + %t] = %s[0] : f32[64] @CudaGmemLinear, f32[32] @CudaSmemLinear
          }
        }
      }
      exogpu.fence(cuda_generic_and_async, cuda_in_order)
    }
  }
}
