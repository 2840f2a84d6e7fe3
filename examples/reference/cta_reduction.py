"""The naive twin of the CTA reductions of examples/cta_reduction.mlir: every
element of a 128-element chunk of `out` is the sum of that chunk of
`gmem`, summed in order (docs/running.md).

The Python twin of cta_reduction.mlir: both give the same module
(test/Python/test_examples.py).
"""

from __future__ import annotations

from exogpu.lang import *


@proc
def cta_sum_ref(N: size, gmem: f32[N] @ DRAM, out: f32[N] @ DRAM):
    for chunk in seq(0, N / 128):
        sum: f32 @ DRAM
        sum = 0.0
        for i in seq(0, 128):
            sum += gmem[chunk * 128 + i]
        for i in seq(0, 128):
            out[chunk * 128 + i] = sum
