#!/usr/bin/env python3
"""Summarizes the loops of a kernel's SASS: for each innermost loop that holds
a marker instruction (HGMMA: a GEMM's main loop), how many of each given
instruction it holds. Reads `cuobjdump -sass` output.

A loop is the range of addresses from the target of a backward branch to the
branch. Of the loops that hold the marker, the smallest are shown, and no
loop that overlaps a smaller one shown (enclosing loops, and the address
ranges of out-of-line retry paths of mbarrier waits, which ptxas places
after the function's body and branch back from). Instructions are counted by prefix of their opcode (with the
predicate stripped): `MEMBAR.ALL.GPU` counts `MEMBAR.ALL.GPU`,
`SYNCS.ARRIVE` counts every `SYNCS.ARRIVE.*`.

Usage: cuobjdump -sass kernel.o | utils/sass-loops.py --marker HGMMA \\
           --count MEMBAR.ALL.GPU,SYNCS.ARRIVE,FENCE.VIEW.ASYNC
prints, per function and loop,
    FUNCTION: loop 0x09f0-0x1040, 4 HGMMA: 0 MEMBAR.ALL.GPU, 2 SYNCS.ARRIVE, ...
and exits 1 when no loop holds the marker.
"""

import argparse
import re
import sys

FUNCTION = re.compile(r"^\s*Function : (\S+)")
INSTRUCTION = re.compile(
    r"^\s*/\*([0-9a-f]{4,})\*/\s+(?:@!?U?P[0-9T]+\s+)?([A-Z][A-Z0-9_.]*)([^;]*);")
BRANCH = re.compile(r"^\s*(0x[0-9a-f]+)")


def parse(lines):
    """Yields (function, [(address, opcode, operands)])."""
    name, body = None, []
    for line in lines:
        match = FUNCTION.match(line)
        if match:
            if name:
                yield name, body
            name, body = match.group(1), []
            continue
        match = INSTRUCTION.match(line)
        if match and name:
            body.append((int(match.group(1), 16), match.group(2),
                         match.group(3).strip()))
    if name:
        yield name, body


def loops_of(body):
    """The (start, end) address ranges of the backward branches."""
    found = set()
    for address, opcode, operands in body:
        if not opcode.startswith("BRA"):
            continue
        target = BRANCH.match(operands)
        if target and int(target.group(1), 16) <= address:
            found.add((int(target.group(1), 16), address))
    return sorted(found)


def count(body, start, end, prefix):
    return sum(1 for address, opcode, _ in body
               if start <= address <= end and
               (opcode == prefix or opcode.startswith(prefix + ".")))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--marker", required=True,
                        help="an opcode prefix that selects the loops")
    parser.add_argument("--count", default="",
                        help="comma-separated opcode prefixes to count")
    parser.add_argument("sass", nargs="?", type=argparse.FileType("r"),
                        default=sys.stdin)
    args = parser.parse_args()
    counted = [c for c in args.count.split(",") if c]
    shown = 0
    for name, body in parse(args.sass):
        loops = [loop for loop in loops_of(body)
                 if count(body, *loop, args.marker)]
        innermost = []
        for loop in sorted(loops, key=lambda range_: range_[1] - range_[0]):
            if not any(loop[0] <= kept[1] and kept[0] <= loop[1]
                       for kept in innermost):
                innermost.append(loop)
        for start, end in sorted(innermost):
            counts = ", ".join(f"{count(body, start, end, c)} {c}"
                               for c in counted)
            print(f"{name}: loop 0x{start:04x}-0x{end:04x}, "
                  f"{count(body, start, end, args.marker)} {args.marker}"
                  + (f": {counts}" if counts else ""))
            shown += 1
    if not shown:
        sys.exit(f"sass-loops.py: no loop holds {args.marker}")


if __name__ == "__main__":
    main()
