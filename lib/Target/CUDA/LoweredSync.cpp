//===- LoweredSync.cpp - synchronization as hardware operations -----------===//
//
// Part of ExoGPU (internal to the CUDA translation). See LoweredSync.h.
//
//===----------------------------------------------------------------------===//

#include "LoweredSync.h"

using namespace mlir;
using namespace mlir::exogpu;
using namespace mlir::exogpu::cuda;

int64_t Rendezvous::getBarrierId(int64_t t) const {
  if (!stride)
    return idBase;
  return idBase + (t - first) / stride;
}

ThreadSet Rendezvous::getParticipants(int64_t thread,
                                      const ThreadSet &executing,
                                      CollParams params) const {
  int64_t ctaBase = thread - thread % params.blockDim;
  switch (kind) {
  case RendezvousKind::None:
    return ThreadSet::range(thread, thread);
  case RendezvousKind::WarpLanes: {
    int64_t local = thread - ctaBase;
    int64_t first = ctaBase + local / 32 * 32 + local % 32 / lanes * lanes;
    return ThreadSet::range(
        first, std::min(first + lanes, ctaBase + params.blockDim) - 1);
  }
  case RendezvousKind::NamedBarrier: {
    // The executing threads of the CTA that use the same barrier id.
    int64_t id = getBarrierId(thread - ctaBase);
    SmallVector<ThreadSet::Interval> runs;
    for (ThreadSet::Interval range :
         executing
             .intersect(
                 ThreadSet::range(ctaBase, ctaBase + params.blockDim - 1))
             .getIntervals())
      for (int64_t t = range.lo; t <= range.hi; ++t)
        if (getBarrierId(t - ctaBase) == id)
          runs.push_back({t, t});
    return ThreadSet::fromIntervals(runs);
  }
  case RendezvousKind::CtaBarrier:
    return ThreadSet::range(ctaBase, ctaBase + params.blockDim - 1);
  case RendezvousKind::ClusterBarrier:
    return ThreadSet::range(0, params.getNumThreads() - 1);
  }
  return ThreadSet::range(thread, thread);
}

SmallVector<int64_t> MbarrierArriveLowering::getTargetCtas(int64_t cta) const {
  SmallVector<int64_t> targets{cta};
  if (!multicast)
    return targets;
  int64_t index = cta / windowStride % windowCtas;
  for (int64_t k = 1; k < windowCtas; ++k)
    targets.push_back(cta + ((index + k) % windowCtas - index) * windowStride);
  return targets;
}

const SyncLowering *LoweredKernel::lookup(StringRef group,
                                          Operation *op) const {
  auto path = paths.find(group);
  if (path == paths.end())
    return nullptr;
  auto it = path->second.find(op);
  return it == path->second.end() ? nullptr : &it->second;
}
