#!/usr/bin/env python3
"""Plots the kernel benchmark's CSV (bench/kernels.py, bench/gemm_bench.cu)
as a PNG for docs/performance.md: one panel per kind of problem, for each
shape the best ExoGPU variant ("specialized"), the ExoGPU entry point that
picks a variant for the shape ("one kernel", where the run has one), the
cuBLAS anchor and the best CUTLASS kernel (where the run has them; median
rate; the label gives the specialized / anchor ratio, and one kernel /
anchor after it, the anchor being the better of cuBLAS and CUTLASS), and
the H100 peak of that kind as a line (494.5 TFLOP/s tf32, 989 TFLOP/s
bf16, 3.35 TB/s HBM3).

Usage: bench/plot.py RESULTS.csv [-o performance.png]
"""

import argparse
import csv
import sys

PANELS = [
    ("tf32 GEMM, C = A B^T", ("tf32", "splitk"), "TFLOP/s"),
    ("bf16 GEMM, fp32 accumulation", ("bf16",), "TFLOP/s"),
    ("fp32 GEMV", ("gemv",), "TB/s"),
    ("sm_80 GEMM on sm_90 (portability)", ("sm80",), "TFLOP/s"),
]
COPY = "cudaMemcpy d2d"


def shape_of(row):
    if row["kind"] == "gemv":
        return f"{row['M']}x{row['N']}"
    if row["M"] == row["N"] == row["K"]:
        return f"{row['M']}^3"
    return f"{row['M']}x{row['N']}x{row['K']}"


def rate(row):
    try:
        value = float(row["rate_median"])
    except ValueError:
        return 0.0
    return value if value == value else 0.0  # NaN: not timed


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("csv")
    parser.add_argument("-o", "--output", default="performance.png")
    args = parser.parse_args()
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        sys.exit("plot.py: matplotlib is not installed")
    with open(args.csv, newline="") as file:
        rows = list(csv.DictReader(file))
    if not rows:
        sys.exit(f"plot.py: {args.csv} has no results")
    device = rows[0]["device"]

    panels = [p for p in PANELS if any(r["kind"] in p[1] for r in rows)]
    columns = min(2, len(panels))
    rows_of_panels = (len(panels) + columns - 1) // columns
    figure, axes = plt.subplots(rows_of_panels, columns, squeeze=False,
                                figsize=(6 * columns, 4.5 * rows_of_panels))
    for axis in axes.flat[len(panels):]:
        axis.set_visible(False)
    for axis, (title, kinds, unit) in zip(axes.flat, panels):
        shapes, exo, entry, anchor, cutlass, copy, notes = \
            [], [], [], [], [], [], []
        for row in rows:
            if row["kind"] not in kinds:
                continue
            shape = shape_of(row)
            if shape not in shapes:
                shapes.append(shape)
                exo.append(0.0), entry.append(0.0), anchor.append(0.0)
                cutlass.append(0.0), copy.append(0.0), notes.append("")
            i = shapes.index(shape)
            if row["best"] == "1":
                exo[i] = rate(row)
            elif row.get("entry") == "1":
                entry[i] = rate(row)
            elif row["exogpu"] == "0" and row["variant"] == COPY:
                copy[i] = rate(row)
            elif row.get("anchor") == "cutlass":
                cutlass[i] = max(cutlass[i], rate(row))
            elif row["exogpu"] == "0":
                anchor[i] = rate(row)
            if row["failed"] == "1":
                notes[i] = "FAILED CHECK"
        x = range(len(shapes))
        bars = [("ExoGPU, specialized", exo, "C0")]
        if any(entry):
            bars.append(("ExoGPU, one kernel", entry, "C2"))
        bars.append(("cuBLAS", anchor, "C1"))
        if any(cutlass):
            bars.append(("CUTLASS (best schedule)", cutlass, "C4"))
        best = [max(a, c) for a, c in zip(anchor, cutlass)]
        width = 0.8 / len(bars)
        for k, (label, values, color) in enumerate(bars):
            offset = (k - (len(bars) - 1) / 2) * width
            axis.bar([i + offset for i in x], values, width, label=label,
                     color=color)
        if any(copy):
            axis.plot(list(x), copy, "k_", markersize=22,
                      label="device-to-device copy")
        for i in x:
            label = f"{exo[i] / best[i]:.2f}x" if exo[i] and best[i] \
                else notes[i]
            if entry[i] and best[i] and not notes[i]:
                label += f" / {entry[i] / best[i]:.2f}x"
            axis.annotate(label, (i, max(exo[i], entry[i], best[i])),
                          ha="center", va="bottom", fontsize=7)
        peak = float(next(r["peak"] for r in rows if r["kind"] in kinds))
        axis.axhline(peak, color="gray", linestyle="--", linewidth=1,
                     label=f"peak {peak:g} {unit}")
        axis.set_xticks(list(x))
        axis.set_xticklabels(shapes, rotation=30, ha="right", fontsize=8)
        axis.set_ylabel(unit)
        axis.set_title(title, fontsize=10)
        axis.legend(fontsize=7, loc="best")
    figure.suptitle(f"ExoGPU kernels, cuBLAS and CUTLASS on {device} "
                    "(median; ratios to the better anchor)",
                    fontsize=11)
    figure.tight_layout()
    figure.savefig(args.output, dpi=120)
    print(f"plot.py: wrote {args.output}")


if __name__ == "__main__":
    main()
