//===- exogpu/runtime.cuh - helpers for CUDA emitted by ExoGPU -*- CUDA -*-===//
//
// Part of ExoGPU. The small, header-only runtime that every `.cu` file
// written by `exogpu-translate --to-cuda` includes (docs/cuda-translation.md).
// It holds the pieces that read better as named functions than as inline PTX
// repeated at every use: control arithmetic with floor semantics, mbarrier
// waits, the wgmma shared-memory descriptor, the 128-byte swizzle of scalar
// accesses, tensor-map encoding through the driver entry point (so nothing
// links libcuda) with a cache per call site, persistent-grid sizing and error
// propagation. Everything is inline; there is no library to link.
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_RUNTIME_CUH
#define EXOGPU_RUNTIME_CUH

#include <cstdint>
#include <cstring>
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <initializer_list>
#include <limits>
#include <type_traits>
#include <utility>

/// Returns the CUDA error of `expr` from the enclosing host function.
#define EXOGPU_TRY(expr)                                                       \
  do {                                                                         \
    cudaError_t exo_status_ = (expr);                                          \
    if (exo_status_ != cudaSuccess)                                            \
      return exo_status_;                                                      \
  } while (0)

#define EXOGPU_DEVICE __device__ __forceinline__

namespace exo {

//===----------------------------------------------------------------------===//
// Control arithmetic (seeds/002 Fig. 1: `/` and `mod` are floor division and
// its non-negative remainder; C's `/` and `%` agree only for non-negative
// operands, which the translation uses where it can prove them).
//===----------------------------------------------------------------------===//

/// Floor division, in the operands' common type (int in kernels, int64_t in
/// host code).
template <typename A, typename B>
__host__ __device__ __forceinline__ auto floordiv(A a, B b) -> decltype(a / b) {
  const auto q = a / b;
  return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

/// The remainder of floordiv, with the sign of the divisor.
template <typename A, typename B>
__host__ __device__ __forceinline__ auto floormod(A a, B b) -> decltype(a % b) {
  const auto r = a % b;
  return (r != 0 && (r < 0) != (b < 0)) ? r + b : r;
}

//===----------------------------------------------------------------------===//
// Data arithmetic (docs/running.md "Arithmetic", the rules the meaning
// computes by). Integer operations wrap in the width of their precision, as
// two's complement: C++ would compute i8, ui8 and ui16 in `int` and make a
// signed overflow undefined, so each integer operation is one of these
// functions, computed in an unsigned type of at least 32 bits and converted
// back (modulo 2^width). Division truncates toward zero and never traps.
// Conversions at a write round floats to nearest-even, saturate floats to
// integer range (NaN is 0), and wrap integers.
//===----------------------------------------------------------------------===//

/// The unsigned type integer data arithmetic of `T` is computed in.
template <typename T>
using wrap_unsigned_t =
    std::conditional_t<(sizeof(T) > 4), unsigned long long, unsigned>;

/// `a + b` modulo 2^width of T.
template <typename T> __host__ __device__ __forceinline__ T wrap_add(T a, T b) {
  using U = wrap_unsigned_t<T>;
  return static_cast<T>(static_cast<U>(a) + static_cast<U>(b));
}

/// `a - b` modulo 2^width of T.
template <typename T> __host__ __device__ __forceinline__ T wrap_sub(T a, T b) {
  using U = wrap_unsigned_t<T>;
  return static_cast<T>(static_cast<U>(a) - static_cast<U>(b));
}

/// `a * b` modulo 2^width of T.
template <typename T> __host__ __device__ __forceinline__ T wrap_mul(T a, T b) {
  using U = wrap_unsigned_t<T>;
  return static_cast<T>(static_cast<U>(a) * static_cast<U>(b));
}

/// `-a` modulo 2^width of T.
template <typename T> __host__ __device__ __forceinline__ T wrap_neg(T a) {
  using U = wrap_unsigned_t<T>;
  return static_cast<T>(U(0) - static_cast<U>(a));
}

/// `a / b` truncated toward zero; `a / 0` is -1 (all ones, what PTX's div
/// leaves for unsigned operands) and the signed `MIN / -1` wraps to MIN.
template <typename T> __host__ __device__ __forceinline__ T int_div(T a, T b) {
  if (b == 0)
    return static_cast<T>(-1);
  if (std::is_signed<T>::value && b == static_cast<T>(-1))
    return wrap_neg(a);
  return static_cast<T>(a / b);
}

/// The value of a data expression of type `From` converted to the precision
/// `To` of the buffer it is written to.
template <typename To, typename From>
__host__ __device__ __forceinline__ To convert(From value) {
  constexpr bool toInt = std::is_integral<To>::value;
  constexpr bool fromInt = std::is_integral<From>::value;
  if constexpr (toInt && fromInt) {
    return static_cast<To>(value); // modulo 2^width (C++20; what nvcc does)
  } else if constexpr (toInt) {
    // Truncation toward zero, saturating; NaN is 0 (PTX cvt.rzi). The range
    // [lo, hi) of To is exact in f32 (powers of two), as is every 16-bit
    // float.
    using U = wrap_unsigned_t<To>;
    using Wide = std::conditional_t<sizeof(From) == 8, double, float>;
    constexpr bool isSigned = std::is_signed<To>::value;
    constexpr U half = U(1) << (8 * sizeof(To) - 1);
    constexpr Wide lo = isSigned ? -Wide(half) : Wide(0);
    constexpr Wide hi = isSigned ? Wide(half) : 2 * Wide(half);
    const Wide x = static_cast<Wide>(value);
    if (x != x)
      return To(0);
    if (x <= lo)
      return isSigned ? static_cast<To>(half) : To(0);
    if (x >= hi)
      return isSigned ? static_cast<To>(half - 1) : static_cast<To>(~U(0));
    return static_cast<To>(x);
  } else if constexpr (fromInt) {
    // f64 and f32 hold every i8, ui8 and ui16 exactly and round an i32 once;
    // 16-bit floats are rounded from f32 (an i32 above 2^24 rounds twice).
    if constexpr (sizeof(To) >= 4)
      return static_cast<To>(value);
    else
      return To(static_cast<float>(value));
  } else if constexpr (sizeof(To) == 2 && sizeof(From) == 2) {
    return To(static_cast<float>(value)); // f16 <-> bf16 through f32 (exact)
  } else {
    return static_cast<To>(value);
  }
}

/// exp2 and log2 of 16-bit floats: computed in f32 (which holds the operand
/// exactly) and rounded once, in host and device code alike (cuda_fp16.h's
/// hexp2 and hlog2 are device-only approximations).
__host__ __device__ __forceinline__ __half exp2(__half x) {
  return __float2half_rn(exp2f(__half2float(x)));
}
__host__ __device__ __forceinline__ __half log2(__half x) {
  return __float2half_rn(log2f(__half2float(x)));
}
__host__ __device__ __forceinline__ __nv_bfloat16 exp2(__nv_bfloat16 x) {
  return __float2bfloat16_rn(exp2f(__bfloat162float(x)));
}
__host__ __device__ __forceinline__ __nv_bfloat16 log2(__nv_bfloat16 x) {
  return __float2bfloat16_rn(log2f(__bfloat162float(x)));
}

//===----------------------------------------------------------------------===//
// Thread hierarchy
//===----------------------------------------------------------------------===//

/// The CTA's rank in its cluster (%cluster_ctarank).
EXOGPU_DEVICE unsigned cluster_cta_rank() {
  unsigned rank;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
  return rank;
}

/// The shared::cluster address of `smem_address` (a shared::cta address of
/// this CTA) in the shared memory of CTA `cta` of the cluster.
EXOGPU_DEVICE uint32_t map_shared_rank(uint32_t smem_address, unsigned cta) {
  uint32_t result;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;"
               : "=r"(result)
               : "r"(smem_address), "r"(cta));
  return result;
}

/// The shared::cta address of a generic pointer into shared memory.
EXOGPU_DEVICE uint32_t smem_address(const void *pointer) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(pointer));
}

