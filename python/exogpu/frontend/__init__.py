"""The Python frontend: procs written in the paper's surface language.

`vocabulary` holds the language's names (`exogpu.lang` exports them);
`expressions` resolves names and reads control, data and compile-time
expressions; `translate` reads the statements of a function's syntax tree
and writes `exogpu` dialect text; `control` and `types` are the control
expressions and statement types it writes; `libraries` the instruction
libraries calls resolve against; `procs` the `@proc` / `@instr` decorators
and the objects they return; `files` loads Python files of procs.
docs/frontend.md describes the language.
"""
