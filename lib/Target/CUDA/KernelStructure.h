//===- KernelStructure.h - task nest and code paths of a kernel -*- C++ -*-===//
//
// Part of ExoGPU (internal to the CUDA translation). The structure every
// kernel is emitted in (seeds/002 Sec. 4.2): the `cuda_tasks` nest, which
// becomes the persistent task loop, and, with warp specialization (Fig. 3),
// one code path per warp group: each named warp group of a device function's
// warp config gets its own code path, which runs the whole task loop with
// the statements outside `warps` blocks and its own `warps` blocks; paths
// that share a register budget (`setmaxnreg`) share a branch.
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_LIB_TARGET_CUDA_KERNELSTRUCTURE_H
#define EXOGPU_LIB_TARGET_CUDA_KERNELSTRUCTURE_H

#include "ExoGPU/Dialect/ExoGPU/IR/ExoGPUOps.h"

namespace mlir::exogpu::cuda {

/// The perfectly nested cuda_tasks loops at the top of `fn`, outermost
/// first.
SmallVector<ForOp> getTaskNest(DeviceFunctionOp fn);

/// One code path of a kernel: the warps of one named warp group (all warps
/// when the device function has no warp config, with an empty group name).
struct WarpPath {
  std::string group;
  int64_t firstWarp = 0;
  int64_t numWarps = 0;
};

/// Warps that share one register budget: a `setmaxnreg` (when `dec` or
/// `inc` is set) and then one code path per warp group.
struct RegisterBranch {
  int64_t firstWarp = 0;
  int64_t numWarps = 0;
  int64_t dec = 0;
  int64_t inc = 0;
  SmallVector<WarpPath> paths;
};

/// The code paths of a device function, grouped by register budget. Fails
/// when a warpgroup mixes register budgets (setmaxnreg applies to whole
/// warpgroups).
FailureOr<SmallVector<RegisterBranch>> getRegisterBranches(DeviceFunctionOp fn);

/// Whether `op` belongs to the code path of warp group `group` (it is not
/// inside a named `warps` block of another group). Every op belongs to the
/// path of the empty group.
bool isInWarpPath(Operation *op, StringRef group);

} // namespace mlir::exogpu::cuda

#endif // EXOGPU_LIB_TARGET_CUDA_KERNELSTRUCTURE_H
