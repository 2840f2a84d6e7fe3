//===- StatementRewrites.cpp - Exo's checked statement rewrites -----------===//
//
// Part of ExoGPU. See StatementRewrites.h.
//
//===----------------------------------------------------------------------===//

#include "ExoGPU/Transforms/Scheduling/StatementRewrites.h"
#include "ExoGPU/Analysis/Dependences.h"
#include "ExoGPU/Analysis/RuntimeChecks.h"
#include "ExoGPU/Dialect/ExoGPU/IR/Scope.h"
#include "ExoGPU/Transforms/Scheduling/RewriteSupport.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace mlir::exogpu;

void mlir::exogpu::recordUnsafeStep(RewriterBase &rewriter, Operation *op,
                                    StringRef rewrite) {
  auto proc = op->getParentOfType<ProcOp>();
  if (!proc)
    return;
  int64_t count = 1;
  if (auto old = proc->getAttrOfType<IntegerAttr>(kUnsafeStepsAttrName))
    count += old.getInt();
  rewriter.modifyOpInPlace(proc, [&] {
    proc->setAttr(kUnsafeStepsAttrName, rewriter.getI64IntegerAttr(count));
  });
  emitWarning(op->getLoc())
      << "unsafe step: " << rewrite << " without a legality check (" << count
      << " unsafe step(s) in @" << proc.getSymName() << ")";
}

/// The statements of `scope`'s body.
static SmallVector<Operation *> bodyOf(Operation *scope) {
  SmallVector<Operation *> ops;
  for (Operation &op : scope->getRegion(0).front())
    ops.push_back(&op);
  return ops;
}

/// Moves the body of `scope` before it and erases it; returns the moved
/// statements.
static SmallVector<Operation *> inlineScope(RewriterBase &rewriter,
                                            Operation *scope) {
  SmallVector<Operation *> body = bodyOf(scope);
  for (Operation *op : body)
    rewriter.moveOpBefore(op, scope);
  rewriter.eraseOp(scope);
  return body;
}

//===----------------------------------------------------------------------===//
// reorder_stmts
//===----------------------------------------------------------------------===//

LogicalResult mlir::exogpu::reorderStmts(RewriterBase &rewriter,
                                         Operation *first, Operation *second,
                                         Refusal &refusal) {
  if (failed(checkAdjacent(first, second, "reorder_stmts", refusal)))
    return failure();
  if (Operation *user = findUseOfDefinitions({first}, {second})) {
    refusal.at(user->getLoc())
        << "cannot move this statement before the previous one: it uses a "
           "buffer or window that one defines";
    return failure();
  }
  InstanceScope firstScope({first}, 1), secondScope({second}, 2);
  AccessCollector collector;
  if (std::optional<AccessConflict> conflict =
          findConflict(collector, {first}, firstScope, {second}, secondScope,
                       ConflictKind::Dependence, nullptr)) {
    Diagnostic &diag = refusal.at(second->getLoc());
    diag << "cannot reorder these statements: they do not commute";
    attachConflictNotes(diag, *conflict, "first statement", "second statement");
    return failure();
  }
  rewriter.moveOpBefore(second, first);
  return success();
}

//===----------------------------------------------------------------------===//
// Data expressions
//===----------------------------------------------------------------------===//

/// Clones the expression tree computing `value` at the builder's insertion
/// point (operands first); returns the clone of `value`.
static Value cloneExpression(OpBuilder &builder, Value value,
                             IRMapping &mapping) {
  if (Value mapped = mapping.lookupOrNull(value))
    return mapped;
  Operation *def = value.getDefiningOp();
  for (Value operand : def->getOperands())
    if (operand.getDefiningOp() && isDataExpressionOp(operand.getDefiningOp()))
      cloneExpression(builder, operand, mapping);
  Operation *copy = builder.clone(*def, mapping);
  return copy->getResult(cast<OpResult>(value).getResultNumber());
}

/// Erases `op` and the expression ops only it used.
static void eraseExpression(RewriterBase &rewriter, Operation *op) {
  SmallVector<Value> operands(op->getOperands());
  rewriter.eraseOp(op);
  for (Value operand : operands) {
    Operation *def = operand.getDefiningOp();
    if (def && isDataExpressionOp(def) && def->use_empty())
      eraseExpression(rewriter, def);
  }
}

