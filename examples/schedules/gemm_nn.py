"""The naive GEMM C = A * B (A: M x K, B: K x N, row major): three seq loops,
the program p1 of the chain of equivalence (paper Sec. 2.3) that
sm80_gemm_schedule.mlir rewrites into the Ampere kernel of
examples/sm80_gemm.mlir. The parameters live in host memory (DRAM) until
the schedule launches the loops as a kernel. The instructions the
schedule replaces loops by come from the instruction library it imports.

The Python twin of gemm_nn.mlir: both give the same module
(test/Python/test_examples.py).
"""

from __future__ import annotations

from exogpu.lang import *
from exogpu.stdlib import sm80


@proc
def gemm_sm80(M: size, N: size, K: size, A: f32[M, K] @ DRAM, B: f32[K, N] @ DRAM,
              C: f32[M, N] @ DRAM):
    assert M % 128 == 0 and N % 128 == 0 and K % 16 == 0
    for i in seq(0, M):
        for j in seq(0, N):
            C[i, j] = 0.0
            for k in seq(0, K):
                C[i, j] += A[i, k] * B[k, j]
