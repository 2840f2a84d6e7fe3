// The naive twin of the CTA reductions of examples/cta_reduction.mlir: every
// element of a 128-element chunk of `out` is the sum of that chunk of
// `gmem`, summed in order (docs/running.md).

exogpu.proc @cta_sum_ref(%N: size, %gmem: f32[%N] @DRAM, %out: f32[%N] @DRAM) {
  exogpu.for %chunk in seq(0, %N / 128) {
    %sum = exogpu.alloc f32 @DRAM
    exogpu.assign %sum[] = 0.0 : f32 @DRAM
    exogpu.for %i in seq(0, 128) {
      exogpu.reduce %sum[] += %gmem[%chunk * 128 + %i] : f32 @DRAM, f32[?] @DRAM
    }
    exogpu.for %i in seq(0, 128) {
      exogpu.assign %out[%chunk * 128 + %i] = %sum[] : f32[?] @DRAM, f32 @DRAM
    }
  }
}
