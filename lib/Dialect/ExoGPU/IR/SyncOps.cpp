//===- SyncOps.cpp - exogpu fence, arrive and await ----------------------===//
//
// Part of ExoGPU. Synchronization statements (seeds/002 Fig. 2, Sec. 2.1,
// Fig. 13, 16; guide "Synchronization Statements" and "Queue Barrier").
//
//===----------------------------------------------------------------------===//

#include "ExoGPU/Dialect/ExoGPU/IR/ControlExpr.h"
#include "ExoGPU/Dialect/ExoGPU/IR/ExoGPUOps.h"
#include "ExoGPU/Dialect/ExoGPU/IR/Scope.h"
#include "StatementSyntax.h"
#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace mlir::exogpu;

static ParseResult parseSyncTimeline(OpAsmParser &parser,
                                     SyncTimelineAttr &attr) {
  SMLoc loc = parser.getCurrentLocation();
  StringRef name;
  if (parser.parseKeyword(&name))
    return failure();
  std::optional<SyncTimeline> tl = symbolizeSyncTimeline(name);
  if (!tl)
    return parser.emitError(loc)
           << "unknown sync timeline '" << name << "' (Fig. 16)";
  attr = SyncTimelineAttr::get(parser.getContext(), *tl);
  return success();
}

static void printSyncTimeline(OpAsmPrinter &p, Operation *,
                              SyncTimelineAttr attr) {
  p << stringifySyncTimeline(attr.getValue());
}

#define GET_OP_CLASSES
#include "ExoGPU/Dialect/ExoGPU/IR/SyncOps.cpp.inc"

/// Rules every synchronization statement shares: CUDA scope, inside the tasks
/// nest, and device timelines only (host timelines order CPU work and kernel
/// launches, which device_function brackets by itself, Fig. 5).
static LogicalResult verifySyncStatement(Operation *op,
                                         ArrayRef<SyncTimeline> timelines) {
  if (!isCudaScope(op) || !isInsideTasks(op))
    return op->emitOpError("synchronization statements are only allowed "
                           "inside the cuda_tasks nest of a device_function");
  for (SyncTimeline tl : timelines) {
    if (tl == SyncTimeline::cpu_in_order ||
        tl == SyncTimeline::cuda_stream_sync)
      return op->emitOpError()
             << stringifySyncTimeline(tl)
             << " is a host timeline; device synchronization uses CUDA "
                "timelines (Fig. 16)";
    if (tl == SyncTimeline::empty_sync_tl)
      return op->emitOpError("empty_sync_tl orders nothing");
  }
  return success();
}

LogicalResult FenceOp::verify() {
  return verifySyncStatement(*this, {getPre(), getPost()});
}

/// Whether a commit group can track the async work of timeline `tl`
/// (cp.async, bulk async-groups and wgmma have commit/wait_group forms).
static bool isCommitGroupTimeline(SyncTimeline tl) {
  return tl == SyncTimeline::Sm80_cp_async ||
         tl == SyncTimeline::tma_to_gmem_async ||
         tl == SyncTimeline::wgmma_async;
}

/// Verifies the coordinates of a barrier access: one per dimension, or none
/// (the whole array).
static LogicalResult verifyBarrierAccess(Operation *op, Value barrier,
                                         const AccessView &access) {
  return verifyAccessRank(op, access.kinds,
                          cast<BarrierType>(barrier.getType()).getRank(),
                          /*allowWhole=*/true, "barrier access");
}

//===----------------------------------------------------------------------===//
// ArriveOp
//===----------------------------------------------------------------------===//

