//===- SyncOps.cpp - exoam fence, arrive and await -----------------------===//
//
// Part of ExoGPU. `fence`, `arrive` and `await` (seeds/002 Fig. 4, Fig. 22,
// Def. B.2, B.3).
//
//===----------------------------------------------------------------------===//

#include "StatementSyntax.h"
#include "StatementVerifier.h"
#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace mlir::exoam;

#define GET_OP_CLASSES
#include "ExoGPU/Dialect/ExoAM/IR/SyncOps.cpp.inc"

/// Adds the thread mapping parsed by `stmt` to `result` as `name`.
static ParseResult addThreads(StatementParser &stmt, OperationState &result,
                              StringAttr name, const ParsedThreads &threads) {
  ThreadMappingAttr attr = stmt.buildThreads(threads);
  if (!attr)
    return failure();
  result.addAttribute(name, attr);
  return success();
}

//===----------------------------------------------------------------------===//
// FenceOp
//===----------------------------------------------------------------------===//

ParseResult FenceOp::parse(OpAsmParser &parser, OperationState &result) {
  StatementParser stmt(parser);
  if (succeeded(parser.parseOptionalKeyword("transitive")))
    result.addAttribute(getTransitiveAttrName(result.name),
                        parser.getBuilder().getUnitAttr());
  QualTimelineSetAttr pre, full, temp;
  ParsedThreads threads;
  if (stmt.parseNamedSet("pre", pre) || stmt.parseNamedSet("full", full) ||
      stmt.parseNamedSet("temp", temp) || stmt.parseThreads(threads) ||
      addThreads(stmt, result, getThreadsAttrName(result.name), threads))
    return failure();
  result.addAttribute(getPreAttrName(result.name), pre);
  result.addAttribute(getFullAttrName(result.name), full);
  result.addAttribute(getTempAttrName(result.name), temp);
  return stmt.finish(result);
}

void FenceOp::print(OpAsmPrinter &p) {
  if (getTransitive())
    p << " transitive";
  printNamedSet(p, "pre", getPre());
  printNamedSet(p, "full", getFull());
  printNamedSet(p, "temp", getTemp());
  printThreads(p, getThreads(), getCtrl());
  p.printOptionalAttrDict((*this)->getAttrs(),
                          {getTransitiveAttrName(), getPreAttrName(),
                           getFullAttrName(), getTempAttrName(),
                           getThreadsAttrName()});
}

LogicalResult FenceOp::verify() {
  return verifyThreads(*this, getThreads(), getCtrl().size());
}

//===----------------------------------------------------------------------===//
// ArriveOp
//===----------------------------------------------------------------------===//

ParseResult ArriveOp::parse(OpAsmParser &parser, OperationState &result) {
  StatementParser stmt(parser);
  if (succeeded(parser.parseOptionalKeyword("transitive")))
    result.addAttribute(getTransitiveAttrName(result.name),
                        parser.getBuilder().getUnitAttr());
  QualTimelineSetAttr pre;
  SmallVector<ParsedAccess> barriers;
  ParsedThreads threads;
  if (stmt.parseNamedSet("pre", pre) ||
      stmt.parseBarrierList(barriers, /*required=*/true) ||
      stmt.parseThreads(threads) ||
      addThreads(stmt, result, getThreadsAttrName(result.name), threads))
    return failure();
  ArrayAttr barrierAttr = stmt.buildAccessArray(barriers);
  if (!barrierAttr)
    return failure();
  result.addAttribute(getPreAttrName(result.name), pre);
  result.addAttribute(getBarriersAttrName(result.name), barrierAttr);
  return stmt.finish(result);
}

void ArriveOp::print(OpAsmPrinter &p) {
  if (getTransitive())
    p << " transitive";
  printNamedSet(p, "pre", getPre());
  printBarrierList(p, getBarriers(), getCtrl());
  printThreads(p, getThreads(), getCtrl());
  p.printOptionalAttrDict((*this)->getAttrs(),
                          {getTransitiveAttrName(), getPreAttrName(),
                           getBarriersAttrName(), getThreadsAttrName()});
}

