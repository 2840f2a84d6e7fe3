#!/usr/bin/env python3
"""Lowering fuzzer of the CUDA translation's synchronization (issue 30).

Generates random kernels from synchronization patterns (Fences of
collectives of every shape: warps, warpgroups, strided and partial
collectives, several CTAs; mbarrier handoffs with elected and partial-warp
awaits, relays, multicast arrives to the whole cluster or to part of it;
cp.async with fences and commit groups; TMA loads and stores; wgmma with
commit groups and stage releases), in clusters of 1, 2 and 4 CTAs, with and
without warp specialization. Every kernel the synchronization check accepts
(`exogpu-opt --exogpu-sync-check`) is translated (`exogpu-translate
--to-cuda`), which validates the lowered synchronization
(docs/cuda-translation.md "Validation"). A finding is a kernel the check
accepts whose translation

  * is refused by the validator ("cannot justify the lowering"): the
    lowering would race, read stale data or hang, or the validator cannot
    justify a sound plan;
  * fails with an internal error, crashes, or runs past the timeout;
  * with --nvcc, does not compile.

A translation that refuses a construct it does not lower (a diagnostic
that is not the validator's) is counted as unsupported, not a finding.
Each finding is written to --out with the command and the message, and
classified by the missing operation the validator names.

Usage: utils/fuzz-lowering.py [--build build] [--seconds 60] [--seed N]
                              [--count N] [--out fuzz-lowering-findings]
                              [--nvcc] [--timeout 20] [--quiet]
                              [--faults relaxed-peer-arrives,...]
Exit status 1 when something was found.
"""

import argparse
import collections
import pathlib
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent

# Test instructions: the memories and timelines of the stdlib's, with
# templates ptxas accepts.
INSTRS = {
    "cp_async": r'''exogpu.instr @cp_async(%dst: f32[1] @CudaSmemLinear {out_of_order, init = Sm80_cp_async_qual, ext = [Sm80_cp_async_qual]}, %src: f32[1] @CudaGmemLinear {out_of_order, init = Sm80_cp_async_qual, ext = [Sm80_cp_async_qual]})
    target = cuda, unit = cuda_thread, cuda = "asm volatile(\22cp.async.ca.shared.global [%0], [%1], 4;\22 :: \22r\22(exo::smem_address({dst})), \22l\22({src}) : \22memory\22);" {
  exogpu.assign %dst[0] = %src[0] : f32[1] @CudaSmemLinear, f32[1] @CudaGmemLinear
}''',
    "tma_store": r'''exogpu.instr @tma_store(%dst: window f32[16] @CudaGmemLinear @Sm90_tensorMap(0, 16) {out_of_order, init = tma_to_gmem_async_qual, ext = [tma_to_gmem_async_qual]}, %src: f32[16] @CudaSmemLinear {out_of_order, init = tma_to_gmem_async_qual, ext = [tma_to_gmem_async_qual]})
    target = cuda, unit = cuda_thread, cuda = "asm volatile(\22cp.async.bulk.tensor.1d.global.shared::cta.tile.bulk_group [%0, {%1}], [%2];\22 :: \22l\22(&{dst.map}), \22r\22({dst.c0}), \22r\22(exo::smem_address({src})) : \22memory\22);" {
  exogpu.for %i in seq(0, 16) {
    exogpu.assign %dst[%i] = %src[%i] : window f32[16] @CudaGmemLinear @Sm90_tensorMap(0, 16), f32[16] @CudaSmemLinear
  }
}''',
    "tma_load": r'''exogpu.instr @tma_load(%dst: f32[16] @CudaSmemLinear {out_of_order, init = tma_to_smem_async_qual, ext = [tma_to_smem_async_qual]}, %src: window f32[16] @CudaGmemLinear @Sm90_tensorMap(0, 16) {out_of_order, init = tma_to_smem_async_qual, ext = [tma_to_smem_async_qual]})
    target = cuda, unit = cuda_thread, barrier = @CudaMbarrier, cuda = "asm volatile(\22cp.async.bulk.tensor.1d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2}], [%3];\22 :: \22r\22(exo::smem_address({dst})), \22l\22(&{src.map}), \22r\22({src.c0}), \22r\22(exo::smem_address({bar})) : \22memory\22);" {
  exogpu.for %i in seq(0, 16) {
    exogpu.assign %dst[%i] = %src[%i] : f32[16] @CudaSmemLinear, window f32[16] @CudaGmemLinear @Sm90_tensorMap(0, 16)
  }
}''',
    "wgmma": r'''exogpu.instr @wgmma(%d: f32[64, 64] @Sm90_RmemMatrixD(64, 64) {convergent, init = wgmma_async_rmem_d_qual, ext = [wgmma_async_rmem_d_qual]}, %a: f32[64, 8] @Sm90_SmemSwizzled(128) {out_of_order, convergent, init = wgmma_async_smem_qual, ext = [wgmma_async_smem_qual]})
    target = cuda, unit = cuda_warpgroup, cuda = "asm volatile(\22// wgmma %0\22 :: \22l\22({a}) : \22memory\22);" {
  exogpu.for %m in seq(0, 64) {
    exogpu.for %n in seq(0, 64) {
      exogpu.reduce %d[%m, %n] += %a[%m, 0] : f32[64, 64] @Sm90_RmemMatrixD(64, 64), f32[64, 8] @Sm90_SmemSwizzled(128)
    }
  }
}''',
    "zero_d": r'''exogpu.instr @zero_d(%d: f32[64, 64] @Sm90_RmemMatrixD(64, 64) {convergent})
    target = cuda, unit = cuda_warpgroup, cuda = "for (int r = 0; r < 32; ++r) {d}[r] = 0.f;" {
  exogpu.for %m in seq(0, 64) {
    exogpu.for %n in seq(0, 64) {
      exogpu.assign %d[%m, %n] = 0.0 : f32[64, 64] @Sm90_RmemMatrixD(64, 64)
    }
  }
}''',
}

