// RUN: exogpu-opt %s -split-input-file --exogpu-sync-check="M=4,K=128" -verify-diagnostics -o /dev/null
// RUN: exogpu-opt %s -split-input-file --exogpu-sync-check="M=4,K=128,engine=reference" -verify-diagnostics -o /dev/null
// RUN: exogpu-opt %s -split-input-file --exogpu-sync-check="M=4,K=128,replay-tasks=false" -verify-diagnostics -o /dev/null

// Accesses through exogpu.split (a window viewing one dimension of a buffer
// as [E / factor, factor]) are accesses of the buffer's own elements: the
// translation maps coordinate (i, j) of the split dimension to i * factor + j
// of the variable, so hazards between a split and its buffer are found like
// any other. The sequential program is defined only where the extent is a
// multiple of the factor and every coordinate lies within its dimension of
// the split (not only within the buffer). Each bug has its accepted twin
// (test/Conversion/exogpu-to-exoam-split.mlir: how splits are translated,
// and the accesses the machine cannot track).
// At M = 4, K = 128 (chunks of 32).

// Accepted: each task copies one chunk of one row, a thread per element.
exogpu.proc @copy_chunks(%M: size, %K: size, %A: f32[%M, %K] @CudaGmemLinear, %B: f32[%M, %K] @CudaGmemLinear) {
  %A_chunks = exogpu.split %A dim 1 by 32 : f32[?, ?] @CudaGmemLinear
  %B_chunks = exogpu.split %B dim 1 by 32 : f32[?, ?] @CudaGmemLinear
  exogpu.device_function(blockDim = 32) {
    exogpu.for %m in cuda_tasks(0, %M) {
      exogpu.for %s in cuda_tasks(0, %K / 32) {
        exogpu.for %t in cuda_threads(0, 32, unit = cuda_thread) {
          exogpu.assign %B_chunks[%m, %s, %t] = %A_chunks[%m, %s, %t] : window f32[?, ?, 32] @CudaGmemLinear, window f32[?, ?, 32] @CudaGmemLinear
        }
      }
    }
  }
}

// -----

// Bug: each task writes its chunk through the split and then reads the
// first element of the next chunk through the buffer itself: the element
// the next task writes, unordered (tasks are never ordered with each
// other).
exogpu.proc @neighbour_chunk(%M: size, %K: size, %A: f32[%M, %K] @CudaGmemLinear, %B: f32[%M, %K] @CudaGmemLinear) {
  %B_chunks = exogpu.split %B dim 1 by 32 : f32[?, ?] @CudaGmemLinear
  exogpu.device_function(blockDim = 32) {
    exogpu.for %s in cuda_tasks(0, %K / 32 - 1) {
      exogpu.for %t in cuda_threads(0, 32, unit = cuda_thread) {
        // expected-error @below {{WAR hazard on @B[0, 32]: this write is not ordered after an earlier read by thread 0 of another task}}
        // expected-note @below {{missing synchronization between the two}}
        exogpu.assign %B_chunks[0, %s, %t] = %A[0, %s * 32 + %t] : window f32[?, ?, 32] @CudaGmemLinear, f32[?, ?] @CudaGmemLinear
        // expected-note @below {{the earlier read is here, run at s = 0, t = 0}}
        exogpu.assign %A[1, %s * 32 + %t] = %B[0, %s * 32 + 32] : f32[?, ?] @CudaGmemLinear, f32[?, ?] @CudaGmemLinear
      }
    }
  }
}

// -----

// Twin: the next chunk's element is read through the split only by the
// task that wrote it.
exogpu.proc @own_chunk(%M: size, %K: size, %A: f32[%M, %K] @CudaGmemLinear, %B: f32[%M, %K] @CudaGmemLinear) {
  %B_chunks = exogpu.split %B dim 1 by 32 : f32[?, ?] @CudaGmemLinear
  exogpu.device_function(blockDim = 32) {
    exogpu.for %s in cuda_tasks(0, %K / 32 - 1) {
      exogpu.for %t in cuda_threads(0, 32, unit = cuda_thread) {
        exogpu.assign %B_chunks[0, %s, %t] = %A[0, %s * 32 + %t] : window f32[?, ?, 32] @CudaGmemLinear, f32[?, ?] @CudaGmemLinear
        exogpu.assign %A[1, %s * 32 + %t] = %B_chunks[0, %s, %t] : f32[?, ?] @CudaGmemLinear, window f32[?, ?, 32] @CudaGmemLinear
      }
    }
  }
}

// -----

// Bug: K = 128 is not a multiple of 48.
exogpu.proc @not_a_multiple(%M: size, %K: size, %A: f32[%M, %K] @CudaGmemLinear) {
  // expected-error @below {{the extent of dimension 1 of the split buffer being a multiple of the split factor 48 does not hold: the sequential program is not defined for these values}}
  %A_chunks = exogpu.split %A dim 1 by 48 : f32[?, ?] @CudaGmemLinear
}

// -----

// Bug: coordinate 40 of a chunk of 32 lies inside the buffer (it is the
// next chunk's element 8) but outside the split's dimension.
exogpu.proc @past_the_chunk(%M: size, %K: size, %A: f32[%M, %K] @CudaGmemLinear) {
  %A_chunks = exogpu.split %A dim 1 by 32 : f32[?, ?] @CudaGmemLinear
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, 1) {
      exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
        // expected-error @below {{the access's coordinates lying within the split window it is taken through does not hold}}
        exogpu.assign %A_chunks[0, 0, 40] = 1.0 : window f32[?, ?, 32] @CudaGmemLinear
      }
    }
  }
}

// -----

// Bug: a window of the split past its last chunk (K / 32 = 4 chunks).
exogpu.proc @window_past_the_end(%M: size, %K: size, %A: f32[%M, %K] @CudaGmemLinear) {
  %A_chunks = exogpu.split %A dim 1 by 32 : f32[?, ?] @CudaGmemLinear
  // expected-error @below {{the window lying within the split window it is taken of does not hold}}
  %w = exogpu.window %A_chunks[:, 3:5, :] : window f32[?, ?, 32] @CudaGmemLinear
}
