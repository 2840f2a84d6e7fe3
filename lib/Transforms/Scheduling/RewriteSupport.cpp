//===- RewriteSupport.cpp - checks shared by the scheduling rewrites -----===//
//
// Part of ExoGPU. See RewriteSupport.h.
//
//===----------------------------------------------------------------------===//

#include "ExoGPU/Transforms/Scheduling/RewriteSupport.h"
#include "ExoGPU/Analysis/ControlConstraints.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/Verifier.h"

using namespace mlir;
using namespace mlir::exogpu;

LogicalResult mlir::exogpu::checkSeqLoop(ForOp loop, StringRef rewrite,
                                         Refusal &refusal) {
  if (loop.getMode() == LoopMode::seq)
    return success();
  refusal.at(loop.getLoc())
      << rewrite << " restructures seq loops; this loop is "
      << stringifyLoopMode(loop.getMode())
      << " (schedule the sequential loops first, then set loop modes)";
  return failure();
}

LogicalResult mlir::exogpu::checkAdjacent(Operation *first, Operation *second,
                                          StringRef rewrite, Refusal &refusal) {
  if (first->getNextNode() == second)
    return success();
  refusal.at(second->getLoc())
      << rewrite
      << " needs two adjacent statements of one block, the second right "
         "after the first";
  return failure();
}

LogicalResult mlir::exogpu::checkControlMagnitude(uint64_t magnitude,
                                                  Location loc,
                                                  StringRef rewrite,
                                                  Refusal &refusal) {
  if (magnitude <= kMaxControlMagnitude)
    return success();
  refusal.at(loc) << rewrite
                  << " would build constants beyond 2^40, the range the "
                     "legality checks handle";
  return failure();
}

uint64_t mlir::exogpu::coefficientMagnitude(AffineExpr expr) {
  return boundMagnitude(expr, [](unsigned) { return uint64_t(1); });
}

void mlir::exogpu::explainNotInvariant(Refusal &refusal, Location loc,
                                       const Twine &what, StringRef witness) {
  Diagnostic &diag = refusal.at(loc);
  diag << what;
  if (!witness.empty())
    diag << " (for example at " << witness << ")";
}

/// The type an allocation's extents determine (static where constant).
static Type inferAllocType(AllocOp alloc) {
  auto tensor = dyn_cast<DataTensorType>(alloc.getType());
  if (!tensor)
    return alloc.getType();
  SmallVector<int64_t> shape;
  for (AffineExpr extent : alloc.getExtents().getResults()) {
    auto c = dyn_cast<AffineConstantExpr>(extent);
    shape.push_back(c ? c.getValue() : ShapedType::kDynamic);
  }
  return DataTensorType::get(alloc.getContext(), tensor.getElementType(), shape,
                             tensor.getMemory());
}

LogicalResult mlir::exogpu::updateBufferTypes(Operation *root,
                                              TypeChanges &changes) {
  unsigned first = changes.size();
  WalkResult walk = root->walk<WalkOrder::PreOrder>([&](Operation *op) {
    Value result;
    Type type;
    if (auto alloc = dyn_cast<AllocOp>(op)) {
      result = alloc.getResult();
      type = inferAllocType(alloc);
    } else if (auto window = dyn_cast<WindowOp>(op)) {
      result = window.getResult();
      type = inferWindowType(
          cast<BufferTypeInterface>(window.getSource().getType()),
          window.getCoordKinds(), window.getCoords().getResults(),
          window.getSpecialAttr());
    } else if (auto split = dyn_cast<SplitOp>(op)) {
      // A split of a dimension its source no longer has keeps its type; the
      // verifier refuses it.
      auto source = cast<BufferTypeInterface>(split.getSource().getType());
      if (split.getDim() >= source.getRank() || split.getFactor() <= 0)
        return WalkResult::advance();
      result = split.getResult();
      type = SplitOp::inferType(source, split.getDim(), split.getFactor());
    } else {
      return WalkResult::advance();
    }
    if (type == result.getType())
      return WalkResult::advance();
    if (auto buffer = dyn_cast<BufferTypeInterface>(type))
      for (int64_t extent : buffer.getShape())
        if (!ShapedType::isDynamic(extent) && extent <= 0)
          return WalkResult::interrupt();
    changes.push_back({result, result.getType()});
    result.setType(type);
    return WalkResult::advance();
  });
  if (!walk.wasInterrupted())
    return success();
  restoreBufferTypes(ArrayRef(changes).drop_front(first));
  changes.resize(first);
  return failure();
}

void mlir::exogpu::restoreBufferTypes(
    ArrayRef<std::pair<Value, Type>> changes) {
  for (auto [value, type] : llvm::reverse(changes))
    value.setType(type);
}

void EditJournal::record(Operation *op) {
  if (llvm::any_of(entries, [&](const Entry &e) { return e.op == op; }))
    return;
  entries.push_back({op, op->getPropertiesAsAttribute(),
                     op->getDiscardableAttrDictionary(),
                     SmallVector<Value>(op->getOperands())});
}

void EditJournal::restore() {
  for (Entry &entry : llvm::reverse(entries)) {
    Operation *op = entry.op;
    if (entry.properties)
      (void)op->setPropertiesFromAttribute(entry.properties,
                                           [&] { return op->emitError(); });
    op->setDiscardableAttrs(entry.discardable);
    op->setOperands(entry.operands);
  }
  entries.clear();
  restoreBufferTypes(typeChanges);
  typeChanges.clear();
}

LogicalResult mlir::exogpu::verifyWithSymbolUses(Operation *root) {
  if (failed(verify(root)))
    return failure();
  // Calls check their arguments against the callee when the enclosing
  // symbol table is verified; check the calls under `root` now.
  SymbolTableCollection symbols;
  WalkResult result = root->walk([&](CallOp call) {
    return failed(call.verifySymbolUses(symbols)) ? WalkResult::interrupt()
                                                  : WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

LogicalResult mlir::exogpu::verifyOrExplain(Operation *root, Location loc,
                                            const Twine &what,
                                            Refusal &refusal) {
  SmallVector<std::pair<Location, std::string>> errors;
  LogicalResult result = success();
  {
    ScopedDiagnosticHandler collect(root->getContext(), [&](Diagnostic &diag) {
      if (diag.getSeverity() == DiagnosticSeverity::Error)
        errors.push_back({diag.getLocation(), diag.str()});
      return success();
    });
    result = verifyWithSymbolUses(root);
  }
  if (succeeded(result))
    return success();
  Diagnostic &diag = refusal.at(loc);
  diag << what << " would make the IR invalid";
  for (auto &[errorLoc, message] : errors)
    diag.attachNote(errorLoc) << message;
  return failure();
}

LogicalResult mlir::exogpu::finishTentativeEdit(EditJournal &journal,
                                                Operation *root, Location loc,
                                                const Twine &what,
                                                Refusal &refusal) {
  if (failed(updateBufferTypes(root, journal.getTypeChanges()))) {
    journal.restore();
    refusal.at(loc) << what
                    << " would give a buffer a constant extent that is not "
                       "positive";
    return failure();
  }
  if (failed(verifyOrExplain(root, loc, what, refusal))) {
    journal.restore();
    return failure();
  }
  return success();
}
