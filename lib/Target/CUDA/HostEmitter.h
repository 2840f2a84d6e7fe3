//===- HostEmitter.h - procs as host functions ------------------*- C++ -*-===//
//
// Part of ExoGPU (internal to the CUDA translation). See HostEmitter.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_LIB_TARGET_CUDA_HOSTEMITTER_H
#define EXOGPU_LIB_TARGET_CUDA_HOSTEMITTER_H

#include "FunctionEmitter.h"

namespace mlir::exogpu::cuda {

/// The declaration of the host function of `proc` (without `;`):
/// `cudaError_t name(cudaStream_t stream, int64_t M, const float *A, ...)`.
std::string getHostSignature(ProcOp proc);

/// Emits the host function of a proc; the kernels of its device functions
/// go to a separate stream, to be written before it.
class HostEmitter : public FunctionEmitter {
public:
  HostEmitter(ProcState &state, CodeWriter &out, raw_ostream &kernels);

  /// Emits the whole host function.
  LogicalResult emitProc();

protected:
  LogicalResult emitOp(Operation *op) override;
  /// Checks the split's extent in place (before any use of the split).
  LogicalResult checkSplitExtent(SplitOp split, AffineExpr remainder) override;

private:
  /// Whether a buffer of `extents` provably has at most INT32_MAX elements
  /// (kernels index it with int): one extent, a constant that fits or a
  /// size parameter (which the host function bounds).
  bool fitsInt32(ArrayRef<AffineExpr> extents);
  /// The element count of a buffer of `extents` as host C++ (saturating).
  std::string printElementCount(ArrayRef<AffineExpr> extents);
  /// Returns cudaErrorInvalidValue unless each of `remainders` (extents of
  /// split dimensions modulo their factors) is 0.
  void emitSplitChecks(ArrayRef<AffineExpr> remainders);

  LogicalResult emitAlloc(AllocOp alloc);
  LogicalResult emitTensorMap(WindowOp window);
  LogicalResult emitLaunch(DeviceFunctionOp deviceFunction);
  LogicalResult emitProcCall(CallOp call, ProcOp callee);

  raw_ostream &kernels;
};

} // namespace mlir::exogpu::cuda

#endif // EXOGPU_LIB_TARGET_CUDA_HOSTEMITTER_H
