//===- PeriodicLoop.h - loops that reach a steady state ---------*- C++ -*-===//
//
// Part of ExoGPU. The box engine runs the iterations of a sequential loop
// whose body does the same thing every `period` iterations on windows that
// either stay where they are (*fixed* variables: shared-memory stages,
// accumulators, barriers) or move by one vector per period (*moving*
// variables: the global tiles a K loop streams through) in bulk once the loop
// has reached a steady state: one period leaves the fixed variables as it
// found them, leaves its moving windows as the period before left its own,
// and changes nothing else. Every later period then does the same, moved
// along, as long as its guards take the same values and the windows it
// moves into hold what the watched period found in its own; so the states
// the watched period left on its moving windows are copied, translated, to
// the windows of the periods skipped (docs/abstract-machine.md "Loops in a
// steady state"). The reference engine never does.
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_LIB_ABSTRACTMACHINE_PERIODICLOOP_H
#define EXOGPU_LIB_ABSTRACTMACHINE_PERIODICLOOP_H

#include "ExoGPU/AbstractMachine/SyncStore.h"
#include "ExoGPU/Dialect/ExoAM/IR/ExoAMOps.h"
#include "WindowUnion.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"

namespace mlir::exoam {

/// The static conditions under which a loop with iterator y may run in a
/// steady state, and the facts its run needs:
///  * the loop is not a task loop; its body (nested statements included)
///    starts no task and runs nothing on the CPU (a CPU lift reaches every
///    record);
///  * there is a *period* p such that every control expression of the body
///    that uses y changes by a constant when y grows by p (y in linear terms,
///    or under mod and divisions that p makes regular; getPeriodShift);
///  * no thread mapping uses y, and no inner loop bound, ALLOC extent,
///    barrier access or bounds check changes with y;
///  * per variable, every access moves by the same vector per period: zero
///    (a fixed variable) or non-zero in exactly one dimension (a moving one);
///  * a guard relation that changes with y compares expressions of y and of
///    values defined outside the loop only (so that its value along the
///    periods can be computed without running them).
class PeriodicLoopPlan {
public:
  /// The plan of `loop`, or nothing if it cannot run in a steady state.
  static std::optional<PeriodicLoopPlan> analyze(LoopOp loop);

  int64_t getPeriod() const { return period; }

  /// How a moving variable's windows move from one period to the next.
  struct Motion {
    unsigned dim;
    int64_t step;
  };
  /// The motion of `var`, or null for a fixed (or untouched) variable.
  const Motion *getMotion(StringAttr var) const {
    auto it = motions.find(var);
    return it == motions.end() ? nullptr : &it->second;
  }
  /// The translation of `var`'s windows (of rank `rank`) over `periods`
  /// periods (zero for a fixed variable; the caller bounds the product).
  SmallVector<int64_t> getShift(StringAttr var, unsigned rank,
                                int64_t periods) const;

  /// How many periods after the one whose first iteration is `first` the
  /// body's guards keep the values they have in that period (each iteration
  /// compared with the one a whole number of periods before); `valueOf`
  /// gives the values of the control values defined outside the loop, and
  /// the answer is at most `limit`.
  int64_t countPeriodsWithSameGuards(int64_t first,
                                     function_ref<int64_t(Value)> valueOf,
                                     int64_t limit) const;

  /// The largest change per period of a subexpression that uses y: an
  /// intermediate value of magnitude m in one period has magnitude at most
  /// m + k * this, k periods later.
  int64_t getLargestShift() const { return largestShift; }

