#!/usr/bin/env python3
"""Builds the GPU validation bundle: everything issue 11 runs on a GPU
machine that has CUDA but no MLIR (docs/gpu-validation.md).

Here (with the ExoGPU build and nvcc) it translates every example kernel
and every seeded synchronization bug (utils/gpuval/cases.py), generates
their drivers (exogpu-run --emit-cuda-driver: inputs filled on the device
with the runner's pcg3d fill, a fresh seed per run, outputs poisoned, a
watchdog), computes the sequential meaning where it is small enough to
carry, compiles everything with nvcc, and writes the scripts that run it
all on the GPU machine:

  python3 utils/gpu-bundle.py --out .gpu-bundle          # here
  bash .gpu-bundle/run.sh validate sanitize              # there; then
  bash .gpu-bundle/run.sh bugs                           # results in $OUT

Options: --build DIR (the ExoGPU build, default build), --seed-base S (the
first seed; default from the clock, so every bundle draws fresh inputs),
--bug-runs N (runs per bug, default 100), --control-runs N (runs of the
correct kernel each bug is held against, default 20), --quick (the
smallest sizes only, few runs: the GPU lit tests), --only REGEX (the
examples and bugs whose names REGEX finds), --no-compile (skip nvcc), --print-bug NAME (print the buggy module and exit), --check-coverage
(fail if a proc of examples/*.mlir with a device function has no case),
--cache DIR (reuse a bundle built with the same options from the same
tools and sources: the lit tests that each need one share one build).
"""

import argparse
import contextlib
import fcntl
import hashlib
import io
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "utils"))
from gpuval import cases  # noqa: E402

# What travels with a device call (64 MiB with the working tree).
MAX_BUNDLE_MIB = 48
# Runs per size: each run draws fresh inputs (its own seed).
RUNS_PER_SIZE = 2
# A size checked against the meaning whose outputs take more bytes than
# this per run is run once: the bundle must travel.
MAX_CARRIED_RUN_BYTES = 2 << 20
HEADERS = ("fill.h", "npy.h", "runtime.cuh")
SCRIPTS = ("run.sh", "device.py", "compare.py")


def fail(message):
    sys.exit(f"gpu-bundle: error: {message}")


def run(args, **kwargs):
    result = subprocess.run([str(a) for a in args], capture_output=True,
                            text=True, **kwargs)
    if result.returncode:
        fail(f"{' '.join(map(str, args))} failed ({result.returncode}):\n"
             f"{result.stdout}{result.stderr}")
    return result.stdout


def proc_span(text, proc):
    """The [begin, end) of proc `proc`'s definition in module `text`: from
    `exogpu.proc @proc(` to the next proc or instruction."""
    start = re.search(rf"^exogpu\.proc @{proc}\(", text, re.M)
    if not start:
        return None
    end = re.compile(r"^exogpu\.(proc|instr) @", re.M).search(text, start.end())
    return start.start(), end.start() if end else len(text)


def module_text(program):
    """The module of `program`: its sources concatenated (only its proc's
    definition of them with `only_proc`), then derived (each text to replace
    occurs exactly once in the definition of the program's proc, so a module
    of several procs derives one of them)."""
    text = "".join((ROOT / source).read_text() for source in program.sources)
    if program.only_proc:
        kept = proc_span(text, program.proc)
        if kept is None:
            fail(f"{program.name}: no proc @{program.proc} in its sources")
        for match in reversed(list(re.finditer(r"^exogpu\.proc @(\w+)\(",
                                               text, re.M))):
            if match.group(1) != program.proc:
                begin, end = proc_span(text, match.group(1))
                text = text[:begin] + text[end:]
    for old, new in program.derive:
        span = proc_span(text, program.proc)
        if span is None:
            fail(f"{program.name}: no proc @{program.proc} in its sources")
        begin, end = span
        count = text.count(old, begin, end)
        if count != 1:
            fail(f"{program.name}: the text to replace occurs {count} times "
                 f"in @{program.proc} (expected once): {old!r}")
        at = text.index(old, begin, end)
        text = text[:at] + new + text[at + len(old):]
    return text


