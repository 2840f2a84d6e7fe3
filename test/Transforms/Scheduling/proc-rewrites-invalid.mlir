// RUN: exogpu-opt %s --transform-interpreter -split-input-file -verify-diagnostics

// replace refuses a block whose structure differs from the instruction body.
module attributes {transform.with_named_sequence} {
  exogpu.instr @fill(%len: size, %dst: f32[%len] @DRAM) target = cpu, unit = standalone_thread, cuda = "" {
    exogpu.for %i in seq(0, %len) {
      exogpu.assign %dst[%i] = 0.0 : f32[?] @DRAM
    }
  }

  exogpu.proc @replace_count(%y: f32[4] @DRAM) {
    // expected-error @below {{replace: the block does not match the body of @fill: 2 statement(s) where the instruction has 1}}
    exogpu.assign %y[0] = 0.0 : f32[4] @DRAM
    exogpu.assign %y[1] = 0.0 : f32[4] @DRAM
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.exogpu.match kind "assign" nth 0 in %root : (!transform.any_op) -> !transform.any_op
    %b = transform.exogpu.get_block %a count 2 : (!transform.any_op) -> !transform.any_op
    %c = transform.exogpu.replace %b with @fill : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// replace refuses a statement of another kind.
module attributes {transform.with_named_sequence} {
  exogpu.instr @fill(%len: size, %dst: f32[%len] @DRAM) target = cpu, unit = standalone_thread, cuda = "" {
    // expected-note @below {{instruction statement}}
    exogpu.for %i in seq(0, %len) {
      exogpu.assign %dst[%i] = 0.0 : f32[?] @DRAM
    }
  }

  exogpu.proc @replace_kind(%y: f32[4] @DRAM) {
    // expected-error @below {{replace: the block does not match the body of @fill: a 'exogpu.assign' where the instruction has 'exogpu.for'}}
    exogpu.assign %y[0] = 0.0 : f32[4] @DRAM
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.exogpu.match kind "assign" in %root : (!transform.any_op) -> !transform.any_op
    %c = transform.exogpu.replace %a with @fill : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// replace refuses different data expressions.
module attributes {transform.with_named_sequence} {
  exogpu.instr @fill(%len: size, %dst: f32[%len] @DRAM) target = cpu, unit = standalone_thread, cuda = "" {
    exogpu.for %i in seq(0, %len) {
      // expected-note @below {{instruction statement}}
      exogpu.assign %dst[%i] = 0.0 : f32[?] @DRAM
    }
  }
  exogpu.proc @replace_value(%y: f32[4] @DRAM) {
    exogpu.for %i in seq(0, 4) {
      // expected-error @below {{replace: the block does not match the body of @fill: the constants differ}}
      exogpu.assign %y[%i] = 1.0 : f32[4] @DRAM
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.exogpu.match kind "for" in %root : (!transform.any_op) -> !transform.any_op
    %c = transform.exogpu.replace %a with @fill : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// replace needs every control parameter determined.
module attributes {transform.with_named_sequence} {
  exogpu.instr @strided(%ld: size, %dst: f32[4] @DRAM) target = cpu, unit = standalone_thread, cuda = "" {
    exogpu.for %i in seq(0, 4) {
      exogpu.assign %dst[%i] = 0.0 : f32[4] @DRAM
    }
  }
  exogpu.proc @replace_undetermined(%y: f32[4] @DRAM) {
    // expected-error @below {{replace: the body of @strided does not determine its parameter 'ld'; pass it with args}}
    exogpu.for %i in seq(0, 4) {
      exogpu.assign %y[%i] = 0.0 : f32[4] @DRAM
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.exogpu.match kind "for" in %root : (!transform.any_op) -> !transform.any_op
    %c = transform.exogpu.replace %a with @strided : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// replace refuses a parameter standing for two windows.
module attributes {transform.with_named_sequence} {
  exogpu.instr @twice(%dst: f32[4] @DRAM) target = cpu, unit = standalone_thread, cuda = "" {
    exogpu.for %i in seq(0, 4) {
      // expected-note @below {{instruction statement}}
      exogpu.assign %dst[%i] = %dst[%i] : f32[4] @DRAM
    }
  }
  exogpu.proc @replace_windows(%y: f32[8] @DRAM) {
    exogpu.for %i in seq(0, 4) {
      // expected-error @below {{replace: the block does not match the body of @twice: parameter 'dst' stands for two different windows}}
      exogpu.assign %y[%i] = %y[%i + 4] : f32[8] @DRAM
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.exogpu.match kind "for" in %root : (!transform.any_op) -> !transform.any_op
    %c = transform.exogpu.replace %a with @twice : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// replace refuses a call the instruction's parameter types reject.
module attributes {transform.with_named_sequence} {
  exogpu.instr @copy(%dst: f32[4] @CudaSmemLinear, %src: f32[4] @CudaGmemLinear)
      target = cuda, unit = cuda_thread, cuda = "" {
    exogpu.for %i in seq(0, 4) {
      exogpu.assign %dst[%i] = %src[%i] : f32[4] @CudaSmemLinear, f32[4] @CudaGmemLinear
    }
  }
  exogpu.proc @replace_memory(%x: f32[4] @CudaGmemLinear) {
    exogpu.device_function(blockDim = 32) {
      exogpu.for %task in cuda_tasks(0, 1) {
        %t = exogpu.alloc f32[4] @CudaRmem
        exogpu.for %th in cuda_threads(0, 1, unit = cuda_thread) {
          // expected-error @below {{replace would make the IR invalid}}
          // expected-note @below {{'exogpu.call' op data argument 0 is in memory CudaRmem, parameter requires CudaSmemLinear}}
          exogpu.for %i in seq(0, 4) {
            exogpu.assign %t[%i] = %x[%i] : f32[4] @CudaRmem, f32[4] @CudaGmemLinear
          }
        }
      }
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.exogpu.match iter "i" in %root : (!transform.any_op) -> !transform.any_op
    %c = transform.exogpu.replace %a with @copy : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// replace names an instruction.
module attributes {transform.with_named_sequence} {
  exogpu.proc @replace_not_instr(%y: f32[4] @DRAM) {
    exogpu.assign %y[0] = 0.0 : f32[4] @DRAM
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.exogpu.match kind "assign" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{@replace_not_instr is not an instruction (exogpu.instr)}}
    %c = transform.exogpu.replace %a with @replace_not_instr : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// replace args name control parameters.
module attributes {transform.with_named_sequence} {
  exogpu.instr @fill(%len: size, %dst: f32[%len] @DRAM) target = cpu, unit = standalone_thread, cuda = "" {
    exogpu.for %i in seq(0, %len) {
      exogpu.assign %dst[%i] = 0.0 : f32[?] @DRAM
    }
  }

  exogpu.proc @replace_bad_arg(%y: f32[4] @DRAM) {
    // expected-error @below {{replace: @fill has no control parameter 'width'}}
    exogpu.for %i in seq(0, 4) {
      exogpu.assign %y[%i] = 0.0 : f32[4] @DRAM
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.exogpu.match kind "for" in %root : (!transform.any_op) -> !transform.any_op
    %c = transform.exogpu.replace %a with @fill args {width = "4"} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// inline applies to proc calls.
module attributes {transform.with_named_sequence} {
  exogpu.instr @nop(%x: f32[4] @DRAM) target = cpu, unit = standalone_thread, cuda = "" {
    exogpu.assign %x[0] = 0.0 : f32[4] @DRAM
  }
  exogpu.proc @inline_instr(%y: f32[4] @DRAM) {
    // expected-error @below {{inline applies to calls of procs (instructions are hardware)}}
    exogpu.call @nop(%y) : f32[4] @DRAM
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %c = transform.exogpu.match kind "call" in %root : (!transform.any_op) -> !transform.any_op
    %s = transform.exogpu.inline %c : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// extract_subproc extracts CPU-scope statements.
module attributes {transform.with_named_sequence} {
  exogpu.proc @extract_cuda(%x: f32[32] @CudaGmemLinear) {
    exogpu.device_function(blockDim = 32) {
      exogpu.for %task in cuda_tasks(0, 1) {
        // expected-error @below {{extract_subproc: procs are called at CPU scope; this block is in a device function}}
        exogpu.for %t in cuda_threads(0, 32, unit = cuda_thread) {
          exogpu.assign %x[%t] = 1.0 : f32[32] @CudaGmemLinear
        }
      }
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %t = transform.exogpu.match iter "t" in %root : (!transform.any_op) -> !transform.any_op
    %p, %c = transform.exogpu.extract_subproc %t "sub" : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// extract_subproc passes buffers, not windows defined outside.
module attributes {transform.with_named_sequence} {
  exogpu.proc @extract_window(%x: f32[8] @DRAM) {
    %w = exogpu.window %x[0:4] : f32[8] @DRAM
    // expected-error @below {{extract_subproc: the block uses 'w', a window, split or barrier defined outside it; pass buffers (inline_window first, or take the split in the block)}}
    exogpu.assign %w[0] = 1.0 : window f32[4] @DRAM
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.exogpu.match kind "assign" in %root : (!transform.any_op) -> !transform.any_op
    %p, %c = transform.exogpu.extract_subproc %a "sub" : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// extract_subproc needs a new name.
module attributes {transform.with_named_sequence} {
  exogpu.proc @extract_name(%x: f32[8] @DRAM) {
    exogpu.assign %x[0] = 1.0 : f32[8] @DRAM
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.exogpu.match kind "assign" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{a symbol named @extract_name exists}}
    %p, %c = transform.exogpu.extract_subproc %a "extract_name" : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// call_eqv needs procs copied from one proc.
module attributes {transform.with_named_sequence} {
  exogpu.proc @one(%x: f32[8] @DRAM) {
    exogpu.assign %x[0] = 1.0 : f32[8] @DRAM
  }
  exogpu.proc @two(%x: f32[8] @DRAM) {
    exogpu.assign %x[0] = 1.0 : f32[8] @DRAM
  }
  exogpu.proc @call_eqv_unrelated(%x: f32[8] @DRAM) {
    // expected-error @below {{call_eqv: @two is not known to be equivalent to @one (neither is a copy_proc copy of the other's proc)}}
    exogpu.call @one(%x) : f32[8] @DRAM
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %c = transform.exogpu.match kind "call" in %root : (!transform.any_op) -> !transform.any_op
    transform.exogpu.call_eqv %c @two : !transform.any_op
    transform.yield
  }
}

// -----

// copy_proc needs a new name.
module attributes {transform.with_named_sequence} {
  // expected-error @below {{copy_proc: a symbol named @copied exists}}
  exogpu.proc @copied(%x: f32[8] @DRAM) {
    exogpu.assign %x[0] = 1.0 : f32[8] @DRAM
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.exogpu.match kind "assign" in %root : (!transform.any_op) -> !transform.any_op
    %p = transform.get_parent_op %a {op_name = "exogpu.proc"} : (!transform.any_op) -> !transform.any_op
    %q = transform.exogpu.copy_proc %p "copied" : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// extract_subproc passes buffers whose extents use size parameters only.
module attributes {transform.with_named_sequence} {
  exogpu.proc @extract_extent(%x: f32[4] @DRAM) {
    exogpu.for %i in seq(0, 4) {
      %t = exogpu.alloc f32[%i + 1] @DRAM
      // expected-error @below {{extract_subproc: the extents of 't' depend on values that are not sizes}}
      exogpu.assign %t[0] = 1.0 : f32[?] @DRAM
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.exogpu.match kind "assign" in %root : (!transform.any_op) -> !transform.any_op
    %p, %c = transform.exogpu.extract_subproc %a "sub" : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// call_eqv switches calls of procs, not of instructions.
module attributes {transform.with_named_sequence} {
  exogpu.instr @fill(%dst: f32[4] @DRAM) target = cpu, unit = standalone_thread, cuda = "" {
    exogpu.assign %dst[0] = 0.0 : f32[4] @DRAM
  }
  exogpu.proc @one(%x: f32[4] @DRAM) {
    exogpu.assign %x[0] = 0.0 : f32[4] @DRAM
  }
  exogpu.proc @call_eqv_instr(%x: f32[4] @DRAM) {
    // expected-error @below {{call_eqv applies to calls of procs}}
    exogpu.call @fill(%x) : f32[4] @DRAM
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %c = transform.exogpu.match kind "call" in %root : (!transform.any_op) -> !transform.any_op
    transform.exogpu.call_eqv %c @one : !transform.any_op
    transform.yield
  }
}

// -----

// call_eqv needs the signature of the callee: a copy whose parameter
// changed precision is not a drop-in replacement.
module attributes {transform.with_named_sequence} {
  exogpu.proc @scale(%x: f32[8] @DRAM) {
    exogpu.assign %x[0] = 1.0 : f32[8] @DRAM
  }
  exogpu.proc @call_eqv_signature(%x: f32[8] @DRAM) {
    // expected-error @below {{call_eqv: @scale_gpu has another signature}}
    exogpu.call @scale(%x) : f32[8] @DRAM
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %c = transform.exogpu.match kind "call" in %root : (!transform.any_op) -> !transform.any_op
    %a = transform.exogpu.match kind "assign" nth 0 in %root : (!transform.any_op) -> !transform.any_op
    %p = transform.get_parent_op %a {op_name = "exogpu.proc"} : (!transform.any_op) -> !transform.any_op
    %q = transform.exogpu.copy_proc %p "scale_gpu" : (!transform.any_op) -> !transform.any_op
    transform.exogpu.set_precision %q param "x" to f16 : !transform.any_op
    transform.exogpu.call_eqv %c @scale_gpu : !transform.any_op
    transform.yield
  }
}

// -----

// call_eqv names a proc.
module attributes {transform.with_named_sequence} {
  exogpu.proc @one(%x: f32[8] @DRAM) {
    exogpu.assign %x[0] = 1.0 : f32[8] @DRAM
  }
  exogpu.proc @call_eqv_missing(%x: f32[8] @DRAM) {
    exogpu.call @one(%x) : f32[8] @DRAM
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %c = transform.exogpu.match kind "call" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{@missing is not a proc}}
    transform.exogpu.call_eqv %c @missing : !transform.any_op
    transform.yield
  }
}

// -----

// replace takes its args as expression strings.
module attributes {transform.with_named_sequence} {
  exogpu.instr @strided(%ld: size, %dst: f32[4] @DRAM) target = cpu, unit = standalone_thread, cuda = "" {
    exogpu.for %i in seq(0, 4) {
      exogpu.assign %dst[%i] = 0.0 : f32[4] @DRAM
    }
  }
  exogpu.proc @replace_args(%y: f32[4] @DRAM) {
    exogpu.for %i in seq(0, 4) {
      exogpu.assign %y[%i] = 0.0 : f32[4] @DRAM
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.exogpu.match kind "for" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{args: the value of 'ld' must be an expression string}}
    %c = transform.exogpu.replace %a with @strided args {ld = 8} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// replace checks the windows it passes: @fill8 takes f32[8], and y has n = 4
// elements (issue 36).
module attributes {transform.with_named_sequence} {
  exogpu.instr @fill8(%dst: f32[8] @DRAM) target = cpu, unit = standalone_thread, cuda = "" {
    exogpu.for %i in seq(0, 4) {
      exogpu.assign %dst[%i] = 0.0 : f32[8] @DRAM
    }
  }
  exogpu.proc @replace_window_too_long(%n: size, %y: f32[%n] @DRAM) requires %n == 4 {
    // expected-error @below {{replace: the call of @fill8 would fail a run-time check}}
    // expected-note @below {{data argument 0 (dimension 0 of 'y'): interval [0, 8) is not within [0, n]}}
    exogpu.for %i in seq(0, 4) {
      exogpu.assign %y[%i] = 0.0 : f32[?] @DRAM
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.exogpu.match iter "i" in %root : (!transform.any_op) -> !transform.any_op
    %c = transform.exogpu.replace %l with @fill8 : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// replace checks the windows that given arguments determine: ld = 8 passes
// x[2:10] of an 8-element x (issue 36); with constant bounds and a static
// extent the call does not verify (a window becomes a memref.subview, which
// MLIR checks likewise even in code that never runs).
module attributes {transform.with_named_sequence} {
  exogpu.instr @zero4_ld(%ld: size, %dst: f32[%ld] @DRAM) target = cpu, unit = standalone_thread, cuda = "" {
    exogpu.for %i in seq(0, 4) {
      exogpu.assign %dst[%i] = 0.0 : f32[?] @DRAM
    }
  }
  exogpu.proc @replace_given_too_long(%x: f32[8] @DRAM) {
    // expected-error @below {{replace would make the IR invalid}}
    // expected-note @below {{'exogpu.call' op data argument window upper bound 10 is outside dimension 0 of extent 8}}
    exogpu.for %i in seq(0, 4) {
      exogpu.assign %x[%i + 2] = 0.0 : f32[8] @DRAM
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.exogpu.match iter "i" in %root : (!transform.any_op) -> !transform.any_op
    %c = transform.exogpu.replace %l with @zero4_ld args {ld = "8"} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// replace checks the instruction body on the windows it passes: with ld = 2
// the body's dst[2], dst[3] leave x[2:4].
module attributes {transform.with_named_sequence} {
  exogpu.instr @zero4_ld(%ld: size, %dst: f32[%ld] @DRAM) target = cpu, unit = standalone_thread, cuda = "" {
    exogpu.for %i in seq(0, 4) {
      // expected-note @below {{index (dimension 0 of 'dst') is not within [0, ld) (for example at ld = 2, i = 3)}}
      exogpu.assign %dst[%i] = 0.0 : f32[?] @DRAM
    }
  }
  exogpu.proc @replace_given_too_short(%x: f32[8] @DRAM) {
    // expected-error @below {{replace: the call of @zero4_ld would fail a run-time check}}
    // expected-note @below {{reached through this call}}
    exogpu.for %i in seq(0, 4) {
      exogpu.assign %x[%i + 2] = 0.0 : f32[8] @DRAM
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.exogpu.match iter "i" in %root : (!transform.any_op) -> !transform.any_op
    %c = transform.exogpu.replace %l with @zero4_ld args {ld = "2"} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// extract_subproc refuses a block whose allocation is used after it (issue
// 36: the call left a read with a null operand).
module attributes {transform.with_named_sequence} {
  exogpu.proc @extract_alloc_used_after(%y: f32[4] @DRAM) {
    %t = exogpu.alloc f32[4] @DRAM
    // expected-error @below {{extract_subproc: this statement after the block uses a buffer or window the block defines}}
    exogpu.assign %t[0] = 1.0 : f32[4] @DRAM
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.exogpu.match kind "alloc" in %root : (!transform.any_op) -> !transform.any_op
    %p, %c = transform.exogpu.extract_subproc %a "sub" : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// inline refuses a call that would give the callee's allocation a static
// extent of 0: f32[n - 4] with n = 4.
module attributes {transform.with_named_sequence} {
  exogpu.proc @k(%n: size, %x: f32[4] @DRAM) {
    %t = exogpu.alloc f32[%n - 4] @DRAM
    exogpu.assign %x[0] = 1.0 : f32[4] @DRAM
  }
  exogpu.proc @inline_zero_extent(%y: f32[4] @DRAM) {
    // expected-error @below {{inline would give a buffer of @k a constant extent that is not positive}}
    exogpu.call @k[4](%y) : f32[4] @DRAM
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %c = transform.exogpu.match kind "call" in %root : (!transform.any_op) -> !transform.any_op
    %s = transform.exogpu.inline %c : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
