// The schedule from the naive GEMM (gemm_nt.mlir) to the warp-specialized
// Hopper TMA + wgmma kernel of examples/sm90a_gemm.mlir: the chain of
// equivalence of paper Sec. 2.3, every step a checked rewrite
// (transform.exogpu.*, docs/scheduling.md). Run it with the sm_90a
// instruction library:
//
//   exogpu-opt examples/schedules/gemm_nt.mlir \
//     --transform-preload-library=transform-library-paths=examples/schedules/sm90a_gemm_schedule.mlir \
//     --transform-interpreter
//
// The result passes --exogpu-collective-analysis, --exogpu-distributed-memory
// and --exogpu-sync-check (test/Examples/sm90a_gemm_schedule.test). It
// reports 0 unsafe steps: the tiles divide the problem (preconditions), so
// no guard has to go unchecked (paper Sec. 8: Exo's needed 4-5).

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    // 1. Cluster tiles of 256 x 256; the zeroing split from the
    //    accumulation; the kernel: clusters of 2 CTAs, 1 producer warp, 3
    //    unused warps, 2 consumer warpgroups (paper Fig. 3).
    %i = transform.exogpu.match iter "i" in %root : (!transform.any_op) -> !transform.any_op
    %mt, %mi, %t0 = transform.exogpu.divide_loop %i by 256 into "m_task", "mi" tail "perfect" : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %j = transform.exogpu.match iter "j" in %root : (!transform.any_op) -> !transform.any_op
    %nt, %nj, %t1 = transform.exogpu.divide_loop %j by 256 into "n_task", "nn" tail "perfect" : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %nt2, %mi2 = transform.exogpu.reorder_loops %mi : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %zero = transform.exogpu.match kind "assign" in %root : (!transform.any_op) -> !transform.any_op
    %zn, %kn = transform.exogpu.fission after %zero levels 2 : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %mt2 = transform.exogpu.match iter "m_task" in %root : (!transform.any_op) -> !transform.any_op
    %kernel = transform.exogpu.wrap_device_function %mt2 tasks 2 params_to "CudaGmemLinear" {clusterDim = 2, warps = [#exogpu.warp_group<"producer" = (1, 40, 0)>, #exogpu.warp_group<"unused" = (3, 40, 0)>, #exogpu.warp_group<"consumer" = (8, 0, 232)>]} : (!transform.any_op) -> !transform.any_op
    // 2. The accumulators: one 64 x 256 wgmma tile per warpgroup and CTA.
    %zn2 = transform.exogpu.match iter "mi" nth 0 in %root : (!transform.any_op) -> !transform.any_op
    transform.exogpu.set_label %zn2 "zero" : !transform.any_op
    %acc = transform.exogpu.get_block %zn2 count 2 : (!transform.any_op) -> !transform.any_op
    %D, %Dl, %Ds = transform.exogpu.stage_mem %acc window "C[m_task * 256 : m_task * 256 + 256, n_task * 256 : n_task * 256 + 256]" into "D" memory "Sm90_RmemMatrixD(64, 256)" : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.exogpu.set_label %Ds "store" : !transform.any_op
    transform.exogpu.divide_dim %D dim 0 by 128 : !transform.any_op
    transform.exogpu.divide_dim %D dim 1 by 64 : !transform.any_op
    // 3. K steps of 32 outermost; the CTA, warpgroup and wgmma K-step loops.
    %k = transform.exogpu.match iter "k" in %root : (!transform.any_op) -> !transform.any_op
    %k1, %k0, %t2 = transform.exogpu.divide_loop %k by 32 into "k", "kk" tail "perfect" : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %cmp = transform.exogpu.match iter "mi" nth 1 in %root : (!transform.any_op) -> !transform.any_op
    %nn3 = transform.exogpu.match iter "nn" in %cmp : (!transform.any_op) -> !transform.any_op
    %r1a, %r1b = transform.exogpu.reorder_loops %nn3 : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %r2a, %r2b = transform.exogpu.reorder_loops %cmp : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.exogpu.set_label %r2a "k_loop" : !transform.any_op
    transform.include @cta_wg failures(propagate) (%r2b) : (!transform.any_op) -> ()
    %kl = transform.exogpu.match label "k_loop" in %root : (!transform.any_op) -> !transform.any_op
    %kk = transform.exogpu.match iter "kk" in %kl : (!transform.any_op) -> !transform.any_op
    %kk1, %k8, %t3 = transform.exogpu.divide_loop %kk by 8 into "kk", "k8" tail "perfect" : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %nn4 = transform.exogpu.match iter "nn" in %kl : (!transform.any_op) -> !transform.any_op
    %r3a, %r3b = transform.exogpu.reorder_loops %nn4 : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %mm4 = transform.exogpu.match iter "mm" in %kl : (!transform.any_op) -> !transform.any_op
    %r4a, %r4b = transform.exogpu.reorder_loops %mm4 : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %zr = transform.exogpu.match label "zero" in %root : (!transform.any_op) -> !transform.any_op
    transform.include @cta_wg failures(propagate) (%zr) : (!transform.any_op) -> ()
    %st = transform.exogpu.match label "store" in %root : (!transform.any_op) -> !transform.any_op
    transform.include @cta_wg failures(propagate) (%st) : (!transform.any_op) -> ()
    transform.exogpu.simplify %root : !transform.any_op
    // 4. The A and B tiles of each K step in 128-byte swizzled shared
    //    memory, one per CTA and K step (a ring of 4 stages below).
    %kl4 = transform.exogpu.match label "k_loop" in %root : (!transform.any_op) -> !transform.any_op
    %wg4 = transform.exogpu.match iter "wg" in %kl4 : (!transform.any_op) -> !transform.any_op
    %As, %Al, %Ast = transform.exogpu.stage_mem %wg4 window "A[m_task * 256 + cta * 128 : m_task * 256 + cta * 128 + 128, k * 32 : k * 32 + 32]" into "A_smem" memory "Sm90_SmemSwizzled(128)" : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %Bs, %Bl, %Bst = transform.exogpu.stage_mem %wg4 window "B[n_task * 256 : n_task * 256 + 256, k * 32 : k * 32 + 32]" into "B_smem" memory "Sm90_SmemSwizzled(128)" : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.exogpu.set_label %Al "load_a" : !transform.any_op
    transform.exogpu.set_label %Bl "load_b" : !transform.any_op
    transform.include @stages failures(propagate) (%As) : (!transform.any_op) -> ()
    transform.include @stages failures(propagate) (%Bs) : (!transform.any_op) -> ()
    // 5. Instruction selection: wgmma, zeroing and store of the
    //    accumulators, TMA loads through tensor maps completing on the
    //    stage's `full` mbarrier.
    %mm5 = transform.exogpu.match iter "mm" in %kl4 : (!transform.any_op) -> !transform.any_op
    %c5a = transform.exogpu.replace %mm5 with @Sm90_mma_async_tf32_m64n256k8 : (!transform.any_op) -> !transform.any_op
    %zr5 = transform.exogpu.match label "zero" in %root : (!transform.any_op) -> !transform.any_op
    %zmm = transform.exogpu.match iter "mm" in %zr5 : (!transform.any_op) -> !transform.any_op
    %c5b = transform.exogpu.replace %zmm with @Sm90_zero_d_m64n256_f32 : (!transform.any_op) -> !transform.any_op
    %st5 = transform.exogpu.match label "store" in %root : (!transform.any_op) -> !transform.any_op
    %smm = transform.exogpu.match iter "mm" in %st5 : (!transform.any_op) -> !transform.any_op
    %c5c = transform.exogpu.replace %smm with @Sm90_store_d_m64n256_f32 args {ldd = "N"} : (!transform.any_op) -> !transform.any_op
    %full = transform.exogpu.insert_barrier_alloc %zr5 at "before" "full" [2] "CudaMbarrier" : (!transform.any_op) -> !transform.any_op
    %empty = transform.exogpu.insert_barrier_alloc %zr5 at "before" "empty" [2] "CudaMbarrier" : (!transform.any_op) -> !transform.any_op
    %cg = transform.exogpu.insert_barrier_alloc %zr5 at "before" "cg" [2, 2] "CudaCommitGroup" : (!transform.any_op) -> !transform.any_op
    %Amap = transform.exogpu.bind_window %Al buffer "A" into "A_map" special "Sm90_tensorMap(128, 128, 32)" : (!transform.any_op) -> !transform.any_op
    %Bmap = transform.exogpu.bind_window %Bl buffer "B" into "B_map" special "Sm90_tensorMap(128, 256, 32)" : (!transform.any_op) -> !transform.any_op
    %tmaA = transform.exogpu.replace %Al with @Sm90_tma_load_128x32_f32 barrier "full[cta]" : (!transform.any_op) -> !transform.any_op
    %tmaB = transform.exogpu.replace %Bl with @Sm90_tma_load_256x32_f32 barrier "full[cta]" : (!transform.any_op) -> !transform.any_op
    // 6. Warp specialization: the loads and the wgmmas in separate CTA
    //    loops, run by the producer warp and the consumer warpgroups.
    %prod, %cons = transform.exogpu.fission after %tmaB : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %tmas = transform.exogpu.get_body %prod : (!transform.any_op) -> !transform.any_op
    %t = transform.exogpu.add_loop %tmas "t" to "1" : (!transform.any_op) -> !transform.any_op
    transform.exogpu.set_loop_mode %t "cuda_threads" unit "cuda_thread" : !transform.any_op
    %ctas = transform.exogpu.match iter "cta" in %root : (!transform.any_op) -> !transform.any_op
    transform.foreach %ctas : !transform.any_op {
    ^bb0(%c: !transform.any_op):
      transform.exogpu.set_loop_mode %c "cuda_threads" unit "cuda_cta_in_cluster" : !transform.any_op
    }
    %wgs = transform.exogpu.match iter "wg" in %root : (!transform.any_op) -> !transform.any_op
    transform.foreach %wgs : !transform.any_op {
    ^bb0(%w: !transform.any_op):
      transform.exogpu.set_loop_mode %w "cuda_threads" unit "cuda_warpgroup" : !transform.any_op
    }
    %zr6 = transform.exogpu.match label "zero" in %root : (!transform.any_op) -> !transform.any_op
    %st6 = transform.exogpu.match label "store" in %root : (!transform.any_op) -> !transform.any_op
    %w1 = transform.exogpu.wrap_warps %zr6 name "consumer" : (!transform.any_op) -> !transform.any_op
    %w2 = transform.exogpu.wrap_warps %prod name "producer" : (!transform.any_op) -> !transform.any_op
    %w3 = transform.exogpu.wrap_warps %cons name "consumer" : (!transform.any_op) -> !transform.any_op
    %w4 = transform.exogpu.wrap_warps %st6 name "consumer" : (!transform.any_op) -> !transform.any_op
    // 7. Synchronization (checked afterwards by the synchronization check):
    //    the full/empty mbarrier ring between producer and consumers (ring
    //    lag 4: await N = -5), wgmma.fence and one wgmma commit group in
    //    flight per warpgroup, the drain before the store, and a cluster
    //    fence before the compiler frees the stages.
    %aw1 = transform.exogpu.insert_await %t at "start" "empty[cta]" "cuda_generic_and_async" count -5 : (!transform.any_op) -> !transform.any_op
    %ar1 = transform.exogpu.insert_arrive %t at "end" "tma_to_smem_async" count 1 to ["full[cta]"] : (!transform.any_op) -> !transform.any_op
    %aw2 = transform.exogpu.insert_await %cons at "start" "full[cta]" "cuda_async_proxy_wgmma" count -1 : (!transform.any_op) -> !transform.any_op
    %cwg = transform.exogpu.match iter "wg" in %cons : (!transform.any_op) -> !transform.any_op
    %f1 = transform.exogpu.insert_fence %cwg at "start" "wgmma_fence_1", "wgmma_fence_2" : (!transform.any_op) -> !transform.any_op
    %ar2 = transform.exogpu.insert_arrive %cwg at "end" "wgmma_async" count 1 to ["cg[cta, wg]"] : (!transform.any_op) -> !transform.any_op
    %aw3 = transform.exogpu.insert_await %cwg at "end" "cg[cta, wg]" "cuda_in_order" count 1 : (!transform.any_op) -> !transform.any_op
    %ar3 = transform.exogpu.insert_arrive %cons at "end" "cuda_generic_and_async" count 1 to ["empty[cta]"] guard "k > 0" : (!transform.any_op) -> !transform.any_op
    %swg = transform.exogpu.match iter "wg" in %st6 : (!transform.any_op) -> !transform.any_op
    %aw4 = transform.exogpu.insert_await %swg at "start" "cg[cta, wg]" "cuda_in_order" count 0 : (!transform.any_op) -> !transform.any_op
    %ar4 = transform.exogpu.insert_arrive %st6 at "end" "cuda_generic_and_async" count 1 to ["empty[cta]"] : (!transform.any_op) -> !transform.any_op
    %ntask = transform.exogpu.match iter "n_task" in %root : (!transform.any_op) -> !transform.any_op
    %f2 = transform.exogpu.insert_fence %ntask at "end" "cuda_generic_and_async", "cuda_in_order" : (!transform.any_op) -> !transform.any_op
    // 8. A ring of 4 stages.
    transform.exogpu.resize_dim %As dim 1 size "4" fold : !transform.any_op
    transform.exogpu.resize_dim %Bs dim 1 size "4" fold : !transform.any_op
    transform.exogpu.report_unsafe_steps %root : !transform.any_op
    transform.yield
  }
  // One shared-memory stage per CTA of the cluster and per K step:
  // stage[cta, k, ...].
  transform.named_sequence @stages(%alloc: !transform.any_op {transform.readonly}) {
    transform.exogpu.expand_dim %alloc size "2" index "cta" : !transform.any_op
    transform.exogpu.lift_alloc %alloc : !transform.any_op
    transform.exogpu.expand_dim %alloc size "K / 32" index "k" : !transform.any_op
    transform.exogpu.lift_alloc %alloc : !transform.any_op
    transform.exogpu.rearrange_dim %alloc [1, 0, 2, 3] : !transform.any_op
    transform.yield
  }
  // Divides a loop over 256 rows into the 2 CTAs of a cluster, the 2
  // consumer warpgroups of a CTA and the 64 rows of a wgmma tile.
  transform.named_sequence @cta_wg(%rows: !transform.any_op {transform.consumed}) {
    %cta, %r, %t0 = transform.exogpu.divide_loop %rows by 128 into "cta", "r" tail "perfect" : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %wg, %mm, %t1 = transform.exogpu.divide_loop %r by 64 into "wg", "mm" tail "perfect" : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}
