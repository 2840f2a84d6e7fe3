"""The signature of a proc (exogpu-translate --to-signature-json) and the
binding of arrays to it: sizes derived from shapes, extents, `requires`."""

import json

import pytest

import exogpu
from exogpu.compiler import signatures
from exogpu.signature import INT32_MAX, evaluate, holds

from conftest import EXAMPLES, INPUTS


def signature_of(path, proc):
    return signatures(exogpu.Source(path))[proc]


@pytest.fixture(scope="module")
def gemv():
    return signature_of(EXAMPLES / "gemv.mlir", "gemv")


@pytest.fixture(scope="module")
def splitk():
    return signature_of(EXAMPLES / "gemm_splitk_sm90a.mlir",
                        "gemm_splitk_sm90a")


def test_gemv_signature(gemv):
    assert gemv.declaration == (
        "cudaError_t gemv(cudaStream_t stream, int64_t M, int64_t N, "
        "const float *A, const float *x, float *y)")
    assert [(p.name, p.kind) for p in gemv.params] == [
        ("M", "size"), ("N", "size"), ("A", "data"), ("x", "data"),
        ("y", "data")]
    A, y = gemv.param("A"), gemv.param("y")
    assert (A.dtype, A.shape, A.memory, A.host, A.access) == (
        "f32", ("M", "N"), "CudaGmemLinear", False, "read")
    assert y.access == "write" and y.is_output and not y.is_input
    assert [p.name for p in gemv.outputs] == ["y"]
    assert gemv.requires_text == "M mod 128 == 0 and N > 0"
    assert A.describe() == "A: f32[M, N] @CudaGmemLinear"


def test_every_example_has_a_signature():
    seen = {}
    for path in sorted(EXAMPLES.glob("*.mlir")):
        for name, signature in signatures(exogpu.Source(path)).items():
            seen[name] = signature
            assert signature.outputs, name
    assert {"vector_add", "gemv", "gemm_tf32_sm90a", "gemm_bf16_sm90a",
            "gemm_sm80", "cta_sum_fence", "gemm_tf32"} <= set(seen)
    assert seen["gemm_bf16_sm90a"].param("A").dtype == "bf16"
    # The split-k GEMM adds into C: it reads and writes it.
    assert seen["gemm_splitk_sm90a"].param("C").access == "read_write"


def test_imports_are_resolved_by_the_tools(tmp_path, monkeypatch):
    # The entry point imports the variants it calls: their procs have host
    # functions too, and the signature names every imported file.
    procs = signatures(exogpu.Source(EXAMPLES / "gemm_tf32.mlir"))
    assert {"gemm_tf32", "gemm_tf32_128x128_sm90a"} <= set(procs)
    text = exogpu.compiler._signature_json(
        exogpu.Source(EXAMPLES / "gemm_tf32.mlir"))
    imported = [pathlib_name(p) for p in json.loads(text)["imports"]]
    assert sorted(imported) == ["gemm_splitk_sm90a.mlir",
                                "gemm_tf32_128x128_sm90a.mlir",
                                "gemm_tf32_overlap_sm90a.mlir",
                                "gemm_tf32_sm90a.mlir", "sm90a.mlir"]
    # A kernel file's imports start from its folder; text's from the
    # current folder, then the import paths.
    (tmp_path / "parts").mkdir()
    (tmp_path / "parts" / "copy.mlir").write_text(COPY)
    kernel = tmp_path / "parts" / "kernel.mlir"
    kernel.write_text('exogpu.import "copy.mlir"\n')
    assert "copy" in signatures(exogpu.Source(kernel))
    with pytest.raises(exogpu.ToolError, match="cannot find 'copy.mlir'"):
        signatures(exogpu.Source(kernel.read_text()))
    assert "copy" in signatures(exogpu.Source(
        kernel.read_text(), import_paths=[tmp_path / "parts"]))
    monkeypatch.chdir(tmp_path / "parts")
    assert "copy" in signatures(exogpu.Source(kernel.read_text()))


COPY = """
exogpu.proc @copy(%N: size, %x: f32[%N] @DRAM, %y: f32[%N] @DRAM) {
  exogpu.for %i in seq(0, %N) {
    exogpu.assign %y[%i] = %x[%i] : f32[?] @DRAM, f32[?] @DRAM
  }
}
"""


def test_evaluate_every_operator():
    values = {"M": -7, "N": 3}
    assert evaluate(["+", "M", ["*", "N", 2]], values) == -1
    # Floor division and its non-negative remainder, as the tools compute.
    assert evaluate(["floordiv", "M", 2], values) == -4
    assert evaluate(["mod", "M", 4], values) == 1
    assert evaluate(["ceildiv", "M", 2], values) == -3
    assert evaluate(["ceildiv", 7, 2], values) == 4
    assert evaluate(5, values) == 5
    with pytest.raises(ValueError, match="unknown operator"):
        evaluate(["**", "M", 2], values)


def test_holds_disjunctive_normal_form():
    dnf = [[["==", ["mod", "M", 128], 0], [">", "N", 0]], ["flag"],
           [["<", "M", 0], True]]
    assert holds(dnf, {"M": 256, "N": 1, "flag": False})
    assert not holds(dnf, {"M": 200, "N": 1, "flag": False})
    assert holds(dnf, {"M": 200, "N": 1, "flag": True})
    assert holds(dnf, {"M": -1, "N": 0, "flag": False})
    assert not holds([[False]], {})


