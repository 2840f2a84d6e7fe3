"""The naive twin of examples/vector_add.mlir: Z = X + Y element by element,
one CPU loop. `exogpu-run --proc=vector_add --compare=vector_add_ref`
checks that the kernel's sequential meaning equals it (docs/running.md).
Host memory (DRAM): CPU code cannot access device memory, and memory
types do not change values.

The Python twin of vector_add.mlir: both give the same module
(test/Python/test_examples.py).
"""

from __future__ import annotations

from exogpu.lang import *


@proc
def vector_add_ref(N: size, X: f32[N] @ DRAM, Y: f32[N] @ DRAM, Z: f32[N] @ DRAM):
    for i in seq(0, N):
        Z[i] = X[i] + Y[i]
