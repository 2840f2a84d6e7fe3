//===- InsertFrees.cpp - end allocation lifetimes with frees -------------===//
//
// Part of ExoGPU. Implements --exogpu-insert-frees (seeds/002 Sec. 3.4: frees
// are added by the compiler, not the user).
//
//===----------------------------------------------------------------------===//

#include "ExoGPU/Transforms/InsertFrees.h"
#include "ExoGPU/Dialect/ExoGPU/IR/ExoGPUOps.h"
#include "ExoGPU/Transforms/Passes.h"
#include "mlir/IR/Builders.h"

namespace mlir::exogpu {
#define GEN_PASS_DEF_EXOGPUINSERTFREES
#include "ExoGPU/Transforms/Passes.h.inc"
} // namespace mlir::exogpu

using namespace mlir;
using namespace mlir::exogpu;

void mlir::exogpu::insertFrees(Operation *root) {
  // Allocations per block, in program order.
  llvm::MapVector<Block *, SmallVector<AllocOp>> allocsByBlock;
  root->walk([&](AllocOp alloc) {
    bool freed = llvm::any_of(
        alloc->getUsers(), [](Operation *user) { return isa<FreeOp>(user); });
    if (!freed)
      allocsByBlock[alloc->getBlock()].push_back(alloc);
  });
  OpBuilder builder(root->getContext());
  for (auto &[block, allocs] : allocsByBlock) {
    builder.setInsertionPoint(block, block->end());
    if (!block->empty() && block->back().hasTrait<OpTrait::IsTerminator>())
      builder.setInsertionPoint(&block->back());
    for (AllocOp alloc : llvm::reverse(allocs))
      FreeOp::create(builder, alloc.getLoc(), alloc.getResult());
  }
}

namespace {
struct InsertFreesPass
    : public exogpu::impl::ExoGPUInsertFreesBase<InsertFreesPass> {
  void runOnOperation() override { insertFrees(getOperation()); }
};
} // namespace
