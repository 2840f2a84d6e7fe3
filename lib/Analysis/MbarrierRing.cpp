//===- MbarrierRing.cpp - the mbarrier rings of a kernel ------------------===//
//
// Part of ExoGPU. See MbarrierRing.h.
//
//===----------------------------------------------------------------------===//

#include "ExoGPU/Analysis/MbarrierRing.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::exogpu;

int64_t mlir::exogpu::getRingLag(AwaitOp await) {
  int64_t n = await.getCountAttr().getInt();
  return n < 0 ? ~n : 0;
}

int64_t mlir::exogpu::getMbarrierRingDepth(DeviceFunctionOp kernel) {
  int64_t depth = 1;
  kernel.walk([&](AllocOp alloc) {
    auto type = dyn_cast<BarrierType>(alloc.getResult().getType());
    if (!type || type.getKind() != BarrierKind::CudaMbarrier)
      return;
    int64_t lag = 0;
    for (Operation *user : alloc.getResult().getUsers())
      if (auto await = dyn_cast<AwaitOp>(user))
        lag = std::max(lag, getRingLag(await));
    // (Saturating: a lag near INT64_MAX is as good as an unbounded ring.)
    if (llvm::AddOverflow(depth, lag, depth))
      depth = std::numeric_limits<int64_t>::max();
  });
  return depth;
}
