"""The naive twins of the bug study's correct kernels (examples/bug-study,
docs/gpu-validation.md).
 * @splitk_gemv_ref: y += A * x in the order of the meaning of
   @splitk_gemv: per row, the even columns summed into y first, then
   the odd ones (task ks = 0 before ks = 1);
 * @scale2_ref: C = 2 X, @scale_tma_store.

The Python twin of bug_study.mlir: both give the same module
(test/Python/test_examples.py).
"""

from __future__ import annotations

from exogpu.lang import *


@proc
def splitk_gemv_ref(M: size, K: size, A: f32[M, K] @ DRAM, x: f32[K] @ DRAM,
                    y: f32[M] @ DRAM):
    for i in seq(0, M):
        for ks in seq(0, 2):
            acc: f32 @ DRAM
            acc = 0.0
            for j in seq(0, K / 2):
                acc += A[i, j * 2 + ks] * x[j * 2 + ks]
            y[i] += acc


@proc
def scale2_ref(M: size, X: f32[M, 32] @ DRAM, C: f32[M, 32] @ DRAM):
    for i in seq(0, M):
        for j in seq(0, 32):
            C[i, j] = X[i, j] * 2.0
