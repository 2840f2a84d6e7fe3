// Every kind of parameter a generated GPU driver binds.
exogpu.proc @kinds(%M: size, %off: index, %flag: bool,
                   %A: f16[%M / 2, %M mod 3 + 1] @CudaGmemLinear,
                   %h: f32[%M] @DRAM, %acc: f32[%M] @CudaGmemLinear,
                   %out: i32[%M] @CudaGmemLinear)
    requires %M mod 2 == 0 {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, 1) {
      exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
        exogpu.reduce %acc[0] += %A[0, 0] : f32[?] @CudaGmemLinear, f16[?, ?] @CudaGmemLinear
        exogpu.assign %out[0] = 1 : i32[?] @CudaGmemLinear
      }
    }
  }
  exogpu.assign %h[0] = %h[1] : f32[?] @DRAM
}
