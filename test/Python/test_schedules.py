"""exogpu.scheduling: Exo-style rewrites of Python procs, each run by the
Transform-dialect interpreter. The Python schedules of examples/schedules
give the kernels the MLIR schedules give; a refused rewrite is a ToolError
at the Python line of the call; the result is checked like any proc."""

import inspect
import warnings

import pytest

import exogpu
from exogpu.frontend.files import load_file
from exogpu import scheduling as s
from exogpu.scheduling import (as_cursor, divide_loop, every, kind, label,
                               pattern, remove_if, reorder_loops,
                               set_loop_mode, unsafe_steps)
from exogpu.lang import (CudaGmemLinear, CudaRmem, cuda_thread, cuda_threads,
                         f16)

from conftest import EXAMPLES, INPUTS, printed

SCHEDULES = EXAMPLES / "schedules"


def proc_lines(module: str, name: str) -> str:
    """The lines of proc @name in a module printed by exogpu-opt."""
    lines = module.splitlines()
    start = lines.index(next(line for line in lines if line.startswith(
        f"  exogpu.proc @{name}(")))
    end = next(i for i in range(start, len(lines)) if lines[i] == "  }")
    return "\n".join(lines[start:end + 1])



def line_after() -> int:
    """The line after the caller's: where a test makes the call it checks."""
    return inspect.currentframe().f_back.f_lineno + 1


def mlir_schedule(naive: str, script: str) -> str:
    """The module the MLIR schedule makes of the naive GEMM (which imports
    its instruction library)."""
    return printed(exogpu.Source(SCHEDULES / naive),
                   "--transform-preload-library=transform-library-paths="
                   f"{SCHEDULES / script}", "--transform-interpreter")


@pytest.mark.parametrize("script, naive, proc, library", [
    ("sm90a_gemm_schedule", "gemm_nt", "gemm_sm90a", "sm90a"),
    ("sm80_gemm_schedule", "gemm_nn", "gemm_sm80", "sm80"),
])
def test_python_schedule_gives_the_mlir_schedules_kernel(script, naive, proc,
                                                         library):
    scheduled = getattr(load_file(SCHEDULES / f"{script}.py"), proc)
    expected = mlir_schedule(f"{naive}.mlir", f"{script}.mlir")
    assert proc_lines(printed(exogpu.Source(scheduled)), proc) == \
        proc_lines(expected, proc)
    assert unsafe_steps(scheduled) == 0
    # The result links the library its instructions come from, and passes
    # the analyses and the synchronization check.
    assert [lib.name for lib in scheduled.libraries] == [library]
    sizes = {"M": 256, "N": 256, "K": 64} if library == "sm90a" else \
        {"M": 256, "N": 128, "K": 64}
    scheduled.check(**sizes)


@pytest.fixture(scope="module")
def gemm_nt():
    return load_file(SCHEDULES / "gemm_nt.py").gemm_sm90a


def test_each_rewrite_returns_a_new_proc(gemm_nt):
    before = gemm_nt.mlir()
    tiled = divide_loop(gemm_nt, "i", 256, ["m_task", "mi"], perfect=True)
    assert gemm_nt.mlir() == before
    assert "exogpu.for %m_task in seq(0, %M / 256)" in tiled.mlir()
    assert "exogpu.for %mi in seq(0, 256)" in tiled.mlir()
    assert tiled.name == gemm_nt.name and tiled.file == gemm_nt.file
    # The statements keep the Python lines of the naive proc.
    assert f'loc("{gemm_nt.file}":' in tiled.mlir()


def test_a_refusal_is_raised_at_the_line_of_the_call(gemm_nt):
    with pytest.raises(exogpu.ToolError) as caught:
        line = line_after()
        divide_loop(gemm_nt, "j", 7, ["a", "b"], perfect=True)
    error = caught.value
    assert error.location == exogpu.Location(__file__, line, 9)
    assert error.message.startswith("cannot divide loop 'j' by 7 perfectly")
    assert str(error).startswith(f"{__file__}:{line}:9: error: cannot "
                                 "divide loop 'j'")
    assert "divide_loop(gemm_nt, \"j\", 7" in error.diagnostics[0].source_line
    statement = error.notes[0]
    assert statement.message == "at this statement"
    assert statement.location.file == gemm_nt.file
    assert "for j in seq(0, N):" in statement.source_line


