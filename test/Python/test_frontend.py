"""The Python frontend (`@exogpu.proc`, `from exogpu.lang import *`):
the text each construct becomes, syntax outside the language as a
FrontendError at its line, the tools' diagnostics at Python lines, and the
fixed interface (p.mlir(), p.check(), compile, meaning, torch_op, python -m
exogpu). The examples' twins (test_examples.py) cover the rest of the
language."""

import ast
import copy
import importlib.util
import json
import pathlib
import random
import re
import subprocess
import sys
import textwrap

import pytest

import exogpu
from exogpu.frontend.files import ProcFile, defined_in, load_file
from exogpu.frontend.translate import Translator

from conftest import EXAMPLES, INPUTS, ROOT

TOUR = INPUTS / "frontend" / "tour.py"
HEADER = """\
from __future__ import annotations
from exogpu.lang import *
from exogpu.stdlib import sm90a

"""


def write(tmp_path, text: str, name: str = "kernel"):
    path = tmp_path / f"{name}.py"
    path.write_text(HEADER + textwrap.dedent(text))
    return path


def line_of(path, fragment: str) -> int:
    """The line (from 1) of the first line of `path` holding `fragment`."""
    lines = path.read_text().splitlines()
    return next(i for i, line in enumerate(lines, 1) if fragment in line)


def exogpu_opt(text: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(exogpu.tools.require_tool("exogpu-opt")),
                           *args], input=text, capture_output=True,
                          text=True)


# -- What each construct becomes ---------------------------------------------


@pytest.fixture(scope="module")
def tour():
    procs = ProcFile(TOUR)
    return procs, procs.mlir()


def statement_lines(text: str):
    """The module's lines without their locations."""
    return [re.sub(r" loc\(.*\)$", "", line).strip()
            for line in text.splitlines()]


def test_the_tour_is_accepted_by_the_tools(tour):
    procs, text = tour
    assert [c.name for c in procs.callables] == [
        "double1", "tma_load_128x32", "host_tour", "device_tour", "scaled",
        "host_and_kernels", "first_chunk", "split_tour"]
    result = exogpu_opt(text)
    assert result.returncode == 0, result.stderr
    # The printed module reads back to itself.
    assert exogpu_opt(result.stdout).stdout == result.stdout


