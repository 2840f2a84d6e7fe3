"""exogpu.torch_op: the operator's schema comes from the signature; the
registration itself needs PyTorch (not installed by the project: these
tests skip without it, and the GPU ones run in test_gpu.py)."""

import importlib.util

import pytest

import exogpu
from exogpu.compiler import signatures
from exogpu.torch_ops import operator_parameters, schema

from conftest import EXAMPLES, INPUTS

HAS_TORCH = importlib.util.find_spec("torch") is not None


def signature_of(path, proc):
    return signatures(exogpu.Source(path))[proc]


def test_schemas():
    assert schema(signature_of(EXAMPLES / "gemv.mlir", "gemv")) == \
        "(Tensor A, Tensor x) -> Tensor"
    # C is read and written: an argument, and a (new) result.
    assert schema(signature_of(EXAMPLES / "gemm_splitk_sm90a.mlir",
                               "gemm_splitk_sm90a")) == \
        "(Tensor A, Tensor B, Tensor C) -> Tensor"
    host = signature_of(INPUTS / "host_scale.mlir", "host_scale")
    assert schema(host) == "(Tensor a, Tensor x, Tensor y) -> (Tensor, " \
        "Tensor)"
    arguments, results = operator_parameters(host)
    assert [p.name for p in arguments] == ["a", "x", "y"]
    assert [p.name for p in results] == ["y", "z"]


def test_control_parameters_no_input_has():
    source = """
exogpu.proc @fill(%N: size, %K: size, %i: index, %on: bool,
                  %x: f32[%K] @DRAM, %y: f32[%N, %K] @DRAM) {
  exogpu.assign %y[0, 0] = %x[0] : f32[?, ?] @DRAM, f32[?] @DRAM
}
"""
    signature = signatures(exogpu.Source(source))["fill"]
    # K comes from x; N only sizes the output: an argument.
    assert schema(signature) == \
        "(Tensor x, SymInt N, int i, bool on) -> Tensor"


@pytest.mark.skipif(HAS_TORCH, reason="PyTorch is installed")
def test_torch_op_needs_torch(host_kernel):
    with pytest.raises(ImportError, match="exogpu.torch_op needs PyTorch"):
        exogpu.torch_op(host_kernel)


@pytest.mark.skipif(not HAS_TORCH, reason="PyTorch is not installed")
def test_torch_op_on_host_tensors(host_kernel):
    import torch
    op = exogpu.torch_op(host_kernel, name="host_scale_cpu")
    a, x = torch.randn(3, 8), torch.randn(8)
    y = torch.randn(3, 8)
    y_new, z = op(a, x, y)
    torch.testing.assert_close(y_new, y + a * x)
    torch.testing.assert_close(z, 2 * a[:, 0])
    # The fake implementation gives the shapes without running.
    with torch._subclasses.fake_tensor.FakeTensorMode():
        fy, fz = op(torch.empty(5, 4), torch.empty(4), torch.empty(5, 4))
        assert fy.shape == (5, 4) and fz.shape == (5,)
    compiled = torch.compile(lambda a, x, y: op(a, x, y)[1] + 1,
                             fullgraph=True)
    torch.testing.assert_close(compiled(a, x, y), 2 * a[:, 0] + 1)
    with pytest.raises(ValueError, match="is already registered"):
        exogpu.torch_op(host_kernel, name="host_scale_cpu")
