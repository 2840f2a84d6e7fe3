"""A kernel's source and the instruction libraries linked before it.

The tools read one module: the instruction libraries (`stdlib/*.mlir`), the
files the kernel's `// exogpu-include: FILE...` lines name (relative to its
folder: the procs it calls, as the GEMM entry point examples/gemm_tf32.mlir
calls its variants) and then the kernel, as `cat stdlib/sm90a.mlir
kernel.mlir | exogpu-opt` does (docs/stdlib.md). A kernel is a `.mlir` file,
MLIR text, or a proc of the Python frontend (`@exogpu.proc`), whose module
links the libraries the proc calls. `Source` builds that text and maps
positions in it back to the files they came from (for a Python proc, the
Python line of each generated statement), so that diagnostics name the
user's file.
"""

from __future__ import annotations

import dataclasses
import os
import pathlib
import re
from typing import List, Optional, Sequence, Tuple, Union

from . import tools
from .errors import Location

SourceLike = Union[str, os.PathLike]
StdlibLike = Union[None, str, os.PathLike, Sequence[Union[str, os.PathLike]]]

# `// exogpu-stdlib: sm90a` names the instruction library a kernel calls,
# `// exogpu-include: a.mlir b.mlir` files of procs it calls.
_STDLIB_MARKER = re.compile(r"^\s*//\s*exogpu-stdlib:\s*(\S+)\s*$", re.M)
_INCLUDE_MARKER = re.compile(r"^\s*//\s*exogpu-include:\s*(.+?)\s*$", re.M)
DEFAULT_STDLIB = "sm90a"


@dataclasses.dataclass(frozen=True)
class _Part:
    name: str  # the file name diagnostics show
    text: str
    first_line: int  # where the part starts in the combined text (from 1)
    # For text generated from Python: the Python location of each line.
    locations: Optional[Sequence[Optional[Location]]] = None


class Source:
    """A kernel (a `.mlir` file or its text) and its instruction libraries.

    `stdlib` is "auto" (the libraries the source names with
    `// exogpu-stdlib: NAME` lines, else "sm90a"; for a Python proc, the
    libraries it calls), None (none), a library name ("sm80", "sm90a":
    `stdlib/NAME.mlir` of the repository), a path, or a list of these.
    """

    def __init__(self, source: SourceLike, stdlib: StdlibLike = "auto"):
        from .frontend.procs import Program
        locations = None
        if isinstance(source, Program):
            module = source.module()
            name, text, locations = source.file, module.text, \
                module.locations
            if isinstance(stdlib, str) and stdlib == "auto":
                stdlib = [library.name for library in module.libraries]
        else:
            name, text = _read_source(source)
        self.name = name
        self.text = text
        includes = _resolve_includes(name, text)
        # The libraries the kernel and the files it includes name.
        named = text + "".join(included for _, included in includes)
        self.libraries: List[Tuple[str, str]] = [
            (str(path), pathlib.Path(path).read_text())
            for path in _resolve_stdlib(stdlib, named)]
        self._parts: List[_Part] = []
        line = 1
        for part_name, part_text in self.libraries + includes + [(name, text)]:
            if not part_text.endswith("\n"):
                part_text += "\n"
            self._parts.append(_Part(part_name, part_text, line))
            line += part_text.count("\n")
        self._parts[-1] = dataclasses.replace(self._parts[-1],
                                              locations=locations)

    @property
    def combined(self) -> str:
        """The text the tools read: the libraries, then the kernel."""
        return "".join(part.text for part in self._parts)

    def map_location(self, file: str, line: int, column: int) -> Location:
        """Maps a position in `combined` (read as `file`) to its file."""
        if file not in ("<stdin>", "-"):
            return Location(file, line, column)
        for part in reversed(self._parts):
            if line >= part.first_line:
                local = line - part.first_line + 1
                if part.locations is not None and \
                        local <= len(part.locations) and \
                        part.locations[local - 1] is not None:
                    return part.locations[local - 1]
                return Location(part.name, local, column)
        return Location(file, line, column)


def _read_source(source: SourceLike) -> Tuple[str, str]:
    """(name, text) of a path or of MLIR text."""
    if isinstance(source, os.PathLike):
        path = pathlib.Path(source)
        return str(path), path.read_text()
    if not isinstance(source, str):
        raise TypeError("source must be a path or MLIR text, got "
                        f"{type(source).__name__}")
    if "\n" in source or "{" in source:  # a proc always has a body
        return "<string>", source
    path = pathlib.Path(source)
    if not path.is_file():
        raise FileNotFoundError(f"no such kernel file: {source!r} (pass a "
                                "path or the module's MLIR text)")
    return str(path), path.read_text()


def _resolve_includes(name: str, text: str) -> List[Tuple[str, str]]:
    """(name, text) of the files `// exogpu-include:` lines of `text` name,
    relative to the folder of the file `name` (the current folder for
    text)."""
    folder = pathlib.Path(name).parent if name != "<string>" else \
        pathlib.Path.cwd()
    files = []
    for line in _INCLUDE_MARKER.findall(text):
        for entry in line.split():
            path = folder / entry
            if not path.is_file():
                raise FileNotFoundError(
                    f"{name}: no such file to include: {entry!r} (looked "
                    f"for {path})")
            files.append((str(path), path.read_text()))
    return files


def _resolve_stdlib(stdlib: StdlibLike, text: str) -> List[pathlib.Path]:
    if stdlib is None:
        return []
    if isinstance(stdlib, str) and stdlib == "auto":
        named = _STDLIB_MARKER.findall(text)
        stdlib = list(dict.fromkeys(named)) or [DEFAULT_STDLIB]
    if isinstance(stdlib, (str, os.PathLike)):
        stdlib = [stdlib]
    return [find_library(entry) for entry in stdlib]


def find_library(entry: Union[str, os.PathLike]) -> pathlib.Path:
    """The file of a library name ("sm90a") or path."""
    path = pathlib.Path(entry)
    if isinstance(entry, str) and "/" not in entry and not path.suffix:
        path = tools.repository_root() / "stdlib" / f"{entry}.mlir"
        if not path.is_file():
            known = sorted(p.stem for p in path.parent.glob("*.mlir"))
            raise FileNotFoundError(
                f"unknown instruction library {entry!r} (known: "
                f"{', '.join(known) or 'none'}; or pass a path)")
        return path
    if not path.is_file():
        raise FileNotFoundError(f"no such instruction library: {str(entry)!r}")
    return path
