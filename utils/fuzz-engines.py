#!/usr/bin/env python3
"""Differential fuzzer of the abstract machine's engines (issue 15).

Generates random AMIR procs shaped like the K loops of GEMMs (a sequential
loop whose body streams through moving windows of global variables, cycles
through shared-memory stages indexed `k mod 2` or `k mod 3`, accumulates into
fixed windows, and orders all of it with fences, under guards such as
`k > 0`, `k < K`, `k == 17` or `k mod 3 == 0`), with records placed before
the loop on some of the windows the loop will reach, allocations that the
moving windows may run out of, and checks after the loop. Each proc runs on
the abstract machine three ways:

  * box     the box engine with every shortcut (loops in bulk and in a
            steady state, docs/abstract-machine.md);
  * plain   the box engine with bulk-loops=false (every iteration runs);
  * reference  the reference engine (the rules as written: the oracle).

box and plain must print the same diagnostics, and all three must agree on
the verdict and on the first error (the reference may name a different
record in a note; see "Record subsumption"). A disagreement is written to
--out with the three outputs. The remarks of the box run tell how often the
steady state was reached; the summary prints it, so that a fuzzer that
never reaches it is noticed.

Usage: utils/fuzz-engines.py [--build build] [--seconds 120] [--seed N]
                             [--out fuzz-engine-findings]
Exit status 1 when the engines disagreed.
"""

import argparse
import pathlib
import random
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
TIMELINES = ["cuda_in_order_ram_qual", "Sm80_cp_async_qual"]
RECORD_LEVELS = ["unordered", "temporally_ordered", "fully_ordered"]
CHECK_LEVELS = ["temporally_ordered", "fully_ordered"]


class Generator:
    def __init__(self, rng):
        self.rng = rng
        self.threads = rng.choice([2, 4])
        self.trip = rng.randint(12, 48)
        self.step = rng.choice([2, 4, 4, 5])
        self.stages = rng.choice([2, 3])
        # The moving windows run up or down the columns.
        self.column = rng.choice(["%k", f"({self.trip} - %k)"])
        self.lines = []

    def thread_set(self, per_thread):
        t = self.threads
        if per_thread:
            return f"gpu[{t} (%t, 1, 0)]"
        return self.rng.choice([f"gpu[{t}]", f"gpu[{t} (_, 1, 0)]",
                                f"gpu[{t} (_, 1, {t - 1})]"])

    def window(self, var, per_thread):
        rng = self.rng
        row = "%t" if per_thread else f"0 to {self.threads - 1}"
        if var == "A":
            lo = rng.randint(0, 1)
            hi = lo + rng.randint(0, self.step - 1)
            if rng.random() < 0.05:
                hi = lo + self.step  # overlapping periods: no steady state
            base = f"{self.column} * {self.step}"
            return f"@A[{row}, {base} + {lo} to {base} + {hi}]"
        if var == "S":
            stage = rng.choice([f"%k mod {self.stages}",
                                f"(%k + 1) mod {self.stages}"])
            return f"@S[{stage}, {row}]"
        return f"@C[{row}]"

    def access(self, indent, per_thread):
        rng = self.rng
        var = rng.choice(["A", "A", "S", "S", "C"])
        window = self.window(var, per_thread)
        threads = self.thread_set(per_thread)
        timeline = rng.choice(TIMELINES)
        check = rng.choice(CHECK_LEVELS)
        level = rng.choice(RECORD_LEVELS)
        pad = " " * indent
        if rng.random() < 0.5:  # a read
            self.lines.append(f"{pad}exoam.check_mutates {check} {window} on "
                              f"[{timeline}] for read threads {threads}")
            self.lines.append(f"{pad}exoam.record_read {level} {window} on "
                              f"{timeline} threads {threads}")
            return
        self.lines.append(f"{pad}exoam.check_mutates {check} {window} on "
                          f"[{timeline}] for write threads {threads}")
        self.lines.append(f"{pad}exoam.check_reads {check} {window} on "
                          f"[{timeline}] for write threads {threads}")
        self.lines.append(f"{pad}exoam.clear_reads {window}")
        self.lines.append(f"{pad}exoam.clear_mutates {window}")
        self.lines.append(f"{pad}exoam.record_mutate {level} {window} on "
                          f"{timeline} threads {threads}")

    def fence(self, indent):
        rng = self.rng
        pre = rng.choice(["Sm80_generic", "cuda_in_order"])
        # The whole collective, or a pair of neighbouring threads (chains of
        # pairs carry a record one pair further per period).
        t = self.threads
        threads = (f"gpu[{t}]" if rng.random() < 0.6 else
                   f"gpu[{t} (_, 2, {rng.randint(0, t - 2)})]")
        self.lines.append(
            f"{' ' * indent}exoam.fence pre = qfull({pre}) full = "
            f"qfull(cuda_in_order) temp = qtmp(cuda_in_order) threads "
            f"{threads}")

    def guard(self):
        rng = self.rng
        n = self.trip
        return rng.choice([f"%k > 0", f"%k < {n - 1}", f"%k < {n // 2}",
                           f"%k == {rng.randint(0, n)}", "%k mod 3 == 0",
                           f"%k >= {rng.randint(1, n)}"])

    def body(self):
        rng = self.rng
        for _ in range(rng.randint(2, 5)):
            indent = 6
            guarded = rng.random() < 0.3
            if guarded:
                self.lines.append(f"      exoam.if {self.guard()} {{")
                indent = 8
            kind = rng.random()
            if kind < 0.1:
                self.lines.append(
                    f"{' ' * indent}exoam.check_mutates temporally_ordered "
                    f"@X[0] on [cuda_in_order_ram_qual] for read threads "
                    f"{self.thread_set(False)}")
            elif kind < 0.3:
                self.fence(indent)
            elif kind < 0.7:
                self.lines.append(f"{' ' * indent}exoam.loop %t in "
                                  f"(0, {self.threads}) {{")
                for _ in range(rng.randint(1, 2)):
                    self.access(indent + 2, per_thread=True)
                self.lines.append(f"{' ' * indent}}}")
            else:
                self.access(indent, per_thread=False)
            if guarded:
                self.lines.append("      }")
        if rng.random() < 0.8:
            self.fence(6)

    def program(self):
        rng = self.rng
        t, n, step = self.threads, self.trip, self.step
        width = n * step + 2
        self.lines.append("exoam.proc @fuzz() {")
        if rng.random() < 0.7:
            # Sometimes too small: a window leaves the allocation.
            columns = width if rng.random() < 0.8 else rng.randint(step, width)
            self.lines.append(f"  exoam.alloc @A[{t}, {columns}]")
            self.lines.append(f"  exoam.alloc @S[{self.stages}, {t}]")
            self.lines.append(f"  exoam.alloc @C[{t}]")
        # Records ahead of the loop on windows it will reach.
        for _ in range(rng.randint(0, 2)):
            lo = rng.randint(0, width - 1)
            hi = min(width - 1, lo + rng.randint(0, 3 * step))
            who = rng.randint(0, t - 1)
            record = rng.choice(["record_mutate", "record_read"])
            self.lines.append(
                f"  exoam.{record} {rng.choice(RECORD_LEVELS)} "
                f"@A[0 to {t - 1}, {lo} to {hi}] on {rng.choice(TIMELINES)} "
                f"threads gpu[{t} (_, 1, {who})]")
        # A variable the loop's fences may carry a record of to more threads
        # period by period (and that the loop may read).
        self.lines.append(
            f"  exoam.record_mutate {rng.choice(RECORD_LEVELS[1:])} @X[0] on "
            f"cuda_in_order_ram_qual threads gpu[{t} (_, 1, {rng.randint(0, t - 1)})]")
        first = rng.choice([0, 0, 1, 3])
        self.lines.append(f"  exoam.loop %k in ({first}, {n}) {{")
        self.body()
        self.lines.append("  }")
        # Checks after the loop see what it left.
        for _ in range(rng.randint(0, 2)):
            var = rng.choice(["A", "S", "C", "X"])
            window = {"A": f"@A[0 to {t - 1}, 0 to {width - 1}]",
                      "S": f"@S[0 to {self.stages - 1}, 0 to {t - 1}]",
                      "C": f"@C[0 to {t - 1}]", "X": "@X[0]"}[var]
            kind = rng.choice(["check_mutates", "check_reads"])
            self.lines.append(
                f"  exoam.{kind} {rng.choice(CHECK_LEVELS)} {window} on "
                f"[{rng.choice(TIMELINES)}] threads "
                f"gpu[{t} (_, 1, {rng.randint(0, t - 1)})]")
        self.lines.append("}")
        return "\n".join(self.lines) + "\n"


