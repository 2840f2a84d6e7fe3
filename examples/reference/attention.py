"""The naive twins of the attention kernels examples/attention_fwd_sm90a.mlir
(docs/running.md): O = softmax(Q K^T / sqrt(D)) V per head (bh) and the
log-sum-exp of the scaled scores of each query row, the textbook way with
the row maximum subtracted: the scores of a row, their maximum, the
exponentials and their sum, then O. Q, K, V, O are bf16 [BH, S, D] and
LSE f32 [BH, S]; the causal twins let query i see keys 0..i. The scores
are formed as the kernels' wgmma bodies form them (the tensor cores'
arithmetic: exact products of the bf16 operands, copied to f32, summed in
f32 over d in order), so they equal the kernels' scores; the softmax is
in f32 in base 2 (exp2((s - max) * log2(e) / sqrt(D)), the same function),
without the kernels' online rescaling and rounding of P to bf16: the two
agree within the bf16 and f32 tolerances of exogpu-run --compare.

One head dimension D and masking (`full`: every key; otherwise keys up to
the query), for one (bh, i) query row at a time.

The Python twin of attention.mlir: both give the same module
(test/Python/test_examples.py).
"""

from __future__ import annotations

from exogpu.lang import *


@proc
def attention_textbook(BH: size, S: size, D: size, full: bool, Q: bf16[BH, S, D] @ DRAM,
                       K: bf16[BH, S, D] @ DRAM, V: bf16[BH, S, D] @ DRAM,
                       O: bf16[BH, S, D] @ DRAM, LSE: f32[BH, S] @ DRAM):
    # log2(e) / sqrt(D) for D = 64 and 128.
    c: f32 @ DRAM
    c = 0.18033688011112042
    if D == 128:
        c = 0.12751743082459868
    s: f32[S] @ DRAM
    q: f32[D] @ DRAM
    k: f32[D] @ DRAM
    o: f32[D] @ DRAM
    v: f32[D] @ DRAM
    mx: f32 @ DRAM
    sum: f32 @ DRAM
    for bh in seq(0, BH):
        for i in seq(0, S):
            mx = -1.0e30
            for j in seq(0, S):
                if full or j <= i:
                    s[j] = 0.0
                    for d in seq(0, D):
                        q[d] = Q[bh, i, d]
                        k[d] = K[bh, j, d]
                        s[j] += q[d] * k[d]
                    mx = max(mx, s[j])
            sum = 0.0
            for d in seq(0, D):
                o[d] = 0.0
            for j in seq(0, S):
                if full or j <= i:
                    s[j] = exp2((s[j] - mx) * c)
                    sum += s[j]
                    for d in seq(0, D):
                        v[d] = V[bh, j, d]
                        o[d] += s[j] * v[d]
            for d in seq(0, D):
                O[bh, i, d] = o[d] / sum
            LSE[bh, i] = (mx * c + log2(sum)) * 0.6931471805599453


@proc
def attention_fwd_d128_ref(BH: size, S: size, Q: bf16[BH, S, 128] @ DRAM,
                           K: bf16[BH, S, 128] @ DRAM, V: bf16[BH, S, 128] @ DRAM,
                           O: bf16[BH, S, 128] @ DRAM, LSE: f32[BH, S] @ DRAM):
    attention_textbook(
        BH, S, 128, 1, Q[:, :, :], K[:, :, :], V[:, :, :], O[:, :, :], LSE[:, :])


@proc
def attention_fwd_d128_causal_ref(BH: size, S: size, Q: bf16[BH, S, 128] @ DRAM,
                                  K: bf16[BH, S, 128] @ DRAM,
                                  V: bf16[BH, S, 128] @ DRAM,
                                  O: bf16[BH, S, 128] @ DRAM, LSE: f32[BH, S] @ DRAM):
    attention_textbook(
        BH, S, 128, 0, Q[:, :, :], K[:, :, :], V[:, :, :], O[:, :, :], LSE[:, :])


@proc
def attention_fwd_d64_ref(BH: size, S: size, Q: bf16[BH, S, 64] @ DRAM,
                          K: bf16[BH, S, 64] @ DRAM, V: bf16[BH, S, 64] @ DRAM,
                          O: bf16[BH, S, 64] @ DRAM, LSE: f32[BH, S] @ DRAM):
    attention_textbook(
        BH, S, 64, 1, Q[:, :, :], K[:, :, :], V[:, :, :], O[:, :, :], LSE[:, :])


@proc
def attention_fwd_d64_causal_ref(BH: size, S: size, Q: bf16[BH, S, 64] @ DRAM,
                                 K: bf16[BH, S, 64] @ DRAM, V: bf16[BH, S, 64] @ DRAM,
                                 O: bf16[BH, S, 64] @ DRAM, LSE: f32[BH, S] @ DRAM):
    attention_textbook(
        BH, S, 64, 0, Q[:, :, :], K[:, :, :], V[:, :, :], O[:, :, :], LSE[:, :])
