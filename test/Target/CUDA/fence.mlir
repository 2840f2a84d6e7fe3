// RUN: exogpu-translate --to-cuda %s | FileCheck %s
// The programs pass the synchronization check.
// RUN: exogpu-opt %s --exogpu-sync-check -o /dev/null
// RUN: %if nvcc %{ exogpu-translate --to-cuda %s -o %t.cu && %nvcc %sm90a -Werror all-warnings -c %t.cu -o %t.o %}

// Fence(pre, post) (seeds/002 Sec. 2.1, Fig. 16): waits for the executing
// threads' pending async work on pre's full timelines, wgmma and proxy
// fences where post needs them, and a rendezvous of the executing
// collective. One proc per row of the table in docs/cuda-translation.md.

// Test instructions standing for the async work whose waits a Fence emits.
exogpu.instr @cp_async(%dst: f32[4] @CudaSmemLinear {out_of_order, init = Sm80_cp_async_qual, ext = [Sm80_cp_async_qual]}, %src: f32[4] @CudaGmemLinear {out_of_order, init = Sm80_cp_async_qual, ext = [Sm80_cp_async_qual]})
    target = cuda, unit = cuda_thread, cuda = "asm volatile(\"// cp.async\" :: \"l\"({dst}), \"l\"({src}));" {
  exogpu.for %i in seq(0, 4) {
    exogpu.assign %dst[%i] = %src[%i] : f32[4] @CudaSmemLinear, f32[4] @CudaGmemLinear
  }
}
exogpu.instr @wgmma(%d: f32[64, 64] @Sm90_RmemMatrixD(64, 64) {convergent, init = wgmma_async_rmem_d_qual, ext = [wgmma_async_rmem_d_qual]}, %a: f32[64, 8] @Sm90_SmemSwizzled(128) {out_of_order, convergent, init = wgmma_async_smem_qual, ext = [wgmma_async_smem_qual]})
    target = cuda, unit = cuda_warpgroup, cuda = "asm volatile(\"// wgmma\" : {d.regs} : \"l\"({a}));" {
  exogpu.for %m in seq(0, 64) {
    exogpu.for %n in seq(0, 64) {
      exogpu.reduce %d[%m, %n] += %a[%m, 0] : f32[64, 64] @Sm90_RmemMatrixD(64, 64), f32[64, 8] @Sm90_SmemSwizzled(128)
    }
  }
}
exogpu.instr @zero_d(%d: f32[64, 64] @Sm90_RmemMatrixD(64, 64) {convergent})
    target = cuda, unit = cuda_warpgroup, cuda = "for (int r = 0; r < 32; ++r) {d}[r] = 0.f;" {
  exogpu.for %m in seq(0, 64) {
    exogpu.for %n in seq(0, 64) {
      exogpu.assign %d[%m, %n] = 0.0 : f32[64, 64] @Sm90_RmemMatrixD(64, 64)
    }
  }
}
exogpu.instr @tma_store(%dst: f32[16] @CudaGmemLinear {out_of_order, init = tma_to_gmem_async_qual, ext = [tma_to_gmem_async_qual]}, %src: f32[16] @CudaSmemLinear {out_of_order, init = tma_to_gmem_async_qual, ext = [tma_to_gmem_async_qual]})
    target = cuda, unit = cuda_thread, cuda = "asm volatile(\"// bulk store\" :: \"l\"({dst}), \"l\"({src}));" {
  exogpu.for %i in seq(0, 16) {
    exogpu.assign %dst[%i] = %src[%i] : f32[16] @CudaGmemLinear, f32[16] @CudaSmemLinear
  }
}