ParseResult ArriveOp::parse(OpAsmParser &parser, OperationState &result) {
  SyncTimelineAttr timeline;
  int64_t count;
  if (parser.parseLParen() || parseSyncTimeline(parser, timeline) ||
      parser.parseComma() || parser.parseInteger(count) || parser.parseRParen())
    return failure();
  ControlExprParser ctrl(parser);
  BufferNameList names;
  WindowCoords coords;
  SmallVector<int32_t> counts;
  // `>> z1 >> z2 ...`: at least one barrier.
  if (parser.parseGreater())
    return failure();
  do {
    if (parser.parseGreater() ||
        parseAccess(parser, ctrl, names, coords, counts,
                    /*pointsOnly=*/false))
      return failure();
  } while (succeeded(parser.parseOptionalGreater()));
  if (parser.parseOptionalAttrDict(result.attributes) ||
      names.parseTypes(parser))
    return failure();
  SmallVector<Value> barriers, ctrlValues;
  if (names.resolve(parser, barriers) || ctrl.resolve(ctrlValues))
    return failure();
  Builder &b = parser.getBuilder();
  result.addAttribute(getTimelineAttrName(result.name), timeline);
  result.addAttribute(getCountAttrName(result.name),
                      b.getI64IntegerAttr(count));
  result.addAttribute(getCoordKindsAttrName(result.name),
                      b.getDenseI32ArrayAttr(coords.kinds));
  result.addAttribute(getCoordCountsAttrName(result.name),
                      b.getDenseI32ArrayAttr(counts));
  result.addAttribute(getCoordsAttrName(result.name),
                      AffineMapAttr::get(ctrl.getMap(coords.exprs)));
  result.addOperands(barriers);
  result.addOperands(ctrlValues);
  result.addAttribute(
      getOperandSegmentSizesAttrName(result.name),
      b.getDenseI32ArrayAttr({static_cast<int32_t>(barriers.size()),
                              static_cast<int32_t>(ctrlValues.size())}));
  return success();
}

void ArriveOp::print(OpAsmPrinter &p) {
  p << '(' << stringifySyncTimeline(getTimeline()) << ", "
    << getCountAttr().getInt() << ')';
  FailureOr<SmallVector<AccessView>> accesses =
      splitAccesses(*this, getCoordKinds(), getCoordCounts(), getCoords());
  for (auto [barrier, access] : llvm::zip(getBarriers(), *accesses)) {
    p << " >> ";
    printAccess(p, barrier, access.kinds, access.exprs, getCtrl());
  }
  p.printOptionalAttrDict((*this)->getAttrs(),
                          {getTimelineAttrName(), getCountAttrName(),
                           getCoordKindsAttrName(), getCoordCountsAttrName(),
                           getCoordsAttrName(),
                           getOperandSegmentSizesAttrName()});
  printBufferTypes(p, llvm::to_vector(getBarriers()));
}

LogicalResult ArriveOp::verify() {
  if (failed(verifySyncStatement(*this, {getTimeline()})) ||
      failed(verifyControlMap(*this, getCoords(), getCtrl().size(),
                              "barrier coordinates")))
    return failure();
  if (getBarriers().empty())
    return emitOpError("arrives at no barrier");
  if (getCoordCounts().size() != getBarriers().size())
    return emitOpError("needs one coordinate list per barrier");
  FailureOr<SmallVector<AccessView>> accesses =
      splitAccesses(*this, getCoordKinds(), getCoordCounts(), getCoords());
  if (failed(accesses))
    return failure();
  BarrierKind kind = cast<BarrierType>(getBarriers()[0].getType()).getKind();
  for (auto [barrier, access] : llvm::zip(getBarriers(), *accesses)) {
    if (failed(verifyBarrierAccess(*this, barrier, access)))
      return failure();
    if (cast<BarrierType>(barrier.getType()).getKind() != kind)
      return emitOpError("all barriers of a multicast arrive must use one "
                         "mechanism");
  }
  if (getBarriers().size() > 1 && kind != BarrierKind::CudaMbarrier)
    return emitOpError("multicast arrive (>> z1 >> z2) needs CudaMbarrier "
                       "barriers");
  if (getCountAttr().getInt() < 1)
    return emitOpError() << "arrive count must be at least 1, got "
                         << getCountAttr().getInt();
  if (kind != BarrierKind::CudaMbarrier && getCountAttr().getInt() != 1)
    return emitOpError() << stringifyBarrierKind(kind)
                         << " arrives take N = 1, got "
                         << getCountAttr().getInt();
  if (kind == BarrierKind::CudaCommitGroup &&
      !isCommitGroupTimeline(getTimeline()))
    return emitOpError()
           << "CudaCommitGroup arrives commit async work: the timeline must "
              "be Sm80_cp_async, tma_to_gmem_async or wgmma_async, got "
           << stringifySyncTimeline(getTimeline());
  return success();
}

