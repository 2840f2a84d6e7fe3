// RUN: exogpu-opt %s --exogpu-sync-check -o /dev/null
// RUN: exogpu-translate --to-cuda %s | FileCheck %s
// RUN: not exogpu-translate --to-cuda %s --sync-lowering-faults=no-proxy-fences -o /dev/null 2>&1 | FileCheck %s --check-prefix=FAULT
// RUN: %if nvcc %{ exogpu-translate --to-cuda %s -o %t.cu && %nvcc %sm90a -Werror all-warnings -c %t.cu -o %t.o %}

// Issue 30, class C: cp.async writes shared memory through the generic
// proxy. Four threads cp.async into s, a Fence (on Sm80_generic or
// Sm80_cp_async) orders the copies before the async proxy, one thread
// stores s with TMA: after cp.async.wait_all the copies need
// fence.proxy.async before the barrier. The twin orders them before generic
// reads only and keeps cp.async.wait_all and the barrier without a proxy
// fence. The validator rejects the first kernel without its proxy fence
// (--sync-lowering-faults=no-proxy-fences), naming the copy.

// FAULT: sync-validation/class-c-cp-async-proxy.mlir:[[@LINE+32]]:9: error: CUDA translation: cannot justify the lowering of this synchronization: it orders a generic-proxy access to shared memory before async-proxy accesses (TMA, wgmma): the write of s (thread 0 may see it) as the synchronization check relies on; missing: fence.proxy.async by thread 0 before it
// FAULT: sync-validation/class-c-cp-async-proxy.mlir:[[@LINE+28]]:13: note: the write is here

// Test instructions: a 4-byte cp.async and a 1-D TMA store of 16 floats.
exogpu.instr @cp_async(%dst: f32[1] @CudaSmemLinear {out_of_order, init = Sm80_cp_async_qual, ext = [Sm80_cp_async_qual]}, %src: f32[1] @CudaGmemLinear {out_of_order, init = Sm80_cp_async_qual, ext = [Sm80_cp_async_qual]})
    target = cuda, unit = cuda_thread, cuda = "asm volatile(\22cp.async.ca.shared.global [%0], [%1], 4;\22 :: \22r\22(exo::smem_address({dst})), \22l\22({src}) : \22memory\22);" {
  exogpu.assign %dst[0] = %src[0] : f32[1] @CudaSmemLinear, f32[1] @CudaGmemLinear
}
exogpu.instr @tma_store(%dst: window f32[16] @CudaGmemLinear @Sm90_tensorMap(0, 16) {out_of_order, init = tma_to_gmem_async_qual, ext = [tma_to_gmem_async_qual]}, %src: f32[16] @CudaSmemLinear {out_of_order, init = tma_to_gmem_async_qual, ext = [tma_to_gmem_async_qual]})
    target = cuda, unit = cuda_thread, cuda = "asm volatile(\22cp.async.bulk.tensor.1d.global.shared::cta.tile.bulk_group [%0, {%1}], [%2];\22 :: \22l\22(&{dst.map}), \22r\22({dst.c0}), \22r\22(exo::smem_address({src})) : \22memory\22);" {
  exogpu.for %i in seq(0, 16) {
    exogpu.assign %dst[%i] = %src[%i] : window f32[16] @CudaGmemLinear @Sm90_tensorMap(0, 16), f32[16] @CudaSmemLinear
  }
}
// CHECK-LABEL: cp_async_then_tma_store_kernel(
// CHECK: // class-c-cp-async-proxy.mlir:{{[0-9]+}}: fence(Sm80_generic, cuda_async_proxy)
// CHECK-NEXT: asm volatile("cp.async.wait_all;" ::: "memory");
// CHECK-NEXT: exo::fence_proxy_async();
// CHECK-NEXT: __syncthreads();
// CHECK: cp.async.bulk.tensor.1d.global.shared::cta
exogpu.proc @cp_async_then_tma_store(%g: f32[64] @CudaGmemLinear, %out: f32[64] @CudaGmemLinear) {
  %out_map = exogpu.window %out[:] @Sm90_tensorMap(0, 16) : f32[64] @CudaGmemLinear
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, 2) {
      %s = exogpu.alloc f32[16] @CudaSmemLinear
      %cg = exogpu.alloc barrier[1] @CudaCommitGroup
      exogpu.for %w in cuda_threads(0, 1, unit = cuda_warp) {
        exogpu.for %t in cuda_threads(0, 4, unit = cuda_thread) {
          exogpu.for %i in seq(0, 4) {
            exogpu.call @cp_async(%s[%t * 4 + %i:%t * 4 + %i + 1], %g[%task * 16 + %t * 4 + %i:%task * 16 + %t * 4 + %i + 1]) : f32[16] @CudaSmemLinear, f32[64] @CudaGmemLinear
          }
        }
        exogpu.fence(Sm80_generic, cuda_async_proxy)
        exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
          exogpu.call @tma_store(%out_map[%task * 16:%task * 16 + 16], %s[:]) : window f32[64] @CudaGmemLinear @Sm90_tensorMap(0, 16), f32[16] @CudaSmemLinear
          exogpu.arrive(tma_to_gmem_async, 1) >> %cg[%t] : barrier[1] @CudaCommitGroup
          exogpu.await(%cg[%t], cuda_in_order, 0) : barrier[1] @CudaCommitGroup
        }
      }
      exogpu.fence(cuda_generic_and_async, cuda_in_order)
    }
  }
}

