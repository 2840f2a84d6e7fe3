#!/usr/bin/env python3
"""Runs one proc on a GPU and holds its outputs against its sequential meaning.

The round trip of docs/running.md ("A kernel on a GPU against its meaning"):
  1. exogpu-run writes the inputs (pcg3d fill, --seed) as IN/NAME.npy;
  2. exogpu-translate --to-cuda / --to-cuda-header emit the kernel and its
     host API header (or --kernel-cu / --kernel-header give them);
  3. exogpu-run --emit-cuda-driver writes the driver, nvcc builds both;
  4. the driver runs under a timeout (a hung kernel is reported, not waited
     for) and writes OUT/NAME.npy, write-only outputs poisoned beforehand;
  5. exogpu-run --input-dir IN --expect-dir OUT compares every output with
     the meaning, at the tolerance of --math (tf32 for tensor-core GEMMs).
Without nvcc or a CUDA GPU it prints "SKIPPED: ..." and exits 0.

Usage: utils/gpu-check.py [--build build] --proc NAME --sizes M=..,N=..
                          [--math tf32] [--seed 1] [--arch sm_90a]
                          [--timeout 60] [--work DIR]
                          [--kernel-cu F.cu --kernel-header F.h]
                          kernel.mlir
The tools resolve the kernel's imports (its instruction library).
"""

import argparse
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent


def find_nvcc():
    return shutil.which("nvcc") or (
        "/usr/local/cuda/bin/nvcc"
        if os.path.exists("/usr/local/cuda/bin/nvcc") else None)


def has_gpu():
    smi = shutil.which("nvidia-smi")
    return smi is not None and subprocess.run(
        [smi, "-L"], stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL).returncode == 0


def arch_flags(arch):
    """nvcc flags for `arch`: sm_90a needs -gencode (arch-specific PTX)."""
    if arch.endswith("a"):
        number = arch[len("sm_"):]
        return ["-gencode", f"arch=compute_{number},code={arch}"]
    return [f"-arch={arch}"]


def step(what, args, timeout=None):
    """Runs one step; exits with its output on failure."""
    print(f"gpu-check: {what}: {' '.join(map(str, args))}", flush=True)
    try:
        result = subprocess.run(args, timeout=timeout)
    except subprocess.TimeoutExpired:
        sys.exit(f"gpu-check: TIMEOUT: {what} did not finish in {timeout} s")
    return result.returncode


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("kernel", type=pathlib.Path)
    parser.add_argument("--build", type=pathlib.Path, default=ROOT / "build")
    parser.add_argument("--proc", required=True)
    parser.add_argument("--sizes", required=True)
    parser.add_argument("--math", default="")
    parser.add_argument("--seed", default="1")
    parser.add_argument("--arch", default="sm_90a")
    parser.add_argument("--timeout", type=int, default=60,
                        help="seconds the kernel may run")
    parser.add_argument("--work", type=pathlib.Path,
                        help="keep the files here (default: a temporary "
                             "folder)")
    parser.add_argument("--kernel-cu", type=pathlib.Path,
                        help="use this CUDA file instead of translating")
    parser.add_argument("--kernel-header", type=pathlib.Path)
    opts = parser.parse_args()

    nvcc = find_nvcc()
    if nvcc is None:
        print("gpu-check: SKIPPED: no nvcc")
        return 0
    if not has_gpu():
        print("gpu-check: SKIPPED: no CUDA GPU (nvidia-smi -L fails)")
        return 0
    run = opts.build / "bin" / "exogpu-run"
    translate = opts.build / "bin" / "exogpu-translate"
    if not run.exists():
        sys.exit(f"gpu-check: {run} not found: build first")
    if opts.kernel_cu is None and not translate.exists():
        sys.exit(f"gpu-check: {translate} not found: build it, or give "
                 "--kernel-cu and --kernel-header")

    with tempfile.TemporaryDirectory() as tmp:
        work = opts.work or pathlib.Path(tmp)
        for folder in ("in", "out"):
            (work / folder).mkdir(parents=True, exist_ok=True)
        module = opts.kernel
        common = [str(run), str(module), f"--proc={opts.proc}"]

        if step("inputs", common + [f"--sizes={opts.sizes}",
                                    f"--seed={opts.seed}",
                                    f"--write-inputs={work / 'in'}"]):
            return 1
        kernel, header = opts.kernel_cu, opts.kernel_header
        if kernel is None:
            kernel, header = work / "kernel.cu", work / "kernel.h"
            if step("translate", [str(translate), "--to-cuda", str(module),
                                  "-o", str(kernel)]) or \
               step("header", [str(translate), "--to-cuda-header",
                               str(module), "-o", str(header)]):
                return 1
        driver = work / "driver.cu"
        if step("driver", common + [f"--emit-cuda-driver={driver}",
                                    f"--cuda-header={header.resolve()}"]):
            return 1
        binary = work / "run"
        if step("nvcc", [nvcc, "-std=c++17", "-O3", "-Xcompiler",
                         "-ffp-contract=off",
                         f"-I{ROOT / 'runtime' / 'include'}"] +
                arch_flags(opts.arch) +
                [str(kernel), str(driver), "-o", str(binary)]):
            return 1
        # The driver times out by itself; timeout(1) backs it up in case the
        # process cannot even return (a kernel that never yields).
        code = step("run", ["timeout", "-s", "KILL",
                            str(opts.timeout + 30), str(binary),
                            "--sizes", opts.sizes,
                            "--inputs", str(work / "in"),
                            "--outputs", str(work / "out"),
                            "--timeout-ms", str(opts.timeout * 1000)])
        if code == 77:
            print("gpu-check: SKIPPED: the driver found no CUDA device")
            return 0
        if code in (124, 137, -9):
            print(f"gpu-check: TIMEOUT: @{opts.proc} did not finish in "
                  f"{opts.timeout} s")
            return 1
        if code:
            print(f"gpu-check: FAILED: the driver exited with {code}")
            return 1
        compare = common + [f"--sizes={opts.sizes}",
                            f"--input-dir={work / 'in'}",
                            f"--expect-dir={work / 'out'}"]
        if opts.math:
            compare.append(f"--math={opts.math}")
        if step("compare", compare):
            print(f"gpu-check: FAILED: @{opts.proc} at {opts.sizes} differs "
                  "from its sequential meaning")
            return 1
    print(f"gpu-check: PASSED: @{opts.proc} at {opts.sizes} equals its "
          "sequential meaning")
    return 0


if __name__ == "__main__":
    sys.exit(main())
