"""The schedule from the naive GEMM (gemm_nt.py) to the warp-specialized
Hopper TMA + wgmma kernel, in Python: the steps of sm90a_gemm_schedule.mlir,
each a checked rewrite (exogpu.scheduling, docs/scheduling.md), and the
same kernel (test/Python/test_schedules.py compares the two). The chain of
equivalence of paper Sec. 2.3: the naive proc p1, the rewrites p1 -> ... ->
pN, each preserving the sequential meaning, and the synchronization check
of pN.

    python3 examples/schedules/sm90a_gemm_schedule.py   # prints the kernel
"""

from __future__ import annotations

from exogpu.lang import *
from exogpu.scheduling import *
from exogpu.stdlib import sm90a

from gemm_nt import gemm_sm90a as gemm_nt

# Fig. 3: 1 producer warp, 3 unused warps, 2 consumer warpgroups per CTA.
warp_config = [
    CudaWarpConfig("producer", 1, 40, 0),
    CudaWarpConfig("unused", 3, 40, 0),
    CudaWarpConfig("consumer", 8, 0, 232)]


def cta_wg(p, rows):
    """Divides a loop over 256 rows into the 2 CTAs of a cluster, the 2
    consumer warpgroups of a CTA and the 64 rows of a wgmma tile."""
    p = divide_loop(p, rows, 128, ["cta", "r"], perfect=True)
    return divide_loop(p, "r", 64, ["wg", "mm"], perfect=True)


def stages(p, buffer):
    """One shared-memory stage per CTA of the cluster and per K step:
    stage[cta, k, ...]."""
    p = expand_dim(p, buffer, 2, "cta")
    p = lift_alloc(p, buffer)
    p = expand_dim(p, buffer, "K / 32", "k")
    p = lift_alloc(p, buffer)
    return rearrange_dim(p, buffer, [1, 0, 2, 3])


