//===- BoundProc.h - a proc at concrete control values ----------*- C++ -*-===//
//
// Part of ExoGPU. What the runner and the driver generator know about a
// proc's parameters: names, kinds, and for data parameters their precision,
// access mode (ParamAccess.h) and, once the control parameters have values
// (`M=1024,N=64`), their extents. Binding checks the proc's `requires`
// clause (seeds/002 Fig. 2 `Proc`): a violated precondition is an error
// that names the values and the clause.
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_RUNNER_BOUNDPROC_H
#define EXOGPU_RUNNER_BOUNDPROC_H

#include "ExoGPU/Dialect/ExoGPU/IR/ParamAccess.h"
#include "ExoGPU/Runner/HostArray.h"

namespace mlir::exogpu::runner {

/// One parameter of a proc.
struct ParamInfo {
  /// The name without `%`.
  std::string name;
  ParamKind kind;
  /// Data parameters only: precision, access mode and extents (the extents
  /// once bound).
  Precision precision = Precision::F32;
  ParamAccessMode mode = ParamAccessMode::ReadOnly;
  /// In host memory (`DRAM`): the host API takes a host pointer.
  bool isHostMemory = false;
  /// The extents over the proc's parameters, and their values once bound.
  AffineMap extents;
  SmallVector<int64_t> shape;

  bool isData() const { return kind == ParamKind::data; }
};

/// A proc's parameters, and values of its control parameters.
class BoundProc {
public:
  /// Describes `proc`'s parameters. Fails on a data parameter whose
  /// precision the runner does not hold.
  static llvm::Expected<BoundProc> describe(ProcOp proc);

  /// Describes `proc` and binds its control parameters to `values`, a list
  /// `name=value` separated by commas (`true`/`false` or 1/0 for bools):
  /// every control parameter needs a value, sizes are positive, the
  /// precondition holds and every extent is non-negative.
  static llvm::Expected<BoundProc> bind(ProcOp proc, StringRef values);

  ProcOp getProc() const { return proc; }
  ArrayRef<ParamInfo> getParams() const { return params; }
  /// The value of each parameter (0 for data parameters).
  ArrayRef<int64_t> getValues() const { return values; }
  /// The control values as `M=1024, N=64`.
  std::string formatValues() const;

private:
  ProcOp proc;
  SmallVector<ParamInfo> params;
  SmallVector<int64_t> values;
};

/// Checks that `other` can run on `reference`'s arrays: the same parameter
/// kinds, and data parameters of the same precision and extents (memory
/// types may differ: they do not change values).
llvm::Error checkSameSignature(const BoundProc &reference,
                               const BoundProc &other);

} // namespace mlir::exogpu::runner

#endif // EXOGPU_RUNNER_BOUNDPROC_H
