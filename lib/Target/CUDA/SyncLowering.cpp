//===- SyncLowering.cpp - Fence, Arrive and Await as CUDA -----------------===//
//
// Part of ExoGPU (internal to the CUDA translation). The synchronization
// statements of seeds/002 Fig. 2 become the fewest instructions that give
// their collective and sync timelines (Fig. 16) their meaning: the table of
// docs/cuda-translation.md.
//
//   waits       pending asynchronous work of the executing threads whose
//               timeline is in the first sync timeline's full set:
//               cp.async.wait_all (Sm80), cp.async.bulk.wait_group 0 (tmaG),
//               wgmma.wait_group 0 (wgA, wgD, wgS, unless only later wgmma
//               accesses are ordered after them, which PTX orders itself)
//   fences      wgmma.fence when in-order register accesses (cuda1) are
//               ordered before wgmma register accesses; fence.proxy.async
//               when generic shared-memory accesses (cuda2) are ordered
//               before async-proxy ones (tmaS, tmaG, wgS) and one of the
//               path may precede unfenced (SyncPlan.h)
//   rendezvous  by collective: nothing (one thread), __syncwarp (a warp or
//               part of one), a named barrier (whole warps of a CTA), the
//               CTA barrier, the cluster barrier
//
// Split barriers by mechanism (Fig. 13): commit groups commit and wait
// (`wait_group N`); mbarriers arrive (with expect_tx for TMA) and wait on
// phase parity in rings (SharedMemoryPlan.h), one elected thread per warp
// or warpgroup arriving where SyncPlan.h allows it, `.release.cta` at the
// CTA's own barrier and `.relaxed.cluster` or `.release.cluster` at peers';
// cluster syncs are the split cluster barrier.
//
//===----------------------------------------------------------------------===//

#include "KernelEmitter.h"
#include "Timelines.h"
#include "UncommittedWork.h"
#include "llvm/Support/Format.h"

using namespace mlir;
using namespace mlir::exogpu;
using namespace mlir::exogpu::cuda;

bool KernelEmitter::pathIssues(uint32_t timelines) {
  bool found = false;
  deviceFunction.walk([&](CallOp call) {
    found |= inPath(call) && callUsesTimelines(call, timelines);
  });
  return found;
}

bool KernelEmitter::mayBeUncommitted(Operation *op, uint32_t timelines,
                                     SyncTimeline committed) {
  auto issues = [&](Operation *statement) {
    auto call = dyn_cast<CallOp>(statement);
    return call && inPath(call) && callUsesTimelines(call, timelines);
  };
  auto commits = [&](Operation *statement) {
    auto arrive = dyn_cast<ArriveOp>(statement);
    return arrive && inPath(arrive) && arrive.getTimeline() == committed &&
           cast<BarrierType>(arrive.getBarriers().front().getType())
                   .getKind() == BarrierKind::CudaCommitGroup;
  };
  return UncommittedWork(deviceFunction, issues, commits)
      .mayBePendingBefore(op);
}

