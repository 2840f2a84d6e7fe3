"""The naive twin of the split-k GEMM examples/gemm_splitk_sm90a.mlir
(docs/running.md): C = A * B^T with K = S * KC, A and B taken as
[rows, S, KC], summed over k = (s, kc) in order from 0. The kernel sums
each chunk s separately and adds the S partial sums into C, so the two
differ by rounding.

The Python twin of gemm_splitk.mlir: both give the same module
(test/Python/test_examples.py).
"""

from __future__ import annotations

from exogpu.lang import *


@proc
def gemm_splitk_ref(M: size, N: size, S: size, KC: size, A: f32[M, S, KC] @ DRAM,
                    B: f32[N, S, KC] @ DRAM, C: f32[M, N] @ DRAM):
    for i in seq(0, M):
        for j in seq(0, N):
            acc: f32 @ DRAM
            acc = 0.0
            for s in seq(0, S):
                for k in seq(0, KC):
                    acc += A[i, s, k] * B[j, s, k]
            C[i, j] = acc
