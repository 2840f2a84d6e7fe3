"""A seeded synchronization bug for the bug study (docs/gpu-validation.md):
examples/cta_reduction.mlir @cta_sum_fence with its first fence at warp
scope instead of CTA scope. The fence sits inside the warp loop, so it
is a warp-scope Fence (__syncwarp, Sec. 2.1: "at warp scope it maps to
__syncwarp") that orders the shared-memory writes of one warp only, but
every thread then sums all 128 elements of buf, written by four warps.
test/SyncCheck/fence.mlir has the minimal form (@raw_warp_scope_fence).

The Python twin of cta_sum_warp_fence.mlir: both give the same module
(test/Python/test_examples.py).
"""

from __future__ import annotations

from exogpu.lang import *


@proc
def cta_sum_warp_fence(N: size, gmem: f32[N] @ CudaGmemLinear,
                       out: f32[N] @ CudaGmemLinear):
    assert N % 128 == 0
    with CudaDeviceFunction(blockDim=128):
        for task in cuda_tasks(0, N / 128):
            buf: f32[128] @ CudaSmemLinear
            accum: f32[128] @ CudaRmem
            for w in cuda_threads(0, 4, unit=cuda_warp):
                for lane in cuda_threads(0, 32, unit=cuda_thread):
                    buf[w * 32 + lane] = gmem[task * 128 + w * 32 + lane]
                # The bug: __syncwarp where __syncthreads is needed.
                Fence(cuda_in_order, cuda_in_order)
            for tid in cuda_threads(0, 128, unit=cuda_thread):
                accum[tid] = 0.0
                for i in seq(0, 128):
                    accum[tid] += buf[i]
                out[task * 128 + tid] = accum[tid]
            Fence(cuda_in_order, cuda_in_order)
