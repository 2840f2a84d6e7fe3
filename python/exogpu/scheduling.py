"""Scheduling from Python, as in Exo: checked rewrites as functions on procs.

    from exogpu.scheduling import *

    g = divide_loop(gemm, "i", 128, ["m2", "mi"], perfect=True)
    g = reorder_loops(g, "mi")
    g = stage_mem(g, label("compute"), "A[m2 * 128 : m2 * 128 + 128, ...]",
                  "A_smem", CudaSmemLinear)

Each function takes a proc and returns a new one; the proc passed is left
as it was. It runs the rewrite as the Transform-dialect op
`transform.exogpu.*` (docs/scheduling.md, which gives each op's legality
condition) with `exogpu-opt --transform-interpreter`: the checks are the
tools', and a refused rewrite raises `exogpu.ToolError` at the Python line
of the call, with the notes of the refusal at the kernel's lines.

Statements are named by cursors, found anew in each proc:

* `"k"`: the loop with iterator `k`; `"k #1"` the second such loop (Exo's
  convention: the first match unless `#n` says otherwise);
* a statement in Python syntax, `_` matching anything: `"for k in _"`,
  `"C[_] += _"`, `"acc[_] = _"`, `"A_smem: _"`, `"Fence(_)"`;
  `"Sm80_mma_tf32(_)"` is any call of it; `pattern(text)` takes the
  dialect's own spelling;
* `label("compute")`, `kind("assign")`; `cursor.find("mm")` searches inside
  a cursor's statements, `cursor.block(n)` is a statement and the `n - 1`
  that follow it, `cursor.body()` the statements of a loop or block;
  `every("cta")` applies the rewrite to every match in turn.

A buffer is named by its allocation's name (`"A_smem"`). Expressions,
windows and conditions are text in the proc's syntax: `"K / 16"`,
`"A[m2 * 128 : m2 * 128 + 128, k1 * 16 : k1 * 16 + 16]"`, `"k > 0"`.
"""

from __future__ import annotations

import dataclasses
import os
import re
import sys
import tempfile
import warnings
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

from . import tools
from .errors import (Diagnostic, Location, ToolError, parse_diagnostics,
                     quote_python_line)
from .frontend import vocabulary as v
from .frontend.libraries import LibraryInstr
from .frontend.procs import Callable, Proc, derived
from .frontend.expressions import mlir_string
from .source import Source

_HANDLE = "!transform.any_op"


@dataclasses.dataclass(frozen=True)
class Cursor:
    """A way to find statements of a proc: a chain of steps, each a match
    (`criteria`), a block of `count` statements, or a body."""

    steps: Tuple[Tuple[str, Any], ...]
    each: bool = False  # apply the rewrite to every statement found

    def find(self, where: Union[str, "Cursor"]) -> "Cursor":
        """The statements `where` names inside this cursor's statements."""
        inner = as_cursor(where)
        return Cursor(self.steps + inner.steps, inner.each)

    def block(self, count: int) -> "Cursor":
        """This statement and the `count - 1` statements after it."""
        return Cursor(self.steps + (("block", count),), self.each)

    def body(self) -> "Cursor":
        """The statements of this loop's (or block's) body."""
        return Cursor(self.steps + (("body", None),), self.each)

    def __repr__(self) -> str:
        return "".join(f".{kind}({value!r})" for kind, value in self.steps)


def _match(nth: Optional[int] = 0, **criteria: str) -> Cursor:
    criteria = {k: value for k, value in criteria.items() if value}
    if nth is not None:
        criteria["nth"] = nth
    return Cursor((("match", tuple(sorted(criteria.items()))),))


def label(name: str, nth: int = 0) -> Cursor:
    """The statement labelled `name` (set_label; loop rewrites keep it)."""
    return _match(nth, label=name)


def kind(name: str, nth: int = 0) -> Cursor:
    """The statement of this kind: "for", "if", "assign", "reduce", "call",
    "alloc", "window", "fence", "arrive", "await", ... or an expression kind
    ("read", "add", "mul", ...)."""
    return _match(nth, kind=name)


def pattern(text: str, nth: int = 0) -> Cursor:
    """A statement whose printed dialect text matches (`_` matches any
    text): `pattern("reduce C[_] += _")`, `pattern("call @Sm80_mma(_)")`."""
    return _match(nth, pattern=text)


_NTH = re.compile(r"^(?P<text>.*?)\s*#(?P<nth>-?\d+)$")
_NAME = re.compile(r"^[A-Za-z_]\w*$")


