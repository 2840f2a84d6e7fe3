"""Every check a Kernel makes before it launches, with stand-in arrays
(fakes.py): each failure is a TypeError or ValueError naming the
parameter. examples/gemv.mlir: gemv(M, N, A: f32[M, N], x: f32[N],
y: f32[M]) requires M mod 128 == 0 and N > 0."""

import numpy
import pytest

import exogpu
from exogpu import arrays

from conftest import has_gpu
from fakes import CudaArray, DLPackCudaArray


def test_not_an_array(gemv_kernel):
    with pytest.raises(TypeError, match=r"gemv\(\): A must be an array "
                       r"\(DLPack or __cuda_array_interface__\), got list"):
        gemv_kernel([[1.0]], CudaArray((1,)), CudaArray((128,)))


def test_element_type(gemv_kernel):
    with pytest.raises(TypeError, match=r"gemv\(\): x must hold float32 "
                       r"\(f32\), got <f8"):
        gemv_kernel(CudaArray((128, 4)), CudaArray((4,), "<f8"),
                    CudaArray((128,)))
    with pytest.raises(TypeError, match=r"A must hold float32 \(f32\), got "
                       "bfloat16"):
        gemv_kernel(DLPackCudaArray((128, 4), dtype=(4, 16)),
                    CudaArray((4,)), CudaArray((128,)))


def test_device(gemv_kernel):
    with pytest.raises(ValueError, match=r"gemv\(\): A must be in CUDA "
                       r"device memory \(@CudaGmemLinear\), got a CPU array"):
        gemv_kernel(numpy.zeros((128, 4), numpy.float32), CudaArray((4,)),
                    CudaArray((128,)))
    with pytest.raises(ValueError, match="the arrays are on different "
                       r"devices \(0, 1\)"):
        gemv_kernel(DLPackCudaArray((128, 4), device_id=0),
                    DLPackCudaArray((4,), device_id=1), CudaArray((128,)))


def test_shape(gemv_kernel):
    with pytest.raises(ValueError, match=r"gemv\(\): x has shape \(5,\), "
                       r"expected \[N\] = \(4,\) \(N = 4 from dimension 1 of "
                       r"A\)"):
        gemv_kernel(CudaArray((128, 4)), CudaArray((5,)), CudaArray((128,)))
    with pytest.raises(ValueError, match=r"y has shape \(128, 1\), expected "
                       r"\[M\] = \(128,\)"):
        gemv_kernel(CudaArray((128, 4)), CudaArray((4,)),
                    CudaArray((128, 1)))
    with pytest.raises(ValueError, match=r"A has shape \(128, 4\), expected "
                       r"\[M, N\] = \(128, 8\) \(N = 8 as given\)"):
        gemv_kernel(CudaArray((128, 4)), CudaArray((4,)), CudaArray((128,)),
                    N=8)


def test_contiguity(gemv_kernel):
    # A transposed view: column-major strides.
    with pytest.raises(ValueError, match=r"gemv\(\): A must be contiguous "
                       r"\(row-major, dense\); its strides are \(1, 128\) "
                       r"elements for shape \(128, 4\)"):
        gemv_kernel(CudaArray((128, 4), strides=(1, 128)), CudaArray((4,)),
                    CudaArray((128,)))
    with pytest.raises(ValueError, match="x must be contiguous"):
        gemv_kernel(CudaArray((128, 4)), DLPackCudaArray((4,), strides=(2,)),
                    CudaArray((128,)))


def test_requires(gemv_kernel):
    with pytest.raises(ValueError, match=r"gemv\(\): precondition does not "
                       r"hold at M=100, N=4: requires M mod 128 == 0 and "
                       r"N > 0"):
        gemv_kernel(CudaArray((100, 4)), CudaArray((4,)), CudaArray((100,)))
    with pytest.raises(ValueError, match="at M=128, N=0"):
        gemv_kernel(CudaArray((128, 0)), CudaArray((0,)), CudaArray((128,)))


