"""The cache of built kernels.

An entry is the shared library of one request, its CUDA source, its
signature and the digests of the files the kernel imports, in
`CACHE/<request>/<toolchain>-<imports>/`:

* `request` hashes what was asked for: the kernel's text, the folder its
  relative imports start from and the import search path, the proc, the
  size sets of the synchronization check, the target architecture, the
  extra nvcc flags, the runtime headers and the shim the library is built
  with;
* `toolchain` hashes what built it: the bytes of exogpu-opt and
  exogpu-translate and `nvcc --version`;
* `imports` hashes `imports.json`: the path and SHA-256 of every file the
  kernel imports, directly or not (the signature's `imports`, which the
  tools resolved).

A request whose toolchain is present uses only an entry of that toolchain
whose imported files are all unchanged (a rebuilt tool, another nvcc or an
edited instruction library builds anew). Without the tools or nvcc, the
newest entry of the request serves whose imported files are unchanged or
absent, so that a cache filled on one machine serves another with the same
GPU architecture and no MLIR or CUDA toolkit.
"""

from __future__ import annotations

import hashlib
import json
import os
import pathlib
import shutil
import tempfile
from typing import Any, Callable, Iterable, Optional

FORMAT = 2
LIBRARY = "kernel.so"
DEPENDENCIES = "imports.json"
Digest = Callable[[pathlib.Path], str]


def default_dir() -> pathlib.Path:
    """`$EXOGPU_CACHE_DIR`, else `$XDG_CACHE_HOME/exogpu`, else
    `~/.cache/exogpu`."""
    if os.environ.get("EXOGPU_CACHE_DIR"):
        return pathlib.Path(os.environ["EXOGPU_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(
        os.path.expanduser("~"), ".cache")
    return pathlib.Path(base) / "exogpu"


def digest(parts: Any) -> str:
    """A hash of a JSON-serializable value."""
    text = json.dumps([FORMAT, parts], sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:32]


class Cache:
    """The cache rooted at `root`."""

    def __init__(self, root: Optional[os.PathLike] = None):
        self.root = pathlib.Path(root) if root is not None else default_dir()

    def lookup(self, request: str, toolchain: Optional[str],
               digest_file: Digest) -> Optional[pathlib.Path]:
        """The entry of `request` built by `toolchain` whose imported files
        are unchanged (`digest_file` hashes a file); with no toolchain, the
        newest entry of `request` none of whose imported files changed; None
        if there is none."""
        folder = self.root / request
        entries = [e for e in folder.glob("*")
                   if not e.name.startswith(".") and (e / LIBRARY).is_file()]
        if toolchain is not None:
            entries = [e for e in entries
                       if e.name.startswith(toolchain + "-") and
                       _dependencies_hold(e, digest_file, absent_ok=False)]
        else:
            entries = [e for e in entries
                       if _dependencies_hold(e, digest_file, absent_ok=True)]
        if not entries:
            return None
        return max(entries, key=lambda e: (e / LIBRARY).stat().st_mtime_ns)

    def store(self, request: str, toolchain: str,
              fill: Callable[[pathlib.Path], None]) -> pathlib.Path:
        """Makes the entry of (`request`, `toolchain`): `fill` writes its
        files, `imports.json` among them (write_dependencies), into a fresh
        folder, which then appears at once (a concurrent build of the same
        entry leaves one of the two)."""
        folder = self.root / request
        folder.mkdir(parents=True, exist_ok=True)
        work = pathlib.Path(tempfile.mkdtemp(prefix=".build-", dir=folder))
        try:
            fill(work)
            dependencies = work / DEPENDENCIES
            imports = digest(json.loads(dependencies.read_text())
                             if dependencies.is_file() else {})
            entry = folder / f"{toolchain}-{imports}"
            try:
                os.rename(work, entry)
            except OSError:
                if not (entry / LIBRARY).is_file():
                    raise
        finally:
            if work.exists():
                shutil.rmtree(work, ignore_errors=True)
        return entry


def write_dependencies(folder: pathlib.Path, paths: Iterable[str],
                       digest_file: Digest) -> None:
    """Writes `imports.json` into an entry being filled: the SHA-256 of each
    file the kernel imports."""
    (folder / DEPENDENCIES).write_text(json.dumps(
        {path: digest_file(pathlib.Path(path)) for path in paths},
        indent=2, sort_keys=True))


def _dependencies_hold(entry: pathlib.Path, digest_file: Digest,
                       absent_ok: bool) -> bool:
    """Whether every file `entry` was built from is unchanged (or, with
    `absent_ok`, absent: the cache was carried to another machine)."""
    dependencies = entry / DEPENDENCIES
    if not dependencies.is_file():
        return True
    for path, recorded in json.loads(dependencies.read_text()).items():
        file = pathlib.Path(path)
        if not file.is_file():
            if not absent_ok:
                return False
        elif digest_file(file) != recorded:
            return False
    return True
