// RUN: exogpu-opt %s --transform-interpreter -split-input-file -verify-diagnostics

// reorder_stmts refuses statements that do not commute.
module attributes {transform.with_named_sequence} {
  exogpu.proc @reorder_conflict(%x: f32[2] @DRAM) {
    // expected-note @below {{first statement: write of x[0]}}
    exogpu.assign %x[0] = 1.0 : f32[2] @DRAM
    // expected-error @below {{cannot reorder these statements: they do not commute}}
    // expected-note @below {{second statement: read of x[0]}}
    exogpu.assign %x[1] = %x[0] : f32[2] @DRAM
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.exogpu.match kind "assign" nth 0 in %root : (!transform.any_op) -> !transform.any_op
    %b = transform.exogpu.match kind "assign" nth 1 in %root : (!transform.any_op) -> !transform.any_op
    transform.exogpu.reorder_stmts %a, %b : !transform.any_op, !transform.any_op
    transform.yield
  }
}

// -----

// reorder_stmts cannot move a use before its allocation.
module attributes {transform.with_named_sequence} {
  exogpu.proc @reorder_alloc() {
    %t = exogpu.alloc f32 @DRAM
    // expected-error @below {{cannot move this statement before the previous one: it uses a buffer or window that one defines}}
    exogpu.assign %t[] = 1.0 : f32 @DRAM
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.exogpu.match kind "alloc" in %root : (!transform.any_op) -> !transform.any_op
    %b = transform.exogpu.match kind "assign" in %root : (!transform.any_op) -> !transform.any_op
    transform.exogpu.reorder_stmts %a, %b : !transform.any_op, !transform.any_op
    transform.yield
  }
}

// -----

// reorder_stmts needs adjacent statements.
module attributes {transform.with_named_sequence} {
  exogpu.proc @reorder_far(%x: f32[3] @DRAM) {
    exogpu.assign %x[0] = 1.0 : f32[3] @DRAM
    exogpu.assign %x[1] = 1.0 : f32[3] @DRAM
    // expected-error @below {{reorder_stmts needs two adjacent statements of one block, the second right after the first}}
    exogpu.assign %x[2] = 1.0 : f32[3] @DRAM
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.exogpu.match kind "assign" nth 0 in %root : (!transform.any_op) -> !transform.any_op
    %b = transform.exogpu.match kind "assign" nth 2 in %root : (!transform.any_op) -> !transform.any_op
    transform.exogpu.reorder_stmts %a, %b : !transform.any_op, !transform.any_op
    transform.yield
  }
}

// -----

