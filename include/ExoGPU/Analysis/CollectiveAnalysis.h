//===- CollectiveAnalysis.h - which threads run each statement --*- C++ -*-===//
//
// Part of ExoGPU. Collective analysis (seeds/002 Sec. 4): a forward pass over
// a proc that gives every scope inside a device_function its collective
// tiling. New tilings are derived at device_function (the top-level tiling),
// cuda_threads loops and warps blocks; every other statement inherits its
// parent's. Also checks the static rules that depend on tilings: thread
// counts of cuda_threads loops, warps ranges, instruction collective units
// (Sec. 3.4), single-thread scalar writes (guide "cuda_threads Loops") and
// cluster syncs at cluster scope.
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_ANALYSIS_COLLECTIVEANALYSIS_H
#define EXOGPU_ANALYSIS_COLLECTIVEANALYSIS_H

#include "ExoGPU/Analysis/CollectiveTiling.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/DenseMap.h"

#include <memory>
#include <vector>

namespace mlir::exogpu {

/// An error an analysis found; its pass emits it (see emitDiagnostics).
struct AnalysisDiagnostic {
  Location loc;
  std::string message;
  /// Notes attached to the error, each with its location.
  SmallVector<std::pair<Location, std::string>, 1> notes;
};

/// Emits `diagnostics` as errors with their notes.
void emitDiagnostics(ArrayRef<AnalysisDiagnostic> diagnostics);

/// What a cuda_threads iterator does to tiles: its tiling operator
/// `parentTileThreads -> tileThreads` (guide, distributed memory rule 2),
/// the number of tiles and their thread pitch.
struct IteratorInfo {
  int64_t parentTileThreads = 0;
  int64_t tileThreads = 0;
  int64_t tileCount = 1;
  int64_t threadPitch = 0;
  /// The tiling of the loop body.
  const CollTiling *bodyTiling = nullptr;
};

/// Collective tilings of every statement inside the device functions of a
/// root op (an exogpu.proc, or any op containing procs). Usable with
/// `getAnalysis<CollectiveAnalysis>()`.
class CollectiveAnalysis {
public:
  explicit CollectiveAnalysis(Operation *root);

  /// The tiling under which `op` executes; null at CPU scope or below a
  /// scope whose tiling could not be derived (see getDiagnostics).
  const CollTiling *getTiling(Operation *op) const;

  /// The tiling of the body of a scope op (for, if, warps,
  /// device_function); null as for getTiling.
  const CollTiling *getBodyTiling(Operation *scope) const;

  /// The collective parameters of the device function enclosing `op`.
  std::optional<CollParams> getParams(Operation *op) const;

  /// The tiling operator of a cuda_threads iterator.
  std::optional<IteratorInfo> getIteratorInfo(Value iterator) const;

  /// The thread mapping f_omega (Sec. 4): the natural thread indices that
  /// execute `op` when the enclosing cuda_threads iterators have the given
  /// values. Fails (with `reason`) for CPU-scope ops, unknown tilings,
  /// missing or out-of-range iterator values.
  FailureOr<ThreadSet> threadsOf(Operation *op,
                                 const DenseMap<Value, int64_t> &iteratorValues,
                                 std::string *reason = nullptr) const;

  /// Where the operator that a cuda_threads loop or warps block appended to
  /// the tiling of its body sits in that tiling: (dimension, position in the
  /// dimension's operators). Nullopt for a trivial tiling (the unit is the
  /// scope's whole collective) and for scopes without a tiling.
  std::optional<std::pair<unsigned, unsigned>>
  getScopeOperator(Operation *scope) const;

  /// The errors found.
  ArrayRef<AnalysisDiagnostic> getDiagnostics() const { return diagnostics; }

private:
  const CollTiling *addTiling(CollTiling tiling);
  const CollTiling *addDerived(Operation *scope, DerivedTiling derived);
  void visitDeviceFunction(Operation *deviceFunction);
  void visitBlock(Block &block, const CollTiling *tiling, CollParams params);
  void visitOp(Operation &op, const CollTiling *tiling, CollParams params);
  const CollTiling *deriveLoop(Operation *loop, const CollTiling &tiling,
                               CollParams params);
  const CollTiling *deriveWarps(Operation *warps, const CollTiling &tiling,
                                CollParams params);
  void checkCall(Operation *call, const CollTiling &tiling, CollParams params);
  void checkClusterSync(Operation *sync, const CollTiling &tiling,
                        CollParams params);
  void error(Operation *op, std::string message);

  std::vector<std::unique_ptr<CollTiling>> tilings;
  DenseMap<Block *, const CollTiling *> blockTilings;
  DenseMap<Operation *, CollParams> deviceParams;
  DenseMap<Operation *, std::pair<unsigned, unsigned>> scopeOperators;
  SmallVector<AnalysisDiagnostic> diagnostics;
};

} // namespace mlir::exogpu

#endif // EXOGPU_ANALYSIS_COLLECTIVEANALYSIS_H
