"""The host API of a proc, as `exogpu-translate --to-signature-json` gives it.

Each proc's host function is ``cudaError_t name(cudaStream_t stream, <one
parameter per proc parameter>)`` (docs/cuda-translation.md "The host API").
`Signature` holds its parameters (kinds, element types, extents as
expressions over the control parameters, memories, read/write roles) and
the `requires` clause, and binds concrete arrays to them: it derives the
sizes from the arrays' shapes, evaluates every extent and checks the
clause. Expressions are JSON trees (docs/python.md "The signature"); they
evaluate with Python's operators, so symbolic sizes (torch's SymInt under
torch.compile) work too.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

INT32_MAX = 2**31 - 1

# exogpu element type -> (name used in messages, DLPack (code, bits),
# __cuda_array_interface__ typestrs).
DTYPES: Dict[str, Tuple[str, Tuple[int, int], Tuple[str, ...]]] = {
    "f32": ("float32", (2, 32), ("<f4",)),
    "f64": ("float64", (2, 64), ("<f8",)),
    "f16": ("float16", (2, 16), ("<f2",)),
    "bf16": ("bfloat16", (4, 16), ()),
    "i8": ("int8", (0, 8), ("|i1", "<i1")),
    "ui8": ("uint8", (1, 8), ("|u1", "<u1")),
    "ui16": ("uint16", (1, 16), ("<u2",)),
    "i32": ("int32", (0, 32), ("<i4",)),
}


def evaluate(expr: Any, values: Mapping[str, Any]) -> Any:
    """Evaluates an expression tree: an int, a parameter name, or
    [op, lhs, rhs] with op in +, *, floordiv, ceildiv, mod."""
    if isinstance(expr, bool):
        raise ValueError(f"not an expression: {expr!r}")
    if isinstance(expr, int):
        return expr
    if isinstance(expr, str):
        return values[expr]
    op, lhs, rhs = expr
    a, b = evaluate(lhs, values), evaluate(rhs, values)
    if op == "+":
        return a + b
    if op == "*":
        return a * b
    if op == "floordiv":
        return a // b
    if op == "ceildiv":
        return -((-a) // b)
    if op == "mod":
        return a % b
    raise ValueError(f"unknown operator {op!r}")


_RELATIONS = {
    "==": lambda a, b: a == b,
    "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b,
    ">": lambda a, b: a > b,
    ">=": lambda a, b: a >= b,
}


def holds(dnf: Sequence[Sequence[Any]], values: Mapping[str, Any]) -> bool:
    """Whether a condition in disjunctive normal form holds."""
    def atom(a: Any) -> bool:
        if isinstance(a, bool):
            return a
        if isinstance(a, str):
            return bool(values[a])
        relation, lhs, rhs = a
        return bool(_RELATIONS[relation](evaluate(lhs, values),
                                         evaluate(rhs, values)))
    return any(all(atom(a) for a in clause) for clause in dnf)


@dataclasses.dataclass(frozen=True)
class Param:
    """One parameter of a proc's host function."""

    name: str
    kind: str  # "size", "index", "bool" or "data"
    dtype: Optional[str] = None  # data: "f32", "bf16", ...
    shape: Tuple[Any, ...] = ()  # data: expression trees
    shape_text: Tuple[str, ...] = ()
    memory: Optional[str] = None
    host: bool = False  # data: in host memory (DRAM): a host pointer
    access: Optional[str] = None  # data: "read", "write" or "read_write"

    @property
    def is_data(self) -> bool:
        return self.kind == "data"

    @property
    def is_input(self) -> bool:
        return self.access in ("read", "read_write")

    @property
    def is_output(self) -> bool:
        return self.access in ("write", "read_write")

    def describe(self) -> str:
        """`A: f32[M, N] @CudaGmemLinear` (for messages)."""
        if not self.is_data:
            return f"{self.name}: {self.kind}"
        return (f"{self.name}: {self.dtype}[{', '.join(self.shape_text)}] "
                f"@{self.memory}")


