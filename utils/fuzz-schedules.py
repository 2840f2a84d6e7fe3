#!/usr/bin/env python3
"""Differential fuzzer of the checked scheduling rewrites (issue 36).

The rewrites (docs/scheduling.md) promise Exo's guarantee: each either
preserves the sequential meaning of the proc or refuses without changing the
IR. This fuzzer tests the promise on programs nobody wrote by hand:

  1. it generates a random module: procs with size parameters and
     preconditions, loops that may run zero times (`seq(2, N)`, bounds that
     use outer iterators), guards (some over extended ranges, paper Sec. 8),
     windows (of windows) and splits of constant dimensions by a divisor
     (exogpu.split), reductions, allocations sized by parameters,
     calls of helper procs with preconditions, and CPU instructions for
     `replace`; every access stays in bounds and no value is read before it
     is written, at every size the preconditions allow;
  2. exogpu-opt --exogpu-test-random-schedule applies random rewrite
     sequences with random parameters to a copy `P_scheduled` of each proc
     P: a refused rewrite must leave the module unchanged and an applied one
     must leave it valid (the pass reports both, test/lib/Scheduling);
  3. exogpu-run --compare runs each P_scheduled against P at random sizes
     that satisfy P's precondition, always including the smallest ones
     (where loops are empty): the outputs must agree, and the rewritten proc
     must not fail a run-time check the original passes.

A crash, a hang, a refused rewrite that changed the IR, invalid IR after an
applied one, different values, or a new run-time failure is a finding: the
module, the command and the shortest failing prefix of the rewrite sequence
(found by replaying it with fewer steps) are written to --out.

Usage: utils/fuzz-schedules.py [--build build] [--seconds 60 | --modules N]
                               [--seed 1] [--steps 60] [--sizes 3]
                               [--timeout 60] [--out fuzz-schedules-findings]
Exit status 1 when something was found.
"""

import argparse
import collections
import itertools
import os
import pathlib
import random
import re
import shutil
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
CRASH_BANNER = "PLEASE submit a bug report"
HEADER = "target = cpu, unit = standalone_thread, cuda = \"\""

# CPU instructions `replace` can select: one whose body determines every
# parameter, one with a size parameter it solves, and one whose leading
# dimension only the caller can give (`args {ld = ...}`).
INSTRUCTIONS = f"""\
exogpu.instr @fill4(%dst: f32[4] @DRAM) {HEADER} {{
  exogpu.for %i in seq(0, 4) {{
    exogpu.assign %dst[%i] = 0.0 : f32[4] @DRAM
  }}
}}
exogpu.instr @axpy2(%n: size, %y: f32[%n] @DRAM, %x: f32[%n] @DRAM) {HEADER} {{
  exogpu.for %i in seq(0, %n) {{
    exogpu.reduce %y[%i] += %x[%i] * 0.000244140625 : f32[?] @DRAM, f32[?] @DRAM
  }}
}}
exogpu.instr @copy4_ld(%ld: size, %dst: f32[%ld] @DRAM, %src: f32[4] @DRAM) {HEADER} {{
  exogpu.for %i in seq(0, 4) {{
    exogpu.assign %dst[%i] = %src[%i] : f32[?] @DRAM, f32[4] @DRAM
  }}
}}
"""


# --------------------------------------------------------------------------
# Control expressions: linear forms over names, plus `mod` and `/` of them.
# --------------------------------------------------------------------------

class Lin:
    """sum(coef * name) + const."""

    def __init__(self, const=0, terms=None):
        self.const = const
        self.terms = {k: v for k, v in (terms or {}).items() if v}

    @staticmethod
    def var(name):
        return Lin(0, {name: 1})

    def __add__(self, other):
        other = other if isinstance(other, Lin) else Lin(other)
        terms = dict(self.terms)
        for k, v in other.terms.items():
            terms[k] = terms.get(k, 0) + v
        return Lin(self.const + other.const, terms)

    def __sub__(self, other):
        other = other if isinstance(other, Lin) else Lin(other)
        return self + other.scaled(-1)

    def scaled(self, c):
        return Lin(self.const * c, {k: v * c for k, v in self.terms.items()})

    def key(self):
        return (self.const, tuple(sorted(self.terms.items())))

    def __eq__(self, other):
        return isinstance(other, Lin) and self.key() == other.key()

    def __hash__(self):
        return hash(self.key())

    def is_const(self):
        return not self.terms

    def at_least(self, mins):
        """The smallest value when every name is at least its minimum in
        `mins` (1 by default; sizes) and the coefficients are non-negative;
        None otherwise."""
        if any(v < 0 for v in self.terms.values()):
            return None
        return self.const + sum(v * mins.get(k, 1)
                                for k, v in self.terms.items())

    def value(self, env):
        return self.const + sum(v * env[k] for k, v in self.terms.items())

    def text(self):
        parts = []
        for k, v in sorted(self.terms.items()):
            term = f"%{k}" if abs(v) == 1 else f"{abs(v)} * %{k}"
            parts.append(("-" if v < 0 else "+", term))
        if self.const or not parts:
            parts.append(("-" if self.const < 0 else "+", str(abs(self.const))))
        text = ""
        for i, (sign, term) in enumerate(parts):
            if i == 0:
                text = ("-" if sign == "-" else "") + term
            else:
                text += f" {sign} {term}"
        return text


