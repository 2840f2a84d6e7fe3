//===- ThreadMapping.h - threads of cuda_threads loops ----------*- C++ -*-===//
//
// Part of ExoGPU (internal to the CUDA translation). Lowering of
// `cuda_threads` loops and `warps` blocks (seeds/002 Sec. 4.2 "Lowering
// cuda_threads Loops"): the collective analysis maps iterator values to the
// threads that run an iteration; the emitted code inverts that map, giving
// each thread its iterator value `y = f(thread index)` and a condition `g`
// that disables threads no iteration uses. With the natural thread index
// t = cta * blockDim + threadIdx.x (Def. 4.1) and p = t mod (D_m * P_m) its
// position along the dimension m the loop tiles, an operator with offset o
// and box b after the operators with values sigma_j gives
//
//   y = (p - a - o) floordiv b,    a = sum_j (o_j + sigma_j * b_j),
//   g = a + o <= p < a + o + tiles * b,
//
// where g is dropped when the tiles cover the parent collective (o = 0 and
// tiles * b equals the parent's box), so loops that cover their collective
// branch uniformly.
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_LIB_TARGET_CUDA_THREADMAPPING_H
#define EXOGPU_LIB_TARGET_CUDA_THREADMAPPING_H

#include "Translation.h"

namespace mlir::exogpu::cuda {

/// The C++ of a cuda_threads iterator or a warps block for one thread.
struct ThreadSelection {
  /// The iterator value (empty for a warps block).
  std::string value;
  /// Bounds of the iterator value.
  IntRange range;
  /// The condition under which the thread takes part (empty: always).
  std::string guard;
};

/// Inverts the thread mappings of one kernel.
class ThreadMapper {
public:
  ThreadMapper(const CollectiveAnalysis &collective, CollParams params,
               MLIRContext *context);

  /// Restricts the threads considered to [first, last] of each CTA (the
  /// warps of a code path), which lets guards and divisions simplify.
  void setThreadRange(int64_t first, int64_t last);

  /// The selection of a cuda_threads loop; binds its iterator for loops
  /// nested in it.
  FailureOr<ThreadSelection> mapLoop(ForOp loop);
  /// The selection of a warps block.
  FailureOr<ThreadSelection> mapWarps(WarpsOp warps);

  /// The names the emitted code gives the thread index and the CTA rank.
  static constexpr const char *kThreadName = "exo_thread";
  static constexpr const char *kCtaName = "exo_cta";

private:
  FailureOr<ThreadSelection> map(Operation *scope, Value iter);
  std::string print(AffineExpr expr);
  IntRange getDimRange(unsigned dim) const;

  const CollectiveAnalysis &collective;
  CollParams params;
  MLIRContext *context;
  /// Thread-space dimensions: d0 = threadIdx.x, d1 = CTA rank.
  IntRange threadRange, ctaRange;
  /// Iterator values as functions of the thread space.
  DenseMap<Value, AffineExpr> iterators;
};

} // namespace mlir::exogpu::cuda

#endif // EXOGPU_LIB_TARGET_CUDA_THREADMAPPING_H
