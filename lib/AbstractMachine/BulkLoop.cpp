//===- BulkLoop.cpp - running a loop's iterations in bulk -----------------===//
//
// Part of ExoGPU. The static analysis of a loop whose iterations the box
// engine may run in bulk (see BulkLoop.h); the run itself is the
// interpreter's (Interpreter.cpp, execBulkLoop).
//
//===----------------------------------------------------------------------===//

#include "BulkLoop.h"
#include "StatementInfo.h"

using namespace mlir;
using namespace mlir::exoam;

std::optional<BulkLoopPlan> BulkLoopPlan::analyze(LoopOp loop) {
  if (isTaskLoop(loop))
    return std::nullopt;
  BulkLoopPlan plan;
  // Per variable: its shift (empty coefficients while every access seen
  // was fixed), and whether its accesses disagree.
  DenseMap<StringAttr, std::optional<SmallVector<int64_t>>> shifts;
  Value iterator = loop.getIterator();
  for (Operation &op : loop.getBody().front()) {
    if (!isa<CheckReadsOp, CheckMutatesOp, ClearReadsOp, ClearMutatesOp,
             RecordReadOp, RecordMutateOp>(op))
      return std::nullopt;
    SmallVector<int> iteratorOf = getIteratorMap(&op, iterator);
    if (ThreadMappingAttr threads = getThreadMapping(&op);
        threads && usesIterator(threads, iteratorOf))
      return std::nullopt;
    bool ok = true;
    forEachAccess(&op, [&](StringAttr name, AccessAttr access) {
      bool moves =
          llvm::any_of(access.getCoords().getResults(), [&](AffineExpr expr) {
            return usesIterator(expr, iteratorOf);
          });
      if (name != "target") {
        ok &= !moves; // an observed barrier
        return;
      }
      std::optional<SmallVector<int64_t>> shift;
      if (moves) {
        auto perDim = getAccessShifts(access, iteratorOf, 1);
        if (!perDim) {
          ok = false;
          return;
        }
        shift.emplace();
        for (ArrayRef<int64_t> coefficients : *perDim)
          shift->push_back(coefficients.front());
      }
      auto [it, inserted] = shifts.try_emplace(access.getVar(), shift);
      ok &= inserted || it->second == shift;
    });
    if (!ok)
      return std::nullopt;
  }
  for (auto &[var, shift] : shifts)
    if (shift)
      plan.moving[var] = *shift;
  return plan;
}