// CHECK-LABEL: cp_async_then_tma_store_cp_async_fence_kernel(
// CHECK: // class-c-cp-async-proxy.mlir:{{[0-9]+}}: fence(Sm80_cp_async, cuda_async_proxy)
// CHECK-NEXT: asm volatile("cp.async.wait_all;" ::: "memory");
// CHECK-NEXT: exo::fence_proxy_async();
// CHECK-NEXT: __syncthreads();
exogpu.proc @cp_async_then_tma_store_cp_async_fence(%g: f32[64] @CudaGmemLinear, %out: f32[64] @CudaGmemLinear) {
  %out_map = exogpu.window %out[:] @Sm90_tensorMap(0, 16) : f32[64] @CudaGmemLinear
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, 2) {
      %s = exogpu.alloc f32[16] @CudaSmemLinear
      %cg = exogpu.alloc barrier[1] @CudaCommitGroup
      exogpu.for %w in cuda_threads(0, 1, unit = cuda_warp) {
        exogpu.for %t in cuda_threads(0, 4, unit = cuda_thread) {
          exogpu.for %i in seq(0, 4) {
            exogpu.call @cp_async(%s[%t * 4 + %i:%t * 4 + %i + 1], %g[%task * 16 + %t * 4 + %i:%task * 16 + %t * 4 + %i + 1]) : f32[16] @CudaSmemLinear, f32[64] @CudaGmemLinear
          }
        }
        exogpu.fence(Sm80_cp_async, cuda_async_proxy)
        exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
          exogpu.call @tma_store(%out_map[%task * 16:%task * 16 + 16], %s[:]) : window f32[64] @CudaGmemLinear @Sm90_tensorMap(0, 16), f32[16] @CudaSmemLinear
          exogpu.arrive(tma_to_gmem_async, 1) >> %cg[%t] : barrier[1] @CudaCommitGroup
          exogpu.await(%cg[%t], cuda_in_order, 0) : barrier[1] @CudaCommitGroup
        }
      }
      exogpu.fence(cuda_generic_and_async, cuda_in_order)
    }
  }
}

// CHECK-LABEL: cp_async_then_generic_reads_kernel(
// CHECK: // class-c-cp-async-proxy.mlir:{{[0-9]+}}: fence(Sm80_generic, cuda_in_order)
// CHECK-NEXT: asm volatile("cp.async.wait_all;" ::: "memory");
// CHECK-NEXT: __syncthreads();
exogpu.proc @cp_async_then_generic_reads(%g: f32[64] @CudaGmemLinear, %out: f32[64] @CudaGmemLinear) {
  %out_map = exogpu.window %out[:] @Sm90_tensorMap(0, 16) : f32[64] @CudaGmemLinear
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, 2) {
      %s = exogpu.alloc f32[16] @CudaSmemLinear
      %cg = exogpu.alloc barrier[1] @CudaCommitGroup
      exogpu.for %w in cuda_threads(0, 1, unit = cuda_warp) {
        exogpu.for %t in cuda_threads(0, 4, unit = cuda_thread) {
          exogpu.for %i in seq(0, 4) {
            exogpu.call @cp_async(%s[%t * 4 + %i:%t * 4 + %i + 1], %g[%task * 16 + %t * 4 + %i:%task * 16 + %t * 4 + %i + 1]) : f32[16] @CudaSmemLinear, f32[64] @CudaGmemLinear
          }
        }
        exogpu.fence(Sm80_generic, cuda_in_order)
        exogpu.for %t in cuda_threads(0, 16, unit = cuda_thread) {
          exogpu.assign %out[%task * 16 + %t] = %s[15 - %t] : f32[64] @CudaGmemLinear, f32[16] @CudaSmemLinear
        }
      }
      exogpu.fence(cuda_generic_and_async, cuda_in_order)
    }
  }
}
