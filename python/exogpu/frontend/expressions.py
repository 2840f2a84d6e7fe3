"""Names and expressions of proc bodies, as the frontend reads them.

`ExpressionReader` resolves names (the proc's parameters, iterators,
allocations and windows in nested scopes, then the function's module) and
reads the expressions of the language into dialect text: control
expressions and conditions (seeds/002 Fig. 1 CExpr, BExpr), data
expressions (DExpr), buffer accesses and windows, data types, and the
compile-time values written in Python (memories, units, timelines, blocks),
which Python evaluates in the function's module. translate.py builds the
statements on it.
"""

from __future__ import annotations

import ast
import builtins
import dataclasses
from typing import Any, Dict, List, Optional, Sequence, Tuple

from ..errors import FrontendError, Location
from . import vocabulary as v
from .control import CExpr, Condition, Relation, constant_difference
from .types import BufferType


@dataclasses.dataclass
class Symbol:
    """A name of a proc body: a control value or a buffer."""

    name: str
    kind: str  # "index" (sizes, indices, loop iterators), "bool", "buffer"
    line: int
    type: Optional[BufferType] = None


@dataclasses.dataclass
class Access:
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


class ExpressionReader:
    """Names, expressions and types of one function's body."""

    def __init__(self, namespace: Dict[str, Any], file: str):
        self.namespace = namespace
        self.file = file
        self.scopes: List[Dict[str, Symbol]] = [{}]

    # -- Errors and locations ---------------------------------------------

    def error(self, node: ast.AST, message: str) -> FrontendError:
        return FrontendError(message, self.file, getattr(node, "lineno", 0),
                             getattr(node, "col_offset", 0) + 1)

    def location(self, node: ast.AST) -> Location:
        return Location(self.file, node.lineno, node.col_offset + 1)

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
                raise self.error(node, f"'{op_text(node.op)}' is not a "
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
        raise self.error(node, f"{describe_node(node)} is not a control "
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
                    raise self.error(node, f"'{op_text(op)}' is not a "
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
        raise self.error(node, f"{describe_node(node)} is not a condition "
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
                               f"{describe_node(node)}")

    def access(self, node: ast.AST, points_only: bool) -> Access:
        """`x`, `x[i, j]` or `x[i, lo:hi, :]`."""
        if isinstance(node, ast.Name):
            symbol = self.buffer(node)
            text = "%" + symbol.name
            if points_only and symbol.type.rank:
                raise self.error(node, f"'{symbol.name}' has rank "
                                       f"{symbol.type.rank}: index it")
            return Access(symbol, text + ("[]" if points_only else ""),
                           symbol.type)
        if not isinstance(node, ast.Subscript):
            raise self.error(node, f"expected a buffer access, got "
                                   f"{describe_node(node)}")
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
        return Access(symbol, f"%{symbol.name}[{', '.join(texts)}]", window)

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
            raise self.error(node, f"'{op_text(node.op)}' is not a data "
                                   "operator (data expressions use + - * / "
                                   "and max, exp2, log2)")
        raise self.error(node, f"{describe_node(node)} is not a data "
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

    def timeline(self, node: ast.AST) -> str:
        value = self.evaluate(node, "a synchronization timeline")
        if not isinstance(value, v.Timeline) or value.qualitative:
            raise self.error(node, f"expected a synchronization timeline "
                                   f"(cuda_in_order, wgmma_async, ...), got "
                                   f"{value!r}")
        return value.name

    def integer(self, node: ast.AST, what: str) -> int:
        return self.typed(node, self.evaluate(node, what), int, what)


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


def op_text(op: ast.AST) -> str:
    return {ast.Pow: "**", ast.LShift: "<<", ast.RShift: ">>",
            ast.BitOr: "|", ast.BitAnd: "&", ast.BitXor: "^",
            ast.MatMult: "@", ast.Mod: "%", ast.FloorDiv: "//",
            ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.Add: "+",
            ast.In: "in", ast.NotIn: "not in", ast.Is: "is",
            ast.IsNot: "is not"}.get(type(op), type(op).__name__)


def describe_node(node: ast.AST) -> str:
    names = {ast.While: "a while loop", ast.Return: "return",
             ast.FunctionDef: "a nested def", ast.Lambda: "a lambda",
             ast.Try: "try", ast.Raise: "raise", ast.Import: "import",
             ast.ImportFrom: "import", ast.Global: "global",
             ast.Nonlocal: "nonlocal", ast.Delete: "del",
             ast.Break: "break", ast.Continue: "continue",
             ast.ClassDef: "a class", ast.AsyncFor: "async for",
             ast.AsyncWith: "async with"}
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
