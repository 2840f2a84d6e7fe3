// A proc that runs entirely on the host (CPU-scope statements on DRAM
// buffers, seeds/002 Sec. 3.4): its host function launches nothing, so the
// Python tests call it without a GPU. y += a * x (row by row: y is read
// and written), z[i] = a[i, 0] * 2 (z is only written).
exogpu.proc @host_scale(%M: size, %N: size, %a: f32[%M, %N] @DRAM,
                        %x: f32[%N] @DRAM, %y: f32[%M, %N] @DRAM,
                        %z: f32[%M] @DRAM)
    requires %N mod 4 == 0 {
  exogpu.for %i in seq(0, %M) {
    exogpu.assign %z[%i] = %a[%i, 0] * 2.0 : f32[?] @DRAM, f32[?, ?] @DRAM
    exogpu.for %j in seq(0, %N) {
      exogpu.reduce %y[%i, %j] += %a[%i, %j] * %x[%j] : f32[?, ?] @DRAM, f32[?, ?] @DRAM, f32[?] @DRAM
    }
  }
}