FailureOr<SyncWaits> KernelEmitter::getPreWaits(Operation *op, uint32_t preFull,
                                                uint32_t postTemporal,
                                                bool sameThreads) {
  SyncWaits waits;
  waits.cpAsyncWaitAll =
      (preFull & getQualBit(QualTimeline::Sm80_cp_async_qual)) &&
      pathIssues(getQualBit(QualTimeline::Sm80_cp_async_qual));
  waits.bulkWaitAll =
      (preFull & getQualBit(QualTimeline::tma_to_gmem_async_qual)) &&
      pathIssues(getQualBit(QualTimeline::tma_to_gmem_async_qual));
  bool wgmmaInPath = pathIssues(kWgmmaTimelines);
  waits.wgmmaWaitAll = (preFull & kWgmmaTimelines) &&
                       (postTemporal & ~kWgmmaRegisterTimelines) && wgmmaInPath;
  // wgmma.fence orders the warpgroup's own in-order register accesses
  // before its later wgmmas (PTX orders wgmma after wgmma itself):
  // meaningful only when the same threads are on both sides.
  waits.wgmmaFence =
      sameThreads &&
      (preFull & getQualBit(QualTimeline::cuda_in_order_rmem_qual)) &&
      (postTemporal & kWgmmaRegisterTimelines) && wgmmaInPath;
  // A proxy fence only where a generic shared-memory access of the path may
  // precede, unfenced, the async-proxy accesses this synchronization orders
  // it before (SyncPlan.h).
  waits.proxyFence =
      ordersGenericBeforeAsyncProxy(preFull, postTemporal) &&
      syncPlan.needsProxyFence(currentPath ? currentPath->group : "", op);
  // `wait_group 0` waits for the committed groups only: commit what was
  // issued since the last commit first (an empty group is complete at
  // once, and a later wait of the program's own groups waits for no less),
  // where the path may have issued some since its last commit
  // (UncommittedWork.h; the validator checks it).
  waits.bulkCommit =
      waits.bulkWaitAll && !injects(SyncFault::NoCommitBeforeWait) &&
      mayBeUncommitted(op, getQualBit(QualTimeline::tma_to_gmem_async_qual),
                       SyncTimeline::tma_to_gmem_async);
  waits.wgmmaCommit =
      waits.wgmmaWaitAll && !injects(SyncFault::NoCommitBeforeWait) &&
      mayBeUncommitted(op, kWgmmaTimelines, SyncTimeline::wgmma_async);
  if (injects(SyncFault::NoProxyFences))
    waits.proxyFence = false;
  // wgmma.wait_group and wgmma.fence are `.sync.aligned`: every thread of
  // the warpgroup executes them together.
  if (waits.wgmmaWaitAll || waits.wgmmaFence) {
    FailureOr<SmallVector<ThreadSet>> instances =
        getCollectiveInstances(*state.module.collective, op);
    if (failed(instances))
      return failure();
    for (const ThreadSet &set : *instances)
      for (ThreadSet::Interval range : set.getIntervals())
        if (params.blockDim % 128 != 0 || range.lo % 128 != 0 ||
            (range.hi + 1) % 128 != 0)
          return emitTranslationError(op->getLoc())
                 << "this synchronization waits for or fences the wgmma of "
                    "its code path, which whole warpgroups do together "
                    "(.sync.aligned), but its collective is not made of "
                    "whole warpgroups; synchronize the wgmma timelines in a "
                    "collective of warpgroups, or leave them out of its "
                    "sync timelines";
  }
  return waits;
}

void KernelEmitter::printWaits(const SyncWaits &waits) {
  if (waits.cpAsyncWaitAll)
    out.line("asm volatile(\"cp.async.wait_all;\" ::: \"memory\");");
  if (waits.bulkCommit)
    out.line("asm volatile(\"cp.async.bulk.commit_group;\" ::: \"memory\");");
  if (waits.bulkWaitAll)
    out.line("asm volatile(\"cp.async.bulk.wait_group 0;\" ::: \"memory\");");
  if (waits.wgmmaCommit)
    out.line(
        "asm volatile(\"wgmma.commit_group.sync.aligned;\" ::: \"memory\");");
  if (waits.wgmmaWaitAll)
    out.line(
        "asm volatile(\"wgmma.wait_group.sync.aligned 0;\" ::: \"memory\");");
  if (waits.wgmmaFence)
    out.line("asm volatile(\"wgmma.fence.sync.aligned;\" ::: \"memory\");");
  if (waits.proxyFence)
    out.line("exo::fence_proxy_async();");
}

bool KernelEmitter::injects(SyncFault fault) const {
  return state.module.options.syncFaults & static_cast<unsigned>(fault);
}

void KernelEmitter::recordLowering(Operation *op, SyncLowering lowering) {
  lowered.paths[currentPath ? currentPath->group : ""][op] =
      std::move(lowering);
}

