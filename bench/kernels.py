#!/usr/bin/env python3
"""Builds and runs the kernel benchmark: the ExoGPU kernels of examples/
against cuBLAS on an H100 (issue 12; docs/performance.md has the method,
the kernels' design and the table).

Stages, each done when its tool is there:
  1. translate  examples/*.mlir -> OUT/src/*.cu, *.h with exogpu-translate
                (needs the ExoGPU build; skipped where it is missing, e.g. on
                the GPU machine, which then uses the sources carried in OUT);
  2. cutlass    nvcc the CUTLASS kernels of bench/cutlass/kernels.def (the
                second anchor) from the headers of the pinned PyPI package
                nvidia-cutlass, one object per kernel in OUT/cutlass, one
                at a time under nice (minutes each); a kernel whose stamp
                matches is not rebuilt, and where the package is missing
                (the GPU machine) the carried objects are used;
  3. build      nvcc (sm_90a, -Xptxas -v, warnings are errors) the kernels
                and bench/gemm_bench.cu, linked with cuBLAS and the CUTLASS
                objects, into OUT/gemm_bench; ptxas reports in
                OUT/obj/*.ptxas.txt; skipped when OUT/stamp says sources,
                flags and nvcc are unchanged;
  4. run        OUT/gemm_bench (the table goes to stdout, last; the CSV and
                the full log to RESULTS); without a GPU it says so and the
                script exits 0 after building;
  5. plot       RESULTS/performance.png from the CSV (bench/plot.py), where
                matplotlib is installed;
  6. dispatch   RESULTS/dispatch.json: the best variant per shape, the table
                of the one-kernel entry points (bench/dispatch.py).

One command on a machine with an H100, after building here (stage 1 needs
the ExoGPU build; `--no-run` stops after stage 3):
    python3 bench/kernels.py --all --results "$OUT"
with OUT (default build/bench) carried along (`--prebuilt` runs the
carried OUT/gemm_bench as it is, without the sources: bench/device-all.sh).
Subsets fit short leases:
    --only tf32,splitk,bf16,gemv,sm80   --shapes 8192x8192x8192   --runs 50

Usage: bench/kernels.py [--all | --only KINDS] [--shapes LABELS]
                        [--runs N] [--warmup N] [--out DIR] [--results DIR]
                        [--translator PATH] [--nvcc PATH] [--no-run]
                        [--cutlass all | none | NAMES] [--prebuilt]
                        [--timeout SECONDS]
"""

import argparse
import glob
import importlib.metadata
import os
import pathlib
import re
import subprocess
import sys
import threading

from toolchain import Script

ROOT = pathlib.Path(__file__).resolve().parent.parent
# The translation units gemm_bench.cu calls, by example file name. A unit is
# the example with what it imports (the instruction library; for the GEMM
# entry points, the variants they dispatch to: gemm_tf32's unit holds the
# split-k kernel too), one .cu and one .h.
KERNELS = [
    "gemm_tf32",
    "gemm_bf16",
    "sm90a_gemm",  # the paper's kernel (seeds/002 Sec. 6)
    "gemv_fast",
    "sm80_gemm",
]
KINDS = ["tf32", "splitk", "bf16", "gemv", "sm80"]
# Every object runs on the H100: the sm_80 kernel too (Hopper does not run
# sm_80 machine code; the kernel is built from the same CUDA for sm_90a).
ARCH = ["-gencode", "arch=compute_90a,code=sm_90a"]
KERNEL_FLAGS = ["-std=c++17", "-O3", *ARCH, "-Werror", "all-warnings",
                "-Xptxas", "-v"]
NO_GPU = 3  # gemm_bench's exit status when there is no usable GPU
# The second anchor: CUTLASS's Hopper GEMMs from this release's headers.
CUTLASS_DIR = ROOT / "bench" / "cutlass"
CUTLASS_PACKAGE, CUTLASS_VERSION = "nvidia-cutlass", "4.2.0.0"
CUTLASS_GEMM = re.compile(r"^CUTLASS_GEMM\((\w+), (\w+),.*\)$", re.M)
# NDEBUG: CUTLASS's device asserts are calls, across which ptxas serializes
# wgmma (C7510).
CUTLASS_FLAGS = ["-std=c++17", "-O3", "-DNDEBUG", *ARCH,
                 "--expt-relaxed-constexpr", "-Xptxas", "-v"]
# ptxas's warnings that a kernel's wgmmas are serialized.
SERIALIZED = re.compile(r"\(C75(10|17|19)\)")


SCRIPT = Script("kernels.py")
log, fail, find_tool = SCRIPT.log, SCRIPT.fail, SCRIPT.find_tool


