//===- gemm_bench.cu - ExoGPU kernels against cuBLAS on one GPU -----------===//
//
// Part of ExoGPU. Times the kernels of examples/ that issue 12 benchmarks
// (translated by exogpu-translate; bench/kernels.py builds this program)
// against their cuBLAS anchors, in one process, on one stream
// (docs/performance.md has the method and the table):
//  * tf32 GEMM, C = A B^T (cublasSgemm, CUBLAS_TF32_TENSOR_OP_MATH, "TN",
//    and CUTLASS's own Hopper kernels of bench/cutlass/kernels.def):
//    the variants gemm_tf32_sm90a, gemm_tf32_overlap_sm90a,
//    gemm_tf32_128x128_sm90a, the paper's kernel gemm_sm90a
//    (examples/sm90a_gemm.mlir) and gemm_splitk_sm90a at several split
//    factors, whose best is the shape's "specialized" figure, and the entry
//    point gemm_tf32, which runs the variant bench/dispatch.json names for
//    the shape: the "one kernel" figure (the paper's two curves, seeds/002
//    Sec. 6, Fig. 8);
//  * bf16 GEMM with fp32 accumulation (cublasGemmEx, bf16 A, B, C,
//    CUBLAS_COMPUTE_32F, and the bf16 CUTLASS kernels): the variants
//    gemm_bf16_sm90a, gemm_bf16_overlap_sm90a and gemm_bf16_128x128_sm90a, and
//    the entry point gemm_bf16 (the same two figures);
//  * fp32 GEMV, y = A x (cublasSgemv): gemv_fast, with a device-to-device
//    copy of A's bytes as the bandwidth anchor;
//  * the sm_80 cp.async + mma.sync GEMM, C = A B (cublasSgemm TF32, "NN"),
//    as a portability figure.
// Method: inputs from a hash of the element index (uniform in [-1, 1), never
// zeros), rotated across enough sets that the sets together exceed twice
// the L2; every kernel's result is first checked against a reference
// (relative Frobenius error, per-precision tolerance; NaN-poisoned outputs,
// so unwritten elements fail) and checked again after the timed runs;
// warm-up runs, then `runs` timed runs per kernel, the kernels of a shape
// interleaved (the order rotates each round), each run timed with CUDA
// events after a spin kernel that keeps the GPU busy while the host
// enqueues the call (host work such as tensor-map encoding stays out of the
// figure). Reported: median and interquartile mean (the paper's statistic).
// The GEMMs have two anchors, cuBLAS and the best of the CUTLASS kernels
// (each CUTLASS schedule is timed like the others; the table shows the best
// and the ratio to the better of the two anchors).
//
//===----------------------------------------------------------------------===//

#include "cutlass_gemm.h"
#include "gemm_bf16.h"
#include "gemm_tf32.h"
#include "gemv_fast.h"
#include "sm80_gemm.h"
#include "sm90a_gemm.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <functional>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

//===----------------------------------------------------------------------===//
// Errors
//===----------------------------------------------------------------------===//

[[noreturn]] void die(const std::string &message) {
  std::fprintf(stderr, "gemm_bench: error: %s\n", message.c_str());
  std::exit(1);
}

void check(cudaError_t status, const char *what) {
  if (status != cudaSuccess)
    die(std::string(what) + ": " + cudaGetErrorString(status));
}

void check(cublasStatus_t status, const char *what) {
  if (status != CUBLAS_STATUS_SUCCESS)
    die(std::string(what) + ": " + cublasGetStatusString(status));
}

/// Checks a call's status and the last launch error.
#define CHECK(expr) check((expr), #expr)

//===----------------------------------------------------------------------===//
// Device helpers: inputs, poison, errors, spin
//===----------------------------------------------------------------------===//

/// Uniform in [-1, 1) from a hash (splitmix64) of the index and the seed.
__device__ float uniform(uint64_t i, uint64_t seed) {
  uint64_t z = i * 0x9E3779B97F4A7C15ull + seed * 0xD1B54A32D192ED03ull + 1;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  return float(z >> 40) * (2.0f / 16777216.0f) - 1.0f;
}

template <typename T>
__global__ void fill_uniform(T *data, size_t count, uint64_t seed) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < count;
       i += size_t(gridDim.x) * blockDim.x)
    data[i] = T(uniform(i, seed));
}

__global__ void convert_to_double(const float *from, double *to, size_t count) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < count;
       i += size_t(gridDim.x) * blockDim.x)
    to[i] = from[i];
}

/// acc[0] += sum (x - ref)^2, acc[1] += sum ref^2, bad += non-finite x.
template <typename T, typename R>
__global__ void relative_error(const T *x, const R *ref, size_t count,
                               double *acc, unsigned long long *bad) {
  double diff2 = 0, ref2 = 0;
  unsigned long long nonfinite = 0;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < count;
       i += size_t(gridDim.x) * blockDim.x) {
    double v = double(float(x[i])), r = double(ref[i]);
    if (!isfinite(v)) {
      ++nonfinite;
      continue;
    }
    diff2 += (v - r) * (v - r);
    ref2 += r * r;
  }
  for (int offset = 16; offset > 0; offset /= 2) {
    diff2 += __shfl_down_sync(0xffffffffu, diff2, offset);
    ref2 += __shfl_down_sync(0xffffffffu, ref2, offset);
    nonfinite += __shfl_down_sync(0xffffffffu, nonfinite, offset);
  }
  if (threadIdx.x % 32 == 0) {
    atomicAdd(&acc[0], diff2);
    atomicAdd(&acc[1], ref2);
    atomicAdd(bad, nonfinite);
  }
}

