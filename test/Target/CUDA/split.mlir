// RUN: exogpu-translate --to-cuda --split-input-file --verify-diagnostics %s -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %if nvcc %{ %nvcc %sm90a -Werror all-warnings -c %t.cu -o %t.o %}

// exogpu.split views dimension `dim` (extent E) of a buffer as the two
// dimensions [E / factor, factor]. The translation reads a split view as a
// row-major reshape of its buffer's storage (BufferView::extents): an
// element keeps its linear offset, so element references, pointers and
// strides follow from the reshaped extents, and a tensor map of a split view
// has one dimension more. The host function checks that a dynamic E is a
// multiple of the factor (split-checks.test runs those checks).

// Element references through split views: element (m, c, t) of the split
// of x: [M, K] by 32 is x[m, c * 32 + t]. A split in the kernel is checked
// on the host, before the launch; a split of a split dimension of constant
// extent (32 by 4) needs no check.
// CHECK-LABEL: copy_chunks_kernel(int M, int K, const float *__restrict__ x, float *__restrict__ y) {
// CHECK:       // {{.*}}: assign y_quads[m, c, t / 4, t mod 4] = x_chunks[m, c, t]
// CHECK-NEXT:  y[m * ((K / 32) * 32) + c * 32 + t / 4 * 4 + t % 4] = x[m * ((K / 32) * 32) + c * 32 + t];
// CHECK-LABEL: extern "C" cudaError_t copy_chunks(
// CHECK:       // {{.*}}: x_chunks = split x dim 1 by 32
// CHECK-NEXT:  // The split dimension's extent is a multiple of the factor
// CHECK-NEXT:  if (K % 32 != 0)
// CHECK-NEXT:    return cudaErrorInvalidValue;
// CHECK:       // {{.*}}: device_function(blockDim = 32)
// CHECK-NEXT:  {
// CHECK-NEXT:    // The kernel's split dimensions are multiples of their split factors
// CHECK-NEXT:    if (K % 32 != 0)
// CHECK-NEXT:      return cudaErrorInvalidValue;
// CHECK-NEXT:    const int64_t exo_tasks =
// CHECK-NOT:   % 4 != 0
// CHECK:       return cudaSuccess;
exogpu.import "sm90a"

exogpu.proc @copy_chunks(%M: size, %K: size, %x: f32[%M, %K] @CudaGmemLinear, %y: f32[%M, %K] @CudaGmemLinear) {
  %x_chunks = exogpu.split %x dim 1 by 32 : f32[?, ?] @CudaGmemLinear
  exogpu.device_function(blockDim = 32) {
    exogpu.for %m in cuda_tasks(0, %M) {
      exogpu.for %c in cuda_tasks(0, %K / 32) {
        %y_chunks = exogpu.split %y dim 1 by 32 : f32[?, ?] @CudaGmemLinear
        %y_quads = exogpu.split %y_chunks dim 2 by 4 : window f32[?, ?, 32] @CudaGmemLinear
        exogpu.for %t in cuda_threads(0, 32, unit = cuda_thread) {
          exogpu.assign %y_quads[%m, %c, %t / 4, %t mod 4] = %x_chunks[%m, %c, %t] : window f32[?, ?, 8, 4] @CudaGmemLinear, window f32[?, ?, 32] @CudaGmemLinear
        }
      }
    }
  }
}

// A tensor map of a split view: rank 3, dimensions {32, K / 32, M}
// innermost first, byte strides 4 * 32 and 4 * (K / 32) * 32 (= 4 * K), the
// box of one chunk; the TMA load's coordinates are the split view's.
// CHECK-LABEL: tma_chunk_kernel(
// CHECK:       cp.async.bulk.tensor.3d{{.*}}"l"(&A_map), "r"(0), "r"(1), "r"(0),
// CHECK-LABEL: extern "C" cudaError_t tma_chunk(
// CHECK:       if (K % 32 != 0)
// CHECK:       // {{.*}}: A_map = window A_chunks[:, :, :] @Sm90_tensorMap(128, 128, 1, 32)
// CHECK-NEXT:  CUtensorMap A_map;
// CHECK-NEXT:  {
// CHECK-NEXT:    static thread_local exo::TensorMapCache cache;
// CHECK-NEXT:    const cuuint64_t dims[] = {cuuint64_t(32), cuuint64_t(K / 32), cuuint64_t(M)};
// CHECK-NEXT:    const cuuint64_t strides[] = {cuuint64_t(4 * 32), cuuint64_t(4 * (K / 32) * 32)};
// CHECK-NEXT:    const cuuint32_t box[] = {32, 1, 128};
// CHECK-NEXT:    EXOGPU_TRY(cache.encode(&A_map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 3, A, dims, strides, box, CU_TENSOR_MAP_SWIZZLE_128B));
exogpu.proc @tma_chunk(%M: size, %K: size, %A: f32[%M, %K] @CudaGmemLinear, %out: f32[128] @CudaGmemLinear) requires %M >= 128 and %K >= 64 {
  %A_chunks = exogpu.split %A dim 1 by 32 : f32[?, ?] @CudaGmemLinear
  %A_map = exogpu.window %A_chunks[:, :, :] @Sm90_tensorMap(128, 128, 1, 32) : window f32[?, ?, 32] @CudaGmemLinear
  exogpu.device_function(blockDim = 128) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %smem = exogpu.alloc f32[128, 32] @Sm90_SmemSwizzled(128)
      %full = exogpu.alloc barrier @CudaMbarrier
      exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
        exogpu.call @Sm90_tma_load_3d_128x32_f32(%smem, %A_map[0:128, 1:2, :]) >> %full : f32[128, 32] @Sm90_SmemSwizzled(128), window f32[?, ?, 32] @CudaGmemLinear @Sm90_tensorMap(128, 128, 1, 32), barrier @CudaMbarrier
        exogpu.arrive(tma_to_smem_async, 1) >> %full : barrier @CudaMbarrier
      }
      exogpu.await(%full, cuda_generic_and_async, -1) : barrier @CudaMbarrier
      exogpu.for %t in cuda_threads(0, 128, unit = cuda_thread) {
        exogpu.assign %out[%t] = %smem[%t, 0] : f32[128] @CudaGmemLinear, f32[128, 32] @Sm90_SmemSwizzled(128)
      }
      exogpu.fence(cuda_generic_and_async, cuda_in_order)
    }
  }
}

