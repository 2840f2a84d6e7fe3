//===- CallLowering.cpp - calls -------------------------------------------===//
//
// Part of ExoGPU. Instruction calls (Fig. 5 `g(c*, e*) >> e_z` with the
// argument conversion T_arg of Fig. 19-20) and proc calls at CPU scope
// (dispatched to the inlining in ProcLowering.cpp).
//
//===----------------------------------------------------------------------===//

#include "ExoGPU/Conversion/ExoGPUToExoAM.h"
#include "ExoGPU/Dialect/ExoGPU/IR/Scope.h"
#include "ProcLowering.h"

using namespace mlir;
using namespace mlir::exogpu;
using namespace mlir::exogpu::lowering;

//===----------------------------------------------------------------------===//
// Calls (Fig. 5 `g(c*, e*) >> e_z`, Fig. 19-20 T_arg)
//===----------------------------------------------------------------------===//

LogicalResult ProcLowering::lowerCall(CallOp call) {
  Operation *callee = call.lookupCallee();
  if (auto instr = dyn_cast_or_null<InstrOp>(callee))
    return lowerInstrCall(call, instr);
  if (auto proc = dyn_cast_or_null<ProcOp>(callee))
    return inlineProcCall(call, proc);
  return emitError(call.getLoc(), "sync check: unknown callee ")
         << call.getCallee();
}

ParamAccessMode ProcLowering::getAccessMode(InstrOp instr, unsigned param) {
  auto [it, inserted] = accessModes.try_emplace(instr);
  if (inserted)
    it->second = getParamAccessModes(instr);
  return it->second[param];
}

static exoam::QualMask toMask(ArrayRef<exogpu::QualTimeline> timelines) {
  exoam::QualMask mask = 0;
  for (exogpu::QualTimeline q : timelines)
    mask |= exoam::getQualBit(q);
  return mask;
}

/// Whether `units` is the one unit a multicast completion spans: the CTAs of
/// the cluster.
static bool isClusterCtas(ArrayRef<CollUnitAttr> units) {
  return units.size() == 1 &&
         units[0].getKind() == CollUnitKind::cuda_cta_in_cluster &&
         units[0].getScale() == 1;
}

/// `access` with its first range coordinate (the CTA dimension of a
/// multicast) replaced by the point `offset` from its start.
static Access selectCta(Access access, GlobalExpr offset) {
  for (AccessCoord &coord : access.coords)
    if (coord.isRange) {
      coord = {false, coord.lo + offset, coord.lo + offset};
      break;
    }
  return access;
}

FailureOr<std::optional<GlobalExpr>>
ProcLowering::getIssuingCta(Operation *stmt) {
  const CollTiling *tiling = analysis.getTiling(stmt);
  std::optional<CollParams> params = analysis.getParams(stmt);
  if (!tiling || !params)
    return emitError(stmt->getLoc(),
                     "sync check: no collective tiling for this statement");
  // The first thread of the collective is sum_m floor(x_m / P_m) * P_m,
  // with x_m = sum of the offsets and iterator * box of the operators of
  // dimension m; its CTA counts the dimensions of pitch >= blockDim.
  GlobalExpr cta = getAffineConstantExpr(0, context);
  for (const CollDim &dim : tiling->getDims()) {
    if (dim.pitch < params->blockDim) {
      if (dim.extent * dim.pitch > params->blockDim)
        return std::optional<GlobalExpr>();
      continue;
    }
    if (dim.pitch % params->blockDim || dim.getBoxCoord() != 1)
      return std::optional<GlobalExpr>(); // spans several CTAs
    GlobalExpr x = getAffineConstantExpr(0, context);
    for (const CollDimOp &op : dim.ops) {
      x = x + op.linearOffset;
      if (!op.iter)
        continue;
      FailureOr<GlobalExpr> value = lowerCtrl(stmt, op.iter);
      if (failed(value))
        return failure();
      x = x + *value * op.linearBox;
    }
    cta = cta + x.floorDiv(dim.pitch) * (dim.pitch / params->blockDim);
  }
  return std::optional<GlobalExpr>(cta);
}

