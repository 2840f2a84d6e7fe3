// RUN: exogpu-translate --to-cuda %s | FileCheck %s
// The programs pass the synchronization check.
// RUN: exogpu-opt %s --exogpu-sync-check -o /dev/null
// RUN: %if nvcc %{ exogpu-translate --to-cuda %s -o %t.cu && %nvcc %sm90a -Werror all-warnings -c %t.cu -o %t.o %}

// fence.proxy.async only where a generic-proxy shared-memory access may
// precede, with no proxy fence of its own thread in between, the
// async-proxy accesses a synchronization orders it before
// (docs/cuda-translation.md, "Proxy fences"; SyncPlan.h). Each case next to
// its twin that must keep the fence.

// A bulk (TMA) store from shared memory: an async-proxy read.
exogpu.instr @tma_store(%dst: f32[16] @CudaGmemLinear {out_of_order, init = tma_to_gmem_async_qual, ext = [tma_to_gmem_async_qual]}, %src: f32[16] @CudaSmemLinear {out_of_order, init = tma_to_gmem_async_qual, ext = [tma_to_gmem_async_qual]})
    target = cuda, unit = cuda_thread, cuda = "asm volatile(\"// bulk store\" :: \"l\"({dst}), \"l\"({src}));" {
  exogpu.for %i in seq(0, 16) {
    exogpu.assign %dst[%i] = %src[%i] : f32[16] @CudaGmemLinear, f32[16] @CudaSmemLinear
  }
}

// Writers hand shared memory to a thread that stores it with TMA (the
// store completes at the task's end, whose Fence waits for it): the arrive
// fences the writers' generic writes to the async proxy.
// CHECK-LABEL: release_to_async_reader_kernel(
// CHECK: // proxy-fences.mlir:{{[0-9]+}}: arrive(cuda_in_order, 1) >> full[]
// CHECK-NEXT: exo::fence_proxy_async();
// CHECK-NEXT: __syncwarp();
exogpu.proc @release_to_async_reader(%g: f32[16] @CudaGmemLinear, %out: f32[32] @CudaGmemLinear) {
  exogpu.device_function(warps = ["writer" = (1, 0, 0), "storer" = (1, 0, 0)]) {
    exogpu.for %task in cuda_tasks(0, 2) {
      %s = exogpu.alloc f32[16] @CudaSmemLinear
      %full = exogpu.alloc barrier @CudaMbarrier
      exogpu.warps "writer" {
        exogpu.for %t in cuda_threads(0, 16, unit = cuda_thread) {
          exogpu.assign %s[%t] = %g[%t] : f32[16] @CudaSmemLinear, f32[16] @CudaGmemLinear
        }
        exogpu.arrive(cuda_in_order, 1) >> %full : barrier @CudaMbarrier
      }
      exogpu.warps "storer" {
        exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
          exogpu.await(%full, cuda_generic_and_async, -1) : barrier @CudaMbarrier
          exogpu.call @tma_store(%out[%task * 16:%task * 16 + 16], %s[:]) : f32[32] @CudaGmemLinear, f32[16] @CudaSmemLinear
        }
      }
      exogpu.fence(cuda_generic_and_async, cuda_in_order)
    }
  }
}

// The same writes made by an instruction whose parameters carry no
// annotation (generic-proxy accesses, the default timeline of shared
// memory): the arrive keeps the proxy fence.
exogpu.instr @copy_element(%dst: f32[1] @CudaSmemLinear, %src: f32[1] @CudaGmemLinear)
    target = cuda, unit = cuda_thread, cuda = "*({dst}) = *({src});" {
  exogpu.assign %dst[0] = %src[0] : f32[1] @CudaSmemLinear, f32[1] @CudaGmemLinear
}
// CHECK-LABEL: release_by_instruction_to_async_reader_kernel(
// CHECK: // proxy-fences.mlir:{{[0-9]+}}: arrive(cuda_in_order, 1) >> full[]
// CHECK-NEXT: exo::fence_proxy_async();
// CHECK-NEXT: __syncwarp();
exogpu.proc @release_by_instruction_to_async_reader(%g: f32[16] @CudaGmemLinear, %out: f32[32] @CudaGmemLinear) {
  exogpu.device_function(warps = ["writer" = (1, 0, 0), "storer" = (1, 0, 0)]) {
    exogpu.for %task in cuda_tasks(0, 2) {
      %s = exogpu.alloc f32[16] @CudaSmemLinear
      %full = exogpu.alloc barrier @CudaMbarrier
      exogpu.warps "writer" {
        exogpu.for %t in cuda_threads(0, 16, unit = cuda_thread) {
          exogpu.call @copy_element(%s[%t:%t + 1], %g[%t:%t + 1]) : f32[16] @CudaSmemLinear, f32[16] @CudaGmemLinear
        }
        exogpu.arrive(cuda_in_order, 1) >> %full : barrier @CudaMbarrier
      }
      exogpu.warps "storer" {
        exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
          exogpu.await(%full, cuda_generic_and_async, -1) : barrier @CudaMbarrier
          exogpu.call @tma_store(%out[%task * 16:%task * 16 + 16], %s[:]) : f32[32] @CudaGmemLinear, f32[16] @CudaSmemLinear
        }
      }
      exogpu.fence(cuda_generic_and_async, cuda_in_order)
    }
  }
}