@pytest.mark.parametrize("expected", [
    # @instr: the template, the unit, a parameter's annotations, the body.
    'exogpu.instr @double1(%dst: f32[1] @CudaRmem, %src: f32[1] '
    '@CudaGmemLinear {init = cuda_in_order_ram_qual}) target = cuda, unit = '
    'cuda_thread, cuda = "{dst.0} = {src.0} * 2.0f;" {',
    "exogpu.assign %dst[0] = %src[0] * 2.0 : f32[1] @CudaRmem, f32[1] "
    "@CudaGmemLinear",
    # Parameters of every kind; asserts as one precondition in DNF; module
    # constants.
    "exogpu.proc @host_tour(%N: size, %i0: index, %flag: bool, %h: f32[%N] "
    "@DRAM, %g: f32[%N] @DRAM) requires %N mod 128 == 0 and %N >= 128 and "
    "%N > 0 or %N mod 128 == 0 and %N >= 128 and %flag or %N == 1 and %N > 0 "
    "or %N == 1 and %flag {",
    # `//` and `/` are floor division of control values; data expressions.
    "exogpu.for %i in seq(0, %N / 2) {",
    "exogpu.assign %h[%i] = 2.0 * %h[%i] - %h[%i] / 3.0 + max(%h[%i], -0.5) "
    ": f32[?] @DRAM",
    "exogpu.reduce %g[%i] += exp2(%h[%i]) * log2(%h[%i] + 1.0e-05) : f32[?] "
    "@DRAM, f32[?] @DRAM",
    # else: the negated condition; chained comparisons and != in DNF.
    "exogpu.if %i0 < %N {", "exogpu.if %i0 >= %N {",
    "exogpu.if 0 <= %i0 and %i0 < %N - 1 and %i0 < 3 or 0 <= %i0 and %i0 < "
    "%N - 1 and %i0 > 3 {",
    "exogpu.assign %h[%i0 + 1] = %h[(%i0 + 1) mod 7] : f32[?] @DRAM",
    "exogpu.if %flag {",
    # A scalar: allocated, assigned, reduced, read.
    "%t = exogpu.alloc f32 @DRAM",
    "exogpu.assign %t[] = %h[0] : f32 @DRAM, f32[?] @DRAM",
    "exogpu.reduce %t[] += %g[0] : f32 @DRAM, f32[?] @DRAM",
    "exogpu.assign %h[1] = %t[] : f32[?] @DRAM, f32 @DRAM",
    # A window, a guarded barrier, a Python instruction's call, CudaAsync's
    # body in place, Arrive and Await with the paper's default counts.
    "exogpu.device_function(blockDim = 128) {",
    "%chunk = exogpu.window %x[%task * 128:%task * 128 + 128] : f32[?] "
    "@CudaGmemLinear",
    "%ring = exogpu.alloc barrier[4] @CudaMbarrier guarded",
    "exogpu.call @double1(%acc[:], %chunk[%t:%t + 1]) : f32[1] @CudaRmem, "
    "window f32[128] @CudaGmemLinear",
    "exogpu.assign %chunk[%t] = %acc[0] + 1.0 : window f32[128] "
    "@CudaGmemLinear, f32[1] @CudaRmem",
    "exogpu.arrive(cuda_in_order, 1) >> %bar : barrier @CudaMbarrier",
    "exogpu.await(%bar, cuda_in_order, 0) : barrier @CudaMbarrier",
    # A closure's value.
    "exogpu.assign %h[%i] = %h[%i] * 3.0 : f32[?] @DRAM",
    # Host code: a kernel launched from a host loop, a second kernel with
    # a warp config and warps selected by name and range, a proc call.
    "exogpu.for %rep in seq(0, 2) {",
    'exogpu.device_function(warps = ["producer" = (4, 40, 0), "consumer" = '
    '(4, 0, 232)]) {',
    'exogpu.warps "consumer"(0, 4) {', "exogpu.warps(1, 2) {",
    "%h = exogpu.alloc f32[%N] @DRAM",
    "exogpu.call @scaled[%N](%h) : f32[?] @DRAM",
    # Splits: a dynamic extent stays dynamic, the factor is the new last
    # extent; a tensor map and a window of a split, a call with one (a
    # window where the callee takes a tensor), a split of a window.
    "%A_chunks = exogpu.split %A dim 1 by 128 : f32[?, ?] @CudaGmemLinear",
    "%A_map = exogpu.window %A_chunks[:, :, :] @Sm90_tensorMap(128, 128, 1, "
    "32) : window f32[?, ?, 128] @CudaGmemLinear",
    "exogpu.call @first_chunk[%M, %K / 128, 128](%A_chunks, %out) : window "
    "f32[?, ?, 128] @CudaGmemLinear, f32[?, 128] @CudaGmemLinear",
    "%H_rows = exogpu.split %H dim 0 by 4 : f32[16, 64] @DRAM",
    "%quarter = exogpu.window %H_rows[1, :, :] : window f32[4, 4, 64] @DRAM",
    "%pairs = exogpu.split %quarter dim 1 by 2 : window f32[4, 64] @DRAM",
    "exogpu.assign %pairs[0, 0, 1] = %H_rows[0, 0, 0] : window f32[4, 32, 2] "
    "@DRAM, window f32[4, 4, 64] @DRAM",
])
def test_tour_text(tour, expected):
    assert expected in statement_lines(tour[1])


def test_an_instruction_in_python_is_the_librarys(tour):
    """A library instruction written with @instr prints as the library's
    (the window parameter, the annotations, the barrier, the template)."""
    procs, text = tour
    library = (ROOT / "stdlib" / "sm90a.mlir").read_text()
    library_op = exogpu_opt(library).stdout
    python_op = exogpu_opt(text).stdout

    def instr(printed, name):
        lines = printed.splitlines()
        start = next(i for i, line in enumerate(lines)
                     if line.startswith(f"  exogpu.instr @{name}("))
        end = next(i for i in range(start, len(lines)) if lines[i] == "  }")
        return "\n".join(lines[start:end + 1])
    assert instr(python_op, "tma_load_128x32") == instr(
        library_op, "Sm90_tma_load_128x32_f32").replace(
            "@Sm90_tma_load_128x32_f32", "@tma_load_128x32")


def test_locations_name_the_python_lines(tour):
    procs, _ = tour
    module = procs.module()
    lines = module.text.splitlines()
    index = next(i for i, line in enumerate(lines)
                 if line.strip().startswith("exogpu.reduce %g[%i]"))
    where = module.locations[index]
    assert (where.file, where.line) == (str(TOUR), line_of(
        TOUR, "g[i] += exp2(h[i])"))
    assert where.column == 9
    assert lines[index].endswith(f'loc("{TOUR}":{where.line}:9)')
    # A region op: its location follows its closing brace.
    header = next(i for i, line in enumerate(lines)
                  if "exogpu.for %i in seq(0, %N / 2)" in line)
    assert module.locations[header].line == line_of(TOUR, "for i in seq(0, "
                                                          "N // 2)")


# -- Syntax outside the language ---------------------------------------------

