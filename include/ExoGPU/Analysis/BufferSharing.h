//===- BufferSharing.h - buffers the threads of a kernel share --*- C++ -*-===//
//
// Part of ExoGPU. Synchronization orders accesses to elements that two
// threads touch, one of them writing (seeds/002 Sec. 5: the abstract
// machine reports a hazard only for such pairs). This analysis says which
// buffers of a device function can have such an element, for every size
// the preconditions allow, from the statements' access relations
// (BufferAccesses.h) and Presburger emptiness checks (Dependences.h):
//  * registers are shared by no one (each element lives in one thread);
//  * a buffer no statement of the kernel writes is shared by no one;
//  * a buffer accessed by one statement alone, executed by one thread per
//    instance, whose instances never touch a common element (one of them
//    writing), is private to its threads (an output each element of which
//    one thread writes once, as a GEMM's C stored tile by tile);
//  * shared memory is private to its CTA unless an instruction writes it
//    across the cluster (a parameter with `dist`, multicast TMA): generic
//    accesses reach only the CTA's own shard (the distributed memory
//    deduction, Sec. 4.1).
// The CUDA translation uses it to leave out, from what an mbarrier arrive
// must order, accesses that no other thread (or no thread of another CTA)
// can touch (docs/cuda-translation.md, "mbarrier arrives").
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_ANALYSIS_BUFFERSHARING_H
#define EXOGPU_ANALYSIS_BUFFERSHARING_H

#include "ExoGPU/Analysis/BufferAccesses.h"
#include "ExoGPU/Analysis/CollectiveAnalysis.h"
#include "llvm/ADT/DenseMap.h"

namespace mlir::exogpu {

/// Who may touch a common element of a buffer, one of them writing.
enum class BufferSharing {
  /// No two threads.
  None,
  /// Only threads of one CTA (shared memory of the CTA).
  WithinCta,
  /// Threads of different CTAs (or of different tasks).
  AcrossCtas,
};

/// The sharing of every buffer a device function accesses.
class BufferSharingAnalysis {
public:
  BufferSharingAnalysis(Operation *deviceFunction,
                        const CollectiveAnalysis &collective);

  /// The sharing of root buffer `root` (an alloc result or a proc
  /// parameter); AcrossCtas for buffers the kernel does not access.
  BufferSharing getSharing(Value root) const;

  /// The widest sharing of the buffers statement `op` accesses (None for a
  /// statement without data accesses).
  BufferSharing getStatementSharing(Operation *op);

private:
  AccessCollector collector;
  DenseMap<Value, BufferSharing> sharing;
};

} // namespace mlir::exogpu

#endif // EXOGPU_ANALYSIS_BUFFERSHARING_H