SYNC_PRE = ["cuda_in_order", "Sm80_generic", "cuda_generic_and_async"]
SYNC_POST = ["cuda_in_order", "cuda_generic_and_async", "cuda_async_proxy",
             "cuda_temporal"]
GMEM_PER_TASK = 4096
TASKS = 2


class Kernel:
    """One random kernel: its cluster, CTA size, warp groups and body."""

    def __init__(self, rng):
        self.rng = rng
        self.cluster = rng.choice([1, 1, 2, 2, 4])
        self.block = rng.choice([64, 128, 128, 256, 256, 384])
        self.named = None
        if self.block >= 128 and rng.random() < 0.35:
            # Warp specialization: two or three named warp groups.
            warps = self.block // 32
            cut = rng.randrange(1, warps)
            groups = [("a", cut), ("b", warps - cut)]
            if warps - cut >= 2 and rng.random() < 0.4:
                cut2 = rng.randrange(1, warps - cut)
                groups = [("a", cut), ("b", cut2), ("c", warps - cut - cut2)]
            self.named = groups
        self.instrs = set()
        self.allocs = []
        self.body = []
        self.maps = []
        self.features = []
        self.counter = 0
        self.region = 0
        # The pattern being generated addresses the CTAs of a 4-CTA cluster
        # as pairs (%p, %c) instead of %cta.
        self.pair = False

    @property
    def cta_index(self):
        """The CTA rank as an expression of the CTA loops' iterators."""
        if self.cluster == 1:
            return "0"
        return "(%p * 2 + %c)" if self.pair else "%cta"

    def cta_prefix(self):
        if self.cluster == 1:
            return ""
        return "%p, %c, " if self.pair else "%cta, "

    def cta_dims(self):
        if self.cluster == 1:
            return []
        return [2, 2] if self.pair else [self.cluster]

    def cta_wrap(self, lines):
        """Wraps `lines` in the loops over the CTAs of the cluster."""
        if self.cluster == 1:
            return lines
        if self.pair:
            return wrap("exogpu.for %p in cuda_threads(0, 2, unit = "
                        "2 * cuda_cta_in_cluster)",
                        wrap("exogpu.for %c in cuda_threads(0, 2, unit = "
                             "cuda_cta_in_cluster)", lines))
        return wrap(f"exogpu.for %cta in cuda_threads(0, {self.cluster}, "
                    f"unit = cuda_cta_in_cluster)", lines)

    def fresh(self, base):
        self.counter += 1
        return f"%{base}{self.counter}"

    def smem(self, base, shape, memory="CudaSmemLinear"):
        """A shared-memory allocation; in a cluster its leading dimension
        is the CTA's (each CTA has its shard). Returns the name, its type
        and the index prefix of the CTA's shard."""
        name = self.fresh(base)
        dims = self.cta_dims() + list(shape)
        ty = f"f32[{', '.join(map(str, dims))}] @{memory}"
        self.allocs.append(f"{name} = exogpu.alloc {ty}")
        return name, ty, self.cta_prefix()

    def barrier(self, base, shape, kind):
        """A barrier allocation, with a CTA dimension in a cluster."""
        name = self.fresh(base)
        dims = self.cta_dims() + list(shape)
        ty = (f"barrier[{', '.join(map(str, dims))}] @{kind}" if dims
              else f"barrier @{kind}")
        self.allocs.append(f"{name} = exogpu.alloc {ty}")
        return name, ty, self.cta_prefix()

    def gmem_region(self, size):
        """A region of %g (and %out) only this task touches."""
        base = self.region
        self.region += size
        assert self.region <= GMEM_PER_TASK
        return f"%task * {GMEM_PER_TASK} + {base}"

    # The warps a role runs on, as a `warps` block header.
    def role(self, lo, hi):
        if self.named:
            first = 0
            for name, count in self.named:
                if first <= lo and hi <= first + count:
                    if lo == first and hi == first + count:
                        return f'exogpu.warps "{name}"'
                    return (f'exogpu.warps "{name}"({lo - first}, '
                            f'{hi - first})')
                first += count
            return None
        return f"exogpu.warps({lo}, {hi})"

    def roles(self, n):
        """`n` disjoint warp ranges, each inside one warp group."""
        warps = self.block // 32
        spans = []
        if self.named:
            first = 0
            for _, count in self.named:
                spans.append((first, first + count))
                first += count
        else:
            spans = [(0, warps)]
        cuts = []
        for lo, hi in spans:
            w = lo
            while w < hi:
                size = self.rng.randint(1, max(1, min(4, hi - w)))
                cuts.append((w, w + size))
                w += size
        if len(cuts) < n:
            return None
        self.rng.shuffle(cuts)
        return sorted(cuts[:n])

    def text(self):
        head = []
        for name in sorted(self.instrs):
            head.append(INSTRS[name])
        params = (f"%g: f32[{GMEM_PER_TASK * TASKS}] @CudaGmemLinear, "
                  f"%out: f32[{GMEM_PER_TASK * TASKS}] @CudaGmemLinear")
        config = f"blockDim = {self.block}"
        if self.named:
            config = "warps = [" + ", ".join(
                f'"{n}" = ({c}, 0, 0)' for n, c in self.named) + "]"
        if self.cluster > 1:
            config = f"clusterDim = {self.cluster}, " + config
        proc = [f"exogpu.proc @fuzz({params}) {{"]
        proc += ["  " + m for m in self.maps]
        proc.append(f"  exogpu.device_function({config}) {{")
        proc.append(f"    exogpu.for %task in cuda_tasks(0, {TASKS}) {{")
        proc += ["      " + a for a in self.allocs]
        proc += ["      " + b for b in self.body]
        proc.append("      exogpu.fence(cuda_generic_and_async, "
                    "cuda_in_order)")
        proc.append("    }")
        proc.append("  }")
        proc.append("}")
        return "\n".join(head + proc) + "\n"


