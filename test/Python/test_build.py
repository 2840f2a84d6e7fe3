"""Building a translated kernel into a shared library with nvcc."""

import ctypes
import subprocess

import pytest

import exogpu
from exogpu import build

from conftest import EXAMPLES, has_gpu


def test_architectures():
    assert build.normalize_arch("sm_90a") == "sm_90a"
    assert build.normalize_arch("90a") == "sm_90a"
    assert build.normalize_arch("9.0a") == "sm_90a"
    assert build.normalize_arch("compute_80") == "sm_80"
    with pytest.raises(ValueError, match="unknown GPU architecture 'hopper'"):
        build.normalize_arch("hopper")
    assert build.arch_flags("sm_90a") == ["-gencode",
                                          "arch=compute_90a,code=sm_90a"]
    assert build.arch_flags("sm_80") == ["-arch=sm_80"]
    assert build.arch_of_capability(9, 0) == "sm_90a"
    assert build.arch_of_capability(8, 6) == "sm_86"


@pytest.mark.skipif(has_gpu(), reason="a GPU is present")
def test_no_gpu_needs_an_arch(tmp_path):
    assert build.detect_arch() is None
    with pytest.raises(exogpu.ToolNotFoundError, match="no CUDA GPU found "
                       "to compile for: pass arch="):
        exogpu.compile(EXAMPLES / "vector_add.mlir", "vector_add",
                       check={"N": 256}, cache_dir=tmp_path)


def test_shared_library(tmp_path, nvcc):
    kernel = exogpu.compile(EXAMPLES / "vector_add.mlir", "vector_add",
                            check=[{"N": 128}, {"N": 512}], arch="sm_80",
                            cache_dir=tmp_path)
    symbols = subprocess.run(["nm", "-D", "--defined-only",
                              str(kernel.library_path)], capture_output=True,
                             text=True, check=True).stdout.split()
    for name in ("vector_add", "exogpu_py_error_name",
                 "exogpu_py_error_string", "exogpu_py_get_device",
                 "exogpu_py_set_device", "exogpu_py_stream_wait"):
        assert name in symbols
    # The CUDA runtime is linked in: the library needs no libcudart.
    needed = subprocess.run(["readelf", "-d", str(kernel.library_path)],
                            capture_output=True, text=True,
                            check=True).stdout
    assert "libcudart" not in needed and "libcuda." not in needed
    library = ctypes.CDLL(str(kernel.library_path))
    library.exogpu_py_error_name.restype = ctypes.c_char_p
    assert library.exogpu_py_error_name(1) == b"cudaErrorInvalidValue"
    assert repr(kernel) == (
        "<exogpu.Kernel cudaError_t vector_add(cudaStream_t stream, int64_t "
        "N, const float *X, const float *Y, float *Z)>")


def test_nvcc_failure_is_a_build_error(tmp_path, nvcc):
    with pytest.raises(exogpu.BuildError) as caught:
        exogpu.compile(EXAMPLES / "vector_add.mlir", "vector_add",
                       check={"N": 128}, arch="sm_80", cache_dir=tmp_path,
                       nvcc_flags=["--no-such-nvcc-flag"])
    assert "no-such-nvcc-flag" in caught.value.log
    assert str(caught.value).startswith("nvcc failed (")
    assert not list(tmp_path.glob("*/*"))  # nothing half-built is left


def test_missing_nvcc(tmp_path, monkeypatch):
    monkeypatch.setenv("EXOGPU_NVCC", str(tmp_path / "nvcc"))
    with pytest.raises(exogpu.ToolNotFoundError, match="nvcc not found"):
        exogpu.compile(EXAMPLES / "vector_add.mlir", "vector_add",
                       check={"N": 128}, arch="sm_80", cache_dir=tmp_path)
