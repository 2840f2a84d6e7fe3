"""GEMV, y = A x (A: M x N, row major): one task of 128 threads per 128
rows, one thread per row, each summing its dot product in a register
(`acc: f32 @ CudaRmem`, allocated inside the thread loop: one per thread).
The README's first kernel.

The Python twin of gemv.mlir: both give the same module
(test/Python/test_examples.py).
"""

from __future__ import annotations

from exogpu.lang import *


@proc
def gemv(M: size, N: size, A: f32[M, N] @ CudaGmemLinear,
         x: f32[N] @ CudaGmemLinear, y: f32[M] @ CudaGmemLinear):
    assert M % 128 == 0 and N > 0
    with CudaDeviceFunction(blockDim=128):
        for task in cuda_tasks(0, M / 128):
            for t in cuda_threads(0, 128, unit=cuda_thread):
                acc: f32 @ CudaRmem
                acc = 0.0
                for j in seq(0, N):
                    acc += A[task * 128 + t, j] * x[j]
                y[task * 128 + t] = acc
