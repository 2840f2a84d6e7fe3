// RUN: exogpu-opt %s --exogpu-sync-check -o /dev/null
// RUN: exogpu-translate --to-cuda %s | FileCheck %s
// RUN: not exogpu-translate --to-cuda %s --sync-lowering-faults=no-commit-before-wait -o /dev/null 2>&1 | FileCheck %s --check-prefix=FAULT
// RUN: %if nvcc %{ exogpu-translate --to-cuda %s -o %t.cu && %nvcc %sm90a -Werror all-warnings -c %t.cu -o %t.o %}

// A class the validator found beyond the issue's list: `wait_group 0`
// waits for committed groups only. A Fence after a TMA store that the
// program does not commit itself must commit the thread's bulk copies
// (cp.async.bulk.commit_group) before cp.async.bulk.wait_group 0, or the
// store may still read s after the Fence. The validator rejects the wait
// without its commit (--sync-lowering-faults=no-commit-before-wait), naming
// the store's read of s.

// FAULT: sync-validation/commit-before-wait.mlir:[[@LINE+28]]:7: error: CUDA translation: cannot justify the lowering of this synchronization: it orders the asynchronous access before what follows, but the access may still be in flight: the read of s (thread 0 may see it) as the synchronization check relies on; missing: cp.async.bulk.wait_group before it
// FAULT: sync-validation/commit-before-wait.mlir:[[@LINE+25]]:9: note: the read is here

// CHECK-LABEL: tma_store_then_fence_kernel(
// CHECK: // commit-before-wait.mlir:{{[0-9]+}}: fence(cuda_generic_and_async, cuda_in_order)
// CHECK-NEXT: asm volatile("cp.async.bulk.commit_group;" ::: "memory");
// CHECK-NEXT: asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
// CHECK-NEXT: __syncthreads();

// Test instruction: a 1-D TMA store of 16 floats.
exogpu.instr @tma_store(%dst: window f32[16] @CudaGmemLinear @Sm90_tensorMap(0, 16) {out_of_order, init = tma_to_gmem_async_qual, ext = [tma_to_gmem_async_qual]}, %src: f32[16] @CudaSmemLinear {out_of_order, init = tma_to_gmem_async_qual, ext = [tma_to_gmem_async_qual]})
    target = cuda, unit = cuda_thread, cuda = "asm volatile(\22cp.async.bulk.tensor.1d.global.shared::cta.tile.bulk_group [%0, {%1}], [%2];\22 :: \22l\22(&{dst.map}), \22r\22({dst.c0}), \22r\22(exo::smem_address({src})) : \22memory\22);" {
  exogpu.for %i in seq(0, 16) {
    exogpu.assign %dst[%i] = %src[%i] : window f32[16] @CudaGmemLinear @Sm90_tensorMap(0, 16), f32[16] @CudaSmemLinear
  }
}
exogpu.proc @tma_store_then_fence(%out: f32[64] @CudaGmemLinear) {
  %out_map = exogpu.window %out[:] @Sm90_tensorMap(0, 16) : f32[64] @CudaGmemLinear
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, 2) {
      %s = exogpu.alloc f32[16] @CudaSmemLinear
      exogpu.for %t in cuda_threads(0, 16, unit = cuda_thread) {
        exogpu.assign %s[%t] = 1.0 : f32[16] @CudaSmemLinear
      }
      exogpu.fence(cuda_in_order, cuda_async_proxy)
      exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
        exogpu.call @tma_store(%out_map[%task * 16:%task * 16 + 16], %s[:]) : window f32[64] @CudaGmemLinear @Sm90_tensorMap(0, 16), f32[16] @CudaSmemLinear
      }
      exogpu.fence(cuda_generic_and_async, cuda_in_order)
    }
  }
}

