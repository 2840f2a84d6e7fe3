#!/usr/bin/env python3
"""The one-kernel GEMM entry points (docs/performance.md, "One entry point
per precision"): turns the dispatch table bench/dispatch.json into
examples/gemm_tf32.mlir, examples/gemm_bf16.mlir, ...: procs whose host code
calls, for a shape, the variant the table names (and their Python twins,
examples/gemm_tf32.py, ...: docs/python.md); or rewrites the table from a
benchmark run.

A table entry names the entry point, its element type, the divisibility it
requires of M, N and K, and rows in order: a variant (an exogpu proc with
the entry point's signature), the divisibility it requires, the sizes from
which it runs ({"M": 8192, "N": 8192}: M >= 8192 and N >= 8192) and, if
bounded, up to which it runs ({"upto": {"M": 1024}}: M <= 1024). A row
with `"split": KC` names a split-k variant (`[M, N, S, KC]` sizes, A and B
taken as [M, S, KC] and [N, S, KC]): the entry point splits K of A and B
into chunks of KC (exogpu.split) and calls it with S = K / KC. The
first row whose sizes and divisibility hold runs; the last row must take
every shape the entry point takes. exogpu has no `else`, so the entry point
nests the rows: row i's own condition, and, beside it, the negation of that
condition (a disjunction, seeds/002 Fig. 1 conditions) around the later
rows.

Usage:
  bench/dispatch.py [--table bench/dispatch.json] [--output-dir examples] [--check]
  bench/dispatch.py --from-results RESULTS.csv [--table bench/dispatch.json] [-o TABLE]
"""

import argparse
import csv
import itertools
import json
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
DIMS = ("M", "N", "K")
# Size bounds (>=, <, <=, >) and remainders (== 0, > 0: a remainder is never
# negative, so the negation of "> 0" is "== 0").
NEGATION = {">=": "<", "<": ">=", "<=": ">", "==": ">", ">": "=="}


def fail(message):
    sys.exit(f"dispatch.py: {message}")


def row_condition(row, entry):
    """Row's own condition: a conjunction of atoms (lhs, rel, constant)."""
    atoms = []
    for dim in DIMS:
        if dim in row.get("from", {}):
            atoms.append((f"%{dim}", ">=", int(row["from"][dim])))
        if dim in row.get("upto", {}):
            atoms.append((f"%{dim}", "<=", int(row["upto"][dim])))
    for dim, divisor in row.get("requires", {}).items():
        # Implied by the entry point's own requirement, or tested.
        if entry["requires"].get(dim, 1) % divisor:
            atoms.append((f"%{dim} mod {divisor}", "==", 0))
    return atoms


def holds(atom, sizes):
    """Whether an atom of row_condition holds at `sizes` ({"M": .., ...})."""
    lhs, rel, value = atom
    dim, _, divisor = lhs[1:].partition(" mod ")
    x = sizes[dim] % int(divisor) if divisor else sizes[dim]
    return {">=": x >= value, "<": x < value, "<=": x <= value,
            "==": x == value, ">": x > value}[rel]


def dispatched(entry, sizes):
    """The variant the entry point runs at `sizes` (the first row whose
    condition holds), or None where its requirement does not hold."""
    if any(sizes[dim] % divisor for dim, divisor in entry["requires"].items()):
        return None
    for row in entry["rows"]:
        if all(holds(atom, sizes) for atom in row_condition(row, entry)):
            return row["kernel"]
    return None


def as_bound(atom):
    """A size bound as `>=` or `<` (`x <= v` is `x < v + 1`, `x > v` is
    `x >= v + 1`); other atoms unchanged."""
    lhs, rel, value = atom
    if " mod " in lhs:
        return atom
    if rel == "<=":
        return (lhs, "<", value + 1)
    if rel == ">":
        return (lhs, ">=", value + 1)
    return atom


def consistent(conjunction):
    """Whether a conjunction can hold: no size bounded below at or above its
    upper bound, no remainder both zero and not."""
    lower, upper = {}, {}
    conjunction = [as_bound(atom) for atom in conjunction]
    for lhs, rel, value in conjunction:
        if rel == ">=":
            lower[lhs] = max(lower.get(lhs, value), value)
        elif rel == "<":
            upper[lhs] = min(upper.get(lhs, value), value)
    zero = {lhs for lhs, rel, _ in conjunction if rel == "=="}
    nonzero = {lhs for lhs, rel, _ in conjunction if rel == ">"}
    return (all(lower[x] < upper[x] for x in lower if x in upper) and
            not zero & nonzero)


