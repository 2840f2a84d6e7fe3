"""The naive GEMM C = A * B^T (A: M x K, B: N x K, row major): three seq
loops, the program p1 of the chain of equivalence (paper Sec. 2.3) that
sm90a_gemm_schedule.mlir rewrites into the Hopper kernel of
examples/sm90a_gemm.mlir. The parameters live in host memory (DRAM) until
the schedule launches the loops as a kernel. The instructions the
schedule replaces loops by come from the instruction library it imports.

The Python twin of gemm_nt.mlir: both give the same module
(test/Python/test_examples.py).
"""

from __future__ import annotations

from exogpu.lang import *
from exogpu.stdlib import sm90a


@proc
def gemm_sm90a(M: size, N: size, K: size, A: f32[M, K] @ DRAM, B: f32[N, K] @ DRAM,
               C: f32[M, N] @ DRAM):
    assert M % 256 == 0 and N % 256 == 0 and K % 32 == 0
    for i in seq(0, M):
        for j in seq(0, N):
            C[i, j] = 0.0
            for k in seq(0, K):
                C[i, j] += A[i, k] * B[j, k]