def test_arguments(gemv_kernel):
    A, x, y = CudaArray((128, 4)), CudaArray((4,)), CudaArray((128,))
    with pytest.raises(TypeError, match=r"gemv\(\) takes 3 array arguments "
                       r"\(A, x, y\), got 4"):
        gemv_kernel(A, x, y, y)
    with pytest.raises(TypeError, match=r"gemv\(\) has no parameter 'B'"):
        gemv_kernel(A, x, B=y)
    with pytest.raises(TypeError, match=r"gemv\(\) got two values for 'x'"):
        gemv_kernel(A, x, x=x)
    with pytest.raises(TypeError, match=r"gemv\(\) got two values for 'y'"):
        gemv_kernel(A, x, y, out=y)
    with pytest.raises(TypeError, match=r"out= takes 1 arrays \(y\), got 2"):
        gemv_kernel(A, x, out=(y, y))
    with pytest.raises(TypeError, match=r"gemv\(\): missing array x: "
                       r"f32\[N\] @CudaGmemLinear \(an input: pass it\)"):
        gemv_kernel(A, y=y)
    with pytest.raises(TypeError, match="stream must be a cudaStream_t"):
        gemv_kernel(A, x, y, stream="fast")


def test_read_only_output(gemv_kernel):
    with pytest.raises(ValueError, match=r"gemv\(\): y is written by the "
                       "kernel but the array is read-only"):
        gemv_kernel(CudaArray((128, 4)), CudaArray((4,)),
                    CudaArray((128,), readonly=True))


def test_masked_array(gemv_kernel):
    with pytest.raises(TypeError, match="A: cannot read the array: masked"):
        gemv_kernel(CudaArray((128, 4), mask=object()), CudaArray((4,)),
                    CudaArray((128,)))


def test_output_allocation_needs_an_array_library(gemv_kernel, monkeypatch):
    # Neither torch tensors nor CuPy: the output cannot be allocated.
    monkeypatch.setitem(__import__("sys").modules, "cupy", None)
    with pytest.raises(TypeError, match=r"gemv\(\): cannot allocate the "
                       r"output y: f32\[M\] @CudaGmemLinear: pass it "
                       r"\(y=\.\.\. or out=\), or pass torch tensors or "
                       "install CuPy"):
        gemv_kernel(CudaArray((128, 4)), CudaArray((4,)))


def test_dlpack_views():
    array = DLPackCudaArray((3, 4), dtype=(4, 16), device_id=1,
                            pointer=0x1000)
    view = arrays.view(array, 77)
    assert array.streams == [77]
    assert (view.pointer, view.shape, view.strides) == (0x1010, (3, 4), None)
    assert view.device_name == "CUDA device 1" and view.is_contiguous
    assert view.has_dtype((4, 16), ()) and not view.has_dtype((2, 16),
                                                              ("<f2",))
    # DLPack forbids stream 0 for CUDA: the legacy default stream is 1.
    arrays.view(array, None)
    arrays.view(array, 0)
    assert array.streams == [77, 1, 1]
    # NumPy arrays come through DLPack on the CPU, with element strides.
    host = arrays.view(numpy.zeros((4, 6), numpy.int32)[:, ::2], None)
    assert host.device_type == arrays.DL_CPU and host.strides == (6, 2)
    assert host.has_dtype((0, 32), ("<i4",)) and not host.is_contiguous
    assert host.dtype_name() == "int32"
    assert arrays.view(object(), None) is None


def test_stream_reaches_dlpack_producers(gemv_kernel):
    A = DLPackCudaArray((100, 4))
    with pytest.raises(ValueError, match="precondition"):
        gemv_kernel(A, CudaArray((4,)), CudaArray((100,)), stream=1234)
    assert A.streams == [1234]


@pytest.mark.skipif(has_gpu(), reason="would launch on stand-in pointers")
def test_cuda_errors_raise_without_a_gpu(gemv_kernel):
    with pytest.raises(exogpu.CudaError) as caught:
        gemv_kernel(CudaArray((128, 4)), CudaArray((4,)), CudaArray((128,)))
    error = caught.value
    assert error.name in ("cudaErrorInsufficientDriver", "cudaErrorNoDevice")
    assert str(error).startswith(f"gemv(): the host function: {error.name} "
                                 f"({error.code}): ")


def test_stream_objects(gemv_kernel):
    class TorchLike:
        cuda_stream = 11

    class CupyLike:
        ptr = 22

    class CudaPython:
        def __cuda_stream__(self):
            return (0, 33)

    A = DLPackCudaArray((100, 4))
    for stream in (TorchLike(), CupyLike(), CudaPython()):
        with pytest.raises(ValueError, match="precondition"):
            gemv_kernel(A, CudaArray((4,)), CudaArray((100,)), stream=stream)
    assert A.streams == [11, 22, 33]
