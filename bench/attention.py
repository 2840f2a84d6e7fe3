#!/usr/bin/env python3
"""Builds and runs the attention benchmark: the ExoGPU kernels of
examples/attention_fwd_sm90a.mlir (and, at D = 128, their FlashAttention-3
inter-warpgroup ping-pong twins of examples/attention_fwd_pingpong_sm90a.mlir)
against PyTorch's
scaled_dot_product_attention with each of its backends (flash, efficient,
cuDNN) in the same process (issue 25; docs/performance.md "Attention" has
the method and the table).

Stages, each done when its tool is there:
  1. translate  examples/attention_fwd_sm90a.mlir and
                attention_fwd_pingpong_sm90a.mlir -> OUT/src/*.cu, *.h with
                exogpu-translate (needs the ExoGPU build; skipped where it is
                missing, e.g. on the GPU machine, which then uses the sources
                carried in OUT);
  2. build      nvcc (sm_90a, -Xptxas -v, warnings are errors) the kernels
                into the shared library OUT/libattention.so (ptxas report in
                OUT/attention.ptxas.txt; no spills allowed); skipped when
                OUT/stamp says source, flags and nvcc are unchanged;
  3. run        with PyTorch on a CUDA device: per shape, the ExoGPU kernel
                (called through ctypes on PyTorch's tensors and stream) and
                each SDPA backend are first checked against a float32
                reference, then timed with CUDA events (median); the table
                goes to stdout, the CSV and the log to RESULTS. Without
                PyTorch or a GPU it says so and exits 0.

One command on a machine with an H100 or H200, after building here
(`--no-run` stops after stage 2):
    python3 bench/attention.py --results "$OUT"
with OUT (default build/bench-attention) carried along. Subsets fit short
leases: --bh 16x16 --seqlens 4096 --dims 128 --causal no --runs 20.

Usage: bench/attention.py [--bh BxH,...] [--seqlens S,...] [--dims D,...]
                          [--causal yes|no|both] [--runs N] [--warmup N]
                          [--out DIR] [--results DIR] [--translator PATH]
                          [--nvcc PATH] [--no-run] [--library PATH]
                          [--budget SECONDS]
"""

import argparse
import csv
import ctypes
import math
import pathlib
import statistics
import subprocess
import sys
import time

from toolchain import Script

ROOT = pathlib.Path(__file__).resolve().parent.parent
# The translated files (examples/NAME.mlir), compiled into one library.
NAMES = ["attention_fwd_sm90a", "attention_fwd_pingpong_sm90a"]
# The ExoGPU kernels of a row: the kernel of examples/attention_fwd_sm90a.mlir
# ("exogpu") and, where the library has one for the row's proc, the
# inter-warpgroup ping-pong kernel ("pingpong": the proc's name + SUFFIX).
VARIANTS = {"exogpu": "", "pingpong": "_pingpong"}
KERNEL_FLAGS = ["-std=c++17", "-O3", "-gencode", "arch=compute_90a,code=sm_90a",
                "-Werror", "all-warnings", "-Xptxas", "-v"]
LIBRARY_FLAGS = ["-shared", "-Xcompiler", "-fPIC"]
CLEAN = "0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads"
# The shapes: B x H = 16 x 16 and 4 x 32, S = 1024 .. 16384, both
# head dimensions, causal and not.
DEFAULT_BH = "16x16,4x32"
DEFAULT_SEQLENS = "1024,2048,4096,8192,16384"
DEFAULT_DIMS = "64,128"
BACKENDS = ["flash", "efficient", "cudnn"]
# Correctness against the float32 reference (relative Frobenius errors):
# O is bf16 (2^-8 relative rounding) and P is rounded to bf16 before P V;
# the log-sum-exp is f32.
O_TOLERANCE = 2e-2
LSE_TOLERANCE = 1e-3
# The float32 reference is computed for this many heads (memory: S^2 floats
# per head).
REFERENCE_HEADS = 2


SCRIPT = Script("attention.py")
log, fail, find_tool = SCRIPT.log, SCRIPT.fail, SCRIPT.find_tool


def translate(translator, src):
    """Stage 1: the kernels' CUDA and headers into src."""
    for name in NAMES:
        SCRIPT.translate(translator, [ROOT / "examples" / f"{name}.mlir"], src)
        log(f"translated {name}.mlir into {src}")


def stamp_of(nvcc, src):
    """A hash of what the build reads: the source, flags and the compiler."""
    return SCRIPT.stamp(
        nvcc, KERNEL_FLAGS + LIBRARY_FLAGS,
        [*(src / f"{name}{suffix}" for name in NAMES
           for suffix in (".cu", ".h")),
         ROOT / "runtime" / "include" / "exogpu" / "runtime.cuh"],
        "translate first (stage 1 needs build/bin/exogpu-translate, or "
        f"carry {src.parent})")