// The writers fenced their writes to the async proxy already (a Fence of
// the warp): the arrive needs no proxy fence, nor a __syncwarp.
// CHECK-LABEL: release_after_proxy_fence_kernel(
// CHECK: // proxy-fences.mlir:{{[0-9]+}}: fence(cuda_in_order, cuda_async_proxy)
// CHECK-NEXT: exo::fence_proxy_async();
// CHECK-NEXT: __syncwarp();
// CHECK-NEXT: // proxy-fences.mlir:{{[0-9]+}}: arrive(cuda_in_order, 1) >> full[]
// CHECK-NEXT: if (exo_thread % 32 == 0) {
// CHECK-NEXT: exo::mbarrier_arrive(&full[0]);
exogpu.proc @release_after_proxy_fence(%g: f32[32] @CudaGmemLinear, %out: f32[32] @CudaGmemLinear) {
  exogpu.device_function(warps = ["writer" = (1, 0, 0), "storer" = (1, 0, 0)]) {
    exogpu.for %task in cuda_tasks(0, 2) {
      %s = exogpu.alloc f32[32] @CudaSmemLinear
      %full = exogpu.alloc barrier @CudaMbarrier
      exogpu.warps "writer" {
        exogpu.for %t in cuda_threads(0, 32, unit = cuda_thread) {
          exogpu.assign %s[%t] = %g[%t] : f32[32] @CudaSmemLinear, f32[32] @CudaGmemLinear
        }
        exogpu.fence(cuda_in_order, cuda_async_proxy)
        exogpu.arrive(cuda_in_order, 1) >> %full : barrier @CudaMbarrier
      }
      exogpu.warps "storer" {
        exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
          exogpu.await(%full, cuda_generic_and_async, -1) : barrier @CudaMbarrier
          exogpu.call @tma_store(%out[%task * 16:%task * 16 + 16], %s[0:16]) : f32[32] @CudaGmemLinear, f32[32] @CudaSmemLinear
        }
      }
      exogpu.fence(cuda_generic_and_async, cuda_in_order)
    }
  }
}