# (the proc's body, a fragment of the line the error is at, the text the
# caret points at (`|` marks the caret inside a longer fragment), a fragment
# of the message)
SYNTAX_ERRORS = [
    ("while True:\n    pass", "while", "while", "a while loop is not a "
     "statement of the ExoGPU language"),
    ("return", "return", "return", "return is not a statement"),
    ("y[0] -= 1.0", "-=", "y", "'-=' is not a statement"),
    ("for i in range(4):\n    pass", "range", "range", "'range' is not a "
     "loop mode"),
    ("for i in seq(0, 4):\n    pass\nelse:\n    pass", "for i", "for",
     "for ... else"),
    ("for i, j in seq(0, 4):\n    pass", "for i", "i, j", "one name"),
    ("for i in cuda_threads(0, 4):\n    pass", "for i", "cuda_threads",
     "cuda_threads needs unit="),
    ("for i in seq(0, 4, unit=cuda_thread):\n    pass", "for i",
     "cuda_thread", "only cuda_threads loops take a unit"),
    ("y[0] = y[0] ** 2.0", "y[0]", "y[0] **", "'**' is not a data operator"),
    ("y[0] = sqrt(y[0])", "sqrt", "sqrt", "is not a data expression"),
    ("y[0] = q", "= q", "q", "name 'q' is not defined"),
    ("for i in seq(0, N / 2.5):\n    pass", "2.5", "2.5", "is not an integer"),
    ("for i in seq(0, N % N):\n    pass", "% N", "N)", "divide by positive "
     "integer constants"),
    ("y[0:2] = 1.0", "y[0:2]", "0:2", "takes a point index here"),
    ("w = y[0:4:2]", "w =", "0:4:2", "windows have no step"),
    ("z = 3", "z = 3", "3", "'z' is not defined: allocate it first"),
    ("acc: f32", "acc", "f32", "a data type needs its memory"),
    ("acc: f32[4] @ seq", "acc", "seq", "expected a memory"),
    ("acc: f32 @ CudaRmem = 0.0", "acc", "acc", "without a value"),
    ("with 3:\n    pass", "with", "3", "is not a block of the language"),
    ("with CudaWarps(0, 1), CudaWarps(1, 2):\n    pass", "with", "with",
     "with takes one block"),
    ("Fence(cuda_in_order)", "Fence", "Fence", "Fence takes two timelines"),
    ("Fence(cuda_in_order, cuda_in_order_rmem_qual)", "Fence",
     "cuda_in_order_rmem_qual", "expected a synchronization timeline"),
    ("bar: barrier @ CudaMbarrier\nArrive(cuda_in_order, 1)", "Arrive",
     "Arrive", "Arrive needs its barrier"),
    ("bar: barrier @ CudaMbarrier\nfor k in seq(0, 4):\n"
     "    Await(bar, cuda_in_order, ~k)", "Await", "k)",
     "the await count (n, or ~n for a ring of depth n) is a compile-time "
     "value; 'k' is a variable of the proc"),
    ("bar: barrier @ CudaMbarrier\nAwait(bar, cuda_in_order, ~1.5)",
     "Await", "~1.5", "TypeError: bad operand type for unary ~"),
    ("Sm90_nope(y[0:4])", "Sm90_nope", "Sm90_nope",
     "unknown instruction or proc 'Sm90_nope': not defined in this module "
     "(before this proc) nor in the libraries it imports (sm90a)"),
    ("sm90a.Sm90_nope(y[0:4])", "Sm90_nope", "sm90a",
     "instruction library 'sm90a' has no instruction 'Sm90_nope'"),
    ("y(0)", "y(0)", "y", "'y' is a variable of the proc"),
    ("for i in seq(0, N):\n    for i in seq(0, 4):\n        pass",
     "seq(0, 4)", "i in seq(0, 4)", "'i' is already defined"),
    ("if flag:\n    y[0] = 1.0\nelse:\n    y[0] = 2.0", "if flag", "if",
     "the dialect cannot negate a bool parameter"),
    ("if not flag:\n    pass", "if not", "not", "cannot be negated"),
    ("y[0] = 1.0\nassert N > 0", "assert", "assert", "assert is a "
     "precondition: it comes first"),
    ('assert N > 0, "positive"', "assert", '"positive"', "has no message"),
    ("y[0] = x[0] if N > 0 else 0.0", "y[0] =", "x[0] if",
     "is not a data expression"),
    ("y[0] = y", "y[0] = y", "= |y", "'y' has rank 1: index it"),
    ("bar: barrier @ CudaMbarrier\nbar[0] = 1.0", "bar[0]", "bar[0]",
     "'bar' is a barrier"),
    ("Await(y[0], cuda_in_order, 0)", "Await", "y[0]",
     "'y' is data, not a barrier"),
    ("for i in seq(0, y):\n    pass", "for i", "y)", "'y' is a buffer"),
    ("for i in seq(0, flag):\n    pass", "for i", "flag", "'flag' is a bool"),
    ("for i in seq(0, NAME):\n    pass", "for i", "NAME", "'NAME' must be an "
     "integer, got 'text'"),
    ("x[0] = 1.0\ndel x", "del", "del", "del is not a statement"),
    ("import math", "import", "import", "import is not a statement"),
    ("y[0] = 1.0 if True else 2.0", "y[0]", "1.0 if", "is not a data "
     "expression"),
    ("y[0] = float('inf')", "y[0]", "float", "is not a data expression"),
    ("y[0] = INF", "y[0]", "INF", "data literals are finite numbers"),
    # Splits: a buffer's name, compile-time integers for a dimension of it
    # and a positive factor.
    ("w = split(x, dim=N, by=4)", "split", "N,", "the split dimension "
     "(dim=) is a compile-time value; 'N' is a variable of the proc"),
    ("w = split(x, dim=NAME, by=4)", "split", "NAME", "the split dimension "
     "(dim=) must be an integer, got 'text'"),
    ("w = split(x, 0, 2.5)", "split", "2.5", "the split factor (by=) must "
     "be an integer, got 2.5"),
    ("w = split(x, dim=True, by=4)", "split", "True", "must be an integer, "
     "got True"),
    ("w = split(x, dim=1, by=4)", "split", "dim=|1", "'x' has rank 1: the "
     "split dimension is 0 to 0, got 1"),
    ("t: f32 @ DRAM\nw = split(t, 0, 2)", "split", "0,", "'t' is a scalar: "
     "it has no dimension to split"),
    ("w = split(x, 0, by=0)", "split", "by=|0", "the split factor (by=) "
     "must be positive, got 0"),
    ("w = split(x, dim=0)", "split", "split", "split takes a buffer, a "
     "dimension and a factor: split(x, dim=1, by=64) or split(x, 1, 64)"),
    ("w = split(x, 0, 4, 2)", "split", "split", "split takes a buffer"),
    ("w = split(x, 0, by=4, dim=0)", "split", "dim=|0", "split takes a "
     "buffer"),
    ("w = split(x, 0, 4, step=1)", "split", "1)", "split takes a buffer"),
    ("w = split(x[0:4], 0, 2)", "split", "x[", "expected a buffer name, got "
     "'x[0:4]'"),
    ("w = split(N, 0, 2)", "split", "N,", "'N' is a control value, not a "
     "buffer"),
    ("bar: barrier[4] @ CudaMbarrier\nw = split(bar, 0, 2)", "split", "bar,",
     "splits are taken of data buffers"),
    ("x[0] = split(y, 0, 2)", "x[0]", "x[0]", "a split is assigned to a new "
     "name"),
    ("y = split(x, 0, 2)", "y = split", "y =", "'y' is already defined"),
    ("split(x, 0, 2)", "split", "split", "split is not called as a statement "
     "here"),
]


