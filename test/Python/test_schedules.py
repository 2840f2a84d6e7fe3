"""exogpu.scheduling: Exo-style rewrites of Python procs, each run by the
Transform-dialect interpreter. The Python schedules of examples/schedules
give the kernels the MLIR schedules give; a refused rewrite is a ToolError
at the Python line of the call; the result is checked like any proc."""

import inspect
import subprocess
import warnings

import pytest

import exogpu
from exogpu.frontend.files import load_file
from exogpu.scheduling import (as_cursor, divide_loop, every, kind, label,
                               pattern, remove_if, reorder_loops,
                               set_loop_mode, unsafe_steps)
from exogpu.lang import cuda_thread, cuda_threads

from conftest import EXAMPLES, ROOT, printed

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


def mlir_schedule(naive: str, script: str, library: str) -> str:
    """The module the MLIR schedule makes of the naive GEMM."""
    result = subprocess.run(
        [str(exogpu.tools.require_tool("exogpu-opt")),
         "--transform-preload-library=transform-library-paths="
         f"{SCHEDULES / script}", "--transform-interpreter"],
        input=(ROOT / "stdlib" / f"{library}.mlir").read_text() +
        (SCHEDULES / naive).read_text(), capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    return result.stdout


@pytest.mark.parametrize("script, naive, proc, library", [
    ("sm90a_gemm_schedule", "gemm_nt", "gemm_sm90a", "sm90a"),
    ("sm80_gemm_schedule", "gemm_nn", "gemm_sm80", "sm80"),
])
def test_python_schedule_gives_the_mlir_schedules_kernel(script, naive, proc,
                                                         library):
    scheduled = getattr(load_file(SCHEDULES / f"{script}.py"), proc)
    expected = mlir_schedule(f"{naive}.mlir", f"{script}.mlir", library)
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
        "Sm80_mma_tf32(_)": "call @Sm80_mma_tf32(_)_",
        "Sm90_tma(_) >> full[_]": "call @Sm90_tma(_) >> full[_]",
        "Fence(_)": "fence(_)",
    }
    for python, dialect in patterns.items():
        (_, criteria), = as_cursor(python).steps
        assert dict(criteria)["pattern"] == dialect, python
    with pytest.raises(ValueError, match="cannot read the statement pattern"):
        as_cursor("1 + 2")
    nested = label("compute").find("mm #2").block(2)
    assert [s[0] for s in nested.steps] == ["match", "match", "block"]
    assert every("cta").each and "nth" not in dict(every("cta").steps[0][1])
    assert dict(kind("assign").steps[0][1]) == {"kind": "assign", "nth": 0}
    assert dict(pattern("call @f(_)").steps[0][1])["pattern"] == "call @f(_)"


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
