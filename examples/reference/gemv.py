"""The naive twin of the GEMV kernels examples/gemv.mlir and
examples/gemv_shuffle.mlir: y = A x, one dot product per row summed in
column order (docs/running.md).

The Python twin of gemv.mlir: both give the same module
(test/Python/test_examples.py).
"""

from __future__ import annotations

from exogpu.lang import *


@proc
def gemv_ref(M: size, N: size, A: f32[M, N] @ DRAM, x: f32[N] @ DRAM, y: f32[M] @ DRAM):
    for i in seq(0, M):
        acc: f32 @ DRAM
        acc = 0.0
        for j in seq(0, N):
            acc += A[i, j] * x[j]
        y[i] = acc