FailureOr<std::pair<AllocOp, AssignOp>>
mlir::exogpu::bindExpr(RewriterBase &rewriter, Operation *expr, StringRef name,
                       MemoryAttr memory, Refusal &refusal) {
  // The verifier nests expressions in an assign or reduce only.
  Operation *stmt = expr->getParentOp();
  MLIRContext *ctx = expr->getContext();
  if (!memory)
    memory = MemoryAttr::get(
        ctx, isCudaScope(stmt) ? MemoryKind::CudaRmem : MemoryKind::DRAM, {});
  Type type = expr->getResult(0).getType();
  Location loc = expr->getLoc();
  rewriter.setInsertionPoint(stmt);
  auto alloc =
      AllocOp::create(rewriter, loc, DataTensorType::get(ctx, type, {}, memory),
                      AffineMapAttr::get(AffineMap::get(0, 0, {}, ctx)),
                      ValueRange{}, rewriter.getStringAttr(name));
  AffineMapAttr noIndices = AffineMapAttr::get(AffineMap::get(0, 0, {}, ctx));
  auto assign = AssignOp::create(rewriter, loc, alloc.getResult(), noIndices,
                                 ValueRange{});
  {
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.createBlock(&assign.getValue());
    IRMapping mapping;
    Value value = cloneExpression(rewriter, expr->getResult(0), mapping);
    YieldOp::create(rewriter, loc, value);
  }
  rewriter.setInsertionPoint(expr);
  auto read = ReadOp::create(rewriter, loc, type, alloc.getResult(), noIndices,
                             ValueRange{});
  rewriter.replaceAllUsesWith(expr->getResult(0), read.getResult());
  eraseExpression(rewriter, expr);
  return std::make_pair(alloc, assign);
}

LogicalResult mlir::exogpu::commuteExpr(RewriterBase &rewriter, Operation *expr,
                                        Refusal &refusal) {
  if (!isa<AddOp, MulOp>(expr)) {
    refusal.at(expr->getLoc())
        << "commute_expr applies to '+' and '*' (exogpu.add, exogpu.mul)";
    return failure();
  }
  rewriter.modifyOpInPlace(expr, [&] {
    Value lhs = expr->getOperand(0), rhs = expr->getOperand(1);
    expr->setOperands({rhs, lhs});
  });
  return success();
}

//===----------------------------------------------------------------------===//
// rewrite_expr
//===----------------------------------------------------------------------===//

LogicalResult mlir::exogpu::rewriteExpr(RewriterBase &rewriter, Operation *op,
                                        unsigned index,
                                        const ValueExpr &replacement,
                                        Refusal &refusal) {
  SmallVector<AffineMap> maps = getControlMaps(op);
  OperandRange ctrl = getControlOperands(op);
  unsigned total = 0;
  for (AffineMap map : maps)
    total += map.getNumResults();
  if (index >= total) {
    refusal.at(op->getLoc()) << "rewrite_expr: this statement has " << total
                             << " control expression(s), no number " << index;
    return failure();
  }
  unsigned mapIndex = 0, resultIndex = index;
  while (resultIndex >= maps[mapIndex].getNumResults())
    resultIndex -= maps[mapIndex++].getNumResults();
  AffineExpr old = maps[mapIndex].getResult(resultIndex);
  bool usesBool = false;
  old.walk([&](AffineExpr e) {
    if (auto d = dyn_cast<AffineDimExpr>(e))
      usesBool |= !ctrl[d.getPosition()].getType().isIndex();
  });
  if (usesBool) {
    refusal.at(op->getLoc())
        << "rewrite_expr: expression " << index
        << " is a boolean condition atom, not a control expression";
    return failure();
  }
  std::string witness;
  if (!isRelationInvariant(op, old, ctrl, ConditionAtomKind::Eq,
                           replacement.expr, replacement.operands, &witness)) {
    Diagnostic &diag = refusal.at(op->getLoc());
    diag << "cannot rewrite '" << printControlText(old, ctrl) << "' to '"
         << printControlText(replacement.expr, replacement.operands)
         << "': they differ";
    if (!witness.empty())
      diag << " (for example at " << witness << ")";
    return failure();
  }
  SmallVector<Value> operands(ctrl.begin(), ctrl.end());
  AffineExpr repl =
      remapOperands(replacement.expr, replacement.operands, operands);
  SmallVector<AffineMap> newMaps;
  for (auto [m, map] : llvm::enumerate(maps)) {
    SmallVector<AffineExpr> results(map.getResults());
    if (m == mapIndex)
      results[resultIndex] = repl;
    newMaps.push_back(
        AffineMap::get(operands.size(), 0, results, op->getContext()));
  }
  // An allocation extent or a window coordinate that becomes constant makes
  // the buffer's type static.
  EditJournal journal;
  journal.record(op);
  rewriter.modifyOpInPlace(op, [&] { setControlMaps(op, newMaps, operands); });
  return finishTentativeEdit(journal, op->getParentOfType<ProcOp>(),
                             op->getLoc(), "rewrite_expr", refusal);
}