@pytest.mark.parametrize("body, at, caret, message", SYNTAX_ERRORS,
                         ids=[case[3][:40] for case in SYNTAX_ERRORS])
def test_syntax_outside_the_language(tmp_path, body, at, caret, message):
    path = write(tmp_path, "NAME = 'text'\nINF = float('inf')\n\n@proc\n"
                 "def f(N: size, flag: bool, x: f32[N] @ CudaGmemLinear,\n"
                 "      y: f32[N] @ DRAM):\n" +
                 textwrap.indent(body, "    ") + "\n")
    with pytest.raises(exogpu.FrontendError) as caught:
        load_file(path)
    error = caught.value
    assert isinstance(error, SyntaxError)
    assert message in error.msg
    lines = path.read_text().splitlines()
    line = next(i for i, text in enumerate(lines, 1)
                if at in text and i > 10)
    assert (error.filename, error.lineno) == (str(path), line)
    assert error.text.rstrip("\n") == lines[line - 1]
    # `|` marks the caret inside a longer fragment.
    before, _, after = caret.rpartition("|")
    column = lines[line - 1].index(before + after) + len(before) + 1
    assert error.offset == column, (error.offset, lines[line - 1])
    assert error.location == exogpu.Location(str(path), line, column)


def test_parameters_are_annotated_names(tmp_path):
    for signature, message in [("N", "parameter 'N' needs a type"),
                               ("N: size = 4", "no defaults"),
                               ("*sizes", "no defaults, *args")]:
        path = write(tmp_path, f"@proc\ndef f({signature}):\n    pass\n")
        with pytest.raises(exogpu.FrontendError, match=re.escape(message)):
            load_file(path)


def test_a_proc_needs_its_source_and_a_function(tmp_path):
    with pytest.raises(TypeError, match="decorate functions"):
        exogpu.proc(3)
    namespace = {}
    exec("from exogpu.lang import *\ndef f(): pass", namespace)
    with pytest.raises(TypeError, match="source of f is not available"):
        exogpu.proc(namespace["f"])
    path = write(tmp_path, "@proc\nasync def f():\n    pass\n")
    with pytest.raises(exogpu.FrontendError, match="procs are not async"):
        load_file(path)


