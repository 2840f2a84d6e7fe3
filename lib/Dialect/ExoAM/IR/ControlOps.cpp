//===- ControlOps.cpp - exoam procs, loops, guards, task ids -------------===//
//
// Part of ExoGPU. `proc`, `loop`, `if` and `inc_task_id` (seeds/002 Fig. 4,
// Fig. 21, Sec. 5.2.4).
//
//===----------------------------------------------------------------------===//

#include "ExoGPU/Dialect/ExoGPU/IR/BodyParsing.h"
#include "StatementSyntax.h"
#include "StatementVerifier.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::exoam;

#define GET_OP_CLASSES
#include "ExoGPU/Dialect/ExoAM/IR/ControlOps.cpp.inc"

//===----------------------------------------------------------------------===//
// ProcOp
//===----------------------------------------------------------------------===//

ParseResult ProcOp::parse(OpAsmParser &parser, OperationState &result) {
  Builder &b = parser.getBuilder();
  StringAttr name;
  SmallVector<OpAsmParser::Argument> args;
  if (parser.parseSymbolName(name, getSymNameAttrName(result.name),
                             result.attributes) ||
      parser.parseArgumentList(args, AsmParser::Delimiter::Paren,
                               /*allowType=*/true))
    return failure();
  SmallVector<Attribute> names;
  for (const OpAsmParser::Argument &arg : args)
    names.push_back(b.getStringAttr(arg.ssaName.name.drop_front()));
  result.addAttribute(getArgNamesAttrName(result.name), b.getArrayAttr(names));
  if (parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();
  return exogpu::parseStatementBody(parser, result, args);
}

void ProcOp::print(OpAsmPrinter &p) {
  p << ' ';
  p.printSymbolName(getSymName());
  p << '(';
  llvm::interleaveComma(getBody().getArguments(), p,
                        [&](BlockArgument arg) { p.printRegionArgument(arg); });
  p << ')';
  p.printOptionalAttrDictWithKeyword(
      (*this)->getAttrs(), {getSymNameAttrName(), getArgNamesAttrName()});
  p << ' ';
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false);
}

void ProcOp::getAsmBlockArgumentNames(Region &region,
                                      OpAsmSetValueNameFn setNameFn) {
  // Also called to print ops that failed verification: check everything.
  ArrayAttr names = getProperties().argNames;
  if (!names || region.empty())
    return;
  for (auto [arg, attr] : llvm::zip(region.front().getArguments(), names))
    if (auto name = dyn_cast<StringAttr>(attr); name && !name.empty())
      setNameFn(arg, name.getValue());
}

/// Whether `name` can be spelled as an SSA name and a pass option key.
static bool isIdentifier(StringRef name) {
  if (name.empty() || !(llvm::isAlpha(name.front()) || name.front() == '_'))
    return false;
  return llvm::all_of(name,
                      [](char c) { return llvm::isAlnum(c) || c == '_'; });
}

namespace {
/// How a proc uses one variable name, for the consistency rules of ProcOp.
struct VariableUse {
  Operation *firstUse = nullptr;
  unsigned rank = 0;
  Operation *dataAlloc = nullptr;
  Operation *barrierAlloc = nullptr;
  Operation *barrierUse = nullptr;
};
} // namespace

/// Records one access of `op`; `asBarrier` for Fig. 4 `e_z#` positions.
static LogicalResult noteAccess(llvm::StringMap<VariableUse> &uses,
                                Operation *op, AccessAttr access,
                                bool asBarrier) {
  VariableUse &use = uses[access.getVar().getValue()];
  if (!use.firstUse) {
    use.firstUse = op;
    use.rank = access.getRank();
  } else if (use.rank != access.getRank()) {
    InFlightDiagnostic diag = op->emitOpError()
                              << "accesses @" << access.getVar().getValue()
                              << " with " << access.getRank()
                              << " coordinates, but it has rank " << use.rank;
    diag.attachNote(use.firstUse->getLoc()) << "rank set by this use";
    return diag;
  }
  if (asBarrier && !use.barrierUse)
    use.barrierUse = op;
  return success();
}

/// Checks the kinds of one variable: allocated as data or as barrier, never
/// both, and a data variable never in a barrier position.
static LogicalResult checkKinds(StringRef name, const VariableUse &use) {
  if (use.dataAlloc && use.barrierAlloc) {
    InFlightDiagnostic diag = use.barrierAlloc->emitOpError()
                              << "allocates @" << name
                              << " as a barrier, but it is also allocated "
                                 "as data";
    diag.attachNote(use.dataAlloc->getLoc()) << "data allocation here";
    return diag;
  }
  if (use.dataAlloc && use.barrierUse) {
    InFlightDiagnostic diag = use.barrierUse->emitOpError()
                              << "uses data variable @" << name
                              << " where a barrier access is expected";
    diag.attachNote(use.dataAlloc->getLoc()) << "allocated as data here";
    return diag;
  }
  return success();
}

