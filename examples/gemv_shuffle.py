"""A warp-per-row fp32 GEMV, y = A * x (A: M x N, row major), with the warp
reduction done by warp shuffles: the GEMV kernel of the paper's evaluation
(seeds/002 Sec. 6, "a full-precision fp32 GEMV kernel using warp shuffles
and scalar math", after [12] cuda_hgemv).
 * one task (CTA of 4 warps, blockDim = 128) per 4 rows of A; warp w of
   the task owns row task * 4 + w;
 * lane l of a warp accumulates the columns j * 32 + l (coalesced loads) in
   its own register shard part[w, l] (Sec. 2.1 "Distributed Memory": the
   per-thread partial sums are one allocation f32[4, 32] @ CudaRmem,
   distributed over warps and lanes by the cuda_threads iterators);
 * a shuffle-down tree (deltas 16, 8, 4, 2, 1; stdlib sm80
   @cuda_shfl_down_f32, a convergent warp instruction, the only way a lane
   may read another lane's registers) folds the 32 partial sums into lane 0,
   which writes y.
Frees are not written: the compiler inserts them (paper Sec. 3.4).

The Python twin of gemv_shuffle.mlir: both give the same module
(test/Python/test_examples.py).
"""

from __future__ import annotations

from exogpu.lang import *
from exogpu.stdlib import sm80


@proc
def gemv_shuffle(M: size, N: size, A: f32[M, N] @ CudaGmemLinear,
                 x: f32[N] @ CudaGmemLinear, y: f32[M] @ CudaGmemLinear):
    assert M % 4 == 0 and N % 32 == 0
    with CudaDeviceFunction(blockDim=128):
        for task in cuda_tasks(0, M / 4):
            part: f32[4, 32] @ CudaRmem
            shfl: f32[4, 32] @ CudaRmem
            for w in cuda_threads(0, 4, unit=cuda_warp):
                # Per-lane partial dot products over the columns j * 32 + lane.
                for lane in cuda_threads(0, 32, unit=cuda_thread):
                    part[w, lane] = 0.0
                    for j in seq(0, N / 32):
                        part[w, lane] += A[task * 4 + w, j * 32 + lane] * x[j * 32 + lane]
                # Shuffle-down tree: after the round with delta d, lane l < d holds
                # the sum of lanes l, l + d, ..., so lane 0 ends with the row's sum.
                cuda_shfl_down_f32(16, shfl[w, :], part[w, :])
                for lane in cuda_threads(0, 32, unit=cuda_thread):
                    part[w, lane] += shfl[w, lane]
                cuda_shfl_down_f32(8, shfl[w, :], part[w, :])
                for lane in cuda_threads(0, 32, unit=cuda_thread):
                    part[w, lane] += shfl[w, lane]
                cuda_shfl_down_f32(4, shfl[w, :], part[w, :])
                for lane in cuda_threads(0, 32, unit=cuda_thread):
                    part[w, lane] += shfl[w, lane]
                cuda_shfl_down_f32(2, shfl[w, :], part[w, :])
                for lane in cuda_threads(0, 32, unit=cuda_thread):
                    part[w, lane] += shfl[w, lane]
                cuda_shfl_down_f32(1, shfl[w, :], part[w, :])
                for lane in cuda_threads(0, 32, unit=cuda_thread):
                    part[w, lane] += shfl[w, lane]
                    # Lane 0 holds the row's dot product.
                    if lane == 0:
                        y[task * 4 + w] = part[w, lane]
