exogpu.proc @gemv(%M: size, %N: size, %A: f32[%M, %N] @CudaGmemLinear,
                  %x: f32[%N] @CudaGmemLinear, %y: f32[%M] @CudaGmemLinear)
    requires %M mod 128 == 0 and %N > 0 {
  exogpu.device_function(blockDim = 128) {
    exogpu.for %task in cuda_tasks(0, %M / 128) {
      exogpu.for %t in cuda_threads(0, 128, unit = cuda_thread) {
        %acc = exogpu.alloc f32 @CudaRmem
        exogpu.assign %acc[] = 0.0 : f32 @CudaRmem
        exogpu.for %j in seq(0, %N) {
          exogpu.reduce %acc[] += %A[%task * 128 + %t, %j] * %x[%j] : f32 @CudaRmem, f32[?, ?] @CudaGmemLinear, f32[?] @CudaGmemLinear
        }
        exogpu.assign %y[%task * 128 + %t] = %acc[] : f32[?] @CudaGmemLinear, f32 @CudaRmem
      }
    }
  }
}