def check_rows(rows, entry):
    """Fails unless every row runs for some shape (its own condition and not
    any earlier row's: one atom of each earlier row negated) and the last
    row takes every shape."""
    own = [row_condition(row, entry) for row in rows]
    for i, atoms in enumerate(own):
        alternatives = [[(lhs, NEGATION[rel], value)
                         for lhs, rel, value in own[j]] for j in range(i)]
        if not any(consistent(atoms + list(choice))
                   for choice in itertools.product(*alternatives)):
            fail(f"{entry['name']}: row {rows[i]['kernel']} can never run")
    if own[-1]:
        fail(f"{entry['name']}: the last row ({rows[-1]['kernel']}) must "
             "take every shape the entry point takes")


def format_condition(dnf):
    return " or ".join(" and ".join(f"{lhs} {rel} {value}"
                                    for lhs, rel, value in conjunction)
                       for conjunction in dnf)


def entry_text(table, entry):
    """The MLIR of one entry point: a file examples/NAME.mlir."""
    sources = []
    for row in entry["rows"]:
        path = f"{row['kernel']}.mlir"
        if not (ROOT / "examples" / path).exists():
            fail(f"{entry['name']}: no examples/{path}")
        if path not in sources:
            sources.append(path)
    element = entry["element"]
    requires = " and ".join(f"%{dim} mod {entry['requires'][dim]} == 0"
                            for dim in DIMS if dim in entry["requires"])
    lines = [
        "// Generated by bench/dispatch.py from bench/dispatch.json: edit the",
        f"// table, not this file (test/Examples/{entry['name']}.test checks "
        "that it",
        "// is up to date). The one-kernel entry point of its precision: its",
        "// host code calls, for the shape, the variant the table names (the",
        "// first row whose sizes and divisibility hold; docs/performance.md).",
        "// The table is " + table["source"].split(":")[0] + ".",
        "// The variants it calls are imported from their files.",
        "",
        'exogpu.import "sm90a"',
        *(f'exogpu.import "{source}"' for source in sources),
        "",
        f"// {entry['doc']}.",
        f"// CHECK-LABEL: exogpu.proc @{entry['name']}(",
        f"exogpu.proc @{entry['name']}(%M: size, %N: size, %K: size,",
        f"    %A: {element}[%M, %K] @CudaGmemLinear, "
        f"%B: {element}[%N, %K] @CudaGmemLinear,",
        f"    %C: {element}[%M, %N] @CudaGmemLinear)",
        f"    requires {requires} {{",
    ]
    depth = 1
    for depth, row, atoms in nested_rows(entry):
        pad = "  " * depth
        lines.append(f"{pad}// {row_summary(row)}")
        lines.append(f"{pad}// CHECK: exogpu.call @{row['kernel']}[")
        statements = [pad + ("  " if atoms else "") + statement
                      for statement in row_statements(row, element)]
        if not atoms:
            lines += statements
            break
        lines.append(f"{pad}exogpu.if {format_condition([atoms])} {{")
        lines += statements
        lines.append(f"{pad}}}")
        lines.append(f"{pad}exogpu.if {format_condition(negated(atoms))} {{")
    lines += ["  " * d + "}" for d in reversed(range(depth))]
    return "\n".join(lines) + "\n"


def nested_rows(entry):
    """(depth, row, its own condition) per row, in order, for the nested
    guards (exogpu has no `else`): a row runs under its condition and the
    later rows one level deeper, under its negation; the last row's
    condition is empty (check_rows)."""
    check_rows(entry["rows"], entry)
    for depth, row in enumerate(entry["rows"], start=1):
        yield depth, row, row_condition(row, entry)


def negated(conjunction):
    """The negation of a conjunction of atoms: a disjunction (DNF) of the
    negated atoms."""
    return [[(lhs, NEGATION[rel], value)] for lhs, rel, value in conjunction]


