// The naive twin of the split-k GEMM examples/gemm_splitk_sm90a.mlir
// (docs/running.md): C = A * B^T with K = S * KC, A and B taken as
// [rows, S, KC], summed over k = (s, kc) in order from 0. The kernel sums
// each chunk s separately and adds the S partial sums into C, so the two
// differ by rounding.

exogpu.proc @gemm_splitk_ref(%M: size, %N: size, %S: size, %KC: size,
    %A: f32[%M, %S, %KC] @DRAM, %B: f32[%N, %S, %KC] @DRAM,
    %C: f32[%M, %N] @DRAM) {
  exogpu.for %i in seq(0, %M) {
    exogpu.for %j in seq(0, %N) {
      %acc = exogpu.alloc f32 @DRAM
      exogpu.assign %acc[] = 0.0 : f32 @DRAM
      exogpu.for %s in seq(0, %S) {
        exogpu.for %k in seq(0, %KC) {
          exogpu.reduce %acc[] += %A[%i, %s, %k] * %B[%j, %s, %k] : f32 @DRAM, f32[?, ?, ?] @DRAM, f32[?, ?, ?] @DRAM
        }
      }
      exogpu.assign %C[%i, %j] = %acc[] : f32[?, ?] @DRAM, f32 @DRAM
    }
  }
}