def schedule(g):
    # 1. Cluster tiles of 256 x 256; the zeroing split from the
    #    accumulation; the kernel: clusters of 2 CTAs with the warp config.
    g = divide_loop(g, "i", 256, ["m_task", "mi"], perfect=True)
    g = divide_loop(g, "j", 256, ["n_task", "nn"], perfect=True)
    g = reorder_loops(g, "mi")
    g = fission(g, kind("assign"), n_lifts=2)
    g = wrap_device_function(g, "m_task", tasks=2, clusterDim=2,
                             warp_config=warp_config,
                             params_to=CudaGmemLinear)

    # 2. The accumulators: one 64 x 256 wgmma tile per warpgroup and CTA.
    g = set_label(g, "mi #0", "zero")
    g = stage_mem(g, label("zero").block(2),
                  "C[m_task * 256 : m_task * 256 + 256, "
                  "n_task * 256 : n_task * 256 + 256]",
                  "D", Sm90_RmemMatrixD(64, 256), store_label="store")
    g = divide_dim(g, "D", 0, 128)
    g = divide_dim(g, "D", 1, 64)

    # 3. K steps of 32 outermost; the CTA, warpgroup and wgmma K-step
    #    loops.
    g = divide_loop(g, "k", 32, ["k", "kk"], perfect=True)
    g = reorder_loops(g, as_cursor("mi #1").find("nn"))
    g = reorder_loops(g, "mi #1")
    g = set_label(g, "k", "k_loop")
    g = cta_wg(g, label("k_loop").find("mi"))
    g = divide_loop(g, label("k_loop").find("kk"), 8, ["kk", "k8"],
                    perfect=True)
    g = reorder_loops(g, label("k_loop").find("nn"))
    g = reorder_loops(g, label("k_loop").find("mm"))
    g = cta_wg(g, label("zero"))
    g = cta_wg(g, label("store"))
    g = simplify(g)

    # 4. The A and B tiles of each K step in 128-byte swizzled shared
    #    memory, one per CTA and K step (a ring of 4 stages below).
    g = stage_mem(g, label("k_loop").find("wg"),
                  "A[m_task * 256 + cta * 128 : m_task * 256 + cta * 128 + "
                  "128, k * 32 : k * 32 + 32]",
                  "A_smem", Sm90_SmemSwizzled(128), load_label="load_a")
    g = stage_mem(g, label("k_loop").find("wg"),
                  "B[n_task * 256 : n_task * 256 + 256, k * 32 : k * 32 + 32]",
                  "B_smem", Sm90_SmemSwizzled(128), load_label="load_b")
    g = stages(g, "A_smem")
    g = stages(g, "B_smem")

    # 5. Instruction selection: wgmma, zeroing and store of the
    #    accumulators, TMA loads through tensor maps completing on the
    #    stage's `full` mbarrier.
    g = replace(g, label("k_loop").find("mm"),
                sm90a.Sm90_mma_async_tf32_m64n256k8)
    g = replace(g, label("zero").find("mm"), sm90a.Sm90_zero_d_m64n256_f32)
    g = replace(g, label("store").find("mm"), sm90a.Sm90_store_d_m64n256_f32,
                args={"ldd": "N"})
    g = insert_barrier_alloc(g, label("zero"), "before", "full", [2],
                             CudaMbarrier)
    g = insert_barrier_alloc(g, label("zero"), "before", "empty", [2],
                             CudaMbarrier)
    g = insert_barrier_alloc(g, label("zero"), "before", "cg", [2, 2],
                             CudaCommitGroup)
    g = bind_window(g, label("load_a"), "A", "A_map",
                    Sm90_tensorMap(128, 128, 32))
    g = bind_window(g, label("load_b"), "B", "B_map",
                    Sm90_tensorMap(128, 256, 32))
    g = replace(g, label("load_a"), sm90a.Sm90_tma_load_128x32_f32,
                barrier="full[cta]")
    g = replace(g, label("load_b"), sm90a.Sm90_tma_load_256x32_f32,
                barrier="full[cta]")

    # 6. Warp specialization: the loads and the wgmmas in separate CTA
    #    loops, run by the producer warp and the consumer warpgroups.
    producer = label("k_loop").find("cta #0")
    consumer = label("k_loop").find("cta #1")
    g = fission(g, "Sm90_tma_load_256x32_f32(_)")
    g = add_loop(g, producer.body(), "t", 1)
    g = set_loop_mode(g, "t", cuda_threads, cuda_thread)
    g = set_loop_mode(g, every("cta"), cuda_threads, cuda_cta_in_cluster)
    g = set_loop_mode(g, every("wg"), cuda_threads, cuda_warpgroup)
    g = wrap_warps(g, label("zero"), name="consumer")
    g = wrap_warps(g, producer, name="producer")
    g = wrap_warps(g, consumer, name="consumer")
    g = wrap_warps(g, label("store"), name="consumer")

    # 7. Synchronization (checked afterwards by the synchronization check):
    #    the full/empty mbarrier ring between producer and consumers (ring
    #    lag 4: ~4), wgmma.fence and one wgmma commit group in flight per
    #    warpgroup, the drain before the store, and a cluster fence before
    #    the compiler frees the stages.
    g = insert_await(g, "t", "start", "empty[cta]", cuda_generic_and_async,
                     ~4)
    g = insert_arrive(g, "t", "end", tma_to_smem_async, 1, ["full[cta]"])
    g = insert_await(g, consumer, "start", "full[cta]",
                     cuda_async_proxy_wgmma, ~0)
    g = insert_fence(g, consumer.find("wg"), "start", wgmma_fence_1,
                     wgmma_fence_2)
    g = insert_arrive(g, consumer.find("wg"), "end", wgmma_async, 1,
                      ["cg[cta, wg]"])
    g = insert_await(g, consumer.find("wg"), "end", "cg[cta, wg]",
                     cuda_in_order, 1)
    g = insert_arrive(g, consumer, "end", cuda_generic_and_async, 1,
                      ["empty[cta]"], guard="k > 0")
    g = insert_await(g, label("store").find("wg"), "start", "cg[cta, wg]",
                     cuda_in_order, 0)
    g = insert_arrive(g, label("store"), "end", cuda_generic_and_async, 1,
                      ["empty[cta]"])
    g = insert_fence(g, "n_task", "end", cuda_generic_and_async,
                     cuda_in_order)

    # 8. A ring of 4 stages.
    g = resize_dim(g, "A_smem", 1, 4, fold=True)
    return resize_dim(g, "B_smem", 1, 4, fold=True)


gemm_sm90a = schedule(gemm_nt)

if __name__ == "__main__":
    print(gemm_sm90a.mlir(), end="")
