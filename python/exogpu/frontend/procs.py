"""`@proc` and `@instr`: Python functions as ExoGPU procs and instructions.

    from exogpu.lang import *

    @proc
    def scale(N: size, x: f32[N] @ CudaGmemLinear):
        assert N % 128 == 0
        with CudaDeviceFunction(blockDim=128):
            for task in cuda_tasks(0, N / 128):
                for t in cuda_threads(0, 128, unit=cuda_thread):
                    x[task * 128 + t] = x[task * 128 + t] * 2.0

    scale.mlir()            # the module the tools read
    scale.check(N=1024)     # the analyses and the synchronization check

The decorator reads the function's source (Python's `ast`), translates it
(translate.py) and returns a `Proc`; the function itself is never called.
A module needs `from __future__ import annotations` so that Python does
not evaluate parameter annotations such as `f32[M, K]` (Exo does the same).
"""

from __future__ import annotations

import ast
import dataclasses
import functools
import linecache
import os
from typing import Any, Dict, List, Optional, Sequence, Union

from ..errors import FrontendError, Location
from .expressions import mlir_string
from .libraries import Library
from .translate import Translation, Translator


@dataclasses.dataclass
class ModuleText:
    """A module for the tools: its text, the Python location of each of its
    lines (None where a line has none), the libraries it needs."""

    text: str
    locations: List[Optional[Location]]
    libraries: List[Library]


def library_import(library: Library, where: Location) -> str:
    """The statement that imports an instruction library into a module
    (`exogpu.import "sm90a"`, docs/stdlib.md), located at `where`."""
    return (f"exogpu.import {mlir_string(library.name)} "
            f"loc({mlir_string(where.file)}:{where.line}:{where.column})")


class Program:
    """Python code the tools can read: `file` and `module()`."""

    file: str

    def module(self) -> ModuleText:
        raise NotImplementedError


class Callable(Program):
    """What procs and instructions share: a symbol, its dialect text and the
    procs, instructions and libraries it calls."""

    def __init__(self, translation: Translation, file: str, line: int):
        self.name = translation.name
        self.file = file
        self.line = line  # where the definition starts
        self._translation = translation

    @property
    def exogpu_symbol(self) -> str:
        """The symbol a call names (`@name`)."""
        return self.name

    @property
    def callees(self) -> List["Callable"]:
        return list(self._translation.callees)

    @property
    def libraries(self) -> List[Library]:
        return list(self._translation.libraries)

    def op_text(self) -> ModuleText:
        """This proc or instruction alone (one op)."""
        t = self._translation
        return ModuleText("\n".join(t.lines) + "\n", list(t.locations),
                          self.libraries)

    def module(self) -> ModuleText:
        """The module the tools read (module_text([self]))."""
        return module_text([self])

    def mlir(self) -> str:
        """The module text: `exogpu` dialect with the `loc(...)` of each
        statement's Python line (module())."""
        return self.module().text

    def __repr__(self) -> str:
        return f"<exogpu {type(self).__name__.lower()} @{self.name}>"


def module_text(roots: Sequence[Callable]) -> ModuleText:
    """The module of `roots`: the imports of the instruction libraries,
    then every proc and instruction they call (callees first, each once)
    and the roots, in order."""
    ordered: List[Callable] = []

    def visit(node: Callable) -> None:
        if any(node is seen for seen in ordered):
            return
        for callee in node.callees:
            visit(callee)
        ordered.append(node)
    for root in roots:
        visit(root)
    libraries: List[Library] = []
    for node in ordered:
        for library in node.libraries:
            if all(library is not known for known in libraries):
                libraries.append(library)
    locations: List[Optional[Location]] = [
        _import_location(roots[-1], library) for library in libraries]
    lines = [library_import(library, where)
             for library, where in zip(libraries, locations)]
    for node in ordered:
        part = node.op_text()
        lines.extend(part.text.splitlines())
        locations.extend(part.locations)
    return ModuleText("\n".join(lines) + "\n", locations, libraries)


def _import_location(root: Callable, library: Library) -> Location:
    """Where `root`'s file imports `library` (`from exogpu.stdlib import
    sm90a`), else where `root` is defined: the Python line a diagnostic of
    the library's import (not found, fails to verify) points at."""
    lines = linecache.getlines(root.file)
    if lines:
        for node in ast.walk(_parse_file(root.file, "".join(lines))):
            if isinstance(node, ast.ImportFrom) and \
                    node.module == "exogpu.stdlib" and any(
                        alias.name == library.name for alias in node.names):
                return Location(root.file, node.lineno, node.col_offset + 1)
    return Location(root.file, root.line, 1)


class Proc(Callable):
    """A proc (seeds/002 Fig. 2 `Proc`); `exogpu.compile`, `meaning` and
    `torch_op` take it as they take a `.mlir` file."""

    def check(self, **sizes: Union[int, bool]) -> None:
        """Runs the collective analysis, the distributed memory deduction
        and the synchronization check at the given values of the control
        parameters; raises `exogpu.ToolError` (at the Python lines) if the
        tools reject the proc."""
        from .. import compiler
        from ..source import Source
        compiler.check_sizes(Source(self), self.name,
                             compiler.size_sets(sizes))


