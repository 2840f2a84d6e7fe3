"""What the GPU validation bundle runs (docs/gpu-validation.md).

utils/gpu-bundle.py reads this file: every example kernel with the sizes it
runs at and how its outputs are checked, and the seeded synchronization bugs
of the bug study (issue 11 item 5) with the correct kernels they are held
against (test/SyncCheck/bug-study.test shows that the check rejects each
bug exactly as derived here).

A size is checked against the sequential meaning (`meaning`: exogpu-run
computes the outputs here and the bundle carries them) or, where those
outputs are too large to carry, against an independent float64 reference
computed on the GPU machine (`device`: utils/gpuval/compare.py REFERENCES).
The tolerance is the runner's for `math` and `sum_length` terms per
element (a number, a size name or a product of them, "S*KC"). Against the
meaning, `meaning_math` (when set) replaces `math`: "exact" for the kernels
whose arithmetic docs/running.md "Arithmetic" makes bit for bit the
meaning's (scalar operations, each rounded once in the meaning's order, no
contraction: every thread and task computes its elements as the meaning
does); tensor cores, exp2 and log2, and atomic reductions in varying order
keep a tolerance.
"""

from dataclasses import dataclass, field

# The architectures the kernels are built for: Hopper-only instructions
# (wgmma, TMA, setmaxnreg) need sm_90a, the rest runs on sm_80 and later.
SM80 = "sm_80"
SM90A = "sm_90a"


@dataclass
class Program:
    """A kernel to translate: a proc of the concatenation of `sources`
    (which import their instruction libraries), optionally edited.

    `derive` replaces each `old` text of the proc's definition by `new`
    (each must occur exactly once there); `cu_delete` deletes the first line
    of the translated CUDA equal to it (stripped), for a bug that the
    translation hides (the translation is more conservative than the check
    requires). `only_proc` keeps only the proc's definition of the sources
    (and the instructions), so that the driver holds one kernel."""
    name: str
    proc: str
    sources: list
    arch: str
    derive: list = field(default_factory=list)
    cu_delete: str = ""
    only_proc: bool = False


@dataclass
class Example:
    program: Program
    math: str
    sum_length: str
    reference: str
    meaning: list
    device: list
    sanitize: dict
    meaning_math: str = ""


@dataclass
class Bug:
    name: str
    title: str
    program: Program
    control: Program
    sizes: dict
    math: str
    sum_length: str
    reference: str
    # What was done to obtain the buggy kernel, for the study's table.
    how: str


def _example(proc, sources, arch, program_options=None, **kwargs):
    return Example(Program(proc, proc, sources, arch,
                           **(program_options or {})), **kwargs)


