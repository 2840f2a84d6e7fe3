//===- cutlass_gemm.h - CUTLASS kernels as plain host functions -*- C++ -*-===//
//
// Part of ExoGPU. The interface between the GEMM benchmark
// (bench/gemm_bench.cu) and the CUTLASS kernels of kernels.def, each
// compiled on its own from cutlass_gemm.cu against the headers of the PyPI
// package nvidia-cutlass (bench/kernels.py). Nothing here includes CUTLASS:
// the benchmark compiles quickly and links the heavy objects.
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_BENCH_CUTLASS_GEMM_H
#define EXOGPU_BENCH_CUTLASS_GEMM_H

#include <cstdint>
#include <cuda_runtime.h>

namespace exogpu_bench {

/// One CUTLASS kernel of kernels.def: C = A B^T with A: M x K and B: N x K
/// row major (K-major), C: M x N row major; elements float (kind "tf32")
/// or __nv_bfloat16 (kind "bf16").
struct CutlassGemm {
  const char *name;
  const char *kind;
  /// Whether the kernel takes this shape (CUTLASS's can_implement: the
  /// TMA alignment of the strides).
  bool (*supports)(int64_t M, int64_t N, int64_t K);
  /// Enqueues C = A B^T on `stream` (the arguments and the tensor maps are
  /// built on the host at every call, as cuBLAS does).
  cudaError_t (*run)(cudaStream_t stream, int64_t M, int64_t N, int64_t K,
                     const void *A, const void *B, void *C);
};

/// The kernels of kernels.def, in its order; `count` receives how many. A
/// kernel whose object was not linked has null `supports` and `run`.
const CutlassGemm *cutlass_gemms(int *count);

} // namespace exogpu_bench

#endif // EXOGPU_BENCH_CUTLASS_GEMM_H
