"""ExoGPU from Python: a checked kernel as a function on your tensors.

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
                     Location, ToolError, ToolNotFoundError,
                     parse_diagnostics)
from .kernel import Kernel
from .meaning import meaning
from .signature import Param, Signature
from .source import Source
from .torch_ops import torch_op

__all__ = [
    "BuildError", "CudaError", "Diagnostic", "ExoGPUError", "Kernel",
    "Location", "Param", "Signature", "Source", "ToolError",
    "ToolNotFoundError", "compile", "meaning", "parse_diagnostics",
    "torch_op",
]
__version__ = "0.1.0"
