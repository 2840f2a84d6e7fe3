#!/usr/bin/env python3
"""Writes perturbed copies of an output for the comparator tests.

Usage: perturb.py IN.npy OUTDIR
writes OUTDIR/VARIANT/NAME.npy for each variant below: what a GPU run could
produce, from equal to badly wrong.
"""

import pathlib
import sys

import numpy as np


def main():
    source = pathlib.Path(sys.argv[1])
    out = pathlib.Path(sys.argv[2])
    want = np.load(source)
    rng = np.random.default_rng(5)
    noise = rng.standard_normal(want.shape).astype(want.dtype)
    scale = float(np.sqrt(np.mean(want.astype(np.float64) ** 2)))
    variants = {
        "equal": want.copy(),
        "rounding": want + noise * np.float32(scale * 1e-7),
        "noisy": want + noise * np.float32(scale * 1e-3),
        "one-off": want.copy(),
        "nan": want.copy(),
        "poisoned": want.copy(),
        "zero": np.zeros_like(want),
    }
    variants["one-off"].flat[7] += np.float32(10 * scale)
    variants["nan"].flat[3] = np.nan
    variants["poisoned"].view(np.uint8)[-4:] = 0xFF
    for name, array in variants.items():
        (out / name).mkdir(parents=True, exist_ok=True)
        np.save(out / name / source.name, array)


if __name__ == "__main__":
    main()
