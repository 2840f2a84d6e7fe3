"""A kernel's source: a `.mlir` file, the module's text, or a proc of the
Python frontend (`@exogpu.proc`).

The tools read the kernel as it is. Its `exogpu.import` statements name the
instruction libraries and the kernel files it uses, and the tools resolve
them (docs/design/exogpu-dialect.md "Imports"): in the kernel's folder (the
current folder for text), the `import_paths` folders (`-I`), the folders of
`EXOGPU_IMPORT_PATH` and the tools' own instruction libraries. A Python
proc's module imports the libraries it calls and holds the procs it calls;
each of its statements carries the location of its Python line, and a
position in the module text itself (a parse error) is mapped back to the
Python line it came from.
"""

from __future__ import annotations

import os
import pathlib
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

from .errors import Location

SourceLike = Union[str, os.PathLike]
ImportPaths = Sequence[Union[str, os.PathLike]]


class Source:
    """A kernel (a `.mlir` path, its text or a Python proc) and the folders
    its imports are searched in besides the tools' own (`import_paths`,
    like `-I`)."""

    def __init__(self, source: SourceLike, import_paths: ImportPaths = ()):
        from .frontend.procs import Program
        if isinstance(import_paths, (str, os.PathLike)):
            import_paths = [import_paths]
        # For a Python proc: the Python location of each line of the text.
        self._locations: Sequence[Optional[Location]] = ()
        if isinstance(source, Program):
            module = source.module()
            self.path, self.text = None, module.text
            self.name = source.file
            self._locations = module.locations
        else:
            self.path, self.text = _read_source(source)
            self.name = str(self.path) if self.path else "<string>"
        self.import_paths = [str(pathlib.Path(p).resolve())
                             for p in import_paths]

    def tool_arguments(self) -> List[str]:
        """The arguments that give a tool this kernel: its `-I` folders and
        the file (`-`, the text on stdin, for a kernel given as text)."""
        return [f"-I{folder}" for folder in self.import_paths] + [
            str(self.path) if self.path else "-"]

    @property
    def stdin(self) -> Optional[str]:
        """What the tools read on stdin: the text of a kernel given as
        text."""
        return None if self.path else self.text

    def identity(self) -> Dict[str, Any]:
        """What decides the program the tools read, but for the imported
        files' contents (which the cache checks by their digests): the text,
        the folder relative imports start from and the search path."""
        folder = (self.path.resolve().parent if self.path else
                  pathlib.Path.cwd())
        return {"text": self.text, "folder": str(folder),
                "import_paths": self.import_paths,
                "environment": os.environ.get("EXOGPU_IMPORT_PATH", "")}

    def map_location(self, file: str, line: int, column: int) -> Location:
        """The location a tool reports, with stdin named as the user's
        string (for a Python proc: the Python line of that line of the
        module)."""
        if file not in ("<stdin>", "-"):
            return Location(file, line, column)
        if 0 < line <= len(self._locations) and \
                self._locations[line - 1] is not None:
            return self._locations[line - 1]
        return Location(self.name, line, column)


def _read_source(source: SourceLike) -> Tuple[Optional[pathlib.Path], str]:
    """(path or None, text) of a path or of MLIR text."""
    if isinstance(source, os.PathLike):
        path = pathlib.Path(source)
        return path, path.read_text()
    if not isinstance(source, str):
        raise TypeError("source must be a path or MLIR text, got "
                        f"{type(source).__name__}")
    if "\n" in source or "{" in source:  # a proc always has a body
        return None, source
    path = pathlib.Path(source)
    if not path.is_file():
        raise FileNotFoundError(f"no such kernel file: {source!r} (pass a "
                                "path or the module's MLIR text)")
    return path, path.read_text()