EXAMPLES = [
    _example("vector_add", ["examples/vector_add.mlir"], SM80,
             math="f32", sum_length="1", reference="vector_add",
             meaning=[{"N": 128}, {"N": 65536}],
             device=[{"N": 1 << 24}],
             sanitize={"N": 4096},
             meaning_math="exact"),
    _example("cta_sum_fence", ["examples/cta_reduction.mlir"], SM80,
             math="f32", sum_length="128", reference="cta_sum",
             meaning=[{"N": 128}, {"N": 65536}],
             device=[{"N": 1 << 24}],
             sanitize={"N": 4096},
             meaning_math="exact"),
    _example("cta_sum_mbarrier", ["examples/cta_reduction.mlir"], SM80,
             math="f32", sum_length="128", reference="cta_sum",
             meaning=[{"N": 128}, {"N": 65536}],
             device=[{"N": 1 << 24}],
             sanitize={"N": 4096},
             meaning_math="exact"),
    _example("gemv", ["examples/gemv.mlir"], SM80,
             math="f32", sum_length="N", reference="gemv",
             meaning=[{"M": 128, "N": 1}, {"M": 1024, "N": 1024}],
             device=[{"M": 8192, "N": 8192}],
             sanitize={"M": 256, "N": 256},
             meaning_math="exact"),
    _example("gemv_shuffle", ["examples/gemv_shuffle.mlir"], SM80,
             math="f32", sum_length="N", reference="gemv",
             meaning=[{"M": 4, "N": 32}, {"M": 1024, "N": 1024}],
             device=[{"M": 8192, "N": 8192}],
             sanitize={"M": 256, "N": 256},
             meaning_math="exact"),
    _example("gemm_sm80", ["examples/sm80_gemm.mlir"], SM80,
             math="tf32", sum_length="K", reference="gemm_ab",
             meaning=[{"M": 128, "N": 128, "K": 16},
                      {"M": 512, "N": 512, "K": 512}],
             device=[{"M": 1024, "N": 1024, "K": 1024},
                     {"M": 2048, "N": 2048, "K": 2048},
                     {"M": 4096, "N": 4096, "K": 4096}],
             sanitize={"M": 256, "N": 256, "K": 64}),
    _example("gemm_sm90a", ["examples/sm90a_gemm.mlir"], SM90A,
             math="tf32", sum_length="K", reference="gemm_abt",
             meaning=[{"M": 256, "N": 256, "K": 32},
                      {"M": 512, "N": 512, "K": 512}],
             device=[{"M": 1024, "N": 1024, "K": 1024},
                     {"M": 2048, "N": 2048, "K": 2048},
                     {"M": 4096, "N": 4096, "K": 4096}],
             sanitize={"M": 256, "N": 256, "K": 256}),
    # The benchmark's kernels (bench/kernels.py, docs/performance.md).
    _example("gemv_fast", ["examples/gemv_fast.mlir"], SM80,
             math="f32", sum_length="N", reference="gemv",
             meaning=[{"M": 16, "N": 256}, {"M": 1024, "N": 1024}],
             device=[{"M": 8192, "N": 8192}],
             sanitize={"M": 256, "N": 256},
             meaning_math="exact"),
    _example("gemm_tf32_sm90a", ["examples/gemm_tf32_sm90a.mlir"],
             SM90A, math="tf32", sum_length="K", reference="gemm_abt",
             meaning=[{"M": 1024, "N": 256, "K": 32},
                      {"M": 1024, "N": 512, "K": 1024}],
             device=[{"M": 2048, "N": 2048, "K": 2048},
                     {"M": 4096, "N": 4096, "K": 4096}],
             sanitize={"M": 1024, "N": 256, "K": 64}),
    _example("gemm_tf32_overlap_sm90a",
             ["examples/gemm_tf32_overlap_sm90a.mlir"], SM90A,
             math="tf32", sum_length="K", reference="gemm_abt",
             meaning=[{"M": 1024, "N": 256, "K": 128},
                      {"M": 2048, "N": 256, "K": 512}],
             device=[{"M": 2048, "N": 2048, "K": 2048},
                     {"M": 4096, "N": 4096, "K": 4096}],
             sanitize={"M": 1024, "N": 256, "K": 256}),
    _example("gemm_tf32_128x128_sm90a",
             ["examples/gemm_tf32_128x128_sm90a.mlir"], SM90A,
             math="tf32", sum_length="K", reference="gemm_abt",
             meaning=[{"M": 128, "N": 128, "K": 64},
                      {"M": 512, "N": 384, "K": 1024}],
             device=[{"M": 1024, "N": 1024, "K": 1024},
                     {"M": 2048, "N": 2048, "K": 2048}],
             sanitize={"M": 256, "N": 256, "K": 256}),
    # The one-kernel entry points (they import the variants they call): the
    # meaning sizes take the 128 x 128 branch (and, for tf32, the split-k
    # branch in chunks of 1024 through exogpu.split), the device sizes the
    # other two (M, N >= 2048: outputs of 16 MiB and more, too large to
    # carry their meaning) and tf32's split-k branch in chunks of 16384.
    _example("gemm_tf32",
             ["examples/gemm_tf32.mlir"], SM90A,
             math="tf32", sum_length="K", reference="gemm_abt",
             meaning=[{"M": 256, "N": 128, "K": 128},
                      {"M": 1024, "N": 512, "K": 256},
                      {"M": 256, "N": 256, "K": 16384}],
             device=[{"M": 2048, "N": 2048, "K": 2048},
                     {"M": 8192, "N": 8192, "K": 512},
                     {"M": 1024, "N": 1024, "K": 65536}],
             sanitize={"M": 256, "N": 256, "K": 128}),
    _example("gemm_bf16",
             ["examples/gemm_bf16.mlir"], SM90A,
             math="bf16", sum_length="K", reference="gemm_abt",
             meaning=[{"M": 256, "N": 128, "K": 128},
                      {"M": 1024, "N": 512, "K": 256}],
             device=[{"M": 2048, "N": 2048, "K": 2048},
                     {"M": 8192, "N": 8192, "K": 512}],
             sanitize={"M": 256, "N": 256, "K": 128}),
    _example("gemm_bf16_overlap_sm90a",
             ["examples/gemm_bf16_overlap_sm90a.mlir"], SM90A,
             math="bf16", sum_length="K", reference="gemm_abt",
             meaning=[{"M": 1024, "N": 256, "K": 256},
                      {"M": 2048, "N": 256, "K": 512}],
             device=[{"M": 2048, "N": 2048, "K": 2048},
                     {"M": 4096, "N": 4096, "K": 4096}],
             sanitize={"M": 1024, "N": 256, "K": 512}),
    _example("gemm_bf16_128x128_sm90a",
             ["examples/gemm_bf16_128x128_sm90a.mlir"], SM90A,
             math="bf16", sum_length="K", reference="gemm_abt",
             meaning=[{"M": 128, "N": 128, "K": 128},
                      {"M": 512, "N": 384, "K": 1024}],
             device=[{"M": 1024, "N": 1024, "K": 1024},
                     {"M": 2048, "N": 2048, "K": 2048}],
             sanitize={"M": 256, "N": 256, "K": 256}),
    _example("gemm_bf16_sm90a", ["examples/gemm_bf16_sm90a.mlir"],
             SM90A, math="bf16", sum_length="K", reference="gemm_abt",
             meaning=[{"M": 1024, "N": 256, "K": 64},
                      {"M": 1024, "N": 1024, "K": 1024}],
             device=[{"M": 2048, "N": 2048, "K": 2048},
                     {"M": 4096, "N": 4096, "K": 4096}],
             sanitize={"M": 1024, "N": 256, "K": 128}),
    _example("gemm_splitk_sm90a",
             ["examples/gemm_splitk_sm90a.mlir"], SM90A,
             math="tf32", sum_length="S*KC", reference="gemm_abt",
             meaning=[{"M": 256, "N": 256, "S": 2, "KC": 32},
                      {"M": 512, "N": 512, "S": 8, "KC": 256}],
             device=[{"M": 2048, "N": 2048, "S": 8, "KC": 1024},
                     {"M": 4096, "N": 4096, "S": 4, "KC": 1024}],
             sanitize={"M": 256, "N": 256, "S": 2, "KC": 64}),
]

