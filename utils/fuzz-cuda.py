#!/usr/bin/env python3
"""Differential fuzzer: the emitted CUDA against the sequential meaning (issue 35).

Generates random procs over every data precision (f16, bf16, f32, f64, i8,
ui8, ui16, i32) and every data operator: expressions of +, -, *, /, unary
minus, max, exp2 and log2 (floats), literals, conversions at writes into
buffers of another precision, reductions (+=), sequential loops whose bounds,
indices and guards use control `/` and `mod` (negative dividends too),
windows (rows of a 2-D buffer, taken directly or through exogpu.split of its
rows into pairs), and constant and size-dependent extents.

Each batch of procs is one module. The meaning runs on exogpu-run (MLIR's
JIT) at a random size and fill seed, writing its inputs and outputs; the
module is translated by exogpu-translate --to-cuda, compiled with nvcc
(host compiler without contraction: -Xcompiler -ffp-contract=off) together
with a generated main that feeds every proc the same inputs, and run:

  * --scope=cpu     the procs are CPU-scope (DRAM buffers): their host
                    functions run on this machine's CPU;
  * --scope=device  the same statements run in one thread of a kernel
                    (CudaGmemLinear buffers): needs a CUDA device.

The outputs must agree bit for bit (docs/running.md "Arithmetic"), every NaN
counting as equal to every NaN (their signs and payloads are unspecified).
On the device, exp2 and log2 are CUDA's (exp2f within 2 ulp, log2f within
1 ulp): an output computed from them may differ within the relative
tolerance --device-rtol (held to magnitude 1 near 0; one unit for integers). A disagreement, a proc one side refuses and the
other runs, or a compile failure is written to --out.

Usage: utils/fuzz-cuda.py [--build build] [--seconds 120] [--seed N]
                          [--scope cpu|device] [--procs 8]
                          [--out fuzz-cuda-findings] [--progress]
Exit status 1 on a finding.
"""

import argparse
import pathlib
import random
import shutil
import struct
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
NVCC = shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc"

# precision: (C++ type, bytes, is float, struct format of the bits)
PRECISIONS = {
    "f16": ("__half", 2, True, "H"),
    "bf16": ("__nv_bfloat16", 2, True, "H"),
    "f32": ("float", 4, True, "I"),
    "f64": ("double", 8, True, "Q"),
    "i8": ("int8_t", 1, False, "b"),
    "ui8": ("uint8_t", 1, False, "B"),
    "ui16": ("uint16_t", 2, False, "H"),
    "i32": ("int32_t", 4, False, "i"),
}
INT_RANGES = {"i8": (-128, 127), "ui8": (0, 255), "ui16": (0, 65535),
              "i32": (-2**31, 2**31 - 1)}
FLOAT_LITERALS = ["0.0", "0.5", "1.5", "2.0", "3.0", "0.1", "1.0e-3",
                  "100.0", "1.000244140625", "65504.0", "1.0e30"]
CONDITIONS = ["%i mod 3 == 1", "(%i - 5) mod 3 == 0", "(%i - 3) / 2 >= 1",
              "%i < %N / 2", "%i >= 2 and %i < %N - 1", "%i / 4 == 1",
              "(%i - 7) / 3 < -1 or %i == %N - 1"]


class Buffer:
    def __init__(self, name, precision, shape):
        self.name, self.precision, self.shape = name, precision, shape

    def type(self, memory, window=False):
        """The buffer's type in a statement (`?` for the size)."""
        if window:
            return f"window {self.precision}[?] @{memory}"
        extents = {"N": "?", "MN": "4, ?", "C": "8"}[self.shape]
        return f"{self.precision}[{extents}] @{memory}"

    def param(self, memory):
        extents = {"N": "%N", "MN": "4, %N", "C": "8"}[self.shape]
        return f"%{self.name}: {self.precision}[{extents}] @{memory}"

    def count(self, n):
        return {"N": n, "MN": 4 * n, "C": 8}[self.shape]