def shape_text(extents):
    return "[" + ", ".join(str(e.const) if e.is_const() else "?"
                           for e in extents) + "]"


# --------------------------------------------------------------------------
# The program generator
# --------------------------------------------------------------------------

class Buffer:
    def __init__(self, name, extents, window=False, root=None):
        self.name = name
        self.extents = extents  # Lin over size parameters
        self.window = window
        self.root = root or name  # the parameter or allocation

    def type_text(self):
        return ("window " if self.window else "") + "f32" + \
            shape_text(self.extents) + " @DRAM"


class Iterator:
    """A loop iterator whose value lies in [lo_min, hi - r - 1] in every
    iteration where it is `safe` (inside the guard of an extended loop)."""

    def __init__(self, name, lo_min, hi, r, safe=True):
        self.name, self.lo_min, self.hi, self.r, self.safe = \
            name, lo_min, hi, r, safe


class Scope:
    def __init__(self, buffers, iterators):
        self.buffers = list(buffers)
        self.iterators = list(iterators)

    def child(self):
        return Scope(self.buffers, self.iterators)


class Helper:
    """A helper proc: its name, precondition (text over %n) and whether it
    takes a second data parameter f32[2]."""

    def __init__(self, name, pre_text, second):
        self.name, self.pre_text, self.second = name, pre_text, second


