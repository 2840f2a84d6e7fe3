// RUN: exogpu-opt %s --exogpu-sync-check -o /dev/null
// RUN: exogpu-translate --to-cuda %s | FileCheck %s
// RUN: not exogpu-translate --to-cuda %s --sync-lowering-faults=relaxed-peer-arrives -o /dev/null 2>&1 | FileCheck %s --check-prefix=FAULT
// RUN: %if nvcc %{ exogpu-translate --to-cuda %s -o %t.cu && %nvcc %sm90a -Werror all-warnings -c %t.cu -o %t.o %}

// Issue 30, class A: a Fence of one CTA is not a rendezvous of the cluster.
// Each CTA of a cluster of 2 stores to global memory, meets at a Fence of
// the CTA, and its first warpgroup arrives at the peer CTA's barrier; the
// peer awaits and reads the stores. The CTA barrier orders the stores
// before the arrive at CTA scope only: the peer arrive must release at
// cluster scope (and the await acquire at cluster scope, class D). The
// twin meets at a Fence of the whole cluster first (the cluster barrier
// releases and acquires at cluster scope), so its peer arrive stays
// relaxed.
// The validator rejects the relaxed peer arrive of the first kernel
// (--sync-lowering-faults=relaxed-peer-arrives), naming the store.

// CHECK-LABEL: cta_fence_then_peer_arrive_kernel(
// CHECK: // class-a-cluster-release.mlir:{{[0-9]+}}: fence(cuda_in_order, cuda_in_order)
// CHECK-NEXT: __syncthreads();
// CHECK: // class-a-cluster-release.mlir:{{[0-9]+}}: arrive(cuda_in_order, 1) >> bar[cta] >> bar[:]
// CHECK-NEXT: if (exo_thread % 128 == 0) {
// CHECK-NEXT: exo::mbarrier_arrive(&bar[0]);
// CHECK-NEXT: exo::mbarrier_arrive_peer_release(&bar[0], exo_cta ^ 1);
// CHECK: exo::mbarrier_wait_acquire_cluster(&bar[0], bar_awaited % 2);
// FAULT: class-a-cluster-release.mlir:[[@LINE+14]]:11: error: CUDA translation: cannot justify the lowering of this synchronization: it hands on to CTA 1 the write of g (thread 0 may see it) as the synchronization check relies on; missing: a release at cluster scope (mbarrier.arrive.release.cluster) or a cluster barrier before it
// FAULT: class-a-cluster-release.mlir:[[@LINE+8]]:13: note: the write is here
exogpu.proc @cta_fence_then_peer_arrive(%g: f32[512] @CudaGmemLinear, %out: f32[512] @CudaGmemLinear) {
  exogpu.device_function(clusterDim = 2, blockDim = 256) {
    exogpu.for %task in cuda_tasks(0, 2) {
      %bar = exogpu.alloc barrier[2] @CudaMbarrier
      exogpu.for %cta in cuda_threads(0, 2, unit = cuda_cta_in_cluster) {
        exogpu.warps(0, 4) {
          exogpu.for %t in cuda_threads(0, 128, unit = cuda_thread) {
            exogpu.assign %g[%task * 256 + %cta * 128 + %t] = 1.0 : f32[512] @CudaGmemLinear
          }
        }
        exogpu.fence(cuda_in_order, cuda_in_order)
        exogpu.warps(0, 4) {
          exogpu.arrive(cuda_in_order, 1) >> %bar[%cta] >> %bar[:] : barrier[2] @CudaMbarrier
        }
      }
      exogpu.for %cta in cuda_threads(0, 2, unit = cuda_cta_in_cluster) {
        exogpu.warps(4, 5) {
          exogpu.for %w in cuda_threads(0, 1, unit = cuda_warp) {
            exogpu.await(%bar[%cta], cuda_in_order, -1) : barrier[2] @CudaMbarrier
            exogpu.for %t in cuda_threads(0, 32, unit = cuda_thread) {
              exogpu.assign %out[%task * 256 + %cta * 32 + %t] = %g[%task * 256 + (1 - %cta) * 128 + %t] : f32[512] @CudaGmemLinear, f32[512] @CudaGmemLinear
            }
          }
        }
      }
      exogpu.fence(cuda_generic_and_async, cuda_in_order)
    }
  }
}

// CHECK-LABEL: cluster_fence_then_peer_arrive_kernel(
// CHECK: // class-a-cluster-release.mlir:{{[0-9]+}}: fence(cuda_in_order, cuda_in_order)
// CHECK-NEXT: exo::cluster_sync();
// CHECK: // class-a-cluster-release.mlir:{{[0-9]+}}: arrive(cuda_in_order, 1) >> bar[cta] >> bar[:]
// CHECK-NEXT: if (exo_thread % 128 == 0) {
// CHECK-NEXT: exo::mbarrier_arrive(&bar[0]);
// CHECK-NEXT: exo::mbarrier_arrive_peer(&bar[0], exo_cta ^ 1);
exogpu.proc @cluster_fence_then_peer_arrive(%g: f32[512] @CudaGmemLinear, %out: f32[512] @CudaGmemLinear) {
  exogpu.device_function(clusterDim = 2, blockDim = 256) {
    exogpu.for %task in cuda_tasks(0, 2) {
      %bar = exogpu.alloc barrier[2] @CudaMbarrier
      exogpu.for %cta in cuda_threads(0, 2, unit = cuda_cta_in_cluster) {
        exogpu.warps(0, 4) {
          exogpu.for %t in cuda_threads(0, 128, unit = cuda_thread) {
            exogpu.assign %g[%task * 256 + %cta * 128 + %t] = 1.0 : f32[512] @CudaGmemLinear
          }
        }
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
      exogpu.for %cta in cuda_threads(0, 2, unit = cuda_cta_in_cluster) {
        exogpu.warps(0, 4) {
          exogpu.arrive(cuda_in_order, 1) >> %bar[%cta] >> %bar[:] : barrier[2] @CudaMbarrier
        }
      }
      exogpu.for %cta in cuda_threads(0, 2, unit = cuda_cta_in_cluster) {
        exogpu.warps(4, 5) {
          exogpu.for %w in cuda_threads(0, 1, unit = cuda_warp) {
            exogpu.await(%bar[%cta], cuda_in_order, -1) : barrier[2] @CudaMbarrier
            exogpu.for %t in cuda_threads(0, 32, unit = cuda_thread) {
              exogpu.assign %out[%task * 256 + %cta * 32 + %t] = %g[%task * 256 + (1 - %cta) * 128 + %t] : f32[512] @CudaGmemLinear, f32[512] @CudaGmemLinear
            }
          }
        }
      }
      exogpu.fence(cuda_generic_and_async, cuda_in_order)
    }
  }
}