/// Keeps the GPU busy for `ns` nanoseconds, so the next call is enqueued
/// before the start event completes.
__global__ void spin(uint64_t ns) {
  uint64_t start, now;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
  do {
    __nanosleep(1000);
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  } while (now - start < ns);
}

constexpr unsigned kFillBlocks = 1024, kFillThreads = 256;

//===----------------------------------------------------------------------===//
// Buffers
//===----------------------------------------------------------------------===//

/// A device allocation of `count` elements of T.
template <typename T> class Buffer {
public:
  explicit Buffer(size_t count) : count(count) {
    CHECK(cudaMalloc(reinterpret_cast<void **>(&data), count * sizeof(T)));
  }
  Buffer(const Buffer &) = delete;
  Buffer &operator=(const Buffer &) = delete;
  ~Buffer() { cudaFree(data); }
  T *get() const { return data; }
  size_t size() const { return count; }
  size_t bytes() const { return count * sizeof(T); }
  void fill(uint64_t seed, cudaStream_t stream) {
    fill_uniform<<<kFillBlocks, kFillThreads, 0, stream>>>(data, count, seed);
    CHECK(cudaGetLastError());
  }
  /// NaN in every element (all bits set is a NaN for f32 and bf16).
  void poison(cudaStream_t stream) {
    CHECK(cudaMemsetAsync(data, 0xFF, bytes(), stream));
  }

private:
  size_t count;
  T *data = nullptr;
};

struct ErrorResult {
  double relative = NAN;
  unsigned long long nonfinite = 0;
};

template <typename T, typename R>
ErrorResult measure_error(const Buffer<T> &x, const Buffer<R> &ref,
                          cudaStream_t stream) {
  static double *acc = nullptr;
  static unsigned long long *bad = nullptr;
  if (!acc) {
    CHECK(cudaMalloc(reinterpret_cast<void **>(&acc), 2 * sizeof(double)));
    CHECK(cudaMalloc(reinterpret_cast<void **>(&bad), sizeof(*bad)));
  }
  CHECK(cudaMemsetAsync(acc, 0, 2 * sizeof(double), stream));
  CHECK(cudaMemsetAsync(bad, 0, sizeof(*bad), stream));
  relative_error<<<kFillBlocks, kFillThreads, 0, stream>>>(x.get(), ref.get(),
                                                           x.size(), acc, bad);
  CHECK(cudaGetLastError());
  double host[2];
  ErrorResult result;
  CHECK(
      cudaMemcpyAsync(host, acc, sizeof(host), cudaMemcpyDeviceToHost, stream));
  CHECK(cudaMemcpyAsync(&result.nonfinite, bad, sizeof(*bad),
                        cudaMemcpyDeviceToHost, stream));
  CHECK(cudaStreamSynchronize(stream));
  result.relative = std::sqrt(host[0] / host[1]);
  return result;
}

//===----------------------------------------------------------------------===//
// Options, device, cases
//===----------------------------------------------------------------------===//

struct Options {
  std::set<std::string> kinds = {"tf32", "splitk", "bf16", "gemv", "sm80"};
  std::set<std::string> shapes; // empty: all
  int runs = 100;
  int warmup = 10;
  double spin_us = 200;
  std::string csv;
  bool list = false;
};

struct Device {
  int sms = 0;
  size_t l2 = 0;
  size_t free_memory = 0;
};

/// A shape of one kind of problem (GEMM M x N x K, GEMV M x N).
struct Case {
  std::string kind;
  int64_t M, N, K;
  std::string label() const {
    std::ostringstream os;
    os << M << "x" << N;
    if (kind != "gemv")
      os << "x" << K;
    return os.str();
  }
};

std::vector<Case> all_cases() {
  std::vector<Case> cases;
  for (int64_t s : {1024, 2048, 4096, 8192, 16384})
    cases.push_back({"tf32", s, s, s});
  cases.push_back({"splitk", 1024, 1024, 65536});
  cases.push_back({"splitk", 256, 256, 65536});
  for (int64_t s : {1024, 2048, 4096, 8192, 16384})
    cases.push_back({"bf16", s, s, s});
  cases.push_back({"bf16", 1024, 1024, 65536});
  cases.push_back({"bf16", 256, 256, 65536});
  for (int64_t s : {8192, 16384})
    cases.push_back({"gemv", s, s, 0});
  cases.push_back({"sm80", 4096, 4096, 4096});
  return cases;
}

/// Split factors worth trying for a tf32 shape: those that divide K into
/// chunks of 32-column stages, on shapes too small to fill the GPU with
/// 256 x 256 tiles, up to two waves of 2-CTA clusters.
std::vector<int64_t> split_factors(const Case &c, int sms) {
  std::vector<int64_t> factors;
  if (c.M % 256 || c.N % 256)
    return factors;
  int64_t tiles = (c.M / 256) * (c.N / 256), clusters = sms / 2;
  if (tiles >= clusters)
    return factors;
  for (int64_t s = 2; s <= 128; s *= 2)
    if (c.K % (32 * s) == 0 && tiles * s <= 2 * clusters)
      factors.push_back(s);
  return factors;
}

/// What a timed call is: an ExoGPU variant, an ExoGPU entry point (which
/// runs the variant its dispatch table names), the anchor (cuBLAS, or a
/// copy), or the second anchor (a CUTLASS kernel).
enum class Role { Variant, Entry, Anchor, Cutlass };

/// The CUTLASS kernels of `kind` ("tf32" or "bf16") that take `c`; those
/// whose object was not linked (bench/kernels.py --cutlass) are absent.
std::vector<exogpu_bench::CutlassGemm> cutlass_kernels(const std::string &kind,
                                                       const Case &c) {
  int count = 0;
  const exogpu_bench::CutlassGemm *all = exogpu_bench::cutlass_gemms(&count);
  std::vector<exogpu_bench::CutlassGemm> kernels;
  for (int i = 0; i < count; ++i)
    if (all[i].run && kind == all[i].kind && all[i].supports(c.M, c.N, c.K))
      kernels.push_back(all[i]);
  return kernels;
}

