#!/usr/bin/env python3
"""Times the synchronization check (exogpu-opt --exogpu-sync-check) at the
sizes users deploy and prints seconds and peak memory per point, next to the
targets of issues 15 and 21 (on the 2-core development machine):

  sm80     examples/sm80_gemm.mlir (cp.async, per-thread commit groups)
           M = N = K = 2048 <= 1 s, 4096 <= 5 s, peak memory <= 1 GiB
  sm90a    examples/sm90a_gemm.mlir (the Hopper GEMM: TMA ring, wgmma,
           warp specialization, B multicast across a 2-CTA cluster)
           M = N = K = 4096 <= 1.3 s, 8192 <= 4 s
  vadd     examples/vector_add.mlir, N = 2^20 (8192 tasks) <= 1 s
  gemv     examples/gemv.mlir (paper Fig. 9), M = N = 16384 <= 1 s
  splitk   examples/gemm_splitk_sm90a.mlir (tasks that add their partial
           tiles into C with TMA reduce-adds), at its benchmark sizes
           M = N = 1024, S = 4, KC = 16384 <= 1 s and
           M = N = 2048, S = 4, KC = 2048 <= 1 s (12 s and 24 s before
           issue 21)
  tile-sm80  bench/kernels/sm80_tile_commit_groups.mlir: one 64 x 64 tile
           whose threads commit their own cp.async groups, K = 256 (no
           target; 185 s and 545 MB before issue 15)
  attention  examples/attention_fwd_sm90a.mlir (issue 25, no target):
           @attention_fwd_d128 at the benchmark's largest size, BH = 256,
           S = 16384 (task replay), and @attention_fwd_d128_causal at
           BH = 256, S = 4096 (its tasks differ in length: the first task
           of each query block runs, the others replay it)

Two times per point: "check", the wall time of the exogpu-sync-check pass
from MLIR's pass timing (what the targets measure), and "process", the whole
exogpu-opt run (process start, parsing the kernel and its instruction
library, printing). Each run is its own process, so its peak resident memory
(RSS, os.wait4) is its own; each point runs --repeat times and the medians
(and the largest peak) are printed. A point that runs past --timeout is
reported as such.

Usage: bench/sync_check.py [--build build] [--points sm80-2048,gemv-16384]
                           [--engine box|reference] [--timeout 300]
                           [--repeat 3]
"""

import argparse
import os
import pathlib
import re
import signal
import statistics
import subprocess
import sys
import threading
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
# name: kernel (it imports its instruction library)
KERNELS = {
    "sm80": "examples/sm80_gemm.mlir",
    "sm90a": "examples/sm90a_gemm.mlir",
    "vadd": "examples/vector_add.mlir",
    "gemv": "examples/gemv.mlir",
    "splitk": "examples/gemm_splitk_sm90a.mlir",
    "tile-sm80": "bench/kernels/sm80_tile_commit_groups.mlir",
    "attention": "examples/attention_fwd_sm90a.mlir",
}
GiB = 1024.0
# (kernel, size label, check parameters, target seconds, target peak MiB)
POINTS = [
    ("sm80", "2048", "M=2048,N=2048,K=2048", 1.0, GiB),
    ("sm80", "4096", "M=4096,N=4096,K=4096", 5.0, GiB),
    ("sm90a", "4096", "M=4096,N=4096,K=4096", 1.3, None),
    ("sm90a", "8192", "M=8192,N=8192,K=8192", 4.0, None),
    ("vadd", "2^20", "N=1048576", 1.0, None),
    ("gemv", "16384", "M=16384,N=16384", 1.0, None),
    ("splitk", "1024", "M=1024,N=1024,S=4,KC=16384", 1.0, None),
    ("splitk", "2048", "M=2048,N=2048,S=4,KC=2048", 1.0, None),
    ("tile-sm80", "K=256", "K=256", None, None),
    ("attention", "d128-256x16384", "proc=attention_fwd_d128,BH=256,S=16384",
     None, None),
    ("attention", "d128-causal-256x4096",
     "proc=attention_fwd_d128_causal,BH=256,S=4096", None, None),
]


