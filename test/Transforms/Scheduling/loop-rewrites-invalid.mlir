// RUN: exogpu-opt %s --transform-interpreter -split-input-file -verify-diagnostics

// divide_loop "perfect" needs a proof that the factor divides the trip count.
module attributes {transform.with_named_sequence} {

  exogpu.proc @divide_not_perfect(%N: size, %x: f32[%N] @DRAM) requires %N mod 8 == 0 {
    // expected-error @below {{cannot divide loop 'i' by 16 perfectly: its trip count is not always a multiple of 16 (for example at N = 8)}}
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

// Loop rewrites restructure seq loops only.
module attributes {transform.with_named_sequence} {

  exogpu.proc @divide_tasks(%N: size, %x: f32[%N] @CudaGmemLinear) {
    exogpu.device_function(blockDim = 32) {
      // expected-error @below {{divide_loop restructures seq loops; this loop is cuda_tasks (schedule the sequential loops first, then set loop modes)}}
      exogpu.for %i in cuda_tasks(0, %N) {
        exogpu.for %t in cuda_threads(0, 32, unit = cuda_thread) {
          exogpu.assign %x[%i] = 1.0 : f32[?] @CudaGmemLinear
        }
      }
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %i = transform.exogpu.match iter "i" in %root : (!transform.any_op) -> !transform.any_op
    %o, %n, %t = transform.exogpu.divide_loop %i by 2 into "io", "ii" : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// reorder_loops refuses when an earlier i with a later j conflict: x[j] is
// written at (i, j) and read as x[i] at a later i with a smaller j.
module attributes {transform.with_named_sequence} {

  exogpu.proc @reorder_conflict(%N: size, %x: f32[%N] @DRAM) {
    // expected-error @below {{cannot reorder loops 'i' and 'j': an iteration and a later one with a smaller 'j' touch the same element}}
    exogpu.for %i in seq(0, %N) {
      exogpu.for %j in seq(0, %N) {
        // expected-note @below {{earlier iteration: write of x[j]}}
        // expected-note-re @below {{later iteration: read of x[i] (for example at {{.*}})}}
        exogpu.assign %x[%j] = %x[%i] : f32[?] @DRAM
      }
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %i = transform.exogpu.match iter "i" in %root : (!transform.any_op) -> !transform.any_op
    %a, %b = transform.exogpu.reorder_loops %i : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// reorder_loops needs a perfect nest.
module attributes {transform.with_named_sequence} {

  exogpu.proc @reorder_not_nested(%N: size, %x: f32[%N] @DRAM) {
    // expected-error @below {{reorder_loops needs a loop whose body is exactly one loop}}
    exogpu.for %i in seq(0, %N) {
      exogpu.assign %x[%i] = 1.0 : f32[?] @DRAM
      exogpu.for %j in seq(0, %N) {
        exogpu.assign %x[%j] = 1.0 : f32[?] @DRAM
      }
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %i = transform.exogpu.match iter "i" in %root : (!transform.any_op) -> !transform.any_op
    %a, %b = transform.exogpu.reorder_loops %i : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// reorder_loops needs inner bounds independent of the outer iterator.
module attributes {transform.with_named_sequence} {

  exogpu.proc @reorder_triangular(%N: size, %x: f32[%N] @DRAM) {
    exogpu.for %a in seq(0, %N) {
      // expected-error @below {{cannot reorder loops 'a' and 'b': the bounds of 'b' use 'a'}}
      exogpu.for %b in seq(0, %a) {
        exogpu.assign %x[%b] = 1.0 : f32[?] @DRAM
      }
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.exogpu.match iter "a" in %root : (!transform.any_op) -> !transform.any_op
    %x, %y = transform.exogpu.reorder_loops %a : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// fission refuses when a later statement instance would move before an
// earlier one it conflicts with: y[i + 1] is read before it is written by the
// next iteration.
module attributes {transform.with_named_sequence} {

  exogpu.proc @fission_conflict(%N: size, %x: f32[%N + 1] @DRAM, %y: f32[%N + 1] @DRAM) {
    exogpu.for %i in seq(0, %N) {
      // expected-error @below {{cannot fission after this statement: a statement after the gap would move after a conflicting later statement before it}}
      // expected-note-re @below {{before the gap (runs later): write of y[i] (for example at {{.*}})}}
      exogpu.assign %y[%i] = 1.0 : f32[?] @DRAM
      // expected-note @below {{after the gap (runs first): read of y[i + 1]}}
      exogpu.assign %x[%i] = %y[%i + 1] : f32[?] @DRAM, f32[?] @DRAM
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %s = transform.exogpu.match kind "assign" nth 0 in %root : (!transform.any_op) -> !transform.any_op
    %a, %b = transform.exogpu.fission after %s : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// fission needs a statement after the gap.
module attributes {transform.with_named_sequence} {

  exogpu.proc @fission_at_end(%N: size, %x: f32[%N] @DRAM) {
    exogpu.for %i in seq(0, %N) {
      // expected-error @below {{fission: no statement follows the gap in its block}}
      exogpu.assign %x[%i] = 1.0 : f32[?] @DRAM
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %s = transform.exogpu.match kind "assign" in %root : (!transform.any_op) -> !transform.any_op
    %a, %b = transform.exogpu.fission after %s : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// fission cannot separate a buffer from its uses.
module attributes {transform.with_named_sequence} {

  exogpu.proc @fission_alloc(%N: size, %x: f32[%N] @DRAM) {
    exogpu.for %i in seq(0, %N) {
      %t = exogpu.alloc f32 @DRAM
      // expected-error @below {{fission: this statement uses a buffer or window defined before the gap; lift the allocation out first}}
      exogpu.assign %t[] = 1.0 : f32 @DRAM
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %s = transform.exogpu.match kind "alloc" in %root : (!transform.any_op) -> !transform.any_op
    %a, %b = transform.exogpu.fission after %s : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// fission splits loops and guards only.
module attributes {transform.with_named_sequence} {

  exogpu.proc @fission_top(%x: f32[2] @DRAM) {
    // expected-error @below {{fission: level 1 is not inside a loop or guard}}
    exogpu.assign %x[0] = 1.0 : f32[2] @DRAM
    exogpu.assign %x[1] = 1.0 : f32[2] @DRAM
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %s = transform.exogpu.match kind "assign" nth 0 in %root : (!transform.any_op) -> !transform.any_op
    %a, %b = transform.exogpu.fission after %s : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// fuse needs loops with equal bounds.
module attributes {transform.with_named_sequence} {

  exogpu.proc @fuse_bounds(%N: size, %x: f32[%N] @DRAM) {
    exogpu.for %i in seq(0, %N) {
      exogpu.assign %x[%i] = 1.0 : f32[?] @DRAM
    }
    // expected-error @below {{cannot fuse loops 'i' and 'j': their upper bounds differ (for example at N = 2)}}
    exogpu.for %j in seq(0, 1) {
      exogpu.assign %x[%j] = 2.0 : f32[?] @DRAM
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %i = transform.exogpu.match iter "i" in %root : (!transform.any_op) -> !transform.any_op
    %j = transform.exogpu.match iter "j" in %root : (!transform.any_op) -> !transform.any_op
    %f = transform.exogpu.fuse %i, %j : (!transform.any_op, !transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// fuse refuses when an iteration of the second loop would run before a later
// iteration of the first it conflicts with.
module attributes {transform.with_named_sequence} {

  exogpu.proc @fuse_conflict(%N: size, %x: f32[%N + 1] @DRAM, %y: f32[%N] @DRAM) {
    exogpu.for %i in seq(0, %N) {
      // expected-note-re @below {{first loop (moves later): write of x[i] (for example at {{.*}})}}
      exogpu.assign %x[%i] = 1.0 : f32[?] @DRAM
    }
    // expected-error @below {{cannot fuse loops 'i' and 'j': an iteration of the second loop would run before a later iteration of the first that it conflicts with}}
    exogpu.for %j in seq(0, %N) {
      // expected-note @below {{second loop (moves earlier): read of x[j + 1]}}
      exogpu.assign %y[%j] = %x[%j + 1] : f32[?] @DRAM, f32[?] @DRAM
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %i = transform.exogpu.match iter "i" in %root : (!transform.any_op) -> !transform.any_op
    %j = transform.exogpu.match iter "j" in %root : (!transform.any_op) -> !transform.any_op
    %f = transform.exogpu.fuse %i, %j : (!transform.any_op, !transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// fuse needs two adjacent statements.
module attributes {transform.with_named_sequence} {

  exogpu.proc @fuse_not_adjacent(%N: size, %x: f32[%N] @DRAM) {
    exogpu.for %i in seq(0, %N) {
      exogpu.assign %x[%i] = 1.0 : f32[?] @DRAM
    }
    exogpu.assign %x[0] = 3.0 : f32[?] @DRAM
    // expected-error @below {{fuse needs two adjacent statements of one block, the second right after the first}}
    exogpu.for %j in seq(0, %N) {
      exogpu.assign %x[%j] = 2.0 : f32[?] @DRAM
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %i = transform.exogpu.match iter "i" in %root : (!transform.any_op) -> !transform.any_op
    %j = transform.exogpu.match iter "j" in %root : (!transform.any_op) -> !transform.any_op
    %f = transform.exogpu.fuse %i, %j : (!transform.any_op, !transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// fuse needs guards with the same condition.
module attributes {transform.with_named_sequence} {

  exogpu.proc @fuse_guards(%N: size, %x: f32[%N] @DRAM) {
    exogpu.if %N > 1 {
      exogpu.assign %x[0] = 1.0 : f32[?] @DRAM
    }
    // expected-error @below {{fuse: the second statement is not a guard with the same condition}}
    exogpu.if %N > 2 {
      exogpu.assign %x[0] = 2.0 : f32[?] @DRAM
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.exogpu.match kind "if" nth 0 in %root : (!transform.any_op) -> !transform.any_op
    %b = transform.exogpu.match kind "if" nth 1 in %root : (!transform.any_op) -> !transform.any_op
    %f = transform.exogpu.fuse %a, %b : (!transform.any_op, !transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// fuse applies to two loops or two guards.
module attributes {transform.with_named_sequence} {

  exogpu.proc @fuse_mixed(%N: size, %x: f32[%N] @DRAM) {
    // expected-error @below {{fuse applies to two loops or two guards}}
    exogpu.for %i in seq(0, %N) {
      exogpu.assign %x[%i] = 1.0 : f32[?] @DRAM
    }
    exogpu.if %N > 2 {
      exogpu.assign %x[0] = 2.0 : f32[?] @DRAM
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.exogpu.match iter "i" in %root : (!transform.any_op) -> !transform.any_op
    %b = transform.exogpu.match kind "if" in %root : (!transform.any_op) -> !transform.any_op
    %f = transform.exogpu.fuse %a, %b : (!transform.any_op, !transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// unroll_loop needs constant bounds.
module attributes {transform.with_named_sequence} {

  exogpu.proc @unroll_dynamic(%N: size, %x: f32[%N] @DRAM) {
    // expected-error @below {{unroll_loop needs constant bounds; loop 'i' has none}}
    exogpu.for %i in seq(0, %N) {
      exogpu.assign %x[%i] = 1.0 : f32[?] @DRAM
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %i = transform.exogpu.match iter "i" in %root : (!transform.any_op) -> !transform.any_op
    %s = transform.exogpu.unroll_loop %i : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// unroll_loop expands at most 1024 iterations.
module attributes {transform.with_named_sequence} {

  exogpu.proc @unroll_big(%x: f32[2000] @DRAM) {
    // expected-error @below {{unroll_loop expands at most 1024 iterations}}
    exogpu.for %i in seq(0, 2000) {
      exogpu.assign %x[%i] = 1.0 : f32[2000] @DRAM
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %i = transform.exogpu.match iter "i" in %root : (!transform.any_op) -> !transform.any_op
    %s = transform.exogpu.unroll_loop %i : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// cut_loop needs lo <= cut <= hi.
module attributes {transform.with_named_sequence} {

  exogpu.proc @cut_outside(%N: size, %x: f32[%N] @DRAM) {
    // expected-error @below {{cannot cut loop 'i': the cut point is not always between its bounds (for example at N = 1)}}
    exogpu.for %i in seq(0, %N) {
      exogpu.assign %x[%i] = 1.0 : f32[?] @DRAM
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %i = transform.exogpu.match iter "i" in %root : (!transform.any_op) -> !transform.any_op
    %a, %b = transform.exogpu.cut_loop %i at "2" : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// shift_loop needs a non-negative new lower bound.
module attributes {transform.with_named_sequence} {

  exogpu.proc @shift_negative(%N: size, %x: f32[%N] @DRAM) {
    // expected-error @below {{cannot shift loop 'i': the new lower bound may be negative (for example at N = 1)}}
    exogpu.for %i in seq(0, %N) {
      exogpu.assign %x[%i] = 1.0 : f32[?] @DRAM
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %i = transform.exogpu.match iter "i" in %root : (!transform.any_op) -> !transform.any_op
    %s = transform.exogpu.shift_loop %i to "N - 2" : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// extend_loop needs a range that contains the old one.
module attributes {transform.with_named_sequence} {

  exogpu.proc @extend_smaller(%N: size, %x: f32[%N] @DRAM) {
    // expected-error @below {{cannot extend loop 'i': the new range does not always contain the old one (for example at N = 2)}}
    exogpu.for %i in seq(0, %N) {
      exogpu.assign %x[%i] = 1.0 : f32[?] @DRAM
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %i = transform.exogpu.match iter "i" in %root : (!transform.any_op) -> !transform.any_op
    %s = transform.exogpu.extend_loop %i to "0", "1" : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// remove_loop needs a body that does not use the iterator.
module attributes {transform.with_named_sequence} {

  exogpu.proc @remove_uses(%N: size, %x: f32[%N] @DRAM) {
    // expected-error @below {{cannot remove loop 'i': its body uses the iterator}}
    exogpu.for %i in seq(0, %N) {
      exogpu.assign %x[%i] = 1.0 : f32[?] @DRAM
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %i = transform.exogpu.match iter "i" in %root : (!transform.any_op) -> !transform.any_op
    %s = transform.exogpu.remove_loop %i : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// remove_loop needs a loop that runs at least once.
module attributes {transform.with_named_sequence} {

  exogpu.proc @remove_zero_trip(%N: index, %x: f32[2] @DRAM) {
    // expected-error @below {{cannot remove loop 'i': it may run zero times (for example at N = -1)}}
    exogpu.for %i in seq(0, %N) {
      exogpu.assign %x[0] = 1.0 : f32[2] @DRAM
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %i = transform.exogpu.match iter "i" in %root : (!transform.any_op) -> !transform.any_op
    %s = transform.exogpu.remove_loop %i : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// remove_loop needs an idempotent body: a reduction accumulates again.
module attributes {transform.with_named_sequence} {

  exogpu.proc @remove_reduce(%N: size, %x: f32[2] @DRAM) {
    // expected-error @below {{cannot remove loop 'i': the statements are not idempotent}}
    exogpu.for %i in seq(0, %N) {
      // expected-note @below {{this reduction of x[0] accumulates again when repeated}}
      exogpu.reduce %x[0] += 1.0 : f32[2] @DRAM
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %i = transform.exogpu.match iter "i" in %root : (!transform.any_op) -> !transform.any_op
    %s = transform.exogpu.remove_loop %i : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// remove_loop needs an idempotent body: an element written and read.
module attributes {transform.with_named_sequence} {

  exogpu.proc @remove_read_write(%N: size, %x: f32[2] @DRAM) {
    // expected-error @below {{cannot remove loop 'i': the statements are not idempotent}}
    exogpu.for %i in seq(0, %N) {
      // expected-note @below {{written: write of x[0]}}
      // expected-note @below {{and read: read of x[0]}}
      exogpu.assign %x[0] = %x[0] * 2.0 : f32[2] @DRAM
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %i = transform.exogpu.match iter "i" in %root : (!transform.any_op) -> !transform.any_op
    %s = transform.exogpu.remove_loop %i : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// add_loop needs a loop that runs at least once.
module attributes {transform.with_named_sequence} {

  exogpu.proc @add_zero_trip(%N: index, %x: f32[2] @DRAM) {
    // expected-error @below {{cannot add loop 'r': it may run zero times (for example at N = -1)}}
    exogpu.assign %x[0] = 1.0 : f32[2] @DRAM
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %s = transform.exogpu.match kind "assign" in %root : (!transform.any_op) -> !transform.any_op
    %l = transform.exogpu.add_loop %s "r" to "N" : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// add_loop without a guard needs idempotent statements.
module attributes {transform.with_named_sequence} {

  exogpu.proc @add_not_idempotent(%x: f32[2] @DRAM) {
    // expected-error @below {{cannot add loop 'r' without a guard: the statements are not idempotent}}
    // expected-note @below {{this reduction of x[0] accumulates again when repeated}}
    exogpu.reduce %x[0] += 1.0 : f32[2] @DRAM
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %s = transform.exogpu.match kind "reduce" in %root : (!transform.any_op) -> !transform.any_op
    %l = transform.exogpu.add_loop %s "r" to "2" : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// lift_scope needs a scope that is alone in its parent.
module attributes {transform.with_named_sequence} {

  exogpu.proc @lift_not_alone(%N: size, %x: f32[%N] @DRAM) {
    exogpu.for %i in seq(0, %N) {
      exogpu.assign %x[0] = 1.0 : f32[?] @DRAM
      // expected-error @below {{lift_scope needs a loop or guard that is the only statement of a loop or guard}}
      exogpu.if %N > 1 {
        exogpu.assign %x[%i] = 1.0 : f32[?] @DRAM
      }
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %g = transform.exogpu.match kind "if" in %root : (!transform.any_op) -> !transform.any_op
    %s = transform.exogpu.lift_scope %g : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// lift_scope cannot lift a guard that uses the loop's iterator.
module attributes {transform.with_named_sequence} {

  exogpu.proc @lift_uses_iterator(%N: size, %x: f32[%N] @DRAM) {
    exogpu.for %i in seq(0, %N) {
      // expected-error @below {{cannot lift this guard out of loop 'i': its condition uses the iterator}}
      exogpu.if %i > 1 {
        exogpu.assign %x[%i] = 1.0 : f32[?] @DRAM
      }
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %g = transform.exogpu.match kind "if" in %root : (!transform.any_op) -> !transform.any_op
    %s = transform.exogpu.lift_scope %g : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// mult_loops needs a constant inner bound.
module attributes {transform.with_named_sequence} {

  exogpu.proc @mult_dynamic(%N: size, %x: f32[%N, %N] @DRAM) {
    // expected-error @below {{mult_loops needs loops from 0 and an inner loop with a constant positive upper bound}}
    exogpu.for %i in seq(0, %N) {
      exogpu.for %j in seq(0, %N) {
        exogpu.assign %x[%i, %j] = 1.0 : f32[?, ?] @DRAM
      }
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %i = transform.exogpu.match iter "i" in %root : (!transform.any_op) -> !transform.any_op
    %k = transform.exogpu.mult_loops %i into "k" : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Expressions in scripts are quasi-affine and name visible values.
module attributes {transform.with_named_sequence} {

  exogpu.proc @bad_text(%N: size, %x: f32[%N] @DRAM) {
    exogpu.for %i in seq(0, %N) {
      exogpu.assign %x[%i] = 1.0 : f32[?] @DRAM
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %i = transform.exogpu.match iter "i" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{cannot parse 'N * N': a product needs a constant factor (quasi-affine)}}
    %a, %b = transform.exogpu.cut_loop %i at "N * N" : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// Names in script expressions must be visible at the statement.
module attributes {transform.with_named_sequence} {

  exogpu.proc @unknown_name(%N: size, %x: f32[%N] @DRAM) {
    exogpu.for %i in seq(0, %N) {
      exogpu.assign %x[%i] = 1.0 : f32[?] @DRAM
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %i = transform.exogpu.match iter "i" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{cannot parse 'Q + 1': no control value named 'Q' is visible here}}
    %a, %b = transform.exogpu.cut_loop %i at "Q + 1" : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// mult_loops needs a loop nest: the body is exactly one loop.
module attributes {transform.with_named_sequence} {
  exogpu.proc @mult_not_nested(%x: f32[4] @DRAM) {
    // expected-error @below {{mult_loops needs a loop whose body is exactly one loop}}
    exogpu.for %i in seq(0, 4) {
      exogpu.assign %x[%i] = 1.0 : f32[4] @DRAM
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %i = transform.exogpu.match iter "i" in %root : (!transform.any_op) -> !transform.any_op
    %k = transform.exogpu.mult_loops %i into "k" : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Divisors in script expressions are positive constants.
module attributes {transform.with_named_sequence} {
  exogpu.proc @bad_divisor(%N: size, %x: f32[%N] @DRAM) {
    exogpu.for %i in seq(0, %N) {
      exogpu.assign %x[%i] = 1.0 : f32[?] @DRAM
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %i = transform.exogpu.match iter "i" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{cannot parse 'N / 0': expected a positive integer after '/'}}
    %a, %b = transform.exogpu.cut_loop %i at "N / 0" : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// Moduli in script expressions are positive constants.
module attributes {transform.with_named_sequence} {
  exogpu.proc @bad_modulus(%N: size, %x: f32[%N] @DRAM) {
    exogpu.for %i in seq(0, %N) {
      exogpu.assign %x[%i] = 1.0 : f32[?] @DRAM
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %i = transform.exogpu.match iter "i" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{cannot parse 'N mod N': expected a positive integer after 'mod'}}
    %a, %b = transform.exogpu.cut_loop %i at "N mod N" : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// divide_loop with a cut tail refuses a loop that may run zero times: with
// hi < lo the tail would still run (hi - lo) mod 4 iterations (issue 36).
module attributes {transform.with_named_sequence} {
  exogpu.proc @divide_cut_empty(%N: size, %x: f32[%N] @DRAM, %y: f32[1] @DRAM) {
    // expected-error @below {{cannot cut the tail of loop 'i': its upper bound may be below its lower bound, and the tail would run (hi - lo) mod 4 times where the loop runs none (use tail "guard") (for example at N = 1)}}
    exogpu.for %i in seq(2, %N) {
      exogpu.reduce %y[0] += %x[0] : f32[1] @DRAM, f32[?] @DRAM
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %i = transform.exogpu.match iter "i" in %root : (!transform.any_op) -> !transform.any_op
    %o, %n, %t = transform.exogpu.divide_loop %i by 4 into "io", "ii" tail "cut" : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// unroll_loop computes the trip count without overflow: 2^63 iterations are
// refused, not attempted (issue 36).
module attributes {transform.with_named_sequence} {
  exogpu.proc @unroll_huge(%y: f32[4] @DRAM) {
    // expected-error @below {{unroll_loop expands at most 1024 iterations}}
    exogpu.for %i in seq(-4611686018427387904, 4611686018427387904) {
      exogpu.assign %y[0] = 0.0 : f32[4] @DRAM
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %i = transform.exogpu.match iter "i" in %root : (!transform.any_op) -> !transform.any_op
    %u = transform.exogpu.unroll_loop %i : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// unroll_loop refuses to fold constants beyond the range the analyses
// handle (2^40): i * 2^40 at i = 3.
module attributes {transform.with_named_sequence} {
  exogpu.proc @unroll_large_constants(%y: f32[4] @DRAM) {
    // expected-error @below {{unroll_loop: substituting the values of 'i' would compute constants beyond the range the analyses handle}}
    exogpu.for %i in seq(0, 4) {
      exogpu.if %i * 1099511627776 > 2 {
        exogpu.assign %y[0] = 0.0 : f32[4] @DRAM
      }
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %i = transform.exogpu.match iter "i" in %root : (!transform.any_op) -> !transform.any_op
    %u = transform.exogpu.unroll_loop %i : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// unroll_loop refuses what it cannot write: the copy for i = 0 would
// allocate f32[0] (the meaning allows a dynamic extent of 0, no buffer type
// a static one).
module attributes {transform.with_named_sequence} {
  exogpu.proc @unroll_zero_extent(%y: f32[4] @DRAM) {
    // expected-error @below {{unroll_loop would give a buffer a constant extent that is not positive}}
    exogpu.for %i in seq(0, 2) {
      %t = exogpu.alloc f32[%i] @DRAM
      exogpu.assign %y[%i] = 0.0 : f32[4] @DRAM
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %i = transform.exogpu.match iter "i" in %root : (!transform.any_op) -> !transform.any_op
    %u = transform.exogpu.unroll_loop %i : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// add_loop refuses a block whose allocation is used after it: inside the new
// loop it would no longer be visible there (issue 36).
module attributes {transform.with_named_sequence} {
  exogpu.proc @add_loop_alloc_used_after(%y: f32[4] @DRAM) {
    %t = exogpu.alloc f32[4] @DRAM
    // expected-error @below {{cannot add loop 'r': this statement after the block uses a buffer or window the block defines}}
    exogpu.assign %t[0] = 1.0 : f32[4] @DRAM
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.exogpu.match kind "alloc" in %root : (!transform.any_op) -> !transform.any_op
    %l = transform.exogpu.add_loop %a "r" to "2" : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// divide_loop refuses a factor beyond 2^40: the legality checks would give
// up and the rewrite would fold constants near the 64-bit limits.
module attributes {transform.with_named_sequence} {
  exogpu.proc @divide_huge_factor(%N: size, %x: f32[%N] @DRAM) {
    // expected-error @below {{divide_loop would build constants beyond 2^40, the range the legality checks handle}}
    exogpu.for %i in seq(0, %N) {
      exogpu.assign %x[%i] = 1.0 : f32[?] @DRAM
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %i = transform.exogpu.match iter "i" in %root : (!transform.any_op) -> !transform.any_op
    %o, %n, %t = transform.exogpu.divide_loop %i by 2199023255552 into "io", "ii" tail "guard" : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}