def test_bind_derives_sizes_from_shapes(gemv, splitk):
    assert gemv.bind({"A": (256, 64), "x": (64,)}, {}) == {
        "M": 256, "N": 64}
    assert gemv.bind({"y": (128,)}, {"N": 5}) == {"M": 128, "N": 5}
    values = splitk.bind({"A": (256, 3, 32), "B": (512, 3, 32)}, {})
    assert values == {"M": 256, "N": 512, "S": 3, "KC": 32}
    assert splitk.extents(splitk.param("C"), values) == (256, 512)


def test_bind_shape_mismatch_names_the_parameter_and_the_origin(gemv):
    with pytest.raises(ValueError, match=r"gemv\(\): x has shape \(32,\), "
                       r"expected \[N\] = \(64,\) \(N = 64 from dimension 1 "
                       r"of A\)"):
        gemv.bind({"A": (256, 64), "x": (32,)}, {})
    with pytest.raises(ValueError, match=r"A has shape \(256, 64\), expected "
                       r"\[M, N\] = \(256, 32\) \(N = 32 as given\)"):
        gemv.bind({"A": (256, 64)}, {"N": 32})
    with pytest.raises(ValueError, match=r"x has shape \(64, 1\), expected "
                       r"\[N\]"):
        gemv.bind({"A": (256, 64), "x": (64, 1)}, {})


def test_bind_missing_size(splitk, gemv):
    with pytest.raises(TypeError, match=r"gemm_splitk_sm90a\(\): no value "
                       "for S, KC: no array argument has it as an extent; "
                       "pass S=..., KC=..."):
        splitk.bind({"C": (256, 256)}, {})
    # A 1-D array where a 2-D one is expected: the rank, not the size it
    # would have given.
    with pytest.raises(ValueError, match=r"gemv\(\): A must be a 2-D array "
                       r"\(A: f32\[M, N\] @CudaGmemLinear\), got a 1-D one "
                       r"of shape \(256,\)"):
        gemv.bind({"A": (256,)}, {})


def test_bind_requires_clause(gemv):
    with pytest.raises(ValueError, match=r"gemv\(\): precondition does not "
                       r"hold at M=100, N=8: requires M mod 128 == 0 and "
                       r"N > 0"):
        gemv.bind({"A": (100, 8)}, {})


def test_bind_value_types_and_ranges(gemv):
    with pytest.raises(TypeError, match=r"M is a size parameter \(an int\), "
                       "got float"):
        gemv.bind({}, {"M": 128.0, "N": 1})
    with pytest.raises(TypeError, match="got bool"):
        gemv.bind({}, {"M": True, "N": 1})
    with pytest.raises(ValueError, match=r"size M = -128 \(as given\) is "
                       r"outside \[0, 2147483647\]"):
        gemv.bind({}, {"M": -128, "N": 1})
    with pytest.raises(ValueError, match=r"A would have 4294967296 elements; "
                       "the kernels index in 32 bits"):
        gemv.bind({"A": (2**16, 2**16)}, {})
    assert INT32_MAX == 2**31 - 1


def test_bool_and_index_parameters():
    source = """
exogpu.proc @pick(%N: size, %i: index, %twice: bool, %x: f32[%N] @DRAM)
    requires %i < %N or %twice {
  exogpu.assign %x[0] = 1.0 : f32[?] @DRAM
}
"""
    signature = signatures(exogpu.Source(source))["pick"]
    assert signature.bind({"x": (4,)}, {"i": 3, "twice": False}) == {
        "N": 4, "i": 3, "twice": False}
    assert signature.bind({"x": (4,)}, {"i": 9, "twice": True})["i"] == 9
    with pytest.raises(ValueError, match="requires i < N or twice"):
        signature.bind({"x": (4,)}, {"i": 9, "twice": False})
    with pytest.raises(TypeError, match="twice is a bool parameter, got int"):
        signature.bind({"x": (4,)}, {"i": 1, "twice": 1})
    with pytest.raises(TypeError, match="no value for i, twice"):
        signature.bind({"x": (4,)}, {})


def test_source_arguments_and_locations(tmp_path):
    tf32 = exogpu.Source(EXAMPLES / "gemm_tf32_sm90a.mlir",
                         import_paths=[tmp_path])
    assert tf32.tool_arguments() == [
        f"-I{tmp_path}", str(EXAMPLES / "gemm_tf32_sm90a.mlir")]
    assert tf32.stdin is None
    text = exogpu.Source(COPY)
    assert text.tool_arguments() == ["-"] and text.stdin == COPY
    # A tool reads text on stdin: its locations name the user's string.
    location = text.map_location("<stdin>", 3, 5)
    assert str(location) == "<string>:3:5"
    assert str(tf32.map_location("other.mlir", 5, 1)) == "other.mlir:5:1"


def test_source_errors():
    with pytest.raises(FileNotFoundError, match="no such kernel file"):
        exogpu.Source("no/such/kernel.mlir")
    with pytest.raises(TypeError, match="source must be a path or MLIR text"):
        exogpu.Source(42)


def pathlib_name(path):
    return path.rsplit("/", 1)[-1]
