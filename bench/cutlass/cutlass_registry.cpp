//===- cutlass_registry.cpp - The table of the CUTLASS kernels ------------===//
//
// Part of ExoGPU. Lists the kernels of kernels.def for the GEMM benchmark;
// each one's functions are defined in its own object, compiled from
// cutlass_gemm.cu (bench/kernels.py). The declarations are weak: a kernel
// whose object is not linked (kernels.py --cutlass selects them) has null
// functions, and the benchmark leaves it out.
//
//===----------------------------------------------------------------------===//

#include "cutlass_gemm.h"

namespace exogpu_bench {

#define CUTLASS_GEMM(name, kind, tile_m, tile_n, tile_k, cluster_m, cluster_n, \
                     schedule)                                                 \
  __attribute__((weak)) bool name##_supports(int64_t M, int64_t N, int64_t K); \
  __attribute__((weak)) cudaError_t name(cudaStream_t stream, int64_t M,       \
                                         int64_t N, int64_t K, const void *A,  \
                                         const void *B, void *C);
#include "kernels.def"

const CutlassGemm *cutlass_gemms(int *count) {
  static const CutlassGemm table[] = {
#define CUTLASS_GEMM(name, kind, tile_m, tile_n, tile_k, cluster_m, cluster_n, \
                     schedule)                                                 \
  {#name, #kind, name##_supports, name},
#include "kernels.def"
  };
  *count = int(sizeof(table) / sizeof(table[0]));
  return table;
}

} // namespace exogpu_bench
