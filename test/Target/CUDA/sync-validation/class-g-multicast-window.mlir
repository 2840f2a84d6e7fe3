// RUN: exogpu-opt %s --exogpu-sync-check -o /dev/null
// RUN: exogpu-translate --to-cuda %s | FileCheck %s
// RUN: not exogpu-translate --to-cuda %s --sync-lowering-faults=cluster-wide-multicast -o /dev/null 2>&1 | FileCheck %s --check-prefix=FAULT
// RUN: %if nvcc %{ exogpu-translate --to-cuda %s -o %t.cu && %nvcc %sm90a -Werror all-warnings -c %t.cu -o %t.o %}

// Issue 30, class G: a multicast arrive reaches the CTAs its window names,
// and the barrier counts arrivals from those CTAs only. In a cluster of 4
// seen as 2 pairs, each CTA's warp stores to global memory and arrives
// `>> bar[p, c] >> bar[p, :]`: at its own barrier and its pair peer's (2
// arrivals per phase), not at all 3 other CTAs (where the other pair's
// arrivals would complete phases early, or half the arrivals never come).
// The twin's window is the whole cluster: 4 arrivals per phase, arrives at
// every peer. The validator rejects arrives at every CTA of the cluster for
// the pair's window (--sync-lowering-faults=cluster-wide-multicast).

// FAULT: sync-validation/class-g-multicast-window.mlir:[[@LINE+22]]:13: error: CUDA translation: cannot justify the lowering of this arrive: thread 0 arrives at the barrier in CTAs {0, 1, 2, 3}, but the window names CTAs {0, 1} (missing: arrives at exactly the CTAs of the window)

// CHECK-LABEL: multicast_to_the_pair_kernel(
// CHECK: // 1 element(s) x depth 1, 2 arrival(s) per phase
// CHECK-NEXT: if (exo_thread == 0) {
// CHECK-NEXT: exo::mbarrier_init(&bar[i], 2);
// CHECK: // class-g-multicast-window.mlir:{{[0-9]+}}: arrive(cuda_in_order, 1) >> bar[p, c] >> bar[p, :]
// CHECK-NEXT: __syncwarp();
// CHECK-NEXT: if (exo_thread % 32 == 0) {
// CHECK-NEXT: exo::mbarrier_arrive(&bar[0]);
// CHECK-NEXT: exo::mbarrier_arrive_peer_release(&bar[0], exo_cta ^ 1);
// CHECK-NEXT: }
exogpu.proc @multicast_to_the_pair(%g: f32[1024] @CudaGmemLinear, %out: f32[1024] @CudaGmemLinear) {
  exogpu.device_function(clusterDim = 4, blockDim = 64) {
    exogpu.for %task in cuda_tasks(0, 2) {
      %bar = exogpu.alloc barrier[2, 2] @CudaMbarrier
      exogpu.for %p in cuda_threads(0, 2, unit = 2 * cuda_cta_in_cluster) {
        exogpu.for %c in cuda_threads(0, 2, unit = cuda_cta_in_cluster) {
          exogpu.warps(0, 1) {
            exogpu.for %t in cuda_threads(0, 32, unit = cuda_thread) {
              exogpu.assign %g[%task * 128 + (%p * 2 + %c) * 32 + %t] = 1.0 : f32[1024] @CudaGmemLinear
            }
            exogpu.arrive(cuda_in_order, 1) >> %bar[%p, %c] >> %bar[%p, :] : barrier[2, 2] @CudaMbarrier
          }
        }
      }
      exogpu.for %p in cuda_threads(0, 2, unit = 2 * cuda_cta_in_cluster) {
        exogpu.for %c in cuda_threads(0, 2, unit = cuda_cta_in_cluster) {
          exogpu.warps(1, 2) {
            exogpu.for %w in cuda_threads(0, 1, unit = cuda_warp) {
              exogpu.await(%bar[%p, %c], cuda_in_order, -1) : barrier[2, 2] @CudaMbarrier
              exogpu.for %t in cuda_threads(0, 32, unit = cuda_thread) {
                exogpu.assign %out[%task * 128 + (%p * 2 + %c) * 32 + %t] = %g[%task * 128 + (%p * 2 + 1 - %c) * 32 + %t] : f32[1024] @CudaGmemLinear, f32[1024] @CudaGmemLinear
              }
            }
          }
        }
      }
      exogpu.fence(cuda_generic_and_async, cuda_in_order)
    }
  }
}

// CHECK-LABEL: multicast_to_the_cluster_kernel(
// CHECK: // 1 element(s) x depth 1, 4 arrival(s) per phase
// CHECK: // class-g-multicast-window.mlir:{{[0-9]+}}: arrive(cuda_in_order, 1) >> bar[cta] >> bar[:]
// CHECK: exo::mbarrier_arrive(&bar[0]);
// CHECK-NEXT: for (int exo_peer = 1; exo_peer < 4; ++exo_peer)
// CHECK-NEXT: exo::mbarrier_arrive_peer_release(&bar[0], (exo_cta + exo_peer) % 4);
exogpu.proc @multicast_to_the_cluster(%g: f32[1024] @CudaGmemLinear, %out: f32[1024] @CudaGmemLinear) {
  exogpu.device_function(clusterDim = 4, blockDim = 64) {
    exogpu.for %task in cuda_tasks(0, 2) {
      %bar = exogpu.alloc barrier[4] @CudaMbarrier
      exogpu.for %cta in cuda_threads(0, 4, unit = cuda_cta_in_cluster) {
        exogpu.warps(0, 1) {
          exogpu.for %t in cuda_threads(0, 32, unit = cuda_thread) {
            exogpu.assign %g[%task * 128 + %cta * 32 + %t] = 1.0 : f32[1024] @CudaGmemLinear
          }
          exogpu.arrive(cuda_in_order, 1) >> %bar[%cta] >> %bar[:] : barrier[4] @CudaMbarrier
        }
      }
      exogpu.for %cta in cuda_threads(0, 4, unit = cuda_cta_in_cluster) {
        exogpu.warps(1, 2) {
          exogpu.for %w in cuda_threads(0, 1, unit = cuda_warp) {
            exogpu.await(%bar[%cta], cuda_in_order, -1) : barrier[4] @CudaMbarrier
            exogpu.for %t in cuda_threads(0, 32, unit = cuda_thread) {
              exogpu.assign %out[%task * 128 + %cta * 32 + %t] = %g[%task * 128 + (3 - %cta) * 32 + %t] : f32[1024] @CudaGmemLinear, f32[1024] @CudaGmemLinear
            }
          }
        }
      }
      exogpu.fence(cuda_generic_and_async, cuda_in_order)
    }
  }
}
