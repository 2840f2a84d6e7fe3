"""Compiles a kernel with the package as a new user has it: installed from
the wheel into a virtual environment, the tools of an installed prefix
(EXOGPU_ROOT, or PATH), run outside the checkout (test/Python/wheel.test).

Usage: installed_compile.py KERNEL PROC SIZES [--signature-only]
"""

import json
import sys

import exogpu

kernel, proc, sizes = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
print("package:", exogpu.__file__)
print("exogpu-opt:", exogpu.tools.find_tool("exogpu-opt"))
print("runtime:", exogpu.tools.runtime_include_dir())
print("stdlib:", exogpu.tools.stdlib_dir())
signature = exogpu.compiler.signatures(exogpu.Source(kernel))[proc]
print("declaration:", signature.declaration)
if "--signature-only" not in sys.argv:
    built = exogpu.compile(kernel, proc, check=sizes, arch="sm_80")
    print("built:", built.library_path.name, "cached:", built.cached)
    again = exogpu.compile(kernel, proc, check=sizes, arch="sm_80")
    print("again cached:", again.cached)
