"""Prints a proc of DIALECT (exogpu or exoam) whose body is DEPTH nested
one-iteration loops: nested_loops.py DIALECT DEPTH."""
import sys

dialect, depth = sys.argv[1], int(sys.argv[2])
if dialect == "exogpu":
    head, loop = "exogpu.proc @deep() {", "exogpu.for %i{} in seq(0, 1) {{"
else:
    head, loop = 'exoam.proc @deep() {', "exoam.loop %i{} in (0, 1) {{"
lines = [head] + [loop.format(i) for i in range(depth)]
lines += ["}"] * (depth + 1)
print("\n".join(lines))
