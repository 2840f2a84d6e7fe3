"""The ExoGPU language: `from exogpu.lang import *` brings every name the
paper's programs use (seeds/002 Sec. 2-3, the guide seeds/000).

    from __future__ import annotations
    from exogpu.lang import *

    @proc
    def vector_add(N: size, X: f32[N] @ CudaGmemLinear,
                   Y: f32[N] @ CudaGmemLinear, Z: f32[N] @ CudaGmemLinear):
        assert N % 128 == 0
        with CudaDeviceFunction(blockDim=128):
            for task in cuda_tasks(0, N / 128):
                for tid in cuda_threads(0, 128, unit=cuda_thread):
                    Z[task * 128 + tid] = X[task * 128 + tid] + Y[task * 128 + tid]

`proc` and `instr` (decorators), `size`, `index` (and Python's `bool`),
the precisions (`f32`, `bf16`, `f16`, `f64`, `i8`, `ui8`, `ui16`, `i32`),
`barrier`, the memories of Fig. 12 (`CudaGmemLinear`, `CudaSmemLinear`,
`CudaRmem`, `Sm90_SmemSwizzled`, ...), the barrier mechanisms of Fig. 13
(`CudaMbarrier`, `CudaCommitGroup`, `CudaClusterSync`), `Sm90_tensorMap`
(Fig. 14), the loop modes `seq`, `cuda_tasks`, `cuda_threads`, the
collective units of Fig. 11 (`cuda_thread`, `cuda_warp`, `cuda_warpgroup`,
`cuda_cta_in_cluster`, ...), `CudaDeviceFunction`, `CudaWarps`,
`CudaWarpConfig`, `CudaAsync`, `Fence`, `Arrive`, `Await`, `split` (a
window that views one dimension of a buffer as two), the timelines of Fig.
15 and 16, `Arg` (instruction parameters) and the data functions `exp2`,
`log2` (and Python's `max`). docs/python.md teaches the language.
"""

from .frontend.procs import instr, proc
from .frontend.vocabulary import names as _names

globals().update(_names())
__all__ = ["proc", "instr", *sorted(_names())]