def translate(translator, src):
    """Stage 1: every kernel's CUDA and header into src."""
    SCRIPT.translate(translator,
                     [ROOT / "examples" / f"{name}.mlir" for name in KERNELS],
                     src)
    log(f"translated {len(KERNELS)} units into {src}")


def cutlass_kernels():
    """(name, kind) of every kernel of bench/cutlass/kernels.def."""
    return CUTLASS_GEMM.findall((CUTLASS_DIR / "kernels.def").read_text())


def cutlass_headers():
    """The include directories of the pinned nvidia-cutlass, or None where
    it is not installed (an error if another version is)."""
    try:
        version = importlib.metadata.version(CUTLASS_PACKAGE)
        import cutlass_library
    except (importlib.metadata.PackageNotFoundError, ImportError):
        return None
    if version != CUTLASS_VERSION:
        fail(f"{CUTLASS_PACKAGE} {version} is installed; the benchmark is "
             f"pinned to {CUTLASS_VERSION} (pip install "
             f"{CUTLASS_PACKAGE}=={CUTLASS_VERSION})")
    source = pathlib.Path(cutlass_library.source_path)
    return [source / "include", source / "tools" / "util" / "include"]


def build_cutlass(nvcc, out, names):
    """Stage 2: one object per selected CUTLASS kernel (OUT/cutlass/NAME.o),
    each rebuilt only when its stamp changes; the objects' paths."""
    directory = out / "cutlass"
    directory.mkdir(parents=True, exist_ok=True)
    headers = cutlass_headers()
    objects = []
    for name in names:
        target = directory / f"{name}.o"
        stamp_file = directory / f"{name}.stamp"
        objects.append(target)
        if headers is None:
            if not (target.exists() and stamp_file.exists()):
                fail(f"{CUTLASS_PACKAGE} is not installed and {target} was "
                     f"not built (pip install "
                     f"{CUTLASS_PACKAGE}=={CUTLASS_VERSION}, or --cutlass "
                     "none)")
            continue
        flags = [*CUTLASS_FLAGS, f"-DEXOGPU_CUTLASS_KERNEL={name}"]
        stamp = SCRIPT.stamp(nvcc, [*flags, CUTLASS_PACKAGE, CUTLASS_VERSION],
                             [CUTLASS_DIR / "cutlass_gemm.cu",
                              CUTLASS_DIR / "cutlass_gemm.h",
                              CUTLASS_DIR / "kernels.def"], "")
        if SCRIPT.up_to_date(target, stamp_file, stamp):
            continue
        log(f"compiling the CUTLASS kernel {name} (minutes)")
        include = [f"-I{d}" for d in (*headers, CUTLASS_DIR)]
        command = ["nice", "-n", "10", nvcc, *flags, *include, "-c",
                   str(CUTLASS_DIR / "cutlass_gemm.cu"), "-o", str(target)]
        result = subprocess.run(command, capture_output=True, text=True)
        report = result.stdout + result.stderr
        (directory / f"{name}.ptxas.txt").write_text(report)
        if result.returncode != 0:
            fail(f"nvcc {name}:\n{report}")
        check_ptxas(name, report)
        if SERIALIZED.search(report):
            fail(f"{name}: ptxas serializes its wgmmas:\n{report}")
        stamp_file.write_text(stamp)
    if headers is None and objects:
        log(f"{CUTLASS_PACKAGE} is not installed: linking the carried "
            f"CUTLASS objects in {directory}")
    return objects


def check_ptxas(name, report):
    """Fails when a ptxas report has spills or a stack frame."""
    clean = "0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads"
    spills = [line for line in report.splitlines()
              if "bytes stack frame" in line and line.strip() != clean]
    if spills:
        fail(f"{name}: ptxas reports spills or a stack frame:\n{report}")


def stamp_of(nvcc, src, cutlass_objects):
    """A hash of what the build reads: sources, flags and the compiler."""
    inputs = [src / f"{name}{suffix}" for name in KERNELS
              for suffix in (".cu", ".h")]
    inputs += [ROOT / "bench" / "gemm_bench.cu",
               ROOT / "runtime" / "include" / "exogpu" / "runtime.cuh",
               CUTLASS_DIR / "cutlass_registry.cpp",
               CUTLASS_DIR / "cutlass_gemm.h", CUTLASS_DIR / "kernels.def",
               *cutlass_objects]
    return SCRIPT.stamp(nvcc, KERNEL_FLAGS, inputs,
                        "translate first (stage 1 needs "
                        f"build/bin/exogpu-translate, or carry {src.parent})")


