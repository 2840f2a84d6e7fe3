"""Tool diagnostics as Python exceptions: exogpu.ToolError carries the
tool's message, its location in the user's file and its notes."""

import pytest

import exogpu
from exogpu.errors import Location, parse_diagnostics

from conftest import EXAMPLES, INPUTS, ROOT


def test_parse_diagnostics():
    text = """\
<stdin>:12:5: error: WAW hazard on @D[0]: this write is not ordered
    exogpu.assign %D[0] = 1.0
    ^
<stdin>:10:3: note: the earlier write is here
  exogpu.assign %D[0] = 0.0
  ^
<stdin>:12:5: note: missing synchronization between the two
<stdin>:3:1: remark: progress: task 3 of 8
exogpu-run: error: @f at N=8 failed a run-time check
error: a message without a location
  that continues on this line
"""

    def shift(file, line, column):
        return Location("kernel.mlir", line - 2, column)
    diagnostics = parse_diagnostics(text, shift)
    assert [d.severity for d in diagnostics] == ["error", "remark", "error",
                                                 "error"]
    hazard = diagnostics[0]
    assert hazard.message == ("WAW hazard on @D[0]: this write is not "
                              "ordered")
    assert hazard.location == Location("kernel.mlir", 10, 5)
    assert hazard.source_line == ("    exogpu.assign %D[0] = 1.0\n    ^")
    assert [n.message for n in hazard.notes] == [
        "the earlier write is here", "missing synchronization between the two"]
    assert hazard.notes[0].location == Location("kernel.mlir", 8, 3)
    assert diagnostics[2].location is None
    assert diagnostics[2].message == "@f at N=8 failed a run-time check"
    assert diagnostics[3].message == ("a message without a location\n"
                                      "  that continues on this line")
    assert hazard.format().splitlines()[0] == (
        "kernel.mlir:10:5: error: WAW hazard on @D[0]: this write is not "
        "ordered")


def gemm_without_wgmma_fence():
    """The README's seeded bug: the Hopper GEMM without its wgmma.fence."""
    text = (EXAMPLES / "sm90a_gemm.mlir").read_text()
    fence = "exogpu.fence(wgmma_fence_1, wgmma_fence_2)"
    assert fence in text
    return "\n".join(line for line in text.splitlines()
                     if fence not in line)


def test_sync_check_hazard_is_a_tool_error(tmp_path):
    text = gemm_without_wgmma_fence()
    with pytest.raises(exogpu.ToolError) as caught:
        exogpu.compile(text, "gemm_sm90a", check={"M": 256, "N": 256,
                                                  "K": 64},
                       arch="sm_90a", cache_dir=tmp_path)
    error = caught.value
    assert error.stage == ("synchronization check of @gemm_sm90a at M=256, "
                           "N=256, K=64")
    assert error.message.startswith("WAW hazard on @D[0, 0, 0, 0]")
    # The location is in the kernel's text.
    assert error.location.file == "<string>"
    line = text.splitlines()[error.location.line - 1]
    assert "exogpu.call @Sm90_mma_async_tf32_m64n256k8" in line
    assert error.notes[0].message == ("the earlier write is here, run at "
                                      "m_task = 0, n_task = 0, cta = 0, "
                                      "wg = 0")
    # The iteration of this write, and a repair the check verified.
    assert "this write runs at m_task = 0, n_task = 0, k = 0, cta = 0, " \
        "wg = 0, kk = 0; repair: insert `exogpu.fence(wgmma_fence_1, " \
        "wgmma_fence_2)`" in error.message
    assert "Sm90_zero_d_m64n256_f32" in text.splitlines()[
        error.notes[0].location.line - 1]
    assert error.notes[1].message.startswith("missing synchronization")
    assert "synchronization check of @gemm_sm90a" in str(error)
    assert not list(tmp_path.glob("*/*/kernel.so"))


def test_the_second_size_set_is_checked_too(tmp_path):
    # M=100 violates the precondition: the check reports it.
    with pytest.raises(exogpu.ToolError) as caught:
        exogpu.compile(EXAMPLES / "gemv.mlir", "gemv",
                       check=[{"M": 256, "N": 64}, {"M": 100, "N": 3}],
                       arch="sm_80", cache_dir=tmp_path)
    assert caught.value.stage == ("synchronization check of @gemv at "
                                  "M=100, N=3")
    assert "precondition of @gemv (requires M mod 128 == 0 and N > 0) " \
        "does not hold" in caught.value.message
    assert caught.value.location == Location(str(EXAMPLES / "gemv.mlir"),
                                             1, 1)