def run_one(tool, source, params, engine, timeout):
    """One process: (check seconds, process seconds, peak MiB, verdict), or
    Nones and "timeout"."""
    args = [str(tool), f"--exogpu-sync-check={params},engine={engine}",
            str(source), "-o", os.devnull,
            "--mlir-timing", "--mlir-timing-display=list"]
    start = time.monotonic()
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, start_new_session=True)
    # Wait blocking (no polling delay in the figure), drain stderr on the
    # side, and let a timer kill the run at the timeout.
    stderr = []
    reader = threading.Thread(target=lambda: stderr.append(proc.stderr.read()))
    reader.start()
    timer = threading.Timer(timeout, os.killpg, (proc.pid, signal.SIGKILL))
    timer.start()
    _, status, usage = os.wait4(proc.pid, 0)
    seconds = time.monotonic() - start
    timer.cancel()
    reader.join()
    if seconds >= timeout:
        return None, None, None, "timeout"
    text = stderr[0].decode()
    # MLIR's pass timing: the wall time of the check pass alone.
    match = re.search(r"^\s*([0-9.]+) \(\s*[0-9.]+%\)\s+ExoGPUSyncCheck$",
                      text, re.MULTILINE)
    check = float(match.group(1)) if match else float("nan")
    peak_mib = usage.ru_maxrss / 1024.0
    code = os.waitstatus_to_exitcode(status)
    verdict = "passes" if code == 0 else \
        f"REJECTED ({text.strip().splitlines()[0]})"
    return check, seconds, peak_mib, verdict


def point_name(point):
    return f"{point[0]}-{point[1]}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default=str(ROOT / "build"))
    parser.add_argument("--points", default=",".join(map(point_name, POINTS)),
                        help="comma-separated kernel-size names")
    parser.add_argument("--engine", default="box",
                        choices=["box", "reference"])
    parser.add_argument("--timeout", type=float, default=300.0)
    parser.add_argument("--repeat", type=int, default=3,
                        help="runs per point; the median is printed")
    opts = parser.parse_args()
    tool = pathlib.Path(opts.build) / "bin" / "exogpu-opt"
    if not tool.exists():
        sys.exit(f"{tool} not found: build first (bash scripts/build.sh)")
    wanted = opts.points.split(",")
    unknown = set(wanted) - set(map(point_name, POINTS))
    if unknown:
        sys.exit(f"unknown points: {', '.join(sorted(unknown))}")
    print(f"sync check, engine={opts.engine}, one process per run, median "
          f"of {opts.repeat}, timeout {opts.timeout:.0f} s")
    print("check: the exogpu-sync-check pass (--mlir-timing); process: the "
          "whole exogpu-opt run (start, parse, print); peak: largest RSS")
    print(f"{'kernel':10} {'size':>18} {'check s':>9} {'process s':>10} "
          f"{'peak MiB':>9}  {'verdict':8} {'target':16} met")
    missed = 0
    for point in POINTS:
        if point_name(point) not in wanted:
            continue
        kernel, label, params, seconds, mib_limit = point
        source = ROOT / KERNELS[kernel]
        target = []
        if seconds is not None:
            target.append(f"<= {seconds:g} s")
        if mib_limit is not None:
            target.append(f"<= {mib_limit / GiB:g} GiB")
        target = ", ".join(target) or "-"
        runs = []
        for _ in range(opts.repeat):
            run = run_one(tool, source, params, opts.engine, opts.timeout)
            if run[0] is None:
                break
            runs.append(run)
        if len(runs) < opts.repeat:
            missed += seconds is not None
            print(f"{kernel:10} {label:>18} "
                  f"{'>' + format(opts.timeout, '.0f'):>9} "
                  f"{'-':>10} {'-':>9}  {'timeout':8} {target:16} no",
                  flush=True)
            continue
        check = statistics.median(r[0] for r in runs)
        process = statistics.median(r[1] for r in runs)
        mib = max(r[2] for r in runs)
        met = "-"
        if target != "-":
            ok = (seconds is None or check <= seconds) and \
                (mib_limit is None or mib <= mib_limit) and \
                runs[0][3] == "passes"
            met = "yes" if ok else "no"
            missed += not ok
        print(f"{kernel:10} {label:>18} {check:>9.3f} {process:>10.3f} "
              f"{mib:>9.1f}  {runs[0][3]:8} {target:16} {met}",
              flush=True)
    sys.exit(1 if missed else 0)


if __name__ == "__main__":
    main()
