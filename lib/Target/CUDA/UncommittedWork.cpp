//===- UncommittedWork.cpp - where uncommitted async work may be pending --===//
//
// Part of ExoGPU (internal to the CUDA translation).
//
//===----------------------------------------------------------------------===//

#include "UncommittedWork.h"

using namespace mlir;
using namespace mlir::exogpu::cuda;

UncommittedWork::UncommittedWork(Operation *root,
                                 function_ref<bool(Operation *)> issues,
                                 function_ref<bool(Operation *)> commits) {
  for (Region &region : root->getRegions())
    for (Block &block : region)
      visitBlock(block, /*pending=*/false, issues, commits);
}

bool UncommittedWork::visitBlock(Block &block, bool pending,
                                 function_ref<bool(Operation *)> issues,
                                 function_ref<bool(Operation *)> commits) {
  for (Operation &op : block) {
    if (pending)
      pendingBefore.insert(&op);
    if (issues(&op)) {
      pending = true;
      continue;
    }
    if (commits(&op)) {
      pending = false;
      continue;
    }
    if (op.getNumRegions() == 0)
      continue;
    // The body may run after the state before the op or after a previous
    // run of itself; the op may end after no run or after any. On this
    // two-valued lattice the second round reaches the fixpoint.
    bool bodyEntry = pending, bodyExit = false;
    for (int round = 0; round < 2; ++round) {
      for (Region &region : op.getRegions())
        for (Block &body : region)
          bodyExit |= visitBlock(body, bodyEntry, issues, commits);
      if (!bodyExit || bodyEntry)
        break;
      bodyEntry = true;
    }
    pending |= bodyExit;
  }
  return pending;
}