# The attention kernels (examples/attention_fwd_sm90a.mlir, and the
# inter-warpgroup ping-pong ones of attention_fwd_pingpong_sm90a.mlir): O in
# bf16 and LSE in f32 held to the bf16 tolerance for S terms per element (P
# is rounded to bf16 before P V). Each driver holds its own kernel only.
ATTENTION = "examples/attention_fwd_sm90a.mlir"
ATTENTION_PINGPONG = "examples/attention_fwd_pingpong_sm90a.mlir"
ATTENTION_PROGRAM = {"only_proc": True}
for _proc, _source, _reference in [
        ("attention_fwd_d128", ATTENTION, "attention"),
        ("attention_fwd_d128_causal", ATTENTION, "attention_causal"),
        ("attention_fwd_d64", ATTENTION, "attention"),
        ("attention_fwd_d64_causal", ATTENTION, "attention_causal"),
        ("attention_fwd_d128_pingpong", ATTENTION_PINGPONG, "attention"),
        ("attention_fwd_d128_causal_pingpong", ATTENTION_PINGPONG,
         "attention_causal")]:
    EXAMPLES.append(_example(
        _proc, [_source], SM90A, ATTENTION_PROGRAM,
        math="bf16", sum_length="S", reference=_reference,
        meaning=[{"BH": 1, "S": 128}, {"BH": 1, "S": 384}],
        device=[{"BH": 16, "S": 2048}, {"BH": 4, "S": 8192}],
        sanitize={"BH": 2, "S": 384}))