def test_instr_arguments_are_checked(tmp_path):
    with pytest.raises(TypeError, match="@instr takes no argument 'foo'"):
        exogpu.instr(foo=1)
    with pytest.raises(TypeError, match="'cuda' or 'cpu'"):
        exogpu.instr(target="gpu")
    path = write(tmp_path, "@instr(cuda='', unit=seq)\n"
                           "def g(x: f32[1] @ CudaRmem):\n    x[0] = 0.0\n")
    with pytest.raises(exogpu.FrontendError, match="unit must be a "
                                                   "collective unit"):
        load_file(path)
    path = write(tmp_path, "@proc\ndef g(x: f32[1] @ CudaRmem @ Arg()):\n"
                           "    pass\n")
    with pytest.raises(exogpu.FrontendError, match="only instruction "
                                                   "parameters carry"):
        load_file(path)


def test_language_names_are_not_run():
    from exogpu import lang
    with pytest.raises(TypeError, match="ExoGPU reads and never runs"):
        lang.Fence(lang.cuda_in_order, lang.cuda_in_order)
    with pytest.raises(TypeError, match="never runs"):
        exogpu.stdlib.sm90a.Sm90_zero_d_m64n256_f32()
    assert repr(4 * lang.cuda_warp) == "4 * cuda_warp"
    assert repr(lang.Sm90_SmemSwizzled(128)) == "Sm90_SmemSwizzled(128)"
    with pytest.raises(TypeError, match="split is the language's dimension "
                                        "split"):
        lang.split(None, 0, 2)
    assert "exp2" in lang.__all__ and "proc" in lang.__all__
    assert "split" in lang.__all__
    with pytest.raises(ImportError, match="unknown instruction library "
                                          "'sm70'"):
        from exogpu.stdlib import sm70  # noqa: F401


def _mutations(tree: ast.AST, rng: random.Random):
    """Replaces one node of the proc with a node taken from elsewhere in
    the same tree or with a Python construct outside the language."""
    foreign = [ast.parse(text).body[0] for text in (
        "while x: pass", "x = [i for i in y]", "lambda: 0", "x @= y",
        "yield x", "x.y = 1", "global x", "try: pass\nexcept: pass",
        "x = {1: 2}", "x = f'{y}'", "x[...] = 1", "x = y[1:2, ::3]",
        "x = -~y", "x = not y", "x = y is z", "print(x)", "x = 1j",
        "x = b'raw'", "x = (yield)", "raise x", "x = y if z else w")]
    nodes = [node for node in ast.walk(tree) if isinstance(
        node, (ast.stmt, ast.expr))]
    target = rng.choice(nodes)
    replacement = copy.deepcopy(rng.choice(nodes + foreign))
    if isinstance(target, ast.stmt) and not isinstance(replacement, ast.stmt):
        replacement = ast.Expr(replacement)
    if isinstance(target, ast.expr) and isinstance(replacement, ast.stmt):
        replacement = replacement.value if isinstance(
            replacement, ast.Expr) else ast.Name("y", ast.Load())
    for parent in ast.walk(tree):
        for field, value in ast.iter_fields(parent):
            if value is target:
                setattr(parent, field, replacement)
            elif isinstance(value, list) and any(v is target for v in value):
                setattr(parent, field, [replacement if v is target else v
                                        for v in value])
    ast.fix_missing_locations(tree)
    return tree


def test_no_input_crashes_the_frontend():
    """Random edits of the examples' procs: each is translated or refused
    with a FrontendError, never another exception."""
    rng = random.Random(34)
    files = [EXAMPLES / name for name in (
        "sm90a_gemm.py", "sm80_gemm.py", "gemv_shuffle.py",
        "cta_reduction.py", "bug-study/splitk_gemv.py")]
    outcomes = {"translated": 0, "refused": 0}
    for path in files:
        module = load_file(path)
        for procedure in defined_in(module):
            if isinstance(procedure, exogpu.Instr):
                continue
            source = ast.parse(path.read_text())
            original = next(node for node in ast.walk(source)
                            if isinstance(node, ast.FunctionDef) and
                            node.name == procedure.name)
            for _ in range(60):
                mutated = _mutations(copy.deepcopy(original), rng)
                translator = Translator(mutated, dict(vars(module)),
                                        str(path))
                try:
                    translator.translate_proc()
                    outcomes["translated"] += 1
                except exogpu.FrontendError:
                    outcomes["refused"] += 1
    assert outcomes["refused"] > 100 and outcomes["translated"] > 10


# -- The tools' diagnostics at Python lines ---------------------------------