class ProcGenerator:
    """One random proc: its parameters and statements."""

    def __init__(self, rng, name, memory):
        self.rng, self.name, self.memory = rng, name, memory
        self.buffers = [
            Buffer(f"b{k}", rng.choice(list(PRECISIONS)),
                   rng.choice(["N", "N", "MN", "C"]))
            for k in range(rng.randint(2, 5))]
        self.lines = []
        self.transcendental = set()  # buffers a statement with exp2/log2 wrote
        self.windows = 0
        self.splits = 0  # windows taken through exogpu.split

    # Indices that are in bounds for N >= 4 (the proc requires it).
    def index(self, buffer, loops, window_row=None):
        rng = self.rng
        i = "%i" in loops
        if buffer.shape == "C":
            return rng.choice(["%i mod 8", "(%i + 3) mod 8", "%i / 4 mod 8"]
                              if i else ["0", "3", "7"])
        column = (rng.choice(["%i", "%N - 1 - %i", "%i / 2", "(%i + 1) / 2",
                              "%i mod 4", "(%i - 6) mod 4"])
                  if i else rng.choice(["0", "1", "%N - 1", "%N / 2"]))
        if buffer.shape == "N" or window_row is not None:
            return column
        row = "%j" if "%j" in loops else rng.choice(["0", "3", "%N mod 4"])
        return f"{row}, {column}"

    def literal(self, precision):
        rng = self.rng
        if PRECISIONS[precision][2]:
            text = rng.choice(FLOAT_LITERALS)
            return f"-{text}" if rng.random() < 0.3 else text
        lo, hi = INT_RANGES[precision]
        value = rng.choice([0, 1, 2, 3, 7, -1, -2, lo, hi, rng.randint(lo, hi)])
        if precision == "i32" and rng.random() < 0.05:
            value = 2147483648  # INT32_MIN as an i32 literal
        if lo == 0:
            value = abs(value) % (hi + 1)
        return str(value)

    def expression(self, precision, loops, depth, reads, window):
        """A data expression of `precision`; `reads` collects the buffers
        (and the window) named."""
        rng = self.rng
        candidates = [b for b in self.buffers if b.precision == precision]
        is_float = PRECISIONS[precision][2]
        if depth == 0 or rng.random() < 0.3:
            if window and window[0].precision == precision and \
                    rng.random() < 0.4:
                reads.append(("window", window[0]))
                return f"%row[{self.index(window[0], loops, window_row=True)}]"
            if candidates and rng.random() < 0.75:
                buffer = rng.choice(candidates)
                reads.append(("buffer", buffer))
                return f"%{buffer.name}[{self.index(buffer, loops)}]"
            return self.literal(precision)
        operators = ["+", "-", "*", "/", "neg", "max"]
        if is_float:
            operators += ["exp2", "log2"]
        op = rng.choice(operators)
        sub = lambda: self.expression(precision, loops, depth - 1, reads,
                                      window)
        if op == "neg":
            return f"-({sub()})"
        if op == "max":
            return f"max({sub()}, {sub()})"
        if op in ("exp2", "log2"):
            reads.append(("transcendental", None))
            return f"{op}({sub()})"
        return f"({sub()} {op} {sub()})"

    def statement(self, loops, indent, window):
        rng = self.rng
        pad = "  " * indent
        if window and rng.random() < 0.5:
            dest, dest_text, dest_type = (
                window[0], f"%row[{self.index(window[0], loops, True)}]",
                window[0].type(self.memory, window=True))
        else:
            dest = rng.choice(self.buffers)
            dest_text = f"%{dest.name}[{self.index(dest, loops)}]"
            dest_type = dest.type(self.memory)
        # The expression's precision: one of a buffer read, or the
        # destination's (conversions at the write otherwise).
        precision = rng.choice([b.precision for b in self.buffers] +
                               [dest.precision])
        reads = []
        depth = rng.randint(0, 3)
        expr = self.expression(precision, loops, depth, reads, window)
        if all(kind == "transcendental" for kind, _ in reads):
            # Literals alone take the destination's precision.
            reads = []
            expr = self.expression(dest.precision, loops, depth, reads,
                                   window)
        types = [dest_type]
        named = [("window" if dest_text.startswith("%row") else "buffer",
                  dest)]
        for kind, buffer in reads:
            if kind == "transcendental" or (kind, buffer) in named:
                continue
            named.append((kind, buffer))
            types.append(buffer.type(self.memory, window=kind == "window"))
        # exp2/log2 and what is computed from them may differ on the device.
        if any(kind == "transcendental" or
               (buffer and buffer.name in self.transcendental)
               for kind, buffer in reads):
            self.transcendental.add(dest.name)
        op = "+=" if rng.random() < 0.3 else "="
        verb = "reduce" if op == "+=" else "assign"
        self.lines.append(f"{pad}exogpu.{verb} {dest_text} {op} {expr} : "
                          f"{', '.join(types)}")

    def block(self, indent):
        """A few statements, in a loop nest, guarded or not."""
        rng = self.rng
        pad = "  " * indent
        shape = rng.choice(["none", "i", "i", "ji", "half"])
        loops, closes = [], 0
        window = None
        if shape in ("ji",):
            self.lines.append(f"{pad}exogpu.for %j in seq(0, 4) {{")
            loops.append("%j")
            indent, closes = indent + 1, closes + 1
            pad = "  " * indent
            rows = [b for b in self.buffers if b.shape == "MN"]
            if rows and rng.random() < 0.7:
                window = (rng.choice(rows),)
                self.windows += 1
                if rng.random() < 0.5:
                    self.lines.append(
                        f"{pad}%row = exogpu.window %{window[0].name}[%j, :]"
                        f" : {window[0].type(self.memory)}")
                else:
                    # Row %j through a split of the 4 rows into 2 pairs.
                    self.splits += 1
                    self.lines.append(
                        f"{pad}%pairs = exogpu.split %{window[0].name} dim 0 "
                        f"by 2 : {window[0].type(self.memory)}")
                    self.lines.append(
                        f"{pad}%row = exogpu.window %pairs[%j / 2, %j mod 2,"
                        f" :] : window {window[0].precision}[2, 2, ?] "
                        f"@{self.memory}")
        if shape in ("i", "ji", "half"):
            bounds = {"half": rng.choice(["1, %N / 2", "%N / 4, %N - 1"]),
                      }.get(shape, "0, %N")
            self.lines.append(f"{pad}exogpu.for %i in seq({bounds}) {{")
            loops.append("%i")
            indent, closes = indent + 1, closes + 1
            pad = "  " * indent
            if rng.random() < 0.4:
                self.lines.append(
                    f"{pad}exogpu.if {rng.choice(CONDITIONS)} {{")
                indent, closes = indent + 1, closes + 1
        for _ in range(rng.randint(1, 3)):
            self.statement(loops, indent, window)
        for level in range(closes):
            self.lines.append("  " * (indent - level - 1) + "}")

    def proc(self, device):
        params = ", ".join(["%N: size"] +
                           [b.param(self.memory) for b in self.buffers])
        indent = 4 if device else 1
        for _ in range(self.rng.randint(1, 4)):
            self.block(indent)
        body = "\n".join(self.lines)
        if device:
            body = ("  exogpu.device_function(blockDim = 32) {\n"
                    "    exogpu.for %task in cuda_tasks(0, 1) {\n"
                    "      exogpu.for %t in cuda_threads(0, 1, unit = "
                    "cuda_thread) {\n" + body.replace("\n  ", "\n  ") +
                    "\n      }\n    }\n  }")
        return (f"exogpu.proc @{self.name}({params}) requires %N >= 4 {{\n"
                f"{body}\n}}\n")


