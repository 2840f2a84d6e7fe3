"""The Python frontend: procs written in the paper's surface language.

`vocabulary` holds the language's names (`exogpu.lang` exports them),
`translate` reads a function's syntax tree and writes `exogpu` dialect
text, `control` and `types` are the control expressions and statement types
it writes, `libraries` the instruction libraries it resolves calls against,
`procs` the `@proc` / `@instr` decorators and the objects they return,
`files` loads Python files of procs. docs/python.md describes the language.
"""