def as_cursor(where: Union[str, Cursor]) -> Cursor:
    """A cursor from a loop name, a Python-syntax pattern or a Cursor."""
    if isinstance(where, Cursor):
        return where
    if not isinstance(where, str):
        raise TypeError(f"a cursor is a string or a Cursor, got {where!r}")
    text, nth = where.strip(), 0
    numbered = _NTH.match(text)
    if numbered:
        text, nth = numbered.group("text"), int(numbered.group("nth"))
    if _NAME.match(text):
        return _match(nth, iter=text)
    call = _ANY_CALL.match(text)
    if call and call.group("name") not in ("Fence", "Arrive", "Await"):
        return _match(nth, kind="call", callee=call.group("name"))
    return _match(nth, pattern=_dialect_pattern(text))


def every(where: Union[str, Cursor]) -> Cursor:
    """Every statement `where` names (not only the first): the rewrite is
    applied to each in turn."""
    cursor = as_cursor(where)
    kind_, criteria = cursor.steps[-1]
    if kind_ != "match":
        raise TypeError("every() takes a loop name, a pattern or a match")
    last = tuple((k, value) for k, value in criteria if k != "nth")
    return Cursor(cursor.steps[:-1] + (("match", last),), each=True)


# `f(_)` or `f(_) >> _`: any call of f.
_ANY_CALL = re.compile(r"^(?P<name>[A-Za-z_]\w*)\(_\)(\s*>>\s*_)?$")
_WRITE = re.compile(r"^(?P<target>[A-Za-z_]\w*(\[.*\])?)\s*(?P<op>\+?=)\s*"
                    r"(?P<value>.*)$")
_CALL = re.compile(r"^(?P<name>[A-Za-z_]\w*)\((?P<rest>.*)$")
_ALLOC = re.compile(r"^(?P<name>[A-Za-z_]\w*)\s*:\s*(?P<type>.*)$")


def _dialect_pattern(text: str) -> str:
    """A statement pattern in the Python frontend's syntax -> the dialect's
    printed spelling that transform.exogpu.match compares with."""
    text = re.sub(r"\s*%\s*", " mod ", text)
    text = re.sub(r"@\s+", "@", text)
    if re.match(r"^(for|if)\b", text):
        return text.rstrip(":")
    alloc = _ALLOC.match(text)
    if alloc:
        return f"{alloc.group('name')} = alloc {alloc.group('type')}"
    write = _WRITE.match(text)
    if write:
        target = write.group("target")
        if "[" not in target:
            target += "[]"
        op = "reduce" if write.group("op") == "+=" else "assign"
        return f"{op} {target} {write.group('op')} {write.group('value')}"
    call = _CALL.match(text)
    if call:
        name = call.group("name")
        if name in ("Fence", "Arrive", "Await"):
            return name.lower() + "(" + call.group("rest")
        return f"call @{name}(" + call.group("rest")
    raise ValueError(f"cannot read the statement pattern {text!r}: use a "
                     "loop name, `for ...`, `if ...`, `x: _`, `x[_] = _`, "
                     "`x[_] += _`, `f(_)`, or pattern() with the dialect's "
                     "spelling")


Where = Union[str, Cursor]


# -- Running a rewrite -----------------------------------------------------


@dataclasses.dataclass
class _Call:
    """Where the user called a scheduling function."""

    file: str
    line: int
    column: int

    def loc(self) -> str:
        return f"loc({mlir_string(self.file)}:{self.line}:{self.column})"


def _caller() -> _Call:
    """The first frame outside this module."""
    frame = sys._getframe(1)
    while frame is not None and frame.f_globals.get("__name__") == __name__:
        frame = frame.f_back
    if frame is None:
        return _Call("<unknown>", 0, 0)
    column = 1
    positions = getattr(frame.f_code, "co_positions", None)
    if positions is not None:
        for index, position in enumerate(positions()):
            if index == frame.f_lasti // 2 and position[2] is not None:
                column = position[2] + 1
                break
    return _Call(os.path.abspath(frame.f_code.co_filename), frame.f_lineno,
                 column)


