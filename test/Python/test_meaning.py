"""exogpu.meaning: a proc's sequential meaning (exogpu-run) on NumPy
arrays."""

import numpy
import pytest

import exogpu

from conftest import EXAMPLES, INPUTS


def random(shape, seed):
    return numpy.random.default_rng(seed).uniform(
        -1, 1, shape).astype(numpy.float32)


def test_vector_add():
    X, Y = random(384, 1), random(384, 2)
    Z = exogpu.meaning(EXAMPLES / "vector_add.mlir", "vector_add", X=X, Y=Y)
    assert Z.dtype == numpy.float32 and Z.shape == (384,)
    numpy.testing.assert_array_equal(Z, X + Y)


def test_gemv():
    A, x = random((256, 96), 3), random(96, 4)
    y = exogpu.meaning(EXAMPLES / "gemv.mlir", "gemv", A=A, x=x)
    numpy.testing.assert_allclose(y, A.astype(numpy.float64) @ x, rtol=1e-5,
                                  atol=1e-5)


def test_read_write_parameter_and_several_outputs():
    a, x = random((2, 4), 5), random(4, 6)
    y = numpy.ones((2, 4), numpy.float32)
    y_out, z = exogpu.meaning(INPUTS / "host_scale.mlir", "host_scale",
                              a=a, x=x, y=y)
    numpy.testing.assert_array_equal(y_out, 1 + a * x)
    numpy.testing.assert_array_equal(z, 2 * a[:, 0])
    numpy.testing.assert_array_equal(y, 1)  # the argument is not written


def test_bf16_travels_as_bit_patterns():
    source = """
exogpu.proc @double(%N: size, %x: bf16[%N] @DRAM, %y: bf16[%N] @DRAM) {
  exogpu.for %i in seq(0, %N) {
    exogpu.assign %y[%i] = %x[%i] * 2.0 : bf16[?] @DRAM, bf16[?] @DRAM
  }
}
"""
    x = numpy.array([0x3FC0, 0xBF80], numpy.uint16)  # 1.5, -1.0
    y = exogpu.meaning(source, "double", x=x)
    assert y.view(numpy.uint16).tolist() == [0x4040, 0xC000]  # 3.0, -2.0


def test_errors():
    X = random(128, 1)
    with pytest.raises(TypeError, match=r"vector_add\(\): missing input Y: "
                       r"f32\[N\] @CudaGmemLinear"):
        exogpu.meaning(EXAMPLES / "vector_add.mlir", "vector_add", X=X)
    with pytest.raises(TypeError, match=r"vector_add\(\): Y must hold "
                       r"float32 \(f32\), got float64"):
        exogpu.meaning(EXAMPLES / "vector_add.mlir", "vector_add", X=X,
                       Y=X.astype(numpy.float64))
    with pytest.raises(TypeError, match=r"vector_add\(\) has no parameter "
                       "'W'"):
        exogpu.meaning(EXAMPLES / "vector_add.mlir", "vector_add", X=X, Y=X,
                       W=X)
    with pytest.raises(ValueError, match="precondition does not hold at "
                       "N=100"):
        exogpu.meaning(EXAMPLES / "vector_add.mlir", "vector_add",
                       X=X[:100], Y=X[:100])


def test_run_time_check_is_a_tool_error():
    source = """
exogpu.proc @ahead(%N: size, %x: f32[%N] @DRAM, %y: f32[%N] @DRAM) {
  exogpu.for %i in seq(0, %N) {
    exogpu.assign %y[%i] = %x[%i + 1] : f32[?] @DRAM, f32[?] @DRAM
  }
}
"""
    with pytest.raises(exogpu.ToolError) as caught:
        exogpu.meaning(source, "ahead", x=random(8, 1))
    error = caught.value
    assert error.stage == "sequential meaning of @ahead at N=8"
    assert "out-of-bounds access" in error.message
    assert (error.location.file, error.location.line) == ("<string>", 4)