// A loop whose body stores shared memory with TMA and then rewrites it:
// the Fence at the top of the body orders the previous iteration's writes
// before this iteration's TMA read, so it fences to the async proxy (the
// writes reach it around the loop). Its twin rewrites nothing: no proxy
// fence there (the writes before the loop were fenced before it).
// CHECK-LABEL: loop_carried_kernel(
// CHECK: // proxy-fences.mlir:{{[0-9]+}}: for k in seq(0, 4)
// CHECK-NEXT: for (int k = 0; k < 4; ++k) {
// CHECK-NEXT: // proxy-fences.mlir:{{[0-9]+}}: fence(cuda_in_order, cuda_async_proxy)
// CHECK-NEXT: exo::fence_proxy_async();
// CHECK-LABEL: loop_without_writes_kernel(
// CHECK: // proxy-fences.mlir:{{[0-9]+}}: for k in seq(0, 4)
// CHECK-NEXT: for (int k = 0; k < 4; ++k) {
// CHECK-NEXT: // proxy-fences.mlir:{{[0-9]+}}: fence(cuda_in_order, cuda_async_proxy)
// CHECK-NEXT: // proxy-fences.mlir:{{[0-9]+}}: call @tma_store
exogpu.proc @loop_carried(%g: f32[16] @CudaGmemLinear, %out: f32[64] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %s = exogpu.alloc f32[16] @CudaSmemLinear
      exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
        %cg = exogpu.alloc barrier @CudaCommitGroup
        exogpu.for %i in seq(0, 16) {
          exogpu.assign %s[%i] = %g[%i] : f32[16] @CudaSmemLinear, f32[16] @CudaGmemLinear
        }
        exogpu.fence(cuda_in_order, cuda_async_proxy)
        exogpu.for %k in seq(0, 4) {
          exogpu.fence(cuda_in_order, cuda_async_proxy)
          exogpu.call @tma_store(%out[%k * 16:%k * 16 + 16], %s[:]) : f32[64] @CudaGmemLinear, f32[16] @CudaSmemLinear
          exogpu.arrive(tma_to_gmem_async, 1) >> %cg : barrier @CudaCommitGroup
          exogpu.await(%cg, cuda_in_order, 0) : barrier @CudaCommitGroup
          exogpu.for %i in seq(0, 16) {
            exogpu.assign %s[%i] = %g[%i] : f32[16] @CudaSmemLinear, f32[16] @CudaGmemLinear
          }
        }
      }
      exogpu.fence(cuda_generic_and_async, cuda_in_order)
    }
  }
}
exogpu.proc @loop_without_writes(%g: f32[16] @CudaGmemLinear, %out: f32[64] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %s = exogpu.alloc f32[16] @CudaSmemLinear
      exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
        %cg = exogpu.alloc barrier @CudaCommitGroup
        exogpu.for %i in seq(0, 16) {
          exogpu.assign %s[%i] = %g[%i] : f32[16] @CudaSmemLinear, f32[16] @CudaGmemLinear
        }
        exogpu.fence(cuda_in_order, cuda_async_proxy)
        exogpu.for %k in seq(0, 4) {
          exogpu.fence(cuda_in_order, cuda_async_proxy)
          exogpu.call @tma_store(%out[%k * 16:%k * 16 + 16], %s[:]) : f32[64] @CudaGmemLinear, f32[16] @CudaSmemLinear
          exogpu.arrive(tma_to_gmem_async, 1) >> %cg : barrier @CudaCommitGroup
          exogpu.await(%cg, cuda_in_order, 0) : barrier @CudaCommitGroup
        }
      }
      exogpu.fence(cuda_generic_and_async, cuda_in_order)
    }
  }
}

// A proxy fence orders only its own thread's accesses: thread 0's Fence
// leaves the other threads' writes pending, so the CTA's Fence after it
// fences again.
// CHECK-LABEL: own_accesses_only_kernel(
// CHECK: // proxy-fences.mlir:{{[0-9]+}}: for t in cuda_threads(0, 1, unit = cuda_thread)
// CHECK: // proxy-fences.mlir:{{[0-9]+}}: fence(cuda_in_order, cuda_async_proxy)
// CHECK-NEXT: exo::fence_proxy_async();
// CHECK: // proxy-fences.mlir:{{[0-9]+}}: fence(cuda_in_order, cuda_async_proxy)
// CHECK-NEXT: exo::fence_proxy_async();
// CHECK-NEXT: __syncthreads();
exogpu.proc @own_accesses_only(%g: f32[32] @CudaGmemLinear, %out: f32[32] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, 2) {
      %s = exogpu.alloc f32[32] @CudaSmemLinear
      exogpu.for %t in cuda_threads(0, 32, unit = cuda_thread) {
        exogpu.assign %s[%t] = %g[%t] : f32[32] @CudaSmemLinear, f32[32] @CudaGmemLinear
      }
      exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
        exogpu.fence(cuda_in_order, cuda_async_proxy)
      }
      exogpu.fence(cuda_in_order, cuda_async_proxy)
      exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
        %cg = exogpu.alloc barrier @CudaCommitGroup
        exogpu.call @tma_store(%out[%task * 16:%task * 16 + 16], %s[0:16]) : f32[32] @CudaGmemLinear, f32[32] @CudaSmemLinear
        exogpu.arrive(tma_to_gmem_async, 1) >> %cg : barrier @CudaCommitGroup
        exogpu.await(%cg, cuda_in_order, 0) : barrier @CudaCommitGroup
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}