FailureOr<Rendezvous> KernelEmitter::getRendezvous(Operation *op,
                                                   StringRef what) {
  FailureOr<SmallVector<ThreadSet>> instances =
      getCollectiveInstances(*state.module.collective, op);
  if (failed(instances))
    return failure();
  std::string reason;
  FailureOr<Rendezvous> rendezvous =
      chooseRendezvous(*instances, params, reason);
  if (failed(rendezvous))
    return emitTranslationError(op->getLoc())
           << "no hardware barrier synchronizes this " << what << ": "
           << reason;
  if (injects(SyncFault::WarpBarriers) &&
      rendezvous->kind != RendezvousKind::None) {
    Rendezvous warp;
    warp.kind = RendezvousKind::WarpLanes;
    return warp;
  }
  if (rendezvous->kind != RendezvousKind::NamedBarrier)
    return rendezvous;
  if (injects(SyncFault::SharedBarrierIds)) {
    rendezvous->idBase = 1;
    return rendezvous;
  }
  // Named barrier ids: one family of ids per set of groups of warps (their
  // threads and count, all that PTX requires to match), shared by the
  // Fences that meet in the same groups.
  NamedBarrierFamily family{rendezvous->first, rendezvous->stride,
                            rendezvous->period, rendezvous->count,
                            rendezvous->numIds};
  auto it = llvm::find_if(namedBarriers,
                          [&](auto &known) { return known.first == family; });
  if (it == namedBarriers.end()) {
    if (nextBarrierId + rendezvous->numIds > 16)
      return emitTranslationError(op->getLoc())
             << "the kernel needs more than the 15 named barriers a CTA has";
    namedBarriers.push_back({family, nextBarrierId});
    nextBarrierId += rendezvous->numIds;
    it = std::prev(namedBarriers.end());
  }
  rendezvous->idBase = it->second;
  return rendezvous;
}

void KernelEmitter::printRendezvous(const Rendezvous &rendezvous) {
  switch (rendezvous.kind) {
  case RendezvousKind::None:
    return;
  case RendezvousKind::WarpLanes:
    if (rendezvous.laneMask) {
      std::string mask;
      llvm::raw_string_ostream os(mask);
      os << llvm::format_hex(rendezvous.laneMask, 10);
      out.line("__syncwarp(" + mask + "u);");
      return;
    }
    if (rendezvous.lanes == 32) {
      out.line("__syncwarp();");
      return;
    }
    out.line("__syncwarp(" + std::to_string((1ull << rendezvous.lanes) - 1) +
             "u << (exo_thread % 32 / " + std::to_string(rendezvous.lanes) +
             " * " + std::to_string(rendezvous.lanes) + "));");
    return;
  case RendezvousKind::NamedBarrier: {
    std::string id = std::to_string(rendezvous.idBase);
    if (rendezvous.stride) {
      std::string index = "exo_thread";
      if (rendezvous.first)
        index = "(" + index + " - " + std::to_string(rendezvous.first) + ")";
      index += " / " + std::to_string(rendezvous.stride);
      if (rendezvous.period)
        index = "(" + index + ") % " + std::to_string(rendezvous.period);
      id += " + " + index;
    }
    out.line(std::string("asm volatile(\"") +
             (divergentPaths ? "barrier.sync" : "bar.sync") +
             " %0, %1;\" :: \"r\"(" + id + "), \"r\"(" +
             std::to_string(rendezvous.count) + ") : \"memory\");");
    return;
  }
  case RendezvousKind::CtaBarrier:
    out.line(divergentPaths
                 ? "asm volatile(\"barrier.sync 0;\" ::: \"memory\");"
                 : "__syncthreads();");
    return;
  case RendezvousKind::ClusterBarrier:
    out.line("exo::cluster_sync();");
    return;
  }
}

LogicalResult KernelEmitter::emitFence(FenceOp fence) {
  SyncTimeline pre = fence.getPre(), post = fence.getPost();
  uint32_t preFull = exoam::getFullTimelines(pre);
  uint32_t postTemporal = exoam::getTemporalTimelines(post);
  uint32_t tmaLoads = getQualBit(QualTimeline::tma_to_smem_async_qual);
  if ((preFull & tmaLoads) && !(preFull & ~tmaLoads))
    return emitTranslationError(fence.getLoc())
           << "TMA loads complete through the mbarrier they arrive at: "
              "await that barrier instead of a Fence on "
           << stringifySyncTimeline(pre);
  FenceLowering lowering;
  FailureOr<SyncWaits> waits =
      getPreWaits(fence, preFull, postTemporal, /*sameThreads=*/true);
  if (failed(waits))
    return failure();
  lowering.waits = *waits;
  if (fenceNeedsRendezvous(fence)) {
    FailureOr<Rendezvous> rendezvous = getRendezvous(fence, "Fence");
    if (failed(rendezvous))
      return failure();
    lowering.rendezvous = *rendezvous;
  }
  out.comment(state.describe(fence));
  printWaits(lowering.waits);
  printRendezvous(lowering.rendezvous);
  recordLowering(fence, lowering);
  return success();
}

