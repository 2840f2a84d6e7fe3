//===- cutlass_gemm.cu - One CUTLASS Hopper GEMM of kernels.def -----------===//
//
// Part of ExoGPU. Defines the host functions of the kernel of kernels.def
// that -DEXOGPU_CUTLASS_KERNEL=NAME selects: CUTLASS 3.x's warp-specialized
// persistent GEMM for sm_90a (TMA loads, wgmma, the mainloop and epilogue
// schedules of the line, the persistent tile scheduler), built from
// CUTLASS's collective builders as its example 48
// (hopper_warp_specialized_gemm) and its profiler do. bench/kernels.py
// compiles this file once per kernel (a CUTLASS kernel takes minutes to
// compile) against the headers of the pinned nvidia-cutlass package.
//
//===----------------------------------------------------------------------===//

#include "cutlass_gemm.h"

#include "cute/tensor.hpp"
#include "cutlass/cutlass.h"
#include "cutlass/epilogue/collective/collective_builder.hpp"
#include "cutlass/gemm/collective/collective_builder.hpp"
#include "cutlass/gemm/device/gemm_universal_adapter.h"
#include "cutlass/gemm/kernel/gemm_universal.hpp"
#include "cutlass/util/packed_stride.hpp"

#ifndef EXOGPU_CUTLASS_KERNEL
#error "compile with -DEXOGPU_CUTLASS_KERNEL=<a name of kernels.def>"
#endif
// NAME_config and NAME_supports for the selected NAME.
#define EXOGPU_CUTLASS_PASTE(name, suffix) name##suffix
#define EXOGPU_CUTLASS_CONFIG(name) EXOGPU_CUTLASS_PASTE(name, _config)
#define EXOGPU_CUTLASS_SUPPORTS(name) EXOGPU_CUTLASS_PASTE(name, _supports)

