// RUN: exogpu-opt %s --transform-interpreter -split-input-file | FileCheck %s

// divide_loop with a proven perfect tail: the trip count is a multiple of 16
// under the precondition.
// CHECK-LABEL: exogpu.proc @divide_perfect
// CHECK: exogpu.for %io in seq(0, %N / 16) {
// CHECK-NEXT: exogpu.for %ii in seq(0, 16) {
// CHECK-NEXT: exogpu.assign %x[%io * 16 + %ii] = 1.0
module attributes {transform.with_named_sequence} {
  exogpu.proc @divide_perfect(%N: size, %x: f32[%N] @DRAM) requires %N mod 16 == 0 {
    exogpu.for %i in seq(0, %N) {
      exogpu.assign %x[%i] = 1.0 : f32[?] @DRAM
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %i = transform.exogpu.match iter "i" in %root : (!transform.any_op) -> !transform.any_op
    %o, %n, %t = transform.exogpu.divide_loop %i by 16 into "io", "ii" tail "perfect" : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// divide_loop with a guarded tail, from a non-zero lower bound.
// CHECK-LABEL: exogpu.proc @divide_guard
// CHECK: exogpu.for %io in seq(0, (%N + 1) / 4) {
// CHECK-NEXT: exogpu.for %ii in seq(0, 4) {
// CHECK-NEXT: exogpu.if %io * 4 + %ii + 2 < %N {
// CHECK-NEXT: exogpu.assign %x[%io * 4 + %ii + 2] = 1.0
module attributes {transform.with_named_sequence} {
  exogpu.proc @divide_guard(%N: size, %x: f32[%N] @DRAM) {
    exogpu.for %i in seq(2, %N) {
      exogpu.assign %x[%i] = 1.0 : f32[?] @DRAM
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %i = transform.exogpu.match iter "i" in %root : (!transform.any_op) -> !transform.any_op
    %o, %n, %t = transform.exogpu.divide_loop %i by 4 into "io", "ii" : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// divide_loop with a cut tail; the returned tail handle is the last loop.
// CHECK-LABEL: exogpu.proc @divide_cut
// CHECK: exogpu.for %io in seq(0, %N / 8) {
// CHECK-NEXT: exogpu.for %ii in seq(0, 8) {
// CHECK-NEXT: exogpu.assign %x[%io * 8 + %ii] = 1.0
// CHECK: exogpu.for %ii in seq(0, %N mod 8) {
// CHECK-NEXT: exogpu.assign %x[%ii + %N / 8 * 8] = 1.0
// CHECK-SAME: {exogpu.label = "tail"}
module attributes {transform.with_named_sequence} {
  exogpu.proc @divide_cut(%N: size, %x: f32[%N] @DRAM) {
    exogpu.for %i in seq(0, %N) {
      exogpu.assign %x[%i] = 1.0 : f32[?] @DRAM
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %i = transform.exogpu.match iter "i" in %root : (!transform.any_op) -> !transform.any_op
    %o, %n, %t = transform.exogpu.divide_loop %i by 8 into "io", "ii" tail "cut" : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %s = transform.exogpu.match kind "assign" in %t : (!transform.any_op) -> !transform.any_op
    transform.exogpu.set_label %s "tail" : !transform.any_op
    transform.yield
  }
}

// -----

// reorder_loops: reductions into C commute, so the order of k and j is free.
// CHECK-LABEL: exogpu.proc @reorder
// CHECK: exogpu.for %k in seq(0, %K) {
// CHECK-NEXT: exogpu.for %j in seq(0, %N) {
// CHECK-NEXT: exogpu.reduce %C[%j] += %A[%k, %j]
module attributes {transform.with_named_sequence} {
  exogpu.proc @reorder(%N: size, %K: size, %A: f32[%K, %N] @DRAM, %C: f32[%N] @DRAM) {
    exogpu.for %j in seq(0, %N) {
      exogpu.for %k in seq(0, %K) {
        exogpu.reduce %C[%j] += %A[%k, %j] : f32[?] @DRAM, f32[?, ?] @DRAM
      }
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %j = transform.exogpu.match iter "j" in %root : (!transform.any_op) -> !transform.any_op
    %k, %j2 = transform.exogpu.reorder_loops %j : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// fission of two loop levels after the zeroing statement.
// CHECK-LABEL: exogpu.proc @fission
// CHECK: exogpu.for %i in seq(0, %M) {
// CHECK-NEXT: exogpu.for %j in seq(0, %N) {
// CHECK-NEXT: exogpu.assign %C[%i, %j] = 0.0
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: exogpu.for %i in seq(0, %M) {
// CHECK-NEXT: exogpu.for %j in seq(0, %N) {
// CHECK-NEXT: exogpu.for %k in seq(0, %K) {
// CHECK-NEXT: exogpu.reduce %C[%i, %j] +=
module attributes {transform.with_named_sequence} {
  exogpu.proc @fission(%M: size, %N: size, %K: size, %A: f32[%M, %K] @DRAM, %B: f32[%K, %N] @DRAM, %C: f32[%M, %N] @DRAM) {
    exogpu.for %i in seq(0, %M) {
      exogpu.for %j in seq(0, %N) {
        exogpu.assign %C[%i, %j] = 0.0 : f32[?, ?] @DRAM
        exogpu.for %k in seq(0, %K) {
          exogpu.reduce %C[%i, %j] += %A[%i, %k] * %B[%k, %j] : f32[?, ?] @DRAM, f32[?, ?] @DRAM, f32[?, ?] @DRAM
        }
      }
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %z = transform.exogpu.match kind "assign" in %root : (!transform.any_op) -> !transform.any_op
    %a, %b = transform.exogpu.fission after %z levels 2 : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// fuse: two loops with bounds equal under the precondition (N = 4 * T), and
// two guards with the same condition.
// CHECK-LABEL: exogpu.proc @fuse
// CHECK: exogpu.for %i in seq(0, %N) {
// CHECK-NEXT: exogpu.assign %x[%i] = 1.0
// CHECK-NEXT: exogpu.assign %y[%i] = %x[%i]
// CHECK-NEXT: }
// CHECK-NEXT: exogpu.if %N > 4 {
// CHECK-NEXT: exogpu.assign %x[0] = 2.0
// CHECK-NEXT: exogpu.assign %y[0] = 2.0
// CHECK-NEXT: }
module attributes {transform.with_named_sequence} {
  exogpu.proc @fuse(%N: size, %T: size, %x: f32[%N] @DRAM, %y: f32[%N] @DRAM) requires %N == %T * 4 {
    exogpu.for %i in seq(0, %N) {
      exogpu.assign %x[%i] = 1.0 : f32[?] @DRAM
    }
    exogpu.for %j in seq(0, %T * 4) {
      exogpu.assign %y[%j] = %x[%j] : f32[?] @DRAM, f32[?] @DRAM
    }
    exogpu.if %N > 4 {
      exogpu.assign %x[0] = 2.0 : f32[?] @DRAM
    }
    exogpu.if %N > 4 {
      exogpu.assign %y[0] = 2.0 : f32[?] @DRAM
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %i = transform.exogpu.match iter "i" in %root : (!transform.any_op) -> !transform.any_op
    %j = transform.exogpu.match iter "j" in %root : (!transform.any_op) -> !transform.any_op
    %l = transform.exogpu.fuse %i, %j : (!transform.any_op, !transform.any_op) -> !transform.any_op
    %g1 = transform.exogpu.match kind "if" nth 0 in %root : (!transform.any_op) -> !transform.any_op
    %g2 = transform.exogpu.match kind "if" nth 1 in %root : (!transform.any_op) -> !transform.any_op
    %g = transform.exogpu.fuse %g1, %g2 : (!transform.any_op, !transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// unroll_loop substitutes each iteration and simplifies.
// CHECK-LABEL: exogpu.proc @unroll
// CHECK: exogpu.assign %x[%j * 3] = 1.0
// CHECK-NEXT: exogpu.assign %x[%j * 3 + 1] = 1.0
// CHECK-NEXT: exogpu.assign %x[%j * 3 + 2] = 1.0
module attributes {transform.with_named_sequence} {
  exogpu.proc @unroll(%N: size, %x: f32[%N * 3] @DRAM) {
    exogpu.for %j in seq(0, %N) {
      exogpu.for %i in seq(0, 3) {
        exogpu.assign %x[%j * 3 + %i] = 1.0 : f32[?] @DRAM
      }
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %i = transform.exogpu.match iter "i" in %root : (!transform.any_op) -> !transform.any_op
    %s = transform.exogpu.unroll_loop %i : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// cut_loop at a point between the bounds; shift_loop of the second part;
// extend_loop of the first to a larger range with a guard.
// CHECK-LABEL: exogpu.proc @cut_shift_extend
// CHECK: exogpu.for %i in seq(0, %N + 1) {
// CHECK-NEXT: exogpu.if %i < 1 {
// CHECK-NEXT: exogpu.assign %x[%i] = 1.0
// CHECK: exogpu.for %i in seq(0, %N - 1) {
// CHECK-NEXT: exogpu.assign %x[%i + 1] = 1.0
module attributes {transform.with_named_sequence} {
  exogpu.proc @cut_shift_extend(%N: size, %x: f32[%N] @DRAM) {
    exogpu.for %i in seq(0, %N) {
      exogpu.assign %x[%i] = 1.0 : f32[?] @DRAM
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %i = transform.exogpu.match iter "i" in %root : (!transform.any_op) -> !transform.any_op
    %a, %b = transform.exogpu.cut_loop %i at "1" : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %b2 = transform.exogpu.shift_loop %b to "0" : (!transform.any_op) -> !transform.any_op
    %a2 = transform.exogpu.extend_loop %a to "0", "N + 1" : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// remove_loop of an idempotent body; add_loop back with and without a guard.
// CHECK-LABEL: exogpu.proc @remove_add
// CHECK: exogpu.for %t in seq(0, 4) {
// CHECK-NEXT: exogpu.if %t == 0 {
// CHECK-NEXT: exogpu.reduce %y[0] += %x[0]
// CHECK: exogpu.for %r in seq(0, %N) {
// CHECK-NEXT: exogpu.assign %x[1] = %x[0]
module attributes {transform.with_named_sequence} {
  exogpu.proc @remove_add(%N: size, %x: f32[2] @DRAM, %y: f32[2] @DRAM) {
    exogpu.reduce %y[0] += %x[0] : f32[2] @DRAM, f32[2] @DRAM
    exogpu.for %i in seq(0, %N) {
      exogpu.assign %x[1] = %x[0] : f32[2] @DRAM
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %i = transform.exogpu.match iter "i" in %root : (!transform.any_op) -> !transform.any_op
    %s = transform.exogpu.remove_loop %i : (!transform.any_op) -> !transform.any_op
    %l = transform.exogpu.add_loop %s "r" to "N" : (!transform.any_op) -> !transform.any_op
    %red = transform.exogpu.match kind "reduce" in %root : (!transform.any_op) -> !transform.any_op
    %t = transform.exogpu.add_loop %red "t" to "4" guard : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// lift_scope: a guard that does not use the iterator leaves the loop; then
// the loop goes back inside; two guards swap.
// CHECK-LABEL: exogpu.proc @lift
// CHECK: exogpu.if %b {
// CHECK-NEXT: exogpu.if %N > 2 {
// CHECK-NEXT: exogpu.for %i in seq(0, %N) {
// CHECK-NEXT: exogpu.assign %x[%i] = 1.0
module attributes {transform.with_named_sequence} {
  exogpu.proc @lift(%N: size, %b: bool, %x: f32[%N] @DRAM) {
    exogpu.if %N > 2 {
      exogpu.for %i in seq(0, %N) {
        exogpu.if %b {
          exogpu.assign %x[%i] = 1.0 : f32[?] @DRAM
        }
      }
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %g = transform.exogpu.match pattern "if b" in %root : (!transform.any_op) -> !transform.any_op
    %g2 = transform.exogpu.lift_scope %g : (!transform.any_op) -> !transform.any_op
    %g3 = transform.exogpu.lift_scope %g2 : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// lift_scope of a loop out of a guard, and of a loop out of a loop.
// CHECK-LABEL: exogpu.proc @lift_loop
// CHECK: exogpu.for %j in seq(0, 4) {
// CHECK-NEXT: exogpu.for %i in seq(0, %N) {
// CHECK-NEXT: exogpu.if %N > 2 {
// CHECK-NEXT: exogpu.assign %x[%i, %j] = 1.0
module attributes {transform.with_named_sequence} {
  exogpu.proc @lift_loop(%N: size, %x: f32[%N, 4] @DRAM) {
    exogpu.for %i in seq(0, %N) {
      exogpu.if %N > 2 {
        exogpu.for %j in seq(0, 4) {
          exogpu.assign %x[%i, %j] = 1.0 : f32[?, 4] @DRAM
        }
      }
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %j = transform.exogpu.match iter "j" in %root : (!transform.any_op) -> !transform.any_op
    %j2 = transform.exogpu.lift_scope %j : (!transform.any_op) -> !transform.any_op
    %j3 = transform.exogpu.lift_scope %j2 : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// mult_loops merges a nest with a constant inner bound.
// CHECK-LABEL: exogpu.proc @mult
// CHECK: exogpu.for %k in seq(0, %N * 4) {
// CHECK-NEXT: exogpu.assign %x[%k / 4, %k mod 4] = 1.0
module attributes {transform.with_named_sequence} {
  exogpu.proc @mult(%N: size, %x: f32[%N, 4] @DRAM) {
    exogpu.for %i in seq(0, %N) {
      exogpu.for %j in seq(0, 4) {
        exogpu.assign %x[%i, %j] = 1.0 : f32[?, 4] @DRAM
      }
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %i = transform.exogpu.match iter "i" in %root : (!transform.any_op) -> !transform.any_op
    %k = transform.exogpu.mult_loops %i into "k" : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