def run(command, **kwargs):
    return subprocess.run(command, capture_output=True, text=True, **kwargs)


def generate_main(procs, sizes, device):
    """A main that runs every proc on DIR/<proc>/<buffer>.in and writes
    DIR/<proc>/<buffer>.out (host or device buffers)."""
    lines = ['#include "module.h"', "#include <cstdio>", "#include <fstream>",
             "#include <iterator>", "#include <string>", "#include <vector>",
             "", "static std::vector<char> load(const std::string &path) {",
             "  std::ifstream in(path, std::ios::binary);",
             "  return std::vector<char>(std::istreambuf_iterator<char>(in), {});",
             "}", "",
             "static void store(const std::string &path, const std::vector<char> &data) {",
             "  std::ofstream(path, std::ios::binary).write(data.data(), data.size());",
             "}", "", "int main(int argc, char **argv) {",
             "  const std::string dir = argv[1];"]
    for proc in procs:
        name = proc.name
        lines.append("  {")
        args = []
        for b in proc.buffers:
            ctype = PRECISIONS[b.precision][0]
            lines.append(f'    std::vector<char> {b.name} = load(dir + "/{name}/{b.name}.in");')
            if device:
                lines.append(f"    void *d_{b.name} = nullptr;")
                lines.append(f"    cudaMalloc(&d_{b.name}, {b.name}.size());")
                lines.append(f"    cudaMemcpy(d_{b.name}, {b.name}.data(), {b.name}.size(), cudaMemcpyHostToDevice);")
                args.append(f"static_cast<{ctype} *>(d_{b.name})")
            else:
                args.append(f"reinterpret_cast<{ctype} *>({b.name}.data())")
        lines.append(f"    cudaError_t status = {name}(nullptr, {sizes[name]}, {', '.join(args)});")
        if device:
            lines.append("    if (status == cudaSuccess) status = cudaDeviceSynchronize();")
        lines.append(f'    std::printf("{name}: %s\\n", cudaGetErrorName(status));')
        for b in proc.buffers:
            if device:
                lines.append(f"    cudaMemcpy({b.name}.data(), d_{b.name}, {b.name}.size(), cudaMemcpyDeviceToHost);")
                lines.append(f"    cudaFree(d_{b.name});")
            lines.append(f'    store(dir + "/{name}/{b.name}.out", {b.name});')
        lines.append("  }")
    lines += ["  return 0;", "}", ""]
    return "\n".join(lines)


