"""Vector addition, Z = X + Y over N elements: the guide's first kernel
(seeds/000, "Loop Mode", figure "Simple vector addition example": "We break
X and Y into chunks of 128 values, each handled by one task"); the Python
twin of vector_add.mlir.

 * one task (CTA of 128 threads) per 128-element chunk, `cuda_tasks`;
 * one thread per element, `cuda_threads(0, 128, unit=cuda_thread)`;
 * the precondition makes the chunks cover N exactly.

Only in-order CUDA accesses to global memory, so no synchronization is
needed: each thread reads and writes only its own element.
"""

from __future__ import annotations

from exogpu.lang import *


@proc
def vector_add(N: size, X: f32[N] @ CudaGmemLinear,
               Y: f32[N] @ CudaGmemLinear, Z: f32[N] @ CudaGmemLinear):
    assert N % 128 == 0
    with CudaDeviceFunction(blockDim=128):
        for task in cuda_tasks(0, N / 128):
            for tid in cuda_threads(0, 128, unit=cuda_thread):
                Z[task * 128 + tid] = X[task * 128 + tid] + Y[task * 128 + tid]