def derived(base: Callable, *, name: Optional[str] = None,
            lines: Optional[List[str]] = None,
            locations: Optional[List[Optional[Location]]] = None,
            callees: Optional[List[Callable]] = None,
            libraries: Optional[List[Library]] = None) -> Proc:
    """A proc made from `base` (the result of a rewrite, exogpu.scheduling,
    or a proc a rewrite made of it): what is not given is `base`'s, and it
    keeps `base`'s file and line."""
    t = base._translation
    translation = Translation(
        t.name if name is None else name, lines if lines is not None else t.lines,
        locations if locations is not None else t.locations,
        callees if callees is not None else list(t.callees),
        libraries if libraries is not None else list(t.libraries))
    return Proc(translation, base.file, base.line)


class Instr(Callable):
    """An instruction (Fig. 2 `Instr`) defined in Python."""


def _function_node(function: Any) -> ast.FunctionDef:
    """The syntax tree of `function`, read from its file."""
    code = getattr(function, "__code__", None)
    if code is None:
        raise TypeError(f"@proc and @instr decorate functions, not "
                        f"{function!r}")
    linecache.checkcache(code.co_filename)  # the file may have changed
    lines = linecache.getlines(code.co_filename, function.__globals__)
    if not lines:
        raise TypeError(f"the source of {function.__name__} is not "
                        f"available ({code.co_filename}): define procs in "
                        "a file")
    tree = _parse_file(code.co_filename, "".join(lines))
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and \
                node.name == function.__name__:
            first = min([node.lineno] + [d.lineno for d in
                                         node.decorator_list])
            if first == code.co_firstlineno:
                if isinstance(node, ast.AsyncFunctionDef):
                    raise FrontendError("procs are not async", code.
                                        co_filename, node.lineno,
                                        node.col_offset + 1)
                return node
    raise TypeError(f"cannot find the definition of {function.__name__} in "
                    f"{code.co_filename}")


@functools.lru_cache(maxsize=64)
def _parse_file(file: str, text: str) -> ast.Module:
    return ast.parse(text, file)


def _namespace(function: Any) -> Dict[str, Any]:
    """The names a function's body sees: its closure, then its module."""
    namespace = dict(function.__globals__)
    closure = function.__closure__ or ()
    for name, cell in zip(function.__code__.co_freevars, closure):
        try:
            namespace[name] = cell.cell_contents
        except ValueError:  # a cell not yet assigned
            pass
    return namespace


def proc(function: Any = None) -> Any:
    """Decorator: reads a Python function as an ExoGPU proc (`Proc`)."""
    if function is None:
        return proc
    try:
        node = _function_node(function)
        file = os.path.abspath(function.__code__.co_filename)
        translation = Translator(node, _namespace(function),
                                 file).translate_proc()
    except FrontendError as error:
        # Shown at the proc's line, without the frontend's own frames.
        raise error.with_traceback(None) from None
    return Proc(translation, file, function.__code__.co_firstlineno)


_INSTR_KEYS = ("cuda", "unit", "target", "barrier", "barrier_dist")


def instr(cuda: Optional[str] = None, **config: Any) -> Any:
    """Decorator: reads a Python function as an instruction (`Instr`).

        @instr(cuda="atomicAdd({dst}, {src.0});", unit=cuda_thread)
        def atomic_add(dst: f32[1] @ CudaGmemLinear @ Arg(atomic=[
                           cuda_in_order_ram_qual]),
                       src: f32[1] @ CudaRmem):
            dst[0] += src[0]

    `cuda` is the CUDA template (docs/stdlib.md), `unit` the collective unit
    that calls it (cuda_thread by default), `target` "cuda" or "cpu",
    `barrier` the mechanism of its `>> z` and `barrier_dist` its
    distribution; the body is its sequential behavior and `@ Arg(...)` the
    annotations of a parameter (Fig. 2)."""
    for key in config:
        if key not in _INSTR_KEYS:
            raise TypeError(f"@instr takes no argument {key!r} (it takes "
                            f"{', '.join(_INSTR_KEYS)})")
    if config.get("target", "cuda") not in ("cuda", "cpu"):
        raise TypeError("@instr(target=...) is 'cuda' or 'cpu'")
    config["cuda"] = cuda

    def decorate(function: Any) -> Instr:
        try:
            node = _function_node(function)
            file = os.path.abspath(function.__code__.co_filename)
            decorator = node.decorator_list[0] if node.decorator_list \
                else node
            translation = Translator(node, _namespace(function),
                                     file).translate_instr(config, decorator)
        except FrontendError as error:
            # Shown at the instruction's line, without the frontend's frames.
            raise error.with_traceback(None) from None
        return Instr(translation, file, function.__code__.co_firstlineno)
    return decorate
