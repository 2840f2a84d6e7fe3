# Every transform.exogpu op given a misused handle gets a diagnostic at the
# op, never a crash: the wrong kind of payload, a handle whose statement an
# earlier rewrite erased (invalidated by consumption, or left empty), and
# statements of two procs. This script writes one split-input chunk per op
# and misuse; it fails when an op of the .td files is missing from OPS.
#
# RUN: %python %s %exogpu_src_root/include/ExoGPU/Dialect/ExoGPU/TransformOps \
# RUN:   | exogpu-opt --transform-interpreter -split-input-file \
# RUN:       -verify-diagnostics=only-expected

import glob
import re
import sys

A = "!transform.any_op"

# Kinds of payload (how the chunk gets a handle to one of proc @p or @q).
LOOP, ALLOC, EXPR, ASSIGN, CALL, PROC = "loop", "alloc", "expr", "assign", "call", "proc"
# A block op takes consecutive statements (getStatementBlock's diagnostics).
BLOCK = None

# op: (operands after the mnemonic, results (-1: none, written `-> ()`; 0: no
#      functional type), handle operands, payload kind, what the op expects
#      as its diagnostics name it, or BLOCK; misuses that do not apply).
OPS = {
    "lift_alloc": ("{h}", 0, 1, ALLOC, "an alloc", ()),
    "sink_alloc": ("{h}", 0, 1, ALLOC, "an alloc", ()),
    "expand_dim": ('{h} size "4" index "0"', 0, 1, ALLOC, "an alloc", ()),
    "divide_dim": ("{h} dim 0 by 4", 0, 1, ALLOC, "an alloc", ()),
    "mult_dim": ("{h} dims 0, 1", 0, 1, ALLOC, "an alloc", ()),
    "rearrange_dim": ("{h} [0, 0]", 0, 1, ALLOC, "an alloc", ()),
    "resize_dim": ('{h} dim 0 size "4"', 0, 1, ALLOC, "an alloc", ()),
    "delete_buffer": ("{h}", -1, 1, ALLOC, "an alloc", ()),
    "reuse_buffer": ("{h} for {h2}", 0, 2, ALLOC, "an alloc", ()),
    "set_memory": ('{h} to "DRAM"', 0, 1, ALLOC,
                   "an alloc, or a proc with a parameter name", ()),
    "set_precision": ("{h} to f16", 0, 1, ALLOC,
                      "an alloc, or a proc with a parameter name", ()),
    "stage_mem": ('{h} window "x[0 : 4, 0 : 4]" into "s" memory "DRAM"', 3, 1,
                  LOOP, BLOCK, ()),
    "inline_window": ("{h}", -1, 1, LOOP, "a window", ()),
    "bind_window": ('{h} buffer "x" into "w"', 1, 1, LOOP, BLOCK, ()),
    "set_loop_mode": ('{h} "cuda_threads" unit "cuda_thread"', 0, 1, LOOP,
                      "a loop", ()),
    "wrap_device_function": ("{h} tasks 1 {{blockDim = 32}}", 1, 1, LOOP,
                             "a loop", ()),
    "wrap_warps": ('{h} name "producer"', 1, 1, LOOP, BLOCK, ()),
    "set_trailing_barrier": ('{h} "full[0]"', 0, 1, CALL, "a call", ()),
    "insert_fence": ('{h} at "before" "cuda_in_order", "cuda_in_order"', 1, 1,
                     LOOP, "a statement", ()),
    "insert_arrive": ('{h} at "after" "cuda_in_order" count 1 to ["z[0]"]', 1,
                      1, LOOP, "a statement", ()),
    "insert_await": ('{h} at "before" "z[0]" "cuda_in_order" count 0', 1, 1,
                     LOOP, "a statement", ()),
    "insert_barrier_alloc": ('{h} at "before" "z" [1] "CudaMbarrier"', 1, 1,
                             LOOP, "a statement", ()),
    "divide_loop": ('{h} by 2 into "o", "n"', 3, 1, LOOP, "a seq loop", ()),
    "reorder_loops": ("{h}", 2, 1, LOOP, "a seq loop", ()),
    "fission": ("after {h}", 2, 1, LOOP, "a statement", ()),
    "fuse": ("{h}, {h2}", 1, 2, LOOP, "a loop or guard", ()),
    "unroll_loop": ("{h}", 1, 1, LOOP, "a seq loop", ()),
    "cut_loop": ('{h} at "1"', 2, 1, LOOP, "a seq loop", ()),
    "shift_loop": ('{h} to "1"', 1, 1, LOOP, "a seq loop", ()),
    "extend_loop": ('{h} to "0", "9"', 1, 1, LOOP, "a seq loop", ()),
    "remove_loop": ("{h}", 1, 1, LOOP, "a seq loop", ()),
    "add_loop": ('{h} "r" to "4"', 1, 1, LOOP, BLOCK, ()),
    "lift_scope": ("{h}", 1, 1, LOOP, "a loop or guard", ()),
    "mult_loops": ('{h} into "k"', 1, 1, LOOP, "a seq loop", ()),
    # match searches inside each payload op: an expression holds no
    # statement, an empty handle nothing; payloads of two procs are fine.
    "match": ('kind "assign" in {h}', 1, 1, LOOP, "no statement matches",
              ("other proc",)),
    "get_block": ("{h} count 1", 1, 1, LOOP, "a statement", ()),
    "get_body": ("{h}", 1, 1, LOOP, "a loop, guard or scope", ()),
    # set_label, simplify and report_unsafe_steps act on each payload op:
    # an empty handle or payloads of two procs are fine.
    "set_label": ('{h} "tag"', 0, 1, LOOP, BLOCK, ("empty", "other proc")),
    "inline": ("{h}", 1, 1, CALL, "a call", ()),
    "extract_subproc": ('{h} "sub"', 2, 1, LOOP, BLOCK, ()),
    # No rewrite erases a proc.
    "copy_proc": ('{h} "copy"', 1, 1, PROC, "a proc", ("erased",)),
    "call_eqv": ("{h} @leaf", 0, 1, CALL, "a call", ()),
    "replace": ("{h} with @leaf", 1, 1, LOOP, BLOCK, ()),
    "report_unsafe_steps": ("{h}", 0, 1, PROC, "procs or ops holding procs",
                            ("erased", "empty", "other proc")),
    "reorder_stmts": ("{h}, {h2}", 0, 2, LOOP, "a statement", ()),
    "bind_expr": ('{h} "t"', 2, 1, EXPR, "a data expression", ()),
    "rewrite_expr": ('{h} at 0 to "0"', 0, 1, ASSIGN, "a statement or a read",
                     ()),
    "inline_assign": ("{h}", -1, 1, ASSIGN, "an assign", ()),
    "commute_expr": ("{h}", 0, 1, EXPR, "a data expression", ()),
    "simplify": ("{h}", 0, 1, LOOP,
                 "procs, statements of a proc or ops holding procs",
                 ("empty", "other proc")),
    "eliminate_dead_code": ("{h}", 1, 1, LOOP, "a loop or guard", ()),
    "remove_if": ("{h}", 1, 1, LOOP, "a guard", ()),
}