class Signature:
    """A proc's parameters and precondition, from the signature JSON."""

    def __init__(self, proc: Mapping[str, Any]):
        self.raw = dict(proc)
        self.name: str = proc["name"]
        self.location: str = proc.get("location", "")
        self.declaration: str = proc.get("declaration", "")
        self.params: List[Param] = [
            Param(name=p["name"], kind=p["kind"], dtype=p.get("dtype"),
                  shape=tuple(p.get("shape", ())),
                  shape_text=tuple(p.get("shape_text", ())),
                  memory=p.get("memory"), host=bool(p.get("host", False)),
                  access=p.get("access")) for p in proc["params"]]
        requires = proc.get("requires")
        self.requires_text: Optional[str] = requires["text"] if requires \
            else None
        self.requires: Optional[List[List[Any]]] = requires["dnf"] if \
            requires else None

    @staticmethod
    def load_all(text: str) -> Dict[str, "Signature"]:
        """Every proc's signature in a signature JSON document."""
        document = json.loads(text)
        if document.get("format") != 1:
            raise ValueError("unknown signature format "
                             f"{document.get('format')!r}")
        return {p["name"]: Signature(p) for p in document["procs"]}

    @property
    def data_params(self) -> List[Param]:
        return [p for p in self.params if p.is_data]

    @property
    def control_params(self) -> List[Param]:
        return [p for p in self.params if not p.is_data]

    @property
    def outputs(self) -> List[Param]:
        return [p for p in self.data_params if p.is_output]

    def param(self, name: str) -> Param:
        for p in self.params:
            if p.name == name:
                return p
        raise KeyError(name)

    def size_sources(self, params: Optional[Sequence[Param]] = None
                     ) -> Dict[str, Tuple[Param, int]]:
        """For each size that some data parameter of `params` (default:
        all) has as an extent by itself, the first such (parameter,
        dimension)."""
        sources: Dict[str, Tuple[Param, int]] = {}
        for p in self.data_params if params is None else params:
            for dim, extent in enumerate(p.shape):
                if isinstance(extent, str) and self.param(extent).kind == \
                        "size":
                    sources.setdefault(extent, (p, dim))
        return sources

    def bind(self, shapes: Mapping[str, Sequence[Any]],
             given: Mapping[str, Any]) -> Dict[str, Any]:
        """The values of the control parameters for arrays of `shapes`
        (data parameter name -> shape) and the values in `given`.

        A size that is not given is read from the first array that has it
        as an extent. Raises TypeError for a value that is missing or not
        an int, ValueError for shapes that disagree with the values, a size
        out of range or a violated `requires` clause; each message names
        the proc and the parameter."""
        where = f"{self.name}()"
        values: Dict[str, Any] = {}
        # Where each value came from: (the array it was read from, or None
        # for a given value; the text that says so).
        origin: Dict[str, Tuple[Optional[str], str]] = {}
        for p in self.control_params:
            if p.name not in given:
                continue
            value = given[p.name]
            if p.kind == "bool":
                if not isinstance(value, bool):
                    raise TypeError(f"{where}: {p.name} is a bool parameter, "
                                    f"got {type(value).__name__}")
            elif isinstance(value, bool) or not _is_int(value):
                raise TypeError(f"{where}: {p.name} is a {p.kind} parameter "
                                f"(an int), got {type(value).__name__}")
            values[p.name] = value
            origin[p.name] = (None, "as given")
        for size, (p, dim) in self.size_sources(
                [q for q in self.data_params if q.name in shapes]).items():
            shape = shapes[p.name]
            if size not in values and dim < len(shape):
                values[size] = shape[dim]
                origin[size] = (p.name, f"from dimension {dim} of {p.name}")
        missing = [p.name for p in self.control_params
                   if p.name not in values]
        if missing:
            # A size goes missing when an array has too few dimensions: say
            # that first.
            for p in self.data_params:
                if p.name in shapes and len(shapes[p.name]) != len(p.shape):
                    raise ValueError(
                        f"{where}: {p.name} must be a {len(p.shape)}-D array "
                        f"({p.describe()}), got a {len(shapes[p.name])}-D one "
                        f"of shape {_fmt(tuple(shapes[p.name]))}")
            raise TypeError(f"{where}: no value for {', '.join(missing)}: "
                            "no array argument has it as an extent; pass "
                            + ", ".join(f"{m}=..." for m in missing))
        for p in self.control_params:
            value = values[p.name]
            if p.kind == "size" and _is_concrete(value) and not (
                    0 <= value <= INT32_MAX):
                raise ValueError(f"{where}: size {p.name} = {value} "
                                 f"({origin[p.name][1]}) is outside "
                                 f"[0, {INT32_MAX}]")
        for p in self.data_params:
            want = self.extents(p, values)
            count = 1
            for extent in want:
                count *= extent
            if _is_concrete(count) and count > INT32_MAX:
                raise ValueError(f"{where}: {p.name} would have {count} "
                                 "elements; the kernels index in 32 bits "
                                 f"(at most {INT32_MAX})")
            if p.name not in shapes:
                continue
            shape = tuple(shapes[p.name])
            if len(shape) != len(want) or any(
                    _is_concrete(a) and _is_concrete(b) and a != b
                    for a, b in zip(shape, want)):
                elsewhere = [f"{s} = {values[s]} {origin[s][1]}"
                             for s in _names_in(p.shape)
                             if origin[s][0] != p.name]
                raise ValueError(
                    f"{where}: {p.name} has shape {_fmt(shape)}, expected "
                    f"[{', '.join(p.shape_text)}] = {_fmt(want)}"
                    + (f" ({'; '.join(elsewhere)})" if elsewhere else ""))
        self.check_requires(values)
        return values

    def check_requires(self, values: Mapping[str, Any]) -> None:
        """Raises ValueError if the `requires` clause does not hold."""
        if self.requires is None or not all(
                _is_concrete(v) for v in values.values()):
            return
        if not holds(self.requires, values):
            at = ", ".join(f"{p.name}={values[p.name]}"
                           for p in self.control_params)
            raise ValueError(f"{self.name}(): precondition does not hold at "
                             f"{at}: requires {self.requires_text}")

    def extents(self, param: Param, values: Mapping[str, Any]
                ) -> Tuple[Any, ...]:
        """The extents of data parameter `param` at `values`."""
        return tuple(evaluate(e, values) for e in param.shape)


def _is_int(value: Any) -> bool:
    return hasattr(value, "__index__") or type(value).__name__ == "SymInt"


def _is_concrete(value: Any) -> bool:
    return isinstance(value, int)


def _names_in(expr: Any) -> List[str]:
    """The parameter names an expression tree uses, in order."""
    if isinstance(expr, str):
        return [expr]
    if isinstance(expr, (list, tuple)):
        names: List[str] = []
        for part in expr if isinstance(expr, tuple) else expr[1:]:
            names += _names_in(part)
        return list(dict.fromkeys(names))
    return []


def _fmt(shape: Sequence[Any]) -> str:
    return "(" + ", ".join(str(s) for s in shape) + \
        ("," if len(shape) == 1 else "") + ")"
