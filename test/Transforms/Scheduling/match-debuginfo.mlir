// A pattern matches a statement's printed text without its location, also
// when locations are printed (--mlir-print-debuginfo, as exogpu.scheduling
// runs the interpreter to keep the Python lines of a proc).
// RUN: exogpu-opt %s --transform-interpreter --mlir-print-debuginfo | FileCheck %s

// CHECK-LABEL: exogpu.proc @guarded
// CHECK: exogpu.if %N > 0 attributes {exogpu.label = "guard"} {
// CHECK: exogpu.assign %y[0] = 1.0 {exogpu.label = "write"} : f32[?] @DRAM
module attributes {transform.with_named_sequence} {
  exogpu.proc @guarded(%N: size, %y: f32[%N] @DRAM) {
    exogpu.if %N > 0 {
      exogpu.assign %y[0] = 1.0 : f32[?] @DRAM loc("kernel.py":3:9)
    } loc("kernel.py":2:5)
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %g = transform.exogpu.match pattern "if N > 0" in %root : (!transform.any_op) -> !transform.any_op
    transform.exogpu.set_label %g "guard" : !transform.any_op
    %w = transform.exogpu.match pattern "assign y[0] = 1.0" in %root : (!transform.any_op) -> !transform.any_op
    transform.exogpu.set_label %w "write" : !transform.any_op
    transform.yield
  }
}
