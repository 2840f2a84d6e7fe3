// RUN: exogpu-opt %s --transform-interpreter -split-input-file | FileCheck %s

// reorder_stmts: writes of different elements commute.
// CHECK-LABEL: exogpu.proc @reorder_stmts
// CHECK: exogpu.assign %x[1] = 2.0
// CHECK-NEXT: exogpu.assign %x[0] = 1.0
module attributes {transform.with_named_sequence} {
  exogpu.proc @reorder_stmts(%x: f32[2] @DRAM) {
    exogpu.assign %x[0] = 1.0 : f32[2] @DRAM
    exogpu.assign %x[1] = 2.0 : f32[2] @DRAM
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.exogpu.match kind "assign" nth 0 in %root : (!transform.any_op) -> !transform.any_op
    %b = transform.exogpu.match kind "assign" nth 1 in %root : (!transform.any_op) -> !transform.any_op
    transform.exogpu.reorder_stmts %a, %b : !transform.any_op, !transform.any_op
    transform.yield
  }
}

// -----

// bind_expr, then commute_expr on the product and inline_assign back.
// CHECK-LABEL: exogpu.proc @bind_commute_inline
// CHECK: exogpu.for %i in seq(0, %N) {
// CHECK-NEXT: %t = exogpu.alloc f32 @DRAM
// CHECK-NEXT: exogpu.assign %y[%i] = %x[%i] * 2.0 + 1.0
module attributes {transform.with_named_sequence} {
  exogpu.proc @bind_commute_inline(%N: size, %x: f32[%N] @DRAM, %y: f32[%N] @DRAM) {
    exogpu.for %i in seq(0, %N) {
      exogpu.assign %y[%i] = 2.0 * %x[%i] + 1.0 : f32[?] @DRAM, f32[?] @DRAM
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mul = transform.exogpu.match kind "mul" in %root : (!transform.any_op) -> !transform.any_op
    transform.exogpu.commute_expr %mul : !transform.any_op
    %alloc, %assign = transform.exogpu.bind_expr %mul "t" : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.exogpu.inline_assign %assign : (!transform.any_op) -> ()
    transform.yield
  }
}

// -----

// bind_expr alone: the bound value is computed right before the statement.
// CHECK-LABEL: exogpu.proc @bind
// CHECK: %t = exogpu.alloc f32 @DRAM
// CHECK-NEXT: exogpu.assign %t[] = %x[%i] + %x[%i + 1]
// CHECK-NEXT: exogpu.reduce %y[0] += %t[] * 3.0
module attributes {transform.with_named_sequence} {
  exogpu.proc @bind(%N: size, %x: f32[%N + 1] @DRAM, %y: f32[1] @DRAM) {
    exogpu.for %i in seq(0, %N) {
      exogpu.reduce %y[0] += (%x[%i] + %x[%i + 1]) * 3.0 : f32[1] @DRAM, f32[?] @DRAM
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %add = transform.exogpu.match pattern "x[i] + x[i + 1]" in %root : (!transform.any_op) -> !transform.any_op
    %alloc, %assign = transform.exogpu.bind_expr %add "t" : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// Patterns see the functions of data expressions as they are printed:
// binding exp2(x[i] - m[0]) computes it before the statement.
// CHECK-LABEL: exogpu.proc @bind_function
// CHECK: %p = exogpu.alloc f32 @DRAM
// CHECK-NEXT: exogpu.assign %p[] = exp2(%x[%i] - %m[0])
// CHECK-NEXT: exogpu.reduce %l[0] += max(%p[], 0.0)
module attributes {transform.with_named_sequence} {
  exogpu.proc @bind_function(%N: size, %x: f32[%N] @DRAM, %m: f32[1] @DRAM, %l: f32[1] @DRAM) {
    exogpu.for %i in seq(0, %N) {
      exogpu.reduce %l[0] += max(exp2(%x[%i] - %m[0]), 0.0) : f32[1] @DRAM, f32[?] @DRAM, f32[1] @DRAM
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %exp = transform.exogpu.match pattern "exp2(x[i] - m[0])" in %root : (!transform.any_op) -> !transform.any_op
    %alloc, %assign = transform.exogpu.bind_expr %exp "p" : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// rewrite_expr: (k + 3) mod 2 equals (k + 1) mod 2; the upper bound N equals
// 4 * T under the precondition.
// CHECK-LABEL: exogpu.proc @rewrite
// CHECK: exogpu.for %k in seq(0, %T * 4) {
// CHECK-NEXT: exogpu.assign %x[(%k + 1) mod 2] = 1.0
module attributes {transform.with_named_sequence} {
  exogpu.proc @rewrite(%N: size, %T: size, %x: f32[2] @DRAM) requires %N == %T * 4 {
    exogpu.for %k in seq(0, %N) {
      exogpu.assign %x[(%k + 3) mod 2] = 1.0 : f32[2] @DRAM
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.exogpu.match iter "k" in %root : (!transform.any_op) -> !transform.any_op
    transform.exogpu.rewrite_expr %k at 1 to "T * 4" : !transform.any_op
    %s = transform.exogpu.match kind "assign" in %root : (!transform.any_op) -> !transform.any_op
    transform.exogpu.rewrite_expr %s at 0 to "(k + 1) mod 2" : !transform.any_op
    transform.yield
  }
}

// -----

// simplify uses the loop bounds: (16 * io + ii) / 16 = io for ii < 16, and
// drops constant guards.
// CHECK-LABEL: exogpu.proc @simplify
// CHECK: exogpu.for %ii in seq(0, 16) {
// CHECK-NEXT: exogpu.assign %x[%io, %ii] = 1.0
// CHECK-NEXT: exogpu.assign %x[%io, 0] = 2.0
// CHECK-NOT: exogpu.if
module attributes {transform.with_named_sequence} {
  exogpu.proc @simplify(%N: size, %x: f32[%N, 16] @DRAM) {
    exogpu.for %io in seq(0, %N) {
      exogpu.for %ii in seq(0, 16) {
        exogpu.assign %x[(%io * 16 + %ii) / 16, (%io * 16 + %ii) mod 16] = 1.0 : f32[?, 16] @DRAM
        exogpu.if 1 < 2 {
          exogpu.assign %x[%io, 0] = 2.0 : f32[?, 16] @DRAM
        }
        exogpu.if 2 < 1 {
          exogpu.assign %x[%io, 1] = 3.0 : f32[?, 16] @DRAM
        }
      }
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %p = transform.exogpu.match kind "for" nth 0 in %root : (!transform.any_op) -> !transform.any_op
    transform.exogpu.simplify %p : !transform.any_op
    transform.yield
  }
}

// -----

// eliminate_dead_code: a guard that always holds under the loop bounds, one
// that never does, and a loop that never runs.
// CHECK-LABEL: exogpu.proc @dead_code
// CHECK: exogpu.for %i in seq(0, %N) {
// CHECK-NEXT: exogpu.assign %x[%i] = 1.0
// CHECK-NEXT: }
// CHECK-NEXT: }
module attributes {transform.with_named_sequence} {
  exogpu.proc @dead_code(%N: size, %x: f32[%N] @DRAM) {
    exogpu.for %i in seq(0, %N) {
      exogpu.if %i < %N {
        exogpu.assign %x[%i] = 1.0 : f32[?] @DRAM
      }
      exogpu.if %i >= %N {
        exogpu.assign %x[%i] = 2.0 : f32[?] @DRAM
      }
    }
    exogpu.for %j in seq(%N, %N) {
      exogpu.assign %x[%j] = 3.0 : f32[?] @DRAM
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.exogpu.match pattern "if i < N" in %root : (!transform.any_op) -> !transform.any_op
    %b = transform.exogpu.match pattern "if i >= N" in %root : (!transform.any_op) -> !transform.any_op
    %j = transform.exogpu.match iter "j" in %root : (!transform.any_op) -> !transform.any_op
    %s1 = transform.exogpu.eliminate_dead_code %a : (!transform.any_op) -> !transform.any_op
    %s2 = transform.exogpu.eliminate_dead_code %b : (!transform.any_op) -> !transform.any_op
    %s3 = transform.exogpu.eliminate_dead_code %j : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// remove_if, checked: the example of paper Sec. 8. Removing the first guard
// writes tmp[6] and tmp[7], which nothing reads afterwards (the second loop
// reads tmp[i] only for i < 6); the second guard must stay (C[6], C[7]
// would be written).
// CHECK-LABEL: exogpu.proc @remove_if_sec8
// CHECK-NOT: exogpu.unsafe_steps
// CHECK: exogpu.for %i in seq(0, 8) {
// CHECK-NEXT: exogpu.assign %tmp[%i] = 0.0
// CHECK-NEXT: }
// CHECK-NEXT: exogpu.for %j in seq(0, 8) {
// CHECK-NEXT: exogpu.if %j < 6 {
module attributes {transform.with_named_sequence} {
  exogpu.proc @remove_if_sec8(%C: f32[8] @DRAM) {
    %tmp = exogpu.alloc f32[8] @DRAM
    exogpu.for %i in seq(0, 8) {
      exogpu.if %i < 6 {
        exogpu.assign %tmp[%i] = 0.0 : f32[8] @DRAM
      }
    }
    exogpu.for %j in seq(0, 8) {
      exogpu.if %j < 6 {
        exogpu.assign %C[%j] = %tmp[%j] : f32[8] @DRAM, f32[8] @DRAM
      }
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %g = transform.exogpu.match pattern "if i < 6" in %root : (!transform.any_op) -> !transform.any_op
    %s = transform.exogpu.remove_if %g : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// remove_if of a guard that always holds needs no dead-effect argument.
// CHECK-LABEL: exogpu.proc @remove_if_true
// CHECK: exogpu.for %i in seq(0, %N) {
// CHECK-NEXT: exogpu.assign %x[%i] = 1.0
module attributes {transform.with_named_sequence} {
  exogpu.proc @remove_if_true(%N: size, %x: f32[%N] @DRAM) {
    exogpu.for %i in seq(0, %N) {
      exogpu.if %i < %N {
        exogpu.assign %x[%i] = 1.0 : f32[?] @DRAM
      }
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %g = transform.exogpu.match kind "if" in %root : (!transform.any_op) -> !transform.any_op
    %s = transform.exogpu.remove_if %g : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
