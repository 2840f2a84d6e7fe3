// RUN: exogpu-opt %s --transform-interpreter -split-input-file -verify-diagnostics

// Scheduling rewrites that cannot carry an exogpu.split along refuse, and
// the legality checks see accesses through splits
// (split-rewrites.mlir has the accepted cases).

// A dimension rewrite of a buffer a split views: the split's dimension and
// type would not follow.
module attributes {transform.with_named_sequence} {
  exogpu.proc @divide_split_buffer(%y: f32[8] @DRAM) {
    // expected-error @below {{this rewrite of 't' changes its dimensions, which an exogpu.split of it views}}
    %t = exogpu.alloc f32[8] @DRAM
    // expected-note @below {{the split}}
    %s = exogpu.split %t dim 0 by 4 : f32[8] @DRAM
    exogpu.assign %s[1, 2] = %y[0] : window f32[2, 4] @DRAM, f32[8] @DRAM
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.exogpu.match kind "alloc" in %root : (!transform.any_op) -> !transform.any_op
    transform.exogpu.expand_dim %a size "2" index "0" : !transform.any_op
    transform.yield
  }
}

// -----

// reorder_stmts sees through splits: s[1, 0] is t[4].
module attributes {transform.with_named_sequence} {
  exogpu.proc @reorder_split_conflict(%y: f32[8] @DRAM) {
    %t = exogpu.alloc f32[8] @DRAM
    %s = exogpu.split %t dim 0 by 4 : f32[8] @DRAM
    // expected-note @below {{first statement: write of t[4]}}
    exogpu.assign %s[1, 0] = 1.0 : window f32[2, 4] @DRAM
    // expected-error @below {{cannot reorder these statements: they do not commute}}
    // expected-note @below {{second statement: read of t[4]}}
    exogpu.assign %y[0] = %t[4] : f32[8] @DRAM, f32[8] @DRAM
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.exogpu.match kind "assign" nth 0 in %root : (!transform.any_op) -> !transform.any_op
    %b = transform.exogpu.match kind "assign" nth 1 in %root : (!transform.any_op) -> !transform.any_op
    transform.exogpu.reorder_stmts %a, %b : !transform.any_op, !transform.any_op
    transform.yield
  }
}

// -----

// inline_window of a window a split views: the split has no coordinates to
// take the window's.
module attributes {transform.with_named_sequence} {
  exogpu.proc @inline_split_window(%A: f32[4, 8] @DRAM) {
    // expected-error @below {{inline_window: an exogpu.split views 'row'; a split of its source would not take the window's coordinates}}
    %row = exogpu.window %A[1, :] : f32[4, 8] @DRAM
    // expected-note @below {{the split}}
    %pairs = exogpu.split %row dim 0 by 2 : window f32[8] @DRAM
    exogpu.assign %pairs[3, 1] = 0.0 : window f32[4, 2] @DRAM
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %w = transform.exogpu.match kind "window" in %root : (!transform.any_op) -> !transform.any_op
    transform.exogpu.inline_window %w : (!transform.any_op) -> ()
    transform.yield
  }
}

// -----

// inline_window does not inline a split.
module attributes {transform.with_named_sequence} {
  exogpu.proc @inline_split(%A: f32[8] @DRAM) {
    // expected-note @below {{payload op}}
    %pairs = exogpu.split %A dim 0 by 2 : f32[8] @DRAM
    exogpu.assign %pairs[3, 1] = 0.0 : window f32[4, 2] @DRAM
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %s = transform.exogpu.match kind "split" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{expected a window, got 'exogpu.split'}}
    transform.exogpu.inline_window %s : (!transform.any_op) -> ()
    transform.yield
  }
}

// -----

