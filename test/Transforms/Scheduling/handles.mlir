// RUN: exogpu-opt %s --transform-interpreter -split-input-file | FileCheck %s

// get_body returns the statements directly in a loop's body, in order;
// set_label marks each of them (nested statements are not in the handle).
// CHECK-LABEL: exogpu.proc @body
// CHECK: exogpu.for %i in seq(0, 4) {
// CHECK-NEXT: exogpu.assign %x[%i] = 1.0 {exogpu.label = "stmt"} : f32[4] @DRAM
// CHECK-NEXT: exogpu.for %j in seq(0, 4) attributes {exogpu.label = "stmt"} {
// CHECK-NEXT: exogpu.assign %y[%i, %j] = 2.0 : f32[4, 4] @DRAM
// CHECK-NEXT: }
module attributes {transform.with_named_sequence} {
  exogpu.proc @body(%x: f32[4] @DRAM, %y: f32[4, 4] @DRAM) {
    exogpu.for %i in seq(0, 4) {
      exogpu.assign %x[%i] = 1.0 : f32[4] @DRAM
      exogpu.for %j in seq(0, 4) {
        exogpu.assign %y[%i, %j] = 2.0 : f32[4, 4] @DRAM
      }
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %i = transform.exogpu.match iter "i" in %root : (!transform.any_op) -> !transform.any_op
    %body = transform.exogpu.get_body %i : (!transform.any_op) -> !transform.any_op
    transform.exogpu.set_label %body "stmt" : !transform.any_op
    transform.yield
  }
}

// -----

// `proc` searches one proc of the module: the loop %i of @other is left
// alone, and `nth` counts within @target.
// CHECK-LABEL: exogpu.proc @other
// CHECK: exogpu.for %i in seq(0, 4) {
// CHECK-LABEL: exogpu.proc @target
// CHECK: exogpu.for %i in seq(0, 4) {
// CHECK: exogpu.for %i in seq(0, 2) attributes {exogpu.label = "second"} {
module attributes {transform.with_named_sequence} {
  exogpu.proc @other(%x: f32[4] @DRAM) {
    exogpu.for %i in seq(0, 4) {
      exogpu.assign %x[%i] = 1.0 : f32[4] @DRAM
    }
  }
  exogpu.proc @target(%x: f32[4] @DRAM) {
    exogpu.for %i in seq(0, 4) {
      exogpu.assign %x[%i] = 2.0 : f32[4] @DRAM
    }
    exogpu.for %i in seq(0, 2) {
      exogpu.assign %x[%i] = 3.0 : f32[4] @DRAM
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %i = transform.exogpu.match iter "i" proc "target" nth 1 in %root : (!transform.any_op) -> !transform.any_op
    transform.exogpu.set_label %i "second" : !transform.any_op
    transform.yield
  }
}

// -----

// `callee` finds the calls of one proc or instruction, whatever their
// arguments (control arguments in brackets included).
// CHECK-LABEL: exogpu.proc @caller
// CHECK: exogpu.call @fill[4](%x) {exogpu.label = "fill"} : f32[4] @DRAM
// CHECK: exogpu.call @other(%x) : f32[4] @DRAM
module attributes {transform.with_named_sequence} {
  exogpu.proc @fill(%n: size, %x: f32[4] @DRAM) {
    exogpu.assign %x[0] = 1.0 : f32[4] @DRAM
  }
  exogpu.proc @other(%x: f32[4] @DRAM) {
    exogpu.assign %x[0] = 2.0 : f32[4] @DRAM
  }
  exogpu.proc @caller(%x: f32[4] @DRAM) {
    exogpu.call @fill[4](%x) : f32[4] @DRAM
    exogpu.call @other(%x) : f32[4] @DRAM
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %c = transform.exogpu.match callee "fill" in %root : (!transform.any_op) -> !transform.any_op
    transform.exogpu.set_label %c "fill" : !transform.any_op
    transform.yield
  }
}
