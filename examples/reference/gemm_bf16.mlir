// The naive twin of the bf16 GEMM examples/gemm_bf16_sm90a.mlir
// (docs/running.md): C = A * B^T with bf16 A (M x K), B (N x K) and C,
// accumulated in f32 over k in order from 0 and rounded to bf16 once. The
// kernel's wgmma body forms each product exactly (the tensor cores'
// arithmetic: the bf16 operands copied to f32, where their product fits), as
// this twin does, and sums the same products in the same order.

exogpu.proc @gemm_abt_bf16_ref(%M: size, %N: size, %K: size,
    %A: bf16[%M, %K] @DRAM, %B: bf16[%N, %K] @DRAM, %C: bf16[%M, %N] @DRAM) {
  exogpu.for %i in seq(0, %M) {
    exogpu.for %j in seq(0, %N) {
      %acc = exogpu.alloc f32 @DRAM
      %a = exogpu.alloc f32 @DRAM
      %b = exogpu.alloc f32 @DRAM
      exogpu.assign %acc[] = 0.0 : f32 @DRAM
      exogpu.for %k in seq(0, %K) {
        exogpu.assign %a[] = %A[%i, %k] : f32 @DRAM, bf16[?, ?] @DRAM
        exogpu.assign %b[] = %B[%j, %k] : f32 @DRAM, bf16[?, ?] @DRAM
        exogpu.reduce %acc[] += %a[] * %b[] : f32 @DRAM, f32 @DRAM, f32 @DRAM
      }
      exogpu.assign %C[%i, %j] = %acc[] : bf16[?, ?] @DRAM, f32 @DRAM
    }
  }
}
