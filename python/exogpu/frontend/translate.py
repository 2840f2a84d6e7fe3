"""From a Python function's syntax tree to `exogpu` dialect text.

The frontend owns syntax and name resolution (docs/python.md "The
language"): it reads the body of an `@proc` or `@instr` with Python's `ast`,
resolves every name (the proc's parameters, loop iterators, allocations and
windows; then the function's module: the language's names, constants,
procs, instructions and the instruction libraries it imports), and writes
one dialect statement per Python statement, each with the `loc(...)` of its
Python line. Every rule of the language (scopes, units, memories,
precisions, synchronization) is checked by the tools on that text, so their
diagnostics point at the Python source.

Python syntax outside the language raises `FrontendError` (a SyntaxError)
at its line.
"""

from __future__ import annotations

import ast
import builtins
import dataclasses
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from ..errors import FrontendError, Location
from . import vocabulary as v
from .control import CExpr, Condition, Relation, constant_difference, \
    constant_value
from .libraries import Library, LibraryInstr
from .types import BufferType


@dataclasses.dataclass
class Symbol:
    """A name of a proc body: a control value or a buffer."""

    name: str
    kind: str  # "index" (sizes, indices, loop iterators), "bool", "buffer"
    line: int
    type: Optional[BufferType] = None


@dataclasses.dataclass
class Translation:
    """A proc or instruction in dialect text, one op."""

    name: str
    lines: List[str]
    locations: List[Location]  # the Python location of each line
    callees: List[Any]  # procs and instructions (Python objects) it calls
    libraries: List[Library]  # the libraries whose instructions it calls


@dataclasses.dataclass
class _Access:
    """`x[coords]` of a statement: the buffer and its coordinates' text."""

    symbol: Symbol
    text: str
    type: BufferType  # the type of the window the access denotes


_COMPARISONS = {ast.Eq: "==", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">",
                ast.GtE: ">="}
_DATA_BINARY = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/"}


def mlir_string(text: str) -> str:
    """`text` as an MLIR string literal."""
    out = []
    for char in text:
        if char == '"':
            out.append("\\22")
        elif char == "\\":
            out.append("\\\\")
        elif " " <= char <= "~":
            out.append(char)
        else:
            out.extend(f"\\{byte:02X}" for byte in char.encode())
    return '"' + "".join(out) + '"'


def _float_text(value: float) -> str:
    """A float literal the MLIR lexer reads back exactly (it needs a '.')."""
    text = repr(value)
    mantissa, _, exponent = text.partition("e")
    if "." not in mantissa:
        mantissa += ".0"
    return mantissa + ("e" + exponent if exponent else "")