def row_statements(row, element):
    """The MLIR statements that run a row's variant."""
    buffer = f"{element}[?, ?] @CudaGmemLinear"
    if "split" not in row:
        return [f"exogpu.call @{row['kernel']}[%M, %N, %K](%A, %B, %C) : "
                f"{buffer}, {buffer}, {buffer}"]
    chunk = int(row["split"])
    chunks = f"window {element}[?, ?, {chunk}] @CudaGmemLinear"
    return [f"%{x}_chunks = exogpu.split %{x} dim 1 by {chunk} : {buffer}"
            for x in "AB"] + [
        f"exogpu.call @{row['kernel']}[%M, %N, %K / {chunk}, {chunk}]"
        f"(%A_chunks, %B_chunks, %C) : {chunks}, {chunks}, {buffer}"]


def row_summary(row):
    """The comment naming a row: its variant, chunks and sizes."""
    bounds = ([f"{d} >= {v}" for d, v in row["from"].items()] +
              [f"{d} <= {v}" for d, v in row.get("upto", {}).items()])
    chunks = f" in chunks of K of {row['split']}" if "split" in row else ""
    return (row["kernel"] + chunks +
            (f" from {', '.join(bounds)}" if bounds else ", the rest"))


def python_condition(conjunction):
    """A conjunction of atoms in Python (`%M mod 1024` -> `M % 1024`)."""
    return " and ".join(
        f"{lhs} {rel} {value}".replace(" mod ", " % ").replace("%M", "M")
        .replace("%N", "N").replace("%K", "K")
        for lhs, rel, value in conjunction)


def python_entry_text(table, entry):
    """The Python twin of entry_text (the same module through the frontend,
    test/Python/test_examples.py): a file examples/NAME.py."""
    element = entry["element"]
    requires = " and ".join(f"{dim} % {entry['requires'][dim]} == 0"
                            for dim in DIMS if dim in entry["requires"])
    variants = []
    for row in entry["rows"]:
        if row["kernel"] not in variants:
            variants.append(row["kernel"])
    lines = [
        f'"""The Python twin of {entry["name"]}.mlir, generated with it by '
        "bench/dispatch.py",
        "from bench/dispatch.json: edit the table, not this file. The "
        "one-kernel entry",
        "point of its precision: its host code calls, for the shape, the "
        "variant the",
        "table names (the first row whose sizes and divisibility hold;",
        "docs/performance.md). The table is " +
        table["source"].split(":")[0] + ".",
        "",
        f"{entry['doc']}.",
        '"""',
        "",
        "from __future__ import annotations",
        "",
        "from exogpu.lang import *",
    ]
    lines += [f"from {name} import {name}" for name in variants]
    lines += [
        "", "",
        "@proc",
        f"def {entry['name']}(M: size, N: size, K: size,",
        f"{' ' * (len(entry['name']) + 5)}A: {element}[M, K] @ CudaGmemLinear,"
        f" B: {element}[N, K] @ CudaGmemLinear,",
        f"{' ' * (len(entry['name']) + 5)}C: {element}[M, N] @ "
        "CudaGmemLinear):",
        f"    assert {requires}",
    ]
    for depth, row, atoms in nested_rows(entry):
        pad = "    " * depth
        lines.append(f"{pad}# {row_summary(row)}")
        statements = [pad + ("    " if atoms else "") + statement
                      for statement in python_row_statements(row)]
        if not atoms:
            lines += statements
            break
        lines += python_if(pad, [atoms])
        lines += statements
        lines += python_if(pad, negated(atoms))
    return "\n".join(lines) + "\n"


def python_if(pad, dnf):
    """`if` with a condition in DNF, a conjunction per line when several."""
    conjunctions = [python_condition(c) for c in dnf]
    if len(conjunctions) == 1:
        return [f"{pad}if {conjunctions[0]}:"]
    return ([f"{pad}if ({conjunctions[0]}"] +
            [f"{pad}        or {c}" for c in conjunctions[1:-1]] +
            [f"{pad}        or {conjunctions[-1]}):"])


def python_row_statements(row):
    """The Python statements that run a row's variant."""
    if "split" not in row:
        return [f"{row['kernel']}(M, N, K, A, B, C)"]
    chunk = int(row["split"])
    return [f"{x}_chunks = split({x}, dim=1, by={chunk})" for x in "AB"] + [
        f"{row['kernel']}(M, N, K / {chunk}, {chunk}, A_chunks, B_chunks, C)"]