def test_a_missing_statement_is_reported_at_the_call(gemm_nt):
    with pytest.raises(exogpu.ToolError) as caught:
        line = line_after()
        reorder_loops(gemm_nt, "nowhere")
    assert caught.value.location == exogpu.Location(__file__, line, 9)
    assert caught.value.message == "no statement matches"


def test_a_rewrite_that_breaks_a_rule_is_undone_with_the_reason(gemm_nt):
    # cuda_threads loops live in a kernel: the verifier's rule, at the call.
    with pytest.raises(exogpu.ToolError) as caught:
        line = line_after()
        set_loop_mode(gemm_nt, "k", cuda_threads, cuda_thread)
    assert caught.value.location == exogpu.Location(__file__, line, 9)
    assert caught.value.message.startswith("set_loop_mode would make the IR "
                                           "invalid")
    assert "only seq loops are allowed at CPU scope" in str(caught.value)


def test_cursors():
    assert as_cursor("mi") == as_cursor("mi #0")
    (step, criteria), = as_cursor("mi #1").steps
    assert step == "match" and dict(criteria) == {"iter": "mi", "nth": 1}
    patterns = {
        "C[_] += _": "reduce C[_] += _",
        "acc = 0.0": "assign acc[] = 0.0",
        "A_smem: _": "A_smem = alloc _",
        "for k in seq(0, K % 4)": "for k in seq(0, K mod 4)",
        "Sm90_tma(f[_], _) >> full[_]": "call @Sm90_tma(f[_], _) >> "
                                        "full[_]",
        "Fence(_)": "fence(_)",
    }
    for python, dialect in patterns.items():
        (_, criteria), = as_cursor(python).steps
        assert dict(criteria)["pattern"] == dialect, python
    for call in ("Sm80_mma_tf32(_)", "Sm80_mma_tf32(_) >> _"):
        (_, criteria), = as_cursor(call).steps
        assert dict(criteria) == {"kind": "call", "callee": "Sm80_mma_tf32",
                                  "nth": 0}
    with pytest.raises(ValueError, match="cannot read the statement pattern"):
        as_cursor("1 + 2")
    nested = label("compute").find("mm #2").block(2)
    assert [s[0] for s in nested.steps] == ["match", "match", "block"]
    assert every("cta").each and "nth" not in dict(every("cta").steps[0][1])
    assert dict(kind("assign").steps[0][1]) == {"kind": "assign", "nth": 0}
    assert dict(pattern("call @f(_)").steps[0][1])["pattern"] == "call @f(_)"


@pytest.fixture(scope="module")
def rewrites():
    return load_file(INPUTS / "frontend" / "rewrites.py")


