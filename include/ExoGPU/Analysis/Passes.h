//===- Passes.h - exogpu analysis passes ------------------------*- C++ -*-===//
//
// Part of ExoGPU. `--exogpu-collective-analysis` and
// `--exogpu-distributed-memory` (see Passes.td).
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_ANALYSIS_PASSES_H
#define EXOGPU_ANALYSIS_PASSES_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::exogpu {

#define GEN_PASS_DECL
#include "ExoGPU/Analysis/Passes.h.inc"

/// Generates `registerExoGPUAnalysisPasses()`, the library's one entry
/// point: registers both passes with the global pass registry.
#define GEN_PASS_REGISTRATION
#include "ExoGPU/Analysis/Passes.h.inc"

} // namespace mlir::exogpu

#endif // EXOGPU_ANALYSIS_PASSES_H