class _Script:
    """A transform script for one rewrite of proc `proc`."""

    def __init__(self, proc: str, call: _Call):
        self.proc = proc
        self.call = call
        self.lines: List[str] = []
        self.count = 0

    def fresh(self) -> str:
        self.count += 1
        return f"%h{self.count}"

    def emit(self, text: str) -> None:
        self.lines.append(f"    {text} {self.call.loc()}")

    def handle(self, cursor: Cursor) -> str:
        """Emits the matches of `cursor`; returns the handle."""
        current = "%root"
        for kind_, value in cursor.steps:
            result = self.fresh()
            if kind_ == "match":
                criteria = dict(value)
                text = "".join(f" {key} {mlir_string(criteria[key])}"
                               for key in ("kind", "iter", "label",
                                           "pattern", "callee")
                               if key in criteria)
                text += f" proc {mlir_string(self.proc)}"
                if "nth" in criteria:
                    text += f" nth {criteria['nth']}"
                self.emit(f"{result} = transform.exogpu.match{text} in "
                          f"{current} : ({_HANDLE}) -> {_HANDLE}")
            elif kind_ == "block":
                self.emit(f"{result} = transform.exogpu.get_block {current} "
                          f"count {value} : ({_HANDLE}) -> {_HANDLE}")
            else:
                self.emit(f"{result} = transform.exogpu.get_body {current} "
                          f": ({_HANDLE}) -> {_HANDLE}")
            current = result
        return current

    def proc_handle(self) -> str:
        """A handle to the proc op itself."""
        statement = self.handle(_match(0, proc=self.proc))
        result = self.fresh()
        self.emit(f"{result} = transform.get_parent_op {statement} "
                  f"{{op_name = \"exogpu.proc\"}} : ({_HANDLE}) -> {_HANDLE}")
        return result

    def text(self) -> str:
        return ("module attributes {transform.with_named_sequence} {\n"
                "  transform.named_sequence @__transform_main(%root: "
                f"{_HANDLE} {{transform.readonly}}) {{\n" +
                "\n".join(self.lines) +
                "\n    transform.yield\n  }\n}\n")


def _functional_type(operands: int, results: int) -> str:
    ins = ", ".join([_HANDLE] * operands)
    outs = ", ".join([_HANDLE] * results)
    return f"({ins}) -> ({outs})" if results != 1 else f"({ins}) -> {outs}"


def _rewrite(proc: Proc, op: str, targets: Sequence[Where], after: str = "",
             results: int = 0, typed: str = "functional",
             labels: Optional[Dict[int, str]] = None,
             proc_target: bool = False, before: str = "",
             joiner: str = ", ") -> str:
    """Runs `transform.exogpu.<op> <before><targets><after>` on `proc` (the
    targets' handles separated by `joiner`); returns the printed module.
    `typed` is "functional" (`: (in) -> (out)`) or "plain" (`: type,
    type`); `labels` labels results by index."""
    if not isinstance(proc, Proc):
        raise TypeError(f"{op}: expected a proc, got {proc!r}")
    call = _caller()
    script = _Script(proc.name, call)
    if proc_target:
        handles = [script.proc_handle()]
        each = False
    else:
        cursors = [as_cursor(t) for t in targets]
        handles = [script.handle(c) for c in cursors]
        each = any(c.each for c in cursors)
    if each and len(handles) != 1:
        raise TypeError(f"{op}: every() takes one target")
    operands = handles
    if each:
        item = script.fresh()
        script.lines.append(f"    transform.foreach {handles[0]} : "
                            f"{_HANDLE} {{")
        script.lines.append(f"    ^bb0({item}: {_HANDLE}):")
        operands = [item]
    names = [script.fresh() for _ in range(results)]
    head = (", ".join(names) + " = ") if names else ""
    if typed == "functional":
        types = _functional_type(len(operands), results)
    else:
        types = ", ".join([_HANDLE] * len(operands))
    script.emit(f"{head}transform.exogpu.{op} {before}"
                + joiner.join(operands) + f"{after} : {types}")
    for index, name in (labels or {}).items():
        script.emit(f"transform.exogpu.set_label {names[index]} "
                    f"{mlir_string(name)} : {_HANDLE}")
    if each:
        script.emit("transform.yield")
        script.lines.append("    } " + call.loc())
    return _run(proc, op, call, script.text())


def _run(proc: Proc, op: str, call: _Call, script: str) -> str:
    source = Source(proc)
    with tempfile.NamedTemporaryFile("w", suffix=".mlir",
                                     prefix="exogpu-schedule-") as file:
        file.write(script)
        file.flush()
        stage = f"rewrite {op}"
        try:
            output = tools.run_tool(
                "exogpu-opt",
                [f"--transform-preload-library=transform-library-paths="
                 f"{file.name}", "--transform-interpreter",
                 "--mlir-print-debuginfo", "--mlir-print-local-scope"],
                stage, source, on_success=lambda stderr: _warn(stderr, call))
        except ToolError as error:
            raise _at_call(error, call) from None
    return output


def _at_call(error: ToolError, call: _Call) -> ToolError:
    """The refusal located at the Python line of the call; the statement it
    names (a line of the kernel) becomes the first note."""
    where = Location(call.file, call.line, call.column)
    diagnostics = list(error.diagnostics)
    first = next((i for i, d in enumerate(diagnostics)
                  if d.severity == "error"), None)
    if first is None or diagnostics[first].location == where:
        return error
    refused = diagnostics[first]
    statement = Diagnostic("note", "at this statement", refused.location,
                           refused.source_line)
    moved = Diagnostic("error", refused.message, where,
                       notes=([statement] if refused.location else []) +
                       refused.notes)
    quote_python_line(moved)
    diagnostics[first] = moved
    return ToolError(error.stage, diagnostics, error.output)