def emit(table, out_dir, check):
    """Writes (or, with `check`, compares) examples/NAME.mlir and its Python
    twin examples/NAME.py per entry."""
    stale = []
    for entry in table["entries"]:
        for suffix, text in ((".mlir", entry_text(table, entry)),
                             (".py", python_entry_text(table, entry))):
            path = pathlib.Path(out_dir) / f"{entry['name']}{suffix}"
            if check:
                if not path.exists() or path.read_text() != text:
                    stale.append(str(path))
            else:
                path.write_text(text)
    if stale:
        fail("out of date with the table (run bench/dispatch.py): " +
             ", ".join(stale))


def split_rows(entry, measured):
    """The split-k rows of a benchmark CSV: for each long-K shape (kind
    "splitk") whose best variant is the split-k variant of the entry's
    table at some split factor S (variant "NAME S=8"), that variant in
    chunks of K / S from that K, up to that M and N; smaller shapes first."""
    template = next((row for row in entry["rows"] if "split" in row), None)
    if template is None:
        return []
    best = {}
    for r in measured:
        if (r["kind"] != "splitk" or r["failed"] == "1" or
                r["exogpu"] != "1" or r["variant"] == entry["name"]):
            continue
        shape = (int(r["M"]), int(r["N"]), int(r["K"]))
        rate = float(r["rate_median"])
        if shape not in best or rate > best[shape][1]:
            best[shape] = (r["variant"], rate)
    rows = []
    for (m, n, k), (name, _) in sorted(best.items(),
                                       key=lambda item: item[0][0] * item[0][1]):
        kernel, _, factor = name.partition(" S=")
        if kernel != template["kernel"] or not factor:
            continue
        chunk = k // int(factor)
        rows.append(dict(template, split=chunk,
                         requires=dict(template["requires"], K=chunk),
                         **{"from": {"K": k}, "upto": {"M": m, "N": n}}))
    return rows


def from_results(table, results):
    """Rewrites each entry's rows from a benchmark CSV (bench/gemm_bench.cu):
    the split-k rows of the long-K shapes first (split_rows), then, for each
    measured shape of the entry's kind, the best of the table's variants
    runs from that shape (M and N) up to the next larger measured shape
    whose best differs."""
    with open(results, newline="") as file:
        measured = list(csv.DictReader(file))
    for entry in table["entries"]:
        kind = "tf32" if entry["element"] == "f32" else entry["element"]
        known = {row["kernel"]: row for row in entry["rows"]
                 if "split" not in row}
        best = {}
        for r in measured:
            name = r["variant"]
            if r["kind"] != kind or name not in known or r["failed"] == "1":
                continue
            shape = (int(r["M"]), int(r["N"]))
            rate = float(r["rate_median"])
            if shape not in best or rate > best[shape][1]:
                best[shape] = (name, rate)
        if not best:
            continue
        rows = []
        for (m, n), (name, _) in sorted(best.items(), reverse=True):
            row = dict(known[name], **{"from": {"M": m, "N": n}})
            if not rows or rows[-1]["kernel"] != name:
                rows.append(row)
            else:
                rows[-1] = row
        # The smallest shape's variant takes the rest if it takes every
        # shape the entry point does; else the table's last row stays last.
        fallback = entry["rows"][-1]
        if row_condition(dict(rows[-1], **{"from": {}}), entry):
            rows.append(fallback)
        else:
            rows[-1] = dict(rows[-1], **{"from": {}})
        entry["rows"] = split_rows(entry, measured) + rows
    table["source"] = f"measured: the best variant per shape in {results}"
    return table


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--table", default=str(ROOT / "bench/dispatch.json"))
    parser.add_argument("-o", "--output", default="-",
                        help="the rewritten table (--from-results)")
    parser.add_argument("--output-dir", default=str(ROOT / "examples"))
    parser.add_argument("--check", action="store_true",
                        help="only check that the entry points are up to date")
    parser.add_argument("--from-results", metavar="CSV")
    args = parser.parse_args()
    table = json.loads(pathlib.Path(args.table).read_text())
    if args.from_results:
        table = from_results(table, args.from_results)
        text = json.dumps(table, indent=2) + "\n"
        if args.output == "-":
            sys.stdout.write(text)
        else:
            pathlib.Path(args.output).write_text(text)
        return
    emit(table, args.output_dir, args.check)


if __name__ == "__main__":
    main()