def import_flags(program):
    """-I the folders of `program`'s sources: the module is written
    elsewhere, and their relative imports start there."""
    folders = dict.fromkeys(str((ROOT / source).parent)
                            for source in program.sources)
    return [f"-I{folder}" for folder in folders]


def tree_bytes(path):
    """The bytes of the files under `path`."""
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def size_string(sizes):
    return ",".join(f"{k}={v}" for k, v in sizes.items())


def size_label(sizes):
    return "_".join(f"{k}{v}" for k, v in sizes.items())


def sum_length(spec, sizes):
    """The terms summed per output element: a number, a size name, or a
    product of them ("S*KC")."""
    length = 1
    for factor in spec.split("*"):
        length *= int(sizes[factor]) if factor in sizes else int(factor)
    return length


def header_params(header, proc):
    """The data parameters of `proc`'s host function, from its header:
    (name, C element type, written) in order; `const` ones are never
    written."""
    match = re.search(rf"cudaError_t {proc}\(cudaStream_t stream, ([^)]*)\);",
                      header)
    if not match:
        fail(f"no host function {proc} in the generated header")
    params = []
    for decl in match.group(1).split(", "):
        words = decl.replace("*", " * ").split()
        if "*" not in words:
            continue
        const = words[0] == "const"
        params.append((words[-1], words[1] if const else words[0], not const))
    return params


C_TYPES = {"float": "f32", "double": "f64", "__half": "f16",
           "__nv_bfloat16": "bf16", "int8_t": "i8", "uint8_t": "ui8",
           "uint16_t": "ui16", "int32_t": "i32"}