G_TYPE = f"f32[{GMEM_PER_TASK * TASKS}] @CudaGmemLinear"


def wrap(header, lines):
    return [header + " {"] + ["  " + l for l in lines] + ["}"]


# ---------------------------------------------------------------------------
# Patterns
# ---------------------------------------------------------------------------

UNITS = [
    # (unit, threads per collective, minimum block, rows of contiguous
    # threads in a collective)
    ("8 * cuda_thread", 8, 32, 1),
    ("16 * cuda_thread", 16, 32, 1),
    ("cuda_warp", 32, 32, 1),
    ("2 * cuda_warp", 64, 64, 1),
    ("cuda_warpgroup", 128, 128, 1),
    # n rows of a threads, b apart: spans of n * b threads hold b / a
    # interleaved collectives.
    ("16 * cuda_threads_strided(1, 2)", 16, 32, 16),
    ("32 * cuda_threads_strided(1, 2)", 32, 64, 32),
    ("8 * cuda_threads_strided(2, 4)", 16, 32, 8),
    ("2 * cuda_threads_strided(16, 32)", 32, 64, 2),
    ("4 * cuda_threads_strided(16, 32)", 64, 128, 4),
    ("2 * cuda_threads_strided(32, 64)", 64, 128, 2),
]
SYNC_POST_READ = ["cuda_in_order", "Sm80_generic", "cuda_generic_and_async"]


def thread_loops(k, n, rows, body_of):
    """Loops giving each of the `n` threads of a collective of `rows` rows
    of contiguous threads its index (an expression) for `body_of`."""
    if rows in (1, n):
        t = k.fresh("t")
        return wrap(f"exogpu.for {t} in cuda_threads(0, {n}, unit = "
                    f"cuda_thread)", body_of(t))
    r, t = k.fresh("r"), k.fresh("t")
    width = n // rows
    return wrap(f"exogpu.for {r} in cuda_threads(0, {rows}, unit = "
                f"{width} * cuda_thread)",
                wrap(f"exogpu.for {t} in cuda_threads(0, {width}, unit = "
                     f"cuda_thread)", body_of(f"{r} * {width} + {t}")))


def fence_exchange(k):
    """Collectives write, Fence, read each other's writes."""
    rng = k.rng
    units = [u for u in UNITS if u[2] <= k.block]
    unit, n, span, rows = rng.choice(units)
    strided = "strided" in unit
    # Strided collectives: a loop over spans, then the interleaved
    # collectives of a span.
    count = span // n if strided else k.block // n
    spans = k.block // span if strided else 1
    if rng.random() < 0.3:
        count = rng.randint(1, count)
    shared = rng.random() < 0.7
    pre, post = rng.choice(SYNC_PRE), rng.choice(SYNC_POST_READ)
    k.features.append(f"fence[{unit} x{count} {pre},{post}]")
    c, sp = k.fresh("c"), k.fresh("sp")
    total = spans * count
    index = f"{sp} * {count} + {c}" if strided else c
    base = k.gmem_region(k.cluster * total * n)
    if shared:
        buf, ty, cta = k.smem("s", [total, n])
        def at(c, t):
            return f"{buf}[{cta}{index}, {t}]", ty
    else:
        def at(c, t):
            return (f"%g[{base} + {k.cta_index} * {total * n} + ({index}) * "
                    f"{n} + {t}]", G_TYPE)
    out_base = k.gmem_region(k.cluster * total * n)
    def write(t):
        dst, dst_type = at(c, t)
        return [f"exogpu.assign {dst} = 1.0 : {dst_type}"]
    def read(t):
        src, src_type = at(c, f"{n - 1} - ({t})")
        return [f"exogpu.assign %out[{out_base} + {k.cta_index} * "
                f"{total * n} + ({index}) * {n} + {t}] = {src} : {G_TYPE}, "
                f"{src_type}"]
    inner = thread_loops(k, n, rows, write)
    inner.append(f"exogpu.fence({pre}, {post})")
    inner += thread_loops(k, n, rows, read)
    loop = wrap(f"exogpu.for {c} in cuda_threads(0, {count}, unit = "
                f"{unit})", inner)
    if strided:
        loop = wrap(f"exogpu.for {sp} in cuda_threads(0, {spans}, unit = "
                    f"{span} * cuda_thread)", loop)
    return loop