// Shared memory splits like global memory: s: [256] as rows [8, 32].
// CHECK-LABEL: transpose_kernel(
// CHECK:       // {{.*}}: assign rows[i, t] = x[i * 32 + t]
// CHECK-NEXT:  s[i * 32 + t] = x[i * 32 + t];
// CHECK:       // {{.*}}: assign x[t * 8 + i] = rows[i, t]
// CHECK-NEXT:  x[t * 8 + i] = s[i * 32 + t];
exogpu.proc @transpose(%x: f32[256] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %s = exogpu.alloc f32[256] @CudaSmemLinear
      %rows = exogpu.split %s dim 0 by 32 : f32[256] @CudaSmemLinear
      exogpu.for %t in cuda_threads(0, 32, unit = cuda_thread) {
        exogpu.for %i in seq(0, 8) {
          exogpu.assign %rows[%i, %t] = %x[%i * 32 + %t] : window f32[8, 32] @CudaSmemLinear, f32[256] @CudaGmemLinear
        }
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
      exogpu.for %t in cuda_threads(0, 32, unit = cuda_thread) {
        exogpu.for %i in seq(0, 8) {
          exogpu.assign %x[%t * 8 + %i] = %rows[%i, %t] : f32[256] @CudaGmemLinear, window f32[8, 32] @CudaSmemLinear
        }
      }
    }
  }
}

// Windows of a split view passed to a proc: pointers into the buffer
// (rows 0-1 and 2-3 of x: [16] split into [4, 4] are x and x + 8), and two
// windows with constant bounds that are disjoint pass the aliasing check.
// CHECK-LABEL: extern "C" cudaError_t halves(
// CHECK:       EXOGPU_TRY(add_rows(stream, x + 8, x));
exogpu.proc @add_rows(%a: f32[2, 4] @CudaGmemLinear, %b: f32[2, 4] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 8) {
    exogpu.for %task in cuda_tasks(0, 1) {
      exogpu.for %t in cuda_threads(0, 8, unit = cuda_thread) {
        exogpu.reduce %a[%t / 4, %t mod 4] += %b[%t / 4, %t mod 4] : f32[2, 4] @CudaGmemLinear, f32[2, 4] @CudaGmemLinear
      }
    }
  }
}
exogpu.proc @halves(%x: f32[16] @CudaGmemLinear) {
  %rows = exogpu.split %x dim 0 by 4 : f32[16] @CudaGmemLinear
  exogpu.call @add_rows(%rows[2:4, :], %rows[0:2, :]) : window f32[4, 4] @CudaGmemLinear
}

// -----

// A window that narrows a dimension is not split (its rows would not be
// rows of the buffer's storage): the buffer is split first.
exogpu.proc @narrowed(%x: f32[64] @CudaGmemLinear) {
  %w = exogpu.window %x[16:48] : f32[64] @CudaGmemLinear
  // expected-error @below {{CUDA translation: cannot split dimension 0 of a window of x: the window narrows it, and only a whole dimension of a buffer splits into row-major dimensions; split the buffer first, then take the window of the split}}
  %s = exogpu.split %w dim 0 by 4 : window f32[32] @CudaGmemLinear
}

// -----

// An extent the verifier cannot see (the type says `?`) that is still
// known not to divide.
exogpu.proc @remainder(%N: size, %x: f32[4 * %N + 2] @CudaGmemLinear) {
  // expected-error @below {{CUDA translation: the extent of dimension 0 is not a multiple of the split factor 4 (it leaves a remainder of 2)}}
  %s = exogpu.split %x dim 0 by 4 : f32[?] @CudaGmemLinear
}

// -----

