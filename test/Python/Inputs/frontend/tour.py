"""Constructs of the frontend's language the examples do not use
(test_frontend.py checks the text each becomes, and that the tools accept
it)."""

from __future__ import annotations

from exogpu.lang import *

TILE = 128  # a module constant in control expressions
RING = 4


@instr(cuda="{dst.0} = {src.0} * 2.0f;", unit=cuda_thread)
def double1(dst: f32[1] @ CudaRmem,
            src: f32[1] @ CudaGmemLinear @ Arg(init=cuda_in_order_ram_qual)):
    """An instruction written in Python: its body is its meaning."""
    dst[0] = src[0] * 2.0


# Sm90_tma_load_128x32_f32 of stdlib/sm90a.mlir, written in Python
# (test_frontend.py compares the two): a special-window parameter, out of
# order accesses on the TMA timeline, a completion barrier.
TMA_QUAL = Arg(out_of_order=True, init=tma_to_smem_async_qual,
               ext=[tma_to_smem_async_qual])


@instr(cuda='asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.'
            'tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" '
            ':: "r"((unsigned)__cvta_generic_to_shared({dst})), '
            '"l"(&{src.map}), "r"({src.c1}), "r"({src.c0}), '
            '"r"((unsigned)__cvta_generic_to_shared({bar})) : "memory");',
       unit=cuda_thread, barrier=CudaMbarrier)
def tma_load_128x32(
        dst: f32[128, 32] @ Sm90_SmemSwizzled(128) @ TMA_QUAL,
        src: [f32][128, 32] @ CudaGmemLinear @ Sm90_tensorMap(128, 128, 32)
        @ TMA_QUAL):
    for i in seq(0, 128):
        for j in seq(0, 32):
            dst[i, j] = src[i, j]


@proc
def host_tour(N: size, i0: index, flag: bool, h: f32[N] @ DRAM,
              g: f32[N] @ DRAM):
    assert N % TILE == 0 and N >= TILE or N == 1
    assert N > 0 or flag
    for i in seq(0, N // 2):
        h[i] = 2.0 * h[i] - h[i] / 3.0 + max(h[i], -0.5)
        g[i] += exp2(h[i]) * log2(h[i] + 1e-05)
    if i0 < N:
        h[i0] = 1
    else:
        h[0] = -1.5
    if 0 <= i0 < N - 1 and i0 != 3:
        h[i0 + 1] = h[(i0 + 1) % 7]
    if flag:
        g[0] = 0.0
    t: f32 @ DRAM
    t = h[0]
    t += g[0]
    h[1] = t


@proc
def device_tour(N: size, x: f32[N] @ CudaGmemLinear):
    assert N % TILE == 0
    with CudaDeviceFunction(blockDim=TILE):
        for task in cuda_tasks(0, N / TILE):
            chunk = x[task * TILE:task * TILE + TILE]
            ring: barrier[RING] @ CudaMbarrier(guarded=True)
            bar: barrier @ CudaMbarrier
            for t in cuda_threads(0, TILE, unit=cuda_thread):
                acc: f32[1] @ CudaRmem
                double1(acc[:], chunk[t:t + 1])
                with CudaAsync(wgmma_async):
                    chunk[t] = acc[0] + 1.0
            Arrive(cuda_in_order) >> bar
            Await(bar, cuda_in_order)
            Fence(cuda_in_order, cuda_in_order)


def make_scaled(factor):
    """A proc made by a function: the closure's values are constants."""

    @proc
    def scaled(N: size, h: f32[N] @ DRAM):
        for i in seq(0, N):
            h[i] = h[i] * factor
    return scaled


scaled_by_3 = make_scaled(3.0)


# Fig. 3 with warps selected by range inside a named group.
quad_config = [CudaWarpConfig("producer", 4, 40, 0),
               CudaWarpConfig("consumer", 4, 0, 232)]


@proc
def host_and_kernels(N: size, x: f32[N] @ CudaGmemLinear):
    """Host code around two kernels, one launched from a host loop, and a
    proc call."""
    assert N % 256 == 0
    tmp: f32[N] @ CudaGmemLinear
    for rep in seq(0, 2):
        with CudaDeviceFunction(blockDim=TILE):
            for task in cuda_tasks(0, N / TILE):
                for t in cuda_threads(0, TILE, unit=cuda_thread):
                    tmp[task * TILE + t] = x[task * TILE + t] + 1.0
    with CudaDeviceFunction(warp_config=quad_config):
        for task in cuda_tasks(0, N / 256):
            with CudaWarps(0, 4, name="consumer"):
                with CudaWarps(1, 2):
                    for t in cuda_threads(0, 32, unit=cuda_thread):
                        x[task * 256 + t] = tmp[task * 256 + t]
    h: f32[N] @ DRAM
    scaled_by_3(N, h)


@proc
def first_chunk(M: size, S: size, KC: size,
                A: f32[M, S, KC] @ CudaGmemLinear,
                out: f32[M, KC] @ CudaGmemLinear):
    """Takes A as S chunks of KC columns (as the split-k GEMM does)."""
    assert M % TILE == 0
    with CudaDeviceFunction(blockDim=TILE):
        for task in cuda_tasks(0, M / TILE):
            for t in cuda_threads(0, TILE, unit=cuda_thread):
                for k in seq(0, KC):
                    out[task * TILE + t, k] = A[task * TILE + t, 0, k]


@proc
def split_tour(M: size, K: size, A: f32[M, K] @ CudaGmemLinear,
               out: f32[M, TILE] @ CudaGmemLinear, H: f32[16, 64] @ DRAM):
    """Splits (keyword, positional and mixed arguments, a module constant)
    of a parameter with a dynamic extent, of a static buffer and of a
    window; a tensor map and a window of a split, a call with one."""
    assert M % TILE == 0 and K % TILE == 0
    A_chunks = split(A, dim=1, by=TILE)
    A_map = A_chunks[:, :, :] @ Sm90_tensorMap(128, 128, 1, 32)
    first_chunk(M, K / TILE, TILE, A_chunks, out)
    H_rows = split(H, 0, 4)
    quarter = H_rows[1, :, :]
    pairs = split(quarter, 1, by=2)
    pairs[0, 0, 1] = H_rows[0, 0, 0]
