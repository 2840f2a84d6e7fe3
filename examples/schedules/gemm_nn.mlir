// The naive GEMM C = A * B (A: M x K, B: K x N, row major): three seq loops,
// the program p1 of the chain of equivalence (paper Sec. 2.3) that
// sm80_gemm_schedule.mlir rewrites into the Ampere kernel of
// examples/sm80_gemm.mlir. The parameters live in host memory (DRAM) until
// the schedule launches the loops as a kernel. The instructions the
// schedule replaces loops by come from the instruction library it imports.

exogpu.import "sm80"

exogpu.proc @gemm_sm80(%M: size, %N: size, %K: size,
    %A: f32[%M, %K] @DRAM, %B: f32[%K, %N] @DRAM, %C: f32[%M, %N] @DRAM)
    requires %M mod 128 == 0 and %N mod 128 == 0 and %K mod 16 == 0 {
  exogpu.for %i in seq(0, %M) {
    exogpu.for %j in seq(0, %N) {
      exogpu.assign %C[%i, %j] = 0.0 : f32[?, ?] @DRAM
      exogpu.for %k in seq(0, %K) {
        exogpu.reduce %C[%i, %j] += %A[%i, %k] * %B[%k, %j] : f32[?, ?] @DRAM, f32[?, ?] @DRAM, f32[?, ?] @DRAM
      }
    }
  }
}
