#!/usr/bin/env python3
"""Holds GPU outputs against a reference, as exogpu-run compares them.

The runner's comparison (docs/running.md, "Comparing two procs";
lib/Runner/Comparison.cpp) reimplemented in numpy, so that a GPU machine
without MLIR can apply it (docs/gpu-validation.md):

  t = base * sqrt(max(1, L / 256)), base f64 1e-12, f32 1e-5, f16 1e-3,
      tf32 3e-3, bf16 1e-2, exact 0 (L: the terms summed per element);
  Frobenius error ||got - want||_F / ||want||_F <= t;
  every elementwise error |got_i - want_i| / max(|want_i|, rms(want)) <=
      t * max(1, sqrt(2 ln n));
  a NaN in either array fails.

It also holds the independent references computed on the GPU machine where
the sequential meaning is too large to carry (float64, through PyTorch on
the GPU when it is there, else numpy).

Usage: compare.py --got DIR --want DIR --outputs NAME:PRECISION[,...]
                  --math tf32 --sum-length L [--got-label L] [--want-label L]
prints one line per output in exogpu-run's format and exits 1 if one fails.
"""

import argparse
import math
import sys

import numpy as np

BASES = {"f64": 1e-12, "f32": 1e-5, "f16": 1e-3, "tf32": 3e-3, "bf16": 1e-2}
FLOATS = ("f16", "bf16", "f32", "f64")
# The bytes of a poisoned (never written) element: docs/running.md.
POISON = {"float": 0xFF, "int": 0xAB}


def tolerance(math_class, sum_length):
    """The runner's relative tolerance (Comparison.cpp getTolerance)."""
    if math_class == "exact":
        return 0.0
    return BASES[math_class] * math.sqrt(max(1.0, sum_length / 256.0))


def default_math(precision):
    """The arithmetic assumed for outputs of `precision`."""
    return precision if precision in FLOATS else "exact"


def load(path):
    """An output or input .npy file as stored (bf16 as its <u2 bits)."""
    return np.load(path, allow_pickle=False)


def as_float64(array, precision):
    """The values of `array` (of an exogpu precision) as float64."""
    if precision == "bf16":
        bits = np.asarray(array, dtype=np.uint16).astype(np.uint32) << 16
        return bits.view(np.float32).astype(np.float64)
    return np.asarray(array).astype(np.float64)


def unwritten(array, precision):
    """How many elements still hold the poison bytes."""
    byte = POISON["float" if precision in FLOATS else "int"]
    raw = np.ascontiguousarray(array).view(np.uint8).reshape(array.size, -1)
    return int(np.count_nonzero(np.all(raw == byte, axis=1)))


class Comparison:
    """One output against its reference (Comparison.h)."""

    def __init__(self, got, want, tol):
        g = np.ravel(got)
        w = np.ravel(want)
        n = w.size
        self.tolerance = tol
        self.element_tolerance = tol * (
            max(1.0, math.sqrt(2.0 * math.log(n))) if n > 1 else 1.0)
        nan = np.isnan(w) | np.isnan(g)
        ok = ~nan
        with np.errstate(all="ignore"):
            want_norm = float(np.sum(w[ok] * w[ok]))
            diff = g[ok] - w[ok]
            diff_norm = float(np.sum(diff * diff))
            rms = math.sqrt(want_norm / n) if n else 0.0
            differs = g[ok] != w[ok]
            scale = np.maximum(np.abs(w[ok]), rms)
            error = np.where((scale > 0) & np.isfinite(scale),
                             np.abs(diff) / np.where(scale > 0, scale, 1),
                             np.inf)
            error[np.isnan(error)] = np.inf
        error = np.where(differs, error, 0.0)
        self.nan_count = int(np.count_nonzero(nan))
        self.max_element_error = float(error.max()) if error.size else 0.0
        bad = nan.copy()
        bad[ok] = differs & (error > self.element_tolerance)
        self.first_bad = int(np.argmax(bad)) if bad.any() else -1
        if diff_norm == 0:
            self.frobenius_error = 0.0
        elif (want_norm == 0 or not math.isfinite(diff_norm) or
              not math.isfinite(want_norm)):
            self.frobenius_error = math.inf
        else:
            self.frobenius_error = math.sqrt(diff_norm / want_norm)

    @property
    def passed(self):
        return self.first_bad < 0 and self.frobenius_error <= self.tolerance


def format_g(value, digits):
    """C's %.{digits}g, with glibc's -nan for a NaN whose sign bit is set."""
    if math.isnan(value):
        return "-nan" if math.copysign(1.0, value) < 0 else "nan"
    return "%.*g" % (digits, value)


def format_index(i, shape):
    index = []
    for extent in reversed(shape):
        index.append(i % extent if extent else 0)
        i = i // extent if extent else 0
    return "[" + ", ".join(str(x) for x in reversed(index)) + "]"


