#!/usr/bin/env python3
"""Mutation fuzzer of exogpu-opt over the test inputs (issue 15).

Takes every input of the suite (test/**/*.mlir, split at `// -----`, and the
examples with their instruction library), mutates it (integers replaced by
boundary values such as 0, -1, 2^31 - 1 and INT64_MAX, lines deleted,
duplicated or swapped, identifiers and operators exchanged, text truncated,
loops nested) and runs exogpu-opt on the mutant with the passes its RUN
lines name (the sync check, the interpreter, the translations), under a
timeout and a memory limit. A run that

  * dies of a signal (a crash), or prints LLVM's crash banner,
  * aborts (LLVM ERROR, exit 134), or
  * runs past the timeout without a progress remark (a silent hang), or
    past the memory limit (runaway memory)

is a finding; its input and command are written to --out. A clean error
(exit 1 with a diagnostic) or success is fine: the tool must never crash or
hang, whatever the input.

Usage: utils/fuzz-sync-check.py [--build build] [--seconds 300] [--seed N]
                                [--timeout 15] [--memory-mib 2048]
                                [--out fuzz-findings]
Exit status 1 when something was found.
"""

import argparse
import os
import pathlib
import random
import re
import resource
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
BOUNDARY = [0, 1, -1, 2, 31, 32, 33, 63, 64, 127, 1024, 65536,
            2147483647, 2147483648, -2147483648, 4294967296,
            4611686018427387904, 9223372036854775807, -9223372036854775808,
            9223372036854775806]
OPERATORS = ["+", "-", "*", " mod ", " / "]
CRASH_BANNER = "PLEASE submit a bug report"


def passes_of(text):
    """The exogpu-opt arguments of the RUN lines of a test (without the
    diagnostics verifier and the file splitting, which the fuzzer does)."""
    found = []
    for line in text.splitlines():
        match = re.match(r"//\s*RUN:.*?exogpu-opt\s+(.*)", line)
        if not match:
            continue
        args = match.group(1).split("|")[0]
        args = args.replace("%s", "").replace("2>&1", "")
        words = [w for w in shlex.split(args)
                 if w not in ("-verify-diagnostics", "-split-input-file",
                              "-o", "/dev/null") and not w.startswith("%")]
        if words:
            found.append(words)
    return found


def seeds():
    """(text, list of argument lists) for every input."""
    inputs = []
    default = [["--exogpu-sync-check"],
               ["--exogpu-insert-frees", "--convert-exogpu-to-exoam"],
               ["--convert-exogpu-to-standard"]]
    for path in sorted((ROOT / "test").rglob("*.mlir")):
        if "Inputs" in path.parts:
            continue
        text = path.read_text()
        runs = passes_of(text) or default
        for chunk in re.split(r"^// -----\s*$", text, flags=re.MULTILINE):
            inputs.append((chunk, runs))
    # The examples import their instruction libraries (and the GEMM entry
    # points their variants, next to them: -I their folder).
    folder = f"-I{ROOT / 'examples'}"
    for path in sorted((ROOT / "examples").glob("*.mlir")):
        text = path.read_text()
        params = sorted(set(re.findall(r"%([A-Z])\s*:\s*size", text)))
        binding = ",".join(f"{p}=256" for p in params)
        check = "--exogpu-sync-check" + (f"={binding}" if binding else "")
        inputs.append((text, [[folder, check]] +
                       [[folder, *args] for args in default[1:]]))
    return inputs


