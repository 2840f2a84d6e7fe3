"""The naive twins of the GEMM kernels: triple loops summing over k in order
from 0 (docs/running.md).
 * @gemm_ab_ref: C = A * B (A: M x K, B: K x N), examples/sm80_gemm.mlir;
 * @gemm_abt_ref: C = A * B^T (A: M x K, B: N x K), examples/sm90a_gemm.mlir.
The kernels' tf32 instructions compute in f32 in their sequential bodies,
so their meaning sums the same products in the same order.

The Python twin of gemm.mlir: both give the same module
(test/Python/test_examples.py).
"""

from __future__ import annotations

from exogpu.lang import *


@proc
def gemm_ab_ref(M: size, N: size, K: size, A: f32[M, K] @ DRAM, B: f32[K, N] @ DRAM,
                C: f32[M, N] @ DRAM):
    for i in seq(0, M):
        for j in seq(0, N):
            acc: f32 @ DRAM
            acc = 0.0
            for k in seq(0, K):
                acc += A[i, k] * B[k, j]
            C[i, j] = acc


@proc
def gemm_abt_ref(M: size, N: size, K: size, A: f32[M, K] @ DRAM, B: f32[N, K] @ DRAM,
                 C: f32[M, N] @ DRAM):
    for i in seq(0, M):
        for j in seq(0, N):
            acc: f32 @ DRAM
            acc = 0.0
            for k in seq(0, K):
                acc += A[i, k] * B[j, k]
            C[i, j] = acc
