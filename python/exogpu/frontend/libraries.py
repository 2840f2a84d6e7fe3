"""Instruction libraries as the frontend sees them.

`from exogpu.stdlib import sm90a` binds a `Library`: the instruction
library `stdlib/sm90a.mlir`. The libraries a module imports are the ones
its procs declare (their modules import them: `exogpu.import "sm90a"`),
and a proc calls their instructions as `sm90a.Sm90_tma_load_128x32_f32(...)`
or by the bare name. The frontend only needs the instructions' names (to
resolve a call and to say which library it imports); their signatures and
rules stay in the library and are the tools' to check.
"""

from __future__ import annotations

import functools
import pathlib
import re
from typing import FrozenSet

from .. import tools

# `exogpu.instr @NAME(` and `exogpu.proc @NAME(` at the start of a line.
_SYMBOL = re.compile(r"^\s*exogpu\.(?:instr|proc)\s+@([A-Za-z_][\w$.]*)",
                     re.M)


class LibraryInstr:
    """An instruction of a library, named in a proc body."""

    def __init__(self, library: "Library", name: str):
        self.library = library
        self.name = name

    def __repr__(self) -> str:
        return f"{self.library.name}.{self.name}"

    def __call__(self, *args, **kwargs):
        raise TypeError(f"{self!r} is an instruction: call it in the body of "
                        "an @proc, which ExoGPU reads and never runs")


class Library:
    """An instruction library, by name (`"sm90a"`)."""

    def __init__(self, name: str):
        self.name = name

    @functools.cached_property
    def path(self) -> pathlib.Path:
        """The library's file, as the tools find `exogpu.import "NAME"`
        (the instruction libraries that come with the package)."""
        folder = tools.stdlib_dir()
        path = folder / f"{self.name}.mlir" if folder else None
        if path is None or not path.is_file():
            known = sorted(p.stem for p in folder.glob("*.mlir")) \
                if folder else []
            raise FileNotFoundError(
                f"unknown instruction library {self.name!r} (known: "
                f"{', '.join(known) or 'none'})")
        return path

    @functools.cached_property
    def symbols(self) -> FrozenSet[str]:
        """The instructions (and procs) the library defines."""
        return frozenset(_SYMBOL.findall(self.path.read_text()))

    def __getattr__(self, name: str) -> LibraryInstr:
        if name.startswith("__") or name not in self.symbols:
            raise AttributeError(f"instruction library {self.name!r} has no "
                                 f"instruction {name!r}")
        return LibraryInstr(self, name)

    def __dir__(self):
        return sorted(self.symbols)

    def __repr__(self) -> str:
        return f"<exogpu instruction library {self.name!r}>"
