// RUN: exogpu-opt %s --transform-interpreter -verify-diagnostics | FileCheck %s

// The unsafe form of remove_if skips the check, warns, and counts the step
// on the proc (paper Sec. 8: Exo's Hopper GEMM needed such steps).
// CHECK-LABEL: exogpu.proc @unsafe
// CHECK-SAME: attributes {exogpu.unsafe_steps = 1 : i64}
// CHECK: exogpu.for %i in seq(0, 8) {
// CHECK-NEXT: exogpu.assign %x[%i] = 1.0
module attributes {transform.with_named_sequence} {
  exogpu.proc @unsafe(%x: f32[8] @DRAM) {
    exogpu.for %i in seq(0, 8) {
      // expected-warning @below {{unsafe step: remove_if without a legality check (1 unsafe step(s) in @unsafe)}}
      exogpu.if %i < 6 {
        exogpu.assign %x[%i] = 1.0 : f32[8] @DRAM
      }
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %g = transform.exogpu.match kind "if" in %root : (!transform.any_op) -> !transform.any_op
    %s = transform.exogpu.remove_if %g unsafe : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