namespace exogpu_bench {
namespace {

using namespace cute;

/// The element of A, B and C per kind of kernels.def.
using element_tf32 = float; // tensor cores in tf32 (CUTLASS's sm90 builder)
using element_bf16 = cutlass::bfloat16_t;

/// The kernel and epilogue schedules per schedule of kernels.def.
struct schedule_Cooperative {
  using Kernel = cutlass::gemm::KernelTmaWarpSpecializedCooperative;
  using Epilogue = cutlass::epilogue::TmaWarpSpecializedCooperative;
};
struct schedule_Pingpong {
  using Kernel = cutlass::gemm::KernelTmaWarpSpecializedPingpong;
  using Epilogue = cutlass::epilogue::TmaWarpSpecialized;
};

/// The parameters of one line of kernels.def (no CUTLASS type is built
/// here: only the selected kernel is instantiated below).
template <class ElementT, int TileM, int TileN, int TileK, int ClusterM,
          int ClusterN, class ScheduleT>
struct Config {
  using Element = ElementT;
  using Tile = Shape<Int<TileM>, Int<TileN>, Int<TileK>>;
  using Cluster = Shape<Int<ClusterM>, Int<ClusterN>, _1>;
  using Schedule = ScheduleT;
};

#define CUTLASS_GEMM(name, kind, tile_m, tile_n, tile_k, cluster_m, cluster_n, \
                     schedule)                                                 \
  using name##_config = Config<element_##kind, tile_m, tile_n, tile_k,         \
                               cluster_m, cluster_n, schedule_##schedule>;
#include "kernels.def"

/// C = A B^T, "TN": A (M, K) and B (N, K) K-major, C (M, N) row major, f32
/// accumulation, D = 1 * acc (no source C is read).
template <class C> struct TnGemm {
  using Element = typename C::Element;
  using LayoutA = cutlass::layout::RowMajor;    // M x K, K contiguous
  using LayoutB = cutlass::layout::ColumnMajor; // K x N, K contiguous
  using LayoutD = cutlass::layout::RowMajor;
  static constexpr int kAlignment = 128 / cutlass::sizeof_bits<Element>::value;
  using Accumulator = float;

  using CollectiveEpilogue =
      typename cutlass::epilogue::collective::CollectiveBuilder<
          cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp, typename C::Tile,
          typename C::Cluster, cutlass::epilogue::collective::EpilogueTileAuto,
          Accumulator, Accumulator, void, LayoutD, kAlignment, Element, LayoutD,
          kAlignment, typename C::Schedule::Epilogue>::CollectiveOp;
  using CollectiveMainloop =
      typename cutlass::gemm::collective::CollectiveBuilder<
          cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp, Element, LayoutA,
          kAlignment, Element, LayoutB, kAlignment, Accumulator,
          typename C::Tile, typename C::Cluster,
          cutlass::gemm::collective::StageCountAutoCarveout<static_cast<int>(
              sizeof(typename CollectiveEpilogue::SharedStorage))>,
          typename C::Schedule::Kernel>::CollectiveOp;
  using Kernel = cutlass::gemm::kernel::GemmUniversal<
      Shape<int, int, int, int>, CollectiveMainloop, CollectiveEpilogue>;
  using Gemm = cutlass::gemm::device::GemmUniversalAdapter<Kernel>;

  static typename Gemm::Arguments arguments(int64_t M, int64_t N, int64_t K,
                                            const void *A, const void *B,
                                            void *D) {
    auto strideA = cutlass::make_cute_packed_stride(
        typename Kernel::StrideA{}, make_shape(int(M), int(K), 1));
    auto strideB = cutlass::make_cute_packed_stride(
        typename Kernel::StrideB{}, make_shape(int(N), int(K), 1));
    auto strideD = cutlass::make_cute_packed_stride(
        typename Kernel::StrideD{}, make_shape(int(M), int(N), 1));
    typename Gemm::Arguments args{
        cutlass::gemm::GemmUniversalMode::kGemm,
        {int(M), int(N), int(K), 1},
        {static_cast<const Element *>(A), strideA,
         static_cast<const Element *>(B), strideB},
        {{1.0f, 0.0f}, nullptr, strideD, static_cast<Element *>(D), strideD}};
    return args;
  }
};

using Selected = TnGemm<EXOGPU_CUTLASS_CONFIG(EXOGPU_CUTLASS_KERNEL)>;

/// The workspace of the tile scheduler, grown on demand and kept (the
/// benchmark's first, untimed call at each shape allocates it).
cudaError_t workspace(size_t bytes, void **pointer) {
  static void *buffer = nullptr;
  static size_t capacity = 0;
  if (bytes > capacity) {
    if (buffer)
      cudaFree(buffer);
    buffer = nullptr;
    capacity = 0;
    if (cudaError_t status = cudaMalloc(&buffer, bytes))
      return status;
    capacity = bytes;
  }
  *pointer = buffer;
  return cudaSuccess;
}

} // namespace

bool EXOGPU_CUTLASS_SUPPORTS(EXOGPU_CUTLASS_KERNEL)(int64_t M, int64_t N,
                                                    int64_t K) {
  typename Selected::Gemm::Arguments args =
      Selected::arguments(M, N, K, nullptr, nullptr, nullptr);
  return Selected::Gemm::can_implement(args) == cutlass::Status::kSuccess;
}

cudaError_t EXOGPU_CUTLASS_KERNEL(cudaStream_t stream, int64_t M, int64_t N,
                                  int64_t K, const void *A, const void *B,
                                  void *C) {
  typename Selected::Gemm gemm;
  typename Selected::Gemm::Arguments args =
      Selected::arguments(M, N, K, A, B, C);
  if (gemm.can_implement(args) != cutlass::Status::kSuccess)
    return cudaErrorInvalidValue;
  void *space = nullptr;
  if (cudaError_t status =
          workspace(Selected::Gemm::get_workspace_size(args), &space))
    return status;
  if (gemm.initialize(args, space, stream) != cutlass::Status::kSuccess ||
      gemm.run(stream) != cutlass::Status::kSuccess)
    return cudaErrorLaunchFailure;
  return cudaGetLastError();
}

} // namespace exogpu_bench
