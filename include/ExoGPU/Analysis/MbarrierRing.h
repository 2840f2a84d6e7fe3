//===- MbarrierRing.h - the mbarrier rings of a kernel ----------*- C++ -*-===//
//
// Part of ExoGPU. A `CudaMbarrier` queue barrier element is implemented as a
// ring of mbarriers (guide "Queue Barrier"): arrive number j of a thread
// uses slot j mod depth in phase parity (j / depth) mod 2. The depth is a
// decision of the compiler, the same for the CUDA translation, which lays
// the rings out (docs/cuda-translation.md, "Split barriers"), and for the
// synchronization check, which checks that the protocol fits it
// (docs/abstract-machine.md, "Rings"). This is its one definition.
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_ANALYSIS_MBARRIERRING_H
#define EXOGPU_ANALYSIS_MBARRIERRING_H

#include "ExoGPU/Dialect/ExoGPU/IR/ExoGPUOps.h"

namespace mlir::exogpu {

/// The ring lag of an await (guide "Queue Barrier": `~N` for `N < 0`, 0 for
/// `N >= 0`).
int64_t getRingLag(AwaitOp await);

/// The depth of every mbarrier ring of `kernel`: 1 + the sum of the largest
/// lag of each of its `CudaMbarrier` allocations, which bounds the arrives
/// in flight around any cycle of queue barriers guarding each other.
int64_t getMbarrierRingDepth(DeviceFunctionOp kernel);

} // namespace mlir::exogpu

#endif // EXOGPU_ANALYSIS_MBARRIERRING_H