//===----------------------------------------------------------------------===//
// AwaitOp
//===----------------------------------------------------------------------===//

ParseResult AwaitOp::parse(OpAsmParser &parser, OperationState &result) {
  ControlExprParser ctrl(parser);
  BufferNameList names;
  WindowCoords coords;
  SmallVector<int32_t> counts;
  SyncTimelineAttr timeline;
  int64_t count;
  if (parser.parseLParen() ||
      parseAccess(parser, ctrl, names, coords, counts, /*pointsOnly=*/false) ||
      parser.parseComma() || parseSyncTimeline(parser, timeline) ||
      parser.parseComma() || parser.parseInteger(count) ||
      parser.parseRParen() || parser.parseOptionalAttrDict(result.attributes) ||
      names.parseTypes(parser))
    return failure();
  SmallVector<Value> barriers;
  if (names.resolve(parser, barriers))
    return failure();
  result.addOperands(barriers);
  if (ctrl.resolve(result.operands))
    return failure();
  Builder &b = parser.getBuilder();
  result.addAttribute(getTimelineAttrName(result.name), timeline);
  result.addAttribute(getCountAttrName(result.name),
                      b.getI64IntegerAttr(count));
  result.addAttribute(getCoordKindsAttrName(result.name),
                      b.getDenseI32ArrayAttr(coords.kinds));
  result.addAttribute(getCoordsAttrName(result.name),
                      AffineMapAttr::get(ctrl.getMap(coords.exprs)));
  return success();
}

void AwaitOp::print(OpAsmPrinter &p) {
  p << '(';
  printAccess(p, getBarrier(), getCoordKinds(), getCoords().getResults(),
              getCtrl());
  p << ", " << stringifySyncTimeline(getTimeline()) << ", "
    << getCountAttr().getInt() << ')';
  p.printOptionalAttrDict((*this)->getAttrs(),
                          {getTimelineAttrName(), getCountAttrName(),
                           getCoordKindsAttrName(), getCoordsAttrName()});
  printBufferTypes(p, {getBarrier()});
}

LogicalResult AwaitOp::verify() {
  if (failed(verifySyncStatement(*this, {getTimeline()})) ||
      failed(verifyControlMap(*this, getCoords(), getCtrl().size(),
                              "barrier coordinates")) ||
      failed(verifyCoords(*this, getCoordKinds(), getCoords().getNumResults(),
                          "barrier access")) ||
      failed(verifyBarrierAccess(*this, getBarrier(),
                                 {getCoordKinds(), getCoords().getResults()})))
    return failure();
  BarrierKind kind = getBarrier().getType().getKind();
  int64_t n = getCountAttr().getInt();
  switch (kind) {
  case BarrierKind::CudaCommitGroup:
    if (n < 0)
      return emitOpError() << "CudaCommitGroup awaits take N >= 0 "
                              "(wait_group N), got "
                           << n;
    break;
  case BarrierKind::CudaMbarrier:
    if (n > 0)
      return emitOpError() << "CudaMbarrier awaits take N = 0 or a ring lag "
                              "N < 0; an mbarrier cannot wait for an older "
                              "phase, got "
                           << n;
    break;
  case BarrierKind::CudaClusterSync:
    if (n != 0)
      return emitOpError() << "CudaClusterSync awaits take N = 0, got " << n;
    break;
  case BarrierKind::CudaDeviceBarrier:
    return emitOpError("CudaDeviceBarrier is abstract (Fig. 13)");
  }
  return success();
}