class Builder:
    def __init__(self, opts):
        self.opts = opts
        self.out = opts.out.resolve()
        self.run_tool = opts.build / "bin" / "exogpu-run"
        self.translate = opts.build / "bin" / "exogpu-translate"
        for tool in (self.run_tool, self.translate):
            if not tool.exists():
                fail(f"{tool} not found: build ExoGPU first")
        self.seed = opts.seed_base
        self.programs = {}

    def next_seeds(self, count):
        seeds = [(self.seed + i) % (1 << 32) for i in range(count)]
        self.seed = (self.seed + count) % (1 << 32)
        return seeds

    def add_program(self, program):
        """Translates `program` and writes its driver (once per name)."""
        if program.name in self.programs:
            return self.programs[program.name]
        src = self.out / "src" / program.name
        src.mkdir(parents=True)
        module = src / "module.mlir"
        module.write_text(module_text(program))
        flags = import_flags(program)
        run([self.translate, *flags, "--to-cuda", module, "-o",
             src / "kernel.cu"])
        run([self.translate, *flags, "--to-cuda-header", module, "-o",
             src / "kernel.h"])
        run([self.run_tool, *flags, module, f"--proc={program.proc}",
             f"--emit-cuda-driver={src / 'driver.cu'}",
             "--cuda-header=kernel.h"])
        edit = ""
        if program.cu_delete:
            lines = (src / "kernel.cu").read_text().split("\n")
            at = next((i for i, line in enumerate(lines)
                       if line.strip() == program.cu_delete), None)
            if at is None:
                fail(f"{program.name}: no line '{program.cu_delete}' in the "
                     "translated kernel")
            edit = (f"deleted line {at + 1} of kernel.cu "
                    f"'{program.cu_delete}' (after '{lines[at - 1].strip()}')")
            lines[at] = "    // (deleted by the bug study: " + \
                program.cu_delete + ")"
            (src / "kernel.cu").write_text("\n".join(lines))
        params = header_params((src / "kernel.h").read_text(), program.proc)
        info = {"name": program.name, "proc": program.proc,
                "arch": program.arch, "binary": f"bin/{program.name}",
                "cu_edit": edit,
                "params": [{"name": n, "precision": C_TYPES[t]}
                           for n, t, _ in params],
                "outputs": [{"name": n, "precision": C_TYPES[t]}
                            for n, t, written in params if written]}
        self.programs[program.name] = info
        return info

    def meaning(self, program, sizes, seed, case):
        """Runs the sequential meaning here: the expected outputs (carried)
        and the hashes of the inputs (the device fill must equal them)."""
        expected = self.out / "expected" / case / str(seed)
        inputs = self.out / "tmp-inputs"
        shutil.rmtree(inputs, ignore_errors=True)
        inputs.mkdir()
        module = self.out / "src" / program.name / "module.mlir"
        run([self.run_tool, *import_flags(program), module,
             f"--proc={program.proc}",
             f"--sizes={size_string(sizes)}", f"--seed={seed}",
             f"--write-inputs={inputs}", f"--output-dir={expected}",
             "--check-bounds=false"])
        hashes = {p.stem: hashlib.sha256(p.read_bytes()).hexdigest()
                  for p in sorted(inputs.glob("*.npy"))}
        shutil.rmtree(inputs)
        return str(expected.relative_to(self.out)), hashes

    def build(self):
        if self.out.exists():
            shutil.rmtree(self.out)
        (self.out / "include" / "exogpu").mkdir(parents=True)
        for header in HEADERS:
            shutil.copy(ROOT / "runtime" / "include" / "exogpu" / header,
                        self.out / "include" / "exogpu" / header)
        for script in SCRIPTS:
            shutil.copy(ROOT / "utils" / "gpuval" / script, self.out / script)
        quick = self.opts.quick
        validate, sanitize, bugs = [], [], []
        selected = re.compile(self.opts.only or "")
        for example in cases.EXAMPLES:
            if not selected.search(example.program.name):
                continue
            info = self.add_program(example.program)
            meaning = example.meaning[:1] if quick else example.meaning
            device = [] if quick else example.device
            for sizes, how in [(s, "meaning") for s in meaning] + \
                              [(s, "device") for s in device]:
                case = f"{example.program.name}.{size_label(sizes)}"
                entry = {"case": case, "program": info["name"],
                         "sizes": sizes, "check": how,
                         "math": (example.meaning_math or example.math)
                         if how == "meaning" else example.math,
                         "sum_length": sum_length(example.sum_length, sizes),
                         "reference": example.reference,
                         "seeds": self.next_seeds(1 if quick else
                                                  RUNS_PER_SIZE)}
                if how == "meaning":
                    entry["expected"], entry["input_hashes"] = {}, {}
                    for seed in entry["seeds"]:
                        print(f"gpu-bundle: meaning of {case} at seed {seed}",
                              flush=True)
                        path, hashes = self.meaning(example.program, sizes,
                                                    seed, case)
                        entry["expected"][str(seed)] = path
                        entry["input_hashes"][str(seed)] = hashes
                        if tree_bytes(self.out / path) > \
                                MAX_CARRIED_RUN_BYTES:
                            entry["seeds"] = [seed]
                            break
                validate.append(entry)
            sanitize.append({"case": f"{info['name']}.sanitize",
                             "program": info["name"],
                             "sizes": example.sanitize,
                             "seeds": self.next_seeds(1)})
        for bug in cases.BUGS:
            if not (selected.search(bug.name) or
                    selected.search(bug.program.name)):
                continue
            for role, program, runs in (
                    ("bug", bug.program, self.opts.bug_runs),
                    ("control", bug.control, self.opts.control_runs)):
                runs = 3 if quick else runs
                info = self.add_program(program)
                bugs.append({"case": f"{bug.name}.{role}", "bug": bug.name,
                             "title": bug.title, "role": role,
                             "program": info["name"], "sizes": bug.sizes,
                             "math": bug.math,
                             "sum_length": sum_length(bug.sum_length,
                                                      bug.sizes),
                             "reference": bug.reference, "how": bug.how,
                             "seeds": self.next_seeds(runs)})
        manifest = {"built": time.strftime("%Y-%m-%d %H:%M:%S"),
                    "commit": self.commit(), "programs": self.programs,
                    "validate": validate, "sanitize": sanitize, "bugs": bugs}
        (self.out / "cases.json").write_text(json.dumps(manifest, indent=1))
        self.write_build_script()
        if not self.opts.no_compile:
            print(f"gpu-bundle: compiling {len(self.programs)} drivers with "
                  "nvcc", flush=True)
            # Linked with the shared CUDA runtime (a tenth of the bytes):
            # run.sh finds it beside the GPU machine's nvcc, and rebuilds
            # statically a driver that does not start there.
            subprocess.run(["bash", str(self.out / "build.sh")],
                           check=True,
                           env=dict(os.environ, JOBS=str(self.opts.jobs),
                                    CUDART="shared"))
        total = tree_bytes(self.out)
        if total > MAX_BUNDLE_MIB << 20:
            fail(f"the bundle holds {total / 2**20:.1f} MiB, more than "
                 f"{MAX_BUNDLE_MIB} MiB: it would not travel")
        print(f"gpu-bundle: {len(self.programs)} programs, {len(validate)} "
              f"validation cases, {len(sanitize)} sanitizer cases, "
              f"{len(bugs)} bug-study cases; {total / 2**20:.1f} MiB in "
              f"{self.out}")

    def commit(self):
        result = subprocess.run(["git", "-C", str(ROOT), "rev-parse",
                                 "--short", "HEAD"], capture_output=True,
                                text=True)
        return result.stdout.strip() or "unknown"

    def write_build_script(self):
        """build.sh: bin/NAME from src/NAME/{kernel,driver}.cu with nvcc, for
        the kernel's arch (sm_90a needs -gencode: arch-specific PTX). A plain
        script, so that the GPU machine needs nothing beside nvcc."""
        arches = "\n".join(
            f"  {name}) arch=({arch_flags(info['arch'])}) ;;"
            for name, info in self.programs.items())
        (self.out / "build.sh").write_text(BUILD_SCRIPT.format(
            names=" ".join(self.programs), arches=arches))


