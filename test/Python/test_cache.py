"""The cache of built kernels: a second compile is a hit, and a hit needs
neither the ExoGPU tools nor nvcc (the tool path points at nothing)."""

import os
import pathlib
import stat

import numpy
import pytest

import exogpu
from exogpu import cache

from conftest import INPUTS

CHECK = {"M": 3, "N": 8}


def compile_host(cache_dir, **kwargs):
    options = {"check": CHECK, "arch": "sm_80", "cache_dir": cache_dir}
    options.update(kwargs)
    return exogpu.compile(INPUTS / "host_scale.mlir", "host_scale",
                          **options)


@pytest.fixture(scope="module")
def filled(tmp_path_factory):
    """A cache holding host_scale, and the kernel that filled it."""
    root = tmp_path_factory.mktemp("filled")
    return root, compile_host(root)


def test_second_compile_hits(filled):
    root, first = filled
    assert not first.cached
    second = compile_host(root)
    assert second.cached and second.library_path == first.library_path
    entry = first.library_path.parent
    assert sorted(p.name for p in entry.iterdir()) == [
        "kernel.cu", "kernel.so", "signature.json"]
    assert entry.parent.parent == root
    assert "extern \"C\" cudaError_t host_scale(" in \
        first.cuda_source.read_text()


def test_hit_without_tools(filled, no_tools):
    root, first = filled
    kernel = compile_host(root)
    assert kernel.cached and kernel.library_path == first.library_path
    a = numpy.ones((2, 4), numpy.float32)
    y = numpy.zeros((2, 4), numpy.float32)
    _, z = kernel(a, numpy.ones(4, numpy.float32), y)
    numpy.testing.assert_array_equal(z, [2, 2])
    # Another request misses, and says what is missing.
    with pytest.raises(exogpu.ToolNotFoundError, match="exogpu-opt not "
                       "found"):
        compile_host(root, check={"M": 3, "N": 12})


def test_what_the_key_holds(filled, tmp_path):
    root, first = filled
    request = first.library_path.parent.parent.name
    text = (INPUTS / "host_scale.mlir").read_text()
    # The same text passed as a string is the same request.
    assert exogpu.compile(text, "host_scale", check=CHECK, arch="sm_80",
                          cache_dir=root).cached
    changed = [
        compile_host(root, check=[CHECK, {"M": 1, "N": 4}]),
        compile_host(root, arch="sm_86"),
        compile_host(root, nvcc_flags=["-lineinfo"]),
        exogpu.compile(text + "\n// a comment\n", "host_scale", check=CHECK,
                       arch="sm_80", cache_dir=root),
    ]
    requests = {k.library_path.parent.parent.name for k in changed}
    assert len(requests) == 4 and request not in requests
    assert not any(k.cached for k in changed)


def test_a_new_nvcc_builds_anew(filled, tmp_path, monkeypatch, nvcc):
    root, first = filled
    wrapper = tmp_path / "nvcc"
    wrapper.write_text(
        "#!/bin/sh\n"
        "if [ \"$1\" = --version ]; then echo 'a newer nvcc'; exit 0; fi\n"
        f"exec {nvcc} \"$@\"\n")
    wrapper.chmod(wrapper.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setenv("EXOGPU_NVCC", str(wrapper))
    rebuilt = compile_host(root)
    assert not rebuilt.cached
    assert rebuilt.library_path.parent.parent == \
        first.library_path.parent.parent
    assert rebuilt.library_path != first.library_path
    # Without a toolchain, the newest entry of the request serves.
    monkeypatch.setenv("EXOGPU_NVCC", str(tmp_path / "none"))
    assert compile_host(root).library_path == rebuilt.library_path


def test_default_cache_dir(monkeypatch, tmp_path):
    monkeypatch.setenv("EXOGPU_CACHE_DIR", str(tmp_path / "c"))
    assert cache.default_dir() == tmp_path / "c"
    monkeypatch.delenv("EXOGPU_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "x"))
    assert cache.default_dir() == tmp_path / "x" / "exogpu"
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert cache.default_dir() == pathlib.Path(
        os.path.expanduser("~")) / ".cache" / "exogpu"


def test_store_keeps_a_concurrent_entry(tmp_path):
    store = cache.Cache(tmp_path)

    def fill(folder):
        (folder / cache.LIBRARY).write_text("first")
    entry = store.store("r", "t", fill)

    def fill_again(folder):
        (folder / cache.LIBRARY).write_text("second")
    assert store.store("r", "t", fill_again) == entry
    assert (entry / cache.LIBRARY).read_text() == "first"
    assert [p.name for p in (tmp_path / "r").iterdir()] == ["t"]
    assert store.lookup("r", "t") == entry and store.lookup("r", None) == \
        entry and store.lookup("r", "u") is None