def nested_fences(k):
    """Part of each warpgroup meets, then the whole warpgroup."""
    if k.block < 128 or k.named:
        return None
    rng = k.rng
    sub = rng.choice([("2 * cuda_warp", 64), ("cuda_warp", 32)])
    wgs = k.block // 128
    k.features.append(f"nested[{sub[0]}]")
    buf, ty, cta = k.smem("s", [wgs, 128])
    out = k.gmem_region(k.cluster * wgs * 256)
    wg, h, t = k.fresh("wg"), k.fresh("h"), k.fresh("t")
    n = sub[1]
    part = wrap(f"exogpu.for {t} in cuda_threads(0, {n}, unit = cuda_thread)",
                [f"exogpu.assign {buf}[{cta}{wg}, {t}] = 1.0 : {ty}"])
    part.append("exogpu.fence(cuda_in_order, cuda_in_order)")
    part += wrap(f"exogpu.for {t} in cuda_threads(0, {n}, unit = "
                 f"cuda_thread)",
                 [f"exogpu.assign %out[{out} + {k.cta_index} * {wgs * 256} "
                  f"+ {wg} * 256 + {t}] = {buf}[{cta}{wg}, {n - 1} - {t}] : "
                  f"{G_TYPE}, {ty}"])
    body = wrap(f"exogpu.for {h} in cuda_threads(0, 1, unit = {sub[0]})",
                part)
    body.append("exogpu.fence(cuda_in_order, cuda_in_order)")
    body += wrap(f"exogpu.for {t} in cuda_threads(0, 128, unit = "
                 f"cuda_thread)",
                 [f"exogpu.assign {buf}[{cta}{wg}, {t}] = 2.0 : {ty}"])
    body.append("exogpu.fence(cuda_in_order, cuda_in_order)")
    body += wrap(f"exogpu.for {t} in cuda_threads(0, 128, unit = "
                 f"cuda_thread)",
                 [f"exogpu.assign %out[{out} + {k.cta_index} * {wgs * 256} "
                  f"+ {wg} * 256 + 128 + {t}] = {buf}[{cta}{wg}, 127 - {t}] : "
                  f"{G_TYPE}, {ty}"])
    return wrap(f"exogpu.for {wg} in cuda_threads(0, {wgs}, unit = "
                f"cuda_warpgroup)", body)


def cluster_fence(k):
    """The same warps of every CTA write global memory, meet, and read the
    other CTAs' writes: a collective of several CTAs."""
    if k.cluster == 1 or k.named:
        return None
    rng = k.rng
    warps = rng.choice([w for w in (1, 2, 4) if w * 32 <= k.block])
    n = warps * 32
    k.features.append(f"cluster-fence[{warps} warps]")
    base = k.gmem_region(k.cluster * n)
    out = k.gmem_region(k.cluster * n)
    t = k.fresh("t")
    write = wrap(f"exogpu.for %cta in cuda_threads(0, {k.cluster}, unit = "
                 f"cuda_cta_in_cluster)",
                 wrap(f"exogpu.for {t} in cuda_threads(0, {n}, unit = "
                      f"cuda_thread)",
                      [f"exogpu.assign %g[{base} + %cta * {n} + {t}] = 1.0 "
                       f": {G_TYPE}"]))
    read = wrap(f"exogpu.for %cta in cuda_threads(0, {k.cluster}, unit = "
                f"cuda_cta_in_cluster)",
                wrap(f"exogpu.for {t} in cuda_threads(0, {n}, unit = "
                     f"cuda_thread)",
                     [f"exogpu.assign %out[{out} + %cta * {n} + {t}] = "
                      f"%g[{base} + ({k.cluster - 1} - %cta) * {n} + {t}] : "
                      f"{G_TYPE}, {G_TYPE}"]))
    return wrap(f"exogpu.warps(0, {warps})",
                write + ["exogpu.fence(cuda_in_order, cuda_in_order)"] + read)


def arrive_window(k, bar):
    """The `>> z` of an arrive by a CTA, the await's element, the barrier
    type and which CTAs the arrive reaches (own, pair, all)."""
    rng = k.rng
    if k.cluster == 1:
        return f">> {bar}", bar, "barrier @CudaMbarrier", "own"
    if k.pair:
        ty = "barrier[2, 2] @CudaMbarrier"
        if rng.random() < 0.8:
            return (f">> {bar}[%p, %c] >> {bar}[%p, :]", f"{bar}[%p, %c]", ty,
                    "pair")
        return f">> {bar}[%p, %c]", f"{bar}[%p, %c]", ty, "own"
    ty = f"barrier[{k.cluster}] @CudaMbarrier"
    if rng.random() < 0.6:
        return f">> {bar}[%cta] >> {bar}[:]", f"{bar}[%cta]", ty, "all"
    return f">> {bar}[%cta]", f"{bar}[%cta]", ty, "own"


def peer_of(k, reach):
    """The CTA whose writes a reader reads after the arrive."""
    if k.cluster == 1:
        return "0"
    if reach == "all":
        return f"({k.cluster - 1} - %cta)"
    if reach == "pair":
        return "(%p * 2 + 1 - %c)"
    return k.cta_index