/// A GEMM kernel of the benchmark (elements of type T) that can run a
/// shape.
template <typename T> struct GemmKernel {
  std::string name;
  Role role;
  std::function<cudaError_t(cudaStream_t, const Case &, const T *, const T *,
                            T *)>
      run;
};

/// Appends a kernel whose host function takes (stream, M, N, K, A, B, C).
template <typename T, typename Fn>
void add_plain(std::vector<GemmKernel<T>> &kernels, const char *name, Role role,
               Fn fn) {
  kernels.push_back(
      {name, role,
       [fn](cudaStream_t stream, const Case &c, const T *A, const T *B, T *C) {
         return fn(stream, c.M, c.N, c.K, A, B, C);
       }});
}

/// The tf32 variants and the entry point whose preconditions `c` meets.
std::vector<GemmKernel<float>> tf32_kernels(const Case &c, int sms) {
  std::vector<GemmKernel<float>> kernels;
  if (c.M % 1024 == 0 && c.N % 256 == 0 && c.K % 32 == 0)
    add_plain(kernels, "gemm_tf32_sm90a", Role::Variant, gemm_tf32_sm90a);
  if (c.M % 1024 == 0 && c.N % 256 == 0 && c.K % 128 == 0)
    add_plain(kernels, "gemm_tf32_overlap_sm90a", Role::Variant,
              gemm_tf32_overlap_sm90a);
  if (c.M % 256 == 0 && c.N % 256 == 0 && c.K % 32 == 0)
    add_plain(kernels, "gemm_sm90a", Role::Variant, gemm_sm90a);
  bool small = c.M % 128 == 0 && c.N % 128 == 0 && c.K % 64 == 0;
  if (small)
    add_plain(kernels, "gemm_tf32_128x128_sm90a", Role::Variant,
              gemm_tf32_128x128_sm90a);
  for (int64_t s : split_factors(c, sms))
    kernels.push_back(
        {"gemm_splitk_sm90a S=" + std::to_string(s), Role::Variant,
         [s](cudaStream_t stream, const Case &c, const float *A, const float *B,
             float *C) {
           return gemm_splitk_sm90a(stream, c.M, c.N, s, c.K / s, A, B, C);
         }});
  if (small)
    add_plain(kernels, "gemm_tf32", Role::Entry, gemm_tf32);
  return kernels;
}

/// The bf16 variants and the entry point whose preconditions `c` meets.
std::vector<GemmKernel<__nv_bfloat16>> bf16_kernels(const Case &c) {
  std::vector<GemmKernel<__nv_bfloat16>> kernels;
  if (c.M % 1024 == 0 && c.N % 256 == 0 && c.K % 64 == 0)
    add_plain(kernels, "gemm_bf16_sm90a", Role::Variant, gemm_bf16_sm90a);
  if (c.M % 1024 == 0 && c.N % 256 == 0 && c.K % 256 == 0)
    add_plain(kernels, "gemm_bf16_overlap_sm90a", Role::Variant,
              gemm_bf16_overlap_sm90a);
  if (c.M % 128 == 0 && c.N % 128 == 0 && c.K % 128 == 0) {
    add_plain(kernels, "gemm_bf16_128x128_sm90a", Role::Variant,
              gemm_bf16_128x128_sm90a);
    add_plain(kernels, "gemm_bf16", Role::Entry, gemm_bf16);
  }
  return kernels;
}

//===----------------------------------------------------------------------===//
// Timing
//===----------------------------------------------------------------------===//

/// One kernel of a shape: `run(set)` enqueues it on the stream for input
/// set `set` (writing its own output), `poison` fills that output with NaN,
/// `error` measures it against the shape's reference.
struct Runner {
  std::string name;
  Role role = Role::Anchor;
  double tolerance = 0;
  std::function<cudaError_t(int set)> run;
  std::function<void()> poison;
  std::function<ErrorResult()> error;
  // Results.
  ErrorResult first, last;
  bool failed = false;
  std::vector<float> ms;
};

/// A runner whose call writes a new output buffer of `count` elements of T,
/// checked against `ref` (elementwise, relative Frobenius error).
template <typename T, typename R>
Runner make_runner(std::string name, Role role, double tolerance, size_t count,
                   std::function<cudaError_t(T *, int)> call,
                   const Buffer<R> &ref, cudaStream_t stream) {
  auto out = std::make_shared<Buffer<T>>(count);
  Runner r;
  r.name = std::move(name);
  r.role = role;
  r.tolerance = tolerance;
  r.run = [=](int set) { return call(out->get(), set); };
  r.poison = [=] { out->poison(stream); };
  r.error = [=, &ref] { return measure_error(*out, ref, stream); };
  return r;
}

/// A function that adds runners of `count`-element outputs of T, checked
/// against `ref` at `tolerance`, to `runners`.
template <typename T, typename R>
auto runner_adder(std::vector<Runner> &runners, double tolerance, size_t count,
                  const Buffer<R> &ref, cudaStream_t stream) {
  return [&runners, tolerance, count, &ref,
          stream](std::string name, Role role,
                  std::function<cudaError_t(T *, int)> call) {
    runners.push_back(make_runner(std::move(name), role, tolerance, count,
                                  std::move(call), ref, stream));
  };
}

struct Stats {
  double median = NAN, iqm = NAN, min = NAN;
};