def _warn(stderr: str, call: _Call) -> None:
    """Warnings of a successful rewrite (an unsafe step) as Python
    warnings at the line of the call."""
    for diagnostic in parse_diagnostics(stderr):
        if diagnostic.severity == "warning":
            warnings.warn_explicit(diagnostic.format(), UserWarning,
                                   call.file, call.line)


# -- Reading procs back ------------------------------------------------------

_LOC = re.compile(r'loc\("((?:[^"\\]|\\.)*)":(\d+):(\d+)\)$')


def _unescape(text: str) -> str:
    """The string an MLIR string literal's body spells (`\\22` is `"`,
    `\\\\` a backslash, other `\\XX` escapes bytes of UTF-8)."""
    data = bytearray()
    index = 0
    while index < len(text):
        if text[index] == "\\" and text[index + 1:index + 2] == "\\":
            data += b"\\"
            index += 2
        elif text[index] == "\\":
            data.append(int(text[index + 1:index + 3], 16))
            index += 3
        else:
            data += text[index].encode()
            index += 1
    return data.decode(errors="replace")


def _op_lines(module: str, name: str) -> List[str]:
    """The printed lines of `exogpu.proc @name` in a printed module."""
    lines = module.splitlines()
    start = next((i for i, line in enumerate(lines)
                  if line.startswith(f"  exogpu.proc @{name}(")), None)
    if start is None:
        raise ToolError(f"reading @{name} back", [],
                        f"the rewritten module has no proc @{name}")
    end = next(i for i in range(start + 1, len(lines))
               if lines[i].startswith("  }"))
    return [line[2:] for line in lines[start:end + 1]]


def _locations(lines: Sequence[str]) -> List[Optional[Location]]:
    """The location of each printed line: its trailing `loc(...)`, or for
    a line opening a region, that of the line closing it."""
    found: List[Optional[Location]] = [None] * len(lines)
    opened: List[int] = []
    for index, line in enumerate(lines):
        match = _LOC.search(line)
        if match:
            found[index] = Location(_unescape(match.group(1)),
                                    int(match.group(2)), int(match.group(3)))
        if line.rstrip().endswith("{"):
            opened.append(index)
        elif line.lstrip().startswith("}") and opened:
            found[opened.pop()] = found[index]
    return found


def _rewritten(proc: Proc, module: str, name: Optional[str] = None) -> Proc:
    """`proc` as the rewritten module holds it (or the proc `name` the
    rewrite made of it)."""
    lines = _op_lines(module, name or proc.name)
    return derived(proc, name=name, lines=lines, locations=_locations(lines))


# -- Loops (docs/scheduling.md "Loops") ----------------------------------


def _str(text: Any) -> str:
    """An expression argument as text (ints and Python objects allowed)."""
    return mlir_string(str(text).replace("//", "/"))


def divide_loop(proc: Proc, loop: Where, quotient: int,
                new_iters: Sequence[str], tail: str = "guard",
                perfect: bool = False) -> Proc:
    """`for x in seq(lo, hi)` -> `for o: for i in seq(0, q)`; `tail` is
    "guard", "cut" or "perfect" (`perfect=True`)."""
    outer, inner = new_iters
    tail = "perfect" if perfect else tail
    return _rewritten(proc, _rewrite(
        proc, "divide_loop", [loop],
        f" by {quotient} into {mlir_string(outer)}, "
        f"{mlir_string(inner)} tail {mlir_string(tail)}", results=3))


def reorder_loops(proc: Proc, loop: Where) -> Proc:
    """`for i: for j: s` -> `for j: for i: s` (the outer loop named)."""
    return _rewritten(proc, _rewrite(proc, "reorder_loops", [loop], "",
                                     results=2))


def fission(proc: Proc, gap: Where, n_lifts: int = 1) -> Proc:
    """Splits the `n_lifts` enclosing loops and guards after `gap`."""
    return _rewritten(proc, _rewrite(proc, "fission", [gap],
                                     f" levels {n_lifts}", results=2,
                                     before="after "))


def fuse(proc: Proc, first: Where, second: Where) -> Proc:
    """Two consecutive loops (or guards) with equal bounds -> one."""
    return _rewritten(proc, _rewrite(proc, "fuse", [first, second],
                                     "", results=1))


def unroll_loop(proc: Proc, loop: Where) -> Proc:
    return _rewritten(proc, _rewrite(proc, "unroll_loop", [loop], "",
                                     results=1))


def cut_loop(proc: Proc, loop: Where, cut: Any) -> Proc:
    return _rewritten(proc, _rewrite(proc, "cut_loop", [loop],
                                     f" at {_str(cut)}", results=2))


def shift_loop(proc: Proc, loop: Where, new_lo: Any) -> Proc:
    return _rewritten(proc, _rewrite(proc, "shift_loop", [loop],
                                     f" to {_str(new_lo)}", results=1))


