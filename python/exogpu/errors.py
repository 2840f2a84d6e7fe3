"""The exogpu package's exceptions; the tools' diagnostics as objects.

The ExoGPU tools report errors in MLIR's diagnostic format::

    kernel.mlir:15:5: error: WAW hazard on @D[0, 0]: ...
        exogpu.assign %D[...] = ...
        ^
    kernel.mlir:10:3: note: the earlier write is here

`parse_diagnostics` turns such text into `Diagnostic` objects (a severity, a
message, a `Location` and the notes attached to it); `ToolError` carries them
for a failed tool run, so that ``except exogpu.ToolError as e`` sees
``e.message``, ``e.location`` and ``e.notes`` of the first error.
"""

from __future__ import annotations

import dataclasses
import linecache
import re
from typing import Callable, List, Optional, Sequence


class ExoGPUError(Exception):
    """Base class of the errors this package raises."""


class FrontendError(ExoGPUError, SyntaxError):
    """A proc body uses Python syntax outside the ExoGPU language, or a name
    it cannot resolve. Shown like Python's SyntaxError: the file, the line,
    its text and a caret at the column."""

    def __init__(self, message: str, file: str, line: int, column: int,
                 text: Optional[str] = None):
        if text is None:
            text = linecache.getline(file, line)
        SyntaxError.__init__(self, message, (file, line, column, text))
        self.location = Location(file, line, column)


class ToolNotFoundError(ExoGPUError, FileNotFoundError):
    """An ExoGPU tool, nvcc or a GPU that a step needs is missing."""


class BuildError(ExoGPUError):
    """nvcc failed to build the translated kernel; `log` is its output."""

    def __init__(self, message: str, log: str = ""):
        super().__init__(message + ("\n" + log.rstrip() if log else ""))
        self.log = log


class CudaError(ExoGPUError):
    """A CUDA error returned by a kernel's host function or the runtime."""

    def __init__(self, code: int, name: str, description: str, where: str):
        super().__init__(f"{where}: {name} ({code}): {description}")
        self.code = code
        self.name = name
        self.description = description


@dataclasses.dataclass(frozen=True)
class Location:
    """A position in a source file (lines and columns count from 1)."""

    file: str
    line: int
    column: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"


@dataclasses.dataclass
class Diagnostic:
    """One diagnostic of a tool, with the notes that follow it."""

    severity: str  # "error", "warning", "remark" or "note"
    message: str
    location: Optional[Location] = None
    source_line: str = ""  # the quoted source line, with its caret line
    notes: List["Diagnostic"] = dataclasses.field(default_factory=list)

    def format(self) -> str:
        """The diagnostic as the tool printed it (locations mapped back)."""
        where = f"{self.location}: " if self.location else ""
        lines = [f"{where}{self.severity}: {self.message}"]
        if self.source_line:
            lines.append(self.source_line)
        lines.extend(note.format() for note in self.notes)
        return "\n".join(lines)


class ToolError(ExoGPUError):
    """An ExoGPU tool rejected the program; carries its diagnostics.

    `message`, `location` and `notes` are those of the first error;
    `diagnostics` holds every error and warning in order; `stage` says what
    ran (e.g. "synchronization check of @gemm_sm90a at M=256, N=256, K=64").
    `str(error)` is the diagnostics as the tool printed them, starting with
    `FILE:LINE:COL: error:` (locations mapped to the user's files, Python
    lines quoted for a proc of the Python frontend), then the stage.
    """

    def __init__(self, stage: str, diagnostics: Sequence[Diagnostic],
                 output: str = ""):
        self.stage = stage
        self.diagnostics = list(diagnostics)
        self.output = output
        errors = [d for d in self.diagnostics if d.severity == "error"]
        first = errors[0] if errors else None
        self.message = first.message if first else output.strip()
        self.location = first.location if first else None
        self.notes = list(first.notes) if first else []
        shown = [d.format() for d in self.diagnostics
                 if d.severity in ("error", "warning")]
        super().__init__(("\n".join(shown) if shown else output.rstrip()) +
                         f"\n(in the {stage})")


_HEADER = re.compile(
    r"^(?:(?P<where>.*?): )?(?P<severity>error|warning|remark|note): "
    r"(?P<message>.*)$")
_POSITION = re.compile(r"^(?P<file>.*):(?P<line>\d+):(?P<column>\d+)$")

LocationMap = Callable[[str, int, int], Location]


def _identity(file: str, line: int, column: int) -> Location:
    return Location(file, line, column)


def parse_diagnostics(text: str,
                      map_location: LocationMap = _identity
                      ) -> List[Diagnostic]:
    """Parses a tool's stderr into diagnostics.

    A line `FILE:LINE:COL: SEVERITY: MESSAGE` starts a diagnostic (its
    position goes through `map_location`, which maps positions in the text
    the tool read back to the user's files); `TOOL: error: MESSAGE` and
    `error: MESSAGE` start one without a location. Notes attach to the
    diagnostic before them. A quoted source line and its caret line are kept
    as `source_line`; other lines continue the message.
    """
    diagnostics: List[Diagnostic] = []
    current: Optional[Diagnostic] = None
    pending: List[str] = []

    def flush_pending() -> None:
        if current is not None and pending:
            current.message += "\n" + "\n".join(pending)
        pending.clear()

    for line in text.splitlines():
        header = _HEADER.match(line)
        if header:
            flush_pending()
            location = None
            where = header.group("where")
            position = _POSITION.match(where) if where else None
            if position:
                location = map_location(position.group("file"),
                                        int(position.group("line")),
                                        int(position.group("column")))
            diagnostic = Diagnostic(header.group("severity"),
                                    header.group("message"), location)
            if diagnostic.severity == "note" and diagnostics:
                diagnostics[-1].notes.append(diagnostic)
            else:
                diagnostics.append(diagnostic)
            current = diagnostic
            continue
        if current is None or not line.strip():
            continue
        if line.strip() and set(line.strip()) <= {"^", "~"} and pending:
            # The caret line under a quoted source line.
            current.source_line = pending.pop() + "\n" + line
            flush_pending()
            continue
        pending.append(line)
    flush_pending()
    for diagnostic in diagnostics:
        for each in [diagnostic, *diagnostic.notes]:
            quote_python_line(each)
    return diagnostics


def quote_python_line(diagnostic: Diagnostic) -> None:
    """Quotes the Python line of a diagnostic located in a `.py` file (a
    proc of the Python frontend): the tool quoted the generated MLIR, or
    nothing."""
    where = diagnostic.location
    if where is None or not where.file.endswith(".py"):
        return
    text = linecache.getline(where.file, where.line).rstrip("\n")
    if text:
        diagnostic.source_line = text + "\n" + " " * (where.column - 1) + "^"