//===----------------------------------------------------------------------===//
// Split barriers
//===----------------------------------------------------------------------===//

/// The commit instruction of a commit-group arrive, and its wait.
static std::pair<StringRef, StringRef> getCommitGroupInstrs(SyncTimeline tl) {
  switch (tl) {
  case SyncTimeline::Sm80_cp_async:
    return {"cp.async.commit_group;", "cp.async.wait_group"};
  case SyncTimeline::wgmma_async:
    return {"wgmma.commit_group.sync.aligned;",
            "wgmma.wait_group.sync.aligned"};
  case SyncTimeline::tma_to_gmem_async:
    return {"cp.async.bulk.commit_group;", "cp.async.bulk.wait_group"};
  default:
    return {"", ""};
  }
}

FailureOr<std::string> KernelEmitter::getSlice(Value barrier,
                                               ArrayRef<int32_t> kinds,
                                               ArrayRef<AffineExpr> exprs,
                                               Location loc) {
  auto it = plan.rings.find(barrier);
  if (it == plan.rings.end())
    return emitInternalError(loc) << "mbarrier without a ring";
  const MbarrierRing &ring = it->second;
  if (kinds.empty() || ring.slices == 1)
    return std::string("0");
  if (kinds.size() != ring.sliceStrides.size())
    return emitInternalError(loc)
           << "barrier access has " << kinds.size() << " coordinate(s) for "
           << ring.sliceStrides.size() << " distributed dimension(s)";
  AffineExpr slice = getAffineConstantExpr(0, barrier.getContext());
  unsigned next = 0;
  for (auto [kind, stride] : llvm::zip(kinds, ring.sliceStrides)) {
    auto coordKind = static_cast<CoordKind>(kind);
    if (coordKind != CoordKind::Point) {
      if (stride != 0)
        return emitTranslationError(loc)
               << "a multicast barrier window may only span the CTAs of the "
                  "cluster";
      next += getCoordArity(coordKind);
      continue;
    }
    slice = slice + exprs[next++] * stride;
  }
  return state.print(normalizeControlExpr(slice));
}

/// `ring[slice * depth + index % depth]`.
static std::string getSlot(StringRef name, const std::string &slice,
                           const MbarrierRing &ring, const std::string &index) {
  std::string slot = ring.depth == 1
                         ? std::string()
                         : index + " % " + std::to_string(ring.depth);
  std::string factor = slice.find_first_of(" +-") == std::string::npos
                           ? slice
                           : "(" + slice + ")";
  std::string base =
      slice == "0"
          ? std::string()
          : (ring.depth == 1 ? slice
                             : factor + " * " + std::to_string(ring.depth));
  std::string offset = base.empty()   ? (slot.empty() ? "0" : slot)
                       : slot.empty() ? base
                                      : base + " + " + slot;
  return "&" + name.str() + "[" + offset + "]";
}

FailureOr<std::string> KernelEmitter::getBarrierAddress(CallOp call) {
  Value barrier = call.getBarrier();
  if (!barrier || !plan.rings.count(barrier))
    return emitTranslationError(call.getLoc())
           << "{bar} needs a call that completes on a CudaMbarrier (`>> z`)";
  FailureOr<SmallVector<AccessView>> accesses = splitAccesses(
      call, call.getCoordKinds(), call.getCoordCounts(), call.getCoords());
  if (failed(accesses))
    return failure();
  const AccessView &access = accesses->back();
  SmallVector<AffineExpr> exprs =
      llvm::map_to_vector(access.exprs, [&](AffineExpr e) {
        return state.space.lift(e, call.getCtrl());
      });
  FailureOr<std::string> slice =
      getSlice(barrier, access.kinds, exprs, call.getLoc());
  if (failed(slice))
    return failure();
  return getSlot(state.names.lookup(barrier), *slice, plan.rings[barrier],
                 getCounter(barrier, /*arrive=*/true));
}

