"""Fixtures of the exogpu package's tests (docs/python.md "Tests").

The lit tests of this folder run each test_*.py with the package on
PYTHONPATH and EXOGPU_BUILD_DIR naming the build. Kernels are built for
sm_80 (no GPU is needed to build or load them); the host-only proc of
Inputs/host_scale.mlir also runs without a GPU.
"""

import ctypes
import os
import pathlib
import shutil
import subprocess

import pytest

import exogpu

ROOT = pathlib.Path(__file__).resolve().parents[2]
INPUTS = pathlib.Path(__file__).resolve().parent / "Inputs"
EXAMPLES = ROOT / "examples"


def has_gpu() -> bool:
    """Whether a CUDA device is present (the driver loads and counts one)."""
    try:
        driver = ctypes.CDLL("libcuda.so.1")
    except OSError:
        return False
    count = ctypes.c_int()
    return (driver.cuInit(0) == 0 and
            driver.cuDeviceGetCount(ctypes.byref(count)) == 0 and
            count.value > 0)


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "cuda_gpu: needs a CUDA GPU and PyTorch (skipped "
        "otherwise)")


def pytest_collection_modifyitems(config, items):
    skip = None
    if not has_gpu():
        skip = pytest.mark.skip(reason="no CUDA GPU")
    else:
        try:
            import torch  # noqa: F401
        except ImportError:
            skip = pytest.mark.skip(reason="PyTorch is not installed")
    for item in items:
        if skip is not None and "cuda_gpu" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(scope="session")
def cache_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("cache")


@pytest.fixture(scope="session")
def host_kernel(cache_dir):
    """Inputs/host_scale.mlir built for sm_80: it runs on NumPy arrays."""
    return exogpu.compile(INPUTS / "host_scale.mlir", "host_scale",
                          check={"M": 3, "N": 8}, arch="sm_80",
                          cache_dir=cache_dir)


@pytest.fixture(scope="session")
def gemv_kernel(cache_dir):
    """examples/gemv.mlir built for sm_80 (device memory parameters)."""
    return exogpu.compile(EXAMPLES / "gemv.mlir", "gemv",
                          check={"M": 256, "N": 64}, arch="sm_80",
                          cache_dir=cache_dir)


@pytest.fixture
def no_tools(tmp_path, monkeypatch):
    """Points the ExoGPU tools and nvcc at nothing."""
    empty = tmp_path / "no-tools"
    empty.mkdir()
    monkeypatch.setenv("EXOGPU_BIN", str(empty))
    monkeypatch.setenv("EXOGPU_NVCC", str(empty / "nvcc"))
    assert exogpu.tools.find_tool("exogpu-opt") is None
    assert exogpu.tools.find_nvcc() is None


@pytest.fixture(scope="session")
def nvcc():
    path = exogpu.tools.find_nvcc()
    if path is None or shutil.which(str(path)) is None:
        pytest.skip("nvcc not found")
    return path


def printed(source: exogpu.Source, *flags: str) -> str:
    """The module of `source` as exogpu-opt prints it (parsed and verified,
    its imports resolved; `flags` go to exogpu-opt)."""
    return exogpu.tools.run_tool("exogpu-opt", flags, "printing", source)


def pytest_report_header(config):
    return [f"exogpu tools: {exogpu.tools.find_tool('exogpu-opt')}",
            f"nvcc: {exogpu.tools.find_nvcc()}",
            f"GPU: {'yes' if has_gpu() else 'no'}",
            f"EXOGPU_BUILD_DIR={os.environ.get('EXOGPU_BUILD_DIR', '')}"]
