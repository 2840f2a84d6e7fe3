// RUN: exogpu-opt %s --exogpu-sync-check -o /dev/null
// RUN: exogpu-translate --to-cuda %s | FileCheck %s
// RUN: not exogpu-translate --to-cuda %s --sync-lowering-faults=cta-acquire -o /dev/null 2>&1 | FileCheck %s --check-prefix=FAULT
// RUN: %if nvcc %{ exogpu-translate --to-cuda %s -o %t.cu && %nvcc %sm90a -Werror all-warnings -c %t.cu -o %t.o %}

// Issue 30, class D: acquire scope follows release scope. A warp of each
// CTA of a cluster of 2 stores to global memory and arrives at its own and
// the peer CTA's barrier; the peer awaits and reads the stores. The peer
// arrive releases at cluster scope, so the await must acquire at cluster
// scope (mbarrier.try_wait's default is .acquire.cta). The twin arrives at
// its own CTA's barrier only, and its await keeps the CTA-scope acquire.
// The validator rejects CTA-scope acquires of the first kernel
// (--sync-lowering-faults=cta-acquire), naming the store.

// FAULT: sync-validation/class-d-acquire-scope.mlir:[[@LINE+17]]:11: error: CUDA translation: cannot justify the lowering of this synchronization: it hands on to CTA 1 the write of g (thread 0 may see it) as the synchronization check relies on; missing: an acquire at cluster scope in the awaits of the barrier (mbarrier.try_wait.acquire.cluster)
// FAULT: sync-validation/class-d-acquire-scope.mlir:[[@LINE+14]]:13: note: the write is here

// CHECK-LABEL: peer_release_cluster_acquire_kernel(
// CHECK: // class-d-acquire-scope.mlir:{{[0-9]+}}: arrive(cuda_in_order, 1) >> bar[cta] >> bar[:]
// CHECK: exo::mbarrier_arrive_peer_release(&bar[0], exo_cta ^ 1);
// CHECK: // class-d-acquire-scope.mlir:{{[0-9]+}}: await(bar[cta], cuda_in_order, -1)
// CHECK-NEXT: exo::mbarrier_wait_acquire_cluster(&bar[0], bar_awaited % 2);
exogpu.proc @peer_release_cluster_acquire(%g: f32[256] @CudaGmemLinear, %out: f32[256] @CudaGmemLinear) {
  exogpu.device_function(clusterDim = 2, blockDim = 64) {
    exogpu.for %task in cuda_tasks(0, 2) {
      %bar = exogpu.alloc barrier[2] @CudaMbarrier
      exogpu.for %cta in cuda_threads(0, 2, unit = cuda_cta_in_cluster) {
        exogpu.warps(0, 1) {
          exogpu.for %t in cuda_threads(0, 32, unit = cuda_thread) {
            exogpu.assign %g[%task * 64 + %cta * 32 + %t] = 1.0 : f32[256] @CudaGmemLinear
          }
          exogpu.arrive(cuda_in_order, 1) >> %bar[%cta] >> %bar[:] : barrier[2] @CudaMbarrier
        }
      }
      exogpu.for %cta in cuda_threads(0, 2, unit = cuda_cta_in_cluster) {
        exogpu.warps(1, 2) {
          exogpu.for %w in cuda_threads(0, 1, unit = cuda_warp) {
            exogpu.await(%bar[%cta], cuda_in_order, -1) : barrier[2] @CudaMbarrier
            exogpu.for %t in cuda_threads(0, 32, unit = cuda_thread) {
              exogpu.assign %out[%task * 64 + %cta * 32 + %t] = %g[%task * 64 + (1 - %cta) * 32 + %t] : f32[256] @CudaGmemLinear, f32[256] @CudaGmemLinear
            }
          }
        }
      }
      exogpu.fence(cuda_generic_and_async, cuda_in_order)
    }
  }
}

// CHECK-LABEL: own_release_cta_acquire_kernel(
// CHECK: // class-d-acquire-scope.mlir:{{[0-9]+}}: arrive(cuda_in_order, 1) >> bar[cta]
// CHECK-NOT: peer
// CHECK: // class-d-acquire-scope.mlir:{{[0-9]+}}: await(bar[cta], cuda_in_order, -1)
// CHECK-NEXT: exo::mbarrier_wait(&bar[0], bar_awaited % 2);
exogpu.proc @own_release_cta_acquire(%g: f32[256] @CudaGmemLinear, %out: f32[256] @CudaGmemLinear) {
  exogpu.device_function(clusterDim = 2, blockDim = 64) {
    exogpu.for %task in cuda_tasks(0, 2) {
      %bar = exogpu.alloc barrier[2] @CudaMbarrier
      exogpu.for %cta in cuda_threads(0, 2, unit = cuda_cta_in_cluster) {
        exogpu.warps(0, 1) {
          exogpu.for %t in cuda_threads(0, 32, unit = cuda_thread) {
            exogpu.assign %g[%task * 64 + %cta * 32 + %t] = 1.0 : f32[256] @CudaGmemLinear
          }
          exogpu.arrive(cuda_in_order, 1) >> %bar[%cta] : barrier[2] @CudaMbarrier
        }
      }
      exogpu.for %cta in cuda_threads(0, 2, unit = cuda_cta_in_cluster) {
        exogpu.warps(1, 2) {
          exogpu.for %w in cuda_threads(0, 1, unit = cuda_warp) {
            exogpu.await(%bar[%cta], cuda_in_order, -1) : barrier[2] @CudaMbarrier
            exogpu.for %t in cuda_threads(0, 32, unit = cuda_thread) {
              exogpu.assign %out[%task * 64 + %cta * 32 + %t] = %g[%task * 64 + %cta * 32 + %t] : f32[256] @CudaGmemLinear, f32[256] @CudaGmemLinear
            }
          }
        }
      }
      exogpu.fence(cuda_generic_and_async, cuda_in_order)
    }
  }
}