def handoff(k):
    """Writers arrive on an mbarrier; readers await it and read."""
    rng = k.rng
    roles = k.roles(3 if rng.random() < 0.4 else 2)
    if not roles:
        return None
    relay = len(roles) == 3
    wlo, whi = roles[0]
    rlo, rhi = roles[-1]
    writer_threads = (whi - wlo) * 32
    if rng.random() < 0.25:
        writer_threads = rng.choice([1, 16, 32])
    k.pair = k.cluster == 4 and rng.random() < 0.4
    bar = k.fresh("bar")
    window, element, bar_type, reach = arrive_window(k, bar)
    in_gmem = reach != "own" or rng.random() < 0.4
    k.allocs.append(f"{bar} = exogpu.alloc {bar_type}")
    k.features.append(f"handoff[{writer_threads}t {reach}"
                      f"{' relay' if relay else ''}]")
    t = k.fresh("t")
    if in_gmem:
        base = k.gmem_region(k.cluster * 32)
        def slot(cta, i):
            return f"%g[{base} + {cta} * 32 + {i}]", G_TYPE
    else:
        buf, ty, prefix = k.smem("s", [32])
        def slot(cta, i):
            return f"{buf}[{prefix}{i}]", ty
    cta = k.cta_index
    written = min(writer_threads, 32)
    dst, dst_type = slot(cta, t)
    writer = wrap(f"exogpu.for {t} in cuda_threads(0, {written}, unit = "
                  f"cuda_thread)",
                  [f"exogpu.assign {dst} = 1.0 : {dst_type}"])
    pre_fence = rng.random()
    if pre_fence < 0.25:
        writer.append("exogpu.fence(cuda_in_order, cuda_in_order)")
        k.features.append("writer-fence")
    # The writers' arrive, after a Fence of the whole CTA (every warp, the
    # readers' included) where `cta_fence`.
    cta_fence = pre_fence > 0.8 and not k.named
    arrive = f"exogpu.arrive(cuda_in_order, 1) {window} : {bar_type}"
    if writer_threads < (whi - wlo) * 32:
        writer = wrap(f"exogpu.for {k.fresh('q')} in cuda_threads(0, 1, "
                      f"unit = {writer_threads} * cuda_thread)",
                      writer + ([] if cta_fence else [arrive]))
        arrive = wrap(f"exogpu.for {k.fresh('q')} in cuda_threads(0, 1, "
                      f"unit = {writer_threads} * cuda_thread)", [arrive])
    elif not cta_fence:
        writer.append(arrive)
        arrive = []
    else:
        arrive = [arrive]
    header = k.role(wlo, whi)
    if header is None:
        return None
    lines = []
    writer_block = wrap(header, writer)
    if cta_fence:
        k.features.append("cta-fence")
        writer_block += ["exogpu.fence(cuda_in_order, cuda_in_order)"]
        writer_block += wrap(header, arrive)
    lines += k.cta_wrap(writer_block)
    source = bar
    src_element = element
    if relay:
        llo, lhi = roles[1]
        bar2 = k.fresh("bar")
        window2, element2, bar_type2, reach2 = arrive_window(k, bar2)
        if reach2 != "own" and not in_gmem:
            # The readers read the writers' shared memory: their own CTA's.
            reach2 = "own"
            window2 = window2.split(" >> ")[0]
        k.allocs.append(f"{bar2} = exogpu.alloc {bar_type2}")
        lane = rng.choice([0, 5, 31, None])
        r = k.fresh("r")
        wait = [f"exogpu.await({element}, cuda_in_order, -1) : {bar_type}"]
        if lane is not None:
            wait = wrap(f"exogpu.for {r} in cuda_threads(0, 32, unit = "
                        f"cuda_thread)", wrap(f"exogpu.if {r} == {lane}",
                                              wait))
        relay_body = wrap(f"exogpu.for {k.fresh('w')} in cuda_threads(0, 1, "
                          f"unit = cuda_warp)",
                          wait + [f"exogpu.arrive(cuda_in_order, 1) "
                                  f"{window2} : {bar_type2}"])
        header = k.role(llo, llo + 1)
        if header is None:
            return None
        lines += k.cta_wrap(wrap(header, relay_body))
        source, src_element, bar_type, reach = bar2, element2, bar_type2, \
            reach2 if reach == "own" else reach
        k.features.append(f"relay-lane[{lane}]")
    readers = rng.choice([1, 32])
    out = k.gmem_region(k.cluster * 32)
    src, src_type = slot(peer_of(k, reach), f"{t} mod {written}")
    await_ = (f"exogpu.await({src_element}, {rng.choice(SYNC_POST_READ)}, "
              f"-1) : {bar_type}")
    reads = wrap(f"exogpu.for {t} in cuda_threads(0, {readers}, unit = "
                 f"cuda_thread)",
                 [f"exogpu.assign %out[{out} + {cta} * 32 + {t}] = "
                  f"{src} : {G_TYPE}, {src_type}"])
    # One collective awaits: a thread, or the warp before its lanes read.
    reader = wrap(f"exogpu.for {k.fresh('w')} in cuda_threads(0, 1, unit = "
                  f"{'cuda_thread' if readers == 1 else 'cuda_warp'})",
                  [await_] + reads)
    header = k.role(rlo, rlo + 1)
    if header is None:
        return None
    block = wrap(header, reader)
    if k.cluster > 1:
        block = k.cta_wrap(block)
    return lines + block