def build(nvcc, out):
    """Stage 2: the kernels as a shared library the run stage loads."""
    src = out / "src"
    library = out / "libattention.so"
    stamp = stamp_of(nvcc, src)
    stamp_file = out / "stamp"
    if SCRIPT.up_to_date(library, stamp_file, stamp):
        return library
    result = subprocess.run(
        [nvcc, *KERNEL_FLAGS, *LIBRARY_FLAGS, "-I",
         str(ROOT / "runtime" / "include"),
         *(str(src / f"{name}.cu") for name in NAMES), "-o",
         str(library)], capture_output=True, text=True)
    report = result.stdout + result.stderr
    (out / "attention.ptxas.txt").write_text(report)
    if result.returncode != 0:
        fail(f"nvcc {' '.join(name + '.cu' for name in NAMES)}:\n{report}")
    spills = [line for line in report.splitlines()
              if "bytes stack frame" in line and line.strip() != CLEAN]
    if spills:
        fail(f"ptxas reports spills or a stack frame:\n{report}")
    stamp_file.write_text(stamp)
    log(f"built {library} (ptxas report in {out / 'attention.ptxas.txt'})")
    return library


class Shape:
    """One benchmarked problem: batch, heads, sequence length, head
    dimension, causality."""

    def __init__(self, batch, heads, seqlen, dim, causal):
        self.batch, self.heads, self.seqlen = batch, heads, seqlen
        self.dim, self.causal = dim, causal

    @property
    def proc(self):
        return f"attention_fwd_d{self.dim}" + ("_causal" if self.causal
                                               else "")

    @property
    def label(self):
        return (f"B={self.batch} H={self.heads} S={self.seqlen} D={self.dim}"
                f"{' causal' if self.causal else ''}")

    def flops(self):
        """4 B H S^2 D (two GEMMs of 2 S^2 D per head), halved when causal
        (FlashAttention's and PyTorch's convention)."""
        full = 4 * self.batch * self.heads * self.seqlen ** 2 * self.dim
        return full / 2 if self.causal else full


def shapes_of(args):
    bhs = [tuple(int(x) for x in item.split("x"))
           for item in args.bh.split(",") if item]
    causal = {"yes": [True], "no": [False], "both": [False, True]}[args.causal]
    return [Shape(b, h, s, d, c) for b, h in bhs
            for s in (int(x) for x in args.seqlens.split(","))
            for d in (int(x) for x in args.dims.split(","))
            for c in causal]