def extend_loop(proc: Proc, loop: Where, lo: Any, hi: Any) -> Proc:
    """Runs the loop over `[lo, hi)`, its body guarded by the old bounds."""
    return _rewritten(proc, _rewrite(proc, "extend_loop", [loop],
                                     f" to {_str(lo)}, {_str(hi)}",
                                     results=1))


def remove_loop(proc: Proc, loop: Where) -> Proc:
    return _rewritten(proc, _rewrite(proc, "remove_loop", [loop], "",
                                     results=1))


def add_loop(proc: Proc, block: Where, iter: str, hi: Any,
             guard: bool = False) -> Proc:
    """`s` -> `for iter in seq(0, hi): s` (`if iter == 0` with guard)."""
    return _rewritten(proc, _rewrite(
        proc, "add_loop", [block], f" {mlir_string(iter)} to "
        f"{_str(hi)}" + (" guard" if guard else ""), results=1))


def lift_scope(proc: Proc, scope: Where) -> Proc:
    return _rewritten(proc, _rewrite(proc, "lift_scope", [scope], "",
                                     results=1))


def mult_loops(proc: Proc, loop: Where, new_iter: str) -> Proc:
    return _rewritten(proc, _rewrite(proc, "mult_loops", [loop],
                                     f" into {mlir_string(new_iter)}",
                                     results=1))


# -- Statements and expressions ------------------------------------------


def reorder_stmts(proc: Proc, first: Where, second: Where) -> Proc:
    return _rewritten(proc, _rewrite(proc, "reorder_stmts", [first, second],
                                     "", typed="plain"))


def bind_expr(proc: Proc, expr: Where, new_name: str,
              memory: Optional[v.Memory] = None) -> Proc:
    text = f" {mlir_string(new_name)}"
    if memory is not None:
        text += f" memory {mlir_string(memory.mlir_text())}"
    return _rewritten(proc, _rewrite(proc, "bind_expr", [expr], text,
                                     results=2))


def rewrite_expr(proc: Proc, stmt: Where, index: int, expr: Any) -> Proc:
    return _rewritten(proc, _rewrite(proc, "rewrite_expr", [stmt],
                                     f" at {index} to {_str(expr)}",
                                     typed="plain"))


def inline_assign(proc: Proc, stmt: Where) -> Proc:
    return _rewritten(proc, _rewrite(proc, "inline_assign", [stmt], ""))


def commute_expr(proc: Proc, expr: Where) -> Proc:
    return _rewritten(proc, _rewrite(proc, "commute_expr", [expr], "",
                                     typed="plain"))


def simplify(proc: Proc) -> Proc:
    """Affine simplification of every control expression (under the loop
    bounds), constant guards removed."""
    return _rewritten(proc, _rewrite(proc, "simplify", [], "",
                                     typed="plain", proc_target=True))


def eliminate_dead_code(proc: Proc, stmt: Where) -> Proc:
    return _rewritten(proc, _rewrite(proc, "eliminate_dead_code", [stmt],
                                     "", results=1))


def remove_if(proc: Proc, guard: Where, unsafe: bool = False) -> Proc:
    return _rewritten(proc, _rewrite(proc, "remove_if", [guard],
                                     " unsafe" if unsafe else "",
                                     results=1))


# -- Buffers ---------------------------------------------------------------


def _buffer(name: Union[str, Cursor]) -> Cursor:
    """The allocation of buffer `name`."""
    if isinstance(name, Cursor):
        return name
    return _match(0, kind="alloc", pattern=f"{name} = alloc _")


def lift_alloc(proc: Proc, buffer: Union[str, Cursor],
               n_lifts: int = 1) -> Proc:
    return _rewritten(proc, _rewrite(proc, "lift_alloc", [_buffer(buffer)],
                                     f" levels {n_lifts}",
                                     typed="plain"))


def sink_alloc(proc: Proc, buffer: Union[str, Cursor]) -> Proc:
    return _rewritten(proc, _rewrite(proc, "sink_alloc", [_buffer(buffer)],
                                     "", typed="plain"))


def expand_dim(proc: Proc, buffer: Union[str, Cursor], size: Any,
               index: Any) -> Proc:
    """A new leading dimension of extent `size`, indexed by `index`."""
    return _rewritten(proc, _rewrite(proc, "expand_dim", [_buffer(buffer)],
                                     f" size {_str(size)} index "
                                     f"{_str(index)}", typed="plain"))


def divide_dim(proc: Proc, buffer: Union[str, Cursor], dim: int,
               quotient: int) -> Proc:
    return _rewritten(proc, _rewrite(proc, "divide_dim", [_buffer(buffer)],
                                     f" dim {dim} by {quotient}",
                                     typed="plain"))