def check_error(path, proc, **sizes) -> exogpu.ToolError:
    with pytest.raises(exogpu.ToolError) as caught:
        getattr(load_file(path), proc).check(**sizes)
    return caught.value


def test_the_fence_less_gemm_is_rejected_at_the_wgmma(tmp_path):
    """The README's seeded bug, written in Python: without its
    Fence(wgmma_fence_1, wgmma_fence_2) the Hopper GEMM is rejected at the
    line of the wgmma, the earlier write (the zeroing) in a note."""
    text = (EXAMPLES / "sm90a_gemm.py").read_text()
    fence = "Fence(wgmma_fence_1, wgmma_fence_2)"
    assert fence in text
    path = tmp_path / "gemm_without_fence.py"
    path.write_text("\n".join(line for line in text.splitlines()
                              if fence not in line) + "\n")
    error = check_error(path, "gemm_sm90a", M=256, N=256, K=64)
    wgmma = line_of(path, "Sm90_mma_async_tf32_m64n256k8(")
    assert error.location == exogpu.Location(str(path), wgmma, 37)
    assert error.message.startswith("WAW hazard on @D[0, 0, 0, 0]")
    assert str(error).startswith(f"{path}:{wgmma}:37: error: WAW hazard")
    # The verified repair, spelled in Python at the file's lines.
    assert ("repair: insert `Fence(wgmma_fence_1, wgmma_fence_2)` right "
            f"after `with CudaWarps` (line "
            f"{line_of(path, 'with CudaWarps(name=' + chr(34) + 'consumer')})"
            f" and before `for k` (line "
            f"{line_of(path, 'for k in seq(0, K / 32)')}), in the body of "
            f"`for n_task` (line {line_of(path, 'for n_task in')})"
            ) in error.message
    assert error.diagnostics[0].source_line == (
        " " * 36 + "Sm90_mma_async_tf32_m64n256k8(\n" + " " * 36 + "^")
    earlier, missing = error.notes
    assert earlier.message.startswith("the earlier write is here")
    assert earlier.location.line == line_of(path, "Sm90_zero_d_m64n256_f32(")
    assert "Sm90_zero_d_m64n256_f32(D[cta, wg, :, :])" in earlier.source_line
    assert missing.message.startswith("missing synchronization between the "
                                      "two")
    assert missing.location.line == wgmma
    assert error.stage == ("synchronization check of @gemm_sm90a at M=256, "
                           "N=256, K=64")


CASES = """\
@proc
def wrong_unit(N: size, x: f32[N] @ CudaGmemLinear):
    assert N % 128 == 0
    with CudaDeviceFunction(blockDim=128):
        for task in cuda_tasks(0, N / 128):
            for w in cuda_threads(0, 4, unit=cuda_warp):
                x[task * 128 + w] = 0.0


@proc
def wrong_owner(N: size, x: f32[N] @ CudaGmemLinear):
    assert N % 128 == 0
    with CudaDeviceFunction(blockDim=128):
        for task in cuda_tasks(0, N / 128):
            acc: f32[32] @ CudaRmem
            for t in cuda_threads(0, 32, unit=cuda_thread):
                acc[t] = x[task * 128 + t]
            for w in cuda_threads(0, 4, unit=cuda_warp):
                for lane in cuda_threads(0, 32, unit=cuda_thread):
                    x[task * 128 + w * 32 + lane] = acc[lane]


@proc
def bad_lag(N: size, x: f32[N] @ CudaGmemLinear):
    assert N % 128 == 0
    with CudaDeviceFunction(blockDim=128):
        for task in cuda_tasks(0, N / 128):
            cg: barrier @ CudaCommitGroup
            for t in cuda_threads(0, 128, unit=cuda_thread):
                Arrive(Sm80_cp_async, 1) >> cg
                Await(cg, cuda_in_order, ~1)


@proc
def not_affine(N: size, x: f32[N] @ DRAM):
    for i in seq(0, N * N):
        x[0] = 1.0


@proc
def wrong_instruction_unit(N: size, x: f32[N] @ CudaGmemLinear):
    assert N % 128 == 0
    with CudaDeviceFunction(blockDim=128):
        for task in cuda_tasks(0, N / 128):
            D: f32[64, 256] @ Sm90_RmemMatrixD(64, 256)
            for t in cuda_threads(0, 128, unit=cuda_thread):
                Sm90_zero_d_m64n256_f32(D[:, :])


@proc
def uneven_split(N: size, x: f32[N, 12] @ CudaGmemLinear):
    x_chunks = split(x, dim=1, by=8)
"""


