//===- Comparison.cpp - compare outputs within a tolerance ----------------===//
//
// Part of ExoGPU. See Comparison.h.
//
//===----------------------------------------------------------------------===//

#include "ExoGPU/Runner/Comparison.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Format.h"

#include <cmath>

using namespace mlir;
using namespace mlir::exogpu::runner;

std::optional<ToleranceClass>
mlir::exogpu::runner::parseToleranceClass(StringRef name) {
  return llvm::StringSwitch<std::optional<ToleranceClass>>(name)
      .Case("exact", ToleranceClass::Exact)
      .Case("f64", ToleranceClass::F64)
      .Case("f32", ToleranceClass::F32)
      .Case("tf32", ToleranceClass::TF32)
      .Case("f16", ToleranceClass::F16)
      .Case("bf16", ToleranceClass::BF16)
      .Default(std::nullopt);
}

ToleranceClass
mlir::exogpu::runner::getDefaultToleranceClass(Precision precision) {
  switch (precision) {
  case Precision::F16:
    return ToleranceClass::F16;
  case Precision::BF16:
    return ToleranceClass::BF16;
  case Precision::F32:
    return ToleranceClass::F32;
  case Precision::F64:
    return ToleranceClass::F64;
  default:
    return ToleranceClass::Exact;
  }
}

double mlir::exogpu::runner::getTolerance(ToleranceClass cls,
                                          int64_t sumLength) {
  double base = 0;
  switch (cls) {
  case ToleranceClass::Exact:
    return 0;
  case ToleranceClass::F64:
    base = 1e-12;
    break;
  case ToleranceClass::F32:
    base = 1e-5;
    break;
  case ToleranceClass::F16:
    base = 1e-3;
    break;
  case ToleranceClass::TF32:
    // Tensor cores truncate f32 inputs to tf32 (10 explicit bits): each
    // product is off by up to 2^-9, biased toward zero.
    base = 3e-3;
    break;
  case ToleranceClass::BF16:
    base = 1e-2;
    break;
  }
  // Rounding errors of a sum of n terms grow like sqrt(n) for inputs of
  // random sign (both the error and the result's magnitude are random
  // walks, the error's steps u times smaller).
  return base * std::sqrt(std::max(1.0, sumLength / 256.0));
}

Comparison mlir::exogpu::runner::compareArrays(const HostArray &got,
                                               const HostArray &want,
                                               double tolerance) {
  Comparison result;
  int64_t n = want.getNumElements();
  result.tolerance = tolerance;
  result.elementTolerance =
      tolerance * std::max(1.0, std::sqrt(2.0 * std::log(double(n))));
  double wantNorm = 0, diffNorm = 0;
  for (int64_t i = 0; i < n; ++i) {
    double w = want.get(i), g = got.get(i);
    if (std::isnan(w) || std::isnan(g))
      continue;
    wantNorm += w * w;
    diffNorm += (g - w) * (g - w);
  }
  // Elements far below the typical magnitude are held to the typical
  // magnitude (cancellation makes their own relative error meaningless).
  double rms = n ? std::sqrt(wantNorm / n) : 0;
  for (int64_t i = 0; i < n; ++i) {
    double w = want.get(i), g = got.get(i);
    bool bad = false;
    if (std::isnan(w) || std::isnan(g)) {
      ++result.nanCount;
      bad = true;
    } else if (g != w) {
      double scale = std::max(std::abs(w), rms);
      double error = scale > 0 && std::isfinite(scale) ? std::abs(g - w) / scale
                                                       : INFINITY;
      if (std::isnan(error)) // inf - inf
        error = INFINITY;
      result.maxElementError = std::max(result.maxElementError, error);
      bad = error > result.elementTolerance;
    }
    if (bad && result.firstBad < 0)
      result.firstBad = i;
  }
  if (diffNorm == 0)
    result.frobeniusError = 0;
  else if (wantNorm == 0 || !std::isfinite(diffNorm) ||
           !std::isfinite(wantNorm))
    result.frobeniusError = INFINITY;
  else
    result.frobeniusError = std::sqrt(diffNorm / wantNorm);
  return result;
}

void mlir::exogpu::runner::printComparison(
    llvm::raw_ostream &os, StringRef name, const Comparison &comparison,
    const HostArray &got, const HostArray &want, StringRef gotName,
    StringRef wantName) {
  os << name
     << llvm::format(": Frobenius error %.3g (tolerance %.3g), max elementwise "
                     "%.3g (tolerance %.3g)",
                     comparison.frobeniusError, comparison.tolerance,
                     comparison.maxElementError, comparison.elementTolerance);
  if (comparison.nanCount)
    os << ", " << comparison.nanCount << " NaN(s)";
  if (comparison.passed()) {
    os << ": ok\n";
    return;
  }
  os << ": FAILED\n";
  if (comparison.firstBad < 0)
    return;
  int64_t i = comparison.firstBad;
  os << llvm::format("  first difference at %s%s: %s %.9g, %s %.9g\n",
                     name.str().c_str(), got.formatIndex(i).c_str(),
                     gotName.str().c_str(), got.get(i), wantName.str().c_str(),
                     want.get(i));
}
