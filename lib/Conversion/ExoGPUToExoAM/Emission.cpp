//===- Emission.cpp - AMIR statements -------------------------------------===//
//
// Part of ExoGPU. Thread mappings (Def. 5.2 from the collective tiling) and
// the AMIR statements the rules emit (Fig. 4).
//
//===----------------------------------------------------------------------===//

#include "ExoGPU/Dialect/ExoGPU/IR/Scope.h"
#include "ProcLowering.h"

using namespace mlir;
using namespace mlir::exogpu;
using namespace mlir::exogpu::lowering;

//===----------------------------------------------------------------------===//
// Thread mappings and AMIR statements
//===----------------------------------------------------------------------===//

FailureOr<exoam::ThreadMappingAttr>
ProcLowering::threadsOf(Operation *stmt, OperandPacker &packer) {
  if (!isCudaScope(stmt))
    return exoam::ThreadMappingAttr::get(context, exoam::ExecScope::cpu, {});
  const CollTiling *tiling = analysis.getTiling(stmt);
  if (!tiling)
    return emitError(stmt->getLoc(),
                     "sync check: no collective tiling for this "
                     "statement (see the collective analysis errors)");
  SmallVector<exoam::TilingDimAttr> dims;
  int64_t pitch = 1;
  ArrayRef<CollDim> collDims = tiling->getDims();
  SmallVector<exoam::TilingDimAttr> reversed;
  for (const CollDim &dim : llvm::reverse(collDims)) {
    if (dim.pitch != pitch)
      return emitError(stmt->getLoc(),
                       "sync check: collective tiling with a thread "
                       "pitch that is not the product of the inner "
                       "extents");
    pitch *= dim.extent;
    SmallVector<exoam::TilingOpAttr> ops;
    for (const CollDimOp &op : dim.ops) {
      std::optional<int64_t> iter;
      if (op.iter) {
        FailureOr<GlobalExpr> value = lowerCtrl(stmt, op.iter);
        if (failed(value))
          return failure();
        auto dimExpr = dyn_cast<AffineDimExpr>(*value);
        if (!dimExpr)
          return emitError(stmt->getLoc(),
                           "sync check: a cuda_threads iterator is "
                           "not a loop iterator");
        iter = packer.packDim(dimExpr.getPosition());
      }
      ops.push_back(exoam::TilingOpAttr::get(context, iter, op.linearBox,
                                             op.linearOffset));
    }
    reversed.push_back(exoam::TilingDimAttr::get(context, dim.extent, ops));
  }
  dims.assign(reversed.rbegin(), reversed.rend());
  return exoam::ThreadMappingAttr::get(context, exoam::ExecScope::gpu, dims);
}

exogpu::QualTimeline ProcLowering::getInOrderTimeline(Operation *stmt,
                                                      const Access &access) {
  // Fig. 18 T_qin.
  if (!isCudaScope(stmt))
    return exogpu::QualTimeline::cpu_in_order_qual;
  if (access.view->isRmem())
    return exogpu::QualTimeline::cuda_in_order_rmem_qual;
  return exogpu::QualTimeline::cuda_in_order_ram_qual;
}

LogicalResult ProcLowering::emitCheck(Operation *stmt, bool reads,
                                      VisibilityLevel level, bool convergent,
                                      const Access &access,
                                      exoam::QualMask timelines,
                                      exoam::AccessPurpose purpose) {
  OperandPacker packer(context, globals);
  unsigned target = packer.addAccess(access);
  FailureOr<exoam::ThreadMappingAttr> threads = threadsOf(stmt, packer);
  if (failed(threads))
    return failure();
  auto set = exoam::QualTimelineSetAttr::get(context, timelines);
  auto purposeAttr = exoam::AccessPurposeAttr::get(context, purpose);
  if (reads)
    exoam::CheckReadsOp::create(builder, stmt->getLoc(), level, convergent,
                                packer.getAccess(target), set, purposeAttr,
                                *threads, packer.getOperands());
  else
    exoam::CheckMutatesOp::create(builder, stmt->getLoc(), level, convergent,
                                  packer.getAccess(target), set, purposeAttr,
                                  *threads, packer.getOperands());
  return success();
}

