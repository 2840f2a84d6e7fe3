"""ExoGPU from Python: kernels written in the paper's language, checked,
and called as functions on your tensors.

    from __future__ import annotations
    from exogpu.lang import *          # proc, size, f32, seq, Fence, ...

    @proc
    def gemv(M: size, N: size, A: f32[M, N] @ CudaGmemLinear, ...):
        ...
    gemv.check(M=256, N=64)            # the analyses and the sync check
    kernel = exogpu.compile(gemv, check={"M": 256, "N": 64})

`@exogpu.proc` reads a Python function as a proc (docs/python.md "The
language"); `exogpu.scheduling` rewrites procs as Exo does. A `.mlir` file
works wherever a proc does:

    import exogpu, torch
    gemm = exogpu.compile("examples/gemm_tf32_sm90a.mlir", "gemm_tf32_sm90a",
                          check={"M": 1024, "N": 256, "K": 32})
    C = gemm(A, B)                 # torch tensors in, a torch tensor out
    C_ref = exogpu.meaning("examples/gemm_tf32_sm90a.mlir", "gemm_tf32_sm90a",
                           A=a, B=b)  # NumPy arrays, the sequential meaning

* `compile` runs the analyses and the synchronization check at the given
  sizes, translates to CUDA, builds a shared library with nvcc (cached by
  content) and returns a `Kernel`;
* a `Kernel` takes arrays through DLPack or `__cuda_array_interface__`
  (PyTorch, CuPy, JAX), checks them against the proc's signature and
  launches on the caller's current stream;
* `torch_op` registers a kernel as a PyTorch custom operator;
* `meaning` runs a proc's sequential meaning with `exogpu-run`.

Tool diagnostics become `ToolError` (message, location, notes). See
docs/python.md.
"""

from .compiler import compile
from .errors import (BuildError, CudaError, Diagnostic, ExoGPUError,
                     FrontendError, Location, ToolError, ToolNotFoundError,
                     parse_diagnostics)
from .frontend.procs import Instr, Proc, instr, proc
from .kernel import Kernel
from .meaning import meaning
from .signature import Param, Signature
from .source import Source
from .torch_ops import torch_op

__all__ = [
    "BuildError", "CudaError", "Diagnostic", "ExoGPUError", "FrontendError",
    "Instr", "Kernel", "Location", "Param", "Proc", "Signature", "Source",
    "ToolError", "ToolNotFoundError", "compile", "instr", "meaning",
    "parse_diagnostics", "proc", "torch_op",
]
__version__ = "0.1.0"
