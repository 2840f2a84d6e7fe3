"""`exogpu.compile`: from a checked kernel to a callable in one call.

The steps, each a tool run whose diagnostics become a ToolError:

1. `exogpu-translate --to-signature-json`: the module parses and verifies,
   and the proc's host API is read (signature.py);
2. `exogpu-opt --exogpu-collective-analysis --exogpu-distributed-memory
   --exogpu-sync-check=...` once per size set: the static analyses
   (seeds/002 Sec. 4, 4.1) and the synchronization check (Sec. 5);
3. `exogpu-translate --to-cuda`: the CUDA translation;
4. nvcc builds the shared library (build.py), which is cached (cache.py).
"""

from __future__ import annotations

import json
import os
import pathlib
from typing import Any, Dict, List, Mapping, Optional, Sequence, Union

from . import build, cache, tools
from .kernel import Kernel
from .signature import Signature
from .source import ImportPaths, Source, SourceLike

SizeSet = Mapping[str, Union[int, bool]]


def compile(source: SourceLike, proc: Optional[str] = None, *,
            check: Union[SizeSet, Sequence[SizeSet]],
            arch: Optional[str] = None, import_paths: ImportPaths = (),
            cache_dir: Optional[os.PathLike] = None,
            nvcc_flags: Sequence[str] = ()) -> Kernel:
    """Checks, translates and builds proc `proc` of `source`; returns it as
    a callable `Kernel`.

    `source` is a `.mlir` path, the module's text, or a proc of the Python
    frontend (`@exogpu.proc`; `proc` defaults to its name); the tools
    resolve its `exogpu.import`s, also in the folders `import_paths` (see
    Source). `check` gives the sizes at which the
    synchronization check runs: one dict of every control parameter's value
    (``{"M": 256, "N": 256, "K": 64}``) or a list of them. `arch` is the
    GPU architecture ("sm_90a", "sm_80"; default: the current GPU's).
    Built libraries are cached in `cache_dir` (default: cache.default_dir())
    by content; a cache hit runs no tool and no nvcc, and needs neither.
    """
    sets = size_sets(check)
    kernel_source = Source(source, import_paths)
    proc = proc_name(source, proc)
    target = build.resolve_arch(arch)
    store = cache.Cache(cache_dir)
    runtime = tools.runtime_include_dir() / "exogpu"
    request = cache.digest({
        "source": kernel_source.identity(),
        "proc": proc,
        "check": sets,
        "arch": target,
        "nvcc_flags": list(nvcc_flags),
        "runtime": {p.name: p.read_text() for p in sorted(runtime.glob("*"))
                    if p.is_file()},
        "shim": build.SHIM.read_text(),
    })
    toolchain = _toolchain()
    entry = store.lookup(request, toolchain, tools.file_digest)
    if entry is not None:
        return _load(entry, proc, cached=True)
    if toolchain is None:
        # Reports what is missing.
        for name in ("exogpu-opt", "exogpu-translate"):
            tools.require_tool(name)
        tools.require_nvcc()

    def fill(folder: pathlib.Path) -> None:
        _build(kernel_source, proc, sets, target, list(nvcc_flags),
               folder)

    return _load(store.store(request, toolchain, fill), proc, cached=False)


def proc_name(source: Any, proc: Optional[str]) -> str:
    """`proc`, or the name of a Python proc given as the source."""
    if proc is not None:
        return proc
    name = getattr(source, "exogpu_symbol", None)
    if name is None:
        raise TypeError("name the proc: a .mlir file or text may hold "
                        "several")
    return name


def size_sets(check: Any) -> List[Dict[str, Any]]:
    sets = [check] if isinstance(check, Mapping) else check
    if isinstance(sets, (list, tuple)):
        sets = list(sets)
    if not isinstance(sets, list) or not sets or not all(
            isinstance(s, Mapping) for s in sets):
        raise TypeError("check= takes the sizes the synchronization check "
                        "runs at: a dict ({'M': 256, ...}) or a non-empty "
                        f"list of them, got {check!r}")
    result = []
    for sizes in sets:
        for name, value in sizes.items():
            if not isinstance(value, int):
                raise TypeError(f"check=: the value of {name} must be an int "
                                f"or a bool, got {type(value).__name__}")
        result.append(dict(sizes))
    return result


