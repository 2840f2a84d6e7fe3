//===- SyncTimelines.h - sync timelines as qualitative sets -----*- C++ -*-===//
//
// Part of ExoGPU. The table of seeds/002 Fig. 16: each sync timeline as a
// transitivity flag and two sets of qualitative timelines, and the helpers of
// Fig. 18 that read it (T_tr, T_qfull, T_qtmp, T_qarr). How the table was
// reconstructed from the extracted text is explained in
// docs/abstract-machine.md.
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_DIALECT_EXOAM_IR_SYNCTIMELINES_H
#define EXOGPU_DIALECT_EXOAM_IR_SYNCTIMELINES_H

#include "ExoGPU/Dialect/ExoAM/IR/ExoAMAttrs.h"

namespace mlir::exoam {

/// T_tr: whether `timeline` is transitive (Fig. 16 `trnstv?`).
bool isTransitive(exogpu::SyncTimeline timeline);

/// T_qfull: the timelines marked "full" for `timeline`.
QualMask getFullTimelines(exogpu::SyncTimeline timeline);

/// T_qtmp: the timelines marked "temp." or "full" for `timeline`.
QualMask getTemporalTimelines(exogpu::SyncTimeline timeline);

/// T_qarr: the timeline an arrive with `timeline` records on its barrier.
exogpu::QualTimeline getArriveTimeline(exogpu::SyncTimeline timeline);

/// The timelines of a thread's own registers (cuda_in_order_rmem, wgmma's
/// register operands, wgmma_zero): a fence that orders only these needs no
/// rendezvous of its threads (docs/cuda-translation.md, "Fence").
QualMask getRegisterTimelines();

} // namespace mlir::exoam

#endif // EXOGPU_DIALECT_EXOAM_IR_SYNCTIMELINES_H