@pytest.mark.parametrize("proc, at, message", [
    # The collective analysis: a scalar write by a warp.
    ("wrong_unit", "x[task * 128 + w] = 0.0", "scalar write executed by 32 "
     "threads"),
    # The distributed memory deduction: a register shard read by the 4
    # threads of other warps; the note names the allocation.
    ("wrong_owner", "acc[lane]", "distributed memory deduction for the "
     "f32[32] @CudaRmem allocation failed"),
    # The verifier: a ring lag (~n) on a commit group.
    ("bad_lag", "~1", "CudaCommitGroup awaits take N >= 0 (wait_group N), "
     "got -2"),
    # The parser's rule for control expressions (quasi-affine).
    ("not_affine", "N * N", "one side of '*' must be a constant"),
    # A warpgroup instruction called by single threads.
    ("wrong_instruction_unit", "Sm90_zero_d_m64n256_f32(D",
     "cuda_warpgroup"),
    # The verifier: a static extent the split factor does not divide.
    ("uneven_split", "split(x, dim=1, by=8)", "dimension 1 has extent 12, "
     "not a multiple of the split factor 8"),
])
def test_tool_diagnostics_are_at_python_lines(tmp_path, proc, at, message):
    path = write(tmp_path, CASES, "cases")
    error = check_error(path, proc, N=256)
    assert message in error.message
    assert error.location.file == str(path)
    assert error.location.line == line_of(path, at)
    assert str(error).startswith(f"{path}:{error.location.line}:")
    assert error.diagnostics[0].source_line.startswith(
        path.read_text().splitlines()[error.location.line - 1])
    if proc == "wrong_owner":
        assert error.notes[0].message == "allocated here"
        assert error.notes[0].location.line == line_of(
            path, "acc: f32[32] @ CudaRmem")


def test_the_check_passes_and_a_missing_size_is_reported():
    gemv = load_file(EXAMPLES / "gemv.py").gemv
    assert gemv.check(M=256, N=64) is None
    with pytest.raises(exogpu.ToolError, match="no value for parameter 'N'"):
        gemv.check(M=256)
    with pytest.raises(exogpu.ToolError, match=r"precondition of @gemv "
                       r"\(requires M mod 128 == 0 and N > 0\) does not "
                       r"hold"):
        gemv.check(M=100, N=3)


# -- One object through the whole flow ---------------------------------------


def test_mlir_imports_the_libraries_and_holds_the_callees():
    """A proc's module imports the libraries its procs declare and holds
    the procs it calls (Python procs of other files) before it. The import
    is located where the file imports the library, else (here: only the
    callees' files import sm90a) at the proc."""
    path = EXAMPLES / "gemm_tf32.py"
    dispatch = load_file(path).gemm_tf32
    text = dispatch.mlir()
    assert text.startswith(
        f'exogpu.import "sm90a" loc("{path}":{dispatch.line}:1)\n')
    procs = re.findall(r"^exogpu\.proc @(\w+)", text, re.M)
    assert procs == ["gemm_splitk_sm90a", "gemm_tf32_overlap_sm90a",
                     "gemm_tf32_sm90a", "gemm_tf32_128x128_sm90a", "gemm_tf32"]
    assert [c.name for c in dispatch.callees] == procs[:4]
    # The tools find the library by its name.
    signature = exogpu.tools.run_tool("exogpu-translate",
                                      ["--to-signature-json"], "signatures",
                                      exogpu.Source(dispatch))
    imports = json.loads(signature)["imports"]
    assert [pathlib.Path(p).name for p in imports] == ["sm90a.mlir"]


def test_an_unknown_library_is_reported_at_its_import(tmp_path):
    """A library the tools cannot find (here: the package knows one the
    tools do not) is reported at the Python line that imports it."""
    path = write(tmp_path, """\
        @proc
        def zero(x: f32[4] @ DRAM):
            for i in seq(0, 4):
                x[i] = 0.0
        """)
    text = load_file(path).zero.mlir()
    assert text.startswith(f'exogpu.import "sm90a" loc("{path}":3:1)')
    result = exogpu_opt(text.replace('"sm90a"', '"sm90b"', 1))
    assert result.returncode == 1
    assert result.stderr.startswith(f"{path}:3:1: error: ")
    assert "sm90b" in result.stderr


def test_meaning_takes_a_proc():
    numpy = pytest.importorskip("numpy")
    vector_add = load_file(EXAMPLES / "vector_add.py").vector_add
    x = numpy.arange(256, dtype=numpy.float32)
    y = numpy.full(256, 0.5, dtype=numpy.float32)
    z = exogpu.meaning(vector_add, X=x, Y=y)
    assert numpy.array_equal(z, x + y)