def mutate(text, rng):
    """One to three random mutations of `text`."""
    for _ in range(rng.randint(1, 3)):
        kind = rng.randrange(8)
        lines = text.split("\n")
        if kind == 0:  # an integer literal becomes a boundary value
            spots = list(re.finditer(r"(?<![%\w])\d+(?![\w.])", text))
            if spots:
                spot = rng.choice(spots)
                value = rng.choice(BOUNDARY + [rng.randint(-10, 5000)])
                text = text[:spot.start()] + str(value) + text[spot.end():]
        elif kind == 1 and len(lines) > 2:  # delete a line
            del lines[rng.randrange(len(lines))]
            text = "\n".join(lines)
        elif kind == 2 and lines:  # duplicate a line
            i = rng.randrange(len(lines))
            lines.insert(i, lines[i])
            text = "\n".join(lines)
        elif kind == 3 and len(lines) > 2:  # swap two lines
            i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
            text = "\n".join(lines)
        elif kind == 4:  # exchange two identifiers (%names or @names)
            names = sorted(set(re.findall(r"[%@][A-Za-z_]\w*", text)))
            if len(names) > 1:
                a, b = rng.sample(names, 2)
                if a[0] == b[0]:
                    spots = [m.start() for m in re.finditer(re.escape(a) +
                                                            r"\b", text)]
                    if spots:
                        at = rng.choice(spots)
                        text = text[:at] + b + text[at + len(a):]
        elif kind == 5:  # exchange an operator
            spots = [m for m in re.finditer(r" (\+|-|\*|mod|/) ", text)]
            if spots:
                spot = rng.choice(spots)
                text = (text[:spot.start()] + rng.choice(OPERATORS).center(3)
                        + text[spot.end():])
        elif kind == 6 and text:  # truncate
            text = text[:rng.randrange(len(text))]
        elif kind == 7:  # wrap a statement line in loops
            spots = [i for i, l in enumerate(lines)
                     if l.strip().startswith(("exogpu.assign", "exogpu.reduce",
                                              "exogpu.call"))]
            if spots:
                i = rng.choice(spots)
                depth = rng.choice([1, 2, 50])
                extent = rng.choice([1, 2, 1 << 20, 9223372036854775807])
                head = "".join(f"exogpu.for %fz{k} in seq(0, {extent}) {{ "
                               for k in range(depth))
                lines[i] = head + lines[i] + " }" * depth
                text = "\n".join(lines)
    return text


def limit_memory(mib):
    def apply():
        limit = mib * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    return apply


def classify(tool, text, args, timeout, memory_mib):
    """None for a clean run, else a short description of the finding."""
    try:
        proc = subprocess.run([str(tool), *args, "-", "-o", os.devnull],
                              input=text.encode(), capture_output=True,
                              timeout=timeout,
                              preexec_fn=limit_memory(memory_mib))
    except subprocess.TimeoutExpired as expired:
        # A long run that reports its progress (a remark every 10 s) is what
        # a large size should do; a silent one is a hang.
        if b"still running" in (expired.stderr or b""):
            return None
        return f"hang (over {timeout:g} s, silent)"
    err = proc.stderr.decode(errors="replace")
    if "LLVM ERROR: out of memory" in err or "std::bad_alloc" in err:
        return f"runaway memory (over {memory_mib} MiB)"
    if proc.returncode < 0:
        return f"crash (signal {-proc.returncode})"
    if CRASH_BANNER in err or "LLVM ERROR" in err or proc.returncode == 134:
        first = next((l for l in err.splitlines() if "ERROR" in l or
                      "error" in l), "")
        return f"abort (exit {proc.returncode}): {first[:160]}"
    if proc.returncode not in (0, 1):
        return f"unexpected exit {proc.returncode}"
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default=str(ROOT / "build"))
    parser.add_argument("--seconds", type=float, default=300.0)
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--timeout", type=float, default=15.0,
                        help="seconds per run (progress remarks come "
                        "every 10 s)")
    parser.add_argument("--memory-mib", type=int, default=2048)
    parser.add_argument("--out", default="fuzz-findings")
    opts = parser.parse_args()
    tool = pathlib.Path(opts.build) / "bin" / "exogpu-opt"
    if not tool.exists():
        sys.exit(f"{tool} not found: build first")
    # A copy, so that a rebuild during the run does not disturb it.
    copy = pathlib.Path(tempfile.mkdtemp()) / "exogpu-opt"
    shutil.copy2(tool, copy)
    seed = opts.seed if opts.seed is not None else random.randrange(1 << 30)
    rng = random.Random(seed)
    inputs = seeds()
    print(f"fuzzing {tool} with seed {seed} over {len(inputs)} inputs for "
          f"{opts.seconds:g} s", flush=True)
    out = pathlib.Path(opts.out)
    deadline = time.monotonic() + opts.seconds
    runs = findings = 0
    while time.monotonic() < deadline:
        text, arg_lists = rng.choice(inputs)
        mutant = mutate(text, rng)
        args = rng.choice(arg_lists)
        runs += 1
        finding = classify(copy, mutant, args, opts.timeout, opts.memory_mib)
        if finding is None:
            continue
        findings += 1
        out.mkdir(parents=True, exist_ok=True)
        case = out / f"case{findings:04d}.mlir"
        case.write_text(f"// {finding}\n// exogpu-opt {shlex.join(args)} "
                        f"{case.name}\n{mutant}")
        print(f"[{runs}] {finding}: {case} ({shlex.join(args)})", flush=True)
    print(f"{runs} runs, {findings} findings"
          + (f" (in {out})" if findings else ""))
    shutil.rmtree(copy.parent)
    sys.exit(1 if findings else 0)


if __name__ == "__main__":
    main()