// Rendezvous by collective: the CTA, a warp, part of a warp, whole warps
// (named barriers, one id per collective), one thread (nothing).
// CHECK-LABEL: collectives_kernel(
// CHECK: // fence.mlir:{{[0-9]+}}: fence(cuda_in_order, cuda_in_order)
// CHECK-NEXT: __syncthreads();
// CHECK: // fence.mlir:{{[0-9]+}}: fence(cuda_in_order, cuda_in_order)
// CHECK-NEXT: __syncwarp();
// CHECK: // fence.mlir:{{[0-9]+}}: fence(cuda_in_order, cuda_in_order)
// CHECK-NEXT: __syncwarp(255u << (exo_thread % 32 / 8 * 8));
// CHECK: // fence.mlir:{{[0-9]+}}: fence(cuda_in_order, cuda_in_order)
// CHECK-NEXT: asm volatile("bar.sync %0, %1;" :: "r"(1 + exo_thread / 64), "r"(64) : "memory");
// CHECK: // fence.mlir:{{[0-9]+}}: fence(cuda_in_order, cuda_in_order)
// CHECK-NEXT: // fence.mlir:{{[0-9]+}}: assign g[t] = s[t]
exogpu.proc @collectives(%g: f32[128] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 128) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %s = exogpu.alloc f32[128] @CudaSmemLinear
      exogpu.for %t in cuda_threads(0, 128, unit = cuda_thread) {
        exogpu.assign %s[%t] = %g[%t] : f32[128] @CudaSmemLinear, f32[128] @CudaGmemLinear
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
      exogpu.for %w in cuda_threads(0, 4, unit = cuda_warp) {
        exogpu.fence(cuda_in_order, cuda_in_order)
        exogpu.for %e in cuda_threads(0, 4, unit = 8 * cuda_thread) {
          exogpu.fence(cuda_in_order, cuda_in_order)
        }
      }
      exogpu.for %p in cuda_threads(0, 2, unit = 2 * cuda_warp) {
        exogpu.fence(cuda_in_order, cuda_in_order)
      }
      exogpu.for %t in cuda_threads(0, 128, unit = cuda_thread) {
        exogpu.fence(cuda_in_order, cuda_in_order)
        exogpu.assign %g[%t] = %s[%t] : f32[128] @CudaGmemLinear, f32[128] @CudaSmemLinear
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// cp.async (Sm80_cp_async in pre's full set): the executing threads wait
// for their copies before the rendezvous.
// CHECK-LABEL: async_copies_kernel(
// CHECK: // fence.mlir:{{[0-9]+}}: fence(Sm80_generic, Sm80_generic)
// CHECK-NEXT: asm volatile("cp.async.wait_all;" ::: "memory");
// CHECK-NEXT: __syncthreads();
// CHECK: // fence.mlir:{{[0-9]+}}: fence(cuda_in_order, cuda_in_order)
// CHECK-NEXT: __syncthreads();
exogpu.proc @async_copies(%g: f32[512] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 128) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %s = exogpu.alloc f32[512] @CudaSmemLinear
      exogpu.for %t in cuda_threads(0, 128, unit = cuda_thread) {
        exogpu.call @cp_async(%s[%t * 4:%t * 4 + 4], %g[%t * 4:%t * 4 + 4]) : f32[512] @CudaSmemLinear, f32[512] @CudaGmemLinear
      }
      exogpu.fence(Sm80_generic, Sm80_generic)
      exogpu.for %t in cuda_threads(0, 128, unit = cuda_thread) {
        exogpu.assign %g[%t] = %s[%t] : f32[512] @CudaGmemLinear, f32[512] @CudaSmemLinear
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// wgmma (sm_90a): wgmma_fence_1 -> wgmma_fence_2 is wgmma.fence alone (the
// warpgroup's own registers: no rendezvous); a fence from wgmma_async to
// in-order code waits for the warpgroup's wgmmas (wait_group 0); generic
// shared-memory writes before async-proxy reads (wgmma, TMA) take a proxy
// fence before the rendezvous, and a later fence needs none when no generic
// shared-memory access came since (proxy-fences.mlir); a cluster-wide
// fence is the cluster barrier.
// CHECK-LABEL: tensor_cores_kernel(
// CHECK: // fence.mlir:{{[0-9]+}}: fence(cuda_in_order, cuda_async_proxy)
// CHECK-NEXT: exo::fence_proxy_async();
// CHECK-NEXT: asm volatile("bar.sync %0, %1;" :: "r"(1 + exo_thread / 128), "r"(128) : "memory");
// CHECK: // fence.mlir:{{[0-9]+}}: fence(wgmma_fence_1, wgmma_fence_2)
// CHECK-NEXT: asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
// CHECK-NEXT: // fence.mlir:{{[0-9]+}}: call @wgmma
// CHECK: // fence.mlir:{{[0-9]+}}: fence(wgmma_async, cuda_in_order)
// CHECK-NEXT: asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
// CHECK-NEXT: asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
// CHECK-NEXT: asm volatile("bar.sync %0, %1;" :: "r"(1 + exo_thread / 128), "r"(128) : "memory");
// CHECK: // fence.mlir:{{[0-9]+}}: fence(cuda_generic_and_async, cuda_in_order)
// CHECK-NEXT: asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
// CHECK-NEXT: asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
// CHECK-NEXT: asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
// CHECK-NEXT: exo::cluster_sync();
exogpu.proc @tensor_cores(%g: f32[1024] @CudaGmemLinear) {
  exogpu.device_function(clusterDim = 2, blockDim = 256) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %a = exogpu.alloc f32[2, 2, 64, 8] @Sm90_SmemSwizzled(128)
      %d = exogpu.alloc f32[2, 2, 64, 64] @Sm90_RmemMatrixD(64, 64)
      exogpu.for %cta in cuda_threads(0, 2, unit = cuda_cta_in_cluster) {
        exogpu.for %wg in cuda_threads(0, 2, unit = cuda_warpgroup) {
          exogpu.for %t in cuda_threads(0, 128, unit = cuda_thread) {
            exogpu.assign %a[%cta, %wg, %t / 2, %t mod 2] = %g[%t] : f32[2, 2, 64, 8] @Sm90_SmemSwizzled(128), f32[1024] @CudaGmemLinear
          }
          exogpu.call @zero_d(%d[%cta, %wg, :, :]) : f32[2, 2, 64, 64] @Sm90_RmemMatrixD(64, 64)
          exogpu.fence(cuda_in_order, cuda_async_proxy)
          exogpu.fence(wgmma_fence_1, wgmma_fence_2)
          exogpu.call @wgmma(%d[%cta, %wg, :, :], %a[%cta, %wg, :, :]) : f32[2, 2, 64, 64] @Sm90_RmemMatrixD(64, 64), f32[2, 2, 64, 8] @Sm90_SmemSwizzled(128)
          exogpu.fence(wgmma_async, cuda_in_order)
        }
      }
      exogpu.fence(cuda_generic_and_async, cuda_in_order)
    }
  }
}

// A bulk (TMA) store's shared-memory reads (tma_to_gmem_async in pre's full
// set): cp.async.bulk.wait_group 0 before the buffer is reused.
// CHECK-LABEL: bulk_kernel(
// CHECK: // fence.mlir:{{[0-9]+}}: fence(tma_to_gmem_async, cuda_in_order)
// CHECK-NEXT: asm volatile("cp.async.bulk.commit_group;" ::: "memory");
// CHECK-NEXT: asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
// CHECK-NEXT: }
exogpu.proc @bulk(%g: f32[16] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %s = exogpu.alloc f32[16] @CudaSmemLinear
      exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
        exogpu.call @tma_store(%g, %s) : f32[16] @CudaGmemLinear, f32[16] @CudaSmemLinear
        exogpu.fence(tma_to_gmem_async, cuda_in_order)
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}
