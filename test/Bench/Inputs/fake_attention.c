/* The ExoGPU attention host functions for test/Bench/attention.test: the
   same signatures (bench/attention.py calls them through ctypes), computed
   naively on host memory in float (the stand-in torch keeps every tensor in
   float32), so the benchmark's run stage can be exercised without a GPU.
   attention_fwd_d64 answers cudaErrorInvalidValue (1), to show a failing
   kernel in the table. The ping-pong kernels (D = 128) compute the same,
   except that the causal one forgets the mask when S > 128, to show a
   wrong one. */
#include <math.h>
#include <stdint.h>

static int attention(int64_t bh, int64_t s, int64_t d, int causal,
                     const float *q, const float *k, const float *v,
                     float *o, float *lse) {
  for (int64_t h = 0; h < bh; ++h)
    for (int64_t i = 0; i < s; ++i) {
      const float *qi = q + (h * s + i) * d;
      double m = -INFINITY, sum = 0;
      for (int64_t j = 0; j < s && (!causal || j <= i); ++j) {
        double dot = 0;
        for (int64_t c = 0; c < d; ++c) dot += qi[c] * k[(h * s + j) * d + c];
        m = fmax(m, dot / sqrt((double)d));
      }
      float *oi = o + (h * s + i) * d;
      for (int64_t c = 0; c < d; ++c) oi[c] = 0;
      for (int64_t j = 0; j < s && (!causal || j <= i); ++j) {
        double dot = 0;
        for (int64_t c = 0; c < d; ++c) dot += qi[c] * k[(h * s + j) * d + c];
        double p = exp(dot / sqrt((double)d) - m);
        sum += p;
        for (int64_t c = 0; c < d; ++c) oi[c] += p * v[(h * s + j) * d + c];
      }
      for (int64_t c = 0; c < d; ++c) oi[c] /= sum;
      lse[h * s + i] = m + log(sum);
    }
  return 0;
}

int attention_fwd_d128(void *stream, int64_t bh, int64_t s, const float *q,
                       const float *k, const float *v, float *o, float *lse) {
  return attention(bh, s, 128, 0, q, k, v, o, lse);
}
int attention_fwd_d128_causal(void *stream, int64_t bh, int64_t s,
                              const float *q, const float *k, const float *v,
                              float *o, float *lse) {
  return attention(bh, s, 128, 1, q, k, v, o, lse);
}
int attention_fwd_d64(void *stream, int64_t bh, int64_t s, const float *q,
                      const float *k, const float *v, float *o, float *lse) {
  return 1;
}
int attention_fwd_d64_causal(void *stream, int64_t bh, int64_t s,
                             const float *q, const float *k, const float *v,
                             float *o, float *lse) {
  return attention(bh, s, 64, 1, q, k, v, o, lse);
}
int attention_fwd_d128_pingpong(void *stream, int64_t bh, int64_t s,
                                const float *q, const float *k,
                                const float *v, float *o, float *lse) {
  return attention(bh, s, 128, 0, q, k, v, o, lse);
}
int attention_fwd_d128_causal_pingpong(void *stream, int64_t bh, int64_t s,
                                       const float *q, const float *k,
                                       const float *v, float *o, float *lse) {
  return attention(bh, s, 128, s <= 128, q, k, v, o, lse);
}