def mult_dim(proc: Proc, buffer: Union[str, Cursor], hi: int,
             lo: int) -> Proc:
    return _rewritten(proc, _rewrite(proc, "mult_dim", [_buffer(buffer)],
                                     f" dims {hi}, {lo}",
                                     typed="plain"))


def rearrange_dim(proc: Proc, buffer: Union[str, Cursor],
                  permutation: Sequence[int]) -> Proc:
    return _rewritten(proc, _rewrite(
        proc, "rearrange_dim", [_buffer(buffer)],
        " [" + ", ".join(str(p) for p in permutation) + "]",
        typed="plain"))


def resize_dim(proc: Proc, buffer: Union[str, Cursor], dim: int, size: Any,
               offset: Any = 0, fold: bool = False) -> Proc:
    """Extent `size` from `offset`; `fold=True` makes a ring (`i mod n`)."""
    text = f" dim {dim} size {_str(size)}"
    if str(offset) != "0":
        text += f" offset {_str(offset)}"
    if fold:
        text += " fold"
    return _rewritten(proc, _rewrite(proc, "resize_dim", [_buffer(buffer)],
                                     text, typed="plain"))


def delete_buffer(proc: Proc, buffer: Union[str, Cursor]) -> Proc:
    return _rewritten(proc, _rewrite(proc, "delete_buffer",
                                     [_buffer(buffer)], ""))


def reuse_buffer(proc: Proc, kept: Union[str, Cursor],
                 replaced: Union[str, Cursor]) -> Proc:
    return _rewritten(proc, _rewrite(proc, "reuse_buffer",
                                     [_buffer(kept), _buffer(replaced)],
                                     typed="plain", joiner=" for "))


def set_memory(proc: Proc, buffer: str, memory: v.Memory) -> Proc:
    """The memory of an allocation, or of a parameter of the proc."""
    if _is_parameter(proc, buffer):
        return _rewritten(proc, _rewrite(
            proc, "set_memory", [], f" param {mlir_string(buffer)} "
            f"to {mlir_string(memory.mlir_text())}", typed="plain",
            proc_target=True))
    return _rewritten(proc, _rewrite(proc, "set_memory", [_buffer(buffer)],
                                     f" to "
                                     f"{mlir_string(memory.mlir_text())}",
                                     typed="plain"))


def set_precision(proc: Proc, buffer: str, precision: v.Precision) -> Proc:
    if _is_parameter(proc, buffer):
        return _rewritten(proc, _rewrite(
            proc, "set_precision", [], f" param "
            f"{mlir_string(buffer)} to {precision.mlir_text()}",
            typed="plain", proc_target=True))
    return _rewritten(proc, _rewrite(proc, "set_precision",
                                     [_buffer(buffer)],
                                     f" to {precision.mlir_text()}",
                                     typed="plain"))


def _is_parameter(proc: Proc, name: str) -> bool:
    header = proc.op_text().text.splitlines()[0]
    return re.search(rf"[(,]\s*%{re.escape(name)}:", header) is not None


def stage_mem(proc: Proc, block: Where, window: str, new_name: str,
              memory: v.Memory, accum: bool = False,
              load_label: Optional[str] = None,
              store_label: Optional[str] = None) -> Proc:
    """Copies `window` into a new buffer `new_name` in `memory` before the
    block and back after it, redirecting the block's accesses; the copies
    can be labelled to find them later."""
    labels = {index: name for index, name in ((1, load_label),
                                              (2, store_label)) if name}
    return _rewritten(proc, _rewrite(
        proc, "stage_mem", [block], f" window {_str(window)} into "
        f"{mlir_string(new_name)} memory "
        f"{mlir_string(memory.mlir_text())}" + (" accum" if accum else ""),
        results=3, labels=labels))


def inline_window(proc: Proc, window: Union[str, Cursor]) -> Proc:
    """`w = x[...]; s` -> `s[w -> x[...]]` (the window named by its
    name)."""
    target = window if isinstance(window, Cursor) else _match(
        0, kind="window", pattern=f"{window} = window _")
    return _rewritten(proc, _rewrite(proc, "inline_window", [target], ""))


def bind_window(proc: Proc, block: Where, buffer: str, new_name: str,
                special: Optional[v.SpecialWindow] = None) -> Proc:
    """The block's accesses of `buffer` go through a new window (a TMA
    tensor map with `special=Sm90_tensorMap(...)`)."""
    text = (f" buffer {mlir_string(buffer)} into "
            f"{mlir_string(new_name)}")
    if special is not None:
        text += " special " + mlir_string(special.mlir_text()[1:])
    return _rewritten(proc, _rewrite(proc, "bind_window", [block], text,
                                     results=1))


# -- Procs and instructions ------------------------------------------------