def npy_data(path):
    """The raw data of a .npy file (exogpu-run writes version 1 headers)."""
    raw = path.read_bytes()
    header = struct.unpack("<H", raw[8:10])[0]
    return raw[10 + header:]


def decode(precision, raw):
    """The elements' bits, and their values for floats."""
    ctype, size, is_float, fmt = PRECISIONS[precision]
    bits = struct.unpack(f"<{len(raw) // size}{fmt}", raw)
    if not is_float:
        return bits, bits
    if precision == "f16":
        values = struct.unpack(f"<{len(bits)}e", raw)
    elif precision == "bf16":
        values = [struct.unpack("<f", struct.pack("<I", b << 16))[0]
                  for b in bits]
    elif precision == "f32":
        values = struct.unpack(f"<{len(bits)}f", raw)
    else:
        values = struct.unpack(f"<{len(bits)}d", raw)
    return bits, values


def compare(precision, want_raw, got_raw, rtol):
    """The first element that differs (index, meaning, CUDA), or None: bits
    must be equal, every NaN equals every NaN, and with `rtol` finite values
    may differ by that relative error."""
    want_bits, want = decode(precision, want_raw)
    got_bits, got = decode(precision, got_raw)
    if len(want_bits) != len(got_bits):
        return -1, len(want_bits), len(got_bits)
    for k, (wb, gb, w, g) in enumerate(zip(want_bits, got_bits, want, got)):
        if wb == gb or (w != w and g != g):
            continue
        # Within the tolerance: relative, held to magnitude 1 near 0, and
        # one unit for an integer converted from a float.
        if rtol and w == w and g == g and \
                abs(g - w) <= max(rtol * max(abs(w), 1.0),
                                  0 if PRECISIONS[precision][2] else 1):
            continue
        return k, w, g
    return None


def poison(buffer, count):
    """What exogpu-run writes to a write-only output before the run."""
    size = PRECISIONS[buffer.precision][1]
    byte = 0xFF if PRECISIONS[buffer.precision][2] else 0xAB
    return bytes([byte]) * (size * count)


