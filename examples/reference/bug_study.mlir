// The naive twins of the bug study's correct kernels (examples/bug-study,
// docs/gpu-validation.md).
//  * @splitk_gemv_ref: y += A * x in the order of the meaning of
//    @splitk_gemv: per row, the even columns summed into y first, then
//    the odd ones (task ks = 0 before ks = 1);
//  * @scale2_ref: C = 2 X, @scale_tma_store.

exogpu.proc @splitk_gemv_ref(%M: size, %K: size, %A: f32[%M, %K] @DRAM,
                             %x: f32[%K] @DRAM, %y: f32[%M] @DRAM) {
  exogpu.for %i in seq(0, %M) {
    exogpu.for %ks in seq(0, 2) {
      %acc = exogpu.alloc f32 @DRAM
      exogpu.assign %acc[] = 0.0 : f32 @DRAM
      exogpu.for %j in seq(0, %K / 2) {
        exogpu.reduce %acc[] += %A[%i, %j * 2 + %ks] * %x[%j * 2 + %ks] : f32 @DRAM, f32[?, ?] @DRAM, f32[?] @DRAM
      }
      exogpu.reduce %y[%i] += %acc[] : f32[?] @DRAM, f32 @DRAM
    }
  }
}

exogpu.proc @scale2_ref(%M: size, %X: f32[%M, 32] @DRAM, %C: f32[%M, 32] @DRAM) {
  exogpu.for %i in seq(0, %M) {
    exogpu.for %j in seq(0, 32) {
      exogpu.assign %C[%i, %j] = %X[%i, %j] * 2.0 : f32[?, 32] @DRAM, f32[?, 32] @DRAM
    }
  }
}