def _symbol(target: Any) -> str:
    if isinstance(target, LibraryInstr):
        return target.name
    if isinstance(target, Callable):
        return target.exogpu_symbol
    raise TypeError(f"expected a proc or an instruction, got {target!r}")


def replace(proc: Proc, block: Where, instr: Any,
            args: Optional[Dict[str, Any]] = None,
            barrier: Optional[str] = None) -> Proc:
    """The block -> a call of `instr` (an instruction of a library, such as
    `sm90a.Sm90_mma_async_tf32_m64n256k8`, or an @instr) when the block
    unifies with its body; `args` gives parameters the body does not
    determine, `barrier` the call's `>> z[...]`."""
    text = f" with @{_symbol(instr)}"
    if args:
        text += " args {" + ", ".join(f"{key} = {_str(value)}"
                                      for key, value in args.items()) + "}"
    if barrier is not None:
        text += f" barrier {_str(barrier)}"
    linked = _linking(proc, instr)
    return _rewritten(linked, _rewrite(linked, "replace", [block], text,
                                       results=1))


def _linking(proc: Proc, target: Any) -> Proc:
    """`proc` with `target` (an instruction of a library, a Python proc or
    instruction) among what its module imports or holds, so that a rewrite
    can call it."""
    callees, libraries = proc.callees, proc.libraries
    if isinstance(target, LibraryInstr):
        if all(target.library is not known for known in libraries):
            libraries.append(target.library)
    elif isinstance(target, Callable):
        if all(target is not known for known in callees):
            callees.append(target)
    else:
        raise TypeError(f"expected an instruction or a proc, got "
                        f"{target!r}")
    return derived(proc, callees=callees, libraries=libraries)


def inline(proc: Proc, call: Where) -> Proc:
    return _rewritten(proc, _rewrite(proc, "inline", [call], "",
                                     results=1))


def extract_subproc(proc: Proc, block: Where,
                    name: str) -> Tuple[Proc, Proc]:
    """The block -> a call of a new proc `name` (its parameters: the control
    values and buffers the block uses); returns (the proc, the new one)."""
    module = _rewrite(proc, "extract_subproc", [block],
                      f" {mlir_string(name)}", results=2)
    extracted = _rewritten(proc, module, name)
    caller = _rewritten(proc, module)
    return derived(caller, callees=caller.callees + [extracted]), extracted


def copy_proc(proc: Proc, name: str) -> Proc:
    """A copy of the proc named `name`, known to be equivalent to it
    (`call_eqv` swaps calls of the two)."""
    module = _rewrite(proc, "copy_proc", [], f" {mlir_string(name)}",
                      results=1, proc_target=True)
    copy = _rewritten(proc, module, name)
    # Its module holds the original, which it names as its equivalent.
    return derived(copy, callees=copy.callees + [proc])


def call_eqv(proc: Proc, call: Where, other: Proc) -> Proc:
    linked = _linking(proc, other)
    return _rewritten(linked, _rewrite(linked, "call_eqv", [call],
                                       f" @{_symbol(other)}",
                                       typed="plain"))


# -- GPU annotations ---------------------------------------------------------


def set_loop_mode(proc: Proc, loop: Where, mode: v.Keyword,
                  unit: Optional[v.CollUnit] = None) -> Proc:
    """The loop's mode (`seq`, `cuda_tasks`, `cuda_threads`) and unit."""
    text = f" {mlir_string(mode.name)}"
    if unit is not None:
        text += f" unit {mlir_string(unit.mlir_text())}"
    return _rewritten(proc, _rewrite(proc, "set_loop_mode", [loop], text,
                                     typed="plain"))


def wrap_device_function(proc: Proc, loop: Where, tasks: int,
                         clusterDim: int = 1,
                         blockDim: Optional[int] = None,
                         warp_config: Optional[Sequence[v.CudaWarpConfig]]
                         = None,
                         params_to: Optional[v.Memory] = None) -> Proc:
    """Launches the loop nest as a kernel (`with CudaDeviceFunction`), its
    `tasks` outermost loops becoming `cuda_tasks`."""
    attributes = []
    if clusterDim != 1:
        attributes.append(f"clusterDim = {clusterDim}")
    if blockDim is not None:
        attributes.append(f"blockDim = {blockDim}")
    if warp_config is not None:
        attributes.append("warps = [" + ", ".join(
            f"#exogpu.warp_group<{g.mlir_text()}>" for g in warp_config)
            + "]")
    text = f" tasks {tasks}"
    if params_to is not None:
        text += f" params_to {mlir_string(params_to.mlir_text())}"
    text += " {" + ", ".join(attributes) + "}"
    return _rewritten(proc, _rewrite(proc, "wrap_device_function", [loop],
                                     text, results=1))