/// The bytes one execution of `call` writes into the shared memory of each
/// CTA it writes to: its written shared-memory windows, over their
/// dimensions that are not distributed.
static FailureOr<int64_t> getWrittenSharedBytes(ProcState &state, CallOp call,
                                                InstrOp instr,
                                                ArrayRef<BufferView> views) {
  int64_t bytes = 0;
  unsigned data = 0;
  for (unsigned i = 0, e = instr.getNumParams(); i < e; ++i) {
    if (instr.getParamKind(i) != ParamKind::data)
      continue;
    const BufferView &view = views[data++];
    if (!view.root->memory.isSmem() || isReadOnlyParam(instr, i))
      continue;
    int64_t count = getElementBytes(view.root->elementType);
    for (unsigned d : view.getIntervalDims()) {
      if (d < view.root->numDistributed)
        continue;
      auto extent = dyn_cast<AffineConstantExpr>(view.dims[d].extent);
      if (!extent)
        return emitInternalError(call.getLoc())
               << "the shared-memory window of a TMA load must have constant "
                  "extents (its bytes are expected on the mbarrier)";
      count *= extent.getValue();
    }
    bytes += count;
  }
  (void)state;
  return bytes;
}

FailureOr<std::optional<int64_t>>
KernelEmitter::getExpectedBytes(ArriveOp arrive, Value barrier) {
  // The calls completing on `barrier` since the previous arrive on it in the
  // same block (wrapping around a loop body), by the same threads.
  Block *block = arrive->getBlock();
  SmallVector<Operation *> epoch;
  bool stopped = false;
  for (Operation *op = arrive->getPrevNode(); op; op = op->getPrevNode()) {
    if (auto other = dyn_cast<ArriveOp>(op))
      if (llvm::is_contained(other.getBarriers(), barrier)) {
        stopped = true;
        break;
      }
    epoch.push_back(op);
  }
  if (!stopped && isa<ForOp>(block->getParentOp()))
    for (Operation *op = &block->back(); op != arrive.getOperation();
         op = op->getPrevNode()) {
      if (auto other = dyn_cast<ArriveOp>(op))
        if (llvm::is_contained(other.getBarriers(), barrier))
          break;
      epoch.push_back(op);
    }
  std::optional<int64_t> bytes;
  for (Operation *root : epoch) {
    WalkResult walked = root->walk([&](CallOp call) {
      if (call.getBarrier() != barrier)
        return WalkResult::advance();
      int64_t repeat = 1;
      for (Operation *p = call->getParentOp(); p != block->getParentOp();
           p = p->getParentOp()) {
        auto loop = dyn_cast<ForOp>(p);
        std::optional<int64_t> trips =
            loop ? loop.getConstantTripCount() : std::nullopt;
        if (!loop || loop.getMode() != LoopMode::seq || !trips) {
          emitTranslationError(call.getLoc())
              << "a call completing on an mbarrier may only be nested in seq "
                 "loops with constant trip counts between it and the arrive "
                 "that expects its bytes";
          return WalkResult::interrupt();
        }
        repeat *= *trips;
      }
      InstrOp instr = call.lookupInstr();
      FailureOr<SmallVector<BufferView>> views = getCallViews(call);
      if (!instr || failed(views))
        return WalkResult::interrupt();
      FailureOr<int64_t> written =
          getWrittenSharedBytes(state, call, instr, *views);
      if (failed(written))
        return WalkResult::interrupt();
      // A multicast completion (`>> z[:]` across CTAs) delivers into every
      // CTA of the window; every one of them issues its part, so each CTA
      // receives as many parts as the window has CTAs.
      FailureOr<SmallVector<AccessView>> accesses = splitAccesses(
          call, call.getCoordKinds(), call.getCoordCounts(), call.getCoords());
      int64_t ctas = 1;
      if (succeeded(accesses) && !accesses->back().kinds.empty()) {
        const MbarrierRing &ring = plan.rings[barrier];
        const AccessView &access = accesses->back();
        unsigned next = 0;
        for (auto [d, kind] : llvm::enumerate(access.kinds)) {
          if (d >= ring.ctaStrides.size())
            break;
          auto coordKind = static_cast<CoordKind>(kind);
          bool acrossCtas = ring.ctaStrides[d] != 0;
          if (coordKind == CoordKind::Interval) {
            auto lo = dyn_cast<AffineConstantExpr>(access.exprs[next]);
            auto hi = dyn_cast<AffineConstantExpr>(access.exprs[next + 1]);
            if (lo && hi && acrossCtas)
              ctas *= hi.getValue() - lo.getValue();
          } else if (coordKind == CoordKind::Full && acrossCtas) {
            // The CTAs of the dimension: its extent, which is the whole
            // cluster only when it spans it.
            ctas *= ring.extents[d];
          }
          next += getCoordArity(coordKind);
        }
      }
      bytes = bytes.value_or(0) + *written * repeat * ctas;
      return WalkResult::advance();
    });
    if (walked.wasInterrupted())
      return failure();
  }
  return bytes;
}

