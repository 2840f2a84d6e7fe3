// RUN: exogpu-opt %s -split-input-file --convert-exogpu-to-exoam -verify-diagnostics | FileCheck %s

// The translation of exogpu.split to the abstract machine (docs/abstract-
// machine.md, "Splits"): coordinate (i, j) of a split dimension is
// i * factor + j of the variable; the split checks that the extent is a
// multiple of the factor, and every access through it that its coordinates
// lie within the split's dimensions. An access must still be a box of the
// variable.

// CHECK-LABEL: exoam.proc @copy_chunks(
// CHECK: exoam.check_condition %K mod 32 == 0, "the extent of dimension 1 of the split buffer being a multiple of the split factor 32"
// CHECK: exoam.check_condition {{.*}}%arg2 < 32, "the access's coordinates lying within the split window it is taken through"
// CHECK: exoam.record_read fully_ordered @A[%arg0, %arg1 * 32 + %arg2]
// CHECK: exoam.record_mutate fully_ordered @B[%arg0, %arg1 * 32 + %arg2]
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

// Bug: the first 16 elements of each of two chunks are not a box of the
// buffer; the machine tracks boxes only.
exogpu.proc @strided(%M: size, %K: size, %A: f32[%M, %K] @CudaGmemLinear, %B: f32[16] @CudaGmemLinear) {
  %A_chunks = exogpu.split %A dim 1 by 32 : f32[?, ?] @CudaGmemLinear
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, 1) {
      exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
        // expected-error @below {{sync check: the access takes a strided set of elements along dimension 1 of @A through a split; only boxes are supported: access one chunk at a time, or whole chunks}}
        exogpu.call @copy_block(%A_chunks[0, 0:2, 0:16], %B) : window f32[?, ?, 32] @CudaGmemLinear, f32[16] @CudaGmemLinear
      }
    }
  }
}
exogpu.instr @copy_block(%src: f32[2, 16] @CudaGmemLinear, %dst: f32[16] @CudaGmemLinear) target = cuda, unit = cuda_thread, cuda = "/* {src} {dst} */" {
  exogpu.for %i in seq(0, 16) {
    exogpu.assign %dst[%i] = %src[0, %i] + %src[1, %i] : f32[16] @CudaGmemLinear, f32[2, 16] @CudaGmemLinear
  }
}

// -----

// Twin: two whole chunks, and a window of one chunk, are boxes.
// CHECK-LABEL: exoam.proc @boxes(
// CHECK: @A[0, 32 to 95]
// CHECK: @A[0, 64 to 79]
exogpu.proc @boxes(%M: size, %K: size, %A: f32[%M, %K] @CudaGmemLinear, %B: f32[16] @CudaGmemLinear) {
  %A_chunks = exogpu.split %A dim 1 by 32 : f32[?, ?] @CudaGmemLinear
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, 1) {
      exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
        exogpu.call @add_chunks(%A_chunks[0, 1:3, :], %B) : window f32[?, ?, 32] @CudaGmemLinear, f32[16] @CudaGmemLinear
        exogpu.call @copy_row(%A_chunks[0, 2, 0:16], %B) : window f32[?, ?, 32] @CudaGmemLinear, f32[16] @CudaGmemLinear
      }
    }
  }
}
exogpu.instr @add_chunks(%src: f32[2, 32] @CudaGmemLinear, %dst: f32[16] @CudaGmemLinear) target = cuda, unit = cuda_thread, cuda = "/* {src} {dst} */" {
  exogpu.for %i in seq(0, 16) {
    exogpu.assign %dst[%i] = %src[0, %i] + %src[1, %i] : f32[16] @CudaGmemLinear, f32[2, 32] @CudaGmemLinear
  }
}
exogpu.instr @copy_row(%src: f32[16] @CudaGmemLinear, %dst: f32[16] @CudaGmemLinear) target = cuda, unit = cuda_thread, cuda = "/* {src} {dst} */" {
  exogpu.for %i in seq(0, 16) {
    exogpu.assign %dst[%i] = %src[%i] : f32[16] @CudaGmemLinear, f32[16] @CudaGmemLinear
  }
}

// -----

// A split of a window that starts inside its buffer, and a split of a split:
// element (1, 3) of the chunks of A[0, 64:128] is A[0, 64 + 32 + 3]; the
// chunks of 32 seen as [4, 8] take rows 1 to 2 of chunk 1 as one box.
// Checks of constants that hold are left out (static extents, constant
// coordinates within the split).
// CHECK-LABEL: exoam.proc @nested(
// CHECK-NOT: exoam.check_condition {{.*}} 8"
// CHECK: exoam.check_condition %K mod 32 == 0
// CHECK-NOT: exoam.check_condition
// CHECK: @A[0, 99]
// CHECK: @A[0, 40 to 55]
exogpu.proc @nested(%M: size, %K: size, %A: f32[%M, %K] @CudaGmemLinear, %B: f32[16] @CudaGmemLinear) {
  %row = exogpu.window %A[0, 64:128] : f32[?, ?] @CudaGmemLinear
  %row_chunks = exogpu.split %row dim 0 by 32 : window f32[64] @CudaGmemLinear
  %A_chunks = exogpu.split %A dim 1 by 32 : f32[?, ?] @CudaGmemLinear
  %A_rows = exogpu.split %A_chunks dim 2 by 8 : window f32[?, ?, 32] @CudaGmemLinear
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, 1) {
      exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
        exogpu.assign %row_chunks[1, 3] = 1.0 : window f32[2, 32] @CudaGmemLinear
        exogpu.call @copy_row(%A_rows[0, 1, 1:3, :], %B) : window f32[?, ?, 4, 8] @CudaGmemLinear, f32[16] @CudaGmemLinear
      }
    }
  }
}
exogpu.instr @copy_row(%src: f32[2, 8] @CudaGmemLinear, %dst: f32[16] @CudaGmemLinear) target = cuda, unit = cuda_thread, cuda = "/* {src} {dst} */" {
  exogpu.for %i in seq(0, 8) {
    exogpu.assign %dst[%i] = %src[0, %i] : f32[16] @CudaGmemLinear, f32[2, 8] @CudaGmemLinear
  }
}

// -----

// Bug: chunks of 2^62 split again by 4: the outer coordinate's stride,
// 2^64, does not fit the machine's 64-bit coordinates.
exogpu.proc @stride_overflow(%M: size, %K: size, %A: f32[%M, %K] @CudaGmemLinear) {
  %huge = exogpu.split %A dim 1 by 4611686018427387904 : f32[?, ?] @CudaGmemLinear
  // expected-error @below {{sync check: cannot split dimension 1 of this buffer by 4 (no such dimension, or its stride overflows)}}
  %quads = exogpu.split %huge dim 1 by 4 : window f32[?, ?, 4611686018427387904] @CudaGmemLinear
}