//===----------------------------------------------------------------------===//
// inline_assign
//===----------------------------------------------------------------------===//

LogicalResult mlir::exogpu::inlineAssign(RewriterBase &rewriter,
                                         AssignOp assign, Refusal &refusal) {
  Value x = assign.getDest();
  auto alloc = x.getDefiningOp<AllocOp>();
  Location loc = assign.getLoc();
  if (!alloc) {
    refusal.at(loc) << "inline_assign needs an assignment to an allocation "
                       "(not a parameter or window)";
    return failure();
  }
  if (assign.getValueExpr().getType() !=
      cast<BufferTypeInterface>(x.getType()).getElementType()) {
    refusal.at(loc) << "inline_assign: the assignment converts precision; "
                       "inlining would drop the conversion";
    return failure();
  }
  SmallVector<Operation *> after;
  for (Operation *op = assign->getNextNode(); op; op = op->getNextNode())
    after.push_back(op);
  auto isAfter = [&](Operation *op) {
    return llvm::any_of(after, [&](Operation *stmt) {
      return stmt == op || stmt->isProperAncestor(op);
    });
  };
  SmallVector<ReadOp> reads;
  for (OpOperand &use : x.getUses()) {
    Operation *user = use.getOwner();
    if (user == assign.getOperation() || isa<FreeOp>(user))
      continue;
    auto read = dyn_cast<ReadOp>(user);
    if (!read || !isAfter(read)) {
      Diagnostic &diag = refusal.at(loc);
      diag << "cannot inline this assignment: '" << getBufferName(x)
           << "' is used other than by reads after it";
      diag.attachNote(user->getLoc()) << "this use";
      return failure();
    }
    reads.push_back(read);
  }
  // Each read must read the assigned element.
  for (ReadOp read : reads) {
    for (auto [d, index] : llvm::enumerate(read.getIndices().getResults())) {
      std::string witness;
      if (!isRelationInvariant(
              read, index, read.getCtrl(), ConditionAtomKind::Eq,
              assign.getIndices().getResult(d), assign.getCtrl(), &witness)) {
        Diagnostic &diag = refusal.at(loc);
        diag << "cannot inline this assignment into a read of another "
                "element of '"
             << getBufferName(x) << "'";
        diag.attachNote(read.getLoc()) << "this read";
        return failure();
      }
    }
  }
  // Nothing after the assignment may change what the expression reads.
  InstanceScope assignScope({assign}, 1), afterScope(after, 2);
  AccessCollector collector;
  if (std::optional<AccessConflict> conflict = findConflict(
          collector, {assign}, assignScope, after, afterScope,
          ConflictKind::Dependence,
          [&](InstanceSet &set, const BufferAccess &a, const BufferAccess &) {
            // The assignment's own write of x is what the reads consume.
            if (a.root == x)
              set.getSet().addNonNegative(LinearForm::ofConstant(-1));
          })) {
    Diagnostic &diag = refusal.at(loc);
    diag << "cannot inline this assignment: a later statement changes what "
            "it reads";
    attachConflictNotes(diag, *conflict, "the assignment", "later statement");
    return failure();
  }
  for (ReadOp read : reads) {
    rewriter.setInsertionPoint(read);
    IRMapping mapping;
    Value value = cloneExpression(rewriter, assign.getValueExpr(), mapping);
    rewriter.replaceAllUsesWith(read.getResult(), value);
    rewriter.eraseOp(read);
  }
  rewriter.eraseOp(assign);
  return success();
}

//===----------------------------------------------------------------------===//
// simplify, eliminate_dead_code, remove_if
//===----------------------------------------------------------------------===//

void mlir::exogpu::simplify(RewriterBase &rewriter, Operation *root) {
  rewriter.modifyOpInPlace(root, [&] { simplifyControl(root); });
  SmallVector<Operation *> constant;
  root->walk([&](IfOp guard) {
    if (guard.getCondition().getMap().getNumDims() == 0)
      constant.push_back(guard);
  });
  for (Operation *op : constant) {
    auto guard = cast<IfOp>(op);
    if (guard.getCondition().evaluate({}))
      inlineScope(rewriter, guard);
    else
      rewriter.eraseOp(guard);
  }
}

