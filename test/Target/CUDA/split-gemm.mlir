// RUN: exogpu-translate --to-cuda %s -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %if nvcc %{ %nvcc %sm90a -Werror all-warnings -c %t.cu -o %t.o %}

// A one-kernel tf32 GEMM entry point in the style of examples/gemm_tf32.mlir
// (C = A * B^T, A: M x K, B: N x K) that calls the split-k kernel
// examples/gemm_splitk_sm90a.mlir through split views: A and B split in
// chunks of 4096 along K are its [M, S, KC] and [N, S, KC] parameters
// (S = K / 4096, KC = 4096). The views are the same memory: the call passes
// the pointers A and B unchanged, after checking that K is a multiple of
// 4096 (once: B's split needs no check after A's), and the callee encodes
// its rank-3 tensor maps of them.

// The callee's tensor map of its [M, S, KC] parameter A.
// CHECK-LABEL: extern "C" cudaError_t gemm_splitk_sm90a(cudaStream_t stream, int64_t M, int64_t N, int64_t S, int64_t KC, const float *A, const float *B, float *C) {
// CHECK:       const cuuint64_t dims[] = {cuuint64_t(KC), cuuint64_t(S), cuuint64_t(M)};
// CHECK-NEXT:  const cuuint64_t strides[] = {cuuint64_t(4 * KC), cuuint64_t(4 * S * KC)};
// CHECK-NEXT:  const cuuint32_t box[] = {32, 1, 128};
// CHECK-NEXT:  EXOGPU_TRY(cache.encode(&A_map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 3, A, dims, strides, box, CU_TENSOR_MAP_SWIZZLE_128B));

// CHECK-LABEL: extern "C" cudaError_t gemm_tf32_long_k(cudaStream_t stream, int64_t M, int64_t N, int64_t K, const float *A, const float *B, float *C) {
// CHECK:       if (!(M % 256 == 0 && N % 256 == 0))
// CHECK-NEXT:    return cudaErrorInvalidValue;
// CHECK-NEXT:  // split-gemm.mlir:{{[0-9]+}}: A_chunks = split A dim 1 by 4096
// CHECK-NEXT:  // The split dimension's extent is a multiple of the factor
// CHECK-NEXT:  if (K % 4096 != 0)
// CHECK-NEXT:    return cudaErrorInvalidValue;
// CHECK-NEXT:  // split-gemm.mlir:{{[0-9]+}}: B_chunks = split B dim 1 by 4096
// CHECK-NEXT:  // The split dimension's extent is a multiple of the factor here (a guard around it, or an earlier check)
// CHECK-NEXT:  // split-gemm.mlir:{{[0-9]+}}: call @gemm_splitk_sm90a[M, N, K / 4096, 4096](A_chunks, B_chunks, C)
// CHECK-NEXT:  EXOGPU_TRY(gemm_splitk_sm90a(stream, M, N, K / 4096, 4096, A, B, C));
// CHECK-NEXT:  return cudaSuccess;
exogpu.import "../../../examples/gemm_splitk_sm90a.mlir"

exogpu.proc @gemm_tf32_long_k(%M: size, %N: size, %K: size,
    %A: f32[%M, %K] @CudaGmemLinear, %B: f32[%N, %K] @CudaGmemLinear,
    %C: f32[%M, %N] @CudaGmemLinear)
    requires %M mod 256 == 0 and %N mod 256 == 0 {
  %A_chunks = exogpu.split %A dim 1 by 4096 : f32[?, ?] @CudaGmemLinear
  %B_chunks = exogpu.split %B dim 1 by 4096 : f32[?, ?] @CudaGmemLinear
  exogpu.call @gemm_splitk_sm90a[%M, %N, %K / 4096, 4096](%A_chunks, %B_chunks, %C) : window f32[?, ?, 4096] @CudaGmemLinear, window f32[?, ?, 4096] @CudaGmemLinear, f32[?, ?] @CudaGmemLinear
}
