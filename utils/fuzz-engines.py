#!/usr/bin/env python3
"""Differential fuzzer of the abstract machine's engines (issues 15, 21).

Generates random AMIR procs of three shapes (in turn; --shape picks one).

K loops: procs shaped like the K loops of GEMMs (a sequential
loop whose body streams through moving windows of global variables, cycles
through shared-memory stages indexed `k mod 2` or `k mod 3`, accumulates into
fixed windows, and orders all of it with fences, under guards such as
`k > 0`, `k < K`, `k == 17` or `k mod 3 == 0`), with records placed before
the loop on some of the windows the loop will reach, allocations that the
moving windows may run out of, and checks after the loop.

Host loops: a CPU loop that launches two or three kernels per iteration (the
launch and completion fences of Fig. 5 around a task loop), each kernel
reading the previous one's output at windows shifted across task boundaries
(either way), writing its own chunk or, now and then, a neighbour's (a race),
staging data in per-task shared memory with or without fences, sometimes
with windows that depend on the host iterator or a second level of tasks,
bodies guarded by a condition on a task iterator (which makes it a key of
the replay: tasks with its value replay each other), reductions of every task into one window (atomic as in split-k, or not: a
race), reads of that window (a race with the other tasks' reductions),
stream-ordered host accesses between kernels, host records and fences on
odd sets of timelines (which device fences may witness and raise for their
threads) and checks after the loop.
These exercise task replay, with records of other tasks and of the host in
the lists a task checks and clears, and finished tasks across kernel
launches.

Rings (issue 31): a producer/consumer pipeline in tasks over barrier
elements that are rings of mbarriers of depth 1 to 4, with awaits whose lag
fits the ring or overruns it, skipped and conditional awaits and arrives,
TMA-like copies completing on the ring, the consumers waiting before the
producer arrives, awaits with N = 0 by the arrivers or by others, two
collectives taking turns, fences that close wait cycles, and drains before
the barriers' free (docs/abstract-machine.md, "Rings").

Each proc runs on the abstract machine three ways:

  * box     the box engine with every shortcut (task replay, finished tasks,
            loops in bulk and in a steady state, docs/abstract-machine.md);
  * plain   the box engine with bulk-loops=false and replay-tasks=false
            (every iteration and every task runs);
  * reference  the reference engine (the rules as written: the oracle).

box and plain must print the same diagnostics, and all three must agree on
the verdict and on the first error (the reference may name a different
record in a note; see "Record subsumption"). A disagreement is written to
--out with the three outputs. The remarks of the box run tell how often the
steady state was reached and how many tasks were replayed; the summary
prints both, so that a fuzzer that never reaches them is noticed.

Usage: utils/fuzz-engines.py [--build build] [--seconds 120] [--seed N]
                             [--shape all|k-loop|host-loop|ring]
                             [--out fuzz-engine-findings]
Exit status 1 when the engines disagreed.
"""

import argparse
import pathlib
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
TIMELINES = ["cuda_in_order_ram_qual", "Sm80_cp_async_qual"]
RECORD_LEVELS = ["unordered", "temporally_ordered", "fully_ordered"]
CHECK_LEVELS = ["temporally_ordered", "fully_ordered"]


def thread_set(rng, threads, iterator):
    """The threads of a statement in a collective of `threads` threads: the
    one `iterator` selects, else all of them, the first or the last."""
    if iterator:
        return f"gpu[{threads} ({iterator}, 1, 0)]"
    return rng.choice([f"gpu[{threads}]", f"gpu[{threads} (_, 1, 0)]",
                       f"gpu[{threads} (_, 1, {threads - 1})]"])


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
        return thread_set(self.rng, self.threads, "%t" if per_thread else None)

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


# Timelines of the host records and odd fences of the host loops.
ODD_TIMELINES = ["cpu_in_order_qual", "cpu_cuda_stream_qual",
                 "cuda_in_order_ram_qual", "Sm80_cp_async_qual"]
# The kernel brackets of Fig. 5 as the translation prints them (Qcs =
# T_qfull(cuda_stream_sync), Tcs = T_qtmp(cuda_stream_sync)).
STREAM = ("cpu_cuda_stream_qual, cuda_in_order_rmem_qual, "
          "cuda_in_order_ram_qual, Sm80_cp_async_qual, "
          "tma_to_smem_async_qual, tma_to_gmem_async_qual, "
          "wgmma_async_rmem_a_qual, wgmma_async_rmem_d_qual, "
          "wgmma_async_smem_qual")
