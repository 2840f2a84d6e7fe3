// The accepted twins of the refusals of issue 36 (*-invalid.mlir): programs
// one step away from a refused one, on which the rewrite is legal. The
// schedule (Inputs/checked-twins-schedule.mlir) copies each proc P to P_q
// (copy_proc) and rewrites the copy; exogpu-run then holds P_q against P on
// the same inputs, at the smallest sizes the preconditions allow (where loops
// run zero times) and at larger ones.
// RUN: exogpu-opt %s --transform-preload-library=transform-library-paths=%S/Inputs/checked-twins-schedule.mlir --transform-interpreter -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: exogpu-run %t.mlir --proc=divide_cut_q --compare=divide_cut --sizes=N=2 | FileCheck %s --check-prefix=OK
// RUN: exogpu-run %t.mlir --proc=divide_cut_q --compare=divide_cut --sizes=N=7 | FileCheck %s --check-prefix=OK
// RUN: exogpu-run %t.mlir --proc=unroll_static_q --compare=unroll_static | FileCheck %s --check-prefix=OK
// RUN: exogpu-run %t.mlir --proc=add_loop_block_q --compare=add_loop_block | FileCheck %s --check-prefix=OK
// RUN: exogpu-run %t.mlir --proc=rewrite_extent_q --compare=rewrite_extent --sizes=N=4 | FileCheck %s --check-prefix=OK
// RUN: exogpu-run %t.mlir --proc=remove_if_call_q --compare=remove_if_call --sizes=N=1 | FileCheck %s --check-prefix=OK
// RUN: exogpu-run %t.mlir --proc=remove_if_call_q --compare=remove_if_call --sizes=N=5 | FileCheck %s --check-prefix=OK
// RUN: exogpu-run %t.mlir --proc=remove_if_window_q --compare=remove_if_window | FileCheck %s --check-prefix=OK
// RUN: exogpu-run %t.mlir --proc=remove_if_extent_q --compare=remove_if_extent --sizes=N=1 | FileCheck %s --check-prefix=OK
// RUN: exogpu-run %t.mlir --proc=lift_extent_q --compare=lift_extent --sizes=N=3 | FileCheck %s --check-prefix=OK
// RUN: exogpu-run %t.mlir --proc=lift_extent_q --compare=lift_extent --sizes=N=6 | FileCheck %s --check-prefix=OK
// RUN: exogpu-run %t.mlir --proc=resize_extent_q --compare=resize_extent --sizes=N=3 | FileCheck %s --check-prefix=OK
// RUN: exogpu-run %t.mlir --proc=resize_extent_q --compare=resize_extent --sizes=N=8 | FileCheck %s --check-prefix=OK
// RUN: exogpu-run %t.mlir --proc=reuse_window_q --compare=reuse_window | FileCheck %s --check-prefix=OK
// RUN: exogpu-run %t.mlir --proc=stage_direct_q --compare=stage_direct --sizes=M=2,N=3 | FileCheck %s --check-prefix=OK
// RUN: exogpu-run %t.mlir --proc=stage_interval_q --compare=stage_interval | FileCheck %s --check-prefix=OK
// RUN: exogpu-run %t.mlir --proc=replace_fits_q --compare=replace_fits | FileCheck %s --check-prefix=OK
// RUN: exogpu-run %t.mlir --proc=replace_given_q --compare=replace_given | FileCheck %s --check-prefix=OK
// RUN: exogpu-run %t.mlir --proc=extract_inside_q --compare=extract_inside | FileCheck %s --check-prefix=OK
// RUN: exogpu-run %t.mlir --proc=inline_static_q --compare=inline_static | FileCheck %s --check-prefix=OK
// OK: ok

exogpu.instr @fill8(%dst: f32[8] @DRAM) target = cpu, unit = standalone_thread, cuda = "" {
  exogpu.for %i in seq(0, 4) {
    exogpu.assign %dst[%i] = 0.0 : f32[8] @DRAM
  }
}
exogpu.instr @zero4_ld(%ld: size, %dst: f32[%ld] @DRAM) target = cpu, unit = standalone_thread, cuda = "" {
  exogpu.for %i in seq(0, 4) {
    exogpu.assign %dst[%i] = 0.0 : f32[?] @DRAM
  }
}