LogicalResult ArriveOp::verify() {
  if (getBarriers().empty())
    return emitOpError("arrives at one barrier at least (Fig. 22 ARRIVE "
                       "needs a home barrier)");
  unsigned numCtrl = getCtrl().size();
  return failure(
      failed(verifyAccesses(*this, getBarriers(), numCtrl, "barrier")) ||
      failed(verifyThreads(*this, getThreads(), numCtrl)));
}

//===----------------------------------------------------------------------===//
// AwaitOp
//===----------------------------------------------------------------------===//

ParseResult AwaitOp::parse(OpAsmParser &parser, OperationState &result) {
  StatementParser stmt(parser);
  if (succeeded(parser.parseOptionalKeyword("own")))
    result.addAttribute(getOwnAttrName(result.name),
                        parser.getBuilder().getUnitAttr());
  ParsedAccess barrier;
  QualTimelineSetAttr full, temp;
  int64_t n;
  ParsedThreads threads;
  if (stmt.parseAccess(barrier) || stmt.parseNamedSet("full", full) ||
      stmt.parseNamedSet("temp", temp) || parser.parseKeyword("n") ||
      parser.parseEqual() || parser.parseInteger(n) ||
      stmt.parseThreads(threads) ||
      addThreads(stmt, result, getThreadsAttrName(result.name), threads))
    return failure();
  AccessAttr barrierAttr = stmt.buildAccess(barrier);
  if (!barrierAttr)
    return failure();
  result.addAttribute(getBarrierAttrName(result.name), barrierAttr);
  result.addAttribute(getFullAttrName(result.name), full);
  result.addAttribute(getTempAttrName(result.name), temp);
  result.addAttribute(getNAttrName(result.name),
                      parser.getBuilder().getI64IntegerAttr(n));
  return stmt.finish(result);
}

void AwaitOp::print(OpAsmPrinter &p) {
  if (getOwn())
    p << " own";
  p << ' ';
  printAccess(p, getBarrier(), getCtrl());
  printNamedSet(p, "full", getFull());
  printNamedSet(p, "temp", getTemp());
  p << " n = " << getNAttr().getInt();
  printThreads(p, getThreads(), getCtrl());
  p.printOptionalAttrDict((*this)->getAttrs(),
                          {getOwnAttrName(), getBarrierAttrName(),
                           getFullAttrName(), getTempAttrName(), getNAttrName(),
                           getThreadsAttrName()});
}

LogicalResult AwaitOp::verify() {
  unsigned numCtrl = getCtrl().size();
  return failure(
      failed(verifyAccess(*this, getBarrier(), numCtrl, "barrier")) ||
      failed(verifyThreads(*this, getThreads(), numCtrl)));
}

//===----------------------------------------------------------------------===//
// CompleteOp
//===----------------------------------------------------------------------===//

ParseResult CompleteOp::parse(OpAsmParser &parser, OperationState &result) {
  StatementParser stmt(parser);
  SmallVector<ParsedAccess> barriers;
  ParsedThreads threads;
  if (stmt.parseBarrierList(barriers, /*required=*/true) ||
      stmt.parseOptionalHome(result, getHomeAttrName(result.name)) ||
      stmt.parseThreads(threads) ||
      addThreads(stmt, result, getThreadsAttrName(result.name), threads))
    return failure();
  ArrayAttr barrierAttr = stmt.buildAccessArray(barriers);
  if (!barrierAttr)
    return failure();
  result.addAttribute(getBarriersAttrName(result.name), barrierAttr);
  return stmt.finish(result);
}

void CompleteOp::print(OpAsmPrinter &p) {
  printBarrierList(p, getBarriers(), getCtrl());
  printOptionalHome(p, getHomeAttr(), getCtrl());
  printThreads(p, getThreads(), getCtrl());
  p.printOptionalAttrDict(
      (*this)->getAttrs(),
      {getBarriersAttrName(), getHomeAttrName(), getThreadsAttrName()});
}

LogicalResult CompleteOp::verify() {
  if (getBarriers().empty())
    return emitOpError("completes on one barrier at least");
  unsigned numCtrl = getCtrl().size();
  return failure(
      failed(verifyAccesses(*this, getBarriers(), numCtrl, "barrier")) ||
      failed(verifyThreads(*this, getThreads(), numCtrl)) ||
      failed(verifyHome(*this, getHomeAttr(), getBarriers(), numCtrl,
                        "the call completes on")));
}