//===----------------------------------------------------------------------===//
// mbarriers (seeds/004 "mbarrier"; PTX ISA "Parallel Synchronization and
// Communication Instructions: mbarrier")
//===----------------------------------------------------------------------===//

EXOGPU_DEVICE void mbarrier_init(uint64_t *bar, unsigned arrive_count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(
                   smem_address(bar)),
               "r"(arrive_count)
               : "memory");
}

/// Makes mbarrier initializations visible to the other threads of the
/// cluster (and to the async proxy); a CTA or cluster barrier must follow.
EXOGPU_DEVICE void fence_mbarrier_init() {
#if __CUDA_ARCH__ >= 900
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
#endif
}

/// Blocks until the phase of `bar` with parity `parity` has completed.
EXOGPU_DEVICE void mbarrier_wait(uint64_t *bar, unsigned parity) {
  unsigned done;
  do {
#if __CUDA_ARCH__ >= 900
    asm volatile("{\n"
                 "  .reg .pred p;\n"
                 "  mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
                 "  selp.u32 %0, 1, 0, p;\n"
                 "}"
                 : "=r"(done)
                 : "r"(smem_address(bar)), "r"(parity)
                 : "memory");
#else
    asm volatile("{\n"
                 "  .reg .pred p;\n"
                 "  mbarrier.test_wait.parity.shared.b64 p, [%1], %2;\n"
                 "  selp.u32 %0, 1, 0, p;\n"
                 "}"
                 : "=r"(done)
                 : "r"(smem_address(bar)), "r"(parity)
                 : "memory");
#endif
  } while (!done);
}