def test_missing_size_in_check(tmp_path):
    with pytest.raises(exogpu.ToolError,
                       match="no value for parameter 'N'"):
        exogpu.compile(EXAMPLES / "gemv.mlir", "gemv", check={"M": 256},
                       arch="sm_80", cache_dir=tmp_path)


def test_parse_error_location(tmp_path):
    text = "exogpu.proc @f(%N: size) {\n  bogus\n}\n"
    with pytest.raises(exogpu.ToolError) as caught:
        exogpu.compile(text, "f", check={"N": 1}, arch="sm_80",
                       cache_dir=tmp_path)
    error = caught.value
    assert error.location == Location("<string>", 2, 3)
    assert "custom op 'bogus'" in error.message
    assert error.stage == "parsing and verifying <string>"
    assert error.notes and "Available dialects" in error.notes[0].message


def test_verifier_error_in_a_file(tmp_path):
    kernel = tmp_path / "bad.mlir"
    kernel.write_text((INPUTS / "host_scale.mlir").read_text().replace(
        "%z[%i] = %a[%i, 0] * 2.0", "%z[%i] = %a[%i] * 2.0"))
    with pytest.raises(exogpu.ToolError) as caught:
        exogpu.compile(kernel, "host_scale", check={"M": 3, "N": 8},
                       arch="sm_80", cache_dir=tmp_path)
    assert caught.value.location.file == str(kernel)
    assert caught.value.location.line == 10


def test_unknown_proc_and_bad_check(tmp_path):
    with pytest.raises(ValueError, match=r"has no proc @gemm \(procs: "
                       r"gemv\)"):
        exogpu.compile(EXAMPLES / "gemv.mlir", "gemm", check={"M": 128},
                       arch="sm_80", cache_dir=tmp_path)
    for check in ([], None):
        with pytest.raises(TypeError, match="check= takes the sizes the "
                           "synchronization check runs at"):
            exogpu.compile(EXAMPLES / "gemv.mlir", "gemv", check=check,
                           arch="sm_80", cache_dir=tmp_path)
    with pytest.raises(TypeError, match="the value of M must be an int"):
        exogpu.compile(EXAMPLES / "gemv.mlir", "gemv",
                       check={"M": "256", "N": 1}, arch="sm_80",
                       cache_dir=tmp_path)


def test_missing_library(tmp_path):
    # The kernel imports a library no folder of the search path holds: the
    # error is at the import and lists the folders searched.
    text = (EXAMPLES / "sm80_gemm.mlir").read_text().replace(
        'exogpu.import "sm80"', 'exogpu.import "sm70"')
    with pytest.raises(exogpu.ToolError) as caught:
        exogpu.compile(text, "gemm_sm80", check={"M": 128, "N": 128, "K": 16},
                       arch="sm_80", import_paths=[tmp_path],
                       cache_dir=tmp_path)
    assert caught.value.location == Location("<string>", 1, 1)
    assert caught.value.message.startswith(
        "'exogpu.import' op cannot find 'sm70' (looked for sm70.mlir in: ")
    assert str(tmp_path) in caught.value.message
    assert ROOT.name  # the repository is where the tests run from

def test_wrong_arch_fails_before_the_pipeline(tmp_path, nvcc):
    # A Hopper kernel for sm_80, and an architecture nvcc does not know:
    # refused at once, before the synchronization check and the
    # translation run (no tool error, nothing cached).
    with pytest.raises(ValueError, match=r"imports the sm_90a instruction "
                       r"library \(.*sm90a\.mlir\), whose wgmma, TMA and "
                       r"setmaxnreg instructions need arch='sm_90a'; got "
                       r"arch='sm_80'"):
        exogpu.compile(EXAMPLES / "sm90a_gemm.mlir", "gemm_sm90a",
                       check={"M": 256, "N": 256, "K": 64}, arch="sm_80",
                       cache_dir=tmp_path)
    with pytest.raises(ValueError, match=r"cannot build for sm_99: it builds "
                       r"for .*sm_80"):
        exogpu.compile(EXAMPLES / "gemv.mlir", "gemv",
                       check={"M": 128, "N": 4}, arch="sm_99",
                       cache_dir=tmp_path)
    assert not list(tmp_path.glob("*/*/kernel.so"))


def test_unknown_size_name_is_at_the_proc(tmp_path):
    # A size the proc does not have: reported at the proc, not at <stdin>:0:0.
    with pytest.raises(exogpu.ToolError) as caught:
        exogpu.compile((EXAMPLES / "gemv.mlir").read_text(), "gemv",
                       check={"M": 128, "N": 4, "Q": 1}, arch="sm_80",
                       cache_dir=tmp_path)
    assert caught.value.location.file == "<string>"
    assert caught.value.location.line > 0
    assert "no proc it checks has a parameter named 'Q' (the parameters: " \
        "M, N)" in caught.value.message