// divide_loop "cut" of a loop that never runs backwards (the precondition
// keeps hi >= lo): the tail runs (N - 2) mod 4 times.
// CHECK-LABEL: exogpu.proc @divide_cut_q(
// CHECK: exogpu.for %io in seq(0, (%N - 2) / 4) {
// CHECK: exogpu.for %ii in seq(0, (%N - 2) mod 4) {
exogpu.proc @divide_cut(%N: size, %x: f32[%N] @DRAM, %y: f32[1] @DRAM) requires %N >= 2 {
  exogpu.for %cut in seq(2, %N) {
    exogpu.reduce %y[0] += %x[%cut] : f32[1] @DRAM, f32[?] @DRAM
  }
}

// unroll_loop where an extent and a window bound become constant: the
// copies get static types.
// CHECK-LABEL: exogpu.proc @unroll_static_q(
// CHECK: %t = exogpu.alloc f32[1] @DRAM
// CHECK: %w = exogpu.window %y[0:1] : f32[4] @DRAM
// CHECK: exogpu.assign %w[0] = %t[0] : window f32[1] @DRAM, f32[1] @DRAM
// CHECK: exogpu.alloc f32[2] @DRAM
// CHECK: exogpu.window %y[0:2] : f32[4] @DRAM
// CHECK: exogpu.assign %{{.*}}[0] = %{{.*}}[0] : window f32[2] @DRAM, f32[2] @DRAM
exogpu.proc @unroll_static(%y: f32[4] @DRAM) {
  exogpu.for %unroll in seq(1, 3) {
    %t = exogpu.alloc f32[%unroll] @DRAM
    %w = exogpu.window %y[0:%unroll] : f32[4] @DRAM
    exogpu.assign %t[0] = %y[%unroll] : f32[?] @DRAM, f32[4] @DRAM
    exogpu.assign %w[0] = %t[0] : window f32[?] @DRAM, f32[?] @DRAM
  }
}

// add_loop around a block that keeps its allocation to itself.
// CHECK-LABEL: exogpu.proc @add_loop_block_q(
// CHECK: exogpu.for %r in seq(0, 2) {
// CHECK-NEXT: exogpu.if %r == 0 {
// CHECK-NEXT: %t_add = exogpu.alloc f32[4] @DRAM
exogpu.proc @add_loop_block(%y: f32[4] @DRAM) {
  %t_add = exogpu.alloc f32[4] @DRAM
  exogpu.assign %t_add[0] = %y[1] : f32[4] @DRAM, f32[4] @DRAM
  exogpu.reduce %y[0] += %t_add[0] : f32[4] @DRAM, f32[4] @DRAM
}

// rewrite_expr of an allocation extent to the constant it always equals:
// the type becomes static.
// CHECK-LABEL: exogpu.proc @rewrite_extent_q(
// CHECK: %t_rw = exogpu.alloc f32[2] @DRAM
// CHECK: exogpu.assign %t_rw[1] = %y[0] : f32[2] @DRAM, f32[4] @DRAM
exogpu.proc @rewrite_extent(%N: size, %y: f32[4] @DRAM) requires %N == 4 {
  %t_rw = exogpu.alloc f32[%N - 2] @DRAM
  exogpu.assign %t_rw[1] = %y[0] : f32[?] @DRAM, f32[4] @DRAM
  exogpu.reduce %y[1] += %t_rw[1] : f32[4] @DRAM, f32[?] @DRAM
}

// remove_if where the call's precondition holds in the excluded instances
// too (n < 8 under N < 6), and what they write is dead.
// CHECK-LABEL: exogpu.proc @remove_if_call_q(
// CHECK: %t_call = exogpu.alloc f32[4] @DRAM
// CHECK-NEXT: exogpu.call @f8[%N](%t_call)
exogpu.proc @f8(%n: size, %x: f32[4] @DRAM) requires %n < 8 {
  exogpu.assign %x[%n mod 4] = 1.0 : f32[4] @DRAM
}
exogpu.proc @remove_if_call(%N: size, %y: f32[4] @DRAM) requires %N < 6 {
  %t_call = exogpu.alloc f32[4] @DRAM
  exogpu.if %N < 3 {
    exogpu.call @f8[%N](%t_call) : f32[4] @DRAM
  }
  exogpu.reduce %y[0] += 2.0 : f32[4] @DRAM
}

