//===- UncommittedWork.h - where uncommitted async work may be pending ----===//
//
// Part of ExoGPU (internal to the CUDA translation). `wait_group 0` of wgmma
// and of bulk copies waits for committed groups only, so a Fence that must
// wait for them commits first; the commit is needed only where work of the
// kind may have been issued since the last commit of the code path. This
// dataflow says where (issue 30: the commit a Fence adds after the
// program's own commits made ptxas serialize the attention kernel's
// wgmmas, C7519). The validator (SyncValidation.h) checks the result: a
// wait without commit completes only records already committed.
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_LIB_TARGET_CUDA_UNCOMMITTEDWORK_H
#define EXOGPU_LIB_TARGET_CUDA_UNCOMMITTEDWORK_H

#include "mlir/IR/Operation.h"
#include "llvm/ADT/DenseSet.h"

namespace mlir::exogpu::cuda {

/// The statements of a kernel before which work of one commit-group kind
/// (wgmma, or bulk copies) may have been issued and not committed since:
/// a forward dataflow over the structured statements, in which every op
/// with regions (loops over iterations, tasks or threads, conditionals)
/// may run its body any number of times, or none.
class UncommittedWork {
public:
  /// Analyzes the statements nested in `root`: `issues` says whether a
  /// statement issues work of the kind, `commits` whether it commits every
  /// uncommitted work of the kind of the threads that run it.
  UncommittedWork(Operation *root, function_ref<bool(Operation *)> issues,
                  function_ref<bool(Operation *)> commits);

  /// Whether uncommitted work may be pending when `op` runs.
  bool mayBePendingBefore(Operation *op) const {
    return pendingBefore.contains(op);
  }

private:
  /// Propagates the state `pending` through `block`; returns the state at
  /// its end.
  bool visitBlock(Block &block, bool pending,
                  function_ref<bool(Operation *)> issues,
                  function_ref<bool(Operation *)> commits);

  llvm::DenseSet<Operation *> pendingBefore;
};

} // namespace mlir::exogpu::cuda

#endif // EXOGPU_LIB_TARGET_CUDA_UNCOMMITTEDWORK_H