/// Arrives at `bar` (this CTA's shared memory).
EXOGPU_DEVICE void mbarrier_arrive(uint64_t *bar) {
#if __CUDA_ARCH__ >= 900
  asm volatile(
      "mbarrier.arrive.release.cta.shared::cta.b64 _, [%0];" ::"r"(
          smem_address(bar))
      : "memory");
#else
  asm volatile("{\n"
               "  .reg .b64 state;\n"
               "  mbarrier.arrive.shared.b64 state, [%0];\n"
               "}" ::"r"(smem_address(bar))
               : "memory");
#endif
}

/// Arrives at the mbarrier at the same offset as `bar` in the shared memory
/// of CTA `cta` of the cluster, ordering nothing: a relaxed arrive at
/// cluster scope (no fence in SASS). For a release whose pre-set holds only
/// accesses that are complete when the arrive issues (wgmma reads after
/// wgmma.wait_group), which need temporal order only
/// (docs/cuda-translation.md "mbarrier arrives").
EXOGPU_DEVICE void mbarrier_arrive_peer(uint64_t *bar, unsigned cta) {
  asm volatile("mbarrier.arrive.relaxed.cluster.shared::cluster.b64 _, [%0];" ::
                   "r"(map_shared_rank(smem_address(bar), cta))
               : "memory");
}

/// The same arrive with release semantics at cluster scope: this thread's
/// earlier accesses (and those ordered before them) are visible to threads
/// of CTA `cta` that observe the phase complete. Costs a GPU-wide memory
/// barrier in SASS (MEMBAR.ALL.GPU).
EXOGPU_DEVICE void mbarrier_arrive_peer_release(uint64_t *bar, unsigned cta) {
  asm volatile("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0];" ::
                   "r"(map_shared_rank(smem_address(bar), cta))
               : "memory");
}

/// Arrives at `bar` and expects `bytes` more bytes of asynchronous
/// (complete_tx) transfers to complete on the current phase.
EXOGPU_DEVICE void mbarrier_arrive_expect_tx(uint64_t *bar, unsigned bytes) {
  asm volatile(
      "mbarrier.arrive.expect_tx.release.cta.shared::cta.b64 _, [%0], %1;" ::
          "r"(smem_address(bar)),
      "r"(bytes)
      : "memory");
}

//===----------------------------------------------------------------------===//
// Fences and cluster barriers
//===----------------------------------------------------------------------===//

/// Orders this thread's generic-proxy accesses to shared memory before its
/// later async-proxy accesses (TMA, wgmma) and those of threads it
/// synchronizes with (seeds/004 "async proxy"). No async proxy before sm_90.
EXOGPU_DEVICE void fence_proxy_async() {
#if __CUDA_ARCH__ >= 900
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
#endif
}

/// The arrive half of the cluster barrier (release semantics).
EXOGPU_DEVICE void cluster_arrive() {
  asm volatile("barrier.cluster.arrive.release.aligned;" ::: "memory");
}

