//===- ExoGPUToExoAM.h - GPU IR to abstract machine IR ----------*- C++ -*-===//
//
// Part of ExoGPU. The translation T_s of seeds/002 Sec. 5.2 (Fig. 5, 17-20)
// from exogpu procs to exoam procs, with the two preprocessing steps of
// Sec. 5.2: window statements are inlined (accesses through a window become
// accesses of the windowed variable) and calls of procs outside device
// functions are inlined.
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_CONVERSION_EXOGPUTOEXOAM_H
#define EXOGPU_CONVERSION_EXOGPUTOEXOAM_H

#include "ExoGPU/Analysis/CollectiveAnalysis.h"
#include "ExoGPU/Dialect/ExoAM/IR/ExoAMOps.h"
#include "ExoGPU/Dialect/ExoGPU/IR/ExoGPUOps.h"

namespace mlir::exogpu {

/// Translates `proc` to an exoam.proc of the same name created at the
/// insertion point of `builder`. Thread mappings come from `analysis`, which
/// must have been computed on a root containing `proc` and every proc it
/// calls. Statements the translation cannot express (a proc call inside a
/// device function, recursion, a statement without a collective tiling)
/// are reported as errors at the exogpu op, and the result is failure.
FailureOr<exoam::ProcOp> convertProcToExoAM(ProcOp proc,
                                            const CollectiveAnalysis &analysis,
                                            OpBuilder &builder);

} // namespace mlir::exogpu

#endif // EXOGPU_CONVERSION_EXOGPUTOEXOAM_H
