//===- CallLowering.cpp - calls
//---------------------------------------------===//
//
// Part of ExoGPU. Instruction calls (Fig. 5 `g(c*, e*) >> e_z` with the
// argument conversion T_arg of Fig. 19-20) and proc calls at CPU scope
// (dispatched to the inlining in ProcLowering.cpp).
//
//===----------------------------------------------------------------------===//

#include "ExoGPU/Conversion/ExoGPUToExoAM.h"
#include "ExoGPU/Dialect/ExoGPU/IR/Scope.h"
#include "ProcLowering.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;
using namespace mlir::exogpu;
using namespace mlir::exogpu::lowering;

//===----------------------------------------------------------------------===//
// Calls (Fig. 5 `g(c*, e*) >> e_z`, Fig. 19-20 T_arg)
//===----------------------------------------------------------------------===//

LogicalResult ProcLowering::lowerCall(CallOp call) {
  Operation *callee =
      SymbolTable::lookupNearestSymbolFrom(call, call.getCalleeAttr());
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

/// Fig. 20 T_init: the initial timeline, by default the in-order timeline of
/// the parameter's memory.
static exogpu::QualTimeline getInitTimeline(InstrOp instr, ArgSpecAttr spec,
                                            Type paramType) {
  if (std::optional<exogpu::QualTimeline> init = spec.getInit())
    return *init;
  if (instr.getTarget() == InstrTarget::cpu)
    return exogpu::QualTimeline::cpu_in_order_qual;
  if (cast<BufferTypeInterface>(paramType).getMemory().isRmem())
    return exogpu::QualTimeline::cuda_in_order_rmem_qual;
  return exogpu::QualTimeline::cuda_in_order_ram_qual;
}

static exoam::QualMask toMask(ArrayRef<exogpu::QualTimeline> timelines) {
  exoam::QualMask mask = 0;
  for (exogpu::QualTimeline q : timelines)
    mask |= exoam::getQualBit(q);
  return mask;
}

LogicalResult ProcLowering::lowerInstrCall(CallOp call, InstrOp instr) {
  FailureOr<SmallVector<AccessView>> coords = splitAccesses(
      call, call.getCoordKinds(), call.getCoordCounts(), call.getCoords());
  if (failed(coords))
    return failure();
  // T_e(e_z): the barrier the instruction completes on, if any.
  SmallVector<Access> barriers;
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
    exogpu::QualTimeline init =
        getInitTimeline(instr, spec, instr.getParam(i).getType());
    exoam::QualMask ext = toMask(spec.getExt());
    if (!ext)
      ext = exoam::getQualBit(init);
    exoam::QualMask atomic = toMask(spec.getAtomic());
    VisibilityLevel post = spec.getOutOfOrder()
                               ? VisibilityLevel::unordered
                               : VisibilityLevel::fully_ordered;
    ParamAccessMode mode = getAccessMode(instr, i);
    // Fig. 19, one case per access mode and atomicity.
    if (!atomic && mode == ParamAccessMode::ReadOnly) {
      if (failed(emitCheck(call, false, VisibilityLevel::fully_ordered,
                           convergent, *access, ext,
                           exoam::AccessPurpose::read)) ||
          failed(emitRecord(call, true, post, convergent, *access, init, 0,
                            barriers)))
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
    if (failed(emitRecord(call, false, post, convergent, *access, init, atomic,
                          barriers)))
      return failure();
  }
  return success();
}

FailureOr<exoam::ProcOp> mlir::exogpu::convertProcToExoAM(
    ProcOp proc, const CollectiveAnalysis &analysis, OpBuilder &builder) {
  return ProcLowering(analysis, builder).run(proc);
}
