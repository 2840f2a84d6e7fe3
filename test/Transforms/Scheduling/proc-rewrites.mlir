// RUN: exogpu-opt %s --transform-interpreter -split-input-file | FileCheck %s

// replace: a block unified with an instruction body; the window of each
// data parameter is solved from the indices, the row stride comes from args.
// CHECK-LABEL: exogpu.proc @replace
// CHECK: exogpu.for %r in seq(0, 4) {
// CHECK-NEXT: exogpu.call @copy_rows[8](%t[%r * 4:%r * 4 + 4, :], %x[%r * 4 + %task * 16:%r * 4 + %task * 16 + 4, :])
module attributes {transform.with_named_sequence} {
  exogpu.instr @copy_rows(%ld: size, %dst: f32[4, 8] @CudaSmemLinear, %src: f32[4, 8] @CudaGmemLinear)
      target = cuda, unit = cuda_thread, cuda = "" {
    exogpu.for %i in seq(0, 4) {
      exogpu.for %j in seq(0, 8) {
        exogpu.assign %dst[%i, %j] = %src[%i, %j] : f32[4, 8] @CudaSmemLinear, f32[4, 8] @CudaGmemLinear
      }
    }
  }
  exogpu.proc @replace(%N: size, %x: f32[%N * 16, 8] @CudaGmemLinear) {
    exogpu.device_function(blockDim = 32) {
      exogpu.for %task in cuda_tasks(0, %N) {
        %t = exogpu.alloc f32[16, 8] @CudaSmemLinear
        exogpu.for %th in cuda_threads(0, 1, unit = cuda_thread) {
          exogpu.for %r in seq(0, 4) {
            exogpu.for %a in seq(0, 4) {
              exogpu.for %b in seq(0, 8) {
                exogpu.assign %t[%r * 4 + %a, %b] = %x[%task * 16 + %r * 4 + %a, %b] : f32[16, 8] @CudaSmemLinear, f32[?, 8] @CudaGmemLinear
              }
            }
          }
        }
      }
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.exogpu.match iter "a" in %root : (!transform.any_op) -> !transform.any_op
    %call = transform.exogpu.replace %a with @copy_rows args {ld = "8"} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// replace solves control parameters from loop bounds.
// CHECK-LABEL: exogpu.proc @replace_solve
// CHECK: exogpu.call @fill[%n + 1](%y[0:%n + 1])
module attributes {transform.with_named_sequence} {
  exogpu.instr @fill(%len: size, %dst: f32[%len] @DRAM) target = cpu, unit = standalone_thread, cuda = "" {
    exogpu.for %i in seq(0, %len) {
      exogpu.assign %dst[%i] = 0.0 : f32[?] @DRAM
    }
  }
  exogpu.proc @replace_solve(%n: size, %y: f32[%n + 1] @DRAM) {
    exogpu.for %i in seq(0, %n + 1) {
      exogpu.assign %y[%i] = 0.0 : f32[?] @DRAM
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.exogpu.match iter "i" in %root : (!transform.any_op) -> !transform.any_op
    %call = transform.exogpu.replace %l with @fill : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// extract_subproc, then inline the call back; copy_proc and call_eqv.
// CHECK-LABEL: exogpu.proc @scale(%N: size, %x: f32[%N] @DRAM) requires %N mod 4 == 0 {
// CHECK-NEXT: exogpu.for %i in seq(0, %N) {
// CHECK-NEXT: exogpu.assign %x[%i] = %x[%i] * 2.0
// CHECK-LABEL: exogpu.proc @scale_copy(
// CHECK-SAME: attributes {exogpu.equivalent_to = @scale}
// CHECK-LABEL: exogpu.proc @outer
// CHECK: exogpu.call @scale_copy[%N](%x)
// CHECK-NEXT: exogpu.for %j in seq(0, %N) {
// CHECK-NEXT: exogpu.assign %x[%j] = %x[%j] * 2.0
module attributes {transform.with_named_sequence} {
  exogpu.proc @outer(%N: size, %M: size, %x: f32[%N] @DRAM) requires %N mod 4 == 0 and %M > 2 {
    exogpu.for %i in seq(0, %N) {
      exogpu.assign %x[%i] = %x[%i] * 2.0 : f32[?] @DRAM
    }
    exogpu.for %j in seq(0, %N) {
      exogpu.assign %x[%j] = %x[%j] * 2.0 : f32[?] @DRAM
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %i = transform.exogpu.match iter "i" in %root : (!transform.any_op) -> !transform.any_op
    %p, %c = transform.exogpu.extract_subproc %i "scale" : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %q = transform.exogpu.copy_proc %p "scale_copy" : (!transform.any_op) -> !transform.any_op
    transform.exogpu.call_eqv %c @scale_copy : !transform.any_op
    %j = transform.exogpu.match iter "j" in %root : (!transform.any_op) -> !transform.any_op
    %p2, %c2 = transform.exogpu.extract_subproc %j "scale2" : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %s = transform.exogpu.inline %c2 : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// inline composes argument windows into the accesses.
// CHECK-LABEL: exogpu.proc @caller
// CHECK: exogpu.for %i in seq(0, 4) {
// CHECK-NEXT: exogpu.assign %x[2, %i + 4] = 1.0
module attributes {transform.with_named_sequence} {
  exogpu.proc @row(%v: f32[4] @DRAM) {
    exogpu.for %i in seq(0, 4) {
      exogpu.assign %v[%i] = 1.0 : f32[4] @DRAM
    }
  }
  exogpu.proc @caller(%x: f32[3, 8] @DRAM) {
    exogpu.call @row(%x[2, 4:8]) : f32[3, 8] @DRAM
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %c = transform.exogpu.match kind "call" in %root : (!transform.any_op) -> !transform.any_op
    %s = transform.exogpu.inline %c : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