def cp_async(k):
    """cp.async copies, completed by a Fence or a commit group, read by
    other threads or by a TMA store."""
    rng = k.rng
    k.instrs.add("cp_async")
    n = rng.choice([4, 16, 32])
    if n > k.block:
        return None
    buf, ty, cta = k.smem("s", [16])
    src = k.gmem_region(k.cluster * 16)
    t = k.fresh("t")
    copy = (f"exogpu.call @cp_async({buf}[{cta}{t} mod 16:{t} mod 16 + 1], "
            f"%g[{src} + {k.cta_index} * 16 + {t} mod 16:{src} + "
            f"{k.cta_index} * 16 + {t} mod 16 + 1]) : {ty}, {G_TYPE}")
    n = min(n, 16)
    lines = []
    how = rng.choice(["fence", "fence", "group"])
    consumer = rng.choice(["generic", "tma"])
    post = "cuda_async_proxy" if consumer == "tma" else "cuda_in_order"
    if rng.random() < 0.4:
        post = "cuda_generic_and_async"
    k.features.append(f"cp.async[{how} {consumer}]")
    if how == "fence":
        lines += wrap(f"exogpu.for {t} in cuda_threads(0, {n}, unit = "
                      f"cuda_thread)", [copy])
        lines.append(f"exogpu.fence({rng.choice(['Sm80_generic', 'Sm80_cp_async', 'cuda_generic_and_async'])}, {post})")
    else:
        cg, cgt, cgi = k.barrier("cg", [n], "CudaCommitGroup")
        lines += wrap(f"exogpu.for {t} in cuda_threads(0, {n}, unit = "
                      f"cuda_thread)",
                      [copy,
                       f"exogpu.arrive(Sm80_cp_async, 1) >> {cg}[{cgi}{t}] "
                       f": {cgt}",
                       f"exogpu.await({cg}[{cgi}{t}], "
                       f"{rng.choice(['cuda_generic_and_async', post])}, 0) : "
                       f"{cgt}"])
        lines.append(f"exogpu.fence({rng.choice(['cuda_in_order', 'cuda_generic_and_async'])}, {post})")
    if consumer == "generic":
        out = k.gmem_region(k.cluster * 16)
        lines += wrap(f"exogpu.for {t} in cuda_threads(0, 16, unit = "
                      f"cuda_thread)",
                      [f"exogpu.assign %out[{out} + {k.cta_index} * 16 + {t}]"
                       f" = {buf}[{cta}15 - {t}] : {G_TYPE}, {ty}"])
    else:
        lines += tma_store_lines(k, buf, ty, cta)
    return lines


def tma_store_lines(k, buf, ty, cta):
    """Thread 0 stores the 16-element `buf` with TMA and waits for it."""
    k.instrs.add("tma_store")
    if "%out_map" not in "".join(k.maps):
        k.maps.append(f"%out_map = exogpu.window %out[:] "
                      f"@Sm90_tensorMap(0, 16) : {G_TYPE}")
    dst = k.gmem_region(k.cluster * 16)
    cg, cgt, cgi = k.barrier("cg", [1], "CudaCommitGroup")
    t = k.fresh("t")
    store = (f"exogpu.call @tma_store(%out_map[{dst} + {k.cta_index} * 16:"
             f"{dst} + {k.cta_index} * 16 + 16], {buf}[{cta}:]) : window "
             f"{G_TYPE} @Sm90_tensorMap(0, 16), {ty}")
    lines = [store]
    if k.rng.random() < 0.7:
        lines += [f"exogpu.arrive(tma_to_gmem_async, 1) >> {cg}[{cgi}{t}] "
                  f": {cgt}",
                  f"exogpu.await({cg}[{cgi}{t}], cuda_in_order, 0) : {cgt}"]
        tail = []
    else:
        tail = ["exogpu.fence(cuda_generic_and_async, cuda_in_order)"]
        k.features.append("tma-store-fence")
    return wrap(f"exogpu.for {t} in cuda_threads(0, 1, unit = cuda_thread)",
                lines) + tail


def tma_store(k):
    """Threads write a staging buffer, fence it to the async proxy, one
    thread stores it with TMA."""
    rng = k.rng
    buf, ty, cta = k.smem("s", [16])
    t = k.fresh("t")
    n = rng.choice([1, 16])
    k.features.append(f"tma-store[{n}]")
    if n == 16:
        lines = wrap(f"exogpu.for {t} in cuda_threads(0, 16, unit = "
                     f"cuda_thread)",
                     [f"exogpu.assign {buf}[{cta}{t}] = 1.0 : {ty}"])
    else:
        i = k.fresh("i")
        lines = wrap(f"exogpu.for {t} in cuda_threads(0, 1, unit = "
                     f"cuda_thread)",
                     wrap(f"exogpu.for {i} in seq(0, 16)",
                          [f"exogpu.assign {buf}[{cta}{i}] = 1.0 : {ty}"]))
    lines.append(f"exogpu.fence(cuda_in_order, "
                 f"{rng.choice(['cuda_async_proxy', 'cuda_generic_and_async'])})")
    return lines + tma_store_lines(k, buf, ty, cta)