# The correct kernels the bugs are held against that are not examples of
# their own.
SPLITK = Program("splitk_gemv", "splitk_gemv",
                 ["examples/bug-study/splitk_gemv.mlir"], SM80)
SCALE = Program("scale_tma_store", "scale_tma_store",
                ["examples/bug-study/scale_tma_store.mlir"], SM90A)


def _example_program(name):
    return next(e.program for e in EXAMPLES if e.program.name == name)


GEMM_SM90A = _example_program("gemm_sm90a")
ATTENTION_D128 = _example_program("attention_fwd_d128")
CTA_SUM_FENCE = _example_program("cta_sum_fence")

GEMM_BUG_SIZES = {"M": 2048, "N": 2048, "K": 2048}
ATTENTION_BUG_SIZES = {"BH": 16, "S": 1024}


def _attention_bug(name, title, derive, how, cu_delete=""):
    """A bug of @attention_fwd_d128 (examples/attention_fwd_sm90a.mlir)."""
    return Bug(name, title,
               Program(f"attention_fwd_d128_{name.replace('-', '_')}",
                       "attention_fwd_d128", ATTENTION_D128.sources, SM90A,
                       derive=derive, cu_delete=cu_delete,
                       **ATTENTION_PROGRAM),
               ATTENTION_D128, ATTENTION_BUG_SIZES, "bf16", "S", "attention",
               "examples/attention_fwd_sm90a.mlir @attention_fwd_d128 " + how)

