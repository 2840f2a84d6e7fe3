// The naive twins of the attention kernels examples/attention_fwd_sm90a.mlir
// (docs/running.md): O = softmax(Q K^T / sqrt(D)) V per head (bh) and the
// log-sum-exp of the scaled scores of each query row, the textbook way with
// the row maximum subtracted: the scores of a row, their maximum, the
// exponentials and their sum, then O. Q, K, V, O are bf16 [BH, S, D] and
// LSE f32 [BH, S]; the causal twins let query i see keys 0..i. The scores
// are formed as the kernels' wgmma bodies form them (the tensor cores'
// arithmetic: exact products of the bf16 operands, copied to f32, summed in
// f32 over d in order), so they equal the kernels' scores; the softmax is
// in f32 in base 2 (exp2((s - max) * log2(e) / sqrt(D)), the same function),
// without the kernels' online rescaling and rounding of P to bf16: the two
// agree within the bf16 and f32 tolerances of exogpu-run --compare.

// One head dimension D and masking (`full`: every key; otherwise keys up to
// the query), for one (bh, i) query row at a time.
exogpu.proc @attention_textbook(%BH: size, %S: size, %D: size, %full: bool,
    %Q: bf16[%BH, %S, %D] @DRAM, %K: bf16[%BH, %S, %D] @DRAM,
    %V: bf16[%BH, %S, %D] @DRAM, %O: bf16[%BH, %S, %D] @DRAM,
    %LSE: f32[%BH, %S] @DRAM) {
  // log2(e) / sqrt(D) for D = 64 and 128.
  %c = exogpu.alloc f32 @DRAM
  exogpu.assign %c[] = 0.18033688011112042 : f32 @DRAM
  exogpu.if %D == 128 {
    exogpu.assign %c[] = 0.12751743082459868 : f32 @DRAM
  }
  %s = exogpu.alloc f32[%S] @DRAM
  %q = exogpu.alloc f32[%D] @DRAM
  %k = exogpu.alloc f32[%D] @DRAM
  %o = exogpu.alloc f32[%D] @DRAM
  %v = exogpu.alloc f32[%D] @DRAM
  %mx = exogpu.alloc f32 @DRAM
  %sum = exogpu.alloc f32 @DRAM
  exogpu.for %bh in seq(0, %BH) {
    exogpu.for %i in seq(0, %S) {
      exogpu.assign %mx[] = -1.0e30 : f32 @DRAM
      exogpu.for %j in seq(0, %S) {
        exogpu.if %full or %j <= %i {
          exogpu.assign %s[%j] = 0.0 : f32[?] @DRAM
          exogpu.for %d in seq(0, %D) {
            exogpu.assign %q[%d] = %Q[%bh, %i, %d] : f32[?] @DRAM, bf16[?, ?, ?] @DRAM
            exogpu.assign %k[%d] = %K[%bh, %j, %d] : f32[?] @DRAM, bf16[?, ?, ?] @DRAM
            exogpu.reduce %s[%j] += %q[%d] * %k[%d] : f32[?] @DRAM, f32[?] @DRAM, f32[?] @DRAM
          }
          exogpu.assign %mx[] = max(%mx[], %s[%j]) : f32 @DRAM, f32[?] @DRAM
        }
      }
      exogpu.assign %sum[] = 0.0 : f32 @DRAM
      exogpu.for %d in seq(0, %D) {
        exogpu.assign %o[%d] = 0.0 : f32[?] @DRAM
      }
      exogpu.for %j in seq(0, %S) {
        exogpu.if %full or %j <= %i {
          exogpu.assign %s[%j] = exp2((%s[%j] - %mx[]) * %c[]) : f32[?] @DRAM, f32 @DRAM, f32 @DRAM
          exogpu.reduce %sum[] += %s[%j] : f32 @DRAM, f32[?] @DRAM
          exogpu.for %d in seq(0, %D) {
            exogpu.assign %v[%d] = %V[%bh, %j, %d] : f32[?] @DRAM, bf16[?, ?, ?] @DRAM
            exogpu.reduce %o[%d] += %s[%j] * %v[%d] : f32[?] @DRAM, f32[?] @DRAM, f32[?] @DRAM
          }
        }
      }
      exogpu.for %d in seq(0, %D) {
        exogpu.assign %O[%bh, %i, %d] = %o[%d] / %sum[] : bf16[?, ?, ?] @DRAM, f32[?] @DRAM, f32 @DRAM
      }
      exogpu.assign %LSE[%bh, %i] = (%mx[] * %c[] + log2(%sum[])) * 0.6931471805599453 : f32[?, ?] @DRAM, f32 @DRAM, f32 @DRAM, f32 @DRAM
    }
  }
}

