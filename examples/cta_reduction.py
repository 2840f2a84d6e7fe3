"""CTA-wide shared-memory broadcast sum: the "Explicit Synchronization" insets
of the paper (seeds/002 Sec. 2.1). With blockDim = 128, each thread copies
one element of gmem into the shared buffer buf[128]; after a CTA-wide
barrier every thread sums all of buf and writes the sum out.
 * @cta_sum_fence: the left inset, `Fence(cuda_in_order, cuda_in_order)`
   (lowers to __syncthreads at CTA scope);
 * @cta_sum_mbarrier: the right inset, the same fence replaced by the split
   barrier `Arrive(cuda_in_order) >> bar` ... `Await(bar, cuda_in_order)`
   on a CudaMbarrier.
The per-thread accumulator is a distributed register allocation (Sec. 2.1,
"Distributed Memory": a register-resident temporary used by different
threads needs one shard per thread): accum: f32[128] @ CudaRmem, indexed by
the thread iterator and deduced to be distributed over cuda_thread.
One task per 128-element chunk of gmem; out[task * 128 + tid] receives
the chunk's sum (every thread of the chunk writes its own copy).

The Python twin of cta_reduction.mlir: both give the same module
(test/Python/test_examples.py).
"""

from __future__ import annotations

from exogpu.lang import *


@proc
def cta_sum_fence(N: size, gmem: f32[N] @ CudaGmemLinear, out: f32[N] @ CudaGmemLinear):
    assert N % 128 == 0
    with CudaDeviceFunction(blockDim=128):
        for task in cuda_tasks(0, N / 128):
            # Code at CTA scope.
            buf: f32[128] @ CudaSmemLinear
            accum: f32[128] @ CudaRmem
            for tid in cuda_threads(0, 128, unit=cuda_thread):
                buf[tid] = gmem[task * 128 + tid]
            # __syncthreads
            Fence(cuda_in_order, cuda_in_order)
            for tid in cuda_threads(0, 128, unit=cuda_thread):
                # Each thread sums up buf[...] in its own shard accum[tid].
                accum[tid] = 0.0
                for i in seq(0, 128):
                    accum[tid] += buf[i]
                out[task * 128 + tid] = accum[tid]
            # The compiler frees buf at the end of the task, and the next task
            # of a persistent CTA may reuse its shared memory: every thread must
            # be done reading buf first (Sec. 4.2, "Shared Memory Allocations").
            Fence(cuda_in_order, cuda_in_order)


@proc
def cta_sum_mbarrier(N: size, gmem: f32[N] @ CudaGmemLinear,
                     out: f32[N] @ CudaGmemLinear):
    assert N % 128 == 0
    with CudaDeviceFunction(blockDim=128):
        for task in cuda_tasks(0, N / 128):
            buf: f32[128] @ CudaSmemLinear
            accum: f32[128] @ CudaRmem
            bar: barrier @ CudaMbarrier
            for tid in cuda_threads(0, 128, unit=cuda_thread):
                buf[tid] = gmem[task * 128 + tid]
            # The split barrier replaces the fence; independent work could be
            # inserted between the arrive and the await.
            Arrive(cuda_in_order, 1) >> bar
            Await(bar, cuda_in_order, 0)
            for tid in cuda_threads(0, 128, unit=cuda_thread):
                accum[tid] = 0.0
                for i in seq(0, 128):
                    accum[tid] += buf[i]
                out[task * 128 + tid] = accum[tid]
            # The compiler frees buf at the end of the task, and the next task
            # of a persistent CTA may reuse its shared memory: every thread must
            # be done reading buf first (Sec. 4.2, "Shared Memory Allocations").
            Fence(cuda_in_order, cuda_in_order)
