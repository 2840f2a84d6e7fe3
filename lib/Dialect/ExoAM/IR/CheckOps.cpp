//===- CheckOps.cpp - exoam visibility and barrier checks ----------------===//
//
// Part of ExoGPU. `check_reads`, `check_mutates` and `check_barrier`
// (seeds/002 Fig. 4, Fig. 7), `check_condition` and `check_bounds`.
//
//===----------------------------------------------------------------------===//

#include "StatementSyntax.h"
#include "StatementVerifier.h"
#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace mlir::exoam;

#define GET_OP_CLASSES
#include "ExoGPU/Dialect/ExoAM/IR/CheckOps.cpp.inc"

//===----------------------------------------------------------------------===//
// CheckReadsOp, CheckMutatesOp
//===----------------------------------------------------------------------===//

/// Parses `level [convergent] @x[...] on [...] [for purpose] threads ...`.
template <typename CheckOp>
static ParseResult parseCheck(OpAsmParser &parser, OperationState &result) {
  MLIRContext *ctx = parser.getContext();
  StatementParser stmt(parser);
  VisibilityLevel level;
  ParsedAccess target;
  ParsedThreads threads;
  if (stmt.parseLevel(level))
    return failure();
  if (succeeded(parser.parseOptionalKeyword("convergent")))
    result.addAttribute(CheckOp::getConvergentAttrName(result.name),
                        UnitAttr::get(ctx));
  QualTimelineSetAttr timelines;
  if (stmt.parseAccess(target) || parser.parseKeyword("on") ||
      !(timelines = QualTimelineSetAttr::parseBody(parser)))
    return failure();
  if (succeeded(parser.parseOptionalKeyword("for"))) {
    SMLoc loc = parser.getCurrentLocation();
    StringRef keyword;
    if (parser.parseKeyword(&keyword))
      return failure();
    std::optional<AccessPurpose> purpose = symbolizeAccessPurpose(keyword);
    if (!purpose)
      return parser.emitError(loc) << "unknown check purpose '" << keyword
                                   << "' (expected read, write or free)";
    result.addAttribute(CheckOp::getPurposeAttrName(result.name),
                        AccessPurposeAttr::get(ctx, *purpose));
  }
  if (stmt.parseThreads(threads))
    return failure();
  AccessAttr targetAttr = stmt.buildAccess(target);
  ThreadMappingAttr threadAttr = stmt.buildThreads(threads);
  if (!targetAttr || !threadAttr)
    return failure();
  result.addAttribute(CheckOp::getLevelAttrName(result.name),
                      VisibilityLevelAttr::get(ctx, level));
  result.addAttribute(CheckOp::getTargetAttrName(result.name), targetAttr);
  result.addAttribute(CheckOp::getTimelinesAttrName(result.name), timelines);
  result.addAttribute(CheckOp::getThreadsAttrName(result.name), threadAttr);
  return stmt.finish(result);
}

template <typename CheckOp>
static void printCheck(CheckOp op, OpAsmPrinter &p) {
  p << ' ' << stringifyVisibilityLevel(op.getLevel());
  if (op.getConvergent())
    p << " convergent";
  p << ' ';
  printAccess(p, op.getTarget(), op.getCtrl());
  p << " on ";
  op.getTimelines().printBody(p);
  if (std::optional<AccessPurpose> purpose = op.getPurpose())
    p << " for " << stringifyAccessPurpose(*purpose);
  printThreads(p, op.getThreads(), op.getCtrl());
  p.printOptionalAttrDict(op->getAttrs(),
                          {op.getLevelAttrName(), op.getConvergentAttrName(),
                           op.getTargetAttrName(), op.getTimelinesAttrName(),
                           op.getPurposeAttrName(), op.getThreadsAttrName()});
}

template <typename CheckOp> static LogicalResult verifyCheck(CheckOp op) {
  unsigned numCtrl = op.getCtrl().size();
  return failure(
      failed(verifyAccess(op, op.getTarget(), numCtrl, "check of")) ||
      failed(verifyThreads(op, op.getThreads(), numCtrl)));
}