// Where the program commits its stores itself, nothing issued since its last
// commit is left for the Fence to commit: the Fence waits without a commit
// of its own (UncommittedWork.h; an extra commit before a wgmma wait makes
// ptxas serialize the warpgroup's wgmmas, C7519). The validator checks the
// elision: the wait completes every committed group.
// CHECK-LABEL: committed_store_then_fence_kernel(
// CHECK: // commit-before-wait.mlir:{{[0-9]+}}: arrive(tma_to_gmem_async, 1) >> cg[t]
// CHECK-NEXT: asm volatile("cp.async.bulk.commit_group;" ::: "memory");
// CHECK: // commit-before-wait.mlir:{{[0-9]+}}: fence(cuda_generic_and_async, cuda_in_order)
// CHECK-NEXT: asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
// CHECK-NEXT: __syncthreads();
exogpu.proc @committed_store_then_fence(%out: f32[64] @CudaGmemLinear) {
  %out_map = exogpu.window %out[:] @Sm90_tensorMap(0, 16) : f32[64] @CudaGmemLinear
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, 2) {
      %s = exogpu.alloc f32[16] @CudaSmemLinear
      %cg = exogpu.alloc barrier[1] @CudaCommitGroup
      exogpu.for %t in cuda_threads(0, 16, unit = cuda_thread) {
        exogpu.assign %s[%t] = 1.0 : f32[16] @CudaSmemLinear
      }
      exogpu.fence(cuda_in_order, cuda_async_proxy)
      exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
        exogpu.call @tma_store(%out_map[%task * 16:%task * 16 + 16], %s[:]) : window f32[64] @CudaGmemLinear @Sm90_tensorMap(0, 16), f32[16] @CudaSmemLinear
        exogpu.arrive(tma_to_gmem_async, 1) >> %cg[%t] : barrier[1] @CudaCommitGroup
        exogpu.await(%cg[%t], cuda_in_order, 0) : barrier[1] @CudaCommitGroup
      }
      exogpu.fence(cuda_generic_and_async, cuda_in_order)
    }
  }
}

// The adversarial twin: a second store after the program's commit is still
// uncommitted at the Fence, which commits it (without the commit, the wait
// would leave the second store in flight: the FAULT run above).
// CHECK-LABEL: store_after_commit_then_fence_kernel(
// CHECK: // commit-before-wait.mlir:{{[0-9]+}}: fence(cuda_generic_and_async, cuda_in_order)
// CHECK-NEXT: asm volatile("cp.async.bulk.commit_group;" ::: "memory");
// CHECK-NEXT: asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
exogpu.proc @store_after_commit_then_fence(%out: f32[64] @CudaGmemLinear) {
  %out_map = exogpu.window %out[:] @Sm90_tensorMap(0, 16) : f32[64] @CudaGmemLinear
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, 2) {
      %s = exogpu.alloc f32[2, 16] @CudaSmemLinear
      %cg = exogpu.alloc barrier[1] @CudaCommitGroup
      exogpu.for %t in cuda_threads(0, 16, unit = cuda_thread) {
        exogpu.assign %s[0, %t] = 1.0 : f32[2, 16] @CudaSmemLinear
        exogpu.assign %s[1, %t] = 2.0 : f32[2, 16] @CudaSmemLinear
      }
      exogpu.fence(cuda_in_order, cuda_async_proxy)
      exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
        exogpu.call @tma_store(%out_map[%task * 32:%task * 32 + 16], %s[0, :]) : window f32[64] @CudaGmemLinear @Sm90_tensorMap(0, 16), f32[2, 16] @CudaSmemLinear
        exogpu.arrive(tma_to_gmem_async, 1) >> %cg[%t] : barrier[1] @CudaCommitGroup
        exogpu.call @tma_store(%out_map[%task * 32 + 16:%task * 32 + 32], %s[1, :]) : window f32[64] @CudaGmemLinear @Sm90_tensorMap(0, 16), f32[2, 16] @CudaSmemLinear
        exogpu.await(%cg[%t], cuda_in_order, 0) : barrier[1] @CudaCommitGroup
      }
      exogpu.fence(cuda_generic_and_async, cuda_in_order)
    }
  }
}