def arch_flags(arch):
    """nvcc's target flags for `arch`."""
    if arch.endswith("a"):
        return f"-gencode arch=compute_{arch[3:]},code={arch}"
    return f"-arch={arch}"


BUILD_SCRIPT = """#!/usr/bin/env bash
# Generated by utils/gpu-bundle.py: builds the bundle's drivers with nvcc.
#   bash build.sh            every driver, JOBS at a time (default: the cores)
#   bash build.sh NAME...    the drivers named
# bin/NAME is src/NAME/kernel.cu and driver.cu; NVCC overrides the compiler,
# CUDART (static, the default, or shared) the CUDA runtime linked.
set -uo pipefail
cd "$(dirname "$0")"
(($#)) || set -- {names}
if (($# > 1)); then
  printf '%s\\n' "$@" | xargs -P "${{JOBS:-$(nproc)}}" -n 1 bash "$0"
  exit
fi
case $1 in
{arches}
  *) echo "build.sh: no program '$1'" >&2; exit 1 ;;
esac
mkdir -p bin
echo "build.sh: bin/$1"
# No contraction in host code either (docs/cuda-translation.md "Arithmetic").
exec "${{NVCC:-nvcc}}" -std=c++17 -O3 -Xcompiler -ffp-contract=off -Iinclude \\
  -lineinfo "${{arch[@]}}" \\
  -cudart "${{CUDART:-static}}" -Isrc/"$1" src/"$1"/kernel.cu \\
  src/"$1"/driver.cu -o bin/"$1"
"""


def check_coverage():
    """Every proc of examples/*.mlir that launches a kernel has a case."""
    known = {e.program.proc for e in cases.EXAMPLES}
    missing = []
    for path in sorted((ROOT / "examples").glob("*.mlir")):
        text = path.read_text()
        for match in re.finditer(r"^exogpu\.proc @(\w+)\(", text, re.M):
            end = text.find("\nexogpu.proc @", match.end())
            body = text[match.end():end if end >= 0 else len(text)]
            if "exogpu.device_function" in body and \
                    match.group(1) not in known:
                missing.append(f"{path.relative_to(ROOT)}: @{match.group(1)}")
    if missing:
        print("gpu-bundle: examples without a GPU validation case in "
              "utils/gpuval/cases.py:\n  " + "\n  ".join(missing))
        return 1
    print(f"gpu-bundle: every example kernel has a case ({len(known)})")
    return 0