class Translator:
    """Translates one function (an @proc or an @instr)."""

    def __init__(self, node: ast.FunctionDef, namespace: Dict[str, Any],
                 file: str):
        self.node = node
        self.namespace = namespace
        self.file = file
        self.scopes: List[Dict[str, Symbol]] = [{}]
        self.lines: List[str] = []
        self.locations: List[Location] = []
        self.callees: List[Any] = []
        self.libraries: List[Library] = []
        self.instr = False

    # -- Errors and locations ---------------------------------------------

    def error(self, node: ast.AST, message: str) -> FrontendError:
        return FrontendError(message, self.file, getattr(node, "lineno", 0),
                             getattr(node, "col_offset", 0) + 1)

    def location(self, node: ast.AST) -> Location:
        return Location(self.file, node.lineno, node.col_offset + 1)

    def loc(self, node: ast.AST) -> str:
        where = self.location(node)
        return (f"loc({mlir_string(where.file)}:{where.line}:"
                f"{where.column})")

    def emit(self, depth: int, text: str, node: ast.AST) -> None:
        self.lines.append("  " * depth + text)
        self.locations.append(self.location(node))

    def emit_stmt(self, depth: int, text: str, node: ast.AST) -> None:
        self.emit(depth, f"{text} {self.loc(node)}", node)

    def emit_region(self, depth: int, header: str, node: ast.AST,
                    body: Callable[[], None]) -> None:
        """`header {`, the body one level deeper, `} loc(...)`."""
        self.emit(depth, header + " {", node)
        self.scopes.append({})
        body()
        self.scopes.pop()
        self.emit(depth, "} " + self.loc(node), node)

    # -- Names ------------------------------------------------------------

    def lookup(self, name: str) -> Optional[Symbol]:
        for scope in reversed(self.scopes):
            if name in scope:
                return scope[name]
        return None

    def define(self, node: ast.AST, name: str, kind: str,
               type: Optional[BufferType] = None) -> Symbol:
        if not name.isascii():
            raise self.error(node, f"'{name}': names of procs and of their "
                                   "variables are ASCII")
        previous = self.lookup(name)
        if previous is not None:
            raise self.error(node, f"'{name}' is already defined (line "
                                   f"{previous.line}); a name is defined "
                                   "once in the blocks around it")
        symbol = Symbol(name, kind, node.lineno, type)
        self.scopes[-1][name] = symbol
        return symbol

    def global_value(self, node: ast.AST, name: str) -> Any:
        """The value `name` has in the function's module (or builtins)."""
        if name in self.namespace:
            return self.namespace[name]
        if hasattr(builtins, name):
            return getattr(builtins, name)
        raise self.error(node, f"name '{name}' is not defined")

    def evaluate(self, node: ast.AST, what: str) -> Any:
        """A compile-time value: `node` evaluated by Python in the
        function's module (memories, units, timelines, configs, constants).
        """
        for sub in ast.walk(node):
            if isinstance(sub, ast.Name) and self.lookup(sub.id):
                raise self.error(sub, f"{what} is a compile-time value; "
                                      f"'{sub.id}' is a variable of the "
                                      "proc")
        try:
            code = compile(ast.fix_missing_locations(ast.Expression(node)),
                           self.file, "eval")
            return eval(code, dict(self.namespace))  # noqa: S307
        except Exception as failure:  # the user's expression failed
            raise self.error(node, f"{what}: {type(failure).__name__}: "
                                   f"{failure}") from None

    def resolves_to(self, node: ast.AST, keyword: Any) -> bool:
        """Whether `node` is a name (or module attribute) bound to
        `keyword` in the function's module."""
        if isinstance(node, ast.Name):
            if self.lookup(node.id):
                return False
            return node.id in self.namespace and \
                self.namespace[node.id] is keyword or (
                    node.id not in self.namespace and
                    getattr(builtins, node.id, None) is keyword)
        if isinstance(node, ast.Attribute):
            try:
                return self.evaluate(node, "a name") is keyword
            except FrontendError:
                return False
        return False

    def typed(self, node: ast.AST, value: Any, expected: type,
              what: str) -> Any:
        if not isinstance(value, expected) or isinstance(value, bool) and \
                expected is int:
            raise self.error(node, f"{what} must be {_describe(expected)}, "
                                   f"got {value!r}")
        return value

    # -- Control expressions and conditions ------------------------------

    def control(self, node: ast.AST) -> CExpr:
        """A quasi-affine control expression (Fig. 1 CExpr)."""
        if isinstance(node, ast.Constant):
            if isinstance(node.value, int) and not isinstance(node.value,
                                                              bool):
                return CExpr.const(node.value)
            raise self.error(node, f"{node.value!r} is not an integer "
                                   "(control expressions are integers)")
        if isinstance(node, ast.Name):
            symbol = self.lookup(node.id)
            if symbol is None:
                value = self.global_value(node, node.id)
                return CExpr.const(self.typed(node, value, int,
                                              f"'{node.id}'"))
            if symbol.kind == "buffer":
                raise self.error(node, f"'{node.id}' is a buffer; control "
                                       "expressions use sizes, indices and "
                                       "loop iterators")
            if symbol.kind == "bool":
                raise self.error(node, f"'{node.id}' is a bool; it is a "
                                       "condition, not an integer")
            return CExpr.var(node.id)
        if isinstance(node, ast.Attribute):
            return CExpr.const(self.typed(
                node, self.evaluate(node, "a constant"), int,
                ast.unparse(node)))
        if isinstance(node, ast.UnaryOp) and isinstance(node.op,
                                                        (ast.USub, ast.UAdd)):
            inner = self.control(node.operand)
            if isinstance(node.op, ast.UAdd):
                return inner
            if inner.op == "const":
                return CExpr.const(-inner.value)
            return CExpr("neg", (inner,))
        if isinstance(node, ast.BinOp):
            ops = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*",
                   ast.FloorDiv: "/", ast.Div: "/", ast.Mod: "mod"}
            op = ops.get(type(node.op))
            if op is None:
                raise self.error(node, f"'{_op_text(node.op)}' is not a "
                                       "control operator (control "
                                       "expressions use + - * / // %)")
            lhs, rhs = self.control(node.left), self.control(node.right)
            if op in ("/", "mod") and (rhs.op != "const" or rhs.value <= 0):
                raise self.error(node.right, "control expressions divide by "
                                             "positive integer constants "
                                             "(Fig. 1: c / n, c mod n)")
            folded = _fold(op, lhs, rhs)
            if folded is not None:
                return CExpr.const(folded)
            return CExpr(op, (lhs, rhs))
        raise self.error(node, f"{_describe_node(node)} is not a control "
                               "expression")

    def condition(self, node: ast.AST) -> Condition:
        """A condition (Fig. 1 BExpr) in disjunctive normal form."""
        if isinstance(node, ast.BoolOp):
            parts = [self.condition(v) for v in node.values]
            result = parts[0]
            for part in parts[1:]:
                result = result.conjoin(part) if isinstance(
                    node.op, ast.And) else result.disjoin(part)
            return result
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            negated = self.condition(node.operand).negated()
            if negated is None:
                raise self.error(node, "a bool parameter cannot be negated "
                                       "in the dialect's conditions")
            return negated
        if isinstance(node, ast.Compare):
            relations = []
            left = node.left
            for op, right in zip(node.ops, node.comparators):
                lhs, rhs = self.control(left), self.control(right)
                if isinstance(op, ast.NotEq):
                    relations.append(Condition(((Relation("<", lhs, rhs),),
                                                (Relation(">", lhs, rhs),))))
                elif type(op) in _COMPARISONS:
                    relations.append(Condition(((Relation(
                        _COMPARISONS[type(op)], lhs, rhs),),)))
                else:
                    raise self.error(node, f"'{_op_text(op)}' is not a "
                                           "comparison of control values")
                left = right
            result = relations[0]
            for relation in relations[1:]:
                result = result.conjoin(relation)
            return result
        if isinstance(node, ast.Constant) and isinstance(node.value, bool):
            return Condition(((Relation("true" if node.value
                                        else "false"),),))
        if isinstance(node, ast.Name):
            symbol = self.lookup(node.id)
            if symbol is not None and symbol.kind == "bool":
                return Condition(((Relation("bool", CExpr.var(node.id)),),))
            if symbol is None:
                value = self.global_value(node, node.id)
                if isinstance(value, bool):
                    return Condition(((Relation("true" if value
                                                else "false"),),))
        raise self.error(node, f"{_describe_node(node)} is not a condition "
                               "(comparisons of control values, bool "
                               "parameters, and, or, not)")

    # -- Types ------------------------------------------------------------

    def annotation_chain(self, node: ast.AST) -> List[ast.AST]:
        """`a @ b @ c` -> [a, b, c]."""
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.MatMult):
            return self.annotation_chain(node.left) + [node.right]
        return [node]

    def data_type(self, node: ast.AST, chain: List[ast.AST]
                  ) -> Tuple[str, List[CExpr], str, bool]:
        """`f32[M, K] @ Memory` (or `[f32][...]` for a window): precision,
        extents, memory text, whether it is a window type."""
        base = chain[0]
        extents: List[CExpr] = []
        window = False
        if isinstance(base, ast.Subscript):
            element = base.value
            dims = base.slice.elts if isinstance(base.slice, ast.Tuple) \
                else [base.slice]
            extents = [self.control(d) for d in dims]
        else:
            element = base
        if isinstance(element, ast.List) and len(element.elts) == 1:
            window, element = True, element.elts[0]
        precision = self.evaluate(element, "a precision")
        if not isinstance(precision, v.Precision):
            raise self.error(element, f"expected a precision (f32, bf16, "
                                      f"...), got {precision!r}")
        if len(chain) < 2:
            raise self.error(node, "a data type needs its memory: "
                                   "`f32[n] @ CudaRmem`")
        memory = self.evaluate(chain[1], "a memory")
        if not isinstance(memory, v.Memory):
            raise self.error(chain[1], f"expected a memory (CudaRmem, "
                                       f"CudaGmemLinear, ...), got "
                                       f"{memory!r}")
        return precision.mlir_text(), extents, memory.mlir_text(), window

    # -- Accesses and windows ---------------------------------------------

    def buffer(self, node: ast.AST) -> Symbol:
        if isinstance(node, ast.Name):
            symbol = self.lookup(node.id)
            if symbol is not None and symbol.kind == "buffer":
                return symbol
            if symbol is not None:
                raise self.error(node, f"'{node.id}' is a control value, "
                                       "not a buffer")
            raise self.error(node, f"'{node.id}' is not a buffer of this "
                                   "proc")
        raise self.error(node, f"expected a buffer name, got "
                               f"{_describe_node(node)}")

    def access(self, node: ast.AST, points_only: bool) -> _Access:
        """`x`, `x[i, j]` or `x[i, lo:hi, :]`."""
        if isinstance(node, ast.Name):
            symbol = self.buffer(node)
            text = "%" + symbol.name
            if points_only and symbol.type.rank:
                raise self.error(node, f"'{symbol.name}' has rank "
                                       f"{symbol.type.rank}: index it")
            return _Access(symbol, text + ("[]" if points_only else ""),
                           symbol.type)
        if not isinstance(node, ast.Subscript):
            raise self.error(node, f"expected a buffer access, got "
                                   f"{_describe_node(node)}")
        symbol = self.buffer(node.value)
        coords = node.slice.elts if isinstance(node.slice, ast.Tuple) \
            else [node.slice]
        texts: List[str] = []
        shape: List[Optional[int]] = []
        for dim, coord in enumerate(coords):
            if isinstance(coord, ast.Slice):
                if points_only:
                    raise self.error(coord, "a read or write takes a point "
                                            "index here, not a window")
                if coord.step is not None:
                    raise self.error(coord, "windows have no step")
                if coord.lower is None and coord.upper is None:
                    texts.append(":")
                    shape.append(symbol.type.shape[dim]
                                 if dim < symbol.type.rank else None)
                    continue
                if coord.lower is None or coord.upper is None:
                    raise self.error(coord, "an interval names both ends "
                                            "(lo:hi), or neither (:)")
                lo, hi = self.control(coord.lower), self.control(coord.upper)
                texts.append(f"{lo.text()}:{hi.text()}")
                shape.append(constant_difference(lo, hi))
            else:
                texts.append(self.control(coord).text())
        window = dataclasses.replace(symbol.type, kind="window",
                                     shape=tuple(shape), special="") \
            if not symbol.type.is_barrier else symbol.type
        return _Access(symbol, f"%{symbol.name}[{', '.join(texts)}]", window)

    @staticmethod
    def type_list(symbols: Sequence[Symbol]) -> str:
        """` : type, type` for the distinct names, in order."""
        distinct: List[Symbol] = []
        for symbol in symbols:
            if all(symbol is not d for d in distinct):
                distinct.append(symbol)
        if not distinct:
            return ""
        return " : " + ", ".join(s.type.compact() for s in distinct)

    # -- Data expressions ---------------------------------------------------

    def data(self, node: ast.AST, reads: List[Symbol]) -> str:
        """A data expression (Fig. 1 DExpr) in the dialect's infix form;
        appends the buffers it reads to `reads`."""
        return self._data(node, reads, 0)

    def _data(self, node: ast.AST, reads: List[Symbol], context: int) -> str:
        if isinstance(node, ast.Constant):
            return self._literal(node, node.value)
        if isinstance(node, (ast.Name, ast.Subscript)):
            if isinstance(node, ast.Name) and self.lookup(node.id) is None:
                return self._literal(node, self.global_value(node, node.id))
            access = self.access(node, points_only=True)
            if access.symbol.type.is_barrier:
                raise self.error(node, f"'{access.symbol.name}' is a "
                                       "barrier; data expressions read data")
            reads.append(access.symbol)
            return access.text
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            return "-" + self._data(node.operand, reads, 2)
        if isinstance(node, ast.BinOp) and type(node.op) in _DATA_BINARY:
            own = 0 if isinstance(node.op, (ast.Add, ast.Sub)) else 1
            text = (f"{self._data(node.left, reads, own)} "
                    f"{_DATA_BINARY[type(node.op)]} "
                    f"{self._data(node.right, reads, own + 1)}")
            return f"({text})" if own < context else text
        if isinstance(node, ast.Call) and not node.keywords:
            for function, arity in ((max, 2), (v.exp2, 1), (v.log2, 1)):
                if self.resolves_to(node.func, function):
                    name = "max" if function is max else function.name
                    if len(node.args) != arity:
                        raise self.error(node, f"{name} takes {arity} "
                                               "argument(s)")
                    return name + "(" + ", ".join(
                        self._data(a, reads, 0) for a in node.args) + ")"
        if isinstance(node, ast.BinOp):
            raise self.error(node, f"'{_op_text(node.op)}' is not a data "
                                   "operator (data expressions use + - * / "
                                   "and max, exp2, log2)")
        raise self.error(node, f"{_describe_node(node)} is not a data "
                               "expression")

    def _literal(self, node: ast.AST, value: Any) -> str:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise self.error(node, f"{value!r} is not a number")
        if isinstance(value, float):
            if value != value or value in (float("inf"), float("-inf")):
                raise self.error(node, "data literals are finite numbers")
            text = _float_text(abs(value))
        else:
            text = str(abs(value))
        return "-" + text if value < 0 else text

    # -- Signatures -------------------------------------------------------

    def parameters(self, with_specs: bool) -> str:
        args = self.node.args
        if args.vararg or args.kwarg or args.kwonlyargs or \
                args.posonlyargs or args.defaults:
            raise self.error(self.node, "parameters are plain names with "
                                        "annotations (no defaults, *args, "
                                        "keyword-only or positional-only)")
        texts = []
        for arg in args.args:
            if arg.annotation is None:
                raise self.error(arg, f"parameter '{arg.arg}' needs a type: "
                                      "size, index, bool or a data type")
            texts.append(self.parameter(arg, with_specs))
        return "(" + ", ".join(texts) + ")"

    def parameter(self, arg: ast.arg, with_specs: bool) -> str:
        annotation = arg.annotation
        if isinstance(annotation, ast.Name) and not self.lookup(
                annotation.id):
            value = self.global_value(annotation, annotation.id)
            if isinstance(value, v.ControlKind):
                self.define(arg, arg.arg, "index")
                return f"%{arg.arg}: {value.name}"
            if value is bool:
                self.define(arg, arg.arg, "bool")
                return f"%{arg.arg}: bool"
        chain = self.annotation_chain(annotation)
        precision, extents, memory, window = self.data_type(annotation,
                                                            chain)
        rest = chain[2:]
        special = ""
        if window:
            if not rest:
                raise self.error(annotation, "a window parameter is a "
                                             "special window: "
                                             "`[f32][n, m] @ CudaGmemLinear "
                                             "@ Sm90_tensorMap(...)`")
            value = self.evaluate(rest[0], "a special window")
            if not isinstance(value, v.SpecialWindow):
                raise self.error(rest[0], f"expected a special window "
                                          f"(Sm90_tensorMap), got {value!r}")
            special, rest = value.mlir_text(), rest[1:]
        spec = ""
        if rest:
            value = self.evaluate(rest[0], "parameter annotations")
            if not isinstance(value, v.Arg) or not with_specs:
                raise self.error(rest[0], "only instruction parameters carry "
                                          "annotations, as `@ Arg(...)`"
                                 if not with_specs else
                                 f"expected Arg(...), got {value!r}")
            try:
                fields = value.mlir_text()
            except TypeError as failure:
                raise self.error(rest[0], str(failure)) from None
            spec = f" {{{fields}}}" if fields else ""
            rest = rest[1:]
        if rest:
            raise self.error(rest[0], "unexpected annotation")
        shape = tuple(constant_value(e) for e in extents)
        dims = "[" + ", ".join(e.text() for e in extents) + "]" \
            if extents else ""
        if window:
            type = BufferType("window", shape, precision, memory, special)
            self.define(arg, arg.arg, "buffer", type)
            return f"%{arg.arg}: {type.compact()}{spec}"
        type = BufferType("tensor", shape, precision, memory)
        self.define(arg, arg.arg, "buffer", type)
        return f"%{arg.arg}: {precision}{dims} @{memory}{spec}"

    # -- Procs and instructions -------------------------------------------

    def translate_proc(self) -> Translation:
        signature = self.parameters(with_specs=False)
        body = self.body_statements(self.node.body)
        preconditions: Optional[Condition] = None
        while body and isinstance(body[0], ast.Assert):
            statement = body.pop(0)
            if statement.msg is not None:
                raise self.error(statement.msg, "an assert of a proc is a "
                                                "precondition; it has no "
                                                "message")
            condition = self.condition(statement.test)
            preconditions = condition if preconditions is None \
                else preconditions.conjoin(condition)
        header = f"exogpu.proc @{self.node.name}{signature}"
        if preconditions is not None:
            header += " requires " + preconditions.text()
        self.emit_region(0, header, self.node,
                         lambda: self.statements(body, 1))
        return self.result()

    def translate_instr(self, config: Dict[str, Any],
                        decorator: ast.AST) -> Translation:
        self.instr = True
        signature = self.parameters(with_specs=True)
        target = config.get("target", "cuda")
        properties = [f"target = {target}"]
        unit = config.get("unit")
        if unit is None:
            unit = v.COLL_UNITS["standalone_thread" if target == "cpu"
                                else "cuda_thread"]
        unit = self.typed(decorator, unit, v.CollUnit, "unit")
        properties.append(f"unit = {unit.mlir_text()}")
        if config.get("barrier") is not None:
            kind = self.typed(decorator, config["barrier"], v.BarrierKind,
                                "barrier")
            properties.append(f"barrier = @{kind.name}")
        if config.get("barrier_dist") is not None:
            units = [self.typed(decorator, u, v.CollUnit, "barrier_dist")
                     for u in config["barrier_dist"]]
            properties.append("barrier_dist = [" + ", ".join(
                u.mlir_text() for u in units) + "]")
        if config.get("cuda") is not None:
            properties.append("cuda = " + mlir_string(config["cuda"]))
        header = (f"exogpu.instr @{self.node.name}{signature} "
                  + ", ".join(properties))
        body = self.body_statements(self.node.body)
        self.emit_region(0, header, self.node,
                         lambda: self.statements(body, 1))
        return self.result()

    def result(self) -> Translation:
        return Translation(self.node.name, self.lines, self.locations,
                           self.callees, self.libraries)

    @staticmethod
    def body_statements(body: List[ast.stmt]) -> List[ast.stmt]:
        """The statements, without a leading docstring."""
        if body and isinstance(body[0], ast.Expr) and isinstance(
                body[0].value, ast.Constant) and isinstance(
                body[0].value.value, str):
            return list(body[1:])
        return list(body)

    # -- Statements -------------------------------------------------------

    def statements(self, body: Sequence[ast.stmt], depth: int) -> None:
        for statement in body:
            self.statement(statement, depth)

    def statement(self, node: ast.stmt, depth: int) -> None:
        handler = {
            ast.For: self.for_loop, ast.If: self.if_statement,
            ast.With: self.with_statement, ast.AnnAssign: self.allocation,
            ast.Assign: self.assignment, ast.AugAssign: self.reduction,
            ast.Expr: self.expression_statement,
        }.get(type(node))
        if isinstance(node, ast.Pass):
            return
        if isinstance(node, ast.Assert):
            raise self.error(node, "assert is a precondition: it comes "
                                   "first in a proc's body")
        if handler is None:
            raise self.error(node, f"{_describe_node(node)} is not a "
                                   "statement of the ExoGPU language")
        handler(node, depth)

    def for_loop(self, node: ast.For, depth: int) -> None:
        if node.orelse:
            raise self.error(node, "for ... else is not in the language")
        if not isinstance(node.target, ast.Name):
            raise self.error(node.target, "a loop iterator is one name")
        loop = node.iter
        if not isinstance(loop, ast.Call):
            raise self.error(loop, "loops run over seq(lo, hi), "
                                   "cuda_tasks(lo, hi) or cuda_threads(lo, "
                                   "hi, unit=...)")
        mode = next((m for m in (v.seq, v.cuda_tasks, v.cuda_threads)
                     if self.resolves_to(loop.func, m)), None)
        if mode is None:
            raise self.error(loop.func, f"'{ast.unparse(loop.func)}' is not "
                                        "a loop mode (seq, cuda_tasks, "
                                        "cuda_threads)")
        if len(loop.args) != 2:
            raise self.error(loop, f"{mode.name} takes (lo, hi)")
        lo, hi = (self.control(a).text() for a in loop.args)
        unit = None
        for keyword in loop.keywords:
            if keyword.arg != "unit" or mode is not v.cuda_threads:
                raise self.error(keyword.value, f"{mode.name} takes no "
                                                f"argument '{keyword.arg}'"
                                 if keyword.arg != "unit" else
                                 "only cuda_threads loops take a unit")
            unit = self.typed(keyword.value,
                                self.evaluate(keyword.value, "a unit"),
                                v.CollUnit, "unit")
        if mode is v.cuda_threads and unit is None:
            raise self.error(loop, "cuda_threads needs unit=... (cuda_thread, "
                                   "cuda_warp, cuda_warpgroup, ...)")
        bounds = f"{lo}, {hi}" + (f", unit = {unit.mlir_text()}" if unit
                                  else "")
        name = node.target.id

        def body() -> None:
            self.define(node.target, name, "index")
            self.statements(node.body, depth + 1)
        self.emit_region(depth, f"exogpu.for %{name} in {mode.name}"
                                f"({bounds})", node, body)

    def if_statement(self, node: ast.If, depth: int,
                     outer: Optional[Condition] = None) -> None:
        condition = self.condition(node.test)
        guard = condition if outer is None else outer.conjoin(condition)
        self.emit_region(depth, f"exogpu.if {guard.text()}", node,
                         lambda: self.statements(node.body, depth + 1))
        if not node.orelse:
            return
        negation = condition.negated()
        if negation is None:
            raise self.error(node, "else needs the negated condition, and "
                                   "the dialect cannot negate a bool "
                                   "parameter: write two ifs")
        rest = negation if outer is None else outer.conjoin(negation)
        if len(node.orelse) == 1 and isinstance(node.orelse[0], ast.If):
            self.if_statement(node.orelse[0], depth, rest)
            return
        # The else branch: the body under the negated condition.
        first = node.orelse[0]
        self.emit(depth, f"exogpu.if {rest.text()} {{", first)
        self.scopes.append({})
        self.statements(node.orelse, depth + 1)
        self.scopes.pop()
        self.emit(depth, "} " + self.loc(first), first)

    def with_statement(self, node: ast.With, depth: int) -> None:
        if len(node.items) != 1 or node.items[0].optional_vars is not None:
            raise self.error(node, "with takes one block: "
                                   "CudaDeviceFunction(...), CudaWarps(...) "
                                   "or CudaAsync(...)")
        block = self.evaluate(node.items[0].context_expr, "a block")
        try:
            if isinstance(block, v.CudaDeviceFunction):
                header = f"exogpu.device_function({block.mlir_fields()})"
            elif isinstance(block, v.CudaWarps):
                header = "exogpu.warps" + block.mlir_fields()
            elif isinstance(block, v.CudaAsync):
                self.typed(node.items[0].context_expr, block.timeline,
                             v.Timeline, "CudaAsync's timeline")
                self.statements(node.body, depth)
                return
            else:
                raise self.error(node.items[0].context_expr,
                                 f"{block!r} is not a block of the language "
                                 "(CudaDeviceFunction, CudaWarps, CudaAsync)")
        except TypeError as failure:
            raise self.error(node.items[0].context_expr,
                             str(failure)) from None
        self.emit_region(depth, header, node,
                         lambda: self.statements(node.body, depth + 1))

    def allocation(self, node: ast.AnnAssign, depth: int) -> None:
        """`x: f32[n] @ Memory` and `z: barrier[n] @ Mechanism`."""
        if node.value is not None or not isinstance(node.target, ast.Name):
            raise self.error(node, "an allocation is `name: type @ memory`, "
                                   "without a value")
        name = node.target.id
        chain = self.annotation_chain(node.annotation)
        base = chain[0]
        head = base.value if isinstance(base, ast.Subscript) else base
        if isinstance(head, ast.Name) and self.lookup(head.id) is None and \
                self.global_value(head, head.id) is v.barrier:
            dims = base.slice.elts if isinstance(base, ast.Subscript) and \
                isinstance(base.slice, ast.Tuple) else \
                [base.slice] if isinstance(base, ast.Subscript) else []
            extents = [self.control(d) for d in dims]
            if len(chain) != 2:
                raise self.error(node.annotation, "a barrier allocation is "
                                                  "`z: barrier[n] @ "
                                                  "CudaMbarrier`")
            kind = self.typed(chain[1], self.evaluate(
                chain[1], "a barrier mechanism"), v.BarrierKind,
                "a barrier's mechanism")
            shape = tuple(constant_value(e) for e in extents)
            type = BufferType("barrier", shape, barrier_kind=kind.name,
                              guarded=kind.guarded)
            text = "barrier" + ("[" + ", ".join(e.text() for e in extents)
                                + "]" if extents else "") + f" @{kind.name}"
            text += " guarded" if kind.guarded else ""
        else:
            precision, extents, memory, window = self.data_type(
                node.annotation, chain)
            if window or len(chain) != 2:
                raise self.error(node.annotation, "an allocation is "
                                                  "`x: f32[n] @ Memory`")
            shape = tuple(constant_value(e) for e in extents)
            type = BufferType("tensor", shape, precision, memory)
            text = precision + ("[" + ", ".join(e.text() for e in extents)
                                + "]" if extents else "") + f" @{memory}"
        self.define(node.target, name, "buffer", type)
        self.emit_stmt(depth, f"%{name} = exogpu.alloc {text}", node)

    def assignment(self, node: ast.Assign, depth: int) -> None:
        """`x[i] = e`, `x = e` (a scalar), or a window `w = x[...] @ ...`."""
        if len(node.targets) != 1:
            raise self.error(node, "one assignment per statement")
        target = node.targets[0]
        if isinstance(target, ast.Name) and self.lookup(target.id) is None:
            self.window(node, target, depth)
            return
        self.write(node, target, node.value, "=", depth)

    def reduction(self, node: ast.AugAssign, depth: int) -> None:
        if not isinstance(node.op, ast.Add):
            raise self.error(node, f"'{_op_text(node.op)}=' is not a "
                                   "statement; the language accumulates "
                                   "with +=")
        self.write(node, node.target, node.value, "+=", depth)

    def write(self, node: ast.stmt, target: ast.AST, value: ast.AST,
              symbol: str, depth: int) -> None:
        access = self.access(target, points_only=True)
        if access.symbol.type.is_barrier:
            raise self.error(target, f"'{access.symbol.name}' is a barrier; "
                                     "only data is written")
        reads: List[Symbol] = []
        expression = self.data(value, reads)
        op = "assign" if symbol == "=" else "reduce"
        self.emit_stmt(depth, f"exogpu.{op} {access.text} {symbol} "
                              f"{expression}"
                              f"{self.type_list([access.symbol] + reads)}",
                       node)

    def window(self, node: ast.Assign, target: ast.Name, depth: int) -> None:
        """`w = x[coords]` or `w = x[coords] @ Sm90_tensorMap(...)`."""
        chain = self.annotation_chain(node.value)
        if len(chain) > 2 or not isinstance(chain[0], (ast.Name,
                                                       ast.Subscript)):
            raise self.error(node.value, f"'{target.id}' is not defined: "
                                         "allocate it first (`x: f32 @ "
                                         "CudaRmem`), or assign it a window "
                                         "`x[lo:hi, :]`")
        source = chain[0]
        if isinstance(source, ast.Name) and self.lookup(source.id) is None:
            raise self.error(source, f"'{target.id}' is not defined: "
                                     "allocate it first (`x: f32 @ "
                                     "CudaRmem`), or assign it a window "
                                     "`x[lo:hi, :]`")
        access = self.access(source, points_only=False)
        if access.symbol.type.is_barrier:
            raise self.error(source, "windows are taken of data buffers")
        special = ""
        type = access.type
        if len(chain) == 2:
            value = self.evaluate(chain[1], "a special window")
            if not isinstance(value, v.SpecialWindow):
                raise self.error(chain[1], f"expected a special window "
                                           f"(Sm90_tensorMap), got "
                                           f"{value!r}")
            special = " " + value.mlir_text()
            type = dataclasses.replace(type, special=value.mlir_text())
        text = access.text
        self.define(target, target.id, "buffer", type)
        self.emit_stmt(depth, f"%{target.id} = exogpu.window {text}{special}"
                              f"{self.type_list([access.symbol])}", node)

    def expression_statement(self, node: ast.Expr, depth: int) -> None:
        """Calls, `Fence`, `Arrive(...) >> z`, `Await(...)`."""
        chain: List[ast.AST] = []
        value = node.value
        while isinstance(value, ast.BinOp) and isinstance(value.op,
                                                          ast.RShift):
            chain.insert(0, value.right)
            value = value.left
        if not isinstance(value, ast.Call):
            raise self.error(node, f"{_describe_node(node.value)} is not a "
                                   "statement of the ExoGPU language")
        if self.resolves_to(value.func, v.Fence):
            self.fence(node, value, chain, depth)
        elif self.resolves_to(value.func, v.Arrive):
            self.arrive(node, value, chain, depth)
        elif self.resolves_to(value.func, v.Await):
            self.await_(node, value, chain, depth)
        else:
            self.call(node, value, chain, depth)

    def timeline(self, node: ast.AST) -> str:
        value = self.evaluate(node, "a synchronization timeline")
        if not isinstance(value, v.Timeline) or value.qualitative:
            raise self.error(node, f"expected a synchronization timeline "
                                   f"(cuda_in_order, wgmma_async, ...), got "
                                   f"{value!r}")
        return value.name

    def integer(self, node: ast.AST, what: str) -> int:
        return self.typed(node, self.evaluate(node, what), int, what)

    def fence(self, node: ast.stmt, call: ast.Call, chain: List[ast.AST],
              depth: int) -> None:
        if chain or call.keywords or len(call.args) != 2:
            raise self.error(call, "Fence takes two timelines: "
                                   "Fence(pre, post)")
        pre, post = (self.timeline(a) for a in call.args)
        self.emit_stmt(depth, f"exogpu.fence({pre}, {post})", node)

    def arrive(self, node: ast.stmt, call: ast.Call, chain: List[ast.AST],
               depth: int) -> None:
        if call.keywords or len(call.args) not in (1, 2):
            raise self.error(call, "Arrive takes a timeline and a count: "
                                   "Arrive(tl, n) >> z[...]")
        if not chain:
            raise self.error(call, "Arrive needs its barrier: "
                                   "Arrive(tl, n) >> z[...]")
        timeline = self.timeline(call.args[0])
        count = self.integer(call.args[1], "the arrive count") \
            if len(call.args) == 2 else 1
        barriers = [self.barrier_access(b) for b in chain]
        self.emit_stmt(depth, f"exogpu.arrive({timeline}, {count})" + "".join(
            f" >> {b.text}" for b in barriers)
            + self.type_list([b.symbol for b in barriers]), node)

    def await_(self, node: ast.stmt, call: ast.Call, chain: List[ast.AST],
               depth: int) -> None:
        if chain or call.keywords or len(call.args) not in (2, 3):
            raise self.error(call, "Await takes a barrier, a timeline and a "
                                   "count: Await(z[...], tl, n), ~n for a "
                                   "ring of depth n")
        barrier = self.barrier_access(call.args[0])
        timeline = self.timeline(call.args[1])
        count = self.integer(call.args[2], "the await count (n, or ~n for "
                                           "a ring of depth n)") \
            if len(call.args) == 3 else 0
        self.emit_stmt(depth, f"exogpu.await({barrier.text}, {timeline}, "
                              f"{count}){self.type_list([barrier.symbol])}",
                       node)

    def barrier_access(self, node: ast.AST) -> _Access:
        access = self.access(node, points_only=False)
        if not access.symbol.type.is_barrier:
            raise self.error(node, f"'{access.symbol.name}' is data, not a "
                                   "barrier")
        return access

    def call(self, node: ast.stmt, call: ast.Call, chain: List[ast.AST],
             depth: int) -> None:
        """`p(c*, e*)` and `g(c*, e*) >> z[...]` (Fig. 2)."""
        callee = self.callee(call.func)
        if call.keywords:
            raise self.error(call.keywords[0].value, "arguments are "
                                                     "positional, in the "
                                                     "callee's order")
        if len(chain) > 1:
            raise self.error(chain[1], "a call completes on one barrier")
        controls: List[str] = []
        data: List[_Access] = []
        for arg in call.args:
            if isinstance(arg, ast.Starred):
                raise self.error(arg, "arguments are written out")
            if self.is_buffer_access(arg):
                access = self.access(arg, points_only=False)
                if access.symbol.type.is_barrier:
                    raise self.error(arg, "a call's barrier follows it: "
                                          "g(...) >> z[...]")
                data.append(access)
            else:
                controls.append(self.control(arg).text())
        text = f"exogpu.call @{callee}"
        if controls:
            text += "[" + ", ".join(controls) + "]"
        text += "(" + ", ".join(a.text for a in data) + ")"
        named = [a.symbol for a in data]
        if chain:
            barrier = self.barrier_access(chain[0])
            text += f" >> {barrier.text}"
            named.append(barrier.symbol)
        self.emit_stmt(depth, text + self.type_list(named), node)

    def is_buffer_access(self, node: ast.AST) -> bool:
        if isinstance(node, ast.Subscript):
            node = node.value
        if not isinstance(node, ast.Name):
            return False
        symbol = self.lookup(node.id)
        return symbol is not None and symbol.kind == "buffer"

    def callee(self, node: ast.AST) -> str:
        """The symbol a call names: a proc or @instr of Python, or an
        instruction of a library the module imports."""
        if isinstance(node, ast.Name) and self.lookup(node.id):
            raise self.error(node, f"'{node.id}' is a variable of the proc, "
                                   "not a proc or an instruction")
        if isinstance(node, ast.Name) and node.id not in self.namespace:
            return self.library_instruction(node)
        if not isinstance(node, (ast.Name, ast.Attribute)):
            raise self.error(node, f"{_describe_node(node)} is not a proc or "
                                   "an instruction")
        value = self.evaluate(node, "a callee")
        if isinstance(value, LibraryInstr):
            self.use_library(value.library)
            return value.name
        if isinstance(value, v.Keyword):
            raise self.error(node, f"{value.name} is not called as a "
                                   "statement here")
        callable_name = getattr(value, "exogpu_symbol", None)
        if callable_name is None:
            raise self.error(node, f"'{ast.unparse(node)}' is not a proc or "
                                   f"an instruction (it is {value!r})")
        if all(value is not c for c in self.callees):
            self.callees.append(value)
        return callable_name

    def library_instruction(self, node: ast.Name) -> str:
        """A bare name resolved against the libraries the module imports."""
        libraries = [value for value in self.namespace.values()
                     if isinstance(value, Library)]
        found = [lib for lib in libraries if node.id in lib.symbols]
        if len(found) > 1:
            raise self.error(node, f"'{node.id}' is in several imported "
                                   "libraries (" + ", ".join(
                                       lib.name for lib in found) +
                             f"): write {found[0].name}.{node.id}")
        if not found:
            imported = ", ".join(lib.name for lib in libraries)
            raise self.error(node, f"unknown instruction or proc "
                                   f"'{node.id}': not defined in this module"
                             + (f" nor in the libraries it imports "
                                f"({imported})" if imported else
                                " (import a library: from exogpu.stdlib "
                                "import sm90a)"))
        self.use_library(found[0])
        return node.id

    def use_library(self, library: Library) -> None:
        if all(library is not known for known in self.libraries):
            self.libraries.append(library)


