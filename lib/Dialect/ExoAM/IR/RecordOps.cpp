//===- RecordOps.cpp - exoam allocation and access records ---------------===//
//
// Part of ExoGPU. `alloc`, `record_read`, `record_mutate`, `clear_reads` and
// `clear_mutates` (seeds/002 Fig. 4, Fig. 22, Def. B.1).
//
//===----------------------------------------------------------------------===//

#include "StatementSyntax.h"
#include "StatementVerifier.h"
#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace mlir::exoam;

#define GET_OP_CLASSES
#include "ExoGPU/Dialect/ExoAM/IR/RecordOps.cpp.inc"

//===----------------------------------------------------------------------===//
// AllocOp
//===----------------------------------------------------------------------===//

ParseResult AllocOp::parse(OpAsmParser &parser, OperationState &result) {
  StatementParser stmt(parser);
  if (succeeded(parser.parseOptionalKeyword("barrier")))
    result.addAttribute(getBarrierAttrName(result.name),
                        parser.getBuilder().getUnitAttr());
  ParsedAccess target;
  if (stmt.parseAccess(target, /*pointsOnly=*/true))
    return failure();
  AccessAttr attr = stmt.buildAccess(target);
  if (!attr)
    return failure();
  result.addAttribute(getTargetAttrName(result.name), attr);
  if (succeeded(parser.parseOptionalKeyword("ring"))) {
    int64_t depth = 0;
    if (parser.parseInteger(depth))
      return failure();
    result.addAttribute(getRingAttrName(result.name),
                        parser.getBuilder().getI64IntegerAttr(depth));
  }
  if (succeeded(parser.parseOptionalKeyword("capacity"))) {
    int64_t capacity = 0;
    std::string what;
    if (parser.parseInteger(capacity) || parser.parseString(&what))
      return failure();
    Builder &builder = parser.getBuilder();
    result.addAttribute(getCapacityAttrName(result.name),
                        builder.getI64IntegerAttr(capacity));
    result.addAttribute(getCapacityOfAttrName(result.name),
                        builder.getStringAttr(what));
  }
  return stmt.finish(result);
}

void AllocOp::print(OpAsmPrinter &p) {
  p << ' ';
  if (getBarrier())
    p << "barrier ";
  printAccess(p, getTarget(), getCtrl());
  if (std::optional<int64_t> depth = getRing())
    p << " ring " << *depth;
  if (std::optional<int64_t> capacity = getCapacity()) {
    p << " capacity " << *capacity << ' ';
    p.printString(getCapacityOf().value_or(""));
  }
  p.printOptionalAttrDict((*this)->getAttrs(),
                          {getTargetAttrName(), getBarrierAttrName(),
                           getRingAttrName(), getCapacityAttrName(),
                           getCapacityOfAttrName()});
}

LogicalResult AllocOp::verify() {
  for (int32_t kind : getTarget().getKinds())
    if (kind != static_cast<int32_t>(AccessCoordKind::Point))
      return emitOpError("coordinates of an allocation are its extents: "
                         "points, not ranges");
  if (getRing() && !getBarrier())
    return emitOpError("only a barrier variable is a ring of mbarriers");
  if (getCapacity().has_value() != getCapacityOf().has_value())
    return emitOpError("a capacity comes with what it is of");
  if (failed(
          verifyAccess(*this, getTarget(), getCtrl().size(), "allocation of")))
    return failure();
  std::optional<int64_t> capacity = getCapacity();
  if (!capacity)
    return success();
  // Constant extents must fit (extents that depend on control values are
  // checked when the ALLOC runs).
  int64_t elements = 1;
  for (AffineExpr extent : getTarget().getCoords().getResults()) {
    auto constant = dyn_cast<AffineConstantExpr>(extent);
    if (!constant)
      return success();
    if (llvm::MulOverflow(elements, std::max<int64_t>(constant.getValue(), 0),
                          elements))
      elements = std::numeric_limits<int64_t>::max();
  }
  if (elements > *capacity)
    return emitOpError() << "allocates " << elements
                         << " elements, more than the " << *capacity
                         << " that fit in " << *getCapacityOf();
  return success();
}

//===----------------------------------------------------------------------===//
// RecordReadOp, RecordMutateOp
//===----------------------------------------------------------------------===//