def _toolchain() -> Optional[str]:
    """The hash of the tools and nvcc that build here, or None if one is
    missing."""
    found = [tools.find_tool(name) for name in ("exogpu-opt",
                                                "exogpu-translate")]
    nvcc = tools.find_nvcc()
    if None in found or nvcc is None:
        return None
    return cache.digest({"tools": [tools.file_digest(p) for p in found],
                         "nvcc": tools.nvcc_version(nvcc)})


def _format_sizes(sizes: Mapping[str, Any]) -> str:
    return ",".join(f"{name}={str(value).lower()}"
                    for name, value in sizes.items())


def signatures(source: Source) -> Dict[str, Signature]:
    """Every proc's signature (`exogpu-translate --to-signature-json`)."""
    return Signature.load_all(_signature_json(source))


def _signature_json(source: Source) -> str:
    return tools.run_tool("exogpu-translate", ["--to-signature-json"],
                          f"parsing and verifying {source.name}", source)


def find_signature(source: Source, proc: str) -> Signature:
    procs = signatures(source)
    if proc not in procs:
        raise ValueError(f"{source.name} has no proc @{proc} (procs: "
                         f"{', '.join(procs) or 'none'})")
    return procs[proc]


def _build(source: Source, proc: str, size_sets: List[Dict[str, Any]],
           arch: str, nvcc_flags: List[str], folder: pathlib.Path) -> None:
    text = _signature_json(source)
    procs = Signature.load_all(text)
    if proc not in procs:
        raise ValueError(f"{source.name} has no proc @{proc} (procs: "
                         f"{', '.join(procs) or 'none'})")
    signature = procs[proc]
    imports = json.loads(text)["imports"]
    _check_arch(source, imports, arch)
    # The files the kernel imports: the entry is valid while they are.
    cache.write_dependencies(folder, imports, tools.file_digest)
    check_sizes(source, proc, size_sets)
    cuda = tools.run_tool("exogpu-translate", ["--to-cuda"],
                          f"CUDA translation of {source.name}", source)
    (folder / "kernel.cu").write_text(cuda)
    (folder / "signature.json").write_text(json.dumps({
        "format": 1, "procs": [signature.raw]}, indent=2))
    build.build_library(folder / "kernel.cu", folder / cache.LIBRARY, arch,
                        nvcc_flags)


def check_sizes(source: Source, proc: str,
                size_sets: List[Dict[str, Any]]) -> None:
    """Runs the collective analysis, the distributed memory deduction and
    the synchronization check of `proc` once per size set."""
    for sizes in size_sets:
        values = _format_sizes(sizes).replace(",", " ")
        tools.run_tool(
            "exogpu-opt",
            ["--exogpu-collective-analysis", "--exogpu-distributed-memory",
             f"--exogpu-sync-check=proc={proc} {values}", "-o", os.devnull],
            f"synchronization check of @{proc} at "
            f"{_format_sizes(sizes).replace(',', ', ')}", source)


def _check_arch(source: Source, imports: List[str], arch: str) -> None:
    """Raises ValueError for an `arch` the kernel cannot be built for, before
    the synchronization check and the translation run: one nvcc does not
    know, or another than sm_90a for a kernel that imports the sm_90a
    instruction library."""
    build.check_arch(tools.require_nvcc(), arch)
    hopper = [path for path in imports
              if pathlib.Path(path).name == "sm90a.mlir"]
    if hopper and arch != "sm_90a":
        raise ValueError(f"{source.name} imports the sm_90a instruction "
                         f"library ({hopper[0]}), whose wgmma, TMA and "
                         "setmaxnreg instructions need arch='sm_90a'; got "
                         f"arch={arch!r}")


def _load(entry: pathlib.Path, proc: str, cached: bool) -> Kernel:
    signature = Signature.load_all(
        (entry / "signature.json").read_text())[proc]
    return Kernel(entry / cache.LIBRARY, signature, entry / "kernel.cu",
                  cached=cached)