PAYLOAD = """  exogpu.proc @p(%x: f32[8, 8] @DRAM) {
    exogpu.for %i in seq(0, 8) {
      %t = exogpu.alloc f32[8, 8] @DRAM
      exogpu.for %j in seq(0, 8) {
        exogpu.assign %x[%i, %j] = %x[%i, %j] * 2.0 : f32[8, 8] @DRAM
      }
      exogpu.call @leaf(%x) : f32[8, 8] @DRAM
    }
  }
  exogpu.proc @q(%y: f32[8, 8] @DRAM) {
    exogpu.for %k in seq(0, 8) {
      %u = exogpu.alloc f32[8, 8] @DRAM
      exogpu.for %l in seq(0, 8) {
        exogpu.assign %y[%k, %l] = %y[%k, %l] * 2.0 : f32[8, 8] @DRAM
      }
      exogpu.call @leaf(%y) : f32[8, 8] @DRAM
    }
  }
  exogpu.proc @leaf(%v: f32[8, 8] @DRAM) {
    exogpu.assign %v[0, 0] = 0.0 : f32[8, 8] @DRAM
  }
"""


def match(args):
    return "transform.exogpu.match %s in %%root : (%s) -> %s" % (args, A, A)


def bind(name, kind, proc, lines):
    """Appends lines that bind %name to a payload of `kind` in @p or @q."""
    first = proc == "p"
    if kind == PROC:
        bind(name + "_loop", LOOP, proc, lines)
        lines.append('%%%s = transform.get_parent_op %%%s_loop {op_name = '
                     '"exogpu.proc"} : (%s) -> %s' % (name, name, A, A))
        return
    if kind == LOOP:
        args = 'iter "%s"' % ("j" if first else "l")
    elif kind == ALLOC:
        args = 'pattern "%s = alloc _"' % ("t" if first else "u")
    else:
        op = {EXPR: "mul", ASSIGN: "assign", CALL: "call"}[kind]
        args = 'kind "%s" nth %d' % (op, 0 if first else 1)
    lines.append("%%%s = %s" % (name, match(args)))


