"""A whole call without a GPU: Inputs/host_scale.mlir runs on the host
(DRAM parameters, CPU-scope statements), so its host function runs on
NumPy arrays passed through DLPack. host_scale(M, N, a: f32[M, N],
x: f32[N], y: f32[M, N] (read and written), z: f32[M] (written))
requires N mod 4 == 0: y += a * x, z[i] = 2 * a[i, 0]."""

import numpy
import pytest

from fakes import CudaArray


def operands(M=3, N=8):
    rng = numpy.random.default_rng(7)
    a = rng.standard_normal((M, N), dtype=numpy.float32)
    x = rng.standard_normal(N, dtype=numpy.float32)
    y = rng.standard_normal((M, N), dtype=numpy.float32)
    return a, x, y


def test_runs_on_numpy_arrays(host_kernel):
    a, x, y = operands(5, 12)
    want_y, want_z = y + a * x, 2 * a[:, 0]
    y_out, z = host_kernel(a, x, y)
    assert y_out is y  # written in place
    numpy.testing.assert_array_equal(y, want_y)
    numpy.testing.assert_array_equal(z, want_z)  # allocated with NumPy
    assert z.dtype == numpy.float32 and z.shape == (5,)


def test_outputs_passed_by_name_or_out(host_kernel):
    a, x, y = operands()
    z = numpy.full(3, numpy.nan, numpy.float32)
    result = host_kernel(a, x, y=y, z=z)
    assert result[0] is y and result[1] is z
    numpy.testing.assert_array_equal(z, 2 * a[:, 0])
    z2 = numpy.zeros(3, numpy.float32)
    assert host_kernel(a, x, out=(y, z2))[1] is z2
    numpy.testing.assert_array_equal(z2, z)


def test_sizes_come_from_the_shapes(host_kernel):
    a, x, y = operands(1, 4)
    host_kernel(a, x, y, M=1, N=4)
    with pytest.raises(ValueError, match=r"host_scale\(\): precondition "
                       r"does not hold at M=2, N=6: requires N mod 4 == 0"):
        host_kernel(*operands(2, 6))


def test_validation_on_host_arrays(host_kernel):
    a, x, y = operands()
    with pytest.raises(TypeError, match=r"host_scale\(\): a must hold "
                       r"float32 \(f32\), got float64"):
        host_kernel(a.astype(numpy.float64), x, y)
    with pytest.raises(ValueError, match=r"host_scale\(\): a must be "
                       r"contiguous"):
        host_kernel(numpy.asfortranarray(a), x, y)
    with pytest.raises(ValueError, match=r"host_scale\(\): x must be in host "
                       r"memory \(@DRAM\), got a CUDA array"):
        host_kernel(a, CudaArray((8,)), y)
    with pytest.raises(TypeError, match=r"host_scale\(\): missing array y: "
                       r"f32\[M, N\] @DRAM \(read and written: pass it\)"):
        host_kernel(a, x)
    readonly = y.copy()
    readonly.flags.writeable = False
    with pytest.raises(TypeError, match=r"host_scale\(\): y: cannot read the "
                       "array"):
        host_kernel(a, x, readonly)