# What a bundle is made from, besides the tools of the build.
BUNDLE_SOURCES = ("examples", "stdlib", "runtime", "utils", "python")
# Bundles a cache keeps (the newest).
CACHED_BUNDLES = 4


def bundle_key(opts):
    """A digest of everything a bundle is built from: the options (but the
    output folder), the tools of the build and the source folders."""
    digest = hashlib.sha256()
    options = {k: str(v) for k, v in vars(opts).items()
               if k not in ("out", "cache", "build", "jobs")}
    digest.update(json.dumps(options, sort_keys=True).encode())
    for tool in ("exogpu-opt", "exogpu-translate", "exogpu-run"):
        digest.update((opts.build / "bin" / tool).read_bytes())
    for folder in BUNDLE_SOURCES:
        for path in sorted((ROOT / folder).rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                digest.update(str(path.relative_to(ROOT)).encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()[:24]


def build_cached(opts):
    """Builds the bundle into opts.out through the cache opts.cache: a
    bundle of the same key is copied (and its build's output printed, with
    its folder renamed) instead of built again. Concurrent builds of one
    key wait for the first."""
    opts.cache.mkdir(parents=True, exist_ok=True)
    key = bundle_key(opts)
    entry = opts.cache / key
    with open(opts.cache / f"{key}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (entry / "stdout.txt").exists():
            captured = io.StringIO()
            with contextlib.redirect_stdout(captured):
                Builder(opts).build()
            shutil.rmtree(entry, ignore_errors=True)
            shutil.copytree(opts.out, entry / "bundle", symlinks=True)
            (entry / "stdout.txt").write_text(
                captured.getvalue().replace(str(opts.out), "{OUT}"))
        else:
            if opts.out.exists():
                shutil.rmtree(opts.out)
            shutil.copytree(entry / "bundle", opts.out, symlinks=True)
    sys.stdout.write((entry / "stdout.txt").read_text().replace(
        "{OUT}", str(opts.out)))
    entries = sorted((p for p in opts.cache.iterdir() if p.is_dir()),
                     key=lambda p: p.stat().st_mtime, reverse=True)
    for old in entries[CACHED_BUNDLES:]:
        shutil.rmtree(old, ignore_errors=True)
        (opts.cache / f"{old.name}.lock").unlink(missing_ok=True)
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=pathlib.Path,
                        default=ROOT / ".gpu-bundle")
    parser.add_argument("--build", type=pathlib.Path, default=ROOT / "build")
    parser.add_argument("--seed-base", type=int,
                        default=int(time.time()) % (1 << 32))
    parser.add_argument("--bug-runs", type=int, default=100)
    parser.add_argument("--control-runs", type=int, default=20)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--no-compile", action="store_true")
    parser.add_argument("--only", metavar="REGEX", default="",
                        help="the examples whose program, and the bugs "
                        "whose name or program, REGEX finds (a smaller "
                        "bundle, e.g. --only attention)")
    parser.add_argument("--print-bug", metavar="NAME")
    parser.add_argument("--check-coverage", action="store_true")
    parser.add_argument("--cache", type=pathlib.Path,
                        help="reuse a bundle built with the same options "
                        "from the same tools and sources (lit tests)")
    opts = parser.parse_args()
    if opts.check_coverage:
        return check_coverage()
    if opts.print_bug:
        bug = next((b for b in cases.BUGS if b.name == opts.print_bug), None)
        if bug is None:
            fail(f"no bug '{opts.print_bug}'; bugs: "
                 + ", ".join(b.name for b in cases.BUGS))
        sys.stdout.write(module_text(bug.program))
        return 0
    if opts.cache:
        return build_cached(opts)
    Builder(opts).build()
    return 0


if __name__ == "__main__":
    sys.exit(main())