def test_meaning_through_splits():
    """The tour's splits run on the JIT (memref.expand_shape): out is the
    first chunk of TILE columns of A, which first_chunk reads through the
    split as its [M, S, KC] parameter; H's row 4 (row 0 of its second group
    of 4), element 1 (pair 0, element 1), gets H[0, 0]."""
    numpy = pytest.importorskip("numpy")
    split_tour = load_file(TOUR).split_tour
    rng = numpy.random.default_rng(7)
    A = rng.uniform(-1, 1, (128, 384)).astype(numpy.float32)
    H = rng.uniform(-1, 1, (16, 64)).astype(numpy.float32)
    out, H_out = exogpu.meaning(split_tour, A=A, H=H)
    assert numpy.array_equal(out, A[:, :128])
    expected = H.copy()
    expected[4, 1] = H[0, 0]
    assert numpy.array_equal(H_out, expected)


def test_compile_takes_a_proc(tmp_path, nvcc):
    gemv = load_file(EXAMPLES / "gemv.py").gemv
    kernel = exogpu.compile(gemv, check={"M": 256, "N": 64}, arch="sm_80",
                            cache_dir=tmp_path)
    assert kernel.signature.name == "gemv"
    assert "gemv" in kernel.cuda_source.read_text()


def test_compile_reports_the_python_line(tmp_path, nvcc):
    path = write(tmp_path, CASES, "cases")
    with pytest.raises(exogpu.ToolError) as caught:
        exogpu.compile(load_file(path).wrong_unit, check={"N": 256},
                       arch="sm_90a", cache_dir=tmp_path)
    assert caught.value.location.line == line_of(path, "x[task * 128 + w]")


def test_a_translation_error_is_at_the_python_line(tmp_path, nvcc):
    path = write(tmp_path, """\
        @proc
        def dynamic_smem(N: size, x: f32[N] @ CudaGmemLinear):
            assert N % 128 == 0
            with CudaDeviceFunction(blockDim=128):
                for task in cuda_tasks(0, N / 128):
                    buf: f32[N] @ CudaSmemLinear
                    for t in cuda_threads(0, 128, unit=cuda_thread):
                        buf[t] = x[task * 128 + t]
                    Fence(cuda_in_order, cuda_in_order)
        """, "dynamic")
    with pytest.raises(exogpu.ToolError) as caught:
        exogpu.compile(load_file(path).dynamic_smem, check={"N": 256},
                       arch="sm_90a", cache_dir=tmp_path)
    error = caught.value
    assert error.message == ("CUDA translation: shared memory needs constant "
                             "extents")
    assert error.location == exogpu.Location(
        str(path), line_of(path, "buf: f32[N]"), 13)
    assert error.stage == f"CUDA translation of {path}"


@pytest.mark.skipif(importlib.util.find_spec("torch") is not None,
                    reason="PyTorch is installed")
def test_torch_op_takes_a_proc():
    gemv = load_file(EXAMPLES / "gemv.py").gemv
    with pytest.raises(ImportError, match="exogpu.torch_op needs PyTorch"):
        exogpu.torch_op(gemv, check={"M": 256, "N": 64})


def run_cli(*args):
    return subprocess.run([sys.executable, "-m", "exogpu", *args],
                          capture_output=True, text=True)


def test_command_line(tmp_path):
    accepted = run_cli("check", str(EXAMPLES / "sm90a_gemm.py"),
                       "gemm_sm90a", "--sizes", "M=256,N=256,K=64")
    assert (accepted.returncode, accepted.stdout, accepted.stderr) == \
        (0, "", "")
    path = write(tmp_path, CASES, "cases")
    rejected = run_cli("check", str(path), "wrong_unit", "--sizes", "N=256")
    assert rejected.returncode == 1
    line = line_of(path, "x[task * 128 + w] = 0.0")
    assert rejected.stderr.startswith(f"{path}:{line}:17: error: scalar "
                                      "write executed by 32 threads")
    assert "                x[task * 128 + w] = 0.0\n" in rejected.stderr
    unknown = run_cli("check", str(path), "nope", "--sizes", "N=256")
    assert unknown.returncode == 1 and "defines no proc 'nope'" in \
        unknown.stderr
    bad = write(tmp_path, "@proc\ndef f():\n    while True:\n        pass\n",
                "bad")
    refused = run_cli("mlir", str(bad))
    assert refused.returncode == 1
    assert refused.stderr.startswith(f"{bad}:{line_of(bad, 'while')}:5: "
                                     "error: a while loop is not a "
                                     "statement")
    printed = run_cli("mlir", str(EXAMPLES / "gemv.py"), "gemv")
    assert printed.returncode == 0
    assert printed.stdout.startswith("exogpu.proc @gemv(")
    mlir = run_cli("check", str(EXAMPLES / "gemv.mlir"), "gemv", "--sizes",
                   "M=256,N=64")
    assert mlir.returncode == 0, mlir.stderr
    sizes = run_cli("check", str(EXAMPLES / "gemv.py"), "gemv", "--sizes",
                    "M=256,N")
    assert sizes.returncode == 1 and "expected NAME=VALUE" in sizes.stderr
    assert ROOT.name