LAUNCH = (f"exoam.fence transitive pre = [cpu_in_order_qual, {STREAM}] "
          f"full = [{STREAM}] temp = [{STREAM}] threads cpu")
COMPLETE = (f"exoam.fence transitive pre = [{STREAM}] full = [{STREAM}] "
            f"temp = [{STREAM}] threads cpu")


class HostLoopGenerator:
    """A CPU loop launching kernels that read each other's outputs."""

    def __init__(self, rng):
        self.rng = rng
        self.threads = rng.choice([2, 4])
        self.tasks = rng.choice([1, 2, 3, 4, 6])
        self.kernels = rng.choice([2, 2, 3])
        self.iterations = rng.choice([2, 3, 4])
        # Two levels of tasks (a 2-D grid) now and then: %u selects a row.
        self.rows = rng.choice([1, 1, 1, 2])
        # A halo of one chunk on each side keeps windows shifted by up to a
        # chunk inside the variable.
        self.width = (self.tasks + 2) * self.threads
        self.vars = [f"G{i}" for i in range(self.kernels)]
        self.lines = []

    def emit(self, indent, text):
        self.lines.append(" " * indent + text)

    def shift(self):
        t = self.threads
        return self.rng.choice([0, 0, 1, -1, t - 1, 1 - t, t, -t])

    def whole(self, var):
        rows = f"0 to {self.rows - 1}, " if self.rows > 1 else ""
        return f"@{var}[{rows}0 to {self.width - 1}]"

    def global_window(self, var, per_thread, shift):
        t = self.threads
        row = "%u, " if self.rows > 1 else ""
        # Now and then a window that depends on the host iterator (a key of
        # the replay).
        host = " + %it mod 2" if self.rng.random() < 0.15 else ""
        base = f"%t * {t} + {t + shift}{host}"
        if per_thread:
            return f"@{var}[{row}{base} + %i]"
        return f"@{var}[{row}{base} to {base} + {t - 1}]"

    def thread_set(self, per_thread):
        return thread_set(self.rng, self.threads, "%i" if per_thread else None)

    def read(self, indent, window, threads,
             timeline="cuda_in_order_ram_qual"):
        self.emit(indent, f"exoam.check_mutates fully_ordered {window} on "
                          f"[{timeline}] for read threads {threads}")
        self.emit(indent, f"exoam.record_read fully_ordered {window} on "
                          f"{timeline} threads {threads}")

    def write(self, indent, window, threads, level="fully_ordered",
              timeline="cuda_in_order_ram_qual"):
        check = self.rng.choice(["temporally_ordered", "temporally_ordered",
                                 "fully_ordered"])
        for kind in ("check_reads", "check_mutates"):
            self.emit(indent, f"exoam.{kind} {check} {window} on "
                              f"[{timeline}] for write threads {threads}")
        self.emit(indent, f"exoam.clear_reads {window}")
        self.emit(indent, f"exoam.clear_mutates {window}")
        self.emit(indent, f"exoam.record_mutate {level} {window} on "
                          f"{timeline} threads {threads}")

    def timelines(self):
        """A random set of timelines, host ones included."""
        chosen = [q for q in ODD_TIMELINES if self.rng.random() < 0.4]
        return "[" + ", ".join(chosen) + "]"

    def fence(self, indent):
        t = self.threads
        threads = (f"gpu[{t}]" if self.rng.random() < 0.8 else
                   f"gpu[{t} (_, 2, 0)]")
        if self.rng.random() < 0.2:
            # One that may witness host records and raise them for its
            # threads on other timelines.
            self.emit(indent, f"exoam.fence transitive pre = "
                              f"{self.timelines()} full = {self.timelines()} "
                              f"temp = {self.timelines()} threads {threads}")
            return
        pre = self.rng.choice(["cuda_in_order", "cuda_in_order",
                               "Sm80_generic"])
        self.emit(indent, f"exoam.fence transitive pre = qfull({pre}) full = "
                          f"qfull(cuda_in_order) temp = qtmp(cuda_in_order) "
                          f"threads {threads}")

    def host(self, indent):
        """A host record of X, or a host fence, on odd timelines."""
        rng = self.rng
        if rng.random() < 0.5:
            self.emit(indent, "exoam.clear_mutates @X[0]")
            self.emit(indent, f"exoam.record_mutate "
                              f"{rng.choice(RECORD_LEVELS)} @X[0] on "
                              f"{rng.choice(ODD_TIMELINES)} threads cpu")
        else:
            self.emit(indent, f"exoam.fence transitive pre = "
                              f"{self.timelines()} full = {self.timelines()} "
                              f"temp = {self.timelines()} threads cpu")

    def per_thread(self, indent, *statements):
        """A loop over the threads of a task around `statements`, each
        called with the indentation of the body."""
        self.emit(indent, f"exoam.loop %i in (0, {self.threads}) {{")
        for statement in statements:
            statement(indent + 2)
        self.emit(indent, "}")

    def staged(self, indent, src, dst):
        """Stages a window of `src` in shared memory, then writes `dst` from
        it (fenced or not), and frees it."""
        rng = self.rng
        t = self.threads
        self.emit(indent, f"exoam.alloc @S[{t}]")
        source = self.global_window(src, True, self.shift())
        self.per_thread(
            indent,
            lambda i: self.read(i, source, self.thread_set(True)),
            lambda i: self.write(i, "@S[%i]", self.thread_set(True)))
        if rng.random() < 0.85:
            self.fence(indent)
        smem = f"@S[{t - 1} - %i]" if rng.random() < 0.5 else "@S[%i]"
        own = 0 if rng.random() < 0.9 else rng.choice([1, -1, t, -t])
        target = self.global_window(dst, True, own)
        self.per_thread(
            indent,
            lambda i: self.read(i, smem, self.thread_set(True)),
            lambda i: self.write(i, target, self.thread_set(True)))
        if rng.random() < 0.9:
            self.fence(indent)
        for kind in ("check_reads", "check_mutates"):
            self.emit(indent, f"exoam.{kind} temporally_ordered @S[0 to "
                              f"{t - 1}] on [cuda_in_order_ram_qual] for "
                              f"free threads gpu[{t}]")

    def reduction(self, indent):
        """Every task adds into the same window of R: atomically (split-k)
        or, now and then, not (a race); or reads it (a race with the other
        tasks' additions)."""
        rng = self.rng
        t = self.threads
        per_thread = rng.random() < 0.6
        window = "@R[%i]" if per_thread else f"@R[0 to {t - 1}]"
        threads = self.thread_set(per_thread)
        timeline = "cuda_in_order_ram_qual"
        if rng.random() < 0.1:
            statement = lambda i: self.read(i, window, threads)
        else:
            atomic = (f" atomic = [{timeline}]" if rng.random() < 0.85
                      else "")

            def statement(i):
                self.emit(i, f"exoam.check_mutates atomic_only {window} on "
                             f"[{timeline}] for write threads {threads}")
                self.emit(i, f"exoam.check_reads temporally_ordered {window} "
                             f"on [{timeline}] for write threads {threads}")
                self.emit(i, f"exoam.clear_reads {window}")
                self.emit(i, f"exoam.record_mutate fully_ordered {window} on "
                             f"{timeline}{atomic} threads {threads}")
        if per_thread:
            self.per_thread(indent, statement)
        else:
            statement(indent)

    def direct(self, indent, src, dst):
        """Reads of `src` and writes of `dst` in global memory, with fences
        in between now and then."""
        rng = self.rng
        t = self.threads
        for _ in range(rng.randint(1, 3)):
            kind = rng.random()
            per_thread = rng.random() < 0.6
            if kind < 0.12:
                self.reduction(indent)
                continue
            if kind < 0.35:
                window = self.global_window(src, per_thread, self.shift())
                statement = lambda i: self.read(i, window,
                                                self.thread_set(per_thread))
            elif kind < 0.75:
                own = 0 if rng.random() < 0.85 else rng.choice([1, -1, t])
                window = self.global_window(dst, per_thread, own)
                statement = lambda i: self.write(i, window,
                                                 self.thread_set(per_thread))
            elif kind < 0.85:
                # An asynchronous copy into the chunk, completed (or not) by
                # a fence on its timeline.
                per_thread = True
                window = self.global_window(dst, True, 0)
                statement = lambda i: self.write(
                    i, window, self.thread_set(True), level="unordered",
                    timeline="Sm80_cp_async_qual")
            else:
                self.fence(indent)
                continue
            if per_thread:
                self.per_thread(indent, statement)
            else:
                statement(indent)

    def kernel(self, indent, src, dst):
        self.emit(indent, LAUNCH)
        if self.rows > 1:
            self.emit(indent, f"exoam.loop %u in (0, {self.rows}) {{")
            indent += 2
            self.emit(indent, "exoam.inc_task_id")
        self.emit(indent, f"exoam.loop %t in (0, {self.tasks}) {{")
        self.emit(indent + 2, "exoam.inc_task_id")
        # Now and then a task iterator that guards the body: a key of the
        # replay (tasks with the same value replay each other).
        guard = self.key_guard()
        body = indent + 2
        if guard:
            self.emit(body, f"exoam.if {guard} {{")
            body += 2
        if self.rng.random() < 0.5:
            self.staged(body, src, dst)
        else:
            self.direct(body, src, dst)
        if guard:
            self.emit(indent + 2, "}")
        self.emit(indent, "}")
        if self.rows > 1:
            indent -= 2
            self.emit(indent, "}")
        self.emit(indent, COMPLETE)

    def key_guard(self):
        """A condition on a task iterator, or None."""
        rng = self.rng
        if rng.random() >= 0.3:
            return None
        choices = [f"%t < {rng.randint(1, self.tasks)}", "%t > 0"]
        if self.rows > 1:
            choices.append("%u == 0")
        return rng.choice(choices)

    def program(self):
        rng = self.rng
        rows = f"{self.rows}, " if self.rows > 1 else ""
        self.emit(0, "exoam.proc @fuzz() {")
        for var in self.vars:
            self.emit(2, f"exoam.alloc @{var}[{rows}{self.width}]")
        self.emit(2, f"exoam.alloc @R[{self.threads}]")
        self.emit(2, "exoam.alloc @X[1]")
        self.emit(2, f"exoam.loop %it in (0, {self.iterations}) {{")
        if rng.random() < 0.4:
            # R = 0 on the stream (a cudaMemsetAsync), as before split-k.
            self.write(4, f"@R[0 to {self.threads - 1}]", "cpu",
                       timeline="cpu_cuda_stream_qual")
        # Kernel k reads G[k] and writes G[k + 1], in a ring: the last one
        # writes what the first reads in the next iteration.
        for k in range(self.kernels):
            src = self.vars[k]
            dst = self.vars[(k + 1) % self.kernels]
            if rng.random() < 0.2:
                # A stream-ordered host access (a cudaMemcpy) between kernels.
                if rng.random() < 0.5:
                    self.read(4, self.whole(src), "cpu", "cpu_cuda_stream_qual")
                else:
                    self.write(4, self.whole(src), "cpu",
                               timeline="cpu_cuda_stream_qual")
            if rng.random() < 0.25:
                self.host(4)
            self.kernel(4, src, dst)
        self.emit(2, "}")
        for _ in range(rng.randint(0, 2)):
            self.host(2)
        if rng.random() < 0.5:
            self.emit(2, f"exoam.check_mutates {rng.choice(CHECK_LEVELS)} "
                         f"@X[0] on {self.timelines()} threads cpu")
        # The host looks at a result, through the stream or not.
        if rng.random() < 0.5:
            timeline = rng.choice(["cpu_cuda_stream_qual",
                                   "cpu_in_order_qual"])
            self.emit(2, f"exoam.check_mutates fully_ordered "
                         f"{self.whole(rng.choice(self.vars))} on "
                         f"[{timeline}] for read threads cpu")
        self.emit(0, "}")
        return "\n".join(self.lines) + "\n"


