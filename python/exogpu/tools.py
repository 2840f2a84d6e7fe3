"""Finding and running the ExoGPU tools and nvcc.

The tools (`exogpu-opt`, `exogpu-translate`, `exogpu-run`) are found in
`$EXOGPU_BIN` if it is set (and only there), else in `$EXOGPU_BUILD_DIR/bin`
if that is set (and only there), else, with `$EXOGPU_ROOT` set, in its
`bin` (an installed prefix: `cmake --install`) or `build/bin` (a checkout),
else in the `build/bin` of the checkout this package lives in (`pip install
-e python/`), else on `PATH`. nvcc is `$EXOGPU_NVCC` if set (and only that),
else `nvcc` on `PATH`, `$CUDA_HOME/bin/nvcc` or `/usr/local/cuda/bin/nvcc`.

The runtime headers emitted CUDA includes and the instruction libraries come
with the package (`exogpu/data`, copied in when the wheel is built); a
package used from a checkout (`pip install -e python/`) reads the
checkout's; `$EXOGPU_ROOT`, a prefix or a checkout, comes first. The tools
resolve a kernel's imports themselves (docs/design/exogpu-dialect.md
"Imports"); the package's instruction libraries are their last resort.
"""

from __future__ import annotations

import functools
import hashlib
import os
import pathlib
import shutil
import subprocess
from typing import TYPE_CHECKING, List, Optional, Sequence, Tuple

from .errors import ToolError, ToolNotFoundError, parse_diagnostics

if TYPE_CHECKING:
    from .source import Source

_PACKAGE = pathlib.Path(__file__).resolve().parent
# The checkout the package lives in, when it is used from one.
_CHECKOUT = _PACKAGE.parents[1]
_RUNTIME_HEADER = pathlib.Path("exogpu") / "runtime.cuh"


def _data_dirs() -> List[pathlib.Path]:
    """Folders that may hold `runtime/include` and `stdlib` as the package
    needs them, in the order they are tried."""
    dirs = []
    root = os.environ.get("EXOGPU_ROOT")
    if root:
        dirs += [pathlib.Path(root) / "share" / "exogpu", pathlib.Path(root)]
    dirs += [_PACKAGE / "data", _CHECKOUT]
    return dirs


def runtime_include_dir() -> pathlib.Path:
    """The folder of `exogpu/runtime.cuh`, which nvcc gets with -I."""
    for folder in _data_dirs():
        include = folder / "runtime" / "include"
        if (include / _RUNTIME_HEADER).is_file():
            return include
    tried = ", ".join(str(d / "runtime" / "include") for d in _data_dirs())
    raise ToolNotFoundError(
        f"the ExoGPU runtime headers are not found (looked in {tried}): "
        "install the wheel (pip wheel python/), use the package from a "
        "checkout (pip install -e python/), or set EXOGPU_ROOT to an "
        "installed prefix or a checkout")


def stdlib_dir() -> Optional[pathlib.Path]:
    """The package's instruction libraries (`sm80.mlir`, `sm90a.mlir`)."""
    for folder in _data_dirs():
        if (folder / "stdlib" / "sm90a.mlir").is_file():
            return folder / "stdlib"
    return None


def _tool_dirs() -> Tuple[List[pathlib.Path], bool]:
    """The folders the tools are looked for in, and whether PATH's follow."""
    if "EXOGPU_BIN" in os.environ:
        return [pathlib.Path(os.environ["EXOGPU_BIN"])], False
    if "EXOGPU_BUILD_DIR" in os.environ:
        return [pathlib.Path(os.environ["EXOGPU_BUILD_DIR"]) / "bin"], False
    root = os.environ.get("EXOGPU_ROOT")
    if root:
        return [pathlib.Path(root) / "bin",
                pathlib.Path(root) / "build" / "bin"], True
    return [_CHECKOUT / "build" / "bin"], True


def find_tool(name: str) -> Optional[pathlib.Path]:
    """The path of ExoGPU tool `name`, or None."""
    dirs, use_path = _tool_dirs()
    if use_path:
        dirs += [pathlib.Path(p) for p in os.environ.get("PATH", "").split(
            os.pathsep) if p]
    for directory in dirs:
        candidate = directory / name
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return candidate
    return None


def require_tool(name: str) -> pathlib.Path:
    path = find_tool(name)
    if path is None:
        dirs, use_path = _tool_dirs()
        where = ", ".join(str(d) for d in dirs) + (", PATH" if use_path
                                                   else "")
        raise ToolNotFoundError(
            f"{name} not found (looked in {where}): build ExoGPU (bash "
            "scripts/build.sh), put an installed prefix's bin on PATH, or set "
            "EXOGPU_ROOT (an installed prefix or a checkout), "
            "EXOGPU_BUILD_DIR or EXOGPU_BIN")
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


def _environment(tool: pathlib.Path) -> dict:
    """The environment of a tool run: the package's instruction libraries
    are searched last when the tool has none of its own
    (`<bindir>/../share/exogpu/stdlib`)."""
    environment = dict(os.environ)
    own = tool.resolve().parent.parent / "share" / "exogpu" / "stdlib"
    package = stdlib_dir()
    if not own.is_dir() and package is not None:
        paths = [p for p in environment.get("EXOGPU_IMPORT_PATH", "").split(
            os.pathsep) if p]
        environment["EXOGPU_IMPORT_PATH"] = os.pathsep.join(
            [*paths, str(package)])
    return environment


def run_tool(name: str, args: Sequence[str], stage: str,
             source: Optional["Source"] = None, on_success=None) -> str:
    """Runs ExoGPU tool `name` with `args` on `source` (its file, or its
    text on stdin); returns the tool's standard output (`on_success`, if
    given, receives the standard error of a successful run: its warnings
    and remarks).

    A failure raises ToolError with the tool's diagnostics, their positions
    mapped by the source (see Source.map_location). Verifier errors come
    without MLIR's dump of the failing op in generic form."""
    tool = require_tool(name)
    quiet = ["--mlir-print-op-on-diagnostic=false"] if name in (
        "exogpu-opt", "exogpu-translate") else []
    command = [str(tool), *quiet, *args,
               *(source.tool_arguments() if source else [])]
    result = subprocess.run(command, input=source.stdin if source else None,
                            capture_output=True, text=True,
                            env=_environment(tool))
    if result.returncode != 0:
        kwargs = {"map_location": source.map_location} if source else {}
        raise ToolError(stage, parse_diagnostics(result.stderr, **kwargs),
                        result.stderr)
    if on_success is not None:
        on_success(result.stderr)
    return result.stdout