/// The wait half of the cluster barrier (acquire semantics).
EXOGPU_DEVICE void cluster_wait() {
  asm volatile("barrier.cluster.wait.acquire.aligned;" ::: "memory");
}

/// All threads of the cluster rendezvous.
EXOGPU_DEVICE void cluster_sync() {
  cluster_arrive();
  cluster_wait();
}

//===----------------------------------------------------------------------===//
// Register fragments of 16-bit elements (stdlib/sm80.mlir). A register-matrix
// tile holds one element per variable; mma and ldmatrix take two .f16 or
// .bf16 elements per .b32 operand, the lower-numbered fragment element in
// the low half (PTX ISA "Matrix Fragments for mma.m16n8k16").
//===----------------------------------------------------------------------===//

/// The .b32 operand holding `lo` in bits 0-15 and `hi` in bits 16-31.
template <typename T> EXOGPU_DEVICE uint32_t pack_b16x2(T lo, T hi) {
  static_assert(sizeof(T) == 2, "pack_b16x2 packs 16-bit elements");
  uint16_t lo_bits, hi_bits;
  __builtin_memcpy(&lo_bits, &lo, 2);
  __builtin_memcpy(&hi_bits, &hi, 2);
  return uint32_t(lo_bits) | (uint32_t(hi_bits) << 16);
}

/// Splits a .b32 operand into its low (`lo`) and high (`hi`) 16-bit
/// elements.
template <typename T>
EXOGPU_DEVICE void unpack_b16x2(uint32_t bits, T &lo, T &hi) {
  static_assert(sizeof(T) == 2, "unpack_b16x2 unpacks 16-bit elements");
  const uint16_t lo_bits = uint16_t(bits), hi_bits = uint16_t(bits >> 16);
  __builtin_memcpy(&lo, &lo_bits, 2);
  __builtin_memcpy(&hi, &hi_bits, 2);
}

//===----------------------------------------------------------------------===//
// Shared-memory layouts
//===----------------------------------------------------------------------===//

/// The address of element `element_offset` (row-major, unswizzled) of a
/// `Bytes`-swizzled region starting at the 1024-byte-aligned `base`
/// (Sm90_SmemSwizzled(Bytes), Bytes in {32, 64, 128}: the 16-byte chunk index
/// within each `Bytes` span is XORed with the 128-byte row index modulo
/// Bytes / 16, as TMA writes and wgmma reads it).
template <int Bytes, typename T>
EXOGPU_DEVICE T *swizzle(T *base, unsigned element_offset) {
  static_assert(Bytes == 32 || Bytes == 64 || Bytes == 128,
                "swizzle spans are 32, 64 or 128 bytes");
  unsigned byte = element_offset * sizeof(T);
  byte ^= ((byte >> 7) & (Bytes / 16 - 1)) << 4;
  return reinterpret_cast<T *>(reinterpret_cast<char *>(base) + byte);
}

/// A wgmma shared-memory matrix descriptor for a K-major operand in
/// 128-byte-swizzled layout starting at `pointer` (rows of 128 bytes, 8-row
/// atoms 1024 bytes apart; PTX ISA "Matrix Descriptor Format").
EXOGPU_DEVICE uint64_t wgmma_desc_sw128(const void *pointer) {
  uint64_t address = smem_address(pointer);
  uint64_t desc = (address & 0x3FFFFu) >> 4; // start address
  desc |= uint64_t(1) << 16;                 // leading byte offset (unused)
  desc |= uint64_t(1024 >> 4) << 32;         // stride byte offset
  desc |= uint64_t(1) << 62;                 // 128-byte swizzle
  return desc;
}

//===----------------------------------------------------------------------===//
// Host side
//===----------------------------------------------------------------------===//

/// Saturating arithmetic on bounds of magnitudes (never negative): the host
/// function refuses a launch whose kernel could compute a control value
/// past its 32-bit int (docs/cuda-translation.md "Arithmetic").
inline int64_t magnitude(int64_t value) {
  return value < 0 ? (value == INT64_MIN ? INT64_MAX : -value) : value;
}
inline int64_t bound_add(int64_t a, int64_t b) {
  return a > INT64_MAX - b ? INT64_MAX : a + b;
}
inline int64_t bound_mul(int64_t a, int64_t b) {
  return b != 0 && a > INT64_MAX / b ? INT64_MAX : a * b;
}
inline int64_t bound_max(int64_t a, int64_t b) { return a < b ? b : a; }
inline int64_t bound_dec(int64_t a) { return a > 0 ? a - 1 : 0; }
/// The element count of a buffer of `extents`, saturating.
inline int64_t element_count(std::initializer_list<int64_t> extents) {
  int64_t count = 1;
  for (int64_t extent : extents)
    count = bound_mul(count, magnitude(extent));
  return count;
}