FailureOr<SmallVector<Operation *>>
mlir::exogpu::eliminateDeadCode(RewriterBase &rewriter, Operation *op,
                                Refusal &refusal) {
  if (auto guard = dyn_cast<IfOp>(op)) {
    if (isConditionInvariant(guard, guard.getCondition(), guard.getCtrl(),
                             /*expectTrue=*/true))
      return inlineScope(rewriter, guard);
    if (isConditionInvariant(guard, guard.getCondition(), guard.getCtrl(),
                             /*expectTrue=*/false)) {
      rewriter.eraseOp(guard);
      return SmallVector<Operation *>();
    }
    refusal.at(op->getLoc()) << "eliminate_dead_code: the condition is "
                                "neither always true nor always false";
    return failure();
  }
  auto loop = dyn_cast<ForOp>(op);
  if (loop && isRelationInvariant(loop, loop.getUpperBoundExpr(),
                                  loop.getCtrl(), ConditionAtomKind::Le,
                                  loop.getLowerBoundExpr(), loop.getCtrl())) {
    rewriter.eraseOp(loop);
    return SmallVector<Operation *>();
  }
  refusal.at(op->getLoc()) << "eliminate_dead_code applies to guards that "
                              "always or never hold and to loops that never "
                              "run";
  return failure();
}

FailureOr<SmallVector<Operation *>>
mlir::exogpu::removeIf(RewriterBase &rewriter, IfOp guard, bool unsafe,
                       Refusal &refusal) {
  if (unsafe) {
    recordUnsafeStep(rewriter, guard, "remove_if");
    return inlineScope(rewriter, guard);
  }
  if (isConditionInvariant(guard, guard.getCondition(), guard.getCtrl(),
                           /*expectTrue=*/true))
    return inlineScope(rewriter, guard);
  // The instances the guard excluded: all loops private, the guard's
  // condition negated.
  auto proc = guard->getParentOfType<ProcOp>();
  InstanceScope extra({proc}, 1);
  extra.ignoredGuards.push_back(guard);
  auto addExcluded = [&](InstanceSet &set) {
    set.getSet().addCondition(guard.getCondition(), guard.getCtrl(), extra,
                              /*negated=*/true);
  };
  SmallVector<Operation *> body = bodyOf(guard);
  if (std::optional<RuntimeFailure> broken =
          findRuntimeFailure(body, extra, addExcluded)) {
    Diagnostic &diag = refusal.at(guard.getLoc());
    diag << "cannot remove this guard: an excluded instance of its body would "
            "fail a run-time check";
    attachRuntimeFailureNotes(diag, *broken);
    return failure();
  }
  AccessCollector collector;
  // Writes in excluded instances must be dead: not to parameters, and no
  // later read of the element.
  SmallVector<BufferAccess> accesses;
  for (Operation *op : body)
    collector.collect(op, accesses);
  for (const BufferAccess &access : accesses) {
    if (!access.mutates() || access.root.getDefiningOp<AllocOp>())
      continue;
    InstanceSet set;
    set.addContext(access.stmt, extra);
    addExcluded(set);
    if (set.getSet().isEmpty())
      continue;
    Diagnostic &diag = refusal.at(guard.getLoc());
    diag << "cannot remove this guard: in an excluded instance the body "
            "writes the parameter '"
         << getBufferName(access.root) << "', which the caller sees";
    diag.attachNote(access.loc)
        << "this "
        << (access.kind == AccessKind::Reduce ? "reduction" : "write") << " of "
        << access.describe() << " (for example at "
        << set.getSet().describeSample() << ")";
    return failure();
  }
  InstanceScope reader({proc}, 2);
  SmallVector<Operation *> everything = bodyOf(proc);
  if (std::optional<AccessConflict> conflict = findConflict(
          collector, body, extra, everything, reader,
          ConflictKind::WriteThenRead,
          [&](InstanceSet &set, const BufferAccess &w, const BufferAccess &r) {
            addExcluded(set);
            set.addHappensBefore(w.stmt, extra, r.stmt, reader);
          })) {
    Diagnostic &diag = refusal.at(guard.getLoc());
    diag << "cannot remove this guard: a write in an excluded instance is "
            "read later";
    attachConflictNotes(diag, *conflict, "excluded write", "later read");
    return failure();
  }
  return inlineScope(rewriter, guard);
}