def run(tool, text, options):
    proc = subprocess.run([str(tool), f"-exoam-interpret={options}", "-",
                           "-o", "/dev/null"], input=text, text=True,
                          capture_output=True, timeout=60)
    return proc.returncode, proc.stderr


def without_remarks(output):
    lines = output.splitlines()
    kept, skip = [], 0
    for line in lines:
        if ": remark: " in line:
            skip = 2  # the remark's source line and caret
            continue
        if skip:
            skip -= 1
            continue
        kept.append(line)
    return "\n".join(kept)


def first_error(output):
    """The first error's location, hazard and element (the engines may name
    different records after that)."""
    for line in output.splitlines():
        if ": error: " in line:
            where, what = line.split(": error: ", 1)
            return where, what.split(": ", 1)[0]
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default="build")
    parser.add_argument("--seconds", type=float, default=120)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", default="fuzz-engine-findings")
    args = parser.parse_args()
    # A copy, so that a rebuild during the run does not disturb it.
    scratch = tempfile.TemporaryDirectory()
    tool = pathlib.Path(scratch.name) / "exogpu-opt"
    shutil.copy2(ROOT / args.build / "bin" / "exogpu-opt", tool)
    rng = random.Random(args.seed)
    out = pathlib.Path(args.out)
    deadline = time.monotonic() + args.seconds
    runs = steady = failing = steady_failing = findings = 0
    while time.monotonic() < deadline:
        text = Generator(rng).program()
        box = run(tool, text, "replay-remarks=true")
        plain = run(tool, text, "bulk-loops=false")
        reference = run(tool, text, "engine=reference")
        runs += 1
        reached = "steady state" in box[1]
        steady += reached
        failing += box[0] != 0
        steady_failing += reached and box[0] != 0
        box_output = without_remarks(box[1])
        agree = (box[0] == plain[0] == reference[0] and
                 box_output == without_remarks(plain[1]) and
                 first_error(box_output) == first_error(reference[1]))
        if agree:
            continue
        findings += 1
        out.mkdir(exist_ok=True)
        case = out / f"case{findings}.mlir"
        case.write_text(text + "".join(
            f"\n// ===== {name} (exit {rc})\n" +
            "\n".join("// " + l for l in output.splitlines())
            for name, (rc, output) in (("box", box), ("plain", plain),
                                       ("reference", reference))))
        print(f"disagreement: {case}", file=sys.stderr)
    print(f"{runs} programs, {steady} reached a steady state ({steady_failing}"
          f" of them rejected later), {failing} rejected, {findings} "
          f"disagreement(s)")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