class Harness:
    """The run stage: PyTorch tensors, the ExoGPU host functions through
    ctypes, SDPA's backends, CUDA-event timing."""

    def __init__(self, torch, library, args):
        self.torch = torch
        self.args = args
        self.lib = ctypes.CDLL(str(library))
        for dim in (64, 128):
            for causal in ("", "_causal"):
                variants = self.variants(f"attention_fwd_d{dim}{causal}")
                for proc in variants.values():
                    fn = getattr(self.lib, proc)
                    fn.argtypes = [ctypes.c_void_p, ctypes.c_int64,
                                   ctypes.c_int64, ctypes.c_void_p,
                                   ctypes.c_void_p, ctypes.c_void_p,
                                   ctypes.c_void_p, ctypes.c_void_p]
                    fn.restype = ctypes.c_int
        from torch.nn.attention import SDPBackend
        self.backends = {"flash": SDPBackend.FLASH_ATTENTION,
                         "efficient": SDPBackend.EFFICIENT_ATTENTION,
                         "cudnn": SDPBackend.CUDNN_ATTENTION}

    def variants(self, base):
        """The ExoGPU kernels the library has for the proc `base` of a
        shape: variant -> proc."""
        procs = {variant: base + suffix
                 for variant, suffix in VARIANTS.items()}
        return {variant: proc for variant, proc in procs.items()
                if variant == "exogpu" or hasattr(self.lib, proc)}

    def exogpu(self, proc, shape, q, k, v, o, lse):
        """Enqueues the ExoGPU kernel `proc` on PyTorch's current stream."""
        fn = getattr(self.lib, proc)
        stream = self.torch.cuda.current_stream().cuda_stream
        status = fn(stream, shape.batch * shape.heads, shape.seqlen,
                    q.data_ptr(), k.data_ptr(), v.data_ptr(), o.data_ptr(),
                    lse.data_ptr())
        if status != 0:
            raise RuntimeError(f"{proc} returned cudaError {status}")

    def sdpa(self, backend, shape, q, k, v):
        from torch.nn.attention import sdpa_kernel
        with sdpa_kernel(self.backends[backend]):
            return self.torch.nn.functional.scaled_dot_product_attention(
                q, k, v, is_causal=shape.causal)

    def reference(self, shape, q, k, v, heads):
        """O and LSE in float32 for the first `heads` heads of batch 0."""
        torch = self.torch
        scale = 1.0 / math.sqrt(shape.dim)
        outs, lses = [], []
        for h in range(heads):
            qh, kh, vh = (x[0, h].float() for x in (q, k, v))
            s = (qh @ kh.T) * scale
            if shape.causal:
                mask = torch.ones_like(s, dtype=torch.bool).triu(1)
                s = s.masked_fill(mask, float("-inf"))
            lses.append(torch.logsumexp(s, dim=1))
            outs.append(torch.softmax(s, dim=1) @ vh)
        return torch.stack(outs), torch.stack(lses)

    @staticmethod
    def error(got, want):
        """Relative Frobenius error in float64."""
        got, want = got.double(), want.double()
        return float((got - want).norm() / want.norm())

    def time(self, launch):
        """Median milliseconds of `runs` launches after `warmup`, each
        between two CUDA events on the current stream."""
        torch = self.torch
        for _ in range(self.args.warmup):
            launch()
        starts = [torch.cuda.Event(enable_timing=True)
                  for _ in range(self.args.runs)]
        ends = [torch.cuda.Event(enable_timing=True)
                for _ in range(self.args.runs)]
        for start, end in zip(starts, ends):
            start.record()
            launch()
            end.record()
        torch.cuda.synchronize()
        return statistics.median(s.elapsed_time(e)
                                 for s, e in zip(starts, ends))

    def measure(self, shape):
        """One row: correctness of every implementation, then times."""
        torch = self.torch
        torch.manual_seed(shape.seqlen * 131 + shape.dim)
        size = (shape.batch, shape.heads, shape.seqlen, shape.dim)
        q, k, v = (torch.randn(size, device="cuda", dtype=torch.bfloat16)
                   for _ in range(3))
        o = torch.empty_like(q)
        lse = torch.empty(size[:3], device="cuda", dtype=torch.float32)
        heads = min(REFERENCE_HEADS, shape.heads)
        want_o, want_lse = self.reference(shape, q, k, v, heads)
        row = {"shape": shape.label, "B": shape.batch, "H": shape.heads,
               "S": shape.seqlen, "D": shape.dim, "causal": shape.causal}
        for variant, proc in self.variants(shape.proc).items():
            o.zero_()
            lse.zero_()
            try:
                self.exogpu(proc, shape, q, k, v, o, lse)
                torch.cuda.synchronize()
                row[f"{variant}_o_error"] = self.error(o[0, :heads], want_o)
                row[f"{variant}_lse_error"] = self.error(lse[0, :heads],
                                                         want_lse)
            except RuntimeError as error:
                row[f"{variant}_note"] = str(error)
                row[f"{variant}_o_error"] = math.inf
                row[f"{variant}_lse_error"] = math.inf
            row[f"{variant}_ok"] = (
                row[f"{variant}_o_error"] <= O_TOLERANCE and
                row[f"{variant}_lse_error"] <= LSE_TOLERANCE)
            if row[f"{variant}_ok"]:
                ms = self.time(
                    lambda: self.exogpu(proc, shape, q, k, v, o, lse))
                row[f"{variant}_ms"] = ms
                row[f"{variant}_tflops"] = shape.flops() / ms / 1e9
        for backend in BACKENDS:
            try:
                got = self.sdpa(backend, shape, q, k, v)
                torch.cuda.synchronize()
            except Exception as error:  # a backend that refuses the shape
                row[f"{backend}_note"] = (str(error).splitlines() or
                                          [type(error).__name__])[0][:80]
                continue
            row[f"{backend}_o_error"] = self.error(got[0, :heads], want_o)
            ms = self.time(lambda: self.sdpa(backend, shape, q, k, v))
            row[f"{backend}_ms"] = ms
            row[f"{backend}_tflops"] = shape.flops() / ms / 1e9
        return row


def format_row(row):
    def cell(key):
        value = row.get(f"{key}_tflops")
        return f"{value:7.1f}" if value is not None else "    n/a"
    best = max((row[f"{b}_tflops"] for b in BACKENDS
                if f"{b}_tflops" in row), default=None)
    ours = max((row[f"{v}_tflops"] for v in VARIANTS
                if f"{v}_tflops" in row), default=None)
    flash = row.get("flash_tflops")

    def ratio(anchor):
        return f"{ours / anchor:5.2f}" if ours and anchor else "  n/a"

    def status(variant):
        if row.get(f"{variant}_note"):
            return f"FAILED ({row[f'{variant}_note']})"
        if row[f"{variant}_ok"]:
            return "ok"
        return (f"WRONG (O {row[f'{variant}_o_error']:.2e}, LSE "
                f"{row[f'{variant}_lse_error']:.2e})")
    checks = [("" if variant == "exogpu" else f"{variant} ") + status(variant)
              for variant in VARIANTS if f"{variant}_ok" in row]
    return (f"| {row['shape']:<32} | {cell('exogpu')} | {cell('pingpong')} | "
            f"{cell('flash')} | {cell('efficient')} | {cell('cudnn')} | "
            f"{ratio(flash)} | {ratio(best)} | "
            f"{row.get('exogpu_o_error', 0):.1e} | {'; '.join(checks)} |")


