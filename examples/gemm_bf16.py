"""The Python twin of gemm_bf16.mlir, generated with it by bench/dispatch.py
from bench/dispatch.json: edit the table, not this file. The one-kernel entry
point of its precision: its host code calls, for the shape, the variant the
table names (the first row whose sizes and divisibility hold;
docs/performance.md). The table is provisional, not measured with these variants.

C = A B^T in bf16 with f32 accumulation and bf16 C: A is M x K, B is N x K, C is M x N, row major.
"""

from __future__ import annotations

from exogpu.lang import *
from gemm_bf16_overlap_sm90a import gemm_bf16_overlap_sm90a
from gemm_bf16_sm90a import gemm_bf16_sm90a
from gemm_bf16_128x128_sm90a import gemm_bf16_128x128_sm90a


@proc
def gemm_bf16(M: size, N: size, K: size,
              A: bf16[M, K] @ CudaGmemLinear, B: bf16[N, K] @ CudaGmemLinear,
              C: bf16[M, N] @ CudaGmemLinear):
    assert M % 128 == 0 and N % 128 == 0 and K % 128 == 0
    # gemm_bf16_overlap_sm90a from M >= 8192, N >= 8192
    if M >= 8192 and N >= 8192 and M % 1024 == 0 and N % 256 == 0 and K % 256 == 0:
        gemm_bf16_overlap_sm90a(M, N, K, A, B, C)
    if (M < 8192
            or N < 8192
            or M % 1024 > 0
            or N % 256 > 0
            or K % 256 > 0):
        # gemm_bf16_sm90a from M >= 2048, N >= 2048
        if M >= 2048 and N >= 2048 and M % 1024 == 0 and N % 256 == 0:
            gemm_bf16_sm90a(M, N, K, A, B, C)
        if (M < 2048
                or N < 2048
                or M % 1024 > 0
                or N % 256 > 0):
            # gemm_bf16_128x128_sm90a, the rest
            gemm_bf16_128x128_sm90a(M, N, K, A, B, C)