// Two splits of one buffer are views of the same buffer for the aliasing
// check of proc calls.
exogpu.proc @copy(%a: f32[4, 4] @CudaGmemLinear, %b: f32[4, 4] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 16) {
    exogpu.for %task in cuda_tasks(0, 1) {
      exogpu.for %t in cuda_threads(0, 16, unit = cuda_thread) {
        exogpu.assign %a[%t / 4, %t mod 4] = %b[%t mod 4, %t / 4] : f32[4, 4] @CudaGmemLinear, f32[4, 4] @CudaGmemLinear
      }
    }
  }
}
exogpu.proc @aliased(%x: f32[16] @CudaGmemLinear) {
  %rows = exogpu.split %x dim 0 by 4 : f32[16] @CudaGmemLinear
  %also_rows = exogpu.split %x dim 0 by 4 : f32[16] @CudaGmemLinear
  // expected-error @below {{CUDA translation: arguments 0 and 1 of this call may overlap (both are windows of x)}}
  exogpu.call @copy(%rows, %also_rows) : window f32[4, 4] @CudaGmemLinear, window f32[4, 4] @CudaGmemLinear
}

// -----

// Columns of a split view are not a contiguous block.
exogpu.proc @fill(%a: f32[4, 2] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 8) {
    exogpu.for %task in cuda_tasks(0, 1) {
      exogpu.for %t in cuda_threads(0, 8, unit = cuda_thread) {
        exogpu.assign %a[%t / 2, %t mod 2] = 1.0 : f32[4, 2] @CudaGmemLinear
      }
    }
  }
}
exogpu.proc @columns(%x: f32[16] @CudaGmemLinear) {
  %rows = exogpu.split %x dim 0 by 4 : f32[16] @CudaGmemLinear
  // expected-error @below {{CUDA translation: argument 0 is not a contiguous block of its buffer, which a proc parameter needs}}
  exogpu.call @fill(%rows[:, 0:2]) : window f32[4, 4] @CudaGmemLinear
}

// -----

// A tensor map's innermost dimension is the contiguous one of the split
// view too.
exogpu.proc @strided_map(%A: f32[128, 64] @CudaGmemLinear) {
  %A_chunks = exogpu.split %A dim 1 by 32 : f32[128, 64] @CudaGmemLinear
  // expected-error @below {{CUDA translation: TMA needs the innermost dimension of the window to be the buffer's contiguous one}}
  %A_map = exogpu.window %A_chunks[:, :, 0] @Sm90_tensorMap(128, 128, 2) : window f32[128, 2, 32] @CudaGmemLinear
}

// -----

// A split needs no check where its remainder is known to be 0: under a
// guard that is one conjunction with the atom `K mod 8 == 0`, or after an
// earlier check of the same remainder in an enclosing block. A guard with a
// disjunction shows nothing, and what a guard shows ends with its block.
// CHECK-LABEL: extern "C" cudaError_t known_remainders(
// CHECK:       if (K % 8 == 0 && K >= 16) {
// CHECK-NEXT:    // {{.*}}: x_in_guard = split x dim 1 by 8
// CHECK-NEXT:    // The split dimension's extent is a multiple of the factor here (a guard around it, or an earlier check)
// CHECK:       if (K % 8 == 0 || K >= 64) {
// CHECK-NEXT:    // {{.*}}: x_in_or = split x dim 1 by 8
// CHECK-NEXT:    // The split dimension's extent is a multiple of the factor
// CHECK-NEXT:    if (K % 8 != 0)
// CHECK-NEXT:      return cudaErrorInvalidValue;
// CHECK:       // {{.*}}: x_after = split x dim 1 by 8
// CHECK-NEXT:  // The split dimension's extent is a multiple of the factor
// CHECK-NEXT:  if (K % 8 != 0)
// CHECK-NEXT:    return cudaErrorInvalidValue;
// CHECK-NEXT:  // {{.*}}: y_after = split y dim 1 by 8
// CHECK-NEXT:  // The split dimension's extent is a multiple of the factor here (a guard around it, or an earlier check)
exogpu.proc @known_remainders(%K: size, %x: f32[4, %K] @DRAM, %y: f32[4, %K] @DRAM) {
  exogpu.if %K mod 8 == 0 and %K >= 16 {
    %x_in_guard = exogpu.split %x dim 1 by 8 : f32[4, ?] @DRAM
    exogpu.assign %x_in_guard[0, 1, 0] = 1.0 : window f32[4, ?, 8] @DRAM
  }
  exogpu.if %K mod 8 == 0 or %K >= 64 {
    %x_in_or = exogpu.split %x dim 1 by 8 : f32[4, ?] @DRAM
    exogpu.assign %x_in_or[0, 0, 0] = 2.0 : window f32[4, ?, 8] @DRAM
  }
  %x_after = exogpu.split %x dim 1 by 8 : f32[4, ?] @DRAM
  %y_after = exogpu.split %y dim 1 by 8 : f32[4, ?] @DRAM
  exogpu.assign %y_after[1, 0, 3] = %x_after[1, 0, 2] : window f32[4, ?, 8] @DRAM, window f32[4, ?, 8] @DRAM
}
