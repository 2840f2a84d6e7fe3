//===- Comparison.h - compare outputs within a tolerance --------*- C++ -*-===//
//
// Part of ExoGPU. Holds one output array against a reference (another
// proc's meaning, or a GPU run's .npy): the Frobenius and the largest
// elementwise relative errors against tolerances set by the arithmetic the
// output was computed in, and the first element that differs.
// docs/running.md gives the definitions.
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_RUNNER_COMPARISON_H
#define EXOGPU_RUNNER_COMPARISON_H

#include "ExoGPU/Runner/HostArray.h"

namespace mlir::exogpu::runner {

/// The arithmetic a result was computed in, which sets the tolerance: the
/// output's own precision, or a coarser one its producer used (tf32 tensor
/// cores write f32 outputs).
enum class ToleranceClass { Exact, F64, F32, TF32, F16, BF16 };

/// The class of `name` ("f32", "tf32", "bf16", "f16", "f64", "exact").
std::optional<ToleranceClass> parseToleranceClass(StringRef name);

/// The class of outputs of `precision` when nothing else is known.
ToleranceClass getDefaultToleranceClass(Precision precision);

/// The relative (Frobenius) tolerance for results of `cls` that sum up to
/// `sumLength` terms: base * sqrt(max(1, sumLength / 256)) with bases f64
/// 1e-12, f32 1e-5, f16 1e-3, tf32 3e-3, bf16 1e-2; 0 for Exact.
double getTolerance(ToleranceClass cls, int64_t sumLength);

/// The outcome of comparing one array with a reference.
struct Comparison {
  /// ||got - want||_F / ||want||_F.
  double frobeniusError = 0;
  /// max_i |got_i - want_i| / max(|want_i|, rms(want)).
  double maxElementError = 0;
  int64_t nanCount = 0;
  /// The first element (row-major) that is NaN in either array or whose
  /// elementwise error exceeds elementTolerance; -1 if none.
  int64_t firstBad = -1;
  double tolerance = 0;
  /// The tolerance scaled by sqrt(2 ln n) (at least 1), the expected largest
  /// of n errors of the typical size.
  double elementTolerance = 0;

  bool passed() const { return firstBad < 0 && frobeniusError <= tolerance; }
};

/// Compares `got` with `want` (same precision and shape) at `tolerance`.
Comparison compareArrays(const HostArray &got, const HostArray &want,
                         double tolerance);

/// Prints one line `name: Frobenius error ... (tolerance ...), max
/// elementwise ... (tolerance ...): ok`, or on failure `FAILED` and a line
/// naming the first differing element and both values (`gotName` and
/// `wantName` label them).
void printComparison(llvm::raw_ostream &os, StringRef name,
                     const Comparison &comparison, const HostArray &got,
                     const HostArray &want, StringRef gotName,
                     StringRef wantName);

} // namespace mlir::exogpu::runner

#endif // EXOGPU_RUNNER_COMPARISON_H
