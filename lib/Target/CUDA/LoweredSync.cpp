//===- LoweredSync.cpp - synchronization as hardware operations -----------===//
//
// Part of ExoGPU (internal to the CUDA translation). See LoweredSync.h.
//
//===----------------------------------------------------------------------===//

#include "LoweredSync.h"

#include <functional>
#include <map>
#include <set>

using namespace mlir;
using namespace mlir::exogpu;
using namespace mlir::exogpu::cuda;

int64_t Rendezvous::getBarrierId(int64_t t) const {
  if (!stride)
    return idBase;
  int64_t index = (t - first) / stride;
  return idBase + (period ? index % period : index);
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
    if (laneMask) {
      SmallVector<ThreadSet::Interval> lanesOfMask;
      for (int64_t lane = 0; lane < 32; ++lane)
        if (laneMask & (1u << lane))
          lanesOfMask.push_back(
              {thread - local % 32 + lane, thread - local % 32 + lane});
      return ThreadSet::fromIntervals(lanesOfMask);
    }
    int64_t first = ctaBase + local / 32 * 32 + local % 32 / lanes * lanes;
    return ThreadSet::range(
        first, std::min(first + lanes, ctaBase + params.blockDim) - 1);
  }
  case RendezvousKind::NamedBarrier: {
    // The executing threads of the CTA that use the same barrier id.
    int64_t id = getBarrierId(thread - ctaBase);
    SmallVector<ThreadSet::Interval> runs;
    ThreadSet inCta = executing.intersect(
        ThreadSet::range(ctaBase, ctaBase + params.blockDim - 1));
    for (ThreadSet::Interval range : inCta.getIntervals())
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

bool Rendezvous::meets(int64_t a, int64_t b, CollParams params) const {
  int64_t blockDim = params.blockDim;
  bool sameCta = a / blockDim == b / blockDim;
  bool sameWarp = sameCta && a % blockDim / 32 == b % blockDim / 32;
  switch (kind) {
  case RendezvousKind::None:
    return a == b;
  case RendezvousKind::WarpLanes:
    if (laneMask)
      return sameWarp && (laneMask >> (a % blockDim % 32) & 1) &&
             (laneMask >> (b % blockDim % 32) & 1);
    return sameWarp && a % blockDim % 32 / lanes == b % blockDim % 32 / lanes;
  case RendezvousKind::NamedBarrier:
    return sameCta && getBarrierId(a % blockDim) == getBarrierId(b % blockDim);
  case RendezvousKind::CtaBarrier:
    return sameCta;
  case RendezvousKind::ClusterBarrier:
    return true;
  }
  return a == b;
}

ThreadSet Rendezvous::getMeetingIssuer(const ThreadSet &executing, int64_t unit,
                                       CollParams params) const {
  SmallVector<ThreadSet::Interval> met;
  for (ThreadSet::Interval range : executing.getIntervals())
    for (int64_t t = range.lo; t <= range.hi; ++t) {
      int64_t base = t - t % params.blockDim;
      int64_t issuer = base + (t - base) / unit * unit;
      if (executing.contains(issuer) && meets(t, issuer, params))
        met.push_back({t, t});
    }
  return ThreadSet::fromIntervals(met);
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

//===----------------------------------------------------------------------===//
// The barrier of a Fence
//===----------------------------------------------------------------------===//

/// The lanes of `threads` in the warp that starts at `warpBase`, as a mask.
static uint32_t getLaneMask(const ThreadSet &threads, int64_t warpBase,
                            int64_t warpEnd) {
  uint32_t mask = 0;
  for (int64_t t = warpBase; t < warpEnd; ++t)
    if (threads.contains(t))
      mask |= 1u << (t - warpBase);
  return mask;
}

FailureOr<Rendezvous>
mlir::exogpu::cuda::chooseRendezvous(ArrayRef<ThreadSet> instances,
                                     CollParams params, std::string &reason) {
  Rendezvous rendezvous;
  int64_t blockDim = params.blockDim;
  int64_t warpsPerCta = (blockDim + 31) / 32;
  SmallVector<const ThreadSet *> sets;
  ThreadSet executing;
  for (const ThreadSet &set : instances)
    if (!set.empty()) {
      sets.push_back(&set);
      executing = executing.unite(set);
    }
  auto describe = [](const ThreadSet &set) {
    std::string text;
    llvm::raw_string_ostream os(text);
    os << set;
    return text;
  };
  if (llvm::all_of(sets, [](const ThreadSet *set) { return set->size() == 1; }))
    return rendezvous;
  // Whole CTAs: the CTA barrier.
  if (llvm::all_of(sets, [&](const ThreadSet *set) {
        int64_t base = *set->getMin() / blockDim * blockDim;
        return *set == ThreadSet::range(base, base + blockDim - 1);
      })) {
    rendezvous.kind = RendezvousKind::CtaBarrier;
    return rendezvous;
  }
  // Only the cluster barrier synchronizes threads of several CTAs, and every
  // thread of the cluster takes part in it.
  ThreadSet cluster = ThreadSet::range(0, params.getNumThreads() - 1);
  for (const ThreadSet *set : sets) {
    if (*set->getMin() / blockDim == set->getIntervals().back().hi / blockDim)
      continue;
    if (sets.size() == 1 && *set == cluster) {
      rendezvous.kind = RendezvousKind::ClusterBarrier;
      return rendezvous;
    }
    reason = "its collective " + describe(*set) +
             " spans CTAs but is not the whole cluster, and only the cluster "
             "barrier, which every thread of the cluster executes, "
             "synchronizes threads of several CTAs";
    return failure();
  }
  auto getWarp = [&](int64_t t) {
    return t / blockDim * warpsPerCta + t % blockDim / 32;
  };
  auto warpBase = [&](int64_t warp) {
    return warp / warpsPerCta * blockDim + warp % warpsPerCta * 32;
  };
  auto warpEnd = [&](int64_t warp) {
    return std::min(warpBase(warp) + 32, (warp / warpsPerCta + 1) * blockDim);
  };
  // Warps that collectives share meet at one barrier: union-find.
  std::map<int64_t, int64_t> parent;
  std::function<int64_t(int64_t)> find = [&](int64_t w) {
    int64_t &p = parent.try_emplace(w, w).first->second;
    if (p != w)
      p = find(p);
    return p;
  };
  for (const ThreadSet *set : sets) {
    std::optional<int64_t> first;
    for (ThreadSet::Interval run : set->getIntervals())
      for (int64_t w = getWarp(run.lo); w <= getWarp(run.hi); ++w) {
        if (!first)
          first = find(w);
        parent[find(w)] = *first;
      }
  }
  std::map<int64_t, SmallVector<int64_t>> groups;
  for (auto &[warp, unused] : parent) {
    (void)unused;
    groups[find(warp)].push_back(warp);
  }
  bool singleWarps = llvm::all_of(
      groups, [](auto &group) { return group.second.size() == 1; });
  if (singleWarps) {
    // Aligned groups of lanes of one size: each collective meets alone.
    int64_t lanes = sets.front()->size();
    bool aligned = llvm::isPowerOf2_64(lanes) &&
                   llvm::all_of(sets, [&](const ThreadSet *set) {
                     return set->size() == lanes &&
                            set->getIntervals().size() == 1 &&
                            *set->getMin() % blockDim % 32 % lanes == 0;
                   });
    if (aligned) {
      rendezvous.kind = RendezvousKind::WarpLanes;
      rendezvous.lanes = lanes;
      return rendezvous;
    }
    // Otherwise the executing lanes of each warp meet, the same in every
    // warp.
    std::optional<uint32_t> mask;
    for (auto &[root, warps] : groups) {
      uint32_t lanesOfWarp = getLaneMask(executing, warpBase(warps.front()),
                                         warpEnd(warps.front()));
      if (mask && *mask != lanesOfWarp) {
        reason = "its collectives leave different lanes idle in different "
                 "warps, so no one __syncwarp mask synchronizes them";
        return failure();
      }
      mask = lanesOfWarp;
    }
    rendezvous.kind = RendezvousKind::WarpLanes;
    rendezvous.lanes = 32;
    rendezvous.laneMask = *mask == 0xffffffffu ? 0 : *mask;
    return rendezvous;
  }
  // Groups of whole CTAs meet at the CTA barrier, which every thread of the
  // CTA executes.
  bool wholeCtas = llvm::all_of(groups, [&](auto &group) {
    return int64_t(group.second.size()) == warpsPerCta;
  });
  for (auto &[root, warps] : groups)
    for (int64_t w : warps) {
      ThreadSet warp = ThreadSet::range(warpBase(w), warpEnd(w) - 1);
      if (warp.intersect(executing) == warp &&
          (wholeCtas || warpEnd(w) - warpBase(w) == 32))
        continue;
      reason = "threads " + describe(warp.subtract(executing)) +
               " do not execute the Fence, but other threads meet their " +
               (wholeCtas ? "CTA's" : "warp's") + " threads at it, and " +
               (wholeCtas ? "the CTA barrier waits for every thread of the CTA"
                          : "a barrier of several warps waits for whole "
                            "warps");
      if (warpEnd(w) - warpBase(w) != 32)
        reason = "the warp of threads " + describe(warp) +
                 " is not whole, and a barrier of several warps but not the "
                 "CTA counts whole warps";
      return failure();
    }
  if (wholeCtas) {
    rendezvous.kind = RendezvousKind::CtaBarrier;
    return rendezvous;
  }
  // The groups as sets of warps of a CTA, the same in every CTA.
  std::map<int64_t, std::set<SmallVector<int64_t>>> local;
  for (auto &[root, warps] : groups) {
    SmallVector<int64_t> inCta;
    for (int64_t w : warps)
      inCta.push_back(w % warpsPerCta);
    llvm::sort(inCta);
    local[warps.front() / warpsPerCta].insert(inCta);
  }
  const std::set<SmallVector<int64_t>> &shape = local.begin()->second;
  for (auto &[cta, ctaGroups] : local)
    if (ctaGroups != shape) {
      reason = "its collectives meet in different groups of warps in "
               "different CTAs";
      return failure();
    }
  SmallVector<SmallVector<int64_t>> ordered(shape.begin(), shape.end());
  llvm::sort(ordered, [](auto &a, auto &b) { return a.front() < b.front(); });
  int64_t size = ordered.front().size();
  for (auto &group : ordered)
    if (int64_t(group.size()) != size) {
      reason = "its collectives meet in groups of different numbers of warps";
      return failure();
    }
  rendezvous.kind = RendezvousKind::NamedBarrier;
  rendezvous.count = size * 32;
  rendezvous.numIds = ordered.size();
  rendezvous.first = ordered.front().front() * 32;
  // Runs of contiguous warps, evenly spaced: id = (t - first) / spacing.
  bool contiguous = llvm::all_of(ordered, [](auto &group) {
    return group.back() - group.front() + 1 == int64_t(group.size());
  });
  int64_t spacing =
      ordered.size() > 1 ? ordered[1].front() - ordered[0].front() : size;
  bool even = true;
  for (size_t i = 1; i < ordered.size(); ++i)
    even &= ordered[i].front() - ordered[i - 1].front() == spacing;
  if (contiguous && even) {
    rendezvous.stride = ordered.size() > 1 ? spacing * 32 : 0;
    return rendezvous;
  }
  // Interleaved warps: group j holds the warps first + j, first + j + n, ...
  int64_t n = ordered.size();
  bool interleaved = true;
  for (auto [j, group] : llvm::enumerate(ordered))
    for (auto [i, w] : llvm::enumerate(group))
      interleaved &= w == ordered.front().front() + int64_t(j) + int64_t(i) * n;
  if (interleaved) {
    rendezvous.stride = 32;
    rendezvous.period = n;
    return rendezvous;
  }
  reason = "its collectives meet in groups of warps that are neither evenly "
           "spaced runs nor interleaved, which one named-barrier id formula "
           "cannot tell apart";
  return failure();
}