LogicalResult ProcOp::verify() {
  Block &body = getBody().front();
  if (getArgNames().size() != body.getNumArguments())
    return emitOpError("has ") << body.getNumArguments() << " parameters but "
                               << getArgNames().size() << " parameter names";
  llvm::StringSet<> seen;
  for (auto [arg, attr] : llvm::zip(body.getArguments(), getArgNames())) {
    auto name = dyn_cast<StringAttr>(attr);
    if (!arg.getType().isIndex() && !arg.getType().isInteger(1))
      return emitOpError("parameters are control values: index or i1, not ")
             << arg.getType();
    if (!name || !isIdentifier(name.getValue()))
      return emitOpError("parameter names must be identifiers, so that "
                         "values can be bound to them");
    if (!seen.insert(name.getValue()).second)
      return emitOpError("has two parameters named '")
             << name.getValue() << "'";
  }
  return success();
}

LogicalResult ProcOp::verifyRegions() {
  // Runs after the statements verified, so their accesses are well-formed.
  llvm::StringMap<VariableUse> uses;
  WalkResult walked = getOperation()->walk([&](Operation *op) -> WalkResult {
    auto note = [&](Attribute access, bool asBarrier) {
      return noteAccess(uses, op, cast<AccessAttr>(access), asBarrier);
    };
    auto noteAll = [&](ArrayAttr accesses, bool asBarrier) {
      for (Attribute access : accesses)
        if (failed(note(access, asBarrier)))
          return failure();
      return success();
    };
    LogicalResult result =
        llvm::TypeSwitch<Operation *, LogicalResult>(op)
            .Case([&](AllocOp alloc) {
              VariableUse &use = uses[alloc.getTarget().getVar().getValue()];
              Operation *&slot =
                  alloc.getBarrier() ? use.barrierAlloc : use.dataAlloc;
              if (!slot)
                slot = op;
              return note(alloc.getTarget(), /*asBarrier=*/false);
            })
            .Case<RecordReadOp, RecordMutateOp>([&](auto record) {
              return failure(failed(note(record.getTarget(), false)) ||
                             failed(noteAll(record.getBarriers(), true)));
            })
            .Case<ClearReadsOp, ClearMutatesOp, CheckReadsOp, CheckMutatesOp>(
                [&](auto stmt) { return note(stmt.getTarget(), false); })
            .Case([&](ArriveOp arrive) {
              return noteAll(arrive.getBarriers(), true);
            })
            .Case<AwaitOp, CheckBarrierOp>(
                [&](auto stmt) { return note(stmt.getBarrier(), true); })
            .Default([](Operation *) { return success(); });
    return failed(result) ? WalkResult::interrupt() : WalkResult::advance();
  });
  if (walked.wasInterrupted())
    return failure();
  for (const auto &entry : uses)
    if (failed(checkKinds(entry.getKey(), entry.getValue())))
      return failure();
  return success();
}

//===----------------------------------------------------------------------===//
// LoopOp
//===----------------------------------------------------------------------===//

ParseResult LoopOp::parse(OpAsmParser &parser, OperationState &result) {
  OpAsmParser::Argument iterator;
  exogpu::ControlExprParser ctrl(parser);
  AffineExpr lo, hi;
  if (parser.parseArgument(iterator) || parser.parseKeyword("in") ||
      parser.parseLParen() || ctrl.parseExpr(lo) || parser.parseComma() ||
      ctrl.parseExpr(hi) || parser.parseRParen())
    return failure();
  result.addAttribute(getBoundsAttrName(result.name),
                      AffineMapAttr::get(ctrl.getMap({lo, hi})));
  if (ctrl.resolve(result.operands) ||
      parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();
  iterator.type = parser.getBuilder().getIndexType();
  return exogpu::parseStatementBody(parser, result, {iterator});
}

void LoopOp::print(OpAsmPrinter &p) {
  p << ' ';
  p.printOperand(getIterator());
  p << " in (";
  exogpu::printControlExpr(p, getBounds().getResult(0), getCtrl());
  p << ", ";
  exogpu::printControlExpr(p, getBounds().getResult(1), getCtrl());
  p << ')';
  p.printOptionalAttrDictWithKeyword((*this)->getAttrs(),
                                     {getBoundsAttrName()});
  p << ' ';
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false);
}

LogicalResult LoopOp::verify() {
  if (getBody().getNumArguments() != 1 ||
      !getBody().getArgument(0).getType().isIndex())
    return emitOpError("body must have exactly one index argument, the "
                       "iterator");
  if (getBounds().getNumResults() != 2)
    return emitOpError("bounds must have two results (lo, hi)");
  return exogpu::verifyControlMap(*this, getBounds(), getCtrl().size(),
                                  "loop bounds");
}

//===----------------------------------------------------------------------===//
// IfOp
//===----------------------------------------------------------------------===//

ParseResult IfOp::parse(OpAsmParser &parser, OperationState &result) {
  exogpu::ControlExprParser ctrl(parser);
  auto cond = ctrl.parseConditionAttr();
  if (!cond)
    return failure();
  result.addAttribute(getConditionAttrName(result.name), cond);
  if (ctrl.resolve(result.operands) ||
      parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();
  return exogpu::parseStatementBody(parser, result);
}

void IfOp::print(OpAsmPrinter &p) {
  p << ' ';
  exogpu::printCondition(p, getCondition(), getCtrl());
  p.printOptionalAttrDictWithKeyword((*this)->getAttrs(),
                                     {getConditionAttrName()});
  p << ' ';
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false);
}

LogicalResult IfOp::verify() {
  if (failed(verifyCondition(*this, getCondition(), getCtrl())))
    return failure();
  if (!getBody().args_empty())
    return emitOpError("body must not have arguments");
  return success();
}
