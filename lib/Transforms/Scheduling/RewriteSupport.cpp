//===- RewriteSupport.cpp - checks shared by the scheduling rewrites -----===//
//
// Part of ExoGPU. See RewriteSupport.h.
//
//===----------------------------------------------------------------------===//

#include "ExoGPU/Transforms/Scheduling/RewriteSupport.h"
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

void mlir::exogpu::explainNotInvariant(Refusal &refusal, Location loc,
                                       const Twine &what, StringRef witness) {
  Diagnostic &diag = refusal.at(loc);
  diag << what;
  if (!witness.empty())
    diag << " (for example at " << witness << ")";
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