# ExoGPU: the kernel of examples/attention_fwd_sm90a.mlir; ping-pong: its
# inter-warpgroup ping-pong twin (D = 128); the ratios take the faster.
HEADER = ("| shape | ExoGPU | ping-pong | flash | efficient | cuDNN | x flash "
          "| x best | O error | check |\n| --- | --- | --- | --- | --- | --- "
          "| --- | --- | --- | --- |")


def run(library, args, results):
    """Stage 3; returns the exit status."""
    try:
        import torch
    except ImportError:
        log("PyTorch is not installed: nothing to run (the build is done)")
        return 0
    if not torch.cuda.is_available():
        log("no CUDA device: nothing to run (the build is done)")
        return 0
    major, minor = torch.cuda.get_device_capability()
    if (major, minor) != (9, 0):
        log(f"the kernels are built for sm_90a; this device is sm_{major}"
            f"{minor}: nothing to run")
        return 0
    results.mkdir(parents=True, exist_ok=True)
    harness = Harness(torch, library, args)
    log(f"torch {torch.__version__} on {torch.cuda.get_device_name()}; "
        f"median of {args.runs} runs after {args.warmup}; TFLOP/s = "
        "4 B H S^2 D / time, halved when causal")
    rows, lines = [], [HEADER]
    print(HEADER, flush=True)
    started = time.monotonic()
    for shape in shapes_of(args):
        if time.monotonic() - started > args.budget:
            lines.append(f"| {shape.label} | skipped: time budget |")
            print(lines[-1], flush=True)
            continue
        row = harness.measure(shape)
        torch.cuda.empty_cache()  # the shape's tensors are gone
        rows.append(row)
        lines.append(format_row(row))
        print(lines[-1], flush=True)
    (results / "attention.md").write_text("\n".join(lines) + "\n")
    keys = sorted({key for row in rows for key in row})
    with open(results / "attention.csv", "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=keys)
        writer.writeheader()
        writer.writerows(rows)
    wrong = [row["shape"] for row in rows
             if not all(row[f"{variant}_ok"] for variant in VARIANTS
                        if f"{variant}_ok" in row)]
    log(f"{len(rows)} shapes, {len(wrong)} wrong; results in {results}")
    return 1 if wrong else 0


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bh", default=DEFAULT_BH,
                        help="comma-separated BxH (default %(default)s)")
    parser.add_argument("--seqlens", default=DEFAULT_SEQLENS)
    parser.add_argument("--dims", default=DEFAULT_DIMS)
    parser.add_argument("--causal", default="both",
                        choices=["yes", "no", "both"])
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--warmup", type=int, default=5)
    parser.add_argument("--out", type=pathlib.Path,
                        default=ROOT / "build" / "bench-attention")
    parser.add_argument("--results", type=pathlib.Path, default=None)
    parser.add_argument("--translator", default="")
    parser.add_argument("--nvcc", default="")
    parser.add_argument("--no-run", action="store_true")
    parser.add_argument("--library", type=pathlib.Path, default=None,
                        help="run the kernels of this library (built "
                        "elsewhere, or edited) instead of translating and "
                        "building")
    parser.add_argument("--budget", type=float, default=500,
                        help="seconds of measurements; later shapes are "
                        "skipped (default %(default)s)")
    args = parser.parse_args()
    for shape in shapes_of(args):
        if shape.dim not in (64, 128) or shape.seqlen % 128:
            fail(f"{shape.label}: the kernels take D = 64 or 128 and S a "
                 "multiple of 128")
    out = args.out.resolve()
    if args.library:
        return run(args.library.resolve(), args, (args.results or out).resolve())
    translator = find_tool(args.translator, "exogpu-translate",
                           [str(ROOT / "build" / "bin" / "exogpu-translate")])
    if translator:
        translate(translator, out / "src")
    else:
        log("exogpu-translate not found: using the carried sources")
    nvcc = find_tool(args.nvcc, "nvcc", ["/usr/local/cuda/bin/nvcc"])
    if nvcc:
        library = build(nvcc, out)
    else:
        library = out / "libattention.so"
        if not library.exists():
            fail("no nvcc and no built library: build where nvcc is")
        log(f"nvcc not found: using {library}")
    if args.no_run:
        return 0
    return run(library, args, (args.results or out).resolve())


if __name__ == "__main__":
    sys.exit(main())