def _fold(op: str, lhs: CExpr, rhs: CExpr) -> Optional[int]:
    """The value of `lhs op rhs` if both are constants (floor division and
    a non-negative remainder by a positive divisor, as the dialect's `/` and
    `mod`)."""
    if lhs.op != "const" or rhs.op != "const":
        return None
    a, b = lhs.value, rhs.value
    if op == "/":
        return a // b
    if op == "mod":
        return a % b
    return {"+": a + b, "-": a - b, "*": a * b}[op]


def _op_text(op: ast.AST) -> str:
    return {ast.Pow: "**", ast.LShift: "<<", ast.RShift: ">>",
            ast.BitOr: "|", ast.BitAnd: "&", ast.BitXor: "^",
            ast.MatMult: "@", ast.Mod: "%", ast.FloorDiv: "//",
            ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.Add: "+",
            ast.In: "in", ast.NotIn: "not in", ast.Is: "is",
            ast.IsNot: "is not"}.get(type(op), type(op).__name__)


def _describe_node(node: ast.AST) -> str:
    names = {ast.While: "a while loop", ast.Return: "return",
             ast.FunctionDef: "a nested def", ast.Lambda: "a lambda",
             ast.Try: "try", ast.Raise: "raise", ast.Import: "import",
             ast.ImportFrom: "import", ast.Global: "global",
             ast.Nonlocal: "nonlocal", ast.Delete: "del",
             ast.Break: "break", ast.Continue: "continue",
             ast.ClassDef: "a class", ast.AsyncFor: "async for",
             ast.AsyncWith: "async with", ast.Match: "match"}
    if type(node) in names:
        return names[type(node)]
    try:
        return f"'{ast.unparse(node)}'"
    except Exception:  # an unusual node: its kind is enough
        return type(node).__name__


def _describe(expected: type) -> str:
    return {int: "an integer", v.CollUnit: "a collective unit",
            v.BarrierKind: "a barrier mechanism",
            v.Timeline: "a timeline"}.get(expected, expected.__name__)