def tma_load(k):
    """A thread loads a tile with TMA on an mbarrier; the CTA awaits it and
    reads it."""
    rng = k.rng
    k.instrs.add("tma_load")
    if "%g_map" not in "".join(k.maps):
        k.maps.append(f"%g_map = exogpu.window %g[:] @Sm90_tensorMap(0, 16) "
                      f": {G_TYPE}")
    buf, ty, cta = k.smem("s", [16])
    bar = k.fresh("bar")
    bar_type = "barrier @CudaMbarrier"
    element = bar
    if k.cluster > 1:
        bar_type = f"barrier[{k.cluster}] @CudaMbarrier"
        element = f"{bar}[%cta]"
    k.allocs.append(f"{bar} = exogpu.alloc {bar_type}")
    src = k.gmem_region(k.cluster * 16)
    out = k.gmem_region(k.cluster * 16)
    t = k.fresh("t")
    readers = rng.choice([16, 32])
    k.features.append(f"tma-load[{readers}]")
    issue = wrap(f"exogpu.for {t} in cuda_threads(0, 1, unit = cuda_thread)",
                 [f"exogpu.call @tma_load({buf}[{cta}:], %g_map[{src} + "
                  f"{k.cta_index} * 16:{src} + {k.cta_index} * 16 + 16]) >> "
                  f"{element} : {ty}, window {G_TYPE} "
                  f"@Sm90_tensorMap(0, 16), {bar_type}",
                  f"exogpu.arrive(tma_to_smem_async, 1) >> {element} : "
                  f"{bar_type}"])
    reads = wrap(f"exogpu.for {t} in cuda_threads(0, 16, unit = "
                 f"cuda_thread)",
                 [f"exogpu.assign %out[{out} + {k.cta_index} * 16 + {t}] = "
                  f"{buf}[{cta}15 - {t}] : {G_TYPE}, {ty}"])
    unit = "16 * cuda_thread" if readers == 16 else "cuda_warp"
    read = wrap(f"exogpu.for {k.fresh('w')} in cuda_threads(0, 1, unit = "
                f"{unit})",
                [f"exogpu.await({element}, cuda_generic_and_async, -1) : "
                 f"{bar_type}"] + reads)
    return issue + read


def wgmma_release(k):
    """Warpgroups read a stage with wgmma, wait for it and release it to a
    producer thread, which overwrites it."""
    if k.block < 128 or k.block % 128 or k.named:
        return None
    rng = k.rng
    k.instrs.update({"wgmma", "zero_d"})
    wgs = k.block // 128
    k.pair = k.cluster == 4 and rng.random() < 0.4
    stage, st, cta = k.smem("S", [wgs, 64, 8], "Sm90_SmemSwizzled(128)")
    acc, at, _ = k.smem("D", [wgs, 64, 64], "Sm90_RmemMatrixD(64, 64)")
    cg, cgt, cgi = k.barrier("cg", [wgs], "CudaCommitGroup")
    bar = k.fresh("bar")
    window, element, bar_type, reach = arrive_window(k, bar)
    k.allocs.append(f"{bar} = exogpu.alloc {bar_type}")
    k.features.append(f"wgmma-release[{reach}]")
    wg = k.fresh("wg")
    consume = wrap(f"exogpu.for {wg} in cuda_threads(0, {wgs}, unit = "
                   f"cuda_warpgroup)",
                   [f"exogpu.call @zero_d({acc}[{cta}{wg}, :, :]) : {at}",
                    "exogpu.fence(wgmma_fence_1, wgmma_fence_2)",
                    f"exogpu.call @wgmma({acc}[{cta}{wg}, :, :], "
                    f"{stage}[{cta}{wg}, :, :]) : {at}, {st}",
                    f"exogpu.arrive(wgmma_async, 1) >> {cg}[{cgi}{wg}] : "
                    f"{cgt}",
                    f"exogpu.await({cg}[{cgi}{wg}], cuda_in_order, 0) : "
                    f"{cgt}"])
    consume.append(f"exogpu.arrive(cuda_in_order, 1) {window} : {bar_type}")
    t = k.fresh("t")
    overwrite = wrap(f"exogpu.for {t} in cuda_threads(0, 1, unit = "
                     f"cuda_thread)",
                     [f"exogpu.await({element}, cuda_generic_and_async, -1) "
                      f": {bar_type}",
                      f"exogpu.assign {stage}[{cta}0, 0, 0] = 1.0 : {st}"])
    return k.cta_wrap(consume) + k.cta_wrap(overwrite)


PATTERNS = [fence_exchange, fence_exchange, nested_fences, cluster_fence,
            handoff, handoff, handoff, cp_async, tma_store, tma_load,
            wgmma_release]


def generate(rng):
    k = Kernel(rng)
    phases = rng.randint(1, 3)
    for i in range(phases):
        for _ in range(10):
            pattern = rng.choice(PATTERNS)
            saved = (list(k.allocs), list(k.features), set(k.instrs),
                     list(k.maps), k.region)
            try:
                lines = pattern(k)
            except AssertionError:
                lines = None
            k.pair = False
            if lines is None:
                k.allocs, k.features, k.instrs, k.maps, k.region = saved
                continue
            if pattern in (fence_exchange, cp_async, tma_store, tma_load,
                           nested_fences):
                lines = k.cta_wrap(lines)
            k.body += lines
            if i + 1 < phases and rng.random() < 0.5:
                k.body.append("exogpu.fence(cuda_generic_and_async, "
                              "cuda_generic_and_async)")
            break
    return k


# ---------------------------------------------------------------------------
# The loop
# ---------------------------------------------------------------------------

CLASSES = [
    ("A: release at cluster scope", "a release at cluster scope"),
    ("D: acquire at cluster scope", "an acquire at cluster scope"),
    ("B: elected issuer lacks a view", "before lane 0 of each warp"),
    ("B: elected issuer lacks a view", "or a meeting of the warpgroup"),
    ("C: proxy fence", "fence.proxy.async"),
    ("E: barrier does not contain the collective",
     "a barrier that contains the whole collective"),
    ("E: barrier not executed by its threads",
     "a barrier of exactly the threads"),
    ("E: barrier not executed by its threads", "the cluster barrier must be"),
    ("F: named barrier ids", "a barrier id of its own"),
    ("F: named barrier ids", "which are not whole warps"),
    ("G: multicast arrive targets", "arrives at exactly the CTAs"),
    ("G: arrival counts", "an arrival count that matches"),
    ("J: wait for in-flight async work", "may still be in flight"),
    ("aligned instruction by part of a warpgroup", "whole warpgroups"),
]


