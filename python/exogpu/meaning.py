"""`exogpu.meaning`: a proc's sequential meaning on NumPy arrays.

Runs `exogpu-run` (docs/running.md), which JIT-compiles the proc's
sequential reading through upstream MLIR, on the given inputs (written as
`.npy` files) and reads the outputs it writes back. bf16 arrays travel as
their 16-bit patterns (`<u2`, what exogpu-run reads and writes): pass
`ml_dtypes.bfloat16` or uint16 arrays; outputs come back as
`ml_dtypes.bfloat16` when ml_dtypes is installed, else as uint16.
"""

from __future__ import annotations

import tempfile
from typing import Any, Dict, Optional

from . import tools
from .compiler import find_signature, proc_name
from .signature import DTYPES
from .source import ImportPaths, Source, SourceLike


def meaning(source: SourceLike, proc: Optional[str] = None, *,
            import_paths: ImportPaths = (), check_bounds: bool = True,
            **arguments: Any) -> Any:
    """Runs the sequential meaning of proc `proc` of `source` (a `.mlir`
    path, MLIR text, or a Python proc, whose name `proc` defaults to).

    Keywords name the proc's parameters: every input (a data parameter the
    proc reads) as a NumPy array of its element type, and the control
    parameters that no array has as an extent (a write-only output may be
    given for its shape; its contents are not read). Returns the outputs (the
    data parameters the proc writes) as NumPy arrays: one array, or a tuple
    in parameter order. Out-of-bounds accesses and violated preconditions
    raise ToolError (with `check_bounds=False` they are undefined)."""
    import numpy

    kernel_source = Source(source, import_paths)
    proc = proc_name(source, proc)
    signature = find_signature(kernel_source, proc)
    where = f"{proc}()"
    names = {p.name for p in signature.params}
    for name in arguments:
        if name not in names:
            raise TypeError(f"{where} has no parameter {name!r} "
                            f"(parameters: {', '.join(sorted(names))})")
    inputs: Dict[str, Any] = {}
    for p in signature.data_params:
        if p.name not in arguments:
            if p.is_input:
                raise TypeError(f"{where}: missing input {p.describe()}")
            continue
        array = numpy.asarray(arguments[p.name])
        if p.dtype == "bf16" and array.dtype.name == "bfloat16":
            array = array.view(numpy.uint16)
        stored = "uint16" if p.dtype == "bf16" else DTYPES[p.dtype][0]
        if array.dtype != numpy.dtype(stored):
            raise TypeError(f"{where}: {p.name} must hold "
                            f"{DTYPES[p.dtype][0]} ({p.dtype}), got "
                            f"{array.dtype}")
        inputs[p.name] = numpy.ascontiguousarray(array)
    controls = {name: value for name, value in arguments.items()
                if not signature.param(name).is_data}
    values = signature.bind({n: a.shape for n, a in inputs.items()},
                            controls)
    sizes = ",".join(f"{p.name}={str(values[p.name]).lower()}"
                     for p in signature.control_params)
    with tempfile.TemporaryDirectory(prefix="exogpu-meaning-") as work:
        args = [f"--proc={proc}", f"--output-dir={work}/out",
                f"--check-bounds={'true' if check_bounds else 'false'}"]
        if sizes:
            args.append(f"--sizes={sizes}")
        for name, array in inputs.items():
            if not signature.param(name).is_input:
                continue  # a write-only output given for its shape
            path = f"{work}/{name}.npy"
            numpy.save(path, array)
            args.append(f"--input={name}={path}")
        tools.run_tool("exogpu-run", args,
                       f"sequential meaning of @{proc} at "
                       f"{sizes.replace(',', ', ')}", kernel_source)
        outputs = []
        for p in signature.outputs:
            array = numpy.load(f"{work}/out/{p.name}.npy")
            if p.dtype == "bf16":
                try:
                    import ml_dtypes
                    array = array.view(ml_dtypes.bfloat16)
                except ImportError:
                    pass
            outputs.append(array)
    return outputs[0] if len(outputs) == 1 else tuple(outputs)
