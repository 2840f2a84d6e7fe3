"""Control expressions (seeds/002 Fig. 1 CExpr, BExpr) of the frontend.

A control expression is kept as the tree the user wrote and printed back in
the dialect's syntax (`%k * 32 + 32`, `%N / 128`, `%k mod 4`), so the tools
see the user's expression and check it (quasi-affinity, divisors).

The frontend needs one fact about expressions itself: the extent of a window
interval `lo:hi`, which the dialect makes static when `hi - lo` is a
constant (the type a later statement must repeat). `LinearForm` computes
that difference the way MLIR's affine expressions simplify it: sums of
terms with integer coefficients, floor divisions and remainders of such sums
as opaque terms (after dividing out constant factors).
"""

from __future__ import annotations

import dataclasses
from typing import Dict, Optional, Tuple


@dataclasses.dataclass(frozen=True)
class CExpr:
    """A control expression: `op` is "const", "var", "+", "-", "*", "/",
    "mod" or "neg"; `value` the integer of a constant, `name` a variable's
    name (printed `%name`)."""

    op: str
    args: Tuple["CExpr", ...] = ()
    value: int = 0
    name: str = ""

    @staticmethod
    def const(value: int) -> "CExpr":
        return CExpr("const", value=value)

    @staticmethod
    def var(name: str) -> "CExpr":
        return CExpr("var", name=name)

    def text(self) -> str:
        return _print(self, 0)

    def names(self):
        """The variables, in order of first appearance."""
        if self.op == "var":
            yield self.name
        for arg in self.args:
            yield from arg.names()


# Binding strength: sums < products < unary minus and atoms.
_PRECEDENCE = {"+": 0, "-": 0, "*": 1, "/": 1, "mod": 1}


def _print(expr: CExpr, context: int) -> str:
    if expr.op == "const":
        text = str(expr.value)
        return f"({text})" if expr.value < 0 and context > 0 else text
    if expr.op == "var":
        return "%" + expr.name
    if expr.op == "neg":
        return "-" + _print(expr.args[0], 2)
    own = _PRECEDENCE[expr.op]
    # Left-associative: the right operand binds one level tighter.
    text = (f"{_print(expr.args[0], own)} {expr.op} "
            f"{_print(expr.args[1], own + 1)}")
    return f"({text})" if own < context else text


# An opaque term of a linear form: ("var", name), or ("/" or "mod", the
# inner form's key, divisor).
Term = Tuple
FormKey = Tuple[Tuple[Tuple[Term, int], ...], int]


