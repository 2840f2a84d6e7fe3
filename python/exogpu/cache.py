"""The cache of built kernels.

An entry is the shared library of one request, its CUDA source and its
signature, in `CACHE/<request>/<toolchain>/`:

* `request` hashes what was asked for: the kernel's text and the
  instruction libraries' texts, the proc, the size sets of the
  synchronization check, the target architecture, the extra nvcc flags, the
  runtime headers and the shim the library is built with;
* `toolchain` hashes what built it: the bytes of exogpu-opt and
  exogpu-translate and `nvcc --version`.

A request whose toolchain is present uses only its exact entry (a rebuilt
tool or another nvcc builds anew). Without the tools or nvcc, any entry of
the request serves (the newest), so that a cache filled on one machine
serves another with the same GPU architecture and no MLIR or CUDA toolkit.
"""

from __future__ import annotations

import hashlib
import json
import os
import pathlib
import shutil
import tempfile
from typing import Any, Callable, Optional

FORMAT = 1
LIBRARY = "kernel.so"


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

    def lookup(self, request: str, toolchain: Optional[str]
               ) -> Optional[pathlib.Path]:
        """The entry of `request` built by `toolchain`; with no toolchain,
        the newest entry of `request`; None if there is none."""
        folder = self.root / request
        if toolchain is not None:
            entry = folder / toolchain
            return entry if (entry / LIBRARY).is_file() else None
        entries = [e for e in folder.glob("*") if (e / LIBRARY).is_file()]
        if not entries:
            return None
        return max(entries, key=lambda e: (e / LIBRARY).stat().st_mtime_ns)

    def store(self, request: str, toolchain: str,
              fill: Callable[[pathlib.Path], None]) -> pathlib.Path:
        """Makes the entry of (`request`, `toolchain`): `fill` writes its
        files into a fresh folder, which then appears at once (a concurrent
        build of the same entry leaves one of the two)."""
        folder = self.root / request
        folder.mkdir(parents=True, exist_ok=True)
        entry = folder / toolchain
        work = pathlib.Path(tempfile.mkdtemp(prefix=".build-", dir=folder))
        try:
            fill(work)
            try:
                os.rename(work, entry)
            except OSError:
                if not (entry / LIBRARY).is_file():
                    raise
        finally:
            if work.exists():
                shutil.rmtree(work, ignore_errors=True)
        return entry