// inline of a call whose argument window the callee splits.
module attributes {transform.with_named_sequence} {
  exogpu.proc @pairs(%x: f32[8] @DRAM) {
    // expected-note @below {{the split}}
    %s = exogpu.split %x dim 0 by 2 : f32[8] @DRAM
    exogpu.assign %s[3, 1] = 1.0 : window f32[4, 2] @DRAM
  }
  exogpu.proc @inline_split_argument(%y: f32[2, 8] @DRAM) {
    // expected-error @below {{inline_window: an exogpu.split views 'x'; a split of its source would not take the window's coordinates}}
    exogpu.call @pairs(%y[1, :]) : f32[2, 8] @DRAM
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %c = transform.exogpu.match kind "call" in %root : (!transform.any_op) -> !transform.any_op
    %s = transform.exogpu.inline %c : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// stage_mem of a buffer the block splits, or accesses through a split taken
// outside the block.
module attributes {transform.with_named_sequence} {
  exogpu.proc @stage_split_inside(%x: f32[8] @DRAM) {
    exogpu.for %i in seq(0, 1) {
      // expected-error @below {{stage_mem: the block splits 'x'; the staged buffer has the window's dimensions, not the split's}}
      %s = exogpu.split %x dim 0 by 4 : f32[8] @DRAM
      exogpu.assign %s[0, 1] = 1.0 : window f32[2, 4] @DRAM
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.exogpu.match kind "for" in %root : (!transform.any_op) -> !transform.any_op
    %a, %b, %c = transform.exogpu.stage_mem %l window "x[0 : 8]" into "t" memory "DRAM" : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  exogpu.proc @stage_split_outside(%x: f32[8] @DRAM) {
    // expected-note @below {{the split}}
    %s = exogpu.split %x dim 0 by 4 : f32[8] @DRAM
    // expected-error @below {{stage_mem: the block accesses 'x' through the split 's' taken outside it}}
    exogpu.for %i in seq(0, 4) {
      // expected-note @below {{this access}}
      exogpu.assign %s[1, %i] = 1.0 : window f32[2, 4] @DRAM
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.exogpu.match kind "for" in %root : (!transform.any_op) -> !transform.any_op
    %a, %b, %c = transform.exogpu.stage_mem %l window "x[4 : 8]" into "t" memory "DRAM" : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// set_memory to a memory that is not split (swizzled shared memory).
module attributes {transform.with_named_sequence} {
  exogpu.proc @swizzle_split(%y: f32[4] @CudaGmemLinear) {
    exogpu.device_function(blockDim = 32) {
      exogpu.for %task in cuda_tasks(0, 1) {
        // expected-error @below {{set_memory would make the IR invalid}}
        %t = exogpu.alloc f32[8, 32] @CudaSmemLinear
        // expected-note @below {{'exogpu.split' op cannot split a buffer in Sm90_SmemSwizzled}}
        %s = exogpu.split %t dim 1 by 2 : f32[8, 32] @CudaSmemLinear
        exogpu.for %th in cuda_threads(0, 1, unit = cuda_thread) {
          exogpu.for %i in seq(0, 4) {
            exogpu.assign %s[%i, 0, 1] = 2.0 : window f32[8, 16, 2] @CudaSmemLinear
            exogpu.assign %y[%i] = %s[%i, 0, 1] : f32[4] @CudaGmemLinear, window f32[8, 16, 2] @CudaSmemLinear
          }
        }
      }
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.exogpu.match kind "alloc" in %root : (!transform.any_op) -> !transform.any_op
    transform.exogpu.set_memory %a to "Sm90_SmemSwizzled(128)" : !transform.any_op
    transform.yield
  }
}

// -----

// reuse_buffer sees the uses through a split.
module attributes {transform.with_named_sequence} {
  exogpu.proc @reuse_split(%y: f32[8] @DRAM) {
    %a = exogpu.alloc f32[8] @DRAM
    %s = exogpu.split %a dim 0 by 4 : f32[8] @DRAM
    exogpu.assign %a[0] = 1.0 : f32[8] @DRAM
    // expected-error @below {{cannot reuse 'a' for 'b': it is still used after this allocation}}
    %b = exogpu.alloc f32[8] @DRAM
    exogpu.assign %b[0] = 2.0 : f32[8] @DRAM
    // expected-note @below {{this use}}
    exogpu.assign %y[0] = %s[1, 0] : f32[8] @DRAM, window f32[2, 4] @DRAM
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.exogpu.match kind "alloc" nth 0 in %root : (!transform.any_op) -> !transform.any_op
    %b = transform.exogpu.match kind "alloc" nth 1 in %root : (!transform.any_op) -> !transform.any_op
    transform.exogpu.reuse_buffer %a for %b : !transform.any_op, !transform.any_op
    transform.yield
  }
}

// -----

// extract_subproc passes buffers, not splits defined outside the block.
module attributes {transform.with_named_sequence} {
  exogpu.proc @extract_split(%x: f32[8] @DRAM) {
    %s = exogpu.split %x dim 0 by 4 : f32[8] @DRAM
    // expected-error @below {{extract_subproc: the block uses 's', a window, split or barrier defined outside it; pass buffers (inline_window first, or take the split in the block)}}
    exogpu.assign %s[1, 0] = 1.0 : window f32[2, 4] @DRAM
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.exogpu.match kind "assign" in %root : (!transform.any_op) -> !transform.any_op
    %p, %c = transform.exogpu.extract_subproc %a "sub" : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// remove_if checks the split of the excluded instances: N is a multiple of
// 4 only where the guard holds.
module attributes {transform.with_named_sequence} {
  exogpu.proc @remove_if_split_extent(%N: size, %y: f32[4] @DRAM) {
    %t = exogpu.alloc f32[%N] @DRAM
    // expected-error @below {{cannot remove this guard: an excluded instance of its body would fail a run-time check}}
    exogpu.if %N mod 4 == 0 {
      // expected-note-re @below {{extent N of dimension 0 of 't' is not a multiple of the split factor 4 (for example at N = {{[0-9]+}})}}
      %s = exogpu.split %t dim 0 by 4 : f32[?] @DRAM
      exogpu.assign %s[0, 0] = 1.0 : window f32[?, 4] @DRAM
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

// remove_if checks accesses through a split against the split's extents:
// s[0, 4] and s[0, 5] are t[4] and t[5], but not elements of s.
module attributes {transform.with_named_sequence} {
  exogpu.proc @remove_if_split_index(%y: f32[4] @DRAM) {
    %t = exogpu.alloc f32[8] @DRAM
    %s = exogpu.split %t dim 0 by 4 : f32[8] @DRAM
    exogpu.for %i in seq(0, 6) {
      // expected-error @below {{cannot remove this guard: an excluded instance of its body would fail a run-time check}}
      exogpu.if %i < 4 {
        // expected-note-re @below {{index (dimension 1 of 's') is not within [0, 4) (for example at i = {{[45]}})}}
        exogpu.assign %s[0, %i] = 1.0 : window f32[2, 4] @DRAM
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

// The outer extent of a split of a dynamic dimension is N / 4.
module attributes {transform.with_named_sequence} {
  exogpu.proc @remove_if_split_outer(%N: size, %y: f32[4] @DRAM) requires %N mod 4 == 0 {
    %t = exogpu.alloc f32[%N] @DRAM
    %s = exogpu.split %t dim 0 by 4 : f32[?] @DRAM
    exogpu.for %i in seq(0, %N / 4 + 1) {
      // expected-error @below {{cannot remove this guard: an excluded instance of its body would fail a run-time check}}
      exogpu.if %i < %N / 4 {
        // expected-note-re @below {{index (dimension 0 of 's') is not within [0, N / 4) (for example at {{.*}})}}
        exogpu.assign %s[%i, 3] = 1.0 : window f32[?, 4] @DRAM
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

// remove_if checks the extents of a split passed to a proc: its outer
// extent K / 4 is S only where the guard holds.
module attributes {transform.with_named_sequence} {
  exogpu.proc @chunks(%S: size, %x: f32[%S, 4] @DRAM) {
    exogpu.assign %x[0, 0] = 1.0 : f32[?, 4] @DRAM
  }
  exogpu.proc @remove_if_split_argument(%S: size, %K: size, %y: f32[4] @DRAM) requires %K mod 4 == 0 {
    %t = exogpu.alloc f32[%K] @DRAM
    %t4 = exogpu.split %t dim 0 by 4 : f32[?] @DRAM
    // expected-error @below {{cannot remove this guard: an excluded instance of its body would fail a run-time check}}
    exogpu.if %S == %K / 4 {
      // expected-note-re @below {{extent 0 of data argument 0 is not the extent S of parameter 'x' of @chunks (for example at {{.*}})}}
      exogpu.call @chunks[%S](%t4) : window f32[?, 4] @DRAM
    }
    exogpu.assign %y[0] = 2.0 : f32[4] @DRAM
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %s = transform.exogpu.match kind "if" in %root : (!transform.any_op) -> !transform.any_op
    %r = transform.exogpu.remove_if %s : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