ParseResult CheckReadsOp::parse(OpAsmParser &parser, OperationState &result) {
  return parseCheck<CheckReadsOp>(parser, result);
}
void CheckReadsOp::print(OpAsmPrinter &p) { printCheck(*this, p); }
LogicalResult CheckReadsOp::verify() { return verifyCheck(*this); }

ParseResult CheckMutatesOp::parse(OpAsmParser &parser, OperationState &result) {
  return parseCheck<CheckMutatesOp>(parser, result);
}
void CheckMutatesOp::print(OpAsmPrinter &p) { printCheck(*this, p); }
LogicalResult CheckMutatesOp::verify() { return verifyCheck(*this); }

//===----------------------------------------------------------------------===//
// CheckBarrierOp
//===----------------------------------------------------------------------===//

ParseResult CheckBarrierOp::parse(OpAsmParser &parser, OperationState &result) {
  StatementParser stmt(parser);
  ParsedAccess barrier;
  if (stmt.parseAccess(barrier))
    return failure();
  AccessAttr attr = stmt.buildAccess(barrier);
  if (!attr)
    return failure();
  result.addAttribute(getBarrierAttrName(result.name), attr);
  return stmt.finish(result);
}

void CheckBarrierOp::print(OpAsmPrinter &p) {
  p << ' ';
  printAccess(p, getBarrier(), getCtrl());
  p.printOptionalAttrDict((*this)->getAttrs(), {getBarrierAttrName()});
}

LogicalResult CheckBarrierOp::verify() {
  return verifyAccess(*this, getBarrier(), getCtrl().size(), "barrier");
}

//===----------------------------------------------------------------------===//
// CheckConditionOp
//===----------------------------------------------------------------------===//

ParseResult CheckConditionOp::parse(OpAsmParser &parser,
                                    OperationState &result) {
  StatementParser stmt(parser);
  exogpu::ConditionAttr condition =
      stmt.getControlParser().parseConditionAttr();
  StringAttr what;
  if (!condition || parser.parseComma() ||
      parser.parseAttribute(what, getWhatAttrName(result.name),
                            result.attributes))
    return failure();
  result.addAttribute(getConditionAttrName(result.name), condition);
  return stmt.finish(result);
}

void CheckConditionOp::print(OpAsmPrinter &p) {
  p << ' ';
  exogpu::printCondition(p, getCondition(), getCtrl());
  p << ", ";
  p.printAttribute(getWhatAttr());
  p.printOptionalAttrDict((*this)->getAttrs(),
                          {getConditionAttrName(), getWhatAttrName()});
}

LogicalResult CheckConditionOp::verify() {
  return verifyCondition(*this, getCondition(), getCtrl());
}

//===----------------------------------------------------------------------===//
// CheckBoundsOp
//===----------------------------------------------------------------------===//

ParseResult CheckBoundsOp::parse(OpAsmParser &parser, OperationState &result) {
  StatementParser stmt(parser);
  ParsedAccess target, window;
  if (stmt.parseAccess(target) || parser.parseKeyword("within") ||
      stmt.parseAccess(window))
    return failure();
  AccessAttr targetAttr = stmt.buildAccess(target);
  AccessAttr windowAttr = stmt.buildAccess(window);
  if (!targetAttr || !windowAttr)
    return failure();
  result.addAttribute(getTargetAttrName(result.name), targetAttr);
  result.addAttribute(getWindowAttrName(result.name), windowAttr);
  return stmt.finish(result);
}

void CheckBoundsOp::print(OpAsmPrinter &p) {
  p << ' ';
  printAccess(p, getTarget(), getCtrl());
  p << " within ";
  printAccess(p, getWindow(), getCtrl());
  p.printOptionalAttrDict((*this)->getAttrs(),
                          {getTargetAttrName(), getWindowAttrName()});
}

LogicalResult CheckBoundsOp::verify() {
  unsigned numCtrl = getCtrl().size();
  if (failed(verifyAccess(*this, getTarget(), numCtrl, "check of")) ||
      failed(verifyAccess(*this, getWindow(), numCtrl, "window of")))
    return failure();
  if (getTarget().getVar() != getWindow().getVar() ||
      getTarget().getKinds().size() != getWindow().getKinds().size())
    return emitOpError("the access and its window must be of one variable, "
                       "with one coordinate per dimension each");
  return success();
}
