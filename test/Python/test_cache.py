"""The cache of built kernels: a second compile is a hit, and a hit needs
neither the ExoGPU tools nor nvcc (the tool path points at nothing)."""

import json
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
        "imports.json", "kernel.cu", "kernel.so", "signature.json"]
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


def test_what_the_key_holds(filled, tmp_path, monkeypatch):
    root, first = filled
    request = first.library_path.parent.parent.name
    text = (INPUTS / "host_scale.mlir").read_text()
    # The same text passed as a string, from the file's folder (where its
    # relative imports would start), is the same request.
    monkeypatch.chdir(INPUTS)
    assert exogpu.compile(text, "host_scale", check=CHECK, arch="sm_80",
                          cache_dir=root).cached
    monkeypatch.chdir(tmp_path)
    changed = [
        compile_host(root, check=[CHECK, {"M": 1, "N": 4}]),
        compile_host(root, arch="sm_86"),
        compile_host(root, nvcc_flags=["-lineinfo"]),
        exogpu.compile(text + "\n// a comment\n", "host_scale", check=CHECK,
                       arch="sm_80", cache_dir=root),
        compile_host(root, import_paths=[tmp_path]),
    ]
    requests = {k.library_path.parent.parent.name for k in changed}
    assert len(requests) == 5 and request not in requests
    assert not any(k.cached for k in changed)


def test_an_edited_import_builds_anew(tmp_path, monkeypatch):
    # The kernel imports the proc it calls from another file: editing that
    # file invalidates the entry, restoring it finds the entry again.
    library = tmp_path / "scale_lib.mlir"
    library.write_text(SCALE.replace("FACTOR", "2.0"))
    kernel = tmp_path / "kernel.mlir"
    kernel.write_text(KERNEL)
    options = {"check": {"N": 4}, "arch": "sm_80",
               "cache_dir": tmp_path / "cache"}
    first = exogpu.compile(kernel, "scale_twice", **options)
    assert json.loads((first.library_path.parent / "imports.json")
                      .read_text()) == {
        str(library.resolve()): exogpu.tools.file_digest(library)}
    assert exogpu.compile(kernel, "scale_twice", **options).cached
    library.write_text(SCALE.replace("FACTOR", "3.0"))
    edited = exogpu.compile(kernel, "scale_twice", **options)
    assert not edited.cached
    assert edited.library_path != first.library_path
    library.write_text(SCALE.replace("FACTOR", "2.0"))
    assert exogpu.compile(kernel, "scale_twice", **options).library_path \
        == first.library_path
    # Without the tools, an entry whose imports are absent serves (a cache
    # carried to another machine), one whose imports changed does not.
    monkeypatch.setenv("EXOGPU_BIN", str(tmp_path / "no-tools"))
    library.write_text(SCALE.replace("FACTOR", "4.0"))
    with pytest.raises(exogpu.ToolNotFoundError):
        exogpu.compile(kernel, "scale_twice", **options)
    library.unlink()
    assert exogpu.compile(kernel, "scale_twice", **options).cached


SCALE = """
exogpu.proc @scale(%N: size, %x: f32[%N] @DRAM) {
  exogpu.for %i in seq(0, %N) {
    exogpu.assign %x[%i] = %x[%i] * FACTOR : f32[?] @DRAM
  }
}
"""

KERNEL = """exogpu.import "scale_lib.mlir"
exogpu.proc @scale_twice(%N: size, %x: f32[%N] @DRAM) {
  exogpu.call @scale[%N](%x[:]) : f32[?] @DRAM
  exogpu.call @scale[%N](%x[:]) : f32[?] @DRAM
}
"""


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
    assert [p.name for p in (tmp_path / "r").iterdir()] == [entry.name]
    assert entry.name.startswith("t-")
    digest = exogpu.tools.file_digest
    assert store.lookup("r", "t", digest) == entry and \
        store.lookup("r", None, digest) == entry and \
        store.lookup("r", "u", digest) is None