BUGS = [
    Bug("missing-wgmma-fence", "missing wgmma.fence",
        Program("gemm_sm90a_no_wgmma_fence", "gemm_sm90a", GEMM_SM90A.sources,
                SM90A, derive=[(
                    "                exogpu.fence(wgmma_fence_1, "
                    "wgmma_fence_2)\n", "")]),
        GEMM_SM90A, GEMM_BUG_SIZES, "tf32", "K",
        "gemm_abt",
        "examples/sm90a_gemm.mlir without `exogpu.fence(wgmma_fence_1, "
        "wgmma_fence_2)`"),
    Bug("ring-lag-off-by-one", "ring lag off by one (empty await -5 -> -6)",
        Program("gemm_sm90a_lag5", "gemm_sm90a", GEMM_SM90A.sources, SM90A,
                derive=[("exogpu.await(%empty[%cta], cuda_generic_and_async, "
                         "-5) : barrier", "exogpu.await(%empty[%cta], "
                         "cuda_generic_and_async, -6) : barrier")]),
        GEMM_SM90A, GEMM_BUG_SIZES, "tf32", "K",
        "gemm_abt",
        "examples/sm90a_gemm.mlir with the producers' empty await at N = -6 "
        "(ring lag 5 on 4 stages) instead of -5; -4 (lag 3) is a stricter, "
        "correct protocol that the check accepts"),
    Bug("missing-proxy-fence", "missing fence.proxy.async",
        Program("scale_tma_store_no_proxy_fence", "scale_tma_store",
                SCALE.sources, SM90A,
                derive=[("\n      exogpu.fence(cuda_in_order, cuda_async_proxy)\n",
                         "\n      exogpu.fence(cuda_in_order, cuda_in_order)\n")],
                cu_delete="exo::fence_proxy_async();"),
        SCALE, {"M": 1 << 17}, "f32", "1",
        "scale2",
        "examples/bug-study/scale_tma_store.mlir with Fence(cuda_in_order, "
        "cuda_in_order) before the TMA store; the translation still emits "
        "fence.proxy.async there (the fence's temporal post-set covers the "
        "async proxy), so the first `exo::fence_proxy_async();` line is "
        "deleted from the translated .cu"),
    Bug("warp-scope-fence", "Fence at warp instead of CTA scope",
        Program("cta_sum_warp_fence", "cta_sum_warp_fence",
                ["examples/bug-study/cta_sum_warp_fence.mlir"], SM80),
        CTA_SUM_FENCE, {"N": 1 << 20},
        "f32", "128", "cta_sum",
        "examples/bug-study/cta_sum_warp_fence.mlir: @cta_sum_fence with the "
        "first fence inside a warp loop (__syncwarp)"),
    Bug("splitk-unordered", "split-k without ordering",
        Program("splitk_gemv_unordered", "splitk_gemv", SPLITK.sources, SM80,
                derive=[("exogpu.call @cuda_atomic_add_f32(%y[%m * 128 + %t:"
                         "%m * 128 + %t + 1], %acc[%t, :]) : f32[?] "
                         "@CudaGmemLinear, f32[128, 1] @CudaRmem",
                         "exogpu.reduce %y[%m * 128 + %t] += %acc[%t, 0] : "
                         "f32[?] @CudaGmemLinear, f32[128, 1] @CudaRmem")]),
        SPLITK, {"M": 4096, "K": 1024}, "f32", "K", "splitk_gemv",
        "examples/bug-study/splitk_gemv.mlir with the atomic add replaced by "
        "a plain `+=` into y"),
    _attention_bug(
        "rescale-before-wait", "O rescaled before its wgmma completed",
        [("              exogpu.await(%cg[%wg], cuda_in_order, 0) : "
          "barrier[2] @CudaCommitGroup\n              exogpu.call "
          "@Sm90_scale_d_rows_m64n128_f32(%O_acc[%wg, :, :], %corr",
          "              exogpu.call @Sm90_scale_d_rows_m64n128_f32("
          "%O_acc[%wg, :, :], %corr")],
        "without the consumers' `await(%cg[%wg], cuda_in_order, 0)` before "
        "the rescale of O: O *= corr (and the next P) while O += P V may "
        "still run"),
    _attention_bug(
        "softmax-before-wait", "softmax of S before its wgmma completed",
        [("              exogpu.await(%cg[%wg], cuda_in_order, 1) : "
          "barrier[2] @CudaCommitGroup\n", "")],
        "without the consumers' `await(%cg[%wg], cuda_in_order, 1)`: the "
        "softmax reads S = Q K^T while its wgmma may still run"),
    _attention_bug(
        "kv-ring-lag", "K ring lag off by one (empty await -3 -> -4)",
        [("\n              exogpu.await(%k_empty, cuda_generic_and_async, "
          "-3) : barrier", "\n              exogpu.await(%k_empty, "
          "cuda_generic_and_async, -4) : barrier")],
        "with the producer's K-ring await in the main loop at N = -4 (lag "
        "3 on 2 stages) instead of -3: a TMA load refills a K stage that "
        "the consumers may still read"),
    _attention_bug(
        "epilogue-proxy-fence", "missing fence.proxy.async before the O store",
        [("exogpu.fence(cuda_in_order, cuda_async_proxy)",
          "exogpu.fence(cuda_in_order, cuda_in_order)")],
        "with Fence(cuda_in_order, cuda_in_order) between the bf16 O tile's "
        "stores to shared memory and its TMA store; the translation still "
        "emits fence.proxy.async there, so the first "
        "`exo::fence_proxy_async();` line (@attention_fwd_d128's) is "
        "deleted from the translated .cu",
        cu_delete="exo::fence_proxy_async();"),
]