def wrap_warps(proc: Proc, block: Where, name: Optional[str] = None,
               lo: Optional[int] = None, hi: Optional[int] = None) -> Proc:
    """`with CudaWarps(lo, hi, name=...)` around the block."""
    text = ""
    if name is not None:
        text += f" name {mlir_string(name)}"
    if lo is not None or hi is not None:
        text += f" range [{lo}, {hi}]"
    return _rewritten(proc, _rewrite(proc, "wrap_warps", [block], text,
                                     results=1))


def _guard(guard: Optional[str]) -> str:
    return f" guard {_str(guard)}" if guard is not None else ""


def insert_fence(proc: Proc, stmt: Where, position: str, pre: v.Timeline,
                 post: v.Timeline, guard: Optional[str] = None) -> Proc:
    """`Fence(pre, post)` at `position` ("before", "after", "start",
    "end") of the statement."""
    return _rewritten(proc, _rewrite(
        proc, "insert_fence", [stmt], f" at {mlir_string(position)} "
        f"{mlir_string(pre.name)}, {mlir_string(post.name)}{_guard(guard)}",
        results=1))


def insert_arrive(proc: Proc, stmt: Where, position: str,
                  timeline: v.Timeline, count: int, barriers: Sequence[str],
                  guard: Optional[str] = None) -> Proc:
    """`Arrive(timeline, count) >> barriers...` at `position`."""
    targets = "[" + ", ".join(_str(b) for b in barriers) + "]"
    return _rewritten(proc, _rewrite(
        proc, "insert_arrive", [stmt], f" at {mlir_string(position)} "
        f"{mlir_string(timeline.name)} count {count} to {targets}"
        f"{_guard(guard)}", results=1))


def insert_await(proc: Proc, stmt: Where, position: str, barrier: str,
                 timeline: v.Timeline, count: int,
                 guard: Optional[str] = None) -> Proc:
    """`Await(barrier, timeline, count)` at `position` (`~n` as in the
    language: a ring of depth n)."""
    return _rewritten(proc, _rewrite(
        proc, "insert_await", [stmt], f" at {mlir_string(position)} "
        f"{_str(barrier)} {mlir_string(timeline.name)} count {count}"
        f"{_guard(guard)}", results=1))


def insert_barrier_alloc(proc: Proc, stmt: Where, position: str, name: str,
                         shape: Sequence[int],
                         mechanism: v.BarrierKind) -> Proc:
    """`name: barrier[shape] @ mechanism` at `position`."""
    return _rewritten(proc, _rewrite(
        proc, "insert_barrier_alloc", [stmt],
        f" at {mlir_string(position)} {mlir_string(name)} [" +
        ", ".join(str(d) for d in shape) +
        f"] {mlir_string(mechanism.name)}" +
        (" guarded" if mechanism.guarded else ""), results=1))


def set_trailing_barrier(proc: Proc, call: Where,
                         barrier: Optional[str] = None) -> Proc:
    text = f" {_str(barrier)}" if barrier is not None else ""
    return _rewritten(proc, _rewrite(proc, "set_trailing_barrier", [call],
                                     text, typed="plain"))


def set_label(proc: Proc, stmt: Where, name: str) -> Proc:
    """Labels the statement: `label(name)` finds it after later rewrites."""
    return _rewritten(proc, _rewrite(proc, "set_label", [stmt],
                                     f" {mlir_string(name)}",
                                     typed="plain"))


def unsafe_steps(proc: Proc) -> int:
    """How many unchecked rewrites (`remove_if(..., unsafe=True)`) the
    proc's schedule took."""
    header = proc.op_text().text.splitlines()[0]
    found = re.search(r"exogpu\.unsafe_steps = (\d+)", header)
    return int(found.group(1)) if found else 0


__all__ = [
    # cursors
    "Cursor", "as_cursor", "every", "kind", "label", "pattern",
    # loops
    "add_loop", "cut_loop", "divide_loop", "extend_loop", "fission",
    "fuse", "lift_scope", "mult_loops", "remove_loop", "reorder_loops",
    "shift_loop", "unroll_loop",
    # statements and expressions
    "bind_expr", "commute_expr", "eliminate_dead_code", "inline_assign",
    "remove_if", "reorder_stmts", "rewrite_expr", "simplify",
    # buffers
    "bind_window", "delete_buffer", "divide_dim", "expand_dim",
    "inline_window", "lift_alloc", "mult_dim", "rearrange_dim",
    "resize_dim", "reuse_buffer", "set_memory", "set_precision",
    "sink_alloc", "stage_mem",
    # procs and instructions
    "call_eqv", "copy_proc", "extract_subproc", "inline", "replace",
    "unsafe_steps",
    # GPU annotations
    "insert_arrive", "insert_await", "insert_barrier_alloc", "insert_fence",
    "set_label", "set_loop_mode", "set_trailing_barrier",
    "wrap_device_function", "wrap_warps",
]