def run_batch(args, rng, batch, work, tools):
    memory = "CudaGmemLinear" if args.scope == "device" else "DRAM"
    procs = [ProcGenerator(rng, f"p{batch}_{k}", memory)
             for k in range(args.procs)]
    text = "\n".join(p.proc(args.scope == "device") for p in procs)
    module = work / "module.mlir"
    module.write_text(text)
    sizes = {p.name: rng.randint(4, 24) for p in procs}
    seed = rng.randint(1, 1 << 30)
    findings = []
    # The meaning.
    meaning = {}
    for p in procs:
        pdir = work / p.name
        pdir.mkdir()
        result = run([tools["run"], str(module), f"--proc={p.name}",
                      f"--sizes=N={sizes[p.name]}", f"--seed={seed}",
                      f"--write-inputs={pdir / 'in'}",
                      f"--output-dir={pdir / 'meaning'}"])
        meaning[p.name] = result
        n = sizes[p.name]
        for b in p.buffers:
            source = pdir / "in" / f"{b.name}.npy"
            (pdir / f"{b.name}.in").write_bytes(
                npy_data(source) if source.exists() else poison(b, b.count(n)))
    # The CUDA.
    translated = run([tools["translate"], "--to-cuda", str(module), "-o",
                      str(work / "module.cu")])
    header = run([tools["translate"], "--to-cuda-header", str(module), "-o",
                  str(work / "module.h")])
    if translated.returncode or header.returncode:
        return [("translation failed", text,
                 translated.stderr + header.stderr)], procs
    (work / "main.cu").write_text(generate_main(procs, sizes,
                                                args.scope == "device"))
    compiled = run([NVCC, "-std=c++17", "-O2", "-arch=sm_80",
                    "-Xcompiler", "-ffp-contract=off",
                    f"-I{ROOT / 'runtime' / 'include'}", f"-I{work}",
                    str(work / "module.cu"), str(work / "main.cu"), "-o",
                    str(work / "run")])
    if compiled.returncode:
        return [("nvcc failed", text, compiled.stderr[-4000:])], procs
    ran = run([str(work / "run"), str(work)], timeout=120)
    statuses = dict(line.split(": ", 1) for line in ran.stdout.splitlines()
                    if ": " in line)
    for p in procs:
        m = meaning[p.name]
        status = statuses.get(p.name, "missing")
        if (m.returncode == 0) != (status == "cudaSuccess"):
            findings.append((f"{p.name}: the meaning exits {m.returncode}, "
                             f"the host function returns {status}", text,
                             m.stdout + m.stderr))
            continue
        if m.returncode:
            continue
        for b in p.buffers:
            want = work / p.name / "meaning" / f"{b.name}.npy"
            got = work / p.name / f"{b.name}.out"
            if not want.exists():
                continue  # an input only
            rtol = (args.device_rtol if args.scope == "device" and
                    b.name in p.transcendental else 0)
            diff = compare(b.precision, npy_data(want), got.read_bytes(), rtol)
            if diff:
                k, w, g = diff
                findings.append((f"{p.name}: %{b.name} ({b.precision}) "
                                 f"element {k}: meaning {w!r}, CUDA {g!r} "
                                 f"(N = {sizes[p.name]}, seed {seed})", text,
                                 ""))
    return findings, procs


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default="build")
    parser.add_argument("--seconds", type=float, default=120)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--scope", choices=["cpu", "device"], default="cpu")
    parser.add_argument("--procs", type=int, default=8,
                        help="procs per module (one nvcc run each)")
    parser.add_argument("--device-rtol", type=float, default=1e-6,
                        help="relative tolerance of outputs written by "
                        "statements with exp2 or log2, on the device")
    parser.add_argument("--out", default="fuzz-cuda-findings")
    parser.add_argument("--progress", action="store_true",
                        help="a line on stderr after every module")
    args = parser.parse_args()
    scratch = tempfile.TemporaryDirectory()
    tools = {}
    for name, tool in (("run", "exogpu-run"), ("translate", "exogpu-translate")):
        # A copy, so that a rebuild during the run does not disturb it.
        tools[name] = pathlib.Path(scratch.name) / tool
        shutil.copy2(ROOT / args.build / "bin" / tool, tools[name])
    rng = random.Random(args.seed)
    out = pathlib.Path(args.out)
    start = time.monotonic()
    deadline = start + args.seconds
    batches = programs = statements = windows = splits = findings = 0
    precisions = set()
    while time.monotonic() < deadline:
        work = pathlib.Path(scratch.name) / f"batch{batches}"
        work.mkdir()
        found, procs = run_batch(args, rng, batches, work, tools)
        batches += 1
        programs += len(procs)
        for p in procs:
            statements += sum("exogpu.assign" in l or "exogpu.reduce" in l
                              for l in p.lines)
            windows += p.windows
            splits += p.splits
            precisions.update(b.precision for b in p.buffers)
        for what, text, detail in found:
            findings += 1
            out.mkdir(exist_ok=True)
            case = out / f"case{findings}.mlir"
            case.write_text(f"// {what}\n" + "".join(
                f"// {l}\n" for l in detail.splitlines()) + text)
            print(f"finding: {what} ({case})", file=sys.stderr)
        shutil.rmtree(work)
        if args.progress:
            print(f"fuzz-cuda: {time.monotonic() - start:.0f} s, {batches} "
                  f"modules, {programs} procs, {findings} finding(s)",
                  file=sys.stderr, flush=True)
    print(f"{batches} modules, {programs} procs, {statements} statements, "
          f"{windows} windows ({splits} through splits), precisions {' '.join(sorted(precisions))}, "
          f"scope {args.scope}: {findings} finding(s)")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