def describe(name, comparison, got, want, got_label, want_label):
    """exogpu-run's lines for one comparison (Comparison.cpp)."""
    c = comparison
    line = (f"{name}: Frobenius error {format_g(c.frobenius_error, 3)} "
            f"(tolerance {format_g(c.tolerance, 3)}), max elementwise "
            f"{format_g(c.max_element_error, 3)} "
            f"(tolerance {format_g(c.element_tolerance, 3)})")
    if c.nan_count:
        line += f", {c.nan_count} NaN(s)"
    if c.passed:
        return line + ": ok"
    line += ": FAILED"
    if c.first_bad >= 0:
        i = c.first_bad
        line += (f"\n  first difference at {name}"
                 f"{format_index(i, list(np.shape(want)))}: {got_label} "
                 f"{format_g(float(np.ravel(got)[i]), 9)}, {want_label} "
                 f"{format_g(float(np.ravel(want)[i]), 9)}")
    return line


# Independent references, in float64, for sizes whose sequential meaning is
# too large to carry. Each takes the inputs by name (ignoring those it does
# not need, e.g. an output that is also read) and returns the outputs by
# name.
def _matmul(a, b):
    try:
        import torch
        if torch.cuda.is_available():
            ta = torch.from_numpy(a).cuda()
            tb = torch.from_numpy(b).cuda()
            return (ta @ tb).cpu().numpy()
    except ImportError:
        pass
    return a @ b


def _attention(Q, K, V, causal):
    """O = softmax(Q K^T / sqrt(D)) V and the log-sum-exp of each row's
    scaled scores, per head ([BH, S, D]; a causal row r sees keys 0..r)."""
    heads, rows, dim = Q.shape
    O = np.empty_like(Q)
    LSE = np.empty((heads, rows))
    try:
        import torch
        device = "cuda" if torch.cuda.is_available() else "cpu"
        for h in range(heads):
            q, k, v = (torch.from_numpy(np.ascontiguousarray(x[h])).to(device)
                       for x in (Q, K, V))
            s = (q @ k.T) / np.sqrt(dim)
            if causal:
                s = s.masked_fill(torch.ones(rows, rows, dtype=torch.bool,
                                             device=device).triu(1),
                                  float("-inf"))
            LSE[h] = torch.logsumexp(s, dim=1).cpu().numpy()
            O[h] = (torch.softmax(s, dim=1) @ v).cpu().numpy()
        return {"O": O, "LSE": LSE}
    except ImportError:
        pass
    for h in range(heads):
        s = Q[h] @ K[h].T / np.sqrt(dim)
        if causal:
            s[np.triu_indices(rows, 1)] = -np.inf
        m = s.max(axis=1, keepdims=True)
        p = np.exp(s - m)
        total = p.sum(axis=1, keepdims=True)
        LSE[h] = (m + np.log(total)).ravel()
        O[h] = (p / total) @ V[h]
    return {"O": O, "LSE": LSE}


REFERENCES = {
    "vector_add": lambda X, Y: {"Z": X + Y},
    "cta_sum": lambda gmem: {"out": np.repeat(
        gmem.reshape(-1, 128).sum(axis=1), 128)},
    "gemv": lambda A, x: {"y": _matmul(A, x.reshape(-1, 1)).ravel()},
    "splitk_gemv": lambda A, x, y: {
        "y": y + _matmul(A, x.reshape(-1, 1)).ravel()},
    "gemm_ab": lambda A, B: {"C": _matmul(A, B)},
    # A: M x K and B: N x K, or their split-k views M x S x KC, N x S x KC.
    "gemm_abt": lambda A, B, **_: {"C": _matmul(
        A.reshape(A.shape[0], -1),
        np.ascontiguousarray(B.reshape(B.shape[0], -1).T))},
    "scale2": lambda X: {"C": 2.0 * X},
    "attention": lambda Q, K, V, **_: _attention(Q, K, V, causal=False),
    "attention_causal": lambda Q, K, V, **_: _attention(Q, K, V, causal=True),
}


def reference(name, inputs):
    """The outputs of reference `name` on float64 `inputs` (by name)."""
    return REFERENCES[name](**inputs)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--got", required=True)
    parser.add_argument("--want", required=True)
    parser.add_argument("--outputs", required=True,
                        help="NAME:PRECISION,... of the outputs to compare")
    parser.add_argument("--math", default="")
    parser.add_argument("--sum-length", type=int, required=True)
    parser.add_argument("--got-label", default="got")
    parser.add_argument("--want-label", default="want")
    opts = parser.parse_args()
    passed = True
    for item in opts.outputs.split(","):
        name, precision = item.split(":")
        got = load(f"{opts.got}/{name}.npy")
        want = load(f"{opts.want}/{name}.npy")
        tol = tolerance(opts.math or default_math(precision), opts.sum_length)
        g, w = as_float64(got, precision), as_float64(want, precision)
        c = Comparison(g, w, tol)
        print(describe(name, c, g.reshape(want.shape), w, opts.got_label,
                       opts.want_label))
        passed &= c.passed
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