Stats statistics(std::vector<float> ms) {
  Stats stats;
  if (ms.empty())
    return stats;
  std::sort(ms.begin(), ms.end());
  size_t n = ms.size();
  stats.median = n % 2 ? ms[n / 2] : 0.5 * (ms[n / 2 - 1] + ms[n / 2]);
  size_t lo = n / 4, hi = n - n / 4;
  double sum = 0;
  for (size_t i = lo; i < hi; ++i)
    sum += ms[i];
  stats.iqm = sum / double(hi - lo);
  stats.min = ms.front();
  return stats;
}

bool acceptable(const ErrorResult &error, double tolerance) {
  return error.nonfinite == 0 && std::isfinite(error.relative) &&
         error.relative <= tolerance;
}

/// Checks every runner once, times the ones that passed (interleaved), and
/// checks them again.
void measure(std::vector<Runner> &runners, int sets, const Options &options,
             cudaStream_t stream) {
  auto check_once = [&](Runner &r, ErrorResult &into) {
    r.poison();
    cudaError_t status = r.run(0);
    if (status == cudaSuccess)
      status = cudaStreamSynchronize(stream);
    if (status != cudaSuccess) {
      std::fprintf(stderr, "gemm_bench: FAIL: %s returned %s\n", r.name.c_str(),
                   cudaGetErrorString(status));
      r.failed = true;
      return;
    }
    into = r.error();
    if (!acceptable(into, r.tolerance)) {
      std::fprintf(stderr,
                   "gemm_bench: FAIL: %s: relative error %.3e (tolerance "
                   "%.1e), %llu non-finite elements\n",
                   r.name.c_str(), into.relative, r.tolerance, into.nonfinite);
      r.failed = true;
    }
  };
  for (Runner &r : runners)
    check_once(r, r.first);

  std::vector<Runner *> live;
  for (Runner &r : runners)
    if (!r.failed)
      live.push_back(&r);
  if (live.empty())
    return;
  for (int w = 0; w < options.warmup; ++w)
    for (Runner *r : live) {
      r->poison();
      CHECK(r->run(w % sets));
    }
  std::vector<std::vector<std::pair<cudaEvent_t, cudaEvent_t>>> events(
      live.size());
  uint64_t spin_ns = uint64_t(options.spin_us * 1000);
  for (int i = 0; i < options.runs; ++i)
    for (size_t j = 0; j < live.size(); ++j) {
      size_t k = (i + j) % live.size(); // rotate the order each round
      Runner *r = live[k];
      cudaEvent_t start, stop;
      CHECK(cudaEventCreate(&start));
      CHECK(cudaEventCreate(&stop));
      r->poison();
      spin<<<1, 1, 0, stream>>>(spin_ns);
      CHECK(cudaGetLastError());
      CHECK(cudaEventRecord(start, stream));
      CHECK(r->run(i % sets));
      CHECK(cudaEventRecord(stop, stream));
      events[k].push_back({start, stop});
    }
  CHECK(cudaStreamSynchronize(stream));
  for (size_t k = 0; k < live.size(); ++k)
    for (auto [start, stop] : events[k]) {
      float ms = 0;
      CHECK(cudaEventElapsedTime(&ms, start, stop));
      live[k]->ms.push_back(ms);
      CHECK(cudaEventDestroy(start));
      CHECK(cudaEventDestroy(stop));
    }
  // A result that changes between runs on the same inputs is a race.
  for (Runner *r : live)
    check_once(*r, r->last);
}

//===----------------------------------------------------------------------===//
// Results
//===----------------------------------------------------------------------===//

struct Row {
  Case shape;
  std::string variant, unit;
  Role role = Role::Anchor;
  bool best = false;
  Stats stats;
  double rate_median = NAN, rate_iqm = NAN; // TFLOP/s or TB/s
  double error_first = NAN, error_last = NAN;
  bool failed = false;
  size_t runs = 0;
};

std::vector<Row> rows;

/// Work per run: flops (GEMM) or bytes moved (GEMV, copy).
double work_of(const Case &c, const std::string &variant) {
  if (c.kind == "gemv") {
    double bytes = 4.0 * (double(c.M) * c.N + c.N + c.M);
    if (variant == "cudaMemcpy d2d")
      bytes = 2.0 * 4.0 * double(c.M) * c.N; // read + write
    return bytes;
  }
  return 2.0 * double(c.M) * c.N * c.K;
}

void record(const Case &c, std::vector<Runner> &runners) {
  const char *unit = c.kind == "gemv" ? "TB/s" : "TFLOP/s";
  size_t first = rows.size();
  for (Runner &r : runners) {
    Row row;
    row.shape = c;
    row.variant = r.name;
    row.unit = unit;
    row.role = r.role;
    row.stats = statistics(r.ms);
    row.error_first = r.first.relative;
    row.error_last = r.last.relative;
    row.failed = r.failed;
    row.runs = r.ms.size();
    double work = work_of(c, r.name);
    row.rate_median = work / (row.stats.median * 1e-3) / 1e12;
    row.rate_iqm = work / (row.stats.iqm * 1e-3) / 1e12;
    rows.push_back(row);
  }
  // The best ExoGPU variant of the shape (by median): the specialized
  // figure.
  Row *best = nullptr;
  for (size_t i = first; i < rows.size(); ++i)
    if (rows[i].role == Role::Variant && !rows[i].failed &&
        std::isfinite(rows[i].rate_median) &&
        (!best || rows[i].rate_median > best->rate_median))
      best = &rows[i];
  if (best)
    best->best = true;
}

double peak_of(const std::string &kind) {
  if (kind == "bf16")
    return 989.0; // H100 SXM dense bf16, TFLOP/s
  if (kind == "gemv")
    return 3.35; // H100 SXM HBM3, TB/s
  return 494.5;  // H100 SXM dense tf32, TFLOP/s
}

