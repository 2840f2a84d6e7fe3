"""Finding and running the ExoGPU tools and nvcc.

The tools (`exogpu-opt`, `exogpu-translate`, `exogpu-run`) are found in
`$EXOGPU_BIN` if it is set (and only there), else in `$EXOGPU_BUILD_DIR/bin`
if that is set (and only there), else in the repository's `build/bin`, else
on `PATH`. nvcc is `$EXOGPU_NVCC` if set (and only that), else `nvcc` on
`PATH`, `$CUDA_HOME/bin/nvcc` or `/usr/local/cuda/bin/nvcc`. The repository
(for `stdlib/` and `runtime/include`) is `$EXOGPU_ROOT`, else the checkout
this package lives in (`pip install -e python/`).
"""

from __future__ import annotations

import functools
import hashlib
import os
import pathlib
import shutil
import subprocess
from typing import Optional, Sequence

from .errors import ToolError, ToolNotFoundError, parse_diagnostics


def repository_root() -> pathlib.Path:
    """The ExoGPU checkout: `stdlib/`, `runtime/include/`, `build/`."""
    root = os.environ.get("EXOGPU_ROOT")
    path = (pathlib.Path(root) if root else
            pathlib.Path(__file__).resolve().parents[2])
    if not (path / "runtime" / "include" / "exogpu" / "runtime.cuh").is_file():
        raise ToolNotFoundError(
            f"{path} is not an ExoGPU checkout (no runtime/include/exogpu/"
            "runtime.cuh): install the package from the repository "
            "(pip install -e python/) or set EXOGPU_ROOT")
    return path


def runtime_include_dir() -> pathlib.Path:
    return repository_root() / "runtime" / "include"


def _tool_dirs() -> Sequence[pathlib.Path]:
    if "EXOGPU_BIN" in os.environ:
        return [pathlib.Path(os.environ["EXOGPU_BIN"])]
    if "EXOGPU_BUILD_DIR" in os.environ:
        return [pathlib.Path(os.environ["EXOGPU_BUILD_DIR"]) / "bin"]
    dirs = [pathlib.Path(__file__).resolve().parents[2] / "build" / "bin"]
    dirs += [pathlib.Path(p) for p in os.environ.get("PATH", "").split(
        os.pathsep) if p]
    return dirs


def find_tool(name: str) -> Optional[pathlib.Path]:
    """The path of ExoGPU tool `name`, or None."""
    for directory in _tool_dirs():
        candidate = directory / name
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return candidate
    return None


def require_tool(name: str) -> pathlib.Path:
    path = find_tool(name)
    if path is None:
        dirs = _tool_dirs()
        where = ", ".join(str(d) for d in dirs[:2]) + (
            ", PATH" if len(dirs) > 2 else "")
        raise ToolNotFoundError(
            f"{name} not found (looked in {where}): build ExoGPU (bash "
            "scripts/build.sh) or set EXOGPU_BUILD_DIR or EXOGPU_BIN")
    return path


def find_nvcc() -> Optional[pathlib.Path]:
    """The nvcc to build kernels with, or None."""
    if "EXOGPU_NVCC" in os.environ:
        candidates = [os.environ["EXOGPU_NVCC"]]
    else:
        candidates = [shutil.which("nvcc") or ""]
        if os.environ.get("CUDA_HOME"):
            candidates.append(os.path.join(os.environ["CUDA_HOME"], "bin",
                                           "nvcc"))
        candidates.append("/usr/local/cuda/bin/nvcc")
    for candidate in candidates:
        if candidate and os.path.isfile(candidate) and os.access(
                candidate, os.X_OK):
            return pathlib.Path(candidate)
    return None


def require_nvcc() -> pathlib.Path:
    nvcc = find_nvcc()
    if nvcc is None:
        raise ToolNotFoundError(
            "nvcc not found: install the CUDA toolkit, put nvcc on PATH or "
            "set EXOGPU_NVCC")
    return nvcc


@functools.lru_cache(maxsize=None)
def _file_digest(path: str, size: int, mtime_ns: int) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as file:
        for block in iter(lambda: file.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def file_digest(path: pathlib.Path) -> str:
    """The SHA-256 of a file's bytes (memoized while it is unchanged)."""
    stat = path.stat()
    return _file_digest(str(path), stat.st_size, stat.st_mtime_ns)


@functools.lru_cache(maxsize=None)
def _nvcc_version(path: str, size: int, mtime_ns: int) -> str:
    return subprocess.run([path, "--version"], capture_output=True,
                          text=True, check=True).stdout.strip()


def nvcc_version(nvcc: pathlib.Path) -> str:
    """`nvcc --version` (memoized while nvcc is unchanged)."""
    stat = nvcc.stat()
    return _nvcc_version(str(nvcc), stat.st_size, stat.st_mtime_ns)


def run_tool(name: str, args: Sequence[str], stdin: str, stage: str,
             map_location=None, on_success=None) -> str:
    """Runs ExoGPU tool `name` on `stdin`; returns its standard output
    (`on_success`, if given, receives the standard error of a successful
    run: its warnings and remarks).

    A failure raises ToolError with the tool's diagnostics, their positions
    mapped by `map_location` (see errors.parse_diagnostics). Verifier
    errors come without MLIR's dump of the failing op in generic form."""
    quiet = ["--mlir-print-op-on-diagnostic=false"] if name in (
        "exogpu-opt", "exogpu-translate") else []
    command = [str(require_tool(name)), *quiet, *args]
    result = subprocess.run(command, input=stdin, capture_output=True,
                            text=True)
    if result.returncode != 0:
        kwargs = {"map_location": map_location} if map_location else {}
        raise ToolError(stage, parse_diagnostics(result.stderr, **kwargs),
                        result.stderr)
    if on_success is not None:
        on_success(result.stderr)
    return result.stdout
