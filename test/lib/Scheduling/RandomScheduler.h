//===- RandomScheduler.h - random checked rewrites of a proc ----*- C++ -*-===//
//
// Part of ExoGPU (test support). Picks random scheduling rewrites with
// random targets and parameters (expressions written as a script would
// write them, over the names visible at the target) and applies them to one
// proc through the rewrite library. The differential fuzzer of the
// rewrites (utils/fuzz-schedules.py, --exogpu-test-random-schedule) uses it:
// a refused attempt must leave the module unchanged, an applied one must
// keep the proc valid and its sequential meaning.
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_TEST_LIB_SCHEDULING_RANDOMSCHEDULER_H
#define EXOGPU_TEST_LIB_SCHEDULING_RANDOMSCHEDULER_H

#include "ExoGPU/Dialect/ExoGPU/IR/ExoGPUOps.h"
#include "ExoGPU/Transforms/Scheduling/Refusal.h"
#include "mlir/IR/PatternMatch.h"

#include <optional>
#include <random>
#include <string>

namespace mlir::exogpu::test {

/// One attempted rewrite: its name, its target and parameters (for a
/// trace), and whether it applied.
struct RewriteAttempt {
  std::string name;
  std::string detail;
  bool applied = false;
  /// Why it was refused (the first line of the explanation).
  std::string reason;
};

/// Applies random rewrites to one proc.
class RandomScheduler {
public:
  RandomScheduler(ProcOp proc, unsigned seed);

  /// Tries one random rewrite; none when the proc offers no target for the
  /// rewrite drawn.
  std::optional<RewriteAttempt> step();

private:
  // Random choices.
  unsigned below(unsigned n);
  bool chance(unsigned percent) { return below(100) < percent; }
  template <typename T> T pick(ArrayRef<T> items) {
    return items[below(items.size())];
  }
  std::string freshName() { return "r" + std::to_string(nextName++); }

  // Targets.
  SmallVector<Operation *> statements();
  SmallVector<ForOp> seqLoops();
  template <typename OpT> SmallVector<Operation *> opsOf() {
    SmallVector<Operation *> ops;
    proc.walk([&](OpT op) { ops.push_back(op); });
    return ops;
  }
  /// `first` and up to `extra` statements after it in its block.
  SmallVector<Operation *> blockFrom(Operation *first, unsigned extra);

  // Parameters, written as text and parsed at the target.
  SmallVector<std::string> controlNames(Operation *at);
  std::string randomExprText(Operation *at);
  std::string randomWindowText(Operation *at, Value buffer);
  SmallVector<Value> visibleRootBuffers(Operation *at);

  // The rewrites, grouped as in the library.
  std::optional<RewriteAttempt> tryLoopRewrite(unsigned which);
  std::optional<RewriteAttempt> tryStatementRewrite(unsigned which);
  std::optional<RewriteAttempt> tryBufferRewrite(unsigned which);
  std::optional<RewriteAttempt> tryProcRewrite(unsigned which);

  ProcOp proc;
  std::mt19937 rng;
  IRRewriter rewriter;
  /// The explanation of the attempt in progress.
  Refusal refusal;
  unsigned nextName = 0;
};

} // namespace mlir::exogpu::test

#endif // EXOGPU_TEST_LIB_SCHEDULING_RANDOMSCHEDULER_H