// bind_expr binds data expressions, not statements.
module attributes {transform.with_named_sequence} {
  exogpu.proc @bind_statement(%x: f32[2] @DRAM) {
    // expected-note @below {{payload op}}
    exogpu.assign %x[0] = 1.0 : f32[2] @DRAM
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.exogpu.match kind "assign" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{expected a data expression, got 'exogpu.assign'}}
    %b, %c = transform.exogpu.bind_expr %a "t" : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// bind_expr needs a memory of Fig. 12.
module attributes {transform.with_named_sequence} {
  exogpu.proc @bind_bad_memory(%x: f32[2] @DRAM) {
    exogpu.assign %x[0] = %x[1] * 2.0 : f32[2] @DRAM
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.exogpu.match kind "mul" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{'Nowhere' is not an exogpu memory (Fig. 12)}}
    %b, %c = transform.exogpu.bind_expr %a "t" memory "Nowhere" : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// rewrite_expr needs an equal expression.
module attributes {transform.with_named_sequence} {
  exogpu.proc @rewrite_unequal(%N: size, %x: f32[%N] @DRAM) {
    exogpu.for %k in seq(0, %N) {
      // expected-error-re @below {{cannot rewrite 'k' to 'k + 1': they differ (for example at {{.*}})}}
      exogpu.assign %x[%k] = 1.0 : f32[?] @DRAM
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %s = transform.exogpu.match kind "assign" in %root : (!transform.any_op) -> !transform.any_op
    transform.exogpu.rewrite_expr %s at 0 to "k + 1" : !transform.any_op
    transform.yield
  }
}

// -----

// rewrite_expr counts the statement's control expressions.
module attributes {transform.with_named_sequence} {
  exogpu.proc @rewrite_index(%x: f32[2] @DRAM) {
    // expected-error @below {{rewrite_expr: this statement has 1 control expression(s), no number 3}}
    exogpu.assign %x[0] = 1.0 : f32[2] @DRAM
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %s = transform.exogpu.match kind "assign" in %root : (!transform.any_op) -> !transform.any_op
    transform.exogpu.rewrite_expr %s at 3 to "0" : !transform.any_op
    transform.yield
  }
}

// -----

// rewrite_expr does not rewrite boolean atoms.
module attributes {transform.with_named_sequence} {
  exogpu.proc @rewrite_bool(%b: bool, %x: f32[2] @DRAM) {
    // expected-error @below {{rewrite_expr: expression 0 is a boolean condition atom, not a control expression}}
    exogpu.if %b {
      exogpu.assign %x[0] = 1.0 : f32[2] @DRAM
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %s = transform.exogpu.match kind "if" in %root : (!transform.any_op) -> !transform.any_op
    transform.exogpu.rewrite_expr %s at 0 to "0" : !transform.any_op
    transform.yield
  }
}

// -----

// inline_assign needs an assignment to an allocation.
module attributes {transform.with_named_sequence} {
  exogpu.proc @inline_param(%x: f32[2] @DRAM, %y: f32[2] @DRAM) {
    // expected-error @below {{inline_assign needs an assignment to an allocation (not a parameter or window)}}
    exogpu.assign %x[0] = 1.0 : f32[2] @DRAM
    exogpu.assign %y[0] = %x[0] : f32[2] @DRAM, f32[2] @DRAM
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %s = transform.exogpu.match kind "assign" nth 0 in %root : (!transform.any_op) -> !transform.any_op
    transform.exogpu.inline_assign %s : (!transform.any_op) -> ()
    transform.yield
  }
}

// -----

// inline_assign keeps precision conversions.
module attributes {transform.with_named_sequence} {
  exogpu.proc @inline_convert(%x: f16[2] @DRAM, %y: f32[2] @DRAM) {
    %t = exogpu.alloc f32 @DRAM
    // expected-error @below {{inline_assign: the assignment converts precision; inlining would drop the conversion}}
    exogpu.assign %t[] = %x[0] : f32 @DRAM, f16[2] @DRAM
    exogpu.assign %y[0] = %t[] : f32[2] @DRAM, f32 @DRAM
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %s = transform.exogpu.match kind "assign" nth 0 in %root : (!transform.any_op) -> !transform.any_op
    transform.exogpu.inline_assign %s : (!transform.any_op) -> ()
    transform.yield
  }
}

// -----

// inline_assign needs a buffer that only later reads use.
module attributes {transform.with_named_sequence} {
  exogpu.proc @inline_other_use(%y: f32[2] @DRAM) {
    %t = exogpu.alloc f32 @DRAM
    // expected-error @below {{cannot inline this assignment: 't' is used other than by reads after it}}
    exogpu.assign %t[] = 1.0 : f32 @DRAM
    // expected-note @below {{this use}}
    exogpu.assign %t[] = 2.0 : f32 @DRAM
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %s = transform.exogpu.match kind "assign" nth 0 in %root : (!transform.any_op) -> !transform.any_op
    transform.exogpu.inline_assign %s : (!transform.any_op) -> ()
    transform.yield
  }
}

// -----

// inline_assign reads must read the assigned element.
module attributes {transform.with_named_sequence} {
  exogpu.proc @inline_other_element(%y: f32[2] @DRAM) {
    %t = exogpu.alloc f32[2] @DRAM
    // expected-error @below {{cannot inline this assignment into a read of another element of 't'}}
    exogpu.assign %t[0] = 1.0 : f32[2] @DRAM
    // expected-note @below {{this read}}
    exogpu.assign %y[0] = %t[1] : f32[2] @DRAM, f32[2] @DRAM
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %s = transform.exogpu.match kind "assign" nth 0 in %root : (!transform.any_op) -> !transform.any_op
    transform.exogpu.inline_assign %s : (!transform.any_op) -> ()
    transform.yield
  }
}

// -----

// inline_assign refuses when a later statement changes what the expression reads.
module attributes {transform.with_named_sequence} {
  exogpu.proc @inline_changed(%x: f32[2] @DRAM, %y: f32[2] @DRAM) {
    %t = exogpu.alloc f32 @DRAM
    // expected-error @below {{cannot inline this assignment: a later statement changes what it reads}}
    // expected-note @below {{the assignment: read of x[0]}}
    exogpu.assign %t[] = %x[0] : f32 @DRAM, f32[2] @DRAM
    // expected-note @below {{later statement: write of x[0]}}
    exogpu.assign %x[0] = 5.0 : f32[2] @DRAM
    exogpu.assign %y[0] = %t[] : f32[2] @DRAM, f32 @DRAM
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %s = transform.exogpu.match kind "assign" nth 0 in %root : (!transform.any_op) -> !transform.any_op
    transform.exogpu.inline_assign %s : (!transform.any_op) -> ()
    transform.yield
  }
}

// -----

// commute_expr applies to sums and products.
module attributes {transform.with_named_sequence} {
  exogpu.proc @commute_sub(%x: f32[2] @DRAM) {
    // expected-error @below {{commute_expr applies to '+' and '*' (exogpu.add, exogpu.mul)}}
    exogpu.assign %x[0] = %x[1] - 1.0 : f32[2] @DRAM
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %s = transform.exogpu.match kind "sub" in %root : (!transform.any_op) -> !transform.any_op
    transform.exogpu.commute_expr %s : !transform.any_op
    transform.yield
  }
}

// -----

// eliminate_dead_code needs a condition that always or never holds.
module attributes {transform.with_named_sequence} {
  exogpu.proc @dead_unknown(%N: size, %x: f32[2] @DRAM) {
    // expected-error @below {{eliminate_dead_code: the condition is neither always true nor always false}}
    exogpu.if %N > 3 {
      exogpu.assign %x[0] = 1.0 : f32[2] @DRAM
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %s = transform.exogpu.match kind "if" in %root : (!transform.any_op) -> !transform.any_op
    %r = transform.exogpu.eliminate_dead_code %s : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// eliminate_dead_code removes only loops that never run.
module attributes {transform.with_named_sequence} {
  exogpu.proc @dead_loop_runs(%N: size, %x: f32[%N] @DRAM) {
    // expected-error @below {{eliminate_dead_code applies to guards that always or never hold and to loops that never run}}
    exogpu.for %i in seq(0, %N) {
      exogpu.assign %x[%i] = 1.0 : f32[?] @DRAM
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %s = transform.exogpu.match kind "for" in %root : (!transform.any_op) -> !transform.any_op
    %r = transform.exogpu.eliminate_dead_code %s : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// remove_if refuses an excluded instance that accesses out of bounds.
module attributes {transform.with_named_sequence} {
  exogpu.proc @remove_if_bounds(%N: size, %x: f32[%N] @DRAM, %y: f32[%N] @DRAM) {
    %t = exogpu.alloc f32[%N] @DRAM
    exogpu.for %i in seq(0, %N + 2) {
      // expected-error @below {{cannot remove this guard: an excluded instance of its body would fail a run-time check}}
      exogpu.if %i < %N {
        // expected-note-re @below {{index (dimension 0 of 't') is not within [0, N) (for example at {{.*}})}}
        exogpu.assign %t[%i] = 1.0 : f32[?] @DRAM
      }
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %s = transform.exogpu.match kind "if" in %root : (!transform.any_op) -> !transform.any_op
    %r = transform.exogpu.remove_if %s : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// remove_if refuses writes of parameters in excluded instances: the caller sees them.
module attributes {transform.with_named_sequence} {
  exogpu.proc @remove_if_param(%x: f32[8] @DRAM) {
    exogpu.for %i in seq(0, 8) {
      // expected-error @below {{cannot remove this guard: in an excluded instance the body writes the parameter 'x', which the caller sees}}
      exogpu.if %i < 6 {
        // expected-note-re @below {{this write of x[i] (for example at {{.*}})}}
        exogpu.assign %x[%i] = 1.0 : f32[8] @DRAM
      }
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %s = transform.exogpu.match kind "if" in %root : (!transform.any_op) -> !transform.any_op
    %r = transform.exogpu.remove_if %s : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// remove_if refuses when a write of an excluded instance is read later: here
// tmp[6] and tmp[7] are read by the second loop.
module attributes {transform.with_named_sequence} {
  exogpu.proc @remove_if_read_later(%C: f32[8] @DRAM) {
    %tmp = exogpu.alloc f32[8] @DRAM
    exogpu.for %i in seq(0, 8) {
      // expected-error @below {{cannot remove this guard: a write in an excluded instance is read later}}
      exogpu.if %i < 6 {
        // expected-note @below {{excluded write: write of tmp[i]}}
        exogpu.assign %tmp[%i] = 0.0 : f32[8] @DRAM
      }
    }
    exogpu.for %j in seq(0, 8) {
      // expected-note-re @below {{later read: read of tmp[j] (for example at {{.*}})}}
      exogpu.assign %C[%j] = %tmp[%j] : f32[8] @DRAM, f32[8] @DRAM
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %s = transform.exogpu.match kind "if" in %root : (!transform.any_op) -> !transform.any_op
    %r = transform.exogpu.remove_if %s : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// remove_if checks the precondition of a proc called in the instances it
// makes run (issue 36): @f needs n < 3, the guard gave it N < 3.
module attributes {transform.with_named_sequence} {
  exogpu.proc @f(%n: size, %x: f32[4] @DRAM) requires %n < 3 {
    exogpu.assign %x[0] = 1.0 : f32[4] @DRAM
  }
  exogpu.proc @remove_if_precondition(%N: size, %y: f32[4] @DRAM) {
    %t = exogpu.alloc f32[4] @DRAM
    // expected-error @below {{cannot remove this guard: an excluded instance of its body would fail a run-time check}}
    exogpu.if %N < 3 {
      // expected-note @below {{the precondition of @f does not hold (for example at N = 3, n = 3)}}
      exogpu.call @f[%N](%t) : f32[4] @DRAM
    }
    exogpu.assign %y[0] = 2.0 : f32[4] @DRAM
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %s = transform.exogpu.match kind "if" in %root : (!transform.any_op) -> !transform.any_op
    %r = transform.exogpu.remove_if %s : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// remove_if checks accesses against the window they go through, not only
// against its buffer: w[4] and w[5] lie in t but not in w (issue 36).
module attributes {transform.with_named_sequence} {
  exogpu.proc @remove_if_window(%y: f32[4] @DRAM) {
    %t = exogpu.alloc f32[8] @DRAM
    %w = exogpu.window %t[0:4] : f32[8] @DRAM
    exogpu.for %i in seq(0, 6) {
      // expected-error @below {{cannot remove this guard: an excluded instance of its body would fail a run-time check}}
      exogpu.if %i < 4 {
        // expected-note @below {{index (dimension 0 of 'w') is not within [0, 4) (for example at i = 5)}}
        exogpu.assign %w[%i] = 1.0 : window f32[4] @DRAM
      }
    }
    exogpu.assign %y[0] = 2.0 : f32[4] @DRAM
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %s = transform.exogpu.match kind "if" in %root : (!transform.any_op) -> !transform.any_op
    %r = transform.exogpu.remove_if %s : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// remove_if checks the extents of allocations the excluded instances run:
// f32[N - 3] is negative at N = 1.
module attributes {transform.with_named_sequence} {
  exogpu.proc @remove_if_extent(%N: size, %y: f32[4] @DRAM) {
    // expected-error @below {{cannot remove this guard: an excluded instance of its body would fail a run-time check}}
    exogpu.if %N > 3 {
      // expected-note @below {{extent 0 of the allocation is negative (for example at N = 2)}}
      %t = exogpu.alloc f32[%N - 3] @DRAM
      exogpu.assign %t[0] = 1.0 : f32[?] @DRAM
    }
    exogpu.assign %y[0] = 2.0 : f32[4] @DRAM
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %s = transform.exogpu.match kind "if" in %root : (!transform.any_op) -> !transform.any_op
    %r = transform.exogpu.remove_if %s : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// remove_if checks the body of a called proc with its parameters bound to
// the arguments: @g writes x[n], out of bounds once n reaches 4.
module attributes {transform.with_named_sequence} {
  exogpu.proc @g(%n: size, %x: f32[4] @DRAM) {
    // expected-note @below {{index (dimension 0 of 'x') is not within [0, 4) (for example at N = 4, n = 4)}}
    exogpu.assign %x[%n] = 1.0 : f32[4] @DRAM
  }
  exogpu.proc @remove_if_callee(%N: size, %y: f32[4] @DRAM) {
    %t = exogpu.alloc f32[4] @DRAM
    // expected-error @below {{cannot remove this guard: an excluded instance of its body would fail a run-time check}}
    exogpu.if %N < 4 {
      // expected-note @below {{reached through this call}}
      exogpu.call @g[%N](%t) : f32[4] @DRAM
    }
    exogpu.assign %y[0] = 2.0 : f32[4] @DRAM
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %s = transform.exogpu.match kind "if" in %root : (!transform.any_op) -> !transform.any_op
    %r = transform.exogpu.remove_if %s : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// rewrite_expr refuses an equal expression that would give a buffer an
// extent of 0 (no buffer type has one): N - 4 is 0 under the precondition.
module attributes {transform.with_named_sequence} {
  exogpu.proc @rewrite_extent_zero(%N: size, %y: f32[4] @DRAM) requires %N == 4 {
    // expected-error @below {{rewrite_expr would give a buffer a constant extent that is not positive}}
    %t = exogpu.alloc f32[%N - 4] @DRAM
    exogpu.assign %y[0] = 2.0 : f32[4] @DRAM
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.exogpu.match kind "alloc" in %root : (!transform.any_op) -> !transform.any_op
    transform.exogpu.rewrite_expr %a at 0 to "0" : !transform.any_op
    transform.yield
  }
}