  /// A relation of a guard (exoam.if, exoam.check_condition) whose sides
  /// change differently with y: the op, the position of its left side in the
  /// condition's map, its kind.
  struct MovingRelation {
    Operation *op;
    exogpu::ConditionAttr condition;
    unsigned lhs;
    int64_t kind;
  };

private:
  Value iterator;
  int64_t period = 1;
  int64_t largestShift = 0;
  DenseMap<StringAttr, Motion> motions;
  SmallVector<MovingRelation> relations;
};

/// A copy of the states of a region of the store, box by box (records not
/// marked as indexed, ready to be installed elsewhere).
using StoreSnapshot = std::vector<std::pair<AccessWindow, ElementState>>;

/// The states of `region`.
StoreSnapshot takeSnapshot(SyncStore &store, const AccessWindow &region);

/// Whether every element of every box of `snapshot`, moved by `shift`
/// (empty: not moved), holds in `store` the state the snapshot gives it.
bool matchesSnapshot(SyncStore &store, const StoreSnapshot &snapshot,
                     ArrayRef<int64_t> shift = {});

/// Gives every element of every box of `snapshot`, moved by `shift`, the
/// state the snapshot gives it (equal states share a cell).
void installSnapshot(SyncStore &store, const StoreSnapshot &snapshot,
                     ArrayRef<int64_t> shift);

/// How many of the `limit` slabs after `slab` (moving by `motion`) hold,
/// element for element, the states `start` gives `slab` (a snapshot of it):
/// the number of consecutive ones from the next.
int64_t countMatchingSlabs(SyncStore &store, const StoreSnapshot &start,
                           const AccessWindow &slab,
                           const PeriodicLoopPlan::Motion &motion,
                           int64_t limit);

/// Gives the `periods` slabs after `slab` the states `end` gives `slab`,
/// moved along.
void installSlabs(SyncStore &store, const StoreSnapshot &end,
                  const AccessWindow &slab,
                  const PeriodicLoopPlan::Motion &motion, int64_t periods);

/// Where the period after a tracked one may touch the store: per variable
/// the previous period's bounding box (a fixed variable) or the *slab* after
/// the previous one (a moving variable: its windows' bounding box, widened
/// in the moving dimension to the step, so that the slabs of successive
/// periods tile that dimension), and the previous slabs.
struct PeriodRegions {
  llvm::MapVector<StringAttr, AccessWindow> regions;
  llvm::MapVector<StringAttr, AccessWindow> previousSlabs;
};

/// What one period of a loop with a plan touched: per variable the bounding
/// box of its windows (ALLOCs included), and, for the moving variables, the
/// windows it probed and recorded on while a task was recorded (to tell the
/// task recorder of the periods run in bulk). Once given the regions the
/// period was predicted to stay in, it notes whether a window escaped them.
class PeriodTracker {
public:
  explicit PeriodTracker(const PeriodicLoopPlan &plan) : plan(plan) {}

  /// An access (or ALLOC) window evaluated in the period.
  void noteWindow(const AccessWindow &window);
  /// What the task recorder was told of a moving variable's window (the
  /// number of the call, TaskRecorder::noteEffect).
  void noteRecorderCall(unsigned call, const AccessWindow &window);

  /// The period may touch only these regions (one box per variable).
  void expectRegions(const llvm::MapVector<StringAttr, AccessWindow> &regions) {
    expected.clear();
    for (const auto &[var, region] : regions)
      expected[var] = region;
    predicted = true;
  }
  bool escaped() const { return escapedRegions; }

  /// The regions the next period should stay in (PeriodRegions): nothing if
  /// a moving variable's windows span more than its step.
  std::optional<PeriodRegions> predictNext() const;

  /// The bounding boxes of the windows, per variable, in first-touch order.
  const llvm::MapVector<StringAttr, AccessWindow> &getBounds() const {
    return bounds;
  }
  /// The recorder calls on moving variables, coalesced per call.
  const llvm::MapVector<unsigned, WindowUnion> &getRecorderCalls() const {
    return recorderCalls;
  }

private:
  const PeriodicLoopPlan &plan;
  llvm::MapVector<StringAttr, AccessWindow> bounds;
  llvm::MapVector<unsigned, WindowUnion> recorderCalls;
  DenseMap<StringAttr, AccessWindow> expected;
  bool predicted = false, escapedRegions = false;
};

} // namespace mlir::exoam

#endif // EXOGPU_LIB_ABSTRACTMACHINE_PERIODICLOOP_H