// remove_if where the excluded accesses stay within the window: w has 8
// elements.
// CHECK-LABEL: exogpu.proc @remove_if_window_q(
// CHECK: exogpu.for %i_win in seq(0, 6) {
// CHECK-NEXT: exogpu.assign %w_win[%i_win] = 1.0
exogpu.proc @remove_if_window(%y: f32[4] @DRAM) {
  %t_win = exogpu.alloc f32[8] @DRAM
  %w_win = exogpu.window %t_win[0:8] : f32[8] @DRAM
  exogpu.for %i_win in seq(0, 6) {
    exogpu.if %i_win < 4 {
      exogpu.assign %w_win[%i_win] = 1.0 : window f32[8] @DRAM
    }
  }
  exogpu.reduce %y[0] += 2.0 : f32[4] @DRAM
}

// remove_if where the allocation's extent is never negative.
// CHECK-LABEL: exogpu.proc @remove_if_extent_q(
// CHECK-NOT: exogpu.if
// CHECK: %t_ext = exogpu.alloc f32[%N + 1] @DRAM
exogpu.proc @remove_if_extent(%N: size, %y: f32[4] @DRAM) {
  exogpu.if %N > 3 {
    %t_ext = exogpu.alloc f32[%N + 1] @DRAM
    exogpu.assign %t_ext[0] = 1.0 : f32[?] @DRAM
  }
  exogpu.reduce %y[0] += 2.0 : f32[4] @DRAM
}

// lift_alloc out of a guard where the extent stays non-negative (N >= 3).
// CHECK-LABEL: exogpu.proc @lift_extent_q(
// CHECK: %t_lift = exogpu.alloc f32[%N - 3] @DRAM
// CHECK-NEXT: exogpu.if %N >= 4 {
exogpu.proc @lift_extent(%N: size, %y: f32[4] @DRAM) requires %N >= 3 {
  exogpu.if %N >= 4 {
    %t_lift = exogpu.alloc f32[%N - 3] @DRAM
    exogpu.assign %t_lift[0] = %y[2] : f32[?] @DRAM, f32[4] @DRAM
    exogpu.reduce %y[0] += %t_lift[0] : f32[4] @DRAM, f32[?] @DRAM
  }
}

// resize_dim to N - 3, never negative under the precondition.
// CHECK-LABEL: exogpu.proc @resize_extent_q(
// CHECK: %t_rs = exogpu.alloc f32[%N - 3] @DRAM
// CHECK: exogpu.assign %t_rs[%i_rs - 3] = %y[1]
exogpu.proc @resize_extent(%N: size, %y: f32[4] @DRAM) requires %N >= 3 {
  %t_rs = exogpu.alloc f32[%N] @DRAM
  exogpu.for %i_rs in seq(3, %N) {
    exogpu.assign %t_rs[%i_rs] = %y[1] : f32[?] @DRAM, f32[4] @DRAM
    exogpu.reduce %y[0] += %t_rs[%i_rs] : f32[4] @DRAM, f32[?] @DRAM
  }
}

// reuse_buffer where the window of the reused buffer is read before the
// other allocation.
// CHECK-LABEL: exogpu.proc @reuse_window_q(
// CHECK-NOT: %r_reuse = exogpu.alloc
// CHECK: exogpu.assign %k_reuse[0] = %x[0]
exogpu.proc @reuse_window(%x: f32[4] @DRAM, %y: f32[4] @DRAM) {
  %k_reuse = exogpu.alloc f32[4] @DRAM
  exogpu.assign %k_reuse[0] = 2.0 : f32[4] @DRAM
  %w_reuse = exogpu.window %k_reuse[0:4] : f32[4] @DRAM
  exogpu.reduce %y[0] += %w_reuse[0] : f32[4] @DRAM, window f32[4] @DRAM
  %r_reuse = exogpu.alloc f32[4] @DRAM
  exogpu.assign %r_reuse[0] = %x[0] : f32[4] @DRAM, f32[4] @DRAM
  exogpu.reduce %y[1] += %r_reuse[0] : f32[4] @DRAM, f32[4] @DRAM
}

// stage_mem of a row the block accesses directly: every access is
// redirected to the staged copy.
// CHECK-LABEL: exogpu.proc @stage_direct_q(
// CHECK: %t_stage = exogpu.alloc f32[%N] @DRAM
// CHECK: exogpu.reduce %t_stage[%j_stage] += %b[%j_stage]
exogpu.proc @stage_direct(%M: size, %N: size, %A: f32[%M, %N] @DRAM, %b: f32[%N] @DRAM) {
  exogpu.for %i in seq(0, %M) {
    exogpu.for %j_stage in seq(0, %N) {
      exogpu.reduce %A[%i, %j_stage] += %b[%j_stage] : f32[?, ?] @DRAM, f32[?] @DRAM
    }
  }
}

