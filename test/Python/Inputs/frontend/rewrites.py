"""Small procs for the rewrites of exogpu.scheduling the GEMM schedules do
not use (test_schedules.py applies each once)."""

from __future__ import annotations

from exogpu.lang import *


@proc
def scale(N: size, x: f32[N] @ DRAM):
    for i in seq(0, N):
        x[i] = x[i] * 2.0


@proc
def small(N: size, x: f32[N] @ DRAM, y: f32[N] @ DRAM):
    assert N % 4 == 0 and N >= 8
    t: f32 @ DRAM
    unused: f32 @ DRAM
    v: f32[4, 2] @ DRAM
    for i in seq(0, N):
        y[i] = x[i] * 2.0 + 1.0
    for j in seq(0, 4):
        y[j] = 0.0
    for a in seq(0, N / 4):
        for b in seq(0, 4):
            y[a * 4 + b] += 1.0
    for c in seq(0, 4):
        if N > 0:
            y[c] = 1.0
    t = x[0]
    y[1] = t
    w = x[0:4]
    y[3] = w[1]
    for r in seq(0, 3):
        y[4] = 5.0
    u: f32 @ DRAM
    u = x[2]
    y[2] = u
    s: f32 @ DRAM
    for q in seq(0, 4):
        s = x[q]
        y[q] = s
    for o in seq(0, 2):
        z: f32 @ DRAM
        z = x[o]
        y[o] = z
    v[0, 1] = 1.0
    scale(N, y)
