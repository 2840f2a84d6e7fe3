//===- InsertFrees.h - end allocation lifetimes with frees ------*- C++ -*-===//
//
// Part of ExoGPU. Frees are added by the compiler, not the user (seeds/002
// Sec. 3.4): every allocation without a free is freed at the end of its
// block, in reverse allocation order.
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_TRANSFORMS_INSERTFREES_H
#define EXOGPU_TRANSFORMS_INSERTFREES_H

namespace mlir {
class Operation;
} // namespace mlir

namespace mlir::exogpu {

/// Inserts an exogpu.free for every exogpu.alloc under `root` that has none,
/// at the end of the allocation's block (before a terminator, if any).
void insertFrees(Operation *root);

} // namespace mlir::exogpu

#endif // EXOGPU_TRANSFORMS_INSERTFREES_H