/// The CSV's `anchor` column: which anchor a row is, empty for ExoGPU.
const char *anchor_of(const Row &r) {
  switch (r.role) {
  case Role::Anchor:
    return r.variant == "cudaMemcpy d2d" ? "copy" : "cublas";
  case Role::Cutlass:
    return "cutlass";
  default:
    return "";
  }
}

void write_csv(const std::string &path, const std::string &device) {
  FILE *file = std::fopen(path.c_str(), "w");
  if (!file)
    die("cannot write " + path);
  std::fprintf(file, "kind,M,N,K,variant,exogpu,best,entry,anchor,median_ms,"
                     "iqm_ms,min_ms,rate_median,rate_iqm,unit,peak,"
                     "error_first,error_last,failed,runs,device\n");
  for (const Row &r : rows)
    std::fprintf(file,
                 "%s,%lld,%lld,%lld,%s,%d,%d,%d,%s,%.6f,%.6f,%.6f,%.3f,%.3f,"
                 "%s,%.2f,%.3e,%.3e,%d,%zu,%s\n",
                 r.shape.kind.c_str(), (long long)r.shape.M,
                 (long long)r.shape.N, (long long)r.shape.K, r.variant.c_str(),
                 r.role == Role::Variant || r.role == Role::Entry, r.best,
                 r.role == Role::Entry, anchor_of(r), r.stats.median,
                 r.stats.iqm, r.stats.min, r.rate_median, r.rate_iqm,
                 r.unit.c_str(), peak_of(r.shape.kind), r.error_first,
                 r.error_last, r.failed, r.runs, device.c_str());
  std::fclose(file);
}

/// The table: per shape, the best ExoGPU variant ("specialized") and the
/// entry point ("one kernel"), each against the better of the two anchors
/// (cuBLAS, the best CUTLASS kernel).
void print_table() {
  std::printf("\n%-6s %-18s %12s %12s %12s %12s %7s %7s %7s  %s\n", "kind",
              "shape", "specialized", "one kernel", "cuBLAS", "CUTLASS",
              "ratio", "ratio 1", "%peak",
              "specialized kernel; best CUTLASS (median; IQM in the CSV)");
  std::vector<std::string> seen;
  for (const Row &r : rows) {
    std::string key = r.shape.kind + r.shape.label();
    if (std::find(seen.begin(), seen.end(), key) != seen.end())
      continue;
    seen.push_back(key);
    const Row *exo = nullptr, *entry = nullptr, *cublas = nullptr,
              *cutlass = nullptr, *copy = nullptr;
    bool any_failed = false;
    for (const Row &s : rows) {
      if (s.shape.kind + s.shape.label() != key)
        continue;
      any_failed |= s.failed;
      bool timed = !s.failed && std::isfinite(s.rate_median);
      if (s.best)
        exo = &s;
      else if (s.role == Role::Entry)
        entry = &s;
      else if (s.role == Role::Anchor && s.variant == "cudaMemcpy d2d")
        copy = &s;
      else if (s.role == Role::Anchor)
        cublas = &s;
      else if (s.role == Role::Cutlass && timed &&
               (!cutlass || s.rate_median > cutlass->rate_median))
        cutlass = &s;
    }
    const Row *anchor = cublas;
    if (cutlass && (!anchor || !std::isfinite(anchor->rate_median) ||
                    cutlass->rate_median > anchor->rate_median))
      anchor = cutlass;
    auto rate = [&](const Row *s) {
      if (!s || !std::isfinite(s->rate_median))
        return std::string("-");
      char text[32];
      if (r.shape.kind == "gemv")
        std::snprintf(text, sizeof(text), "%.2f TB/s", s->rate_median);
      else
        std::snprintf(text, sizeof(text), "%.1f TF", s->rate_median);
      return std::string(text);
    };
    auto ratio = [&](const Row *s) {
      if (!s || !anchor || !std::isfinite(s->rate_median))
        return std::string("-");
      char text[16];
      std::snprintf(text, sizeof(text), "%.3f",
                    s->rate_median / anchor->rate_median);
      return std::string(text);
    };
    char peak[16] = "-";
    if (exo)
      std::snprintf(peak, sizeof(peak), "%.1f%%",
                    100.0 * exo->rate_median / peak_of(r.shape.kind));
    std::string note = exo ? exo->variant : std::string("(no ExoGPU result)");
    if (cutlass)
      note += "; " + cutlass->variant;
    if (copy)
      note += "; copy d2d " + rate(copy);
    if (any_failed)
      note += "; FAILED CHECK (see above)";
    std::printf("%-6s %-18s %12s %12s %12s %12s %7s %7s %7s  %s\n",
                r.shape.kind.c_str(), r.shape.label().c_str(),
                rate(exo).c_str(), rate(entry).c_str(), rate(cublas).c_str(),
                rate(cutlass).c_str(), ratio(exo).c_str(), ratio(entry).c_str(),
                peak, note.c_str());
  }
}

//===----------------------------------------------------------------------===//
// The cases
//===----------------------------------------------------------------------===//

/// Input sets whose total exceeds twice the L2, so no run finds its inputs
/// in the cache from an earlier run.
int rotation_sets(size_t bytes_per_set, const Device &device) {
  size_t need = 2 * device.l2;
  int sets = int((need + bytes_per_set - 1) / bytes_per_set);
  return std::max(2, sets);
}

