// RUN: exogpu-translate --to-cuda %s | FileCheck %s
// RUN: exogpu-translate --to-cuda-header %s | FileCheck %s --check-prefix=HEADER
// RUN: %if nvcc %{ exogpu-translate --to-cuda %s -o %t.cu && %nvcc -arch=sm_80 -Werror all-warnings -c %t.cu -o %t.o %}

// Host functions (docs/cuda-translation.md "Host API"): one per proc, over
// device pointers and sizes on one stream; sizes and preconditions checked
// before anything is enqueued; CPU-scope statements (seeds/002 Sec. 3.4).

// HEADER-LABEL: #ifndef EXOGPU_HOST_MLIR_H
// HEADER: extern "C" {
// HEADER: cudaError_t scale_rows(cudaStream_t stream, int64_t M, int64_t N, bool twice, const float *factors, float *A);
// HEADER: cudaError_t host_loops(cudaStream_t stream, int64_t N, float *h, const float *g);
// HEADER: cudaError_t staged(cudaStream_t stream, int64_t N, const float *src, float *dst);

// The kernel of @scale_rows takes what it uses, proc parameters first.
// CHECK-LABEL: __global__ void __launch_bounds__(32)
// CHECK-NEXT: scale_rows_kernel(int N, bool twice, const float *__restrict__ factors, float *__restrict__ A, int row) {

// CHECK-LABEL: extern "C" cudaError_t scale_rows(cudaStream_t stream, int64_t M, int64_t N, bool twice, const float *factors, float *A) {
// CHECK: if (M < 0 || M > INT32_MAX || N < 0 || N > INT32_MAX)
// CHECK-NEXT: return cudaErrorInvalidValue;
// Every global-memory buffer a kernel indexes with int has at most INT32_MAX
// elements (a rank-1 one sized by one size is bounded by the size check).
// CHECK: if (exo::element_count({M, N}) > INT32_MAX)
// CHECK-NEXT: return cudaErrorInvalidValue;
// CHECK: // The proc's preconditions (`requires`)
// CHECK-NEXT: if (!(N % 32 == 0 && M >= 1))
// CHECK-NEXT: return cudaErrorInvalidValue;
// CHECK: for (int64_t row = 0; row < M; ++row) {
// CHECK: const int64_t exo_tasks = std::max<int64_t>(N / 32, 0);
// The kernel's control values, bounded from the values the host passes
// (host-limits.test).
// CHECK-NEXT: // The kernel computes its control values in int: refuse values that could leave 32 bits
// CHECK-NEXT: if (row > INT32_MAX ||
// CHECK-NEXT:     exo::bound_add(exo::bound_mul(exo::bound_dec(N / 32), 32), 31) > INT32_MAX)
// CHECK-NEXT:   return cudaErrorInvalidValue;
// CHECK: EXOGPU_TRY(exo::persistent_grid(scale_rows_kernel, 32, 1, 0, exo_tasks, &exo_grid));
// CHECK: EXOGPU_TRY(exo::launch(scale_rows_kernel, exo_grid, 32, 1, 0, stream, static_cast<int>(N), twice, factors, A, static_cast<int>(row)));
// CHECK: return cudaSuccess;
exogpu.proc @scale_rows(%M: size, %N: size, %twice: bool,
                        %factors: f32[%M] @CudaGmemLinear,
                        %A: f32[%M, %N] @CudaGmemLinear)
    requires %N mod 32 == 0 and %M >= 1 {
  exogpu.for %row in seq(0, %M) {
    exogpu.device_function(blockDim = 32) {
      exogpu.for %task in cuda_tasks(0, %N / 32) {
        exogpu.for %t in cuda_threads(0, 32, unit = cuda_thread) {
          exogpu.if %twice {
            exogpu.reduce %A[%row, %task * 32 + %t] += %A[%row, %task * 32 + %t] * %factors[%row] : f32[?, ?] @CudaGmemLinear, f32[?] @CudaGmemLinear
          }
        }
      }
    }
  }
}

