// RUN: exogpu-opt %s --transform-interpreter -split-input-file -verify-diagnostics

// lift_alloc cannot leave the proc.
module attributes {transform.with_named_sequence} {
  exogpu.proc @lift_top() {
    // expected-error @below {{lift_alloc: 't' is already at the top of its proc}}
    %t = exogpu.alloc f32 @DRAM
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.exogpu.match kind "alloc" in %root : (!transform.any_op) -> !transform.any_op
    transform.exogpu.lift_alloc %a : !transform.any_op
    transform.yield
  }
}

// -----

// lift_alloc keeps CUDA memories inside the device function.
module attributes {transform.with_named_sequence} {
  exogpu.proc @lift_smem(%N: size) {
    exogpu.device_function(blockDim = 32) {
      exogpu.for %task in cuda_tasks(0, %N) {
        // expected-error @below {{lift_alloc: 's' cannot leave the device function: its memory is allocated in CUDA scope}}
        %s = exogpu.alloc f32[32] @CudaSmemLinear
      }
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.exogpu.match kind "alloc" in %root : (!transform.any_op) -> !transform.any_op
    transform.exogpu.lift_alloc %a levels 2 : !transform.any_op
    transform.yield
  }
}

// -----

// lift_alloc cannot leave a loop its extents depend on.
module attributes {transform.with_named_sequence} {
  exogpu.proc @lift_dependent(%N: size) {
    exogpu.for %i in seq(0, %N) {
      // expected-error @below {{lift_alloc: the extents of 't' use the iterator of the loop it would leave}}
      %t = exogpu.alloc f32[%i + 1] @DRAM
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.exogpu.match kind "alloc" in %root : (!transform.any_op) -> !transform.any_op
    transform.exogpu.lift_alloc %a : !transform.any_op
    transform.yield
  }
}

// -----

// sink_alloc needs a scope right after the allocation.
module attributes {transform.with_named_sequence} {
  exogpu.proc @sink_nothing(%x: f32[2] @DRAM) {
    // expected-error @below {{sink_alloc needs a loop or guard right after the allocation}}
    %t = exogpu.alloc f32 @DRAM
    exogpu.assign %t[] = 1.0 : f32 @DRAM
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.exogpu.match kind "alloc" in %root : (!transform.any_op) -> !transform.any_op
    transform.exogpu.sink_alloc %a : !transform.any_op
    transform.yield
  }
}

// -----

// sink_alloc needs every use inside the scope.
module attributes {transform.with_named_sequence} {
  exogpu.proc @sink_used_after(%x: f32[2] @DRAM) {
    // expected-error @below {{cannot sink 't': it is used outside the next statement}}
    %t = exogpu.alloc f32 @DRAM
    exogpu.for %i in seq(0, 2) {
      exogpu.assign %t[] = %x[%i] : f32 @DRAM, f32[2] @DRAM
    }
    // expected-note @below {{this use}}
    exogpu.assign %x[0] = %t[] : f32[2] @DRAM, f32 @DRAM
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.exogpu.match kind "alloc" in %root : (!transform.any_op) -> !transform.any_op
    transform.exogpu.sink_alloc %a : !transform.any_op
    transform.yield
  }
}

// -----

// sink_alloc into a loop refuses values carried across iterations.
module attributes {transform.with_named_sequence} {
  exogpu.proc @sink_carried(%x: f32[2] @DRAM) {
    // expected-error @below {{cannot sink 't' into the loop: an iteration reads what an earlier one wrote}}
    %t = exogpu.alloc f32 @DRAM
    exogpu.for %i in seq(0, 2) {
      // expected-note-re @below {{later iteration: read of t[] (for example at {{.*}})}}
      exogpu.assign %x[%i] = %t[] : f32[2] @DRAM, f32 @DRAM
      // expected-note @below {{earlier iteration: write of t[]}}
      exogpu.assign %t[] = %x[%i] : f32 @DRAM, f32[2] @DRAM
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.exogpu.match kind "alloc" in %root : (!transform.any_op) -> !transform.any_op
    transform.exogpu.sink_alloc %a : !transform.any_op
    transform.yield
  }
}

// -----

// expand_dim needs an index within the new dimension.
module attributes {transform.with_named_sequence} {
  exogpu.proc @expand_out_of_range(%N: size) {
    exogpu.for %i in seq(0, %N) {
      // expected-error-re @below {{expand_dim: the index 'i' is not always in [0, 4) (for example at {{.*}})}}
      %t = exogpu.alloc f32 @DRAM
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.exogpu.match kind "alloc" in %root : (!transform.any_op) -> !transform.any_op
    transform.exogpu.expand_dim %a size "4" index "i" : !transform.any_op
    transform.yield
  }
}

// -----

// divide_dim needs an extent that is a multiple of the quotient.
module attributes {transform.with_named_sequence} {
  exogpu.proc @divide_dim_not_multiple(%N: size) {
    // expected-error @below {{divide_dim: extent 'N' of 't' is not always a multiple of 4 (for example at N = 1)}}
    %t = exogpu.alloc f32[%N] @DRAM
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.exogpu.match kind "alloc" in %root : (!transform.any_op) -> !transform.any_op
    transform.exogpu.divide_dim %a dim 0 by 4 : !transform.any_op
    transform.yield
  }
}

// -----

// divide_dim keeps windows and call arguments in one block of the divided dimension.
module attributes {transform.with_named_sequence} {
  exogpu.proc @divide_dim_window() {
    // expected-error @below {{divide_dim: dimension 0 of 't' is a window interval in an access the rewrite cannot express}}
    %t = exogpu.alloc f32[8] @DRAM
    // expected-note @below {{this access}}
    %w = exogpu.window %t[2:6] : f32[8] @DRAM
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.exogpu.match kind "alloc" in %root : (!transform.any_op) -> !transform.any_op
    transform.exogpu.divide_dim %a dim 0 by 4 : !transform.any_op
    transform.yield
  }
}

// -----

// divide_dim needs an existing dimension.
module attributes {transform.with_named_sequence} {
  exogpu.proc @divide_dim_rank() {
    // expected-error @below {{divide_dim: 't' has 1 dimension(s); need a dimension below that and a positive quotient}}
    %t = exogpu.alloc f32[8] @DRAM
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.exogpu.match kind "alloc" in %root : (!transform.any_op) -> !transform.any_op
    transform.exogpu.divide_dim %a dim 3 by 4 : !transform.any_op
    transform.yield
  }
}

// -----

// mult_dim needs a constant inner extent.
module attributes {transform.with_named_sequence} {
  exogpu.proc @mult_dim_dynamic(%N: size) {
    // expected-error @below {{mult_dim: dimension 1 of 't' must have a constant extent}}
    %t = exogpu.alloc f32[4, %N] @DRAM
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.exogpu.match kind "alloc" in %root : (!transform.any_op) -> !transform.any_op
    transform.exogpu.mult_dim %a dims 0, 1 : !transform.any_op
    transform.yield
  }
}

// -----

// mult_dim needs two different dimensions.
module attributes {transform.with_named_sequence} {
  exogpu.proc @mult_dim_same() {
    // expected-error @below {{mult_dim needs two different dimensions of 't' (rank 2)}}
    %t = exogpu.alloc f32[4, 4] @DRAM
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.exogpu.match kind "alloc" in %root : (!transform.any_op) -> !transform.any_op
    transform.exogpu.mult_dim %a dims 1, 1 : !transform.any_op
    transform.yield
  }
}

// -----

// rearrange_dim needs a permutation.
module attributes {transform.with_named_sequence} {
  exogpu.proc @rearrange_bad() {
    // expected-error @below {{rearrange_dim needs a permutation of 0..1 for 't'}}
    %t = exogpu.alloc f32[4, 4] @DRAM
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.exogpu.match kind "alloc" in %root : (!transform.any_op) -> !transform.any_op
    transform.exogpu.rearrange_dim %a [0, 0] : !transform.any_op
    transform.yield
  }
}

// -----

// rearrange_dim keeps the dimension order of windows.
module attributes {transform.with_named_sequence} {
  exogpu.proc @rearrange_window() {
    // expected-error @below {{rearrange_dim: dimension 0 of 't' is a window interval in an access the rewrite cannot express}}
    %t = exogpu.alloc f32[4, 8] @DRAM
    // expected-note @below {{this access}}
    %w = exogpu.window %t[:, 0:4] : f32[4, 8] @DRAM
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.exogpu.match kind "alloc" in %root : (!transform.any_op) -> !transform.any_op
    transform.exogpu.rearrange_dim %a [1, 0] : !transform.any_op
    transform.yield
  }
}

// -----

// resize_dim needs every access inside the new range.
module attributes {transform.with_named_sequence} {
  exogpu.proc @resize_outside() {
    // expected-error @below {{resize_dim: an access of 't' leaves the new range of dimension 0}}
    %t = exogpu.alloc f32[8] @DRAM
    // expected-note @below {{this access (for example at )}}
    exogpu.assign %t[1] = 1.0 : f32[8] @DRAM
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.exogpu.match kind "alloc" in %root : (!transform.any_op) -> !transform.any_op
    transform.exogpu.resize_dim %a dim 0 size "4" offset "2" : !transform.any_op
    transform.yield
  }
}

// -----

// resize_dim folds to a constant size.
module attributes {transform.with_named_sequence} {
  exogpu.proc @fold_dynamic(%N: size) {
    // expected-error @below {{resize_dim: a folded dimension needs a positive constant size}}
    %t = exogpu.alloc f32[8] @DRAM
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.exogpu.match kind "alloc" in %root : (!transform.any_op) -> !transform.any_op
    transform.exogpu.resize_dim %a dim 0 size "N" fold : !transform.any_op
    transform.yield
  }
}

// -----

// resize_dim refuses a fold when a congruent write falls between a write and
// a read: t[k + 2] is written before t[k] is read, and both map to t[k mod 2].
module attributes {transform.with_named_sequence} {
  exogpu.proc @fold_conflict(%N: size, %x: f32[%N] @DRAM) {
    // expected-error @below {{cannot fold dimension 0 of 't' to 2: a write of a congruent element falls between a write and a read of an element}}
    %t = exogpu.alloc f32[%N + 2] @DRAM
    exogpu.for %k in seq(0, %N) {
      // expected-note @below {{first write: t[k + 2]}}
      // expected-note @below {{congruent write: t[k + 2]}}
      exogpu.assign %t[%k + 2] = 1.0 : f32[?] @DRAM
      // expected-note-re @below {{read: t[k] (for example at {{.*}})}}
      exogpu.assign %x[%k] = %t[%k] : f32[?] @DRAM, f32[?] @DRAM
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.exogpu.match kind "alloc" in %root : (!transform.any_op) -> !transform.any_op
    transform.exogpu.resize_dim %a dim 0 size "2" fold : !transform.any_op
    transform.yield
  }
}

// -----

// A folded dimension takes no offset.
module attributes {transform.with_named_sequence} {
  exogpu.proc @fold_offset() {
    %t = exogpu.alloc f32[8] @DRAM
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.exogpu.match kind "alloc" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{a folded dimension takes no offset}}
    transform.exogpu.resize_dim %a dim 0 size "2" offset "1" fold : !transform.any_op
    transform.yield
  }
}

// -----

// delete_buffer needs an unused buffer.
module attributes {transform.with_named_sequence} {
  exogpu.proc @delete_used() {
    // expected-error @below {{cannot delete 't': it is used}}
    %t = exogpu.alloc f32 @DRAM
    // expected-note @below {{this use}}
    exogpu.assign %t[] = 1.0 : f32 @DRAM
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.exogpu.match kind "alloc" in %root : (!transform.any_op) -> !transform.any_op
    transform.exogpu.delete_buffer %a : (!transform.any_op) -> ()
    transform.yield
  }
}

// -----

// reuse_buffer needs the same type.
module attributes {transform.with_named_sequence} {
  exogpu.proc @reuse_type() {
    %a = exogpu.alloc f32 @DRAM
    // expected-error @below {{reuse_buffer needs two buffers of the same type and extents}}
    %b = exogpu.alloc f32[2] @DRAM
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.exogpu.match kind "alloc" nth 0 in %root : (!transform.any_op) -> !transform.any_op
    %b = transform.exogpu.match kind "alloc" nth 1 in %root : (!transform.any_op) -> !transform.any_op
    transform.exogpu.reuse_buffer %a for %b : !transform.any_op, !transform.any_op
    transform.yield
  }
}

// -----

// reuse_buffer needs the reused buffer to be dead.
module attributes {transform.with_named_sequence} {
  exogpu.proc @reuse_live(%x: f32[2] @DRAM) {
    %a = exogpu.alloc f32 @DRAM
    // expected-error @below {{cannot reuse 'a' for 'b': it is still used after this allocation}}
    %b = exogpu.alloc f32 @DRAM
    exogpu.assign %b[] = 1.0 : f32 @DRAM
    // expected-note @below {{this use}}
    exogpu.assign %x[0] = %a[] : f32[2] @DRAM, f32 @DRAM
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.exogpu.match kind "alloc" nth 0 in %root : (!transform.any_op) -> !transform.any_op
    %b = transform.exogpu.match kind "alloc" nth 1 in %root : (!transform.any_op) -> !transform.any_op
    transform.exogpu.reuse_buffer %a for %b : !transform.any_op, !transform.any_op
    transform.yield
  }
}

// -----

// reuse_buffer needs the reused buffer allocated earlier in the same block.
module attributes {transform.with_named_sequence} {
  exogpu.proc @reuse_order() {
    // expected-error @below {{reuse_buffer needs the reused buffer allocated earlier in the same block}}
    %a = exogpu.alloc f32 @DRAM
    %b = exogpu.alloc f32 @DRAM
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.exogpu.match kind "alloc" nth 0 in %root : (!transform.any_op) -> !transform.any_op
    %b = transform.exogpu.match kind "alloc" nth 1 in %root : (!transform.any_op) -> !transform.any_op
    transform.exogpu.reuse_buffer %b for %a : !transform.any_op, !transform.any_op
    transform.yield
  }
}

// -----

// set_memory must leave valid IR: shared memory is allocated in CUDA scope.
module attributes {transform.with_named_sequence} {
  exogpu.proc @set_memory_scope() {
    // expected-error @below {{set_memory would make the IR invalid}}
    // expected-note @below {{'exogpu.alloc' op CudaSmemLinear is allocated in CUDA scope, inside a device_function}}
    %t = exogpu.alloc f32 @DRAM
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.exogpu.match kind "alloc" in %root : (!transform.any_op) -> !transform.any_op
    transform.exogpu.set_memory %a to "CudaSmemLinear" : !transform.any_op
    transform.yield
  }
}

// -----

// set_precision must leave valid IR: no conversions inside expressions.
module attributes {transform.with_named_sequence} {
  exogpu.proc @set_precision_mixed(%x: f32[2] @DRAM) {
    // expected-error @below {{set_precision would make the IR invalid}}
    %t = exogpu.alloc f32 @DRAM
    // expected-note @below {{'exogpu.add' op requires the same type for all operands and results}}
    exogpu.assign %x[0] = %t[] + %x[1] : f32[2] @DRAM, f32 @DRAM
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.exogpu.match kind "alloc" in %root : (!transform.any_op) -> !transform.any_op
    transform.exogpu.set_precision %a to f16 : !transform.any_op
    transform.yield
  }
}

// -----

// set_memory of a parameter names an existing parameter.
module attributes {transform.with_named_sequence} {
  exogpu.proc @set_memory_param(%x: f32[2] @DRAM) {
    exogpu.assign %x[0] = 1.0 : f32[2] @DRAM
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %s = transform.exogpu.match kind "assign" in %root : (!transform.any_op) -> !transform.any_op
    %p = transform.get_parent_op %s {op_name = "exogpu.proc"} : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{@set_memory_param has no parameter 'y'}}
    transform.exogpu.set_memory %p param "y" to "CudaGmemLinear" : !transform.any_op
    transform.yield
  }
}

// -----

// stage_mem needs a window inside the buffer.
module attributes {transform.with_named_sequence} {
  exogpu.proc @stage_window_outside(%N: size, %x: f32[%N] @DRAM) {
    // expected-error-re @below {{stage_mem: dimension 0 of the window is not always within 'x' (for example at N = {{[1-3]}})}}
    exogpu.for %i in seq(0, %N) {
      exogpu.assign %x[%i] = 1.0 : f32[?] @DRAM
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.exogpu.match kind "for" in %root : (!transform.any_op) -> !transform.any_op
    %a, %b, %c = transform.exogpu.stage_mem %l window "x[0 : 4]" into "s" memory "DRAM" : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// stage_mem needs every access of the block inside the window.
module attributes {transform.with_named_sequence} {
  exogpu.proc @stage_access_outside(%x: f32[8] @DRAM) {
    // expected-error @below {{stage_mem: the block accesses 'x' outside the window}}
    exogpu.for %i in seq(0, 8) {
      // expected-note-re @below {{this access: x[i], dimension 0 (for example at {{.*}})}}
      exogpu.assign %x[%i] = 1.0 : f32[8] @DRAM
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.exogpu.match kind "for" in %root : (!transform.any_op) -> !transform.any_op
    %a, %b, %c = transform.exogpu.stage_mem %l window "x[0 : 4]" into "s" memory "DRAM" : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// stage_mem needs a block that accesses the buffer.
module attributes {transform.with_named_sequence} {
  exogpu.proc @stage_unused(%x: f32[8] @DRAM, %y: f32[8] @DRAM) {
    // expected-error @below {{stage_mem: the block does not access 'y'}}
    exogpu.assign %x[0] = 1.0 : f32[8] @DRAM
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.exogpu.match kind "assign" in %root : (!transform.any_op) -> !transform.any_op
    %a, %b, %c = transform.exogpu.stage_mem %l window "y[0 : 4]" into "s" memory "DRAM" : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// stage_mem with accumulation needs a block that only reduces.
module attributes {transform.with_named_sequence} {
  exogpu.proc @stage_accum_reads(%x: f32[8] @DRAM) {
    // expected-error @below {{stage_mem with accumulation needs a block that only reduces into 'x'}}
    exogpu.assign %x[0] = %x[1] : f32[8] @DRAM
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.exogpu.match kind "assign" in %root : (!transform.any_op) -> !transform.any_op
    %a, %b, %c = transform.exogpu.stage_mem %l window "x[0 : 2]" into "s" memory "DRAM" accum : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// stage_mem does not stage through windows the block takes.
module attributes {transform.with_named_sequence} {
  exogpu.proc @stage_window_in_block(%x: f32[8] @DRAM) {
    exogpu.for %i in seq(0, 2) {
      // expected-error @below {{stage_mem: the block takes a window of 'x'; inline it first}}
      %w = exogpu.window %x[0:4] : f32[8] @DRAM
      exogpu.assign %w[%i] = 1.0 : window f32[4] @DRAM
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.exogpu.match kind "for" in %root : (!transform.any_op) -> !transform.any_op
    %a, %b, %c = transform.exogpu.stage_mem %l window "x[0 : 4]" into "s" memory "DRAM" : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// inline_window keeps special windows.
module attributes {transform.with_named_sequence} {
  exogpu.proc @inline_special(%M: size, %A: f32[%M, 32] @CudaGmemLinear) {
    // expected-error @below {{inline_window: a special window (tensor map) is what its uses require; it stays}}
    %m = exogpu.window %A[:, :] @Sm90_tensorMap(128, 64, 32) : f32[?, 32] @CudaGmemLinear
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %w = transform.exogpu.match kind "window" in %root : (!transform.any_op) -> !transform.any_op
    transform.exogpu.inline_window %w : (!transform.any_op) -> ()
    transform.yield
  }
}

// -----

// bind_window needs a block that uses the buffer.
module attributes {transform.with_named_sequence} {
  exogpu.proc @bind_unused(%x: f32[8] @DRAM, %y: f32[8] @DRAM) {
    // expected-error @below {{bind_window: the block does not use 'y'}}
    exogpu.assign %x[0] = 1.0 : f32[8] @DRAM
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.exogpu.match kind "assign" in %root : (!transform.any_op) -> !transform.any_op
    %w = transform.exogpu.bind_window %l buffer "y" into "w" : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// bind_window names a visible buffer.
module attributes {transform.with_named_sequence} {
  exogpu.proc @bind_unknown(%x: f32[8] @DRAM) {
    exogpu.assign %x[0] = 1.0 : f32[8] @DRAM
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.exogpu.match kind "assign" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{no data buffer named 'z' is visible at the block}}
    %w = transform.exogpu.bind_window %l buffer "z" into "w" : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// bind_window needs a special window of Fig. 14.
module attributes {transform.with_named_sequence} {
  exogpu.proc @bind_bad_special(%x: f32[8] @DRAM) {
    exogpu.assign %x[0] = 1.0 : f32[8] @DRAM
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.exogpu.match kind "assign" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{'Sm90_map(1)' is not a special window (Fig. 14)}}
    %w = transform.exogpu.bind_window %l buffer "x" into "w" special "Sm90_map(1)" : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// bind_window must leave valid IR: tensor maps cannot be written through.
module attributes {transform.with_named_sequence} {
  exogpu.proc @bind_write(%M: size, %A: f32[%M, 32] @CudaGmemLinear) {
    exogpu.device_function(blockDim = 32) {
      exogpu.for %task in cuda_tasks(0, %M) {
        exogpu.for %t in cuda_threads(0, 32, unit = cuda_thread) {
          // expected-error @below {{bind_window would make the IR invalid}}
          // expected-note @below {{'exogpu.assign' op cannot write through a special window}}
          exogpu.assign %A[%task, %t] = 1.0 : f32[?, 32] @CudaGmemLinear
        }
      }
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.exogpu.match kind "assign" in %root : (!transform.any_op) -> !transform.any_op
    %w = transform.exogpu.bind_window %l buffer "A" into "w" special "Sm90_tensorMap(128, 64, 32)" : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A statement that never runs satisfies every legality condition, but
// extents stay positive.
module attributes {transform.with_named_sequence} {
  exogpu.proc @never_runs() {
    exogpu.for %i in seq(0, 0) {
      // expected-error @below {{the rewrite would give 't' an extent of 0}}
      %t = exogpu.alloc f32[1] @DRAM
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.exogpu.match kind "alloc" in %root : (!transform.any_op) -> !transform.any_op
    transform.exogpu.divide_dim %a dim 0 by 2 : !transform.any_op
    transform.yield
  }
}

// -----

// set_memory and stage_mem name an exogpu memory (Fig. 12).
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.exogpu.match kind "alloc" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{'Nowhere' is not an exogpu memory (Fig. 12)}}
    transform.exogpu.set_memory %a to "Nowhere" : !transform.any_op
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.exogpu.match kind "for" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{'Nowhere' is not an exogpu memory (Fig. 12)}}
    %a, %b, %c = transform.exogpu.stage_mem %l window "x[0 : 4]" into "s" memory "Nowhere" : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// The dimension rewrites restructure data buffers, not barriers.
module attributes {transform.with_named_sequence} {
  exogpu.proc @expand_barrier(%N: size, %x: f32[%N] @CudaGmemLinear) {
    exogpu.device_function(blockDim = 32) {
      exogpu.for %i in cuda_tasks(0, %N) {
        // expected-error @below {{buffer rewrites apply to data buffers}}
        %z = exogpu.alloc barrier[1] @CudaMbarrier
        exogpu.arrive(cuda_in_order, 1) >> %z[0] : barrier[1] @CudaMbarrier
        exogpu.await(%z[0], cuda_in_order, 0) : barrier[1] @CudaMbarrier
      }
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.exogpu.match kind "alloc" in %root : (!transform.any_op) -> !transform.any_op
    transform.exogpu.expand_dim %a size "2" index "0" : !transform.any_op
    transform.yield
  }
}

// -----

// stage_mem needs one coordinate per dimension of the staged buffer.
module attributes {transform.with_named_sequence} {
  exogpu.proc @stage_rank(%x: f32[8] @DRAM) {
    // expected-error @below {{stage_mem: the window has 2 coordinate(s), 'x' has 1 dimension(s)}}
    exogpu.for %i in seq(0, 4) {
      exogpu.assign %x[%i] = 1.0 : f32[8] @DRAM
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.exogpu.match iter "i" in %root : (!transform.any_op) -> !transform.any_op
    %a, %b, %c = transform.exogpu.stage_mem %l window "x[0 : 4, 0]" into "s" memory "DRAM" : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// stage_mem stages an allocation or a parameter, not a window of one.
module attributes {transform.with_named_sequence} {
  exogpu.proc @stage_window(%x: f32[8] @DRAM) {
    // expected-error @below {{expected a data allocation or a data parameter of a proc}}
    %w = exogpu.window %x[0:4] : f32[8] @DRAM
    exogpu.for %i in seq(0, 4) {
      exogpu.assign %w[%i] = 1.0 : window f32[4] @DRAM
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.exogpu.match iter "i" in %root : (!transform.any_op) -> !transform.any_op
    %a, %b, %c = transform.exogpu.stage_mem %l window "w[0 : 4]" into "s" memory "DRAM" : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// lift_alloc checks the extents where the allocation would now run: out of
// `if N > 3`, f32[N - 3] is negative at N = 1 (issue 36).
module attributes {transform.with_named_sequence} {
  exogpu.proc @lift_negative_extent(%N: size, %y: f32[4] @DRAM) {
    exogpu.if %N > 3 {
      // expected-error @below {{lift_alloc: the extent 'N - 3' of 't' may be negative where the allocation would now run (for example at N = 2)}}
      %t = exogpu.alloc f32[%N - 3] @DRAM
      exogpu.assign %t[0] = 1.0 : f32[?] @DRAM
      exogpu.assign %y[0] = %t[0] : f32[4] @DRAM, f32[?] @DRAM
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.exogpu.match kind "alloc" in %root : (!transform.any_op) -> !transform.any_op
    transform.exogpu.lift_alloc %a : !transform.any_op
    transform.yield
  }
}

// -----

// resize_dim checks that the new size is not negative (a run-time check of
// the meaning): N - 3 at N = 1 (issue 36).
module attributes {transform.with_named_sequence} {
  exogpu.proc @resize_negative(%N: size, %y: f32[4] @DRAM) {
    // expected-error @below {{resize_dim: the size 'N - 3' of 't' may be negative (for example at N = 2)}}
    %t = exogpu.alloc f32[%N] @DRAM
    exogpu.for %i in seq(3, %N) {
      exogpu.assign %t[%i] = 1.0 : f32[?] @DRAM
    }
    exogpu.assign %y[1] = 2.0 : f32[4] @DRAM
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.exogpu.match kind "alloc" in %root : (!transform.any_op) -> !transform.any_op
    transform.exogpu.resize_dim %a dim 0 size "N - 3" offset "3" : !transform.any_op
    transform.yield
  }
}

// -----

// reuse_buffer follows the accesses through windows: %w reads k after r's
// allocation, so r cannot take k's place (issue 36).
module attributes {transform.with_named_sequence} {
  exogpu.proc @reuse_through_window(%x: f32[4] @DRAM, %y: f32[4] @DRAM) {
    %k = exogpu.alloc f32[4] @DRAM
    exogpu.assign %k[0] = 2.0 : f32[4] @DRAM
    %w = exogpu.window %k[0:4] : f32[4] @DRAM
    // expected-error @below {{cannot reuse 'k' for 'r': it is still used after this allocation}}
    %r = exogpu.alloc f32[4] @DRAM
    exogpu.assign %r[0] = %x[0] : f32[4] @DRAM, f32[4] @DRAM
    // expected-note @below {{this use}}
    exogpu.assign %y[0] = %w[0] : f32[4] @DRAM, window f32[4] @DRAM
    exogpu.assign %y[1] = %r[0] : f32[4] @DRAM, f32[4] @DRAM
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.exogpu.match kind "alloc" nth 0 in %root : (!transform.any_op) -> !transform.any_op
    %r = transform.exogpu.match kind "alloc" nth 1 in %root : (!transform.any_op) -> !transform.any_op
    transform.exogpu.reuse_buffer %k for %r : !transform.any_op, !transform.any_op
    transform.yield
  }
}

// -----

// stage_mem refuses a block that reaches the buffer through a window taken
// outside it: those accesses would bypass the staged copy, and the store
// would write the stale copy back (issue 36).
module attributes {transform.with_named_sequence} {
  exogpu.proc @stage_outer_window(%M: size, %N: size, %A: f32[%M, %N] @DRAM, %b: f32[%N] @DRAM) {
    exogpu.for %i in seq(0, %M) {
      // expected-note @below {{the window}}
      %row = exogpu.window %A[%i, 0:%N] : f32[?, ?] @DRAM
      // expected-error @below {{stage_mem: the block accesses 'A' through the window 'row' taken outside it}}
      exogpu.for %j in seq(0, %N) {
        // expected-note @below {{this access}}
        exogpu.reduce %row[%j] += %b[%j] : window f32[?] @DRAM, f32[?] @DRAM
      }
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %j = transform.exogpu.match iter "j" in %root : (!transform.any_op) -> !transform.any_op
    %a, %l, %s = transform.exogpu.stage_mem %j window "A[i, 0 : N]" into "t" memory "DRAM" : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// stage_mem refuses an argument window that spans a dimension the staged
// window fixes to one index: the staged buffer has no such dimension.
module attributes {transform.with_named_sequence} {
  exogpu.proc @h(%a: f32[1] @DRAM) {
    exogpu.reduce %a[0] += 1.0 : f32[1] @DRAM
  }
  exogpu.proc @stage_point_spanned(%x: f32[4] @DRAM) {
    // expected-error @below {{stage_mem: an access spans dimension 0 of 'x', which the window fixes to one index}}
    // expected-note @below {{this access}}
    exogpu.call @h(%x[2:3]) : f32[4] @DRAM
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %c = transform.exogpu.match kind "call" in %root : (!transform.any_op) -> !transform.any_op
    %a, %l, %s = transform.exogpu.stage_mem %c window "x[2]" into "t" memory "DRAM" : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}