// stage_mem whose window keeps the dimension an argument spans.
// CHECK-LABEL: exogpu.proc @stage_interval_q(
// CHECK: %t_int = exogpu.alloc f32[1] @DRAM
// CHECK: exogpu.call @h1(%t_int[0:1])
exogpu.proc @h1(%a: f32[1] @DRAM) {
  exogpu.reduce %a[0] += 1.0 : f32[1] @DRAM
}
exogpu.proc @stage_interval(%x_int: f32[4] @DRAM) {
  exogpu.call @h1(%x_int[2:3]) : f32[4] @DRAM
}

// replace where the instruction's window fits the buffer.
// CHECK-LABEL: exogpu.proc @replace_fits_q(
// CHECK: exogpu.call @fill8(%y_fit[:])
exogpu.proc @replace_fits(%y_fit: f32[8] @DRAM) {
  exogpu.reduce %y_fit[5] += 1.0 : f32[8] @DRAM
  exogpu.for %i_fit in seq(0, 4) {
    exogpu.assign %y_fit[%i_fit] = 0.0 : f32[8] @DRAM
  }
}

// replace with a given leading dimension whose window fits: x[2:8].
// CHECK-LABEL: exogpu.proc @replace_given_q(
// CHECK: exogpu.call @zero4_ld[6](%x_ld[2:8])
exogpu.proc @replace_given(%x_ld: f32[8] @DRAM) {
  exogpu.reduce %x_ld[0] += 1.0 : f32[8] @DRAM
  exogpu.for %i_ld in seq(0, 4) {
    exogpu.assign %x_ld[%i_ld + 2] = 0.0 : f32[8] @DRAM
  }
}

// extract_subproc of a block that keeps its allocation to itself.
// CHECK-LABEL: exogpu.proc @extract_inside_q(
// CHECK: exogpu.call @extracted(%y_ex)
exogpu.proc @extract_inside(%y_ex: f32[4] @DRAM) {
  %t_ex = exogpu.alloc f32[4] @DRAM
  exogpu.assign %t_ex[0] = %y_ex[1] : f32[4] @DRAM, f32[4] @DRAM
  exogpu.reduce %y_ex[0] += %t_ex[0] : f32[4] @DRAM, f32[4] @DRAM
}

// inline of a call that makes the callee's extent constant: f32[n - 2] at
// n = 4 is f32[2].
// CHECK-LABEL: exogpu.proc @inline_static_q(
// CHECK: %t_k = exogpu.alloc f32[2] @DRAM
// CHECK: exogpu.assign %t_k[1] = %y_in[0] : f32[2] @DRAM, f32[4] @DRAM
exogpu.proc @k2(%n: size, %x: f32[4] @DRAM) {
  %t_k = exogpu.alloc f32[%n - 2] @DRAM
  exogpu.assign %t_k[1] = %x[0] : f32[?] @DRAM, f32[4] @DRAM
  exogpu.reduce %x[1] += %t_k[1] : f32[4] @DRAM, f32[?] @DRAM
}
exogpu.proc @inline_static(%y_in: f32[4] @DRAM) {
  exogpu.call @k2[4](%y_in) : f32[4] @DRAM
}

// A rewrite refused after a first step it could take leaves the proc as it
// was: lift_alloc by two levels checks both before moving anything.
// CHECK-LABEL: exogpu.proc @lift_two_levels_q(
// CHECK: exogpu.for %i_two in seq(0, 4) {
// CHECK-NEXT: exogpu.for %j_two in seq(0, %i_two) {
// CHECK-NEXT: %t_two = exogpu.alloc f32[%i_two + 1] @DRAM
exogpu.proc @lift_two_levels(%y: f32[4] @DRAM) {
  exogpu.for %i_two in seq(0, 4) {
    exogpu.for %j_two in seq(0, %i_two) {
      %t_two = exogpu.alloc f32[%i_two + 1] @DRAM
      exogpu.assign %t_two[0] = 1.0 : f32[?] @DRAM
    }
  }
}