def classify(message):
    for name, needle in CLASSES:
        if needle in message:
            return name
    if "cannot justify" in message:
        return "other validator refusal"
    return "translation failure"


def diagnostic(output):
    """The first error of a tool's output, without its location and with
    numbers replaced, to count kinds of errors."""
    for line in output.splitlines():
        match = re.search(r"error: (.*)", line)
        if match:
            return re.sub(r"\d+", "N", match.group(1))[:160]
    return output.strip()[:160]


def run(cmd, timeout):
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True,
                              timeout=timeout)
        return proc.returncode, proc.stdout + proc.stderr
    except subprocess.TimeoutExpired:
        return None, "timeout"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build", default=str(ROOT / "build"))
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--count", type=int, default=0,
                        help="stop after this many programs (0: no limit)")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--timeout", type=float, default=60)
    parser.add_argument("--out", default="fuzz-lowering-findings")
    parser.add_argument("--nvcc", action="store_true",
                        help="also compile every translation with nvcc")
    parser.add_argument("--quiet", action="store_true")
    parser.add_argument("--faults", default="",
                        help="translate with --sync-lowering-faults=FAULTS "
                        "(the lowerings of the classes before the fixes), "
                        "to show the fuzzer finds them")
    args = parser.parse_args()
    seed = args.seed if args.seed is not None else random.randrange(1 << 30)
    bin_dir = pathlib.Path(args.build) / "bin"
    opt, translate = bin_dir / "exogpu-opt", bin_dir / "exogpu-translate"
    nvcc = shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc"
    out_dir = pathlib.Path(args.out)
    counts = collections.Counter()
    classes = collections.Counter()
    unsupported = collections.Counter()
    features = collections.Counter()
    start = time.time()
    index = 0
    with tempfile.TemporaryDirectory() as tmp:
        path = pathlib.Path(tmp) / "fuzz.mlir"
        while time.time() - start < args.seconds and (
                not args.count or index < args.count):
            rng = random.Random(seed * 1000003 + index)
            index += 1
            kernel = generate(rng)
            if not kernel.body:
                continue
            text = kernel.text()
            path.write_text(text)
            counts["programs"] += 1
            code, output = run([str(opt), str(path), "--exogpu-sync-check",
                                "-o", "/dev/null"], args.timeout)
            if code is None:
                counts["check timeouts"] += 1
                continue
            if code != 0:
                counts["rejected by the check"] += 1
                continue
            counts["accepted by the check"] += 1
            for feature in kernel.features:
                features[feature.split("[")[0]] += 1
            cu = pathlib.Path(tmp) / "fuzz.cu"
            faults = ([f"--sync-lowering-faults={args.faults}"]
                      if args.faults else [])
            code, output = run([str(translate), "--to-cuda", *faults,
                                str(path), "-o", str(cu)], args.timeout)
            finding = None
            if code is None:
                finding = ("translation timeout", output)
            elif code != 0:
                if "cannot justify" in output or "internal error" in output:
                    finding = (classify(output), output)
                elif re.search(r"(LLVM ERROR|PLEASE submit|Segmentation)",
                               output) or code < 0:
                    finding = ("crash", output)
                else:
                    counts["unsupported by the translation"] += 1
                    unsupported[diagnostic(output)] += 1
                    continue
            elif args.nvcc:
                arch = (["-gencode", "arch=compute_90a,code=sm_90a"]
                        if kernel.cluster > 1 or kernel.instrs & {
                            "tma_store", "tma_load", "wgmma"}
                        else ["-arch=sm_80"])
                code, output = run([nvcc, "-std=c++17",
                                    f"-I{ROOT / 'runtime/include'}", *arch,
                                    "-c", str(cu), "-o",
                                    str(pathlib.Path(tmp) / "fuzz.o")],
                                   300)
                if code != 0:
                    finding = ("nvcc", output)
            if finding is None:
                counts["translated and validated"] += 1
                continue
            name, message = finding
            counts["findings"] += 1
            classes[name] += 1
            out_dir.mkdir(parents=True, exist_ok=True)
            stem = f"finding-{seed}-{index}"
            (out_dir / f"{stem}.mlir").write_text(
                f"// {name}\n// features: {', '.join(kernel.features)}\n"
                f"// RUN: exogpu-opt %s --exogpu-sync-check -o /dev/null\n"
                f"// RUN: exogpu-translate --to-cuda %s -o /dev/null\n"
                + text)
            (out_dir / f"{stem}.txt").write_text(message)
            if not args.quiet:
                first = message.strip().splitlines()[0] if message else ""
                print(f"[{name}] {stem}: {first[:300]}", flush=True)
    elapsed = time.time() - start
    print(f"seed {seed}: {counts['programs']} programs in {elapsed:.0f} s; "
          f"{counts['accepted by the check']} accepted by the check, "
          f"{counts['translated and validated']} translated and validated, "
          f"{counts['unsupported by the translation']} unsupported, "
          f"{counts['findings']} findings")
    if features:
        print("patterns in accepted programs: " + ", ".join(
            f"{name} {n}" for name, n in sorted(features.items())))
    for name, n in sorted(classes.items()):
        print(f"  {name}: {n}")
    for message, n in unsupported.most_common():
        print(f"  unsupported ({n}): {message}")
    return 1 if counts["findings"] else 0


if __name__ == "__main__":
    sys.exit(main())