LogicalResult KernelEmitter::emitArrive(ArriveOp arrive) {
  SyncTimeline tl = arrive.getTimeline();
  Value barrier = arrive.getBarriers().front();
  BarrierKind kind = cast<BarrierType>(barrier.getType()).getKind();
  uint32_t preFull = exoam::getFullTimelines(tl);
  out.comment(state.describe(arrive));
  switch (kind) {
  case BarrierKind::CudaCommitGroup: {
    StringRef commit = getCommitGroupInstrs(tl).first;
    if (commit.empty())
      return emitInternalError(arrive.getLoc())
             << "a commit group commits Sm80_cp_async, wgmma_async or "
                "tma_to_gmem_async work";
    out.line("asm volatile(\"" + commit.str() + "\" ::: \"memory\");");
    recordLowering(arrive, CommitLowering());
    return success();
  }
  case BarrierKind::CudaClusterSync: {
    ClusterArriveLowering lowering;
    FailureOr<SyncWaits> waits =
        getPreWaits(arrive, preFull, getAwaitTimelines(barrier),
                    /*sameThreads=*/false);
    if (failed(waits))
      return failure();
    lowering.waits = *waits;
    printWaits(lowering.waits);
    out.line("exo::cluster_arrive();");
    recordLowering(arrive, lowering);
    return success();
  }
  case BarrierKind::CudaMbarrier:
    break;
  default:
    return emitInternalError(arrive.getLoc())
           << "barrier mechanism " << stringifyBarrierKind(kind)
           << " has no CUDA lowering";
  }
  FailureOr<MbarrierArriveLowering> lowering = getMbarrierArrive(arrive);
  if (failed(lowering))
    return failure();
  FailureOr<std::string> slot = getArriveSlot(arrive);
  if (failed(slot))
    return failure();
  printWaits(lowering->waits);
  // The hardware arrives: from every thread, or from one elected thread per
  // warp or warpgroup (SyncPlan.h; the ring counts its issuers).
  int64_t issuer = getIssuerThreads(lowering->issuers);
  if (lowering->syncWarp)
    out.line("__syncwarp();");
  if (issuer > 1)
    out.open("if (exo_thread % " + std::to_string(issuer) + " == 0)");
  if (lowering->expectBytes) {
    out.line("exo::mbarrier_arrive_expect_tx(" + *slot + ", " +
             std::to_string(*lowering->expectBytes) + ");");
  } else {
    out.line("exo::mbarrier_arrive(" + *slot + ");");
  }
  if (lowering->multicast)
    printPeerArrives(*lowering, *slot);
  if (issuer > 1)
    out.close();
  out.line("++" + getCounter(barrier, /*arrive=*/true) + ";");
  recordLowering(arrive, *lowering);
  return success();
}

