"""The schedule from the naive GEMM (gemm_nn.py) to the sm_80 cp.async +
mma.sync kernel, in Python: the steps of sm80_gemm_schedule.mlir, each a
checked rewrite (exogpu.scheduling, docs/scheduling.md "sm_80"), and the
same kernel (test/Python/test_schedules.py compares the two).

    python3 examples/schedules/sm80_gemm_schedule.py   # prints the kernel
"""

from __future__ import annotations

from exogpu.lang import *
from exogpu.scheduling import *
from exogpu.stdlib import sm80

from gemm_nn import gemm_sm80 as gemm_nn


def warp_grid(p, nest):
    """The zeroing and the store of the accumulators follow the warp grid
    of the mmas: mw, nw, m_seq, n_seq, mm, nn."""
    p = divide_loop(p, nest, 64, ["mw", "mr"], perfect=True)
    p = divide_loop(p, "mr", 16, ["m_seq", "mm"], perfect=True)
    p = divide_loop(p, nest.find("mm").body(), 32, ["nw", "nr"],
                    perfect=True)
    p = divide_loop(p, "nr", 8, ["n_seq", "nn"], perfect=True)
    p = reorder_loops(p, nest.find("mm"))
    p = reorder_loops(p, nest.find("m_seq"))
    return reorder_loops(p, nest.find("mm"))


def warp_loops(p, nest):
    """The warp grid as parallel loops: 4 warps along M, 2 along N."""
    p = set_loop_mode(p, nest, cuda_threads, 4 * cuda_warp)
    return set_loop_mode(p, nest.find("nw"), cuda_threads, cuda_warp)


