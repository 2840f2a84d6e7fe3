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
import dataclasses
from typing import Any, Callable, Dict, List, Optional, Sequence

from ..errors import Location
from . import vocabulary as v
from .control import Condition, constant_value
from .expressions import (Access, ExpressionReader, Symbol, describe_node,
                          mlir_string, op_text)
from .libraries import Library, LibraryInstr
from .types import BufferType


@dataclasses.dataclass
class Translation:
    """A proc or instruction in dialect text, one op."""

    name: str
    lines: List[str]
    locations: List[Location]  # the Python location of each line
    callees: List[Any]  # procs and instructions (Python objects) it calls
    libraries: List[Library]  # the libraries whose instructions it calls


class Translator(ExpressionReader):
    """Translates one function (an @proc or an @instr)."""

    def __init__(self, node: ast.FunctionDef, namespace: Dict[str, Any],
                 file: str):
        super().__init__(namespace, file)
        self.node = node
        self.lines: List[str] = []
        self.locations: List[Location] = []
        self.callees: List[Any] = []
        # The libraries the proc declares: those its module imports (`from
        # exogpu.stdlib import sm90a`), in order, and any other whose
        # instructions it calls.
        self.libraries: List[Library] = []
        for value in namespace.values():
            if isinstance(value, Library):
                self.use_library(value)

    # -- Emission ---------------------------------------------------------

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
            raise self.error(node, f"{describe_node(node)} is not a "
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
        expression = node.items[0].context_expr
        block = self.evaluate(expression, "a block")
        if isinstance(block, v.CudaAsync):
            if not isinstance(block.timeline, v.Timeline) or \
                    block.timeline.qualitative:
                raise self.error(expression, "CudaAsync takes an instruction "
                                             "timeline (Sm80_cp_async, "
                                             "tma_to_smem_async, "
                                             "wgmma_async, ...), got "
                                             f"{block.timeline!r}")
            # The dialect takes instruction timelines from the instructions'
            # declarations: the block's body is emitted in place.
            self.statements(node.body, depth)
            return
        try:
            if isinstance(block, v.CudaDeviceFunction):
                header = f"exogpu.device_function({block.mlir_fields()})"
            elif isinstance(block, v.CudaWarps):
                header = "exogpu.warps" + block.mlir_fields()
            else:
                raise self.error(expression, f"{block!r} is not a block of "
                                             "the language "
                                             "(CudaDeviceFunction, CudaWarps, "
                                             "CudaAsync)")
        except TypeError as failure:
            raise self.error(expression, str(failure)) from None
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
        """`x[i] = e`, `x = e` (a scalar), a window `w = x[...] @ ...`, or
        a split `w = split(x, dim=d, by=f)`."""
        if len(node.targets) != 1:
            raise self.error(node, "one assignment per statement")
        target = node.targets[0]
        if isinstance(node.value, ast.Call) and self.resolves_to(
                node.value.func, v.split):
            self.split(node, target, node.value, depth)
            return
        if isinstance(target, ast.Name) and self.lookup(target.id) is None:
            self.window(node, target, depth)
            return
        self.write(node, target, node.value, "=", depth)

    def reduction(self, node: ast.AugAssign, depth: int) -> None:
        if not isinstance(node.op, ast.Add):
            raise self.error(node, f"'{op_text(node.op)}=' is not a "
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

    def split(self, node: ast.Assign, target: ast.AST, call: ast.Call,
              depth: int) -> None:
        """`w = split(x, dim=d, by=f)` (or `split(x, d, f)`): the window
        that views dimension d of x, of extent E, as [E / f, f]; d and f are
        compile-time integers."""
        usage = ("split takes a buffer, a dimension and a factor: "
                 "split(x, dim=1, by=64) or split(x, 1, 64)")
        if not isinstance(target, ast.Name):
            raise self.error(target, "a split is assigned to a new name: "
                                     "w = split(x, dim=1, by=64)")
        arguments = dict(zip(("buffer", "dim", "by"), call.args))
        for keyword in call.keywords:
            if keyword.arg not in ("dim", "by") or keyword.arg in arguments:
                raise self.error(keyword.value, usage)
            arguments[keyword.arg] = keyword.value
        if len(call.args) > 3 or len(arguments) != 3:
            raise self.error(call, usage)
        source = self.buffer(arguments["buffer"])
        if source.type.is_barrier:
            raise self.error(arguments["buffer"], "splits are taken of data "
                                                  "buffers")
        dim = self.integer(arguments["dim"], "the split dimension (dim=)")
        factor = self.integer(arguments["by"], "the split factor (by=)")
        rank = source.type.rank
        if not 0 <= dim < rank:
            raise self.error(arguments["dim"], f"'{source.name}' has rank "
                                               f"{rank}: the split dimension "
                                               f"is 0 to {rank - 1}, got {dim}"
                             if rank else f"'{source.name}' is a scalar: it "
                                          "has no dimension to split")
        if factor <= 0:
            raise self.error(arguments["by"], f"the split factor (by=) must "
                                              f"be positive, got {factor}")
        self.define(target, target.id, "buffer",
                    source.type.split(dim, factor))
        self.emit_stmt(depth, f"%{target.id} = exogpu.split %{source.name} "
                              f"dim {dim} by {factor}"
                              f"{self.type_list([source])}", node)

    def expression_statement(self, node: ast.Expr, depth: int) -> None:
        """Calls, `Fence`, `Arrive(...) >> z`, `Await(...)`."""
        chain: List[ast.AST] = []
        value = node.value
        while isinstance(value, ast.BinOp) and isinstance(value.op,
                                                          ast.RShift):
            chain.insert(0, value.right)
            value = value.left
        if not isinstance(value, ast.Call):
            raise self.error(node, f"{describe_node(node.value)} is not a "
                                   "statement of the ExoGPU language")
        if self.resolves_to(value.func, v.Fence):
            self.fence(node, value, chain, depth)
        elif self.resolves_to(value.func, v.Arrive):
            self.arrive(node, value, chain, depth)
        elif self.resolves_to(value.func, v.Await):
            self.await_(node, value, chain, depth)
        else:
            self.call(node, value, chain, depth)

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

    def barrier_access(self, node: ast.AST) -> Access:
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
        data: List[Access] = []
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
            raise self.error(node, f"{describe_node(node)} is not a proc or "
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
                                   f"'{node.id}': not defined in this module "
                                   "(before this proc)"
                             + (f" nor in the libraries it imports "
                                f"({imported})" if imported else
                                " (import a library: from exogpu.stdlib "
                                "import sm90a)"))
        self.use_library(found[0])
        return node.id

    def use_library(self, library: Library) -> None:
        if all(library is not known for known in self.libraries):
            self.libraries.append(library)


