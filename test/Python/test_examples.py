"""Every kernel of examples/ (the kernels, examples/bug-study, the naive
twins of examples/reference and the naive GEMMs of examples/schedules) has
a Python twin next to it, FILE.py for FILE.mlir, written in the frontend's
language; both print the same module through exogpu-opt. The twins cover
the whole language the examples use, so a difference is a frontend bug."""

import pathlib
import re

import pytest

import exogpu
from exogpu.frontend.files import ProcFile

from conftest import EXAMPLES, printed

# The kernels with twins: not the schedules' transform scripts, not the
# embedding demo (a C++ project's input).
KERNELS = sorted(
    [*EXAMPLES.glob("*.mlir"), *EXAMPLES.glob("bug-study/*.mlir"),
     *EXAMPLES.glob("reference/*.mlir"),
     *EXAMPLES.glob("schedules/gemm_*.mlir")])

# `exogpu.import "sm90a"`: an instruction library (a name, not a file).
LIBRARY_IMPORT = re.compile(r'^exogpu\.import "(\w+)"$', re.M)
LINK = "--exogpu-link-imports"


def test_every_kernel_is_found():
    assert len(KERNELS) >= 30
    assert EXAMPLES / "sm90a_gemm.mlir" in KERNELS
    assert EXAMPLES / "reference" / "gemm.mlir" in KERNELS


@pytest.mark.parametrize("kernel", KERNELS,
                         ids=[str(k.relative_to(EXAMPLES)) for k in KERNELS])
def test_python_twin_prints_the_same_module(kernel: pathlib.Path):
    twin = kernel.with_suffix(".py")
    assert twin.is_file(), f"{kernel} has no Python twin {twin}"
    # The twin imports the libraries the .mlir file imports.
    procs = ProcFile(twin)
    assert [lib.name for lib in procs.module().libraries] == \
        LIBRARY_IMPORT.findall(kernel.read_text())
    # Linked (the libraries and the imported files in the module, as the
    # tools see it): a .mlir file imports the procs it calls from their
    # files, a Python proc's module holds them.
    assert printed(exogpu.Source(procs), LINK) == \
        printed(exogpu.Source(kernel), LINK)


def test_every_statement_carries_its_python_line():
    procs = ProcFile(EXAMPLES / "sm90a_gemm.py")
    module = procs.module()
    lines = module.text.splitlines()
    python = (EXAMPLES / "sm90a_gemm.py").read_text().splitlines()
    statements = [i for i, line in enumerate(lines)
                  if line.strip().startswith(("exogpu.", "%", "}"))]
    assert statements
    for index in statements:
        where = module.locations[index]
        assert where is not None and where.file == procs.file
        located = re.search(r'loc\("[^"]*":(\d+):(\d+)\)$', lines[index])
        if located:
            assert (int(located.group(1)), int(located.group(2))) == \
                (where.line, where.column)
    # The library's declaration: the line that imports it.
    assert module.locations[0] == exogpu.Location(
        procs.file, python.index("from exogpu.stdlib import sm90a") + 1, 1)
    # The wgmma call: its loc names the Python line of the call.
    call = next(i for i, line in enumerate(lines)
                if "@Sm90_mma_async_tf32_m64n256k8" in line)
    text = python[module.locations[call].line - 1]
    assert "Sm90_mma_async_tf32_m64n256k8(" in text