/// `sets` buffers of `count` elements of T, set s filled from seed
/// `seed + s` (each operand of a case passes its own seed range).
template <typename T>
std::vector<std::unique_ptr<Buffer<T>>>
input_sets(int sets, size_t count, uint64_t seed, cudaStream_t stream) {
  std::vector<std::unique_ptr<Buffer<T>>> buffers;
  for (int s = 0; s < sets; ++s) {
    buffers.push_back(std::make_unique<Buffer<T>>(count));
    buffers.back()->fill(seed + s, stream);
  }
  return buffers;
}

struct Context {
  cudaStream_t stream;
  cublasHandle_t tf32;     // CUBLAS_TF32_TENSOR_OP_MATH: the anchors
  cublasHandle_t pedantic; // CUBLAS_PEDANTIC_MATH: the references
  Device device;
  Options options;
};

constexpr double kTf32Tolerance = 5e-3, kBf16Tolerance = 1e-2,
                 kFp32Tolerance = 1e-4;

/// C = A B^T (row major) with cuBLAS: column-major C^T = B A^T, "TN".
cublasStatus_t cublas_gemm_tn(cublasHandle_t handle, const Case &c,
                              const float *A, const float *B, float *C) {
  const float one = 1, zero = 0;
  return cublasSgemm(handle, CUBLAS_OP_T, CUBLAS_OP_N, int(c.N), int(c.M),
                     int(c.K), &one, B, int(c.K), A, int(c.K), &zero, C,
                     int(c.N));
}

cudaError_t as_cuda(cublasStatus_t status) {
  return status == CUBLAS_STATUS_SUCCESS ? cudaSuccess : cudaErrorUnknown;
}

void run_tf32(const Case &c, Context &ctx) {
  size_t a = size_t(c.M) * c.K, b = size_t(c.N) * c.K, m = size_t(c.M) * c.N;
  int sets = rotation_sets(4 * (a + b), ctx.device);
  auto A = input_sets<float>(sets, a, 1000, ctx.stream);
  auto B = input_sets<float>(sets, b, 2000, ctx.stream);
  Buffer<float> ref(m);
  CHECK(cublas_gemm_tn(ctx.pedantic, c, A[0]->get(), B[0]->get(), ref.get()));

  std::vector<Runner> runners;
  auto add = runner_adder<float>(runners, kTf32Tolerance, m, ref, ctx.stream);
  for (const GemmKernel<float> &kernel : tf32_kernels(c, ctx.device.sms))
    add(kernel.name, kernel.role, [&, c, kernel](float *C, int set) {
      return kernel.run(ctx.stream, c, A[set]->get(), B[set]->get(), C);
    });
  add("cublasSgemm TF32 TN", Role::Anchor, [&, c](float *C, int set) {
    return as_cuda(
        cublas_gemm_tn(ctx.tf32, c, A[set]->get(), B[set]->get(), C));
  });
  for (const exogpu_bench::CutlassGemm &kernel : cutlass_kernels("tf32", c))
    add(kernel.name, Role::Cutlass, [&, c, kernel](float *C, int set) {
      return kernel.run(ctx.stream, c.M, c.N, c.K, A[set]->get(), B[set]->get(),
                        C);
    });
  measure(runners, sets, ctx.options, ctx.stream);
  record(c, runners);
}

void run_bf16(const Case &c, Context &ctx) {
  size_t a = size_t(c.M) * c.K, b = size_t(c.N) * c.K, m = size_t(c.M) * c.N;
  int sets = rotation_sets(2 * (a + b), ctx.device);
  auto A = input_sets<__nv_bfloat16>(sets, a, 3000, ctx.stream);
  auto B = input_sets<__nv_bfloat16>(sets, b, 4000, ctx.stream);
  const float one = 1, zero = 0;
  // Reference: the same bf16 products accumulated and returned in fp32.
  Buffer<float> ref(m);
  CHECK(cublasGemmEx(ctx.pedantic, CUBLAS_OP_T, CUBLAS_OP_N, int(c.N), int(c.M),
                     int(c.K), &one, B[0]->get(), CUDA_R_16BF, int(c.K),
                     A[0]->get(), CUDA_R_16BF, int(c.K), &zero, ref.get(),
                     CUDA_R_32F, int(c.N), CUBLAS_COMPUTE_32F_PEDANTIC,
                     CUBLAS_GEMM_DEFAULT));
  std::vector<Runner> runners;
  auto add =
      runner_adder<__nv_bfloat16>(runners, kBf16Tolerance, m, ref, ctx.stream);
  for (const GemmKernel<__nv_bfloat16> &kernel : bf16_kernels(c))
    add(kernel.name, kernel.role, [&, c, kernel](__nv_bfloat16 *C, int set) {
      return kernel.run(ctx.stream, c, A[set]->get(), B[set]->get(), C);
    });
  add("cublasGemmEx bf16 TN", Role::Anchor, [&, c](__nv_bfloat16 *C, int set) {
    const float one = 1, zero = 0;
    return as_cuda(cublasGemmEx(
        ctx.tf32, CUBLAS_OP_T, CUBLAS_OP_N, int(c.N), int(c.M), int(c.K), &one,
        B[set]->get(), CUDA_R_16BF, int(c.K), A[set]->get(), CUDA_R_16BF,
        int(c.K), &zero, C, CUDA_R_16BF, int(c.N), CUBLAS_COMPUTE_32F,
        CUBLAS_GEMM_DEFAULT));
  });
  for (const exogpu_bench::CutlassGemm &kernel : cutlass_kernels("bf16", c))
    add(kernel.name, Role::Cutlass, [&, c, kernel](__nv_bfloat16 *C, int set) {
      return kernel.run(ctx.stream, c.M, c.N, c.K, A[set]->get(), B[set]->get(),
                        C);
    });
  measure(runners, sets, ctx.options, ctx.stream);
  record(c, runners);
}

