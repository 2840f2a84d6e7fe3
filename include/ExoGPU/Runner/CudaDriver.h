//===- CudaDriver.h - host drivers for translated kernels -------*- C++ -*-===//
//
// Part of ExoGPU. Generates the host program that runs one proc, as
// `exogpu-translate --to-cuda` emits it, on a GPU against the inputs the
// sequential runner uses: it fills every input on the device with the
// runner's pcg3d fill (runtime/include/exogpu/fill.h) at a seed, or reads
// the .npy files the runner wrote, poisons the write-only outputs exactly as
// the runner does, calls the proc's host API on one stream, waits with a
// timeout (a hung kernel is reported, exit code 124) and writes the outputs
// as .npy files for `exogpu-run --expect-dir`; `--runs N` repeats this with
// seeds S, S + 1, ... (fresh inputs each run). Without a CUDA device it says
// so and exits with 77 (skipped). utils/gpu-check.py drives one round trip,
// utils/gpu-bundle.py the validation on a GPU machine without MLIR
// (docs/gpu-validation.md).
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_RUNNER_CUDADRIVER_H
#define EXOGPU_RUNNER_CUDADRIVER_H

#include "ExoGPU/Runner/BoundProc.h"

namespace mlir::exogpu::runner {

/// Writes the CUDA C++ driver of `proc` (described, not bound: the sizes are
/// the driver's command line) that includes `header`, the proc's host API
/// header.
void emitCudaDriver(llvm::raw_ostream &os, const BoundProc &proc,
                    StringRef header);

} // namespace mlir::exogpu::runner

#endif // EXOGPU_RUNNER_CUDADRIVER_H
