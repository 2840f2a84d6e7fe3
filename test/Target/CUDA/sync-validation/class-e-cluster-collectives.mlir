// RUN: exogpu-opt %s --split-input-file --exogpu-sync-check -o /dev/null
// RUN: exogpu-translate --split-input-file --verify-diagnostics --to-cuda %s -o /dev/null

// Issue 30, class E: a collective whose threads are in several CTAs but
// are not the whole cluster has no hardware barrier (the cluster barrier is
// executed by every thread of the cluster): the translation rejects its
// Fence rather than lowering it to a CTA barrier of one code path (a hang
// next to the other path's cluster barrier) or to __syncthreads() (which
// orders nothing across CTAs).

exogpu.proc @warpgroup_of_each_cta(%g: f32[1024] @CudaGmemLinear, %out: f32[1024] @CudaGmemLinear) {
  exogpu.device_function(clusterDim = 2, blockDim = 256) {
    exogpu.for %task in cuda_tasks(0, 2) {
      exogpu.warps(0, 4) {
        exogpu.for %cta in cuda_threads(0, 2, unit = cuda_cta_in_cluster) {
          exogpu.for %t in cuda_threads(0, 128, unit = cuda_thread) {
            exogpu.assign %g[%task * 256 + %cta * 128 + %t] = 1.0 : f32[1024] @CudaGmemLinear
          }
        }
        // expected-error @+1 {{no hardware barrier synchronizes this Fence: its collective [0, 127] [256, 383] spans CTAs but is not the whole cluster, and only the cluster barrier, which every thread of the cluster executes, synchronizes threads of several CTAs}}
        exogpu.fence(cuda_in_order, cuda_in_order)
        exogpu.for %cta in cuda_threads(0, 2, unit = cuda_cta_in_cluster) {
          exogpu.for %t in cuda_threads(0, 128, unit = cuda_thread) {
            exogpu.assign %out[%task * 256 + %cta * 128 + %t] = %g[%task * 256 + (1 - %cta) * 128 + %t] : f32[1024] @CudaGmemLinear, f32[1024] @CudaGmemLinear
          }
        }
      }
      exogpu.fence(cuda_generic_and_async, cuda_in_order)
    }
  }
}

// -----

exogpu.proc @sixteen_threads_of_each_cta(%g: f32[1024] @CudaGmemLinear, %out: f32[1024] @CudaGmemLinear) {
  exogpu.device_function(clusterDim = 2, blockDim = 64) {
    exogpu.for %task in cuda_tasks(0, 2) {
      exogpu.for %q in cuda_threads(0, 1, unit = 16 * cuda_thread) {
        exogpu.for %cta in cuda_threads(0, 2, unit = cuda_cta_in_cluster) {
          exogpu.for %t in cuda_threads(0, 8, unit = cuda_thread) {
            exogpu.assign %g[%task * 256 + %cta * 8 + %t] = 1.0 : f32[1024] @CudaGmemLinear
          }
        }
        // expected-error @+1 {{no hardware barrier synchronizes this Fence: its collective [0, 15] [64, 79] spans CTAs but is not the whole cluster}}
        exogpu.fence(cuda_in_order, cuda_in_order)
        exogpu.for %cta in cuda_threads(0, 2, unit = cuda_cta_in_cluster) {
          exogpu.for %t in cuda_threads(0, 8, unit = cuda_thread) {
            exogpu.assign %out[%task * 256 + %cta * 8 + %t] = %g[%task * 256 + (1 - %cta) * 8 + %t] : f32[1024] @CudaGmemLinear, f32[1024] @CudaGmemLinear
          }
        }
      }
      exogpu.fence(cuda_generic_and_async, cuda_in_order)
    }
  }
}