void run_gemv(const Case &c, Context &ctx) {
  size_t a = size_t(c.M) * c.N;
  int sets = rotation_sets(4 * (a + c.N), ctx.device);
  auto A = input_sets<float>(sets, a, 5000, ctx.stream);
  auto x = input_sets<float>(sets, size_t(c.N), 6000, ctx.stream);
  // Reference in fp64 (cublasDgemv on converted copies of set 0).
  Buffer<double> ref(c.M);
  {
    Buffer<double> A64(a), x64(c.N);
    convert_to_double<<<kFillBlocks, kFillThreads, 0, ctx.stream>>>(
        A[0]->get(), A64.get(), a);
    convert_to_double<<<kFillBlocks, kFillThreads, 0, ctx.stream>>>(
        x[0]->get(), x64.get(), c.N);
    CHECK(cudaGetLastError());
    const double one = 1, zero = 0;
    CHECK(cublasDgemv(ctx.pedantic, CUBLAS_OP_T, int(c.N), int(c.M), &one,
                      A64.get(), int(c.N), x64.get(), 1, &zero, ref.get(), 1));
    CHECK(cudaStreamSynchronize(ctx.stream));
  }
  std::vector<Runner> runners;
  auto add = runner_adder<float>(runners, kFp32Tolerance, size_t(c.M), ref,
                                 ctx.stream);
  add("gemv_fast", Role::Variant, [&, c](float *y, int set) {
    return gemv_fast(ctx.stream, c.M, c.N, A[set]->get(), x[set]->get(), y);
  });
  add("cublasSgemv", Role::Anchor, [&, c](float *y, int set) {
    const float one = 1, zero = 0;
    return as_cuda(cublasSgemv(ctx.tf32, CUBLAS_OP_T, int(c.N), int(c.M), &one,
                               A[set]->get(), int(c.N), x[set]->get(), 1, &zero,
                               y, 1));
  });
  // Bandwidth anchor: copy A's bytes device to device (checked as a copy:
  // exactly equal to A).
  runners.push_back(make_runner<float, float>(
      "cudaMemcpy d2d", Role::Anchor, 0.0, a,
      [&](float *copy, int set) {
        return cudaMemcpyAsync(copy, A[set]->get(), a * sizeof(float),
                               cudaMemcpyDeviceToDevice, ctx.stream);
      },
      *A[0], ctx.stream));
  measure(runners, sets, ctx.options, ctx.stream);
  record(c, runners);
}

void run_sm80(const Case &c, Context &ctx) {
  size_t a = size_t(c.M) * c.K, b = size_t(c.K) * c.N, m = size_t(c.M) * c.N;
  int sets = rotation_sets(4 * (a + b), ctx.device);
  auto A = input_sets<float>(sets, a, 7000, ctx.stream);
  auto B = input_sets<float>(sets, b, 8000, ctx.stream);
  // C = A B (row major): column-major C^T = B^T A^T, "NN".
  auto nn = [c](cublasHandle_t handle, const float *A, const float *B,
                float *C) {
    const float one = 1, zero = 0;
    return cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, int(c.N), int(c.M),
                       int(c.K), &one, B, int(c.N), A, int(c.K), &zero, C,
                       int(c.N));
  };
  Buffer<float> ref(m);
  CHECK(nn(ctx.pedantic, A[0]->get(), B[0]->get(), ref.get()));
  std::vector<Runner> runners;
  auto add = runner_adder<float>(runners, kTf32Tolerance, m, ref, ctx.stream);
  add("gemm_sm80 (sm_80 code on sm_90)", Role::Variant,
      [&, c](float *C, int set) {
        return gemm_sm80(ctx.stream, c.M, c.N, c.K, A[set]->get(),
                         B[set]->get(), C);
      });
  add("cublasSgemm TF32 NN", Role::Anchor, [&](float *C, int set) {
    return as_cuda(nn(ctx.tf32, A[set]->get(), B[set]->get(), C));
  });
  measure(runners, sets, ctx.options, ctx.stream);
  record(c, runners);
}

/// Device memory a case needs, roughly (inputs of all sets, outputs,
/// references), to skip what does not fit.
size_t footprint(const Case &c, const Device &device) {
  size_t e = c.kind == "bf16" ? 2 : 4;
  if (c.kind == "gemv") {
    size_t a = 4 * size_t(c.M) * c.N;
    return a * (rotation_sets(a, device) + 3);
  }
  size_t in = e * (size_t(c.M) * c.K + size_t(c.N) * c.K);
  return in * rotation_sets(in, device) + 8 * 4 * size_t(c.M) * c.N;
}

void usage() {
  std::printf(
      "usage: gemm_bench [--only KINDS] [--shapes LABELS] [--runs N]\n"
      "                  [--warmup N] [--spin-us US] [--csv FILE] [--list]\n"
      "KINDS: comma-separated of tf32, splitk, bf16, gemv, sm80 (default: "
      "all)\nLABELS: comma-separated shapes as printed by --list, e.g. "
      "4096x4096x4096\n");
}

std::set<std::string> split(const std::string &text) {
  std::set<std::string> parts;
  std::stringstream stream(text);
  std::string part;
  while (std::getline(stream, part, ','))
    if (!part.empty())
      parts.insert(part);
  return parts;
}