exogpu.proc @attention_fwd_d128_ref(%BH: size, %S: size,
    %Q: bf16[%BH, %S, 128] @DRAM, %K: bf16[%BH, %S, 128] @DRAM,
    %V: bf16[%BH, %S, 128] @DRAM, %O: bf16[%BH, %S, 128] @DRAM,
    %LSE: f32[%BH, %S] @DRAM) {
  exogpu.call @attention_textbook[%BH, %S, 128, 1](%Q[:, :, :], %K[:, :, :], %V[:, :, :], %O[:, :, :], %LSE[:, :]) : bf16[?, ?, 128] @DRAM, bf16[?, ?, 128] @DRAM, bf16[?, ?, 128] @DRAM, bf16[?, ?, 128] @DRAM, f32[?, ?] @DRAM
}

exogpu.proc @attention_fwd_d128_causal_ref(%BH: size, %S: size,
    %Q: bf16[%BH, %S, 128] @DRAM, %K: bf16[%BH, %S, 128] @DRAM,
    %V: bf16[%BH, %S, 128] @DRAM, %O: bf16[%BH, %S, 128] @DRAM,
    %LSE: f32[%BH, %S] @DRAM) {
  exogpu.call @attention_textbook[%BH, %S, 128, 0](%Q[:, :, :], %K[:, :, :], %V[:, :, :], %O[:, :, :], %LSE[:, :]) : bf16[?, ?, 128] @DRAM, bf16[?, ?, 128] @DRAM, bf16[?, ?, 128] @DRAM, bf16[?, ?, 128] @DRAM, f32[?, ?] @DRAM
}

exogpu.proc @attention_fwd_d64_ref(%BH: size, %S: size,
    %Q: bf16[%BH, %S, 64] @DRAM, %K: bf16[%BH, %S, 64] @DRAM,
    %V: bf16[%BH, %S, 64] @DRAM, %O: bf16[%BH, %S, 64] @DRAM,
    %LSE: f32[%BH, %S] @DRAM) {
  exogpu.call @attention_textbook[%BH, %S, 64, 1](%Q[:, :, :], %K[:, :, :], %V[:, :, :], %O[:, :, :], %LSE[:, :]) : bf16[?, ?, 64] @DRAM, bf16[?, ?, 64] @DRAM, bf16[?, ?, 64] @DRAM, bf16[?, ?, 64] @DRAM, f32[?, ?] @DRAM
}

exogpu.proc @attention_fwd_d64_causal_ref(%BH: size, %S: size,
    %Q: bf16[%BH, %S, 64] @DRAM, %K: bf16[%BH, %S, 64] @DRAM,
    %V: bf16[%BH, %S, 64] @DRAM, %O: bf16[%BH, %S, 64] @DRAM,
    %LSE: f32[%BH, %S] @DRAM) {
  exogpu.call @attention_textbook[%BH, %S, 64, 0](%Q[:, :, :], %K[:, :, :], %V[:, :, :], %O[:, :, :], %LSE[:, :]) : bf16[?, ?, 64] @DRAM, bf16[?, ?, 64] @DRAM, bf16[?, ?, 64] @DRAM, bf16[?, ?, 64] @DRAM, f32[?, ?] @DRAM
}
