// Procs whose kernels compute in int: their host functions refuse values
// that could leave 32 bits (host-limits.test).

// N x N tasks: N = 46341 makes 2147488281 tasks.
exogpu.proc @square_tasks(%N: size, %out: f32[%N] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %i in cuda_tasks(0, %N) {
      exogpu.for %j in cuda_tasks(0, %N) {
        exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
          exogpu.if %i == %j {
            exogpu.assign %out[%i] = 1.0 : f32[?] @CudaGmemLinear
          }
        }
      }
    }
  }
}

// A rank-1 buffer of 4 * N bytes: N = 2^29 + 32 makes more than INT32_MAX.
exogpu.proc @bytes(%N: size, %b: ui8[4 * %N] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, %N / 8) {
      exogpu.for %t in cuda_threads(0, 32, unit = cuda_thread) {
        exogpu.assign %b[%task * 32 + %t] = 7 : ui8[?] @CudaGmemLinear
      }
    }
  }
}

// An index passed to the kernel: 2^32 + 1 does not fit its int.
exogpu.proc @offset(%i: index, %x: f32[8] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, 1) {
      exogpu.for %t in cuda_threads(0, 8, unit = cuda_thread) {
        exogpu.if %i == %t {
          exogpu.assign %x[%t] = 1.0 : f32[8] @CudaGmemLinear
        }
      }
    }
  }
}