def cuda_library_dirs(nvcc):
    """Directories that may hold libcublas.so (the toolkit's, the wheels')."""
    dirs = []
    home = pathlib.Path(nvcc).resolve().parent.parent
    for pattern in [str(home / "lib64"), str(home / "targets/*/lib"),
                    "/usr/local/cuda*/lib64", "/usr/local/cuda*/targets/*/lib"]:
        dirs += glob.glob(pattern)
    for site in sys.path:
        dirs += glob.glob(os.path.join(site, "nvidia", "*", "lib"))
        dirs += glob.glob(os.path.join(site, "nvidia", "cublas", "lib"))
    found = []
    for d in dirs:
        if glob.glob(os.path.join(d, "libcublas.so*")) and d not in found:
            found.append(d)
    return found


def build(nvcc, out, cutlass_objects):
    """Stage 3: compile the kernels and the program, link with cuBLAS and
    the CUTLASS objects."""
    src, obj = out / "src", out / "obj"
    obj.mkdir(parents=True, exist_ok=True)
    binary = out / "gemm_bench"
    stamp = stamp_of(nvcc, src, cutlass_objects)
    stamp_file = out / "stamp"
    if SCRIPT.up_to_date(binary, stamp_file, stamp):
        return binary
    include = ["-I", str(ROOT / "runtime" / "include"), "-I", str(src),
               "-I", str(CUTLASS_DIR)]
    objects = []
    jobs = []
    for name in KERNELS:
        target = obj / f"{name}.o"
        command = [nvcc, *KERNEL_FLAGS, *include, "-c", str(src / f"{name}.cu"),
                   "-o", str(target)]
        jobs.append((name, subprocess.Popen(command, stdout=subprocess.PIPE,
                                            stderr=subprocess.STDOUT,
                                            text=True)))
        objects.append(str(target))
    for name, job in jobs:
        report = job.communicate()[0]
        (obj / f"{name}.ptxas.txt").write_text(report)
        if job.returncode != 0:
            fail(f"nvcc {name}.cu:\n{report}")
        check_ptxas(name, report)
    for source in (ROOT / "bench" / "gemm_bench.cu",
                   CUTLASS_DIR / "cutlass_registry.cpp"):
        target = obj / f"{source.stem}.o"
        result = subprocess.run(
            [nvcc, "-std=c++17", "-O3", *ARCH, *include, "-Xcompiler",
             "-Wall,-Wextra", "-Werror", "all-warnings", "-c", str(source),
             "-o", str(target)], capture_output=True, text=True)
        if result.returncode != 0:
            fail(f"nvcc {source.name}:\n{result.stdout}{result.stderr}")
        objects.append(str(target))
    objects += [str(o) for o in cutlass_objects]
    rpath = [flag for d in cuda_library_dirs(nvcc)
             for flag in ("-Xlinker", f"-rpath={d}")]
    result = subprocess.run(
        [nvcc, *ARCH, *objects, "-lcublas", *rpath, "-o", str(binary)],
        capture_output=True, text=True)
    if result.returncode != 0:
        fail(f"linking gemm_bench:\n{result.stdout}{result.stderr}")
    stamp_file.write_text(stamp)
    log(f"built {binary} ({len(KERNELS)} units, {len(cutlass_objects)} "
        f"CUTLASS kernels, ptxas reports in {obj})")
    return binary


def run(binary, args, results, nvcc):
    """Stage 3: run the benchmark; returns its exit status."""
    results.mkdir(parents=True, exist_ok=True)
    csv = results / "results.csv"
    command = [str(binary), "--csv", str(csv)]
    if args.kinds:
        command += ["--only", ",".join(args.kinds)]
    if args.shapes:
        command += ["--shapes", args.shapes]
    if args.runs:
        command += ["--runs", str(args.runs)]
    if args.warmup is not None:
        command += ["--warmup", str(args.warmup)]
    env = dict(os.environ)
    dirs = cuda_library_dirs(nvcc) if nvcc else []
    if dirs:
        env["LD_LIBRARY_PATH"] = os.pathsep.join(
            dirs + [env.get("LD_LIBRARY_PATH", "")]).rstrip(os.pathsep)
    log("running " + " ".join(command))
    output = []
    process = subprocess.Popen(command, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True, env=env)
    # The limit holds while the program prints (the loop below waits for
    # its output to end).
    timer = threading.Timer(args.timeout, process.kill)
    timer.start()
    for line in process.stdout:
        print(line, end="", flush=True)
        output.append(line)
    status = process.wait()
    if not timer.is_alive():
        status = 124
        message = f"killed the benchmark after {args.timeout} s"
        log(message)
        output.append(f"\nkernels.py: {message}\n")
    timer.cancel()
    (results / "bench.log").write_text("".join(output))
    return status, csv