def schedule(g):
    # 1. CTA tiles of 128 x 128, the zeroing split from the accumulation,
    #    a kernel of 256 threads.
    g = divide_loop(g, "i", 128, ["m2", "mi"], perfect=True)
    g = divide_loop(g, "j", 128, ["n2", "ni"], perfect=True)
    g = reorder_loops(g, "mi")
    g = fission(g, kind("assign"), n_lifts=2)
    g = wrap_device_function(g, "m2", tasks=2, blockDim=256,
                             params_to=CudaGmemLinear)

    # 2. The accumulator tile in registers (no load: the zeroing
    #    overwrites it).
    g = stage_mem(g, as_cursor("mi #0").block(2),
                  "C[m2 * 128 : m2 * 128 + 128, n2 * 128 : n2 * 128 + 128]",
                  "D_rmem", Sm80_RmemMatrixD(16, 8), store_label="store")

    # 3. K steps of 16 outermost (reductions commute).
    g = divide_loop(g, "k", 16, ["k1", "k0"], perfect=True)
    g = reorder_loops(g, "ni #1")
    g = reorder_loops(g, "mi #1")
    g = set_label(g, "mi #1", "compute")

    # 4. The A and B tiles of a K step in shared memory.
    g = stage_mem(g, label("compute"),
                  "A[m2 * 128 : m2 * 128 + 128, k1 * 16 : k1 * 16 + 16]",
                  "A_smem", CudaSmemLinear, load_label="load_a")
    g = stage_mem(g, label("compute"),
                  "B[k1 * 16 : k1 * 16 + 16, n2 * 128 : n2 * 128 + 128]",
                  "B_smem", CudaSmemLinear, load_label="load_b")

    # 5. The warp grid: mw, nw, m_seq, n_seq, k_seq, mm, nn, kk.
    compute = label("compute")
    g = divide_loop(g, compute, 64, ["mw", "mr"], perfect=True)
    g = divide_loop(g, "mr", 16, ["m_seq", "mm"], perfect=True)
    g = divide_loop(g, compute.find("ni"), 32, ["nw", "nr"], perfect=True)
    g = divide_loop(g, "nr", 8, ["n_seq", "nn"], perfect=True)
    g = divide_loop(g, compute.find("k0"), 8, ["k_seq", "kk"], perfect=True)
    for loop in ("mm", "m_seq", "mm", "nn", "mm"):
        g = reorder_loops(g, compute.find(loop))

    # 6. The mma operands in registers, in the layouts of the mma
    #    instructions.
    g = stage_mem(g, compute.find("m_seq"),
                  "B_smem[0 : 16, nw * 32 : nw * 32 + 32]",
                  "B_rmem", Sm80_RmemMatrixB(8, 8), load_label="load_b_rmem")
    g = stage_mem(g, compute.find("n_seq"),
                  "A_smem[mw * 64 + m_seq * 16 : mw * 64 + m_seq * 16 + 16, "
                  "0 : 16]",
                  "A_rmem", Sm80_RmemMatrixA(16, 8), load_label="load_a_rmem")
    g = divide_dim(g, "A_rmem", 1, 8)
    g = rearrange_dim(g, "A_rmem", [1, 0, 2])
    g = divide_dim(g, "B_rmem", 0, 8)
    g = divide_dim(g, "B_rmem", 2, 8)
    g = rearrange_dim(g, "B_rmem", [0, 2, 3, 1])
    for dim, quotient in ((0, 64), (1, 16), (3, 32), (4, 8)):
        g = divide_dim(g, "D_rmem", dim, quotient)
    g = rearrange_dim(g, "D_rmem", [0, 3, 1, 4, 2, 5])

    # 7. Zeroing and store follow the warp grid.
    g = set_label(g, "mi", "zero")
    g = warp_grid(g, label("zero"))
    g = warp_grid(g, label("store"))

    # 8. The register loads in the loop structure of the load
    #    instructions.
    g = divide_loop(g, label("load_a_rmem").find("i1"), 8, ["k_seq", "kk"],
                    perfect=True)
    g = reorder_loops(g, label("load_a_rmem"))
    g = divide_loop(g, label("load_b_rmem").find("i1"), 8, ["n_seq", "nn"],
                    perfect=True)
    g = divide_loop(g, label("load_b_rmem"), 8, ["k_seq", "kk"],
                    perfect=True)
    g = reorder_loops(g, label("load_b_rmem").find("kk"))
    g = reorder_loops(g, label("load_b_rmem"))
    g = reorder_loops(g, label("load_b_rmem").find("kk"))
    g = simplify(g)

    # 9. Instruction selection; the shared-memory loads in 16-byte
    #    cp.async pieces.
    g = replace(g, label("zero").find("mm"), sm80.Sm80_mma_zero_d_tf32)
    g = replace(g, compute.find("mm"), sm80.Sm80_mma_tf32)
    g = replace(g, label("load_a_rmem"), sm80.Sm80_mma_load_a_tf32,
                args={"lda": 16})
    g = replace(g, label("load_b_rmem").find("nn"), sm80.Sm80_mma_load_b_tf32,
                args={"ldb": 128})
    g = replace(g, label("store").find("mm"), sm80.Sm80_mma_store_d_tf32,
                args={"ldd": "N"})
    g = divide_loop(g, label("load_a").find("i1"), 4, ["k0", "kv"],
                    perfect=True)
    g = replace(g, label("load_a").find("kv"), sm80.Sm80_cp_async_f32x4)
    g = divide_loop(g, label("load_a"), 64, ["m1", "m0"], perfect=True)
    g = divide_loop(g, label("load_b").find("i1"), 4, ["n0", "nv"],
                    perfect=True)
    g = replace(g, label("load_b").find("nv"), sm80.Sm80_cp_async_f32x4)
    g = divide_loop(g, label("load_b"), 8, ["k0_seq", "k0_par"], perfect=True)
    g = simplify(g)

    # 10. Parallel loops: the warp grid and the copies over 256 threads.
    g = warp_loops(g, label("zero"))
    g = warp_loops(g, compute)
    g = warp_loops(g, label("store"))
    g = set_loop_mode(g, "m0", cuda_threads, 4 * cuda_thread)
    g = set_loop_mode(g, "k0", cuda_threads, cuda_thread)
    g = set_loop_mode(g, "k0_par", cuda_threads, 32 * cuda_thread)
    g = set_loop_mode(g, "n0", cuda_threads, cuda_thread)

    # 11. Software pipelining: a shared tile per K step, copies of step k1
    #     overlapped with the mmas of step k1 - 1, a ring of two tiles and
    #     the fence that ends each step.
    for tile in ("A_smem", "B_smem"):
        g = expand_dim(g, tile, "K / 16", "k1")
        g = lift_alloc(g, tile)
    g = fission(g, label("load_b"))
    g = shift_loop(g, "k1 #1", 1)
    g = extend_loop(g, "k1 #1", 0, "K / 16 + 1")
    g = extend_loop(g, "k1 #0", 0, "K / 16 + 1")
    g = fuse(g, "k1 #0", "k1 #1")
    g = resize_dim(g, "A_smem", 0, 2, fold=True)
    g = resize_dim(g, "B_smem", 0, 2, fold=True)
    return insert_fence(g, "k1", "end", Sm80_generic, Sm80_generic)


gemm_sm80 = schedule(gemm_nn)

if __name__ == "__main__":
    print(gemm_sm80.mlir(), end="")
