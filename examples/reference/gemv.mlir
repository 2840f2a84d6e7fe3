// The naive twin of the GEMV kernels examples/gemv.mlir and
// examples/gemv_shuffle.mlir: y = A x, one dot product per row summed in
// column order (docs/running.md).

exogpu.proc @gemv_ref(%M: size, %N: size, %A: f32[%M, %N] @DRAM,
                      %x: f32[%N] @DRAM, %y: f32[%M] @DRAM) {
  exogpu.for %i in seq(0, %M) {
    %acc = exogpu.alloc f32 @DRAM
    exogpu.assign %acc[] = 0.0 : f32 @DRAM
    exogpu.for %j in seq(0, %N) {
      exogpu.reduce %acc[] += %A[%i, %j] * %x[%j] : f32 @DRAM, f32[?, ?] @DRAM, f32[?] @DRAM
    }
    exogpu.assign %y[%i] = %acc[] : f32[?] @DRAM, f32 @DRAM
  }
}
