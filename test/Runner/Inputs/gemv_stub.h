// A hand-written stand-in for what `exogpu-translate --to-cuda-header` emits
// for examples/gemv.mlir (the host API: one C function per proc, a stream
// first, then one parameter per proc parameter; read-only data as const
// pointers). Used to test generated drivers without the translation.
#include <cuda_runtime.h>
#include <stdint.h>

extern "C" cudaError_t gemv(cudaStream_t stream, int64_t M, int64_t N,
                            const float *A, const float *x, float *y);