/// Parses `level [convergent] @x[...] on q [atomic = [...]] >> @z[...]...
/// threads ...`.
template <typename RecordOp>
static ParseResult parseRecord(OpAsmParser &parser, OperationState &result) {
  MLIRContext *ctx = parser.getContext();
  StatementParser stmt(parser);
  VisibilityLevel level;
  ParsedAccess target;
  SmallVector<ParsedAccess> barriers;
  ParsedThreads threads;
  auto atomic = QualTimelineSetAttr::get(ctx, 0);
  if (stmt.parseLevel(level))
    return failure();
  if (succeeded(parser.parseOptionalKeyword("convergent")))
    result.addAttribute(RecordOp::getConvergentAttrName(result.name),
                        UnitAttr::get(ctx));
  StringRef timelineName;
  SMLoc timelineLoc;
  if (stmt.parseAccess(target) || parser.parseKeyword("on") ||
      (timelineLoc = parser.getCurrentLocation(),
       parser.parseKeyword(&timelineName)))
    return failure();
  std::optional<exogpu::QualTimeline> timeline =
      exogpu::symbolizeQualTimeline(timelineName);
  if (!timeline)
    return parser.emitError(timelineLoc)
           << "unknown qualitative timeline '" << timelineName << "'";
  if (succeeded(parser.parseOptionalKeyword("atomic")) &&
      (parser.parseEqual() ||
       !(atomic = QualTimelineSetAttr::parseBody(parser))))
    return failure();
  if (stmt.parseBarrierList(barriers, /*required=*/false) ||
      stmt.parseOptionalHome(result, RecordOp::getHomeAttrName(result.name)) ||
      stmt.parseThreads(threads))
    return failure();
  AccessAttr targetAttr = stmt.buildAccess(target);
  ArrayAttr barrierAttr = stmt.buildAccessArray(barriers);
  ThreadMappingAttr threadAttr = stmt.buildThreads(threads);
  if (!targetAttr || !barrierAttr || !threadAttr)
    return failure();
  result.addAttribute(RecordOp::getLevelAttrName(result.name),
                      VisibilityLevelAttr::get(ctx, level));
  result.addAttribute(RecordOp::getTargetAttrName(result.name), targetAttr);
  result.addAttribute(RecordOp::getTimelineAttrName(result.name),
                      exogpu::QualTimelineAttr::get(ctx, *timeline));
  result.addAttribute(RecordOp::getAtomicAttrName(result.name), atomic);
  result.addAttribute(RecordOp::getBarriersAttrName(result.name), barrierAttr);
  result.addAttribute(RecordOp::getThreadsAttrName(result.name), threadAttr);
  return stmt.finish(result);
}

template <typename RecordOp>
static void printRecord(RecordOp op, OpAsmPrinter &p) {
  p << ' ' << stringifyVisibilityLevel(op.getLevel());
  if (op.getConvergent())
    p << " convergent";
  p << ' ';
  printAccess(p, op.getTarget(), op.getCtrl());
  p << " on " << exogpu::stringifyQualTimeline(op.getTimeline());
  if (op.getAtomic().getBits())
    printNamedSet(p, "atomic", op.getAtomic());
  printBarrierList(p, op.getBarriers(), op.getCtrl());
  printOptionalHome(p, op.getHomeAttr(), op.getCtrl());
  printThreads(p, op.getThreads(), op.getCtrl());
  p.printOptionalAttrDict(op->getAttrs(),
                          {op.getLevelAttrName(), op.getConvergentAttrName(),
                           op.getTargetAttrName(), op.getTimelineAttrName(),
                           op.getAtomicAttrName(), op.getBarriersAttrName(),
                           op.getHomeAttrName(), op.getThreadsAttrName()});
}

template <typename RecordOp> static LogicalResult verifyRecord(RecordOp op) {
  unsigned numCtrl = op.getCtrl().size();
  return failure(
      failed(verifyAccess(op, op.getTarget(), numCtrl, "record of")) ||
      failed(verifyAccesses(op, op.getBarriers(), numCtrl, "barrier")) ||
      failed(verifyThreads(op, op.getThreads(), numCtrl)) ||
      failed(verifyHome(op, op.getHomeAttr(), op.getBarriers(), numCtrl,
                        "the record observes")));
}

ParseResult RecordReadOp::parse(OpAsmParser &parser, OperationState &result) {
  return parseRecord<RecordReadOp>(parser, result);
}
void RecordReadOp::print(OpAsmPrinter &p) { printRecord(*this, p); }
LogicalResult RecordReadOp::verify() { return verifyRecord(*this); }

ParseResult RecordMutateOp::parse(OpAsmParser &parser, OperationState &result) {
  return parseRecord<RecordMutateOp>(parser, result);
}
void RecordMutateOp::print(OpAsmPrinter &p) { printRecord(*this, p); }
LogicalResult RecordMutateOp::verify() { return verifyRecord(*this); }

//===----------------------------------------------------------------------===//
// ClearReadsOp, ClearMutatesOp
//===----------------------------------------------------------------------===//

template <typename ClearOp>
static ParseResult parseClear(OpAsmParser &parser, OperationState &result) {
  StatementParser stmt(parser);
  ParsedAccess target;
  if (stmt.parseAccess(target))
    return failure();
  AccessAttr attr = stmt.buildAccess(target);
  if (!attr)
    return failure();
  result.addAttribute(ClearOp::getTargetAttrName(result.name), attr);
  return stmt.finish(result);
}

template <typename ClearOp>
static void printClear(ClearOp op, OpAsmPrinter &p) {
  p << ' ';
  printAccess(p, op.getTarget(), op.getCtrl());
  p.printOptionalAttrDict(op->getAttrs(), {op.getTargetAttrName()});
}

ParseResult ClearReadsOp::parse(OpAsmParser &parser, OperationState &result) {
  return parseClear<ClearReadsOp>(parser, result);
}
void ClearReadsOp::print(OpAsmPrinter &p) { printClear(*this, p); }
LogicalResult ClearReadsOp::verify() {
  return verifyAccess(*this, getTarget(), getCtrl().size(), "clear of");
}

ParseResult ClearMutatesOp::parse(OpAsmParser &parser, OperationState &result) {
  return parseClear<ClearMutatesOp>(parser, result);
}
void ClearMutatesOp::print(OpAsmPrinter &p) { printClear(*this, p); }
LogicalResult ClearMutatesOp::verify() {
  return verifyAccess(*this, getTarget(), getCtrl().size(), "clear of");
}
