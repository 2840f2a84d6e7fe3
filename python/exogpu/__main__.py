"""`python -m exogpu`: the Python frontend from the shell.

    python -m exogpu check FILE.py PROC --sizes M=256,N=256,K=64
    python -m exogpu mlir FILE.py [PROC]

`check` runs what `PROC.check(**sizes)` runs (the collective analysis, the
distributed memory deduction and the synchronization check); FILE may also
be a `.mlir` kernel. It prints nothing and exits 0 when the tools accept
the proc; otherwise it prints their diagnostics, at the Python lines, and
exits 1. `mlir` prints the module the frontend emits for one proc, or for
every proc of the file.
"""

from __future__ import annotations

import argparse
import pathlib
import sys
from typing import Dict, List, Optional, Union

from .errors import ExoGPUError, FrontendError
from .frontend.procs import Proc


def parse_sizes(text: str) -> Dict[str, Union[int, bool]]:
    """`M=256,N=64,flag=true` -> {"M": 256, "N": 64, "flag": True}."""
    sizes: Dict[str, Union[int, bool]] = {}
    for item in filter(None, (part.strip() for part in text.split(","))):
        name, equals, value = item.partition("=")
        if not equals or not name:
            raise ValueError(f"--sizes: expected NAME=VALUE, got {item!r}")
        if value.lower() in ("true", "false"):
            sizes[name] = value.lower() == "true"
        else:
            try:
                sizes[name] = int(value)
            except ValueError:
                raise ValueError(f"--sizes: {name}={value}: expected an "
                                 "integer or true/false") from None
    return sizes


def _procs_of(path: pathlib.Path):
    from .frontend.files import ProcFile
    return ProcFile(path)


def check(path: pathlib.Path, proc: str, sizes: Dict[str, Union[int, bool]]
          ) -> None:
    from . import compiler
    from .source import Source
    if path.suffix == ".mlir":
        compiler.check_sizes(Source(path), proc, [sizes])
        return
    target = _find(_procs_of(path), proc)
    if not isinstance(target, Proc):
        raise ExoGPUError(f"{proc} is an instruction, not a proc")
    target.check(**sizes)


def _find(procs, name: str):
    for candidate in procs.callables:
        if candidate.name == name:
            return candidate
    known = ", ".join(c.name for c in procs.callables) or "none"
    raise ExoGPUError(f"{procs.file} defines no proc {name!r} (it defines: "
                      f"{known})")


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m exogpu",
                                     description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    checking = commands.add_parser("check", help="check a proc at sizes")
    checking.add_argument("file", type=pathlib.Path)
    checking.add_argument("proc")
    checking.add_argument("--sizes", default="",
                          help="the control parameters: M=256,N=64,...")
    printing = commands.add_parser("mlir", help="print the emitted module")
    printing.add_argument("file", type=pathlib.Path)
    printing.add_argument("proc", nargs="?")
    args = parser.parse_args(argv)
    try:
        if args.command == "check":
            check(args.file, args.proc, parse_sizes(args.sizes))
        else:
            procs = _procs_of(args.file)
            target = _find(procs, args.proc) if args.proc else procs
            sys.stdout.write(target.mlir())
    except FrontendError as error:
        where = error.location
        text = (error.text or "").rstrip("\n")
        print(f"{where}: error: {error.msg}", file=sys.stderr)
        if text:
            print(text + "\n" + " " * (where.column - 1) + "^",
                  file=sys.stderr)
        return 1
    except (ExoGPUError, ValueError, FileNotFoundError) as error:
        print(error, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