LogicalResult
ProcLowering::emitRecord(Operation *stmt, bool read, VisibilityLevel level,
                         bool convergent, const Access &access,
                         exogpu::QualTimeline timeline, exoam::QualMask atomic,
                         ArrayRef<Access> barriers, const Access *home) {
  OperandPacker packer(context, globals);
  unsigned target = packer.addAccess(access);
  SmallVector<unsigned> barrierHandles;
  for (const Access &barrier : barriers)
    barrierHandles.push_back(packer.addAccess(barrier));
  std::optional<unsigned> homeHandle;
  if (home)
    homeHandle = packer.addAccess(*home);
  FailureOr<exoam::ThreadMappingAttr> threads = threadsOf(stmt, packer);
  if (failed(threads))
    return failure();
  SmallVector<Attribute> barrierAttrs;
  for (unsigned handle : barrierHandles)
    barrierAttrs.push_back(packer.getAccess(handle));
  exoam::AccessAttr homeAttr =
      homeHandle ? packer.getAccess(*homeHandle) : exoam::AccessAttr();
  auto atomicSet = exoam::QualTimelineSetAttr::get(context, atomic);
  if (read)
    exoam::RecordReadOp::create(builder, stmt->getLoc(), level, convergent,
                                packer.getAccess(target), timeline, atomicSet,
                                builder.getArrayAttr(barrierAttrs), homeAttr,
                                *threads, packer.getOperands());
  else
    exoam::RecordMutateOp::create(builder, stmt->getLoc(), level, convergent,
                                  packer.getAccess(target), timeline, atomicSet,
                                  builder.getArrayAttr(barrierAttrs), homeAttr,
                                  *threads, packer.getOperands());
  return success();
}

void ProcLowering::emitClear(Operation *stmt, bool reads,
                             const Access &access) {
  OperandPacker packer(context, globals);
  unsigned target = packer.addAccess(access);
  if (reads)
    exoam::ClearReadsOp::create(builder, stmt->getLoc(),
                                packer.getAccess(target), packer.getOperands());
  else
    exoam::ClearMutatesOp::create(builder, stmt->getLoc(),
                                  packer.getAccess(target),
                                  packer.getOperands());
}

LogicalResult ProcLowering::emitFence(Operation *stmt, bool transitive,
                                      exoam::QualMask pre, exoam::QualMask full,
                                      exoam::QualMask temp) {
  OperandPacker packer(context, globals);
  FailureOr<exoam::ThreadMappingAttr> threads = threadsOf(stmt, packer);
  if (failed(threads))
    return failure();
  auto set = [&](exoam::QualMask mask) {
    return exoam::QualTimelineSetAttr::get(context, mask);
  };
  exoam::FenceOp::create(builder, stmt->getLoc(), transitive, set(pre),
                         set(full), set(temp), *threads, packer.getOperands());
  return success();
}

void ProcLowering::emitBoundsCheck(Operation *stmt, const Access &access,
                                   const View &view) {
  FailureOr<Access> whole = applyCoords(view, {}, {});
  OperandPacker packer(context, globals);
  unsigned target = packer.addAccess(access);
  unsigned window = packer.addAccess(*whole);
  exoam::CheckBoundsOp::create(builder, stmt->getLoc(),
                               packer.getAccess(target),
                               packer.getAccess(window), packer.getOperands());
}

