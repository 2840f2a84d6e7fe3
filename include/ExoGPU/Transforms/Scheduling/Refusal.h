//===- Refusal.h - why a checked rewrite refused ----------------*- C++ -*-===//
//
// Part of ExoGPU. A checked scheduling rewrite either succeeds or leaves the
// IR untouched and explains why it refused: an error at the statement it
// was applied to, with notes at the conflicting accesses. The caller decides
// how to report it (a silenceable failure of a transform op, or nothing at
// all in the randomized scheduling test).
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_TRANSFORMS_SCHEDULING_REFUSAL_H
#define EXOGPU_TRANSFORMS_SCHEDULING_REFUSAL_H

#include "mlir/IR/Diagnostics.h"

#include <optional>

namespace mlir::exogpu {

/// The explanation of a refused rewrite.
class Refusal {
public:
  /// Starts (or restarts) the explanation: an error at `loc`.
  Diagnostic &at(Location loc) {
    diag.emplace(loc, DiagnosticSeverity::Error);
    return *diag;
  }
  /// Whether an explanation was given.
  bool hasReason() const { return diag.has_value(); }
  /// The explanation; `fallback` if none was given.
  Diagnostic take(Location fallback) {
    if (!diag)
      at(fallback) << "rewrite refused";
    Diagnostic result = std::move(*diag);
    diag.reset();
    return result;
  }

private:
  std::optional<Diagnostic> diag;
};

} // namespace mlir::exogpu

#endif // EXOGPU_TRANSFORMS_SCHEDULING_REFUSAL_H