@dataclasses.dataclass(frozen=True)
class LinearForm:
    """sum(coefficient * term) + constant, canonical (sorted, no zeros)."""

    terms: Tuple[Tuple[Term, int], ...] = ()
    constant: int = 0

    @staticmethod
    def make(terms: Dict[Term, int], constant: int) -> "LinearForm":
        kept = tuple(sorted(((t, c) for t, c in terms.items() if c),
                            key=repr))
        return LinearForm(kept, constant)

    def add(self, other: "LinearForm", sign: int = 1) -> "LinearForm":
        terms = dict(self.terms)
        for term, coefficient in other.terms:
            terms[term] = terms.get(term, 0) + sign * coefficient
        return LinearForm.make(terms, self.constant + sign * other.constant)

    def scale(self, factor: int) -> "LinearForm":
        return LinearForm.make({t: c * factor for t, c in self.terms},
                               self.constant * factor)

    def as_constant(self) -> Optional[int]:
        return None if self.terms else self.constant

    def divisible_by(self, divisor: int) -> bool:
        return self.constant % divisor == 0 and all(
            c % divisor == 0 for _, c in self.terms)

    def floordiv(self, divisor: int) -> "LinearForm":
        if self.divisible_by(divisor):
            return LinearForm.make({t: c // divisor for t, c in self.terms},
                                   self.constant // divisor)
        if not self.terms:
            return LinearForm((), self.constant // divisor)
        return LinearForm.make({("/", self.key(), divisor): 1}, 0)

    def mod(self, divisor: int) -> "LinearForm":
        if self.divisible_by(divisor):
            return LinearForm()
        if not self.terms:
            return LinearForm((), self.constant % divisor)
        return LinearForm.make({("mod", self.key(), divisor): 1}, 0)

    def key(self) -> FormKey:
        return (self.terms, self.constant)


def linear_form(expr: CExpr) -> Optional[LinearForm]:
    """The linear form of `expr`, or None where it is not quasi-affine (the
    tools report that)."""
    if expr.op == "const":
        return LinearForm((), expr.value)
    if expr.op == "var":
        return LinearForm.make({("var", expr.name): 1}, 0)
    forms = [linear_form(a) for a in expr.args]
    if any(f is None for f in forms):
        return None
    if expr.op == "neg":
        return forms[0].scale(-1)
    lhs, rhs = forms
    if expr.op == "+":
        return lhs.add(rhs)
    if expr.op == "-":
        return lhs.add(rhs, -1)
    if expr.op == "*":
        if lhs.as_constant() is not None:
            return rhs.scale(lhs.as_constant())
        if rhs.as_constant() is not None:
            return lhs.scale(rhs.as_constant())
        return None
    divisor = rhs.as_constant()
    if divisor is None or divisor <= 0:
        return None
    return lhs.floordiv(divisor) if expr.op == "/" else lhs.mod(divisor)


def constant_difference(lo: CExpr, hi: CExpr) -> Optional[int]:
    """`hi - lo` if it is a constant, else None."""
    lo_form, hi_form = linear_form(lo), linear_form(hi)
    if lo_form is None or hi_form is None:
        return None
    return hi_form.add(lo_form, -1).as_constant()


def constant_value(expr: CExpr) -> Optional[int]:
    form = linear_form(expr)
    return None if form is None else form.as_constant()


@dataclasses.dataclass(frozen=True)
class Relation:
    """`lhs op rhs` with op one of ==, <, <=, >, >=; or a boolean atom
    (`op` "bool", `lhs` the variable) or a literal (`op` "true"/"false")."""

    op: str
    lhs: Optional[CExpr] = None
    rhs: Optional[CExpr] = None

    def text(self) -> str:
        if self.op in ("true", "false"):
            return self.op
        if self.op == "bool":
            return self.lhs.text()
        return f"{self.lhs.text()} {self.op} {self.rhs.text()}"

    def negated(self) -> Optional["Condition"]:
        """not self, in DNF; None for a boolean atom (the dialect has no
        negated boolean atom)."""
        if self.op in ("true", "false"):
            return Condition(((Relation("false" if self.op == "true"
                                        else "true"),),))
        if self.op == "bool":
            return None
        opposite = {"<": ">=", "<=": ">", ">": "<=", ">=": "<"}
        if self.op == "==":
            return Condition(((Relation("<", self.lhs, self.rhs),),
                              (Relation(">", self.lhs, self.rhs),)))
        return Condition(((Relation(opposite[self.op], self.lhs,
                                    self.rhs),),))


@dataclasses.dataclass(frozen=True)
class Condition:
    """A condition in disjunctive normal form: `or` of `and`s of relations
    (the dialect's `and` binds tighter than `or`, with no parentheses)."""

    disjuncts: Tuple[Tuple[Relation, ...], ...]

    def text(self) -> str:
        return " or ".join(" and ".join(r.text() for r in conjunct)
                           for conjunct in self.disjuncts)

    def conjoin(self, other: "Condition") -> "Condition":
        return Condition(tuple(a + b for a in self.disjuncts
                               for b in other.disjuncts))

    def disjoin(self, other: "Condition") -> "Condition":
        return Condition(self.disjuncts + other.disjuncts)

    def negated(self) -> Optional["Condition"]:
        """not self, in DNF (De Morgan, distributed); None if a boolean atom
        would have to be negated."""
        result: Optional[Condition] = None
        for conjunct in self.disjuncts:
            # not (a and b) = not a or not b
            negated_conjunct: Optional[Condition] = None
            for relation in conjunct:
                negation = relation.negated()
                if negation is None:
                    return None
                negated_conjunct = negation if negated_conjunct is None \
                    else negated_conjunct.disjoin(negation)
            result = negated_conjunct if result is None \
                else result.conjoin(negated_conjunct)
        return result

