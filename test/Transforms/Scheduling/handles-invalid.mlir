// RUN: exogpu-opt %s --transform-interpreter -split-input-file -verify-diagnostics

// Misuse of handles is diagnosed at the transform op, never a crash: the
// wrong kind of statement.
module attributes {transform.with_named_sequence} {
  exogpu.proc @wrong_kind(%x: f32[2] @DRAM) {
    // expected-note @below {{payload op}}
    exogpu.assign %x[0] = 1.0 : f32[2] @DRAM
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %s = transform.exogpu.match kind "assign" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{expected a seq loop, got 'exogpu.assign'}}
    %a, %b, %c = transform.exogpu.divide_loop %s by 2 into "o", "i" : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// Several payloads where one is required.
module attributes {transform.with_named_sequence} {
  exogpu.proc @several(%x: f32[2] @DRAM) {
    exogpu.for %i in seq(0, 2) {
      exogpu.assign %x[%i] = 1.0 : f32[2] @DRAM
    }
    exogpu.for %j in seq(0, 2) {
      exogpu.assign %x[%j] = 1.0 : f32[2] @DRAM
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.exogpu.match kind "for" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{expected one payload (a seq loop), got 2}}
    %s = transform.exogpu.unroll_loop %l : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// An empty handle: the statement was erased by an earlier rewrite.
module attributes {transform.with_named_sequence} {
  exogpu.proc @erased(%x: f32[2] @DRAM) {
    // expected-note @below {{ancestor payload op}}
    // expected-note @below {{nested payload op}}
    exogpu.for %i in seq(0, 2) {
      exogpu.assign %x[%i] = 1.0 : f32[2] @DRAM
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.exogpu.match kind "for" in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @below {{handle to invalidated ops}}
    %alias = transform.merge_handles %l : !transform.any_op
    // expected-note @below {{invalidated by this transform op that consumes its operand #0}}
    %s = transform.exogpu.unroll_loop %l : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{op uses a handle invalidated by a previously executed transform op}}
    %t = transform.exogpu.unroll_loop %alias : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Statements of two procs.
module attributes {transform.with_named_sequence} {
  exogpu.proc @first(%x: f32[2] @DRAM) {
    // expected-note @below {{first statement}}
    exogpu.for %i in seq(0, 2) {
      exogpu.assign %x[%i] = 1.0 : f32[2] @DRAM
    }
  }
  exogpu.proc @second(%x: f32[2] @DRAM) {
    // expected-note @below {{second statement, in another proc}}
    exogpu.for %j in seq(0, 2) {
      exogpu.assign %x[%j] = 1.0 : f32[2] @DRAM
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %i = transform.exogpu.match iter "i" in %root : (!transform.any_op) -> !transform.any_op
    %j = transform.exogpu.match iter "j" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{expected statements of the same proc}}
    %f = transform.exogpu.fuse %i, %j : (!transform.any_op, !transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A payload that is not an exogpu statement.
module attributes {transform.with_named_sequence} {
  // expected-note @below {{payload op}}
  exogpu.proc @not_a_statement(%x: f32[2] @DRAM) {
    exogpu.assign %x[0] = 1.0 : f32[2] @DRAM
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.exogpu.match kind "assign" in %root : (!transform.any_op) -> !transform.any_op
    %p = transform.get_parent_op %a {op_name = "exogpu.proc"} : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{expected a seq loop, got 'exogpu.proc'}}
    %s = transform.exogpu.unroll_loop %p : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Blocks are consecutive statements of one block.
module attributes {transform.with_named_sequence} {
  exogpu.proc @not_consecutive(%x: f32[3] @DRAM) {
    exogpu.assign %x[0] = 1.0 : f32[3] @DRAM
    exogpu.assign %x[1] = 1.0 : f32[3] @DRAM
    // expected-note @below {{a statement between this one and the previous one is missing}}
    exogpu.assign %x[2] = 1.0 : f32[3] @DRAM
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.exogpu.match kind "assign" nth 0 in %root : (!transform.any_op) -> !transform.any_op
    %c = transform.exogpu.match kind "assign" nth 2 in %root : (!transform.any_op) -> !transform.any_op
    %b = transform.merge_handles %a, %c : !transform.any_op
    // expected-error @below {{expected consecutive statements of one block}}
    %l = transform.exogpu.add_loop %b "r" to "1" : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Instruction bodies are not scheduled.
module attributes {transform.with_named_sequence} {
  exogpu.instr @copy(%dst: f32[4] @CudaSmemLinear, %src: f32[4] @CudaGmemLinear)
      target = cuda, unit = cuda_thread, cuda = "" {
    // expected-note @below {{payload op}}
    exogpu.for %i in seq(0, 4) {
      exogpu.assign %dst[%i] = %src[%i] : f32[4] @CudaSmemLinear, f32[4] @CudaGmemLinear
    }
  }
  transform.named_sequence @match_for(%op: !transform.any_op {transform.readonly}) -> !transform.any_op {
    transform.match.operation_name %op ["exogpu.for"] : !transform.any_op
    transform.yield %op : !transform.any_op
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.collect_matching @match_for in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{expected a seq loop in an exogpu.proc, got 'exogpu.for'}}
    %s = transform.exogpu.unroll_loop %l : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// match reports when nothing matches and when nth is out of range.
module attributes {transform.with_named_sequence} {
  exogpu.proc @no_match(%x: f32[2] @DRAM) {
    exogpu.assign %x[0] = 1.0 : f32[2] @DRAM
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    // expected-error @below {{no statement matches}}
    %l = transform.exogpu.match kind "for" in %root : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  exogpu.proc @nth_out_of_range(%x: f32[2] @DRAM) {
    exogpu.assign %x[0] = 1.0 : f32[2] @DRAM
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    // expected-error @below {{nth 3 is out of range: 1 statement(s) match}}
    %l = transform.exogpu.match kind "assign" nth 3 in %root : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    // expected-error @below {{needs at least one of kind, iter, label, pattern, callee or proc}}
    %l = transform.exogpu.match in %root : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  exogpu.proc @block_too_short(%x: f32[2] @DRAM) {
    exogpu.assign %x[0] = 1.0 : f32[2] @DRAM
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %s = transform.exogpu.match kind "assign" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{only 1 statement(s) from here to the end of the block, expected 2}}
    %b = transform.exogpu.get_block %s count 2 : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.exogpu.match kind "for" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{tail must be "perfect", "guard" or "cut"}}
    %a, %b, %c = transform.exogpu.divide_loop %l by 2 into "o", "i" tail "round" : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// An empty handle: divide_loop without a cut tail returns no tail loop.
module attributes {transform.with_named_sequence} {
  exogpu.proc @empty_handle(%x: f32[8] @DRAM) {
    exogpu.for %i in seq(0, 8) {
      exogpu.assign %x[%i] = 1.0 : f32[8] @DRAM
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.exogpu.match kind "for" in %root : (!transform.any_op) -> !transform.any_op
    %o, %i, %tail = transform.exogpu.divide_loop %l by 2 into "o", "i" tail "perfect" : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    // expected-error @below {{expected one payload (a seq loop), got 0}}
    // expected-note @below {{the handle is empty: its statement was erased by an earlier rewrite, or never matched}}
    %s = transform.exogpu.unroll_loop %tail : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// get_body needs a loop, guard or scope with statements in its body.
module attributes {transform.with_named_sequence} {
  exogpu.proc @empty_body(%x: f32[2] @DRAM) {
    exogpu.for %i in seq(0, 2) {
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %i = transform.exogpu.match iter "i" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{the body is empty}}
    %b = transform.exogpu.get_body %i : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A block op given an empty handle says why a handle can be empty.
module attributes {transform.with_named_sequence} {
  exogpu.proc @empty_block(%x: f32[8] @DRAM) {
    exogpu.for %j in seq(0, 8) {
      exogpu.assign %x[%j] = 1.0 : f32[8] @DRAM
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %j = transform.exogpu.match iter "j" in %root : (!transform.any_op) -> !transform.any_op
    %jo, %ji, %tail = transform.exogpu.divide_loop %j by 2 into "jo", "ji" : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    // expected-error @below {{expected one or more statements, got an empty handle}}
    // expected-note @below {{its statements were erased by an earlier rewrite, or never matched}}
    %l = transform.exogpu.add_loop %tail "r" to "1" : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A block's statements share one block: the note names the one outside.
module attributes {transform.with_named_sequence} {
  exogpu.proc @two_blocks(%x: f32[8] @DRAM) {
    exogpu.assign %x[0] = 1.0 : f32[8] @DRAM
    exogpu.for %i in seq(0, 8) {
      // expected-note @below {{this statement is in another block}}
      exogpu.assign %x[%i] = 1.0 : f32[8] @DRAM
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.exogpu.match kind "assign" nth 0 in %root : (!transform.any_op) -> !transform.any_op
    %b = transform.exogpu.match kind "assign" nth 1 in %root : (!transform.any_op) -> !transform.any_op
    %ab = transform.merge_handles %a, %b : !transform.any_op
    // expected-error @below {{expected consecutive statements of one block}}
    %l = transform.exogpu.add_loop %ab "r" to "1" : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