class ProcGen:
    """Generates the body of one proc."""

    def __init__(self, rng, sizes, helpers):
        self.rng = rng
        self.sizes = sizes
        self.helpers = helpers
        self.names = itertools.count()
        self.lines = []
        self.written = set()
        self.read = set()
        # The smallest value of each size where the statement being
        # generated runs (a guard `N > 2` raises it to 3).
        self.mins = {}

    def fresh(self, prefix):
        return f"{prefix}{next(self.names)}"

    def emit(self, depth, text):
        self.lines.append("  " * (depth + 1) + text)

    # -- indices -----------------------------------------------------------

    def index(self, scope, extent):
        """A control expression within [0, extent) wherever it runs."""
        rng = self.rng
        low = extent.at_least(self.mins)
        options = []
        for it in scope.iterators:
            if not it.safe:
                continue
            v = Lin.var(it.name)
            if it.hi == extent:
                off = rng.randint(-it.lo_min, it.r)
                options.append((v + off).text())
                options.append((extent - 1 - v).text())
                options.append(f"%{it.name} / 2")
            elif (extent - it.hi).is_const() and (extent - it.hi).const > 0:
                d = (extent - it.hi).const
                options.append((v + rng.randint(-it.lo_min, it.r + d)).text())
            elif it.hi.is_const() and low is not None:
                top = low - it.hi.const + it.r
                if top >= -it.lo_min:
                    options.append((v + rng.randint(-it.lo_min, top)).text())
            if low is not None and low >= 2:
                options.append(f"%{it.name} mod {rng.randint(2, min(low, 4))}")
        if low is not None and low >= 1:
            options.append(str(rng.randint(0, min(low - 1, 3))))
            options.append((extent - 1 - rng.randint(0, low - 1)).text())
        return rng.choice(options)

    def indices(self, scope, buffer):
        return ", ".join(self.index(scope, e) for e in buffer.extents)

    def use(self, buffer, types):
        if buffer.name not in [b.name for b in types]:
            types.append(buffer)

    def read_value(self, scope, types):
        """A read of an element in bounds, or a constant."""
        rng = self.rng
        if rng.random() < 0.15:
            return rng.choice(["1.0", "0.5", "-0.75"])
        buffer = rng.choice(scope.buffers)
        self.use(buffer, types)
        self.read.add(buffer.root)
        return f"%{buffer.name}[{self.indices(scope, buffer)}]"

    def value_expr(self, scope, types, scale=1.0):
        """A value whose magnitude is at most `scale` times the largest value
        it reads (plus a constant): statements that run thousands of times
        in a chain stay finite (a NaN or an infinity would fail every
        comparison)."""
        rng = self.rng
        a = self.read_value(scope, types)
        kind = rng.random()
        if kind < 0.3 and scale == 1.0:
            return a
        if kind < 0.5:
            return f"{a} * {scale * rng.choice([0.5, -0.75])!r}"
        b = self.read_value(scope, types)
        op = rng.choice(["+", "-"])
        return f"{a} * {scale * 0.5!r} {op} {b} * {scale * 0.25!r}"

    # -- statements --------------------------------------------------------

    def write(self, depth, scope):
        rng = self.rng
        dest = rng.choice(scope.buffers)
        types = [dest]
        reduce = rng.random() < 0.4
        # A reduction adds a small part: chains of reductions grow slowly.
        value = self.value_expr(scope, types, 2.0 ** -12 if reduce else 1.0)
        self.written.add(dest.root)
        if reduce:
            self.read.add(dest.root)
        op = "reduce" if reduce else "assign"
        arrow = "+=" if reduce else "="
        self.emit(depth, f"exogpu.{op} %{dest.name}[{self.indices(scope, dest)}]"
                  f" {arrow} {value} : "
                  + ", ".join(b.type_text() for b in types))

    def bound_candidates(self, scope):
        """Upper bounds loops run to: extents in scope, sizes, constants."""
        cands = [e for b in scope.buffers for e in b.extents]
        cands += [Lin.var(s) for s in self.sizes]
        cands += [Lin(self.rng.randint(1, 4))]
        return cands

    def loop(self, depth, scope):
        rng = self.rng
        name = self.fresh("i")
        outer = [it for it in scope.iterators if it.safe]
        if outer and rng.random() < 0.2:
            # Bounds that use an outer iterator: seq(0, j) or seq(j, hi).
            j = rng.choice(outer)
            if rng.random() < 0.5:
                header = f"seq(0, %{j.name})"
                it = Iterator(name, 0, j.hi, j.r + 1)
            else:
                header = f"seq(%{j.name}, {(j.hi - j.r).text()})"
                it = Iterator(name, j.lo_min, j.hi, j.r)
            extended = False
        else:
            hi = rng.choice(self.bound_candidates(scope))
            lo = rng.choice([0, 0, 0, 1, 2])
            r = rng.choice([0, 0, 1, 2])
            extended = rng.random() < 0.2
            top = hi - r + (rng.randint(1, 2) if extended else 0)
            header = f"seq({lo}, {top.text()})"
            it = Iterator(name, lo, hi, r, safe=not extended)
        self.emit(depth, f"exogpu.for %{name} in {header} {{")
        inner = scope.child()
        inner.iterators.append(it)
        if extended:
            # The body is guarded back to the safe range (Sec. 8).
            safe = Iterator(name, it.lo_min, it.hi, it.r)
            guarded = inner.child()
            guarded.iterators = [x for x in inner.iterators if x is not it]
            guarded.iterators.append(safe)
            self.emit(depth + 1,
                      f"exogpu.if %{name} < {(it.hi - it.r).text()} {{")
            self.body(depth + 2, guarded, rng.randint(1, 2))
            self.emit(depth + 1, "}")
            if rng.random() < 0.3:
                self.body(depth + 1, inner, 1)
        else:
            self.body(depth + 1, inner, rng.randint(1, 3))
        self.emit(depth, "}")

    def condition(self, scope):
        rng = self.rng
        atoms = []
        for _ in range(rng.randint(1, 2)):
            names = [it.name for it in scope.iterators] + self.sizes
            a = rng.choice(names)
            kind = rng.random()
            if kind < 0.35:
                bound = rng.choice(['%' + s for s in self.sizes] + ['2', '3'])
                atoms.append(f"%{a} < {bound}")
            elif kind < 0.55:
                atoms.append(f"%{a} > {rng.randint(0, 3)}")
            elif kind < 0.75:
                atoms.append(f"%{a} mod 2 == {rng.randint(0, 1)}")
            else:
                atoms.append(f"%{a} <= %{rng.choice(names)} + {rng.randint(0, 2)}")
        joiner = rng.choice([" and ", " or "])
        return joiner.join(atoms)

    def guard(self, depth, scope):
        self.emit(depth, f"exogpu.if {self.condition(scope)} {{")
        self.body(depth + 1, scope.child(), self.rng.randint(1, 2))
        self.emit(depth, "}")

    def alloc(self, depth, scope, extents=None):
        """An allocation sized by parameters, written completely before any
        statement reads it; some take the extents of an earlier one (for
        reuse_buffer)."""
        rng = self.rng
        earlier = [b for b in scope.buffers if b.name.startswith("t")]
        if extents is None and earlier and rng.random() < 0.4:
            extents = rng.choice(earlier).extents
        if extents is None:
            extents = []
            for _ in range(rng.choice([1, 1, 2])):
                if rng.random() < 0.3:
                    extents.append(Lin(rng.randint(2, 5)))
                else:
                    extents.append(Lin.var(rng.choice(self.sizes)) +
                                   rng.randint(0, 2))
        rank = len(extents)
        name = self.fresh("t")
        buffer = Buffer(name, extents)
        dims = ", ".join(e.text() for e in extents)
        self.emit(depth, f"%{name} = exogpu.alloc f32[{dims}] @DRAM")
        ivs = []
        for d, extent in enumerate(extents):
            iv = self.fresh("z")
            ivs.append(iv)
            self.emit(depth + d, f"exogpu.for %{iv} in seq(0, {extent.text()}) {{")
        types = [buffer]
        value = self.value_expr(scope, types)
        self.emit(depth + rank, f"exogpu.assign %{name}[{', '.join('%' + v for v in ivs)}]"
                  f" = {value} : " + ", ".join(b.type_text() for b in types))
        for d in reversed(range(rank)):
            self.emit(depth + d, "}")
        scope.buffers.append(buffer)

    def guarded_alloc(self, depth, scope):
        """`if N > k: t = alloc f32[N - k]; ...`: an extent that would be
        negative where the guard fails (lift_alloc, remove_if)."""
        rng = self.rng
        size = rng.choice(self.sizes)
        k = rng.randint(1, 3)
        self.emit(depth, f"exogpu.if %{size} > {k} {{")
        old = self.mins.get(size, 1)
        self.mins[size] = max(old, k + 1)
        inner = scope.child()
        self.alloc(depth + 1, inner, [Lin.var(size) - k])
        self.body(depth + 1, inner, rng.randint(1, 2))
        self.mins[size] = old
        self.emit(depth, "}")

    def window_coords(self, scope, source, keep_one=True):
        """Coordinates of a window of `source` and the window's extents."""
        rng = self.rng
        coords, extents = [], []
        for d, extent in enumerate(source.extents):
            low = extent.at_least(self.mins)
            kind = rng.random()
            last = d == len(source.extents) - 1 and not extents and keep_one
            if kind < 0.3 and not last:
                coords.append(self.index(scope, extent))
            elif kind < 0.5 and not extent.is_const():
                coords.append(":")
                extents.append(extent)
            elif low is not None and low >= 2 and kind < 0.75:
                c1 = rng.randint(0, low - 1)
                c2 = rng.randint(0, low - 1 - c1)
                coords.append(f"{c1}:{(extent - c2).text()}")
                extents.append(extent - c1 - c2)
            else:
                coords.append(f"0:{extent.text()}")
                extents.append(extent)
        return coords, extents

    def window(self, depth, scope):
        splittable = [b for b in scope.buffers
                      if any(e.is_const() and e.const >= 2 for e in b.extents)]
        if splittable and self.rng.random() < 0.4:
            # exogpu.split of a constant dimension by one of its divisors.
            source = self.rng.choice(splittable)
            d = self.rng.choice([d for d, e in enumerate(source.extents)
                                 if e.is_const() and e.const >= 2])
            extent = source.extents[d].const
            factor = self.rng.choice([f for f in range(2, extent + 1)
                                      if extent % f == 0])
            extents = list(source.extents)
            extents[d:d + 1] = [Lin(extent // factor), Lin(factor)]
            name = self.fresh("s")
            self.emit(depth, f"%{name} = exogpu.split %{source.name} dim {d}"
                      f" by {factor} : {source.type_text()}")
            scope.buffers.append(Buffer(name, extents, window=True,
                                        root=source.root))
            return
        source = self.rng.choice(scope.buffers)
        coords, extents = self.window_coords(scope, source)
        name = self.fresh("w")
        self.emit(depth, f"%{name} = exogpu.window %{source.name}"
                  f"[{', '.join(coords)}] : {source.type_text()}")
        scope.buffers.append(Buffer(name, extents, window=True,
                                    root=source.root))

    def call(self, depth, scope):
        """A call of a helper on windows, guarded by its precondition."""
        rng = self.rng
        helper = rng.choice(self.helpers)
        candidates = [b for b in scope.buffers
                      if any(e.at_least(self.mins) is not None for e in b.extents)]
        if not candidates:
            return self.write(depth, scope)
        first = rng.choice(candidates)
        coords = []
        dim = rng.choice([d for d, e in enumerate(first.extents)
                          if e.at_least(self.mins) is not None])
        for d, extent in enumerate(first.extents):
            if d != dim:
                coords.append(self.index(scope, extent))
                continue
            low = extent.at_least(self.mins)
            c1 = rng.randint(0, low - 1)
            coords.append(f"{c1}:{extent.text()}")
            n = extent - c1
        args = [f"%{first.name}[{', '.join(coords)}]"]
        types = [first]
        if helper.second:
            # Arguments never alias (Exo's rule; the callee's rewrites
            # assume it).
            others = [b for b in scope.buffers if b.root != first.root and
                      any((e.at_least(self.mins) or 0) >= 2 for e in b.extents)]
            if not others:
                return self.write(depth, scope)
            second = rng.choice(others)
            sd = rng.choice([d for d, e in enumerate(second.extents)
                             if (e.at_least(self.mins) or 0) >= 2])
            scoords = []
            for d, extent in enumerate(second.extents):
                if d == sd:
                    c = rng.randint(0, extent.at_least(self.mins) - 2)
                    scoords.append(f"{c}:{c + 2}")
                else:
                    scoords.append(self.index(scope, extent))
            args.append(f"%{second.name}[{', '.join(scoords)}]")
            types.append(second)
            self.written.add(second.root)
        self.written.add(first.root)
        guarded = helper.pre_text is not None
        if guarded:
            self.emit(depth, f"exogpu.if {helper.pre_text.replace('%n', '(' + n.text() + ')')} {{")
        self.emit(depth + guarded, f"exogpu.call @{helper.name}[{n.text()}]"
                  f"({', '.join(args)}) : "
                  + ", ".join(b.type_text() for b in types))
        if guarded:
            self.emit(depth, "}")

    def instr_shape(self, depth, scope):
        """A loop shaped like one of INSTRUCTIONS, for `replace`."""
        rng = self.rng
        wide = [(b, d) for b in scope.buffers for d, e in enumerate(b.extents)
                if (e.at_least(self.mins) or 0) >= 4]
        if not wide:
            return self.write(depth, scope)
        buffer, dim = rng.choice(wide)
        iv = self.fresh("i")
        inner = scope.child()
        inner.iterators.append(Iterator(iv, 0, Lin(4), 0))

        def coords(b, d, c):
            return ", ".join(f"%{iv} + {c}" if k == d else
                             self.index(inner, e)
                             for k, e in enumerate(b.extents))
        c = rng.randint(0, buffer.extents[dim].at_least(self.mins) - 4)
        self.written.add(buffer.root)
        self.emit(depth, f"exogpu.for %{iv} in seq(0, 4) {{")
        if rng.random() < 0.5:
            self.emit(depth + 1, f"exogpu.assign %{buffer.name}"
                      f"[{coords(buffer, dim, c)}] = 0.0 : {buffer.type_text()}")
        else:
            src, sdim = rng.choice(wide)
            types = [buffer]
            self.use(src, types)
            self.read.add(src.root)
            sc = rng.randint(0, src.extents[sdim].at_least(self.mins) - 4)
            op, arrow, scale = rng.choice(
                [("assign", "=", ""), ("reduce", "+=", " * 0.000244140625")])
            if op == "reduce":
                self.read.add(buffer.root)
            self.emit(depth + 1, f"exogpu.{op} %{buffer.name}"
                      f"[{coords(buffer, dim, c)}] {arrow} %{src.name}"
                      f"[{coords(src, sdim, sc)}]{scale} : "
                      + ", ".join(b.type_text() for b in types))
        self.emit(depth, "}")

    def body(self, depth, scope, count):
        rng = self.rng
        for _ in range(count):
            kind = rng.random()
            if depth > 4 or kind < 0.27:
                self.write(depth, scope)
            elif kind < 0.49:
                self.loop(depth, scope)
            elif kind < 0.58:
                self.guard(depth, scope)
            elif kind < 0.64:
                self.alloc(depth, scope)
            elif kind < 0.69:
                self.guarded_alloc(depth, scope)
            elif kind < 0.79:
                self.window(depth, scope)
            elif kind < 0.88 and self.helpers:
                self.call(depth, scope)
            else:
                self.instr_shape(depth, scope)


PRECONDITIONS = [
    (None, lambda env: True),
    ("%N mod 2 == 0", lambda env: env["N"] % 2 == 0),
    ("%N >= 3", lambda env: env["N"] >= 3),
    ("%N mod 4 == 1", lambda env: env["N"] % 4 == 1),
]
TWO_SIZE_PRECONDITIONS = [
    ("%M <= %N", lambda env: env["M"] <= env["N"]),
    ("%N mod 2 == 0 and %M >= 2", lambda env: env["N"] % 2 == 0 and env["M"] >= 2),
]
HELPER_PRECONDITIONS = [
    (None, lambda env: True),
    ("%n < 4", lambda env: env["n"] < 4),
    ("%n mod 2 == 1", lambda env: env["n"] % 2 == 1),
]


class Proc:
    def __init__(self, name, text, sizes, pre_fn):
        self.name, self.text, self.sizes, self.pre_fn = \
            name, text, sizes, pre_fn


def finish_proc(gen, name, sizes, params, pre_text, pre_fn):
    """The proc's text; outputs are made read-write (a write-only output
    would start poisoned, and elements no statement writes would fail the
    comparison)."""
    for buffer in params:
        if buffer.name in gen.written and buffer.name not in gen.read:
            gen.emit(0, f"exogpu.reduce %{buffer.name}"
                     f"[{', '.join('0' for _ in buffer.extents)}] += 1.0 : "
                     f"{buffer.type_text()}")
    signature = [f"%{s}: size" for s in sizes]
    signature += [f"%{b.name}: f32[{', '.join(e.text() for e in b.extents)}] @DRAM"
                  for b in params]
    head = f"exogpu.proc @{name}({', '.join(signature)})"
    if pre_text:
        head += f" requires {pre_text}"
    return Proc(name, "\n".join([head + " {"] + gen.lines + ["}"]) + "\n",
                sizes, pre_fn)


def random_params(rng, sizes, count):
    params = []
    for k in range(count):
        rank = rng.choice([1, 1, 2])
        extents = []
        for _ in range(rank):
            if rng.random() < 0.25:
                extents.append(Lin(rng.randint(2, 6)))
            else:
                extents.append(Lin.var(rng.choice(sizes)) + rng.randint(0, 3))
        params.append(Buffer("xyzabc"[k], extents))
    return params


def generate_module(rng):
    procs, helpers = [], []
    for h in range(rng.choice([0, 1, 1, 2])):
        pre_text, pre_fn = rng.choice(HELPER_PRECONDITIONS)
        second = rng.random() < 0.4
        name = f"h{h}"
        params = [Buffer("a", [Lin.var("n")])]
        if second:
            params.append(Buffer("b", [Lin(2)]))
        gen = ProcGen(rng, ["n"], [])
        scope = Scope(params, [])
        gen.body(0, scope, rng.randint(1, 3))
        procs.append(finish_proc(gen, name, ["n"], params, pre_text, pre_fn))
        helpers.append(Helper(name, pre_text, second))
    sizes = ["N"] if rng.random() < 0.6 else ["N", "M"]
    options = PRECONDITIONS + (TWO_SIZE_PRECONDITIONS if len(sizes) == 2 else [])
    pre_text, pre_fn = rng.choice(options)
    params = random_params(rng, sizes, rng.randint(1, 3))
    gen = ProcGen(rng, sizes, helpers)
    scope = Scope(params, [])
    gen.body(0, scope, rng.randint(2, 5))
    procs.append(finish_proc(gen, "p", sizes, params, pre_text, pre_fn))
    text = INSTRUCTIONS + "".join(p.text for p in procs)
    return text, procs


# --------------------------------------------------------------------------
# Running the tools
# --------------------------------------------------------------------------

def size_sets(rng, proc, count):
    """Size assignments satisfying the precondition: the smallest first."""
    ranges = [range(1, 10)] * len(proc.sizes)
    valid = [dict(zip(proc.sizes, values))
             for values in itertools.product(*ranges)]
    valid = [env for env in valid if proc.pre_fn(env)]
    if not valid:
        return []
    valid.sort(key=lambda env: (sum(env.values()), sorted(env.items())))
    chosen = [valid[0]]
    rest = valid[1:]
    rng.shuffle(rest)
    chosen += rest[:count - 1]
    return chosen


def run(args, timeout):
    """(exit status or "timeout", output). A run past the timeout is tried
    once more with four times as long: on a loaded machine a slow run is not
    a hang."""
    for limit in (timeout, 4 * timeout):
        try:
            result = subprocess.run(args, stdout=subprocess.PIPE,
                                    stderr=subprocess.STDOUT, text=True,
                                    timeout=limit)
            return result.returncode, result.stdout
        except subprocess.TimeoutExpired as e:
            out = e.stdout.decode() if isinstance(e.stdout, bytes) \
                else (e.stdout or "")
    return "timeout", out


class Fuzzer:
    def __init__(self, options):
        self.options = options
        self.bin = pathlib.Path(options.build) / "bin"
        self.out = pathlib.Path(options.out)
        self.counts = collections.Counter()
        self.per_rewrite = collections.defaultdict(lambda: [0, 0])
        self.findings = []

    def schedule(self, module_path, seed, steps, output):
        return run([str(self.bin / "exogpu-opt"), str(module_path),
                    "--mlir-disable-threading",
                    f"--exogpu-test-random-schedule=seed={seed} steps={steps}"
                    " trace=true", "-o", str(output)], self.options.timeout)

    @staticmethod
    def schedule_failure(rc, output):
        """Why a scheduling run failed, or None."""
        if rc == "timeout":
            return "hang"
        if CRASH_BANNER in output or (isinstance(rc, int) and rc < 0) or \
                "LLVM ERROR" in output:
            return "crash"
        if "refused but changed the IR" in output:
            return "refused rewrite changed the IR"
        if "left invalid IR" in output or "invalid IR" in output:
            return "invalid IR"
        if rc != 0:
            return "exogpu-opt error"
        return None

    def compare(self, path, proc, env):
        sizes = ",".join(f"{k}={v}" for k, v in env.items())
        rc, output = run([str(self.bin / "exogpu-run"), str(path),
                          f"--proc={proc}_scheduled", f"--compare={proc}",
                          f"--sizes={sizes}", "-O0"], self.options.timeout)
        if rc == 0:
            return None, sizes
        if rc == "timeout":
            return "hang in exogpu-run", sizes
        if CRASH_BANNER in output or (isinstance(rc, int) and rc < 0):
            return "exogpu-run crash", sizes
        if "FAILED" in output:
            return "values differ", sizes
        # A run-time check failed or the procs did not lower: the original's
        # doing (a generator bug) or the rewritten proc's?
        rc2, _ = run([str(self.bin / "exogpu-run"), str(path),
                      f"--proc={proc}", f"--sizes={sizes}", "-O0"],
                     self.options.timeout)
        if rc2 != 0:
            return "original fails", sizes
        if "failed a run-time check" in output:
            return "new run-time failure", sizes
        return "scheduled proc does not run: " + \
            (output.strip().splitlines() or ["?"])[-1][:120], sizes

    def last_step(self, output, proc=None):
        """The rewrite that failed, or the last one applied to `proc`."""
        error = re.search(r"error: random schedule of (@\w+: step [^\n]*)",
                          output)
        if error:
            return error.group(1)
        pattern = (r"remark: (@" + (proc + "_scheduled" if proc else r"\w+") +
                   r" step \d+: [^\n]*)")
        steps = re.findall(pattern, output)
        applied = [s for s in steps if " (refused" not in s]
        return applied[-1] if applied else (steps[-1] if steps else "?")

    def shortest_prefix(self, work, module_path, seed, failing):
        """The fewest steps that still fail (`failing(output_path)`)."""
        lo, hi = 0, self.options.steps
        while lo + 1 < hi:
            mid = (lo + hi) // 2
            out = work / f"prefix{mid}.mlir"
            rc, output = self.schedule(module_path, seed, mid, out)
            if failing(rc, output, out):
                hi = mid
            else:
                lo = mid
        out = work / f"prefix{hi}.mlir"
        rc, output = self.schedule(module_path, seed, hi, out)
        return hi, output

    def record(self, index, kind, text, detail, module_seed, steps, output):
        self.counts["finding: " + kind] += 1
        folder = self.out / f"finding{len(self.findings):03d}"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "module.mlir").write_text(text)
        (folder / "report.txt").write_text(
            f"module {index} (fuzzer seed {self.options.seed}): {kind}\n"
            f"{detail}\n"
            f"replay: exogpu-opt module.mlir --mlir-disable-threading "
            f"'--exogpu-test-random-schedule=seed={module_seed} "
            f"steps={steps} trace=true'\n\n{output}")
        self.findings.append((kind, detail))
        print(f"FINDING {len(self.findings) - 1}: {kind}: {detail}",
              flush=True)

    def one_module(self, index):
        rng = random.Random(f"{self.options.seed}-{index}")
        text, procs = generate_module(rng)
        work = self.out / "work"
        work.mkdir(parents=True, exist_ok=True)
        module_path = work / "module.mlir"
        module_path.write_text(text)
        self.counts["modules"] += 1
        # The generated module must be valid on its own.
        rc, output = run([str(self.bin / "exogpu-opt"), str(module_path),
                          "-o", os.devnull], self.options.timeout)
        if rc != 0:
            self.counts["generator errors"] += 1
            if self.counts["generator errors"] <= 3:
                print(f"generator error (module {index}):\n{output[:2000]}",
                      file=sys.stderr)
            return
        seed = rng.randint(1, 1 << 30)
        scheduled = work / "scheduled.mlir"
        rc, output = self.schedule(module_path, seed, self.options.steps,
                                   scheduled)
        applied = sum(int(n) for n in re.findall(
            r"random schedule of @\w+: (\d+) of", output))
        self.counts["rewrites applied"] += applied
        self.counts["rewrites tried"] += len(re.findall(r"remark: @\w+ step", output))
        for name, rest in re.findall(
                r"remark: @\w+ step \d+: (\w+)([^\n]*)", output):
            self.per_rewrite[name][0 if " (refused" in rest else 1] += 1
        failure = self.schedule_failure(rc, output)
        if failure:
            first = output
            steps, output = self.shortest_prefix(
                work, module_path, seed,
                lambda rc, out, _: self.schedule_failure(rc, out) == failure)
            if self.schedule_failure(*self.schedule(
                    module_path, seed, steps, work / "again.mlir")) != failure:
                # Not reproducible (a run killed from outside, memory).
                steps, output = self.options.steps, first
            self.record(index, failure, text, self.last_step(output), seed,
                        steps, output)
            return
        for proc in procs:
            for env in size_sets(rng, proc, self.options.sizes):
                self.counts["comparisons"] += 1
                verdict, sizes = self.compare(scheduled, proc.name, env)
                if verdict is None:
                    continue
                if verdict == "original fails":
                    self.counts["generator: original fails"] += 1
                    if self.counts["generator: original fails"] <= 3:
                        print(f"generator: @{proc.name} fails at {sizes} "
                              f"(module {index})", file=sys.stderr)
                    continue

                def failing(rc, out, path, proc=proc, env=env,
                            verdict=verdict):
                    if self.schedule_failure(rc, out):
                        return False
                    return self.compare(path, proc.name, env)[0] == verdict
                steps, output = self.shortest_prefix(work, module_path, seed,
                                                     failing)
                self.record(index, verdict, text,
                            f"@{proc.name}_scheduled at {sizes} after "
                            f"{self.last_step(output, proc.name)}", seed,
                            steps, output)
                return

    def main(self):
        start = time.time()
        index = 0
        while True:
            if self.options.modules and index >= self.options.modules:
                break
            if not self.options.modules and \
                    time.time() - start >= self.options.seconds:
                break
            self.one_module(index)
            index += 1
            if index % 25 == 0:
                print(f"{index} modules, {int(time.time() - start)} s: "
                      f"{dict(self.counts)}", flush=True)
        print(f"fuzz-schedules: {index} modules in {int(time.time() - start)} s;"
              f" {dict(self.counts)}")
        print("fuzz-schedules: applied/refused per rewrite: " + ", ".join(
            f"{name} {applied}/{refused}" for name, (refused, applied)
            in sorted(self.per_rewrite.items())))
        by_kind = collections.Counter(kind for kind, _ in self.findings)
        print(f"fuzz-schedules: {len(self.findings)} finding(s)"
              + "".join(f"; {k}: {v}" for k, v in sorted(by_kind.items())))
        shutil.rmtree(self.out / "work", ignore_errors=True)
        return 1 if self.findings else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default=str(ROOT / "build"))
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--modules", type=int, default=0,
                        help="a fixed number of modules instead of --seconds")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--steps", type=int, default=60,
                        help="rewrites tried per proc")
    parser.add_argument("--sizes", type=int, default=3,
                        help="size assignments compared per proc")
    parser.add_argument("--timeout", type=float, default=60)
    parser.add_argument("--out", default="fuzz-schedules-findings")
    parser.add_argument("--print-module", type=int, default=None,
                        help="print generated module N and exit")
    options = parser.parse_args()
    if options.print_module is not None:
        rng = random.Random(f"{options.seed}-{options.print_module}")
        print(generate_module(rng)[0])
        return 0
    return Fuzzer(options).main()


if __name__ == "__main__":
    sys.exit(main())