LogicalResult ProcLowering::lowerInstrCall(CallOp call, InstrOp instr) {
  FailureOr<SmallVector<AccessView>> coords = splitAccesses(
      call, call.getCoordKinds(), call.getCoordCounts(), call.getCoords());
  if (failed(coords))
    return failure();
  // T_e(e_z): the barrier the instruction completes on, if any.
  SmallVector<Access> barriers;
  // A multicast completion (barrier_dist): the number of CTAs it reaches
  // and the barrier element of the issuing CTA, if it is one CTA.
  std::optional<int64_t> multicastCtas;
  std::optional<Access> home;
  if (Value barrier = call.getBarrier()) {
    const AccessView &view = coords->back();
    FailureOr<Access> access =
        lowerAccess(call, barrier, view.kinds, view.exprs, call.getCtrl());
    if (failed(access))
      return failure();
    barriers.push_back(*access);
    if (!access->view->isSyncExempt() &&
        failed(emitRecord(call, true, VisibilityLevel::fully_ordered, false,
                          *access, getInOrderTimeline(call, *access), 0, {})))
      return failure();
    if (ArrayAttr dist = instr.getBarrierDistAttr(); dist && !dist.empty()) {
      SmallVector<CollUnitAttr> units = llvm::map_to_vector(
          dist, [](Attribute a) { return cast<CollUnitAttr>(a); });
      const AccessCoord *ctas = llvm::find_if(
          access->coords, [](const AccessCoord &c) { return c.isRange; });
      auto count = ctas == access->coords.end()
                       ? AffineConstantExpr()
                       : dyn_cast<AffineConstantExpr>(
                             simplifyAffineExpr(ctas->hi - ctas->lo + 1, 0, 0));
      if (!isClusterCtas(units) || !count)
        return emitError(call.getLoc(),
                         "sync check: a multicast completion (barrier_dist) "
                         "must span the CTAs of the cluster: barrier_dist = "
                         "[cuda_cta_in_cluster] and a barrier window whose "
                         "first interval is the CTA dimension");
      multicastCtas = count.getValue();
      FailureOr<std::optional<GlobalExpr>> issuer = getIssuingCta(call);
      if (failed(issuer))
        return failure();
      if (*issuer)
        home = selectCta(*access, **issuer);
    }
  }
  unsigned nextData = 0;
  for (unsigned i = 0, e = instr.getNumParams(); i < e; ++i) {
    if (instr.getParamKind(i) != ParamKind::data)
      continue;
    if (nextData >= call.getDataArgs().size())
      return emitError(call.getLoc(), "sync check: too few data arguments");
    unsigned index = nextData++;
    FailureOr<Access> access =
        lowerAccess(call, call.getDataArgs()[index], (*coords)[index].kinds,
                    (*coords)[index].exprs, call.getCtrl());
    if (failed(access))
      return failure();
    if (access->view->isSyncExempt())
      continue;
    ArgSpecAttr spec = instr.getParamSpec(i);
    bool convergent = spec.getConvergent();
    exogpu::QualTimeline init = instr.getParamInitTimeline(i);
    exoam::QualMask ext = toMask(spec.getExt());
    if (!ext)
      ext = exoam::getQualBit(init);
    exoam::QualMask atomic = toMask(spec.getAtomic());
    VisibilityLevel post = spec.getOutOfOrder()
                               ? VisibilityLevel::unordered
                               : VisibilityLevel::fully_ordered;
    ParamAccessMode mode = getAccessMode(instr, i);
    // Fig. 19, one case per access mode and atomicity.
    // The records observe the completion barrier. A multicast shard
    // observes only the barrier of the CTA it lies in: a CTA's mbarrier
    // counts only the bytes delivered to that CTA.
    auto record = [&](bool read, exoam::QualMask atomicSet) -> LogicalResult {
      if (!multicastCtas || spec.getDist().empty())
        return emitRecord(call, read, post, convergent, *access, init,
                          atomicSet, barriers, home ? &*home : nullptr);
      if (!isClusterCtas(spec.getDist()))
        return emitError(call.getLoc(),
                         "sync check: a parameter of a multicast instruction "
                         "is distributed over the CTAs of the cluster, like "
                         "its barrier, or not at all");
      for (int64_t cta = 0; cta < *multicastCtas; ++cta) {
        GlobalExpr offset = getAffineConstantExpr(cta, context);
        Access shard = selectCta(*access, offset);
        Access barrier = selectCta(barriers.front(), offset);
        if (failed(emitRecord(call, read, post, convergent, shard, init,
                              atomicSet, barrier, home ? &*home : nullptr)))
          return failure();
      }
      return success();
    };
    if (!atomic && mode == ParamAccessMode::ReadOnly) {
      if (failed(emitCheck(call, false, VisibilityLevel::fully_ordered,
                           convergent, *access, ext,
                           exoam::AccessPurpose::read)) ||
          failed(record(true, 0)))
        return failure();
      continue;
    }
    VisibilityLevel pre = atomic ? VisibilityLevel::atomic_only
                          : mode == ParamAccessMode::WriteOnly
                              ? VisibilityLevel::temporally_ordered
                              : VisibilityLevel::fully_ordered;
    if (failed(emitCheck(call, false, pre, convergent, *access, ext,
                         exoam::AccessPurpose::write)) ||
        failed(emitCheck(call, true, VisibilityLevel::temporally_ordered,
                         convergent, *access, ext,
                         exoam::AccessPurpose::write)))
      return failure();
    emitClear(call, true, *access);
    if (!atomic)
      emitClear(call, false, *access);
    if (failed(record(false, atomic)))
      return failure();
  }
  return emitCompletion(call, barriers, home ? &*home : nullptr);
}

LogicalResult ProcLowering::emitCompletion(CallOp call,
                                           ArrayRef<Access> barriers,
                                           const Access *home) {
  if (barriers.empty() || !barriers.front().view->isBarrier ||
      barriers.front().view->barrierKind != BarrierKind::CudaMbarrier)
    return success();
  OperandPacker packer(context, globals);
  SmallVector<unsigned> handles;
  for (const Access &barrier : barriers)
    handles.push_back(packer.addAccess(barrier));
  std::optional<unsigned> homeHandle;
  if (home)
    homeHandle = packer.addAccess(*home);
  FailureOr<exoam::ThreadMappingAttr> threads = threadsOf(call, packer);
  if (failed(threads))
    return failure();
  SmallVector<Attribute> attrs;
  for (unsigned handle : handles)
    attrs.push_back(packer.getAccess(handle));
  exoam::CompleteOp::create(builder, call.getLoc(), builder.getArrayAttr(attrs),
                            homeHandle ? packer.getAccess(*homeHandle)
                                       : exoam::AccessAttr(),
                            *threads, packer.getOperands());
  return success();
}

FailureOr<exoam::ProcOp> mlir::exogpu::convertProcToExoAM(
    ProcOp proc, const CollectiveAnalysis &analysis, OpBuilder &builder) {
  return ProcLowering(analysis, builder).run(proc);
}
