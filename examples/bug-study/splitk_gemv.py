"""Split-k GEMV, y += A * x (A: M x K, row major), for the synchronization
bug study (docs/gpu-validation.md): the K dimension is split between two
tasks (the paper's Sec. 6 GEMMs split k the same way), task (m, ks) sums
the columns j * 2 + ks of rows m * 128 ... m * 128 + 127, and both tasks
of a row block add their partial sums into the same y[i]. Tasks of one
kernel are never ordered with each other (Fig. 5), so the two updates
must be atomic: red.global.add (Fig. 2 `atomic`, Fig. 19 "Atomic").
The seeded bug (utils/gpuval/cases.py, `splitk-unordered`) replaces the
atomic add with a plain `+=`; test/SyncCheck/split-k.mlir has the minimal
form of both.

The Python twin of splitk_gemv.mlir: both give the same module
(test/Python/test_examples.py).
"""

from __future__ import annotations

from exogpu.lang import *


# A one-thread atomic add into global memory (not in the stdlib): the
# destination is annotated atomic on cuda_in_order_ram_qual.
@instr(cuda="atomicAdd({dst}, {src.0});", unit=cuda_thread)
def cuda_atomic_add_f32(
        dst: f32[1] @ CudaGmemLinear @ Arg(atomic=[cuda_in_order_ram_qual]),
        src: f32[1] @ CudaRmem):
    dst[0] += src[0]

@proc
def splitk_gemv(M: size, K: size, A: f32[M, K] @ CudaGmemLinear,
                x: f32[K] @ CudaGmemLinear, y: f32[M] @ CudaGmemLinear):
    assert M % 128 == 0 and K % 2 == 0
    with CudaDeviceFunction(blockDim=128):
        for m in cuda_tasks(0, M / 128):
            for ks in cuda_tasks(0, 2):
                acc: f32[128, 1] @ CudaRmem
                for t in cuda_threads(0, 128, unit=cuda_thread):
                    acc[t, 0] = 0.0
                    for j in seq(0, K / 2):
                        acc[t, 0] += A[m * 128 + t, j * 2 + ks] * x[j * 2 + ks]
                    cuda_atomic_add_f32(y[m * 128 + t:m * 128 + t + 1], acc[t, :])
