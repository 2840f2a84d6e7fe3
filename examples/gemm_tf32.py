"""The Python twin of gemm_tf32.mlir, generated with it by bench/dispatch.py
from bench/dispatch.json: edit the table, not this file. The one-kernel entry
point of its precision: its host code calls, for the shape, the variant the
table names (the first row whose sizes and divisibility hold;
docs/performance.md). The table is provisional, not measured with these variants.

C = A B^T in tf32 with f32 accumulation: A is M x K, B is N x K, C is M x N, row major.
"""

from __future__ import annotations

from exogpu.lang import *
from gemm_splitk_sm90a import gemm_splitk_sm90a
from gemm_tf32_overlap_sm90a import gemm_tf32_overlap_sm90a
from gemm_tf32_sm90a import gemm_tf32_sm90a
from gemm_tf32_128x128_sm90a import gemm_tf32_128x128_sm90a


@proc
def gemm_tf32(M: size, N: size, K: size,
              A: f32[M, K] @ CudaGmemLinear, B: f32[N, K] @ CudaGmemLinear,
              C: f32[M, N] @ CudaGmemLinear):
    assert M % 128 == 0 and N % 128 == 0 and K % 64 == 0
    # gemm_splitk_sm90a in chunks of K of 1024 from K >= 16384, M <= 256, N <= 256
    if M <= 256 and N <= 256 and K >= 16384 and M % 256 == 0 and N % 256 == 0 and K % 1024 == 0:
        A_chunks = split(A, dim=1, by=1024)
        B_chunks = split(B, dim=1, by=1024)
        gemm_splitk_sm90a(M, N, K / 1024, 1024, A_chunks, B_chunks, C)
    if (M > 256
            or N > 256
            or K < 16384
            or M % 256 > 0
            or N % 256 > 0
            or K % 1024 > 0):
        # gemm_splitk_sm90a in chunks of K of 16384 from K >= 32768, M <= 1024, N <= 1024
        if M <= 1024 and N <= 1024 and K >= 32768 and M % 256 == 0 and N % 256 == 0 and K % 16384 == 0:
            A_chunks = split(A, dim=1, by=16384)
            B_chunks = split(B, dim=1, by=16384)
            gemm_splitk_sm90a(M, N, K / 16384, 16384, A_chunks, B_chunks, C)
        if (M > 1024
                or N > 1024
                or K < 32768
                or M % 256 > 0
                or N % 256 > 0
                or K % 16384 > 0):
            # gemm_tf32_overlap_sm90a from M >= 8192, N >= 8192
            if M >= 8192 and N >= 8192 and M % 1024 == 0 and N % 256 == 0 and K % 128 == 0:
                gemm_tf32_overlap_sm90a(M, N, K, A, B, C)
            if (M < 8192
                    or N < 8192
                    or M % 1024 > 0
                    or N % 256 > 0
                    or K % 128 > 0):
                # gemm_tf32_sm90a from M >= 2048, N >= 2048
                if M >= 2048 and N >= 2048 and M % 1024 == 0 and N % 256 == 0:
                    gemm_tf32_sm90a(M, N, K, A, B, C)
                if (M < 2048
                        or N < 2048
                        or M % 1024 > 0
                        or N % 256 > 0):
                    # gemm_tf32_128x128_sm90a, the rest
                    gemm_tf32_128x128_sm90a(M, N, K, A, B, C)
