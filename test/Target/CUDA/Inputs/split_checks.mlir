// Procs that split dimensions of dynamic extent: their host functions check
// that each extent is a multiple of its split factor (split-checks.test).

// The rank-3 proc a split view is passed to: sums[m, s] is the sum of chunk
// s of row m.
exogpu.proc @chunk_sums(%M: size, %S: size, %KC: size,
    %A: f32[%M, %S, %KC] @CudaGmemLinear, %sums: f32[%M, %S] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %m in cuda_tasks(0, %M) {
      exogpu.for %s in cuda_tasks(0, %S) {
        exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
          exogpu.assign %sums[%m, %s] = 0.0 : f32[?, ?] @CudaGmemLinear
          exogpu.for %k in seq(0, %KC) {
            exogpu.reduce %sums[%m, %s] += %A[%m, %s, %k] : f32[?, ?] @CudaGmemLinear, f32[?, ?, ?] @CudaGmemLinear
          }
        }
      }
    }
  }
}

// A host split, passed as the rank-3 parameter, under a guard: K is checked
// where the split is, when K >= 64.
exogpu.proc @row_chunk_sums(%M: size, %K: size, %A: f32[%M, %K] @CudaGmemLinear,
    %sums: f32[%M, %K / 64] @CudaGmemLinear) {
  exogpu.if %K >= 64 {
    %A_chunks = exogpu.split %A dim 1 by 64 : f32[?, ?] @CudaGmemLinear
    exogpu.call @chunk_sums[%M, %K / 64, 64](%A_chunks, %sums) : window f32[?, ?, 64] @CudaGmemLinear, f32[?, ?] @CudaGmemLinear
  }
}

// A split in a kernel: K is checked before the launch.
exogpu.proc @scale_chunks(%M: size, %K: size, %x: f32[%M, %K] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %m in cuda_tasks(0, %M) {
      exogpu.for %c in cuda_tasks(0, %K / 32) {
        %x_chunks = exogpu.split %x dim 1 by 32 : f32[?, ?] @CudaGmemLinear
        exogpu.for %t in cuda_threads(0, 32, unit = cuda_thread) {
          exogpu.assign %x_chunks[%m, %c, %t] = %x_chunks[%m, %c, %t] + %x_chunks[%m, %c, %t] : window f32[?, ?, 32] @CudaGmemLinear
        }
      }
    }
  }
}
