//===- ControlBounds.h - 32-bit safety of a kernel's control values -*- C++
//-*-===//
//
// Part of ExoGPU (internal to the CUDA translation). Kernels compute control
// values (indices, loop bounds, window offsets) in `int`; the meaning
// computes them in 64 bits. The host function launching a kernel therefore
// bounds, from the values it passes (sizes, indices, its own iterators), the
// magnitude of every control expression the kernel evaluates and of every
// subexpression of it, and refuses the call (cudaErrorInvalidValue, as for a
// violated `requires`) when one could leave 32 bits
// (docs/cuda-translation.md "Arithmetic").
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_LIB_TARGET_CUDA_CONTROLBOUNDS_H
#define EXOGPU_LIB_TARGET_CUDA_CONTROLBOUNDS_H

#include "Translation.h"

namespace mlir::exogpu::cuda {

/// The host-code bounds of the control values of one kernel.
struct KernelControlBounds {
  /// C++ expressions (host code, int64_t, saturating) each bounding the
  /// magnitude of some of the kernel's control values; the call is valid
  /// when none exceeds INT32_MAX. Empty when every bound is a constant that
  /// fits.
  SmallVector<std::string> checks;
};

/// Bounds the control expressions `exprs` (over `state.space`) that a kernel
/// evaluates, given the values it receives from the host (`captured`).
/// Fails with a diagnostic at `loc` when a constant bound exceeds 32 bits.
FailureOr<KernelControlBounds>
boundKernelControlValues(ProcState &state, ArrayRef<AffineExpr> exprs,
                         ArrayRef<Value> captured, Location loc);

} // namespace mlir::exogpu::cuda

#endif // EXOGPU_LIB_TARGET_CUDA_CONTROLBOUNDS_H
