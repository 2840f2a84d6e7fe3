// Deliberately wrong twins of the examples, each off by one: the runner
// must report them.

// The column loop stops one short.
exogpu.proc @gemv_short_ref(%M: size, %N: size, %A: f32[%M, %N] @DRAM,
                            %x: f32[%N] @DRAM, %y: f32[%M] @DRAM) {
  exogpu.for %i in seq(0, %M) {
    %acc = exogpu.alloc f32 @DRAM
    exogpu.assign %acc[] = 0.0 : f32 @DRAM
    exogpu.for %j in seq(0, %N - 1) {
      exogpu.reduce %acc[] += %A[%i, %j] * %x[%j] : f32 @DRAM, f32[?, ?] @DRAM, f32[?] @DRAM
    }
    exogpu.assign %y[%i] = %acc[] : f32[?] @DRAM, f32 @DRAM
  }
}

// A's column index is one behind B's (in bounds: k runs from 1).
exogpu.proc @gemm_abt_shifted_ref(%M: size, %N: size, %K: size,
    %A: f32[%M, %K] @DRAM, %B: f32[%N, %K] @DRAM, %C: f32[%M, %N] @DRAM) {
  exogpu.for %i in seq(0, %M) {
    exogpu.for %j in seq(0, %N) {
      %acc = exogpu.alloc f32 @DRAM
      exogpu.assign %acc[] = 0.0 : f32 @DRAM
      exogpu.for %k in seq(1, %K) {
        exogpu.reduce %acc[] += %A[%i, %k - 1] * %B[%j, %k] : f32 @DRAM, f32[?, ?] @DRAM, f32[?, ?] @DRAM
      }
      exogpu.assign %C[%i, %j] = %acc[] : f32[?, ?] @DRAM, f32 @DRAM
    }
  }
}

// Y's index is one ahead: the last element reads past the end of Y.
exogpu.proc @vector_add_ahead_ref(%N: size, %X: f32[%N] @DRAM,
                                  %Y: f32[%N] @DRAM, %Z: f32[%N] @DRAM) {
  exogpu.for %i in seq(0, %N) {
    exogpu.assign %Z[%i] = %X[%i] + %Y[%i + 1] : f32[?] @DRAM, f32[?] @DRAM, f32[?] @DRAM
  }
}