FailureOr<std::string> KernelEmitter::getArriveSlot(ArriveOp arrive) {
  Value barrier = arrive.getBarriers().front();
  FailureOr<SmallVector<AccessView>> accesses =
      splitAccesses(arrive, arrive.getCoordKinds(), arrive.getCoordCounts(),
                    arrive.getCoords());
  if (failed(accesses))
    return failure();
  // A multicast arrive (`>> z[own] >> z[:]`) arrives at the element of its
  // last window in each CTA: the slice within the CTA is that window's.
  bool multicast = arrive.getBarriers().size() > 1;
  const AccessView &access = multicast ? accesses->back() : accesses->front();
  SmallVector<AffineExpr> exprs =
      llvm::map_to_vector(access.exprs, [&](AffineExpr e) {
        return state.space.lift(e, arrive.getCtrl());
      });
  FailureOr<std::string> slice =
      getSlice(barrier, access.kinds, exprs, arrive.getLoc());
  if (failed(slice))
    return failure();
  return getSlot(state.names.lookup(barrier), *slice, plan.rings[barrier],
                 getCounter(barrier, /*arrive=*/true));
}

FailureOr<MbarrierArriveLowering>
KernelEmitter::getMbarrierArrive(ArriveOp arrive) {
  Value barrier = arrive.getBarriers().front();
  MbarrierArriveLowering lowering;
  FailureOr<SyncWaits> waits =
      getPreWaits(arrive, exoam::getFullTimelines(arrive.getTimeline()),
                  getAwaitTimelines(barrier), /*sameThreads=*/false);
  if (failed(waits))
    return failure();
  lowering.waits = *waits;
  ArriveLowering decision = syncPlan.getArriveLowering(arrive);
  lowering.issuers = decision.issuers;
  lowering.syncWarp = decision.syncWarp && !injects(SyncFault::NoSyncwarp);
  lowering.peerRelease =
      decision.releaseCluster && !injects(SyncFault::RelaxedPeerArrives);
  lowering.multicast = arrive.getBarriers().size() > 1;
  if (lowering.multicast) {
    for (Value other : arrive.getBarriers())
      if (other != barrier)
        return emitTranslationError(arrive.getLoc())
               << "a multicast arrive names one barrier variable";
    FailureOr<std::pair<int64_t, int64_t>> window =
        getMulticastWindow(arrive, plan.rings[barrier]);
    if (failed(window))
      return failure();
    std::tie(lowering.windowCtas, lowering.windowStride) = *window;
    if (injects(SyncFault::ClusterWideMulticast))
      std::tie(lowering.windowCtas, lowering.windowStride) =
          std::make_pair(params.clusterDim, int64_t(1));
    return lowering;
  }
  FailureOr<std::optional<int64_t>> expected =
      getExpectedBytes(arrive, barrier);
  if (failed(expected))
    return failure();
  lowering.expectBytes = *expected;
  return lowering;
}

void KernelEmitter::printPeerArrives(const MbarrierArriveLowering &lowering,
                                     const std::string &slot) {
  std::string peerArrive = lowering.peerRelease
                               ? "exo::mbarrier_arrive_peer_release"
                               : "exo::mbarrier_arrive_peer";
  int64_t n = lowering.windowCtas, stride = lowering.windowStride;
  if (n == 2 && llvm::isPowerOf2_64(stride)) {
    out.line(peerArrive + "(" + slot + ", exo_cta ^ " + std::to_string(stride) +
             ");");
    return;
  }
  std::string count = std::to_string(n);
  if (n == params.clusterDim && stride == 1) {
    out.line("for (int exo_peer = 1; exo_peer < " + count + "; ++exo_peer)");
    out.line("  " + peerArrive + "(" + slot + ", (exo_cta + exo_peer) % " +
             count + ");");
    return;
  }
  // The window's CTAs are `stride` ranks apart; the issuer's is number
  // exo_cta / stride % n of them.
  std::string strideText = std::to_string(stride);
  std::string index = "exo_cta / " + strideText + " % " + count;
  out.line("for (int exo_peer = 1; exo_peer < " + count + "; ++exo_peer)");
  out.line("  " + peerArrive + "(" + slot + ", exo_cta + ((" + index +
           " + exo_peer) % " + count + " - " + index + ") * " + strideText +
           ");");
}