Options parse(int argc, char **argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc)
        die("missing value after " + arg);
      return argv[++i];
    };
    if (arg == "--only")
      options.kinds = split(value());
    else if (arg == "--shapes")
      options.shapes = split(value());
    else if (arg == "--runs")
      options.runs = std::atoi(value().c_str());
    else if (arg == "--warmup")
      options.warmup = std::atoi(value().c_str());
    else if (arg == "--spin-us")
      options.spin_us = std::atof(value().c_str());
    else if (arg == "--csv")
      options.csv = value();
    else if (arg == "--list")
      options.list = true;
    else if (arg == "--help" || arg == "-h") {
      usage();
      std::exit(0);
    } else
      die("unknown argument " + arg + " (--help lists them)");
  }
  if (options.runs < 1 || options.warmup < 0)
    die("--runs must be positive and --warmup non-negative");
  return options;
}

} // namespace

int main(int argc, char **argv) {
  Options options = parse(argc, argv);
  std::vector<Case> cases;
  for (const Case &c : all_cases())
    if (options.kinds.count(c.kind) &&
        (options.shapes.empty() || options.shapes.count(c.label())))
      cases.push_back(c);
  if (options.list) {
    for (const Case &c : cases) {
      std::printf("%-6s %s:", c.kind.c_str(), c.label().c_str());
      if (c.kind == "tf32" || c.kind == "splitk") {
        for (const GemmKernel<float> &kernel : tf32_kernels(c, 132))
          std::printf(" %s", kernel.name.c_str());
        std::printf(" | cublasSgemm TF32 TN");
        for (const exogpu_bench::CutlassGemm &kernel :
             cutlass_kernels("tf32", c))
          std::printf(" %s", kernel.name);
        std::printf("\n");
      } else if (c.kind == "bf16") {
        for (const GemmKernel<__nv_bfloat16> &kernel : bf16_kernels(c))
          std::printf(" %s", kernel.name.c_str());
        std::printf(" | cublasGemmEx bf16 TN");
        for (const exogpu_bench::CutlassGemm &kernel :
             cutlass_kernels("bf16", c))
          std::printf(" %s", kernel.name);
        std::printf("\n");
      } else if (c.kind == "gemv")
        std::printf(" gemv_fast | cublasSgemv, cudaMemcpy d2d\n");
      else
        std::printf(" gemm_sm80 | cublasSgemm TF32 NN\n");
    }
    std::printf("(split factors as on a GPU with 132 SMs)\n");
    return 0;
  }

  int count = 0;
  cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess || count == 0) {
    std::printf("gemm_bench: no CUDA GPU present (%s): the program is built, "
                "nothing was timed.\n",
                status != cudaSuccess ? cudaGetErrorString(status)
                                      : "no devices");
    return 3;
  }
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  if (prop.major != 9) {
    std::printf("gemm_bench: the kernels are built for sm_90a (H100, H200); "
                "this GPU is %s (sm_%d%d): nothing was timed.\n",
                prop.name, prop.major, prop.minor);
    return 3;
  }
  Context ctx;
  ctx.options = options;
  ctx.device.sms = prop.multiProcessorCount;
  ctx.device.l2 = size_t(prop.l2CacheSize);
  CHECK(cudaStreamCreateWithFlags(&ctx.stream, cudaStreamNonBlocking));
  CHECK(cublasCreate(&ctx.tf32));
  CHECK(cublasCreate(&ctx.pedantic));
  CHECK(cublasSetStream(ctx.tf32, ctx.stream));
  CHECK(cublasSetStream(ctx.pedantic, ctx.stream));
  CHECK(cublasSetMathMode(ctx.tf32, CUBLAS_TF32_TENSOR_OP_MATH));
  CHECK(cublasSetMathMode(ctx.pedantic, CUBLAS_PEDANTIC_MATH));
  int driver = 0, runtime = 0, cublas = 0, clock_khz = 0, memory_khz = 0;
  CHECK(cudaDriverGetVersion(&driver));
  CHECK(cudaRuntimeGetVersion(&runtime));
  CHECK(cublasGetVersion(ctx.tf32, &cublas));
  CHECK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0));
  CHECK(cudaDeviceGetAttribute(&memory_khz, cudaDevAttrMemoryClockRate, 0));
  std::printf("device: %s, %d SMs, L2 %zu MB, SM clock %d MHz, memory clock "
              "%d MHz; driver %d, runtime %d, cuBLAS %d\n",
              prop.name, ctx.device.sms, ctx.device.l2 >> 20, clock_khz / 1000,
              memory_khz / 1000, driver, runtime, cublas);
  std::printf("method: %d warm-up and %d timed runs per kernel, interleaved; "
              "CUDA events; median (IQM in the CSV)\n",
              options.warmup, options.runs);
  std::fflush(stdout);

  for (const Case &c : cases) {
    size_t free = 0, total = 0;
    CHECK(cudaMemGetInfo(&free, &total));
    if (footprint(c, ctx.device) > free) {
      std::printf("skip %s %s: needs about %zu MB, %zu MB free\n",
                  c.kind.c_str(), c.label().c_str(),
                  footprint(c, ctx.device) >> 20, free >> 20);
      continue;
    }
    std::printf("running %s %s\n", c.kind.c_str(), c.label().c_str());
    std::fflush(stdout);
    if (c.kind == "tf32" || c.kind == "splitk")
      run_tf32(c, ctx);
    else if (c.kind == "bf16")
      run_bf16(c, ctx);
    else if (c.kind == "gemv")
      run_gemv(c, ctx);
    else
      run_sm80(c, ctx);
    CHECK(cudaDeviceSynchronize());
    // After every shape: a run stopped at its time limit keeps the shapes
    // it measured (bench/device-all.sh).
    if (!options.csv.empty())
      write_csv(options.csv, prop.name);
  }
  print_table();
  bool failed = std::any_of(rows.begin(), rows.end(),
                            [](const Row &r) { return r.failed; });
  if (failed)
    std::printf("\ngemm_bench: FAILED: a kernel's result did not match its "
                "reference (messages above)\n");
  return failed ? 1 : 0;
}
