// The schedule of checked-twins.mlir: for each proc P, copy_proc P to P_q
// and one rewrite of the copy, at a statement found by a name unique in the
// module (before the copy is made).
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    // divide_loop: tail cut
    %m0 = transform.exogpu.match iter "cut" in %root : (!transform.any_op) -> !transform.any_op
    %p0 = transform.get_parent_op %m0 {op_name = "exogpu.proc"} : (!transform.any_op) -> !transform.any_op
    %q0 = transform.exogpu.copy_proc %p0 "divide_cut_q" : (!transform.any_op) -> !transform.any_op
    %s0 = transform.exogpu.match iter "cut" in %q0 : (!transform.any_op) -> !transform.any_op
    %o0, %i0, %t0 = transform.exogpu.divide_loop %s0 by 4 into "io", "ii" tail "cut" : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    // unroll_loop: extents that become constant
    %m1 = transform.exogpu.match iter "unroll" in %root : (!transform.any_op) -> !transform.any_op
    %p1 = transform.get_parent_op %m1 {op_name = "exogpu.proc"} : (!transform.any_op) -> !transform.any_op
    %q1 = transform.exogpu.copy_proc %p1 "unroll_static_q" : (!transform.any_op) -> !transform.any_op
    %s1 = transform.exogpu.match iter "unroll" in %q1 : (!transform.any_op) -> !transform.any_op
    %u1 = transform.exogpu.unroll_loop %s1 : (!transform.any_op) -> !transform.any_op
    // add_loop: a block with its allocation
    %m2 = transform.exogpu.match pattern "t_add = alloc _" in %root : (!transform.any_op) -> !transform.any_op
    %p2 = transform.get_parent_op %m2 {op_name = "exogpu.proc"} : (!transform.any_op) -> !transform.any_op
    %q2 = transform.exogpu.copy_proc %p2 "add_loop_block_q" : (!transform.any_op) -> !transform.any_op
    %s2 = transform.exogpu.match pattern "t_add = alloc _" in %q2 : (!transform.any_op) -> !transform.any_op
    %b2 = transform.exogpu.get_block %s2 count 3 : (!transform.any_op) -> !transform.any_op
    %l2 = transform.exogpu.add_loop %b2 "r" to "2" guard : (!transform.any_op) -> !transform.any_op
    // rewrite_expr: an extent to a constant
    %m3 = transform.exogpu.match pattern "t_rw = alloc _" in %root : (!transform.any_op) -> !transform.any_op
    %p3 = transform.get_parent_op %m3 {op_name = "exogpu.proc"} : (!transform.any_op) -> !transform.any_op
    %q3 = transform.exogpu.copy_proc %p3 "rewrite_extent_q" : (!transform.any_op) -> !transform.any_op
    %s3 = transform.exogpu.match pattern "t_rw = alloc _" in %q3 : (!transform.any_op) -> !transform.any_op
    transform.exogpu.rewrite_expr %s3 at 0 to "2" : !transform.any_op
    // remove_if: a call whose precondition holds
    %m4 = transform.exogpu.match pattern "if N < 3" in %root : (!transform.any_op) -> !transform.any_op
    %p4 = transform.get_parent_op %m4 {op_name = "exogpu.proc"} : (!transform.any_op) -> !transform.any_op
    %q4 = transform.exogpu.copy_proc %p4 "remove_if_call_q" : (!transform.any_op) -> !transform.any_op
    %s4 = transform.exogpu.match pattern "if N < 3" in %q4 : (!transform.any_op) -> !transform.any_op
    %r4 = transform.exogpu.remove_if %s4 : (!transform.any_op) -> !transform.any_op
    // remove_if: accesses within the window
    %m5 = transform.exogpu.match pattern "if i_win < 4" in %root : (!transform.any_op) -> !transform.any_op
    %p5 = transform.get_parent_op %m5 {op_name = "exogpu.proc"} : (!transform.any_op) -> !transform.any_op
    %q5 = transform.exogpu.copy_proc %p5 "remove_if_window_q" : (!transform.any_op) -> !transform.any_op
    %s5 = transform.exogpu.match pattern "if i_win < 4" in %q5 : (!transform.any_op) -> !transform.any_op
    %r5 = transform.exogpu.remove_if %s5 : (!transform.any_op) -> !transform.any_op
    // remove_if: an extent that is never negative
    %m6 = transform.exogpu.match pattern "if N > 3" in %root : (!transform.any_op) -> !transform.any_op
    %p6 = transform.get_parent_op %m6 {op_name = "exogpu.proc"} : (!transform.any_op) -> !transform.any_op
    %q6 = transform.exogpu.copy_proc %p6 "remove_if_extent_q" : (!transform.any_op) -> !transform.any_op
    %s6 = transform.exogpu.match pattern "if N > 3" in %q6 : (!transform.any_op) -> !transform.any_op
    %r6 = transform.exogpu.remove_if %s6 : (!transform.any_op) -> !transform.any_op
    // lift_alloc: an extent that is never negative
    %m7 = transform.exogpu.match pattern "t_lift = alloc _" in %root : (!transform.any_op) -> !transform.any_op
    %p7 = transform.get_parent_op %m7 {op_name = "exogpu.proc"} : (!transform.any_op) -> !transform.any_op
    %q7 = transform.exogpu.copy_proc %p7 "lift_extent_q" : (!transform.any_op) -> !transform.any_op
    %s7 = transform.exogpu.match pattern "t_lift = alloc _" in %q7 : (!transform.any_op) -> !transform.any_op
    transform.exogpu.lift_alloc %s7 : !transform.any_op
    // resize_dim: a size that is never negative
    %m8 = transform.exogpu.match pattern "t_rs = alloc _" in %root : (!transform.any_op) -> !transform.any_op
    %p8 = transform.get_parent_op %m8 {op_name = "exogpu.proc"} : (!transform.any_op) -> !transform.any_op
    %q8 = transform.exogpu.copy_proc %p8 "resize_extent_q" : (!transform.any_op) -> !transform.any_op
    %s8 = transform.exogpu.match pattern "t_rs = alloc _" in %q8 : (!transform.any_op) -> !transform.any_op
    transform.exogpu.resize_dim %s8 dim 0 size "N - 3" offset "3" : !transform.any_op
    // reuse_buffer: the window is read before
    %m9 = transform.exogpu.match pattern "k_reuse = alloc _" in %root : (!transform.any_op) -> !transform.any_op
    %p9 = transform.get_parent_op %m9 {op_name = "exogpu.proc"} : (!transform.any_op) -> !transform.any_op
    %q9 = transform.exogpu.copy_proc %p9 "reuse_window_q" : (!transform.any_op) -> !transform.any_op
    %s9 = transform.exogpu.match pattern "k_reuse = alloc _" in %q9 : (!transform.any_op) -> !transform.any_op
    %r9 = transform.exogpu.match pattern "r_reuse = alloc _" in %q9 : (!transform.any_op) -> !transform.any_op
    transform.exogpu.reuse_buffer %s9 for %r9 : !transform.any_op, !transform.any_op
    // stage_mem: direct accesses
    %m10 = transform.exogpu.match iter "j_stage" in %root : (!transform.any_op) -> !transform.any_op
    %p10 = transform.get_parent_op %m10 {op_name = "exogpu.proc"} : (!transform.any_op) -> !transform.any_op
    %q10 = transform.exogpu.copy_proc %p10 "stage_direct_q" : (!transform.any_op) -> !transform.any_op
    %s10 = transform.exogpu.match iter "j_stage" in %q10 : (!transform.any_op) -> !transform.any_op
    %a10, %l10, %st10 = transform.exogpu.stage_mem %s10 window "A[i, 0 : N]" into "t_stage" memory "DRAM" : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    // stage_mem: the argument's dimension stays
    %m11 = transform.exogpu.match kind "call" pattern "call @h1(_" in %root : (!transform.any_op) -> !transform.any_op
    %p11 = transform.get_parent_op %m11 {op_name = "exogpu.proc"} : (!transform.any_op) -> !transform.any_op
    %q11 = transform.exogpu.copy_proc %p11 "stage_interval_q" : (!transform.any_op) -> !transform.any_op
    %s11 = transform.exogpu.match kind "call" pattern "call @h1(_" in %q11 : (!transform.any_op) -> !transform.any_op
    %a11, %l11, %st11 = transform.exogpu.stage_mem %s11 window "x_int[2 : 3]" into "t_int" memory "DRAM" : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    // replace: the window fits
    %m12 = transform.exogpu.match iter "i_fit" in %root : (!transform.any_op) -> !transform.any_op
    %p12 = transform.get_parent_op %m12 {op_name = "exogpu.proc"} : (!transform.any_op) -> !transform.any_op
    %q12 = transform.exogpu.copy_proc %p12 "replace_fits_q" : (!transform.any_op) -> !transform.any_op
    %s12 = transform.exogpu.match iter "i_fit" in %q12 : (!transform.any_op) -> !transform.any_op
    %c12 = transform.exogpu.replace %s12 with @fill8 : (!transform.any_op) -> !transform.any_op
    // replace: a given leading dimension that fits
    %m13 = transform.exogpu.match iter "i_ld" in %root : (!transform.any_op) -> !transform.any_op
    %p13 = transform.get_parent_op %m13 {op_name = "exogpu.proc"} : (!transform.any_op) -> !transform.any_op
    %q13 = transform.exogpu.copy_proc %p13 "replace_given_q" : (!transform.any_op) -> !transform.any_op
    %s13 = transform.exogpu.match iter "i_ld" in %q13 : (!transform.any_op) -> !transform.any_op
    %c13 = transform.exogpu.replace %s13 with @zero4_ld args {ld = "6"} : (!transform.any_op) -> !transform.any_op
    // extract_subproc: the allocation stays inside
    %m14 = transform.exogpu.match pattern "t_ex = alloc _" in %root : (!transform.any_op) -> !transform.any_op
    %p14 = transform.get_parent_op %m14 {op_name = "exogpu.proc"} : (!transform.any_op) -> !transform.any_op
    %q14 = transform.exogpu.copy_proc %p14 "extract_inside_q" : (!transform.any_op) -> !transform.any_op
    %s14 = transform.exogpu.match pattern "t_ex = alloc _" in %q14 : (!transform.any_op) -> !transform.any_op
    %b14 = transform.exogpu.get_block %s14 count 3 : (!transform.any_op) -> !transform.any_op
    %x14, %c14 = transform.exogpu.extract_subproc %b14 "extracted" : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // inline: an extent that becomes constant
    %m15 = transform.exogpu.match kind "call" pattern "call @k2[_](_)" in %root : (!transform.any_op) -> !transform.any_op
    %p15 = transform.get_parent_op %m15 {op_name = "exogpu.proc"} : (!transform.any_op) -> !transform.any_op
    %q15 = transform.exogpu.copy_proc %p15 "inline_static_q" : (!transform.any_op) -> !transform.any_op
    %s15 = transform.exogpu.match kind "call" pattern "call @k2[_](_)" in %q15 : (!transform.any_op) -> !transform.any_op
    %b15 = transform.exogpu.inline %s15 : (!transform.any_op) -> !transform.any_op
    // lift_alloc by two levels, the second refused: nothing moves
    %m16 = transform.exogpu.match pattern "t_two = alloc _" in %root : (!transform.any_op) -> !transform.any_op
    %p16 = transform.get_parent_op %m16 {op_name = "exogpu.proc"} : (!transform.any_op) -> !transform.any_op
    %q16 = transform.exogpu.copy_proc %p16 "lift_two_levels_q" : (!transform.any_op) -> !transform.any_op
    transform.sequence %q16 : !transform.any_op failures(suppress) {
    ^bb0(%proc: !transform.any_op):
      %a = transform.exogpu.match pattern "t_two = alloc _" in %proc : (!transform.any_op) -> !transform.any_op
      transform.exogpu.lift_alloc %a levels 2 : !transform.any_op
    }
    transform.yield
  }
}