LogicalResult KernelEmitter::emitAwait(AwaitOp await) {
  Value barrier = await.getBarrier();
  BarrierKind kind = cast<BarrierType>(barrier.getType()).getKind();
  int64_t n = await.getCountAttr().getInt();
  uint32_t postTemporal = exoam::getTemporalTimelines(await.getTimeline());
  out.comment(state.describe(await));
  switch (kind) {
  case BarrierKind::CudaCommitGroup: {
    std::optional<SyncTimeline> committed;
    for (Operation *user : barrier.getUsers())
      if (auto arrive = dyn_cast<ArriveOp>(user))
        committed = arrive.getTimeline();
    if (!committed)
      return emitTranslationError(await.getLoc())
             << "no arrive commits to this commit group";
    out.line("asm volatile(\"" + getCommitGroupInstrs(*committed).second.str() +
             " " + std::to_string(n) + ";\" ::: \"memory\");");
    // cp.async writes through the generic proxy: async-proxy readers need
    // a proxy fence after the wait.
    CommitLowering lowering;
    lowering.proxyFenceAfterWait = *committed == SyncTimeline::Sm80_cp_async &&
                                   (postTemporal & kAsyncProxyTimelines) &&
                                   !injects(SyncFault::NoProxyFences);
    if (lowering.proxyFenceAfterWait)
      out.line("exo::fence_proxy_async();");
    recordLowering(await, lowering);
    return success();
  }
  case BarrierKind::CudaClusterSync:
    out.line("exo::cluster_wait();");
    return success();
  case BarrierKind::CudaMbarrier:
    break;
  default:
    return emitInternalError(await.getLoc())
           << "barrier mechanism " << stringifyBarrierKind(kind)
           << " has no CUDA lowering";
  }
  MbarrierAwaitLowering lowering;
  lowering.scope = injects(SyncFault::CtaAcquire)
                       ? MbarrierScope::Cta
                       : syncPlan.getAcquireScope(barrier);
  recordLowering(await, lowering);
  const MbarrierRing &ring = plan.rings[barrier];
  FailureOr<std::string> slice = getSlice(
      barrier, await.getCoordKinds(),
      state.space.lift(await.getCoords(), await.getCtrl()), await.getLoc());
  if (failed(slice))
    return failure();
  StringRef name = state.names.lookup(barrier);
  auto wait = [&](const std::string &index) {
    std::string parity =
        ring.depth == 1 ? index + " % 2"
                        : index + " / " + std::to_string(ring.depth) + " % 2";
    out.line((lowering.scope == MbarrierScope::Cluster
                  ? "exo::mbarrier_wait_acquire_cluster("
                  : "exo::mbarrier_wait(") +
             getSlot(name, *slice, ring, index) + ", " + parity + ");");
  };
  if (n >= 0) {
    // Pairs with the n-th latest arrive: the awaiting threads must be the
    // arriving ones, which count their arrives.
    for (Operation *user : barrier.getUsers())
      if (isa<ArriveOp>(user) && !inPath(user))
        return emitTranslationError(await.getLoc())
               << "an mbarrier await with N >= 0 pairs with the threads' "
                  "own arrives; use N < 0 (ring lag ~N) to wait for other "
                  "threads' arrives";
    std::string counter = getCounter(barrier, /*arrive=*/true);
    wait("(" + counter + " - " + std::to_string(n + 1) + ")");
    return success();
  }
  int64_t lag = ~n;
  std::string counter = getCounter(barrier, /*arrive=*/false);
  if (lag == 0) {
    wait(counter);
  } else {
    out.comment("the first " + std::to_string(lag) +
                " awaits pair with no arrive (ring lag " + std::to_string(lag) +
                ")");
    out.open("if (" + counter + " >= " + std::to_string(lag) + ")");
    wait("(" + counter + " - " + std::to_string(lag) + ")");
    out.close();
  }
  out.line("++" + counter + ";");
  return success();
}