/// Global memory a host function allocates (CudaGmemLinear allocations at
/// CPU scope): stream-ordered, freed when the C++ block that holds it ends.
template <typename T> class DeviceArray {
public:
  explicit DeviceArray(cudaStream_t stream) : stream(stream) {}
  DeviceArray(const DeviceArray &) = delete;
  DeviceArray &operator=(const DeviceArray &) = delete;
  ~DeviceArray() {
    if (data)
      (void)cudaFreeAsync(data, stream);
  }
  cudaError_t allocate(size_t count) {
    return cudaMallocAsync(reinterpret_cast<void **>(&data),
                           count * sizeof(T), stream);
  }
  T *get() const { return data; }

private:
  cudaStream_t stream;
  T *data = nullptr;
};

/// Encodes a tiled tensor map through the driver's cuTensorMapEncodeTiled,
/// obtained through the runtime (no link against libcuda). Dimensions,
/// strides (bytes, all but the innermost) and box are innermost first.
inline cudaError_t encode_tensor_map(CUtensorMap *map,
                                     CUtensorMapDataType type, unsigned rank,
                                     const void *address,
                                     const cuuint64_t *dims,
                                     const cuuint64_t *byte_strides,
                                     const cuuint32_t *box,
                                     CUtensorMapSwizzle swizzle) {
  static PFN_cuTensorMapEncodeTiled_v12000 encode = nullptr;
  if (!encode) {
    cudaDriverEntryPointQueryResult query;
    cudaError_t status = cudaGetDriverEntryPointByVersion(
        "cuTensorMapEncodeTiled", reinterpret_cast<void **>(&encode), 12000,
        cudaEnableDefault, &query);
    if (status != cudaSuccess)
      return status;
    if (query != cudaDriverEntryPointSuccess || !encode)
      return cudaErrorNotSupported;
  }
  cuuint32_t element_strides[5] = {1, 1, 1, 1, 1};
  CUresult result = encode(
      map, type, rank, const_cast<void *>(address), dims, byte_strides, box,
      element_strides, CU_TENSOR_MAP_INTERLEAVE_NONE, swizzle,
      CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  return result == CUDA_SUCCESS ? cudaSuccess : cudaErrorInvalidValue;
}

/// The tensor maps one call site of a host function encoded last (the
/// translation declares one `static thread_local` cache per tensor map):
/// cuTensorMapEncodeTiled is a pure function of its arguments, so a call
/// with the same tensor (address), shape, strides, box, element type and
/// swizzle as one of the last `kEntries` reuses that map instead of
/// calling the driver again (tens of microseconds per map, paid on every
/// call of a small GEMM otherwise). Least recently encoded entries are
/// replaced first; each host thread has its own cache.
class TensorMapCache {
public:
  static constexpr int kEntries = 8;
  /// How a map is encoded on a miss (encode_tensor_map; tests pass another).
  using Encoder = cudaError_t (*)(CUtensorMap *, CUtensorMapDataType, unsigned,
                                  const void *, const cuuint64_t *,
                                  const cuuint64_t *, const cuuint32_t *,
                                  CUtensorMapSwizzle);

  /// Writes the map of these arguments into `map`: the cached one, or one
  /// that `encoder` encodes (and the cache keeps when it succeeds).
  cudaError_t encode(CUtensorMap *map, CUtensorMapDataType type, unsigned rank,
                     const void *address, const cuuint64_t *dims,
                     const cuuint64_t *byte_strides, const cuuint32_t *box,
                     CUtensorMapSwizzle swizzle,
                     Encoder encoder = encode_tensor_map) {
    if (rank == 0 || rank > 5)
      return encoder(map, type, rank, address, dims, byte_strides, box,
                     swizzle);
    Key key;
    std::memset(&key, 0, sizeof(key)); // padding too: memcmp compares it
    key.type = type;
    key.rank = rank;
    key.address = address;
    key.swizzle = swizzle;
    for (unsigned i = 0; i < rank; ++i) {
      key.dims[i] = dims[i];
      key.box[i] = box[i];
      if (i + 1 < rank)
        key.strides[i] = byte_strides[i];
    }
    for (int i = 0; i < count; ++i)
      if (std::memcmp(&entries[i].key, &key, sizeof(Key)) == 0) {
        *map = entries[i].map;
        return cudaSuccess;
      }
    cudaError_t status =
        encoder(map, type, rank, address, dims, byte_strides, box, swizzle);
    if (status != cudaSuccess)
      return status;
    entries[next].key = key;
    entries[next].map = *map;
    next = (next + 1) % kEntries;
    if (count < kEntries)
      ++count;
    return cudaSuccess;
  }

private:
  /// Everything the encoding reads.
  struct Key {
    CUtensorMapDataType type;
    unsigned rank;
    const void *address;
    cuuint64_t dims[5];
    cuuint64_t strides[4];
    cuuint32_t box[5];
    CUtensorMapSwizzle swizzle;
  };
  struct Entry {
    Key key;
    CUtensorMap map;
  };
  Entry entries[kEntries];
  int count = 0, next = 0;
};

/// The number of CTAs of a persistent grid for `kernel`: as many clusters of
/// `cluster_dim` CTAs as fit on the device at once, at most `tasks` of them.
template <typename Kernel>
inline cudaError_t persistent_grid(Kernel kernel, unsigned block_dim,
                                   unsigned cluster_dim, size_t smem_bytes,
                                   long long tasks, unsigned *grid) {
  int device = 0, sms = 0;
  EXOGPU_TRY(cudaGetDevice(&device));
  EXOGPU_TRY(
      cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  long long resident = 0;
  if (cluster_dim > 1) {
    cudaLaunchConfig_t config = {};
    cudaLaunchAttribute cluster;
    cluster.id = cudaLaunchAttributeClusterDimension;
    cluster.val.clusterDim.x = cluster_dim;
    cluster.val.clusterDim.y = 1;
    cluster.val.clusterDim.z = 1;
    config.gridDim = dim3(cluster_dim * sms);
    config.blockDim = dim3(block_dim);
    config.dynamicSmemBytes = smem_bytes;
    config.attrs = &cluster;
    config.numAttrs = 1;
    int clusters = 0;
    EXOGPU_TRY(cudaOccupancyMaxActiveClusters(
        &clusters, reinterpret_cast<const void *>(kernel), &config));
    resident = clusters;
  } else {
    int blocks = 0;
    EXOGPU_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        &blocks, kernel, static_cast<int>(block_dim), smem_bytes));
    resident = static_cast<long long>(blocks) * sms;
  }
  if (resident < 1)
    return cudaErrorInvalidConfiguration;
  long long clusters = tasks < resident ? tasks : resident;
  *grid = static_cast<unsigned>(clusters * cluster_dim);
  return cudaSuccess;
}

/// Launches `kernel` on `stream` with `grid` CTAs, in clusters of
/// `cluster_dim` when it is above 1.
template <typename... Params, typename... Args>
inline cudaError_t launch(void (*kernel)(Params...), unsigned grid,
                          unsigned block_dim, unsigned cluster_dim,
                          size_t smem_bytes, cudaStream_t stream,
                          Args &&...args) {
  cudaLaunchConfig_t config = {};
  cudaLaunchAttribute cluster;
  config.gridDim = dim3(grid);
  config.blockDim = dim3(block_dim);
  config.dynamicSmemBytes = smem_bytes;
  config.stream = stream;
  if (cluster_dim > 1) {
    cluster.id = cudaLaunchAttributeClusterDimension;
    cluster.val.clusterDim.x = cluster_dim;
    cluster.val.clusterDim.y = 1;
    cluster.val.clusterDim.z = 1;
    config.attrs = &cluster;
    config.numAttrs = 1;
  }
  return cudaLaunchKernelEx(&config, kernel, std::forward<Args>(args)...);
}

} // namespace exo

#endif // EXOGPU_RUNTIME_CUH