def op_line(op):
    operands, nres, nopd, _, _, _ = OPS[op]
    text = "transform.exogpu.%s %s" % (op, operands.format(h="%h", h2="%h2"))
    ins = ", ".join([A] * nopd)
    if nres == 0:
        return "%s : %s" % (text, ins)
    if nres == -1:
        return "%s : (%s) -> ()" % (text, ins)
    outs = A if nres == 1 else "(%s)" % ", ".join([A] * nres)
    results = ", ".join("%%r%d" % i for i in range(nres))
    return "%s = %s : (%s) -> %s" % (results, text, ins, outs)


def chunk(op, misuse):
    """The split-input chunk of `op` misused as `misuse`, or None."""
    _, _, nopd, kind, what, skipped = OPS[op]
    if misuse in skipped:
        return None
    lines = []
    if misuse == "wrong kind":
        # An expression where statements are expected, a loop where an
        # expression is expected.
        wrong = LOOP if kind == EXPR else EXPR
        bind("h", wrong, "p", lines)
        if nopd == 2:
            bind("h2", ASSIGN, "p", lines)
        got = "'exogpu.%s'" % ("for" if wrong == LOOP else "mul")
        if op == "match":
            expect = what
        elif what is BLOCK:
            expect = "expected statements of an exogpu.proc, got " + got
        else:
            expect = "expected %s, got %s" % (what, got)
    elif misuse == "erased":
        # Unrolling the outer loop erases the statement %h points to.
        bind("h", kind, "p", lines)
        lines.append("%%outer = %s" % match('iter "i"'))
        lines.append("%%unrolled = transform.exogpu.unroll_loop %%outer : "
                     "(%s) -> %s" % (A, A))
        if nopd == 2:
            bind("h2", kind, "q", lines)
        expect = "uses a handle invalidated by a previously executed " \
                 "transform op"
    elif misuse == "empty":
        # divide_loop without a cut tail returns an empty tail handle, as a
        # statement erased through another handle leaves its handle empty.
        lines.append("%%j = %s" % match('iter "j"'))
        lines.append('%%jo, %%ji, %%h = transform.exogpu.divide_loop %%j by 2 '
                     'into "jo", "ji" : (%s) -> (%s, %s, %s)' % (A, A, A, A))
        if nopd == 2:
            bind("h2", kind, "q", lines)
        if op == "match":
            expect = what
        elif what is BLOCK:
            expect = "expected one or more statements, got an empty handle"
        else:
            expect = "expected one payload (%s), got 0" % what
    else:
        # Statements of @p and @q in one handle, or in the two handles.
        if nopd == 2:
            bind("h", kind, "p", lines)
            bind("h2", kind, "q", lines)
            expect = "expected statements of the same proc"
        else:
            bind("hp", kind, "p", lines)
            bind("hq", kind, "q", lines)
            lines.append("%%h = transform.merge_handles %%hp, %%hq : %s" % A)
            if what is BLOCK:
                expect = "expected consecutive statements of one block"
            else:
                expect = "expected one payload (%s), got 2" % what
    lines.append("// expected-error @below {{%s}}" % expect)
    lines.append(op_line(op))
    body = "\n".join("    " + line for line in lines)
    return ("// %s: %s.\nmodule attributes {transform.with_named_sequence} {\n"
            "%s  transform.named_sequence @__transform_main(%%root: %s "
            "{transform.readonly}) {\n%s\n    transform.yield\n  }\n}\n"
            % (op, misuse, PAYLOAD, A, body))


def declared_ops(td_dir):
    names = set()
    for path in glob.glob(td_dir + "/*.td"):
        names.update(re.findall(r'def \w+ : ExoGPU_\w+Op<"(\w+)"',
                                open(path).read()))
    return names


def main():
    missing = declared_ops(sys.argv[1]) - set(OPS)
    if missing:
        sys.exit("ops without misuse tests: " + ", ".join(sorted(missing)))
    chunks = [chunk(op, misuse) for op in OPS
              for misuse in ("wrong kind", "erased", "empty", "other proc")]
    print("\n// -----\n\n".join(c for c in chunks if c))


main()
