// The schedule from the naive GEMM (gemm_nn.mlir) to the Ampere cp.async +
// mma.sync kernel of examples/sm80_gemm.mlir: the chain of equivalence of
// paper Sec. 2.3, every step a checked rewrite (transform.exogpu.*,
// docs/scheduling.md). Run it (the naive GEMM imports the sm_80 instruction
// library):
//
//   exogpu-opt examples/schedules/gemm_nn.mlir \
//     --transform-preload-library=transform-library-paths=examples/schedules/sm80_gemm_schedule.mlir \
//     --transform-interpreter
//
// The result passes --exogpu-collective-analysis, --exogpu-distributed-memory
// and --exogpu-sync-check (test/Examples/sm80_gemm_schedule.test); it reports
// 0 unsafe steps.

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    // 1. CTA tiles of 128 x 128, the zeroing split from the accumulation,
    //    and the kernel launch: tasks (m2, n2), 256 threads.
    %i = transform.exogpu.match iter "i" in %root : (!transform.any_op) -> !transform.any_op
    %m2, %mi, %t0 = transform.exogpu.divide_loop %i by 128 into "m2", "mi" tail "perfect" : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %j = transform.exogpu.match iter "j" in %root : (!transform.any_op) -> !transform.any_op
    %n2, %ni, %t1 = transform.exogpu.divide_loop %j by 128 into "n2", "ni" tail "perfect" : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %n2b, %mib = transform.exogpu.reorder_loops %mi : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %zero = transform.exogpu.match kind "assign" in %root : (!transform.any_op) -> !transform.any_op
    %zn, %kn = transform.exogpu.fission after %zero levels 2 : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %m2b = transform.exogpu.match iter "m2" in %root : (!transform.any_op) -> !transform.any_op
    %kernel = transform.exogpu.wrap_device_function %m2b tasks 2 params_to "CudaGmemLinear" {blockDim = 256} : (!transform.any_op) -> !transform.any_op
    // 2. The accumulator tile in registers (distributed over the warps
    //    later); no load: the zeroing overwrites it first.
    %zn2 = transform.exogpu.match iter "mi" nth 0 in %root : (!transform.any_op) -> !transform.any_op
    %acc = transform.exogpu.get_block %zn2 count 2 : (!transform.any_op) -> !transform.any_op
    %D, %Dload, %Dstore = transform.exogpu.stage_mem %acc window "C[m2 * 128 : m2 * 128 + 128, n2 * 128 : n2 * 128 + 128]" into "D_rmem" memory "Sm80_RmemMatrixD(16, 8)" : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    // 3. K tiles of 16, outermost in the accumulation.
    %k = transform.exogpu.match iter "k" in %root : (!transform.any_op) -> !transform.any_op
    %k1, %k0, %t2 = transform.exogpu.divide_loop %k by 16 into "k1", "k0" tail "perfect" : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %ni2 = transform.exogpu.match iter "ni" nth 1 in %root : (!transform.any_op) -> !transform.any_op
    %r1a, %r1b = transform.exogpu.reorder_loops %ni2 : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %mi2 = transform.exogpu.match iter "mi" nth 1 in %root : (!transform.any_op) -> !transform.any_op
    %r2a, %r2b = transform.exogpu.reorder_loops %mi2 : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // 4. The A and B tiles of each K step in shared memory.
    %cmp = transform.exogpu.match iter "mi" nth 1 in %root : (!transform.any_op) -> !transform.any_op
    transform.exogpu.set_label %cmp "compute" : !transform.any_op
    %As, %Al, %Ast = transform.exogpu.stage_mem %cmp window "A[m2 * 128 : m2 * 128 + 128, k1 * 16 : k1 * 16 + 16]" into "A_smem" memory "CudaSmemLinear" : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %Bs, %Bl, %Bst = transform.exogpu.stage_mem %cmp window "B[k1 * 16 : k1 * 16 + 16, n2 * 128 : n2 * 128 + 128]" into "B_smem" memory "CudaSmemLinear" : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.exogpu.set_label %Al "load_a" : !transform.any_op
    transform.exogpu.set_label %Bl "load_b" : !transform.any_op
    // 5. The warp grid: 2 x 4 warps of 64 x 32, each 4 x 4 mma tiles of
    //    16 x 8, K steps of 8.
    %mw, %mr, %t3 = transform.exogpu.divide_loop %cmp by 64 into "mw", "mr" tail "perfect" : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %mseq, %mm, %t4 = transform.exogpu.divide_loop %mr by 16 into "m_seq", "mm" tail "perfect" : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %ni3 = transform.exogpu.match iter "ni" in %mw : (!transform.any_op) -> !transform.any_op
    %nw, %nr, %t5 = transform.exogpu.divide_loop %ni3 by 32 into "nw", "nr" tail "perfect" : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %nseq, %nn, %t6 = transform.exogpu.divide_loop %nr by 8 into "n_seq", "nn" tail "perfect" : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %k0b = transform.exogpu.match iter "k0" in %mw : (!transform.any_op) -> !transform.any_op
    %kseq, %kk, %t7 = transform.exogpu.divide_loop %k0b by 8 into "k_seq", "kk" tail "perfect" : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %mm2 = transform.exogpu.match iter "mm" in %mw : (!transform.any_op) -> !transform.any_op
    %o1, %i1 = transform.exogpu.reorder_loops %mm2 : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %ms2 = transform.exogpu.match iter "m_seq" in %mw : (!transform.any_op) -> !transform.any_op
    %o2, %i2 = transform.exogpu.reorder_loops %ms2 : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %mm3 = transform.exogpu.match iter "mm" in %mw : (!transform.any_op) -> !transform.any_op
    %o3, %i3 = transform.exogpu.reorder_loops %mm3 : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %nn2 = transform.exogpu.match iter "nn" in %mw : (!transform.any_op) -> !transform.any_op
    %o4, %i4 = transform.exogpu.reorder_loops %nn2 : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %mm4 = transform.exogpu.match iter "mm" in %mw : (!transform.any_op) -> !transform.any_op
    %o5, %i5 = transform.exogpu.reorder_loops %mm4 : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // 6. Register tiles: the B operands of a warp (all K steps), the A
    //    operands of each 16-row slice; mma register layouts.
    %c6 = transform.exogpu.match label "compute" in %root : (!transform.any_op) -> !transform.any_op
    %ms6 = transform.exogpu.match iter "m_seq" in %c6 : (!transform.any_op) -> !transform.any_op
    %Br, %Brl, %Brs = transform.exogpu.stage_mem %ms6 window "B_smem[0 : 16, nw * 32 : nw * 32 + 32]" into "B_rmem" memory "Sm80_RmemMatrixB(8, 8)" : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.exogpu.set_label %Brl "load_b_rmem" : !transform.any_op
    %ns6 = transform.exogpu.match iter "n_seq" in %c6 : (!transform.any_op) -> !transform.any_op
    %Ar, %Arl, %Ars = transform.exogpu.stage_mem %ns6 window "A_smem[mw * 64 + m_seq * 16 : mw * 64 + m_seq * 16 + 16, 0 : 16]" into "A_rmem" memory "Sm80_RmemMatrixA(16, 8)" : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.exogpu.set_label %Arl "load_a_rmem" : !transform.any_op
    transform.exogpu.divide_dim %Ar dim 1 by 8 : !transform.any_op
    transform.exogpu.rearrange_dim %Ar [1, 0, 2] : !transform.any_op
    transform.exogpu.divide_dim %Br dim 0 by 8 : !transform.any_op
    transform.exogpu.divide_dim %Br dim 2 by 8 : !transform.any_op
    transform.exogpu.rearrange_dim %Br [0, 2, 3, 1] : !transform.any_op
    transform.exogpu.divide_dim %D dim 0 by 64 : !transform.any_op
    transform.exogpu.divide_dim %D dim 1 by 16 : !transform.any_op
    transform.exogpu.divide_dim %D dim 3 by 32 : !transform.any_op
    transform.exogpu.divide_dim %D dim 4 by 8 : !transform.any_op
    transform.exogpu.rearrange_dim %D [0, 3, 1, 4, 2, 5] : !transform.any_op
    // 7. The zeroing and the store follow the warp grid.
    %z7 = transform.exogpu.match iter "mi" in %root : (!transform.any_op) -> !transform.any_op
    transform.exogpu.set_label %z7 "zero" : !transform.any_op
    transform.exogpu.set_label %Dstore "store" : !transform.any_op
    transform.include @warp_grid failures(propagate) (%z7) : (!transform.any_op) -> ()
    transform.include @warp_grid failures(propagate) (%Dstore) : (!transform.any_op) -> ()
    // 8. Register loads in the shape of the load instructions.
    %la = transform.exogpu.match label "load_a_rmem" in %root : (!transform.any_op) -> !transform.any_op
    %la1 = transform.exogpu.match iter "i1" in %la : (!transform.any_op) -> !transform.any_op
    %ak, %akk, %t8 = transform.exogpu.divide_loop %la1 by 8 into "k_seq", "kk" tail "perfect" : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %la2, %la3 = transform.exogpu.reorder_loops %la : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %lb = transform.exogpu.match label "load_b_rmem" in %root : (!transform.any_op) -> !transform.any_op
    %lb1 = transform.exogpu.match iter "i1" in %lb : (!transform.any_op) -> !transform.any_op
    %bn, %bnn, %t9 = transform.exogpu.divide_loop %lb1 by 8 into "n_seq", "nn" tail "perfect" : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %bk, %bkk, %t10 = transform.exogpu.divide_loop %lb by 8 into "k_seq", "kk" tail "perfect" : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %r11a, %r11b = transform.exogpu.reorder_loops %bkk : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %r12a, %r12b = transform.exogpu.reorder_loops %bk : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %bkk2 = transform.exogpu.match iter "kk" in %r12a : (!transform.any_op) -> !transform.any_op
    %r13a, %r13b = transform.exogpu.reorder_loops %bkk2 : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.exogpu.simplify %root : !transform.any_op
    // 9. Instruction selection: each block is unified with an instruction
    //    body; the leading dimensions of the operand tiles are arguments.
    %zr = transform.exogpu.match label "zero" in %root : (!transform.any_op) -> !transform.any_op
    %zmm = transform.exogpu.match iter "mm" in %zr : (!transform.any_op) -> !transform.any_op
    %c9a = transform.exogpu.replace %zmm with @Sm80_mma_zero_d_tf32 : (!transform.any_op) -> !transform.any_op
    %cp = transform.exogpu.match label "compute" in %root : (!transform.any_op) -> !transform.any_op
    %cmm = transform.exogpu.match iter "mm" in %cp : (!transform.any_op) -> !transform.any_op
    %c9b = transform.exogpu.replace %cmm with @Sm80_mma_tf32 : (!transform.any_op) -> !transform.any_op
    %la9 = transform.exogpu.match label "load_a_rmem" in %root : (!transform.any_op) -> !transform.any_op
    %c9c = transform.exogpu.replace %la9 with @Sm80_mma_load_a_tf32 args {lda = "16"} : (!transform.any_op) -> !transform.any_op
    %lb9 = transform.exogpu.match label "load_b_rmem" in %root : (!transform.any_op) -> !transform.any_op
    %lbnn = transform.exogpu.match iter "nn" in %lb9 : (!transform.any_op) -> !transform.any_op
    %c9d = transform.exogpu.replace %lbnn with @Sm80_mma_load_b_tf32 args {ldb = "128"} : (!transform.any_op) -> !transform.any_op
    %st = transform.exogpu.match label "store" in %root : (!transform.any_op) -> !transform.any_op
    %smm = transform.exogpu.match iter "mm" in %st : (!transform.any_op) -> !transform.any_op
    %c9e = transform.exogpu.replace %smm with @Sm80_mma_store_d_tf32 args {ldd = "N"} : (!transform.any_op) -> !transform.any_op
    %ga = transform.exogpu.match label "load_a" in %root : (!transform.any_op) -> !transform.any_op
    %gai1 = transform.exogpu.match iter "i1" in %ga : (!transform.any_op) -> !transform.any_op
    %gk0, %gkv, %t14 = transform.exogpu.divide_loop %gai1 by 4 into "k0", "kv" tail "perfect" : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %c9f = transform.exogpu.replace %gkv with @Sm80_cp_async_f32x4 : (!transform.any_op) -> !transform.any_op
    %gm1, %gm0, %t15 = transform.exogpu.divide_loop %ga by 64 into "m1", "m0" tail "perfect" : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %gb = transform.exogpu.match label "load_b" in %root : (!transform.any_op) -> !transform.any_op
    %gbi1 = transform.exogpu.match iter "i1" in %gb : (!transform.any_op) -> !transform.any_op
    %gn0, %gnv, %t16 = transform.exogpu.divide_loop %gbi1 by 4 into "n0", "nv" tail "perfect" : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %c9g = transform.exogpu.replace %gnv with @Sm80_cp_async_f32x4 : (!transform.any_op) -> !transform.any_op
    %gks, %gkp, %t17 = transform.exogpu.divide_loop %gb by 8 into "k0_seq", "k0_par" tail "perfect" : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.exogpu.simplify %root : !transform.any_op
    // 10. Parallel loops: the warp grid, and the 256 threads of the copies
    //     (annotations: checked by the collective analysis).
    transform.include @warp_loops failures(propagate) (%zr) : (!transform.any_op) -> ()
    transform.include @warp_loops failures(propagate) (%cp) : (!transform.any_op) -> ()
    transform.include @warp_loops failures(propagate) (%st) : (!transform.any_op) -> ()
    %am0 = transform.exogpu.match iter "m0" in %root : (!transform.any_op) -> !transform.any_op
    transform.exogpu.set_loop_mode %am0 "cuda_threads" unit "4 * cuda_thread" : !transform.any_op
    %ak0 = transform.exogpu.match iter "k0" in %root : (!transform.any_op) -> !transform.any_op
    transform.exogpu.set_loop_mode %ak0 "cuda_threads" unit "cuda_thread" : !transform.any_op
    %bkp = transform.exogpu.match iter "k0_par" in %root : (!transform.any_op) -> !transform.any_op
    transform.exogpu.set_loop_mode %bkp "cuda_threads" unit "32 * cuda_thread" : !transform.any_op
    %bn0 = transform.exogpu.match iter "n0" in %root : (!transform.any_op) -> !transform.any_op
    transform.exogpu.set_loop_mode %bn0 "cuda_threads" unit "cuda_thread" : !transform.any_op
    // 11. Double buffering with one iteration of lag (software pipelining):
    //     a buffer per K step, the copies one iteration ahead of the mma,
    //     then a ring of 2 buffers; a fence per iteration.
    %As11 = transform.exogpu.match pattern "A_smem = alloc _" in %root : (!transform.any_op) -> !transform.any_op
    transform.exogpu.expand_dim %As11 size "K / 16" index "k1" : !transform.any_op
    transform.exogpu.lift_alloc %As11 : !transform.any_op
    %Bs11 = transform.exogpu.match pattern "B_smem = alloc _" in %root : (!transform.any_op) -> !transform.any_op
    transform.exogpu.expand_dim %Bs11 size "K / 16" index "k1" : !transform.any_op
    transform.exogpu.lift_alloc %Bs11 : !transform.any_op
    %lb11 = transform.exogpu.match label "load_b" in %root : (!transform.any_op) -> !transform.any_op
    %loads, %mmas = transform.exogpu.fission after %lb11 : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %mmas2 = transform.exogpu.shift_loop %mmas to "1" : (!transform.any_op) -> !transform.any_op
    %mmas3 = transform.exogpu.extend_loop %mmas2 to "0", "K / 16 + 1" : (!transform.any_op) -> !transform.any_op
    %loads2 = transform.exogpu.extend_loop %loads to "0", "K / 16 + 1" : (!transform.any_op) -> !transform.any_op
    %k11 = transform.exogpu.fuse %loads2, %mmas3 : (!transform.any_op, !transform.any_op) -> !transform.any_op
    transform.exogpu.resize_dim %As11 dim 0 size "2" fold : !transform.any_op
    transform.exogpu.resize_dim %Bs11 dim 0 size "2" fold : !transform.any_op
    %f11 = transform.exogpu.insert_fence %k11 at "end" "Sm80_generic", "Sm80_generic" : (!transform.any_op) -> !transform.any_op
    transform.exogpu.report_unsafe_steps %root : !transform.any_op
    transform.yield
  }
  // The warp grid of a nest: 2 x 4 warps.
  transform.named_sequence @warp_loops(%nest: !transform.any_op {transform.readonly}) {
    transform.exogpu.set_loop_mode %nest "cuda_threads" unit "4 * cuda_warp" : !transform.any_op
    %nw = transform.exogpu.match iter "nw" in %nest : (!transform.any_op) -> !transform.any_op
    transform.exogpu.set_loop_mode %nw "cuda_threads" unit "cuda_warp" : !transform.any_op
    transform.yield
  }
  // Divides a 128 x 128 nest (i, j) into the 2 x 4 grid of 64 x 32 warp
  // tiles of 4 x 4 mma tiles of 16 x 8: mw, nw, m_seq, n_seq, mm, nn.
  transform.named_sequence @warp_grid(%nest: !transform.any_op {transform.consumed}) {
    %mw, %mr, %t0 = transform.exogpu.divide_loop %nest by 64 into "mw", "mr" tail "perfect" : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %ms, %mm, %t1 = transform.exogpu.divide_loop %mr by 16 into "m_seq", "mm" tail "perfect" : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %j = transform.exogpu.get_body %mm : (!transform.any_op) -> !transform.any_op
    %nw, %nr, %t2 = transform.exogpu.divide_loop %j by 32 into "nw", "nr" tail "perfect" : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %ns, %nn, %t3 = transform.exogpu.divide_loop %nr by 8 into "n_seq", "nn" tail "perfect" : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %mm1 = transform.exogpu.match iter "mm" in %mw : (!transform.any_op) -> !transform.any_op
    %a, %b = transform.exogpu.reorder_loops %mm1 : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %ms1 = transform.exogpu.match iter "m_seq" in %mw : (!transform.any_op) -> !transform.any_op
    %c, %d = transform.exogpu.reorder_loops %ms1 : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %mm2 = transform.exogpu.match iter "mm" in %mw : (!transform.any_op) -> !transform.any_op
    %e, %f = transform.exogpu.reorder_loops %mm2 : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