// CPU statements on host memory, a CPU instruction (its template may name
// the host function's `stream`) and a stream-ordered copy.
exogpu.instr @memcpy_d2h(%dst: f32[64] @DRAM, %src: f32[64] @CudaGmemLinear {init = cpu_cuda_stream_qual, ext = [cpu_cuda_stream_qual]})
    target = cpu, unit = standalone_thread,
    cuda = "EXOGPU_TRY(cudaMemcpyAsync({dst}, {src}, 64 * sizeof(float), cudaMemcpyDeviceToHost, stream));" {
  exogpu.for %i in seq(0, 64) {
    exogpu.assign %dst[%i] = %src[%i] : f32[64] @DRAM, f32[64] @CudaGmemLinear
  }
}

// CHECK-LABEL: extern "C" cudaError_t host_loops(cudaStream_t stream, int64_t N, float *h, const float *g) {
// CHECK: // host.mlir:{{[0-9]+}}: tmp = alloc f32[N] @DRAM
// CHECK-NEXT: std::vector<float> tmp_storage(static_cast<size_t>(N));
// CHECK-NEXT: float *const tmp = tmp_storage.data();
// CHECK: for (int64_t i = 0; i < N; ++i) {
// CHECK: if (i % 2 == 0 || i >= N - 2) {
// CHECK: tmp[i] = h[i] * 2.0f - 1.5f;
// CHECK: h[i] += tmp[i];
// CHECK: for (int64_t j = 0; j < N / 64; ++j) {
// CHECK: EXOGPU_TRY(cudaMemcpyAsync(h + j * 64, g + j * 64, 64 * sizeof(float), cudaMemcpyDeviceToHost, stream));
exogpu.proc @host_loops(%N: size, %h: f32[%N] @DRAM, %g: f32[%N] @CudaGmemLinear)
    requires %N mod 64 == 0 {
  %tmp = exogpu.alloc f32[%N] @DRAM
  exogpu.for %i in seq(0, %N) {
    exogpu.if %i mod 2 == 0 or %i >= %N - 2 {
      exogpu.assign %tmp[%i] = %h[%i] * 2.0 - 1.5 : f32[?] @DRAM, f32[?] @DRAM
      exogpu.reduce %h[%i] += %tmp[%i] : f32[?] @DRAM, f32[?] @DRAM
    }
  }
  exogpu.for %j in seq(0, %N / 64) {
    exogpu.call @memcpy_d2h(%h[%j * 64:%j * 64 + 64], %g[%j * 64:%j * 64 + 64]) : f32[?] @DRAM, f32[?] @CudaGmemLinear
  }
}

// Global memory allocated by a host function is freed with its C++ block;
// proc calls propagate errors; a window passed to a proc is a contiguous
// block of its buffer.
// CHECK-LABEL: extern "C" cudaError_t staged(cudaStream_t stream, int64_t N, const float *src, float *dst) {
// CHECK: buf = alloc f32[N, 4] @CudaGmemLinear
// CHECK-NEXT: if (exo::element_count({N, 4}) > INT32_MAX)
// CHECK-NEXT: return cudaErrorInvalidValue;
// CHECK-NEXT: exo::DeviceArray<float> buf_storage(stream);
// CHECK-NEXT: EXOGPU_TRY(buf_storage.allocate(static_cast<size_t>(N) * 4));
// CHECK-NEXT: float *const buf = buf_storage.get();
// CHECK: EXOGPU_TRY(scale_rows(stream, N, 4, false, src, buf));
// CHECK: EXOGPU_TRY(scale_rows(stream, N / 2, 4, true, src + N / 2, dst + N / 2 * 4));
exogpu.proc @staged(%N: size, %src: f32[%N] @CudaGmemLinear, %dst: f32[%N, 4] @CudaGmemLinear)
    requires %N mod 2 == 0 and %N >= 2 {
  %buf = exogpu.alloc f32[%N, 4] @CudaGmemLinear
  exogpu.call @scale_rows[%N, 4, false](%src, %buf) : f32[?] @CudaGmemLinear, f32[?, 4] @CudaGmemLinear
  exogpu.call @scale_rows[%N / 2, 4, true](%src[%N / 2:%N], %dst[%N / 2:%N, :]) : f32[?] @CudaGmemLinear, f32[?, 4] @CudaGmemLinear
}