class RingGenerator:
    """A producer/consumer pipeline over barrier elements that are rings of
    mbarriers (docs/abstract-machine.md, "Rings"), in tasks: rings of
    several depths, awaits with lags that fit the ring or overrun it,
    skipped and conditional awaits and arrives, TMA-like copies completing
    on the ring (`complete`), awaits before their arrive (consumer first),
    awaits with N = 0 by the arrivers or by others, several collectives at
    one element, fences that make wait cycles, and drains before the free."""

    def __init__(self, rng):
        self.rng = rng
        self.threads = rng.choice([4, 8])
        self.stages = rng.choice([1, 2, 2, 3, 4])
        # The producer's await lag: the stages (at most) it may run ahead,
        # now and then one too many, or none (a wait cycle when it runs
        # first). The ring's depth: the translation's 1 + lag, or not.
        self.lag = (rng.randint(1, self.stages) if rng.random() < 0.85 else
                    rng.randint(0, self.stages + 1))
        self.depth = (1 + self.lag if rng.random() < 0.8 else
                      rng.randint(1, 4))
        self.trip = rng.randint(2, 9)
        self.tasks = rng.choice([1, 2, 3])
        # The producer: thread 0, or threads 0 and 1.
        self.producer_size = rng.choice([1, 1, 2])
        # The consumers: the other threads, or their first half.
        rest = self.threads - self.producer_size
        self.consumer_size = rest if rng.random() < 0.8 else rest // 2
        self.lines = []

    def emit(self, indent, text):
        self.lines.append(" " * indent + text)

    def producer(self):
        return f"gpu[{self.threads} (_, {self.producer_size}, 0)]"

    def consumers(self, split=None):
        size, first = self.consumer_size, self.producer_size
        if split is not None:
            size //= 2
            first += split * size
        return f"gpu[{self.threads} (_, {size}, {first})]"

    def guard(self):
        rng = self.rng
        n = self.trip
        return rng.choice(["%k > 0", f"%k < {n - 1}", "%k mod 2 == 0",
                           f"%k == {rng.randint(0, n - 1)}"])

    def guarded(self, indent, probability, statement):
        if self.rng.random() < probability:
            self.emit(indent, f"exoam.if {self.guard()} {{")
            statement(indent + 2)
            self.emit(indent, "}")
        else:
            statement(indent)

    def await_(self, indent, barrier, n, threads):
        self.emit(indent, f"exoam.await @{barrier}[] full = "
                          f"qfull(cuda_in_order) temp = qtmp(cuda_in_order) "
                          f"n = {n} threads {threads}")

    def arrive(self, indent, barrier, pre, threads):
        self.emit(indent, f"exoam.arrive transitive pre = qfull({pre}) >> "
                          f"@{barrier}[] threads {threads}")

    def stage(self, offset=0):
        if self.stages == 1:
            return "@S[0]"
        return f"@S[(%k + {offset}) mod {self.stages}]"

    def produce(self, indent):
        rng = self.rng
        producer = self.producer()
        # Back-pressure: the release `lag` stages back, now and then
        # skipped.
        if rng.random() < 0.95:
            self.guarded(indent, 0.1, lambda i: self.await_(
                i, "empty", -(self.lag + 1), producer))
        window = self.stage()
        # A TMA-like copy, whose write completes on `full`, or a store.
        tma = rng.random() < 0.5
        timeline = "tma_to_smem_async_qual" if tma else "cuda_in_order_ram_qual"
        for kind in ("check_mutates", "check_reads"):
            self.emit(indent, f"exoam.{kind} temporally_ordered {window} on "
                              f"[{timeline}] for write threads {producer}")
        self.emit(indent, f"exoam.clear_reads {window}")
        self.emit(indent, f"exoam.clear_mutates {window}")
        level, completion = (("unordered", " >> @full[]") if tma else
                             ("fully_ordered", ""))
        self.emit(indent, f"exoam.record_mutate {level} {window} on "
                          f"{timeline}{completion} threads {producer}")
        if tma:
            self.emit(indent, f"exoam.complete >> @full[] threads {producer}")
        pre = "tma_to_smem_async" if tma else "cuda_in_order"
        self.guarded(indent, 0.1,
                     lambda i: self.arrive(i, "full", pre, producer))
        if rng.random() < 0.1:
            # The producer waits for its own latest phase (N = 0).
            self.await_(indent, "full", 0, producer)

    def consume(self, indent, first):
        """The consumers' part of an iteration; `first`: they come before
        the producer's, and read the stage of the iteration before."""
        rng = self.rng
        # One collective, or two taking turns (several collectives).
        split = None
        if rng.random() < 0.1 and self.consumer_size >= 2:
            split = rng.choice([0, 1])
        consumers = self.consumers(split)
        n = -1 if rng.random() < 0.96 else 0
        self.guarded(indent, 0.1, lambda i: self.await_(i, "full", n,
                                                        consumers))
        offset = -1 if first else 0
        if rng.random() < 0.15:
            offset += rng.choice([-1, 1])
        window = self.stage(offset % self.stages)

        def read(i):
            self.emit(i, f"exoam.check_mutates fully_ordered {window} on "
                         f"[cuda_in_order_ram_qual] for read threads "
                         f"{consumers}")
            self.emit(i, f"exoam.record_read fully_ordered {window} on "
                         f"cuda_in_order_ram_qual threads {consumers}")
        if first:
            self.emit(indent, "exoam.if %k > 0 {")
            read(indent + 2)
            self.emit(indent, "}")
        else:
            read(indent)
        if rng.random() < 0.1:
            self.fence(indent, consumers)
        self.guarded(indent, 0.1, lambda i: self.arrive(
            i, "empty", "cuda_in_order", consumers))

    def fence(self, indent, threads):
        self.emit(indent, f"exoam.fence transitive pre = qfull(cuda_in_order) "
                          f"full = qfull(cuda_in_order) temp = "
                          f"qtmp(cuda_in_order) threads {threads}")

    def program(self):
        rng = self.rng
        t = self.threads
        self.emit(0, "exoam.proc @fuzz() {")
        self.emit(2, f"exoam.loop %task in (0, {self.tasks}) {{")
        self.emit(4, "exoam.inc_task_id")
        self.emit(4, f"exoam.alloc @S[{self.stages}]")
        ring = f" ring {self.depth}" if rng.random() < 0.95 else ""
        self.emit(4, f"exoam.alloc barrier @full[]{ring}")
        self.emit(4, f"exoam.alloc barrier @empty[]{ring}")
        consumer_first = rng.random() < 0.25
        self.emit(4, f"exoam.loop %k in (0, {self.trip}) {{")
        for part in ([lambda i: self.consume(i, True), self.produce]
                     if consumer_first else
                     [self.produce, lambda i: self.consume(i, False)]):
            part(6)
            if rng.random() < 0.08:
                # A rendezvous of everyone between the two (a wait cycle
                # when the consumers wait first).
                self.fence(6, f"gpu[{t}]")
        self.emit(4, "}")
        # Now and then one await too many (which no release completes).
        if rng.random() < 0.1:
            self.await_(4, "empty", -(self.lag + 1), self.producer())
        self.fence(4, f"gpu[{t}]")
        for barrier in ("full", "empty"):
            self.emit(4, f"exoam.check_barrier @{barrier}[]")
        for kind in ("check_reads", "check_mutates"):
            self.emit(4, f"exoam.{kind} temporally_ordered @S[0 to "
                         f"{self.stages - 1}] on [cuda_in_order_ram_qual] "
                         f"for free threads gpu[{t}]")
        self.emit(2, "}")
        self.emit(0, "}")
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
    parser.add_argument("--shape", default="all",
                        choices=["all", "k-loop", "host-loop", "ring"])
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
    host_loops = replaying = rings = rings_failing = 0
    shapes = {"all": [Generator, HostLoopGenerator, RingGenerator],
              "k-loop": [Generator], "host-loop": [HostLoopGenerator],
              "ring": [RingGenerator]}[args.shape]
    while time.monotonic() < deadline:
        shape = shapes[runs % len(shapes)]
        text = shape(rng).program()
        box = run(tool, text, "replay-remarks=true")
        plain = run(tool, text, "bulk-loops=false replay-tasks=false")
        reference = run(tool, text, "engine=reference")
        runs += 1
        reached = "steady state" in box[1]
        steady += reached
        host_loops += shape is HostLoopGenerator
        rings += shape is RingGenerator
        rings_failing += shape is RingGenerator and box[0] != 0
        replaying += bool(re.search(r"task\(s\) ran, [1-9]", box[1]))
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
    print(f"{runs} programs ({host_loops} host loops, {rings} rings of "
          f"which {rings_failing} rejected), {steady} reached a steady state "
          f"({steady_failing} of them rejected later), {replaying} with "
          f"replayed tasks, {failing} rejected, {findings} disagreement(s)")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