# Each rewrite the GEMM schedules do not use, applied once to
# Inputs/frontend/rewrites.py: a text the result holds, or the refusal the
# tools give (the op ran: its script parsed and its check decided).
REWRITES = [
    ("unroll_loop", lambda m: s.unroll_loop(m.small, "j"),
     "exogpu.assign %y[3] = 0.0"),
    ("cut_loop", lambda m: s.cut_loop(m.small, "i", 2),
     "exogpu.for %i in seq(2, %N)"),
    ("remove_loop", lambda m: s.remove_loop(m.small, "r"), None),
    ("add_loop", lambda m: s.add_loop(m.small, "y[4] = _", "e", 2,
                                      guard=True),
     "exogpu.for %e in seq(0, 2)"),
    ("lift_scope", lambda m: s.lift_scope(m.small, "if N > 0"),
     "exogpu.if %N > 0 {"),
    ("mult_loops", lambda m: s.mult_loops(m.small, "a", "k"),
     "exogpu.for %k in seq(0, %N / 4 * 4)"),
    ("reorder_stmts", lambda m: s.reorder_stmts(m.small, "y[3] = _",
                                                "for r in _"), None),
    ("bind_expr", lambda m: s.bind_expr(m.small, pattern("x[i] * _"), "p"),
     "%p = exogpu.alloc f32 @DRAM"),
    ("rewrite_expr", lambda m: s.rewrite_expr(m.small, "y[j] = _", 0,
                                              "j % 4"),
     "exogpu.assign %y[%j mod 4] = 0.0"),
    ("inline_assign", lambda m: s.inline_assign(m.small, "t = _"),
     "exogpu.assign %y[1] = %x[0]"),
    ("commute_expr", lambda m: s.commute_expr(m.small, kind("add")),
     "= 1.0 + %x[%i] * 2.0"),
    ("eliminate_dead_code", lambda m: s.eliminate_dead_code(m.small,
                                                            "if N > 0"),
     None),
    ("sink_alloc", lambda m: s.sink_alloc(m.small, "s"), None),
    ("delete_buffer", lambda m: s.delete_buffer(m.small, "unused"), None),
    ("reuse_buffer", lambda m: s.reuse_buffer(m.small, "t", "u"),
     "exogpu.assign %t[] = %x[2]"),
    ("set_memory", lambda m: s.set_memory(m.small, "t", CudaRmem),
     "set_memory would make the IR invalid"),
    ("set_memory of a parameter",
     lambda m: s.set_memory(m.small, "x", CudaGmemLinear),
     "set_memory would make the IR invalid"),
    ("set_precision", lambda m: s.set_precision(m.small, "t", f16),
     "%t = exogpu.alloc f16 @DRAM"),
    ("set_precision of a parameter",
     lambda m: s.set_precision(m.small, "x", f16),
     "set_precision would make the IR invalid"),
    ("mult_dim", lambda m: s.mult_dim(m.small, "v", 0, 1),
     "%v = exogpu.alloc f32[8] @DRAM"),
    ("lift_alloc", lambda m: s.lift_alloc(m.small, "z"), None),
    ("inline_window", lambda m: s.inline_window(m.small, "w"),
     "exogpu.assign %y[3] = %x[1]"),
    ("inline", lambda m: s.inline(m.small, "scale(_)"),
     "exogpu.assign %y[%i] = %y[%i] * 2.0"),
    ("set_trailing_barrier",
     lambda m: s.set_trailing_barrier(m.small, "scale(_)", "y[0]"),
     "'y' is a data buffer, not a barrier"),
    ("extract_subproc",
     lambda m: s.extract_subproc(m.small, "i", "twice")[0],
     "exogpu.call @twice[%N](%x, %y)"),
    ("call_eqv", lambda m: s.call_eqv(m.small, "scale(_)",
                                      s.copy_proc(m.scale, "scale2")),
     "exogpu.call @scale2[%N](%y)"),
]


@pytest.mark.parametrize("rewrite, expected", [(r[1], r[2]) for r in REWRITES],
                         ids=[r[0] for r in REWRITES])
def test_each_rewrite(rewrites, rewrite, expected):
    try:
        result = rewrite(rewrites)
    except exogpu.ToolError as refusal:
        assert expected and expected in refusal.message, str(refusal)
        return
    text = result.mlir()
    assert text != rewrites.small.mlir()
    if expected:
        assert expected in text
    printed(exogpu.Source(result))  # the result verifies


def test_procs_a_rewrite_makes(rewrites):
    caller, twice = s.extract_subproc(rewrites.small, "i", "twice")
    assert twice.name == "twice" and twice in caller.callees
    assert twice.mlir().splitlines()[-1].startswith("} loc(")
    copy = s.copy_proc(rewrites.scale, "scale2")
    assert copy.name == "scale2" and rewrites.scale in copy.callees
    assert "exogpu.equivalent_to = @scale" in copy.op_text().text


def test_an_unsafe_step_is_counted_and_warned(tmp_path):
    kernel = tmp_path / "guarded.py"
    kernel.write_text('''\
from __future__ import annotations
from exogpu.lang import *

@proc
def guarded(N: size, x: f32[N] @ DRAM):
    for i in seq(0, N):
        if i < N - 1:
            x[i] = 1.0
''')
    guarded = load_file(kernel).guarded
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        unguarded = remove_if(guarded, "if _", unsafe=True)
    assert unsafe_steps(unguarded) == 1 and unsafe_steps(guarded) == 0
    assert any("unsafe" in str(w.message) for w in caught)
