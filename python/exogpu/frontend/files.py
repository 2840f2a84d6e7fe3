"""Python files of procs: loading one, and the procs it defines.

`python -m exogpu` and the tests read a kernel file the way `python
FILE.py` runs it: its folder first on `sys.path`, so that it imports the
procs of the files next to it (as examples/gemm_tf32.py calls the variants
it dispatches to).
"""

from __future__ import annotations

import importlib.util
import os
import pathlib
import sys
import types
from typing import List, Union

from .procs import Callable, ModuleText, Program, module_text


def load_file(path: Union[str, os.PathLike]) -> types.ModuleType:
    """Runs the Python file `path` as a module and returns it."""
    path = pathlib.Path(path).resolve()
    if not path.is_file():
        raise FileNotFoundError(f"no such file: {path}")
    name = "exogpu_file_" + "".join(c if c.isalnum() else "_"
                                    for c in path.stem)
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    folder = str(path.parent)
    added = folder not in sys.path
    if added:
        sys.path.insert(0, folder)
    try:
        spec.loader.exec_module(module)
    finally:
        if added:
            sys.path.remove(folder)
    return module


def defined_in(module: types.ModuleType) -> List[Callable]:
    """The procs and instructions `module` defines (not those it imports),
    in the order of their definitions."""
    file = os.path.abspath(module.__file__)
    found = [value for value in vars(module).values()
             if isinstance(value, Callable) and value.file == file]
    unique = []
    for value in found:
        if all(value is not seen for seen in unique):
            unique.append(value)
    return sorted(unique, key=lambda c: c.line)


class ProcFile(Program):
    """Every proc and instruction a Python file defines, as one module (in
    the order of the file, callees first)."""

    def __init__(self, path: Union[str, os.PathLike]):
        self.python_module = load_file(path)
        self.file = os.path.abspath(self.python_module.__file__)
        self.callables = defined_in(self.python_module)

    def module(self) -> ModuleText:
        return module_text(self.callables)

    def mlir(self) -> str:
        return self.module().text
