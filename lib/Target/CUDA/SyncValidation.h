//===- SyncValidation.h - translation validation of synchronization -*- C++
//-*-===//
//
// Part of ExoGPU (internal to the CUDA translation). The translation
// validation of a kernel's synchronization: the lowered plan
// (LoweredSync.h) must keep, under the PTX memory model, every ordering
// that the synchronization check may rely on. docs/cuda-translation.md
// "Validation" gives the rules; in short, the validator walks the kernel in
// the order of its sequential program, as the abstract machine does, and
// for every access statement whose elements another thread may touch it
// tracks, per thread of the cluster, facts of two kinds:
//
//  * what the abstract machine may let the thread see (the witness sets of
//    seeds/002 Def. B.3, from the sync timelines of Fig. 16), and
//  * where the hardware may not have caught up with it: an asynchronous
//    access the thread has not waited for; an access the thread may see
//    that the elected issuer of its warp or warpgroup may not have in its
//    causality past; one that a thread of another CTA may not have
//    (neither release nor a cluster barrier made it visible at cluster
//    scope); one the thread holds only for the generic proxy (no
//    fence.proxy.async since); one that may not be complete.
//
// Each synchronization statement's lowering must then justify the
// abstract machine's meaning of it: a Fence's barrier must be executed by
// exactly the threads it names and contain each collective; an elected
// arrive may only stand for threads whose view its issuer holds; an arrive
// at another CTA must release at cluster scope and be acquired at cluster
// scope unless what it orders is complete and needs only order there;
// async-proxy accesses need a proxy fence after generic ones; async work
// must be waited for; every phase must count the arrivals it gets from
// exactly the CTAs the window names. The first ordering it cannot justify
// is reported with the access, the thread and the missing operation.
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_LIB_TARGET_CUDA_SYNCVALIDATION_H
#define EXOGPU_LIB_TARGET_CUDA_SYNCVALIDATION_H

#include "KernelStructure.h"
#include "LoweredSync.h"
#include "SharedMemoryPlan.h"

namespace mlir::exogpu::cuda {

/// Checks that the lowered synchronization of `kernel` keeps every ordering
/// the synchronization check may rely on. Reports the first ordering it
/// cannot justify as an error at the synchronization statement (with a note
/// at the access) and fails.
LogicalResult validateSynchronization(DeviceFunctionOp kernel,
                                      const CollectiveAnalysis &collective,
                                      const BufferSharingAnalysis &sharing,
                                      CollParams params,
                                      ArrayRef<RegisterBranch> branches,
                                      const LoweredKernel &lowered,
                                      const SharedMemoryPlan &plan);

} // namespace mlir::exogpu::cuda

#endif // EXOGPU_LIB_TARGET_CUDA_SYNCVALIDATION_H
