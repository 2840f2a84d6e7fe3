"""The naive twin of the bf16 GEMM examples/gemm_bf16_sm90a.mlir
(docs/running.md): C = A * B^T with bf16 A (M x K), B (N x K) and C,
accumulated in f32 over k in order from 0 and rounded to bf16 once. The
kernel's wgmma body forms each product exactly (the tensor cores'
arithmetic: the bf16 operands copied to f32, where their product fits), as
this twin does, and sums the same products in the same order.

The Python twin of gemm_bf16.mlir: both give the same module
(test/Python/test_examples.py).
"""

from __future__ import annotations

from exogpu.lang import *


@proc
def gemm_abt_bf16_ref(M: size, N: size, K: size, A: bf16[M, K] @ DRAM,
                      B: bf16[N, K] @ DRAM, C: bf16[M, N] @ DRAM):
    for i in seq(0, M):
        for j in seq(0, N):
            acc: f32 @ DRAM
            a: f32 @ DRAM
            b: f32 @ DRAM
            acc = 0.0
            for k in seq(0, K):
                a = A[i, k]
                b = B[j, k]
                acc += a * b
            C[i, j] = acc