def plot(csv, results):
    """Stage 4: the PNG, where matplotlib is installed."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        log("matplotlib is not installed: no plot (run bench/plot.py "
            f"{csv} where it is)")
        return
    result = subprocess.run([sys.executable, str(ROOT / "bench" / "plot.py"),
                             str(csv), "-o", str(results / "performance.png")],
                            capture_output=True, text=True)
    if result.returncode != 0:
        log(f"plot failed:\n{result.stderr}")
    else:
        log(f"wrote {results / 'performance.png'}")


def dispatch_table(csv, results):
    """Stage 5: the dispatch table the run gives (bench/dispatch.py); copy it
    over bench/dispatch.json and run bench/dispatch.py to make the entry
    points run what this GPU ran fastest."""
    table = results / "dispatch.json"
    result = subprocess.run([sys.executable, str(ROOT / "bench" / "dispatch.py"),
                             "--from-results", str(csv), "-o", str(table)],
                            capture_output=True, text=True)
    if result.returncode != 0:
        log(f"dispatch table failed:\n{result.stderr}")
    else:
        log(f"wrote {table}")


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--all", action="store_true",
                        help="every kind of kernel (the default)")
    parser.add_argument("--only", default="",
                        help="comma-separated kinds: " + ", ".join(KINDS))
    parser.add_argument("--shapes", default="",
                        help="comma-separated shapes, e.g. 4096x4096x4096")
    parser.add_argument("--runs", type=int, default=0,
                        help="timed runs per kernel (default 100)")
    parser.add_argument("--warmup", type=int, default=None,
                        help="warm-up runs per kernel (default 10)")
    parser.add_argument("--out", default=str(ROOT / "build" / "bench"),
                        help="sources, objects and the program")
    parser.add_argument("--results", default="",
                        help="CSV, log and PNG (default: OUT)")
    parser.add_argument("--translator", default="",
                        help="exogpu-translate (default: build/bin)")
    parser.add_argument("--nvcc", default="", help="nvcc (default: PATH)")
    parser.add_argument("--no-run", action="store_true",
                        help="translate and build only")
    parser.add_argument("--cutlass", default="all",
                        help="the CUTLASS kernels to build and time: all, "
                        "none, or comma-separated names of "
                        "bench/cutlass/kernels.def")
    parser.add_argument("--prebuilt", action="store_true",
                        help="run OUT/gemm_bench as carried: no translation, "
                        "no build")
    parser.add_argument("--timeout", type=int, default=540,
                        help="seconds the benchmark may run")
    args = parser.parse_args()
    args.kinds = [k for k in args.only.split(",") if k]
    for kind in args.kinds:
        if kind not in KINDS:
            fail(f"unknown kind {kind}: one of {', '.join(KINDS)}")
    if args.all and args.kinds:
        fail("--all and --only exclude each other")
    known = [name for name, _ in cutlass_kernels()]
    if args.cutlass == "all":
        cutlass = known
    elif args.cutlass == "none":
        cutlass = []
    else:
        cutlass = [n for n in args.cutlass.split(",") if n]
        for name in cutlass:
            if name not in known:
                fail(f"unknown CUTLASS kernel {name}: one of "
                     f"{', '.join(known)}")

    out = pathlib.Path(args.out).resolve()
    results = pathlib.Path(args.results).resolve() if args.results else out
    nvcc = find_tool(args.nvcc, "nvcc", ["/usr/local/cuda/bin/nvcc"])
    binary = out / "gemm_bench"
    if args.prebuilt:
        if not binary.exists():
            fail(f"--prebuilt: {binary} was not built")
        log(f"running the prebuilt {binary}")
        return measure(binary, args, results, nvcc)
    translator = find_tool(args.translator, "exogpu-translate",
                           [str(ROOT / "build" / "bin" / "exogpu-translate")])
    if translator:
        translate(translator, out / "src")
    else:
        log("exogpu-translate not found: using the sources in "
            f"{out / 'src'}")
    if nvcc:
        binary = build(nvcc, out, build_cutlass(nvcc, out, cutlass))
    elif not binary.exists():
        fail(f"nvcc not found and {binary} not built")
    else:
        log(f"nvcc not found: running the carried {binary}")
    if args.no_run:
        return 0
    return measure(binary, args, results, nvcc)


def measure(binary, args, results, nvcc):
    """Stages 4-6: the run, the plot and the dispatch table; the run's exit
    status."""
    status, csv = run(binary, args, results, nvcc)
    if status == NO_GPU:
        log("no usable GPU here: the benchmark is built, nothing was timed")
        return 0
    if csv.exists():
        plot(csv, results)
        dispatch_table(csv, results)
        log(f"results: {csv}, {results / 'bench.log'}")
    return status


if __name__ == "__main__":
    sys.exit(main())
