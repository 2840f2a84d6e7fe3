// The run-time checks of a rewrite reach into procs the module imports
// (exogpu.import): remove_if refuses to run an imported callee where its
// precondition or its accesses fail, as it does for a callee of the module
// itself (statement-rewrites-invalid.mlir).
// RUN: not exogpu-opt %s --transform-interpreter -split-input-file 2>&1 | FileCheck %s

// CHECK: imported-callee.mlir:[[#@LINE+6]]:5: error: cannot remove this guard: an excluded instance of its body would fail a run-time check
// CHECK: imported-callee.mlir:[[#@LINE+6]]:7: note: the precondition of @f does not hold (for example at N = 3, n = 3)
module attributes {transform.with_named_sequence} {
  exogpu.import "Inputs/imported-callees.mlir"
  exogpu.proc @remove_if_precondition(%N: size, %y: f32[4] @DRAM) {
    %t = exogpu.alloc f32[4] @DRAM
    exogpu.if %N < 3 {
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

// CHECK: imported-callee.mlir:[[#@LINE+7]]:5: error: cannot remove this guard: an excluded instance of its body would fail a run-time check
// CHECK: imported-callees.mlir:11:{{[0-9]+}}: note: index (dimension 0 of 'x') is not within [0, 4) (for example at N = 4, n = 4)
// CHECK: imported-callee.mlir:[[#@LINE+6]]:7: note: reached through this call
module attributes {transform.with_named_sequence} {
  exogpu.import "Inputs/imported-callees.mlir"
  exogpu.proc @remove_if_callee(%N: size, %y: f32[4] @DRAM) {
    %t = exogpu.alloc f32[4] @DRAM
    exogpu.if %N < 4 {
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