void ProcLowering::emitCoordBoundsCheck(Operation *stmt, const View &view,
                                        ArrayRef<int32_t> kinds,
                                        ArrayRef<GlobalExpr> exprs,
                                        StringRef what) {
  GlobalExpr zero = getAffineConstantExpr(0, context);
  SmallVector<GlobalExpr> relations;
  SmallVector<ConditionAtomKind> atoms;
  auto require = [&](GlobalExpr lhs, ConditionAtomKind atom, GlobalExpr rhs) {
    relations.append({lhs, rhs});
    atoms.push_back(atom);
  };
  unsigned next = 0;
  for (auto [dim, kind] : llvm::zip(getViewDims(view), kinds)) {
    switch (static_cast<CoordKind>(kind)) {
    case CoordKind::Point:
      require(exprs[next], ConditionAtomKind::Ge, zero);
      require(exprs[next], ConditionAtomKind::Lt, dim->extent);
      next += 1;
      break;
    case CoordKind::Interval:
      require(exprs[next], ConditionAtomKind::Ge, zero);
      require(exprs[next], ConditionAtomKind::Le, exprs[next + 1]);
      require(exprs[next + 1], ConditionAtomKind::Le, dim->extent);
      next += 2;
      break;
    case CoordKind::Full:
      break;
    }
  }
  if (!atoms.empty())
    emitRelationsCheck(stmt, relations, atoms, what);
}

void ProcLowering::emitWindowBoundsCheck(Operation *stmt, const View &view,
                                         ArrayRef<int32_t> kinds,
                                         ArrayRef<GlobalExpr> exprs) {
  // The window must lie within the buffer it is taken of.
  if (view.isSplit)
    emitCoordBoundsCheck(stmt, view, kinds, exprs,
                         "the window lying within the split window it is "
                         "taken of");
  else if (narrows(kinds))
    emitBoundsCheck(stmt, *applyCoords(view, kinds, exprs), view);
}

void ProcLowering::emitRelationsCheck(Operation *stmt,
                                      ArrayRef<GlobalExpr> exprs,
                                      ArrayRef<ConditionAtomKind> atoms,
                                      StringRef what) {
  // Relations between constants hold or not here; those that hold are left
  // out (a split of a static extent, coordinates that are constants).
  OperandPacker packer(context, globals);
  SmallVector<AffineExpr> packed;
  SmallVector<int64_t> atomCodes;
  for (auto [index, atom] : llvm::enumerate(atoms)) {
    GlobalExpr lhs = exprs[2 * index], rhs = exprs[2 * index + 1];
    auto lhsConstant = dyn_cast<AffineConstantExpr>(lhs);
    auto rhsConstant = dyn_cast<AffineConstantExpr>(rhs);
    auto single =
        ConditionAttr::get(context, AffineMap::get(0, 0, {lhs, rhs}, context),
                           {static_cast<int64_t>(atom)});
    if (lhsConstant && rhsConstant && single.evaluate({}))
      continue;
    packed.append({packer.pack(lhs), packer.pack(rhs)});
    atomCodes.push_back(static_cast<int64_t>(atom));
  }
  if (atomCodes.empty())
    return;
  auto condition =
      ConditionAttr::get(context, packer.getMap(packed), atomCodes);
  exoam::CheckConditionOp::create(builder, stmt->getLoc(), condition,
                                  builder.getStringAttr(what),
                                  packer.getOperands());
}

LogicalResult ProcLowering::emitConditionCheck(Operation *stmt,
                                               ConditionAttr condition,
                                               ValueRange ctrl,
                                               StringRef what) {
  OperandPacker packer(context, globals);
  FailureOr<ConditionAttr> lowered =
      lowerCondition(stmt, condition, ctrl, packer);
  if (failed(lowered))
    return failure();
  exoam::CheckConditionOp::create(builder, stmt->getLoc(), *lowered,
                                  builder.getStringAttr(what),
                                  packer.getOperands());
  return success();
}

LogicalResult ProcLowering::emitPreconditionCheck(Operation *stmt,
                                                  ProcOp proc) {
  ConditionAttr pre = proc.getPreconditionsAttr();
  if (!pre)
    return success();
  // Sec. 3.3: `requires` states the values the proc is defined for.
  std::string what;
  llvm::raw_string_ostream os(what);
  os << "the precondition of @" << proc.getSymName() << " (requires ";
  printCondition(os, pre,
                 llvm::map_to_vector(proc.getArgNames(), [](Attribute name) {
                   return cast<StringAttr>(name).getValue();
                 }));
  os << ')';
  return emitConditionCheck(stmt, pre, proc.getBody().getArguments(), what);
}
