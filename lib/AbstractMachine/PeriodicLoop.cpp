//===- PeriodicLoop.cpp - loops that reach a steady state -----------------===//
//
// Part of ExoGPU. The static analysis of a loop that may run in a steady
// state (see PeriodicLoop.h), the values of its guards along the periods,
// and the snapshots of the store its run compares and copies; the run itself
// is the interpreter's (Interpreter.cpp, execPeriodicLoop).
//
//===----------------------------------------------------------------------===//

#include "PeriodicLoop.h"
#include "ExoGPU/Dialect/ExoGPU/IR/ControlExpr.h"
#include "StatementInfo.h"
#include "llvm/Support/MathExtras.h"

#include <numeric>

using namespace mlir;
using namespace mlir::exoam;
using exogpu::ConditionAtomKind;

namespace {
/// One pass over a loop body for a candidate period.
class PlanBuilder {
public:
  PlanBuilder(LoopOp loop, int64_t period) : loop(loop), period(period) {}

  /// Whether the body qualifies with this period; fills the shifts.
  bool analyze();

  DenseMap<StringAttr, SmallVector<int64_t>> shifts;
  SmallVector<PeriodicLoopPlan::MovingRelation> relations;
  /// The largest change per period of a subexpression that uses y.
  int64_t largestShift = 0;

private:
  bool analyzeOp(Operation *op);
  /// The change of `expr` per period, noting the largest change of its
  /// subexpressions.
  std::optional<int64_t> shiftOf(AffineExpr expr);
  bool analyzeCondition(Operation *op, exogpu::ConditionAttr condition);
  bool analyzeAccess(StringAttr name, AccessAttr access, bool mustStay);
  bool isDefinedOutside(Value value) const {
    return !loop->isAncestor(value.getParentRegion()->getParentOp());
  }

  LoopOp loop;
  int64_t period;
  SmallVector<int> iteratorOf;
};
} // namespace

std::optional<int64_t> PlanBuilder::shiftOf(AffineExpr expr) {
  return getPeriodShift(expr, iteratorOf, period, &largestShift);
}

bool PlanBuilder::analyzeCondition(Operation *op,
                                   exogpu::ConditionAttr condition) {
  AffineMap map = condition.getMap();
  unsigned next = 0;
  for (int64_t raw : condition.getAtoms()) {
    auto kind = static_cast<ConditionAtomKind>(raw);
    if (kind == ConditionAtomKind::Bool) {
      ++next; // an i1 operand: never y
      continue;
    }
    if (kind == ConditionAtomKind::True || kind == ConditionAtomKind::False ||
        kind == ConditionAtomKind::Or)
      continue;
    unsigned lhs = next;
    next += 2;
    std::optional<int64_t> left = shiftOf(map.getResult(lhs));
    std::optional<int64_t> right = shiftOf(map.getResult(lhs + 1));
    if (!left || !right)
      return false;
    if (*left == *right)
      continue; // the same in every period
    // Its values along the periods are computed from y and outer values.
    for (unsigned side : {lhs, lhs + 1}) {
      bool outer = true;
      map.getResult(side).walk([&](AffineExpr sub) {
        auto dim = dyn_cast<AffineDimExpr>(sub);
        if (!dim)
          return;
        Value operand = op->getOperand(dim.getPosition());
        outer &= operand == loop.getIterator() || isDefinedOutside(operand);
      });
      if (!outer)
        return false;
    }
    relations.push_back({op, condition, lhs, raw});
  }
  return true;
}

bool PlanBuilder::analyzeAccess(StringAttr name, AccessAttr access,
                                bool mustStay) {
  std::optional<SmallVector<int64_t>> perDim =
      getAccessPeriodShifts(access, iteratorOf, period, &largestShift);
  if (!perDim)
    return false;
  bool moves = llvm::any_of(*perDim, [](int64_t s) { return s != 0; });
  // Barriers and the observed ones stay; so do bounds checks and ALLOCs.
  if (moves && (mustStay || name != "target"))
    return false;
  auto [it, inserted] = shifts.try_emplace(access.getVar(), *perDim);
  return inserted || it->second == *perDim;
}

bool PlanBuilder::analyzeOp(Operation *op) {
  if (!isa<LoopOp, IfOp, AllocOp, CheckReadsOp, CheckMutatesOp, ClearReadsOp,
           ClearMutatesOp, RecordReadOp, RecordMutateOp, FenceOp, ArriveOp,
           AwaitOp, CheckBarrierOp, CheckConditionOp, CheckBoundsOp>(op))
    return false; // inc_task_id, or an op the machine does not know
  iteratorOf = getIteratorMap(op, loop.getIterator());
  if (ThreadMappingAttr threads = getThreadMapping(op))
    if (threads.getScope() == ExecScope::cpu ||
        usesIterator(threads, iteratorOf))
      return false;
  if (auto inner = dyn_cast<LoopOp>(op))
    for (AffineExpr bound : inner.getBounds().getResults())
      if (shiftOf(bound) != 0)
        return false;
  if (auto guard = dyn_cast<IfOp>(op))
    if (!analyzeCondition(op, guard.getCondition()))
      return false;
  if (auto check = dyn_cast<CheckConditionOp>(op))
    if (!analyzeCondition(op, check.getCondition()))
      return false;
  bool mustStay = isa<AllocOp, CheckBoundsOp>(op);
  bool ok = true;
  forEachAccess(op, [&](StringAttr name, AccessAttr access) {
    ok = ok && analyzeAccess(name, access, mustStay);
  });
  return ok;
}

bool PlanBuilder::analyze() {
  if (isTaskLoop(loop))
    return false;
  WalkResult walked = loop.getBody().walk([&](Operation *op) {
    return analyzeOp(op) ? WalkResult::advance() : WalkResult::interrupt();
  });
  return !walked.wasInterrupted();
}

/// The candidate periods of `loop`: 1, the least common multiple of the
/// divisors of its mod and division terms in y, and their product (which
/// makes nested ones regular too), at most 64.
static SmallVector<int64_t> getCandidatePeriods(LoopOp loop) {
  SmallVector<int64_t> divisors;
  Value iterator = loop.getIterator();
  loop.getBody().walk([&](Operation *op) {
    SmallVector<int> iteratorOf = getIteratorMap(op, iterator);
    auto collect = [&](AffineMap map) {
      for (AffineExpr expr : map.getResults())
        collectIteratorDivisors(expr, iteratorOf, divisors);
    };
    for (NamedAttribute attr : op->getAttrs()) {
      if (auto map = dyn_cast<AffineMapAttr>(attr.getValue()))
        collect(map.getValue());
      else if (auto condition =
                   dyn_cast<exogpu::ConditionAttr>(attr.getValue()))
        collect(condition.getMap());
    }
    forEachAccess(op, [&](StringAttr, AccessAttr access) {
      collect(access.getCoords());
    });
  });
  constexpr int64_t kLongestPeriod = 64;
  SmallVector<int64_t> candidates{1};
  int64_t lcm = 1, product = 1;
  for (int64_t d : divisors) {
    // (A divisor past the longest period makes both candidates longer.)
    if (d > kLongestPeriod)
      return candidates;
    lcm = std::lcm(lcm, d);
    if (lcm > kLongestPeriod)
      return candidates;
    product = std::min(product * d, kLongestPeriod + 1);
  }
  for (int64_t p : {lcm, product})
    if (p <= kLongestPeriod && !llvm::is_contained(candidates, p))
      candidates.push_back(p);
  return candidates;
}

std::optional<PeriodicLoopPlan> PeriodicLoopPlan::analyze(LoopOp loop) {
  for (int64_t period : getCandidatePeriods(loop)) {
    PlanBuilder builder(loop, period);
    if (!builder.analyze())
      continue;
    PeriodicLoopPlan plan;
    plan.iterator = loop.getIterator();
    plan.period = period;
    plan.largestShift = builder.largestShift;
    for (auto &[var, shift] : builder.shifts) {
      unsigned moving = 0;
      for (auto [dim, step] : llvm::enumerate(shift))
        if (step != 0) {
          ++moving;
          plan.motions[var] = Motion{static_cast<unsigned>(dim), step};
        }
      if (moving > 1)
        return std::nullopt; // a diagonal motion: no tiling by slabs
    }
    plan.relations = std::move(builder.relations);
    return plan;
  }
  return std::nullopt;
}

SmallVector<int64_t> PeriodicLoopPlan::getShift(StringAttr var, unsigned rank,
                                                int64_t periods) const {
  SmallVector<int64_t> shift(rank, 0);
  if (const Motion *motion = getMotion(var); motion && motion->dim < rank)
    shift[motion->dim] = motion->step * periods;
  return shift;
}

/// The first k >= 1 at which `e0 + k * delta < 0` differs from its value at
/// k = 0, or nothing if it never does.
static std::optional<__int128> firstChangeOfNegative(__int128 e0,
                                                     __int128 delta) {
  if (e0 < 0 && delta > 0)
    return (-e0 + delta - 1) / delta; // the first k with e0 + k delta >= 0
  if (e0 >= 0 && delta < 0)
    return e0 / -delta + 1; // the first k with e0 + k delta < 0
  return std::nullopt;
}

/// The first k >= 1 at which `lhs REL rhs` differs from its value at k = 0,
/// where lhs - rhs = e0 + k * delta (delta != 0).
static std::optional<__int128> firstChange(ConditionAtomKind kind, __int128 e0,
                                           __int128 delta) {
  switch (kind) {
  case ConditionAtomKind::Eq:
    if (e0 == 0)
      return 1;
    if (-e0 % delta == 0 && -e0 / delta >= 1)
      return -e0 / delta;
    return std::nullopt;
  case ConditionAtomKind::Lt: // e < 0
    return firstChangeOfNegative(e0, delta);
  case ConditionAtomKind::Le: // e - 1 < 0
    return firstChangeOfNegative(e0 - 1, delta);
  case ConditionAtomKind::Gt: // -e < 0
    return firstChangeOfNegative(-e0, -delta);
  case ConditionAtomKind::Ge: // -e - 1 < 0
    return firstChangeOfNegative(-e0 - 1, -delta);
  default:
    return 1; // (not a relation: not moving)
  }
}

int64_t PeriodicLoopPlan::countPeriodsWithSameGuards(
    int64_t first, function_ref<int64_t(Value)> valueOf, int64_t limit) const {
  int64_t periods = limit;
  for (const MovingRelation &relation : relations) {
    AffineMap map = relation.condition.getMap();
    SmallVector<int64_t> values;
    for (Value operand : relation.op->getOperands())
      values.push_back(operand == iterator ? 0 : valueOf(operand));
    for (int64_t r = 0; r < period; ++r) {
      // lhs - rhs in this period's iteration r and in the next period's.
      std::optional<int64_t> sides[2][2];
      for (int64_t k = 0; k < 2; ++k) {
        int64_t y;
        if (llvm::AddOverflow(first, r + k * period, y))
          return 0;
        for (auto [operand, value] :
             llvm::zip(relation.op->getOperands(), values))
          if (operand == iterator)
            value = y;
        for (unsigned side = 0; side < 2; ++side)
          sides[k][side] = exogpu::tryEvaluateControlExpr(
              map.getResult(relation.lhs + side), values);
      }
      if (!sides[0][0] || !sides[0][1] || !sides[1][0] || !sides[1][1])
        return 0;
      __int128 e0 = __int128(*sides[0][0]) - *sides[0][1];
      __int128 delta = __int128(*sides[1][0]) - *sides[1][1] - e0;
      if (delta == 0)
        continue;
      std::optional<__int128> change =
          firstChange(static_cast<ConditionAtomKind>(relation.kind), e0, delta);
      if (change && *change - 1 < periods)
        periods = static_cast<int64_t>(*change - 1);
    }
  }
  return periods;
}

//===----------------------------------------------------------------------===//
// Snapshots
//===----------------------------------------------------------------------===//

StoreSnapshot mlir::exoam::takeSnapshot(SyncStore &store,
                                        const AccessWindow &region) {
  StoreSnapshot snapshot;
  store.visitBoxes(
      region, [&](const AccessWindow &box, const ElementState &state) {
        snapshot.push_back({box, state});
        forEachRecordList(snapshot.back().second,
                          [](std::vector<VisibilityRecord> &records, bool) {
                            for (VisibilityRecord &record : records)
                              record.indexed = false;
                          });
      });
  return snapshot;
}

bool mlir::exoam::matchesSnapshot(SyncStore &store,
                                  const StoreSnapshot &snapshot,
                                  ArrayRef<int64_t> shift) {
  for (const auto &[box, state] : snapshot) {
    bool same = true;
    store.visitBoxes(shift.empty() ? box : translateWindow(box, shift),
                     [&](const AccessWindow &, const ElementState &held) {
                       same = same && isSameState(held, state);
                     });
    if (!same)
      return false;
  }
  return true;
}

void mlir::exoam::installSnapshot(SyncStore &store,
                                  const StoreSnapshot &snapshot,
                                  ArrayRef<int64_t> shift) {
  for (const auto &[box, state] : snapshot)
    store.update(
        translateWindow(box, shift),
        [&](ElementState &element) {
          element = state;
          return true;
        },
        /*share=*/true);
}

/// The slabs `first` to `last` after `slab` (which tile the moving
/// dimension) as one box.
static AccessWindow getSlabsAhead(const AccessWindow &slab,
                                  const PeriodicLoopPlan::Motion &motion,
                                  int64_t first, int64_t last) {
  AccessWindow slabs = slab;
  auto [lo, hi] = slab.ranges[motion.dim];
  slabs.ranges[motion.dim] =
      motion.step > 0 ? IntervalSet::Interval{lo + first * motion.step,
                                              hi + last * motion.step}
                      : IntervalSet::Interval{lo + last * motion.step,
                                              hi + first * motion.step};
  return slabs;
}

/// Whether `snapshot` is one state over all of `slab`.
static bool isUniform(const StoreSnapshot &snapshot, const AccessWindow &slab) {
  return snapshot.size() == 1 && snapshot.front().first.ranges == slab.ranges;
}

int64_t mlir::exoam::countMatchingSlabs(SyncStore &store,
                                        const StoreSnapshot &start,
                                        const AccessWindow &slab,
                                        const PeriodicLoopPlan::Motion &motion,
                                        int64_t limit) {
  if (limit <= 0)
    return 0;
  if (!isUniform(start, slab)) {
    SmallVector<int64_t> shift(slab.ranges.size(), 0);
    for (int64_t k = 1; k <= limit; ++k) {
      shift[motion.dim] = motion.step * k;
      if (!matchesSnapshot(store, start, shift))
        return k - 1;
    }
    return limit;
  }
  // One visit of all the slabs ahead: the first element (from the slab on)
  // that holds another state ends the run.
  const ElementState &state = start.front().second;
  int64_t matching = limit;
  auto [lo, hi] = slab.ranges[motion.dim];
  int64_t width = hi - lo + 1;
  store.visitBoxes(getSlabsAhead(slab, motion, 1, limit),
                   [&](const AccessWindow &box, const ElementState &held) {
                     if (isSameState(held, state))
                       return;
                     auto [first, last] = box.ranges[motion.dim];
                     int64_t distance =
                         motion.step > 0 ? first - hi : lo - last;
                     matching = std::min(matching, (distance - 1) / width);
                   });
  return matching;
}

void mlir::exoam::installSlabs(SyncStore &store, const StoreSnapshot &end,
                               const AccessWindow &slab,
                               const PeriodicLoopPlan::Motion &motion,
                               int64_t periods) {
  if (periods <= 0)
    return;
  if (isUniform(end, slab)) {
    installSnapshot(
        store, {{getSlabsAhead(slab, motion, 1, periods), end.front().second}},
        {});
    return;
  }
  SmallVector<int64_t> shift(slab.ranges.size(), 0);
  for (int64_t k = 1; k <= periods; ++k) {
    shift[motion.dim] = motion.step * k;
    installSnapshot(store, end, shift);
  }
}

//===----------------------------------------------------------------------===//
// PeriodTracker
//===----------------------------------------------------------------------===//

void PeriodTracker::noteWindow(const AccessWindow &window) {
  if (window.empty())
    return;
  auto [it, inserted] = bounds.try_emplace(window.var, window);
  AccessWindow &box = it->second;
  if (box.ranges.size() != window.ranges.size()) {
    escapedRegions = true; // (one variable with two ranks: ill-formed)
    return;
  }
  if (!inserted)
    for (auto [bound, range] : llvm::zip(box.ranges, window.ranges))
      bound = {std::min(bound.first, range.first),
               std::max(bound.second, range.second)};
  if (!predicted)
    return;
  auto region = expected.find(window.var);
  escapedRegions |= region == expected.end() ||
                    !isWithin(window.ranges, region->second.ranges);
}

void PeriodTracker::noteRecorderCall(unsigned call,
                                     const AccessWindow &window) {
  if (!window.empty() && plan.getMotion(window.var))
    recorderCalls[call].add(window);
}

std::optional<PeriodRegions> PeriodTracker::predictNext() const {
  PeriodRegions next;
  for (const auto &[var, box] : bounds) {
    const PeriodicLoopPlan::Motion *motion = plan.getMotion(var);
    if (!motion) {
      next.regions[var] = box;
      continue;
    }
    if (motion->dim >= box.ranges.size())
      return std::nullopt;
    AccessWindow slab = box;
    auto &[lo, hi] = slab.ranges[motion->dim];
    int64_t step = motion->step, width, nextLo, nextHi;
    // The windows of one period span at most the step, so that periods
    // touch disjoint slabs; the slab is then the step wide.
    if (llvm::SubOverflow(hi, lo, width) || width >= std::abs(step))
      return std::nullopt;
    if (step > 0 ? llvm::AddOverflow(lo, step - 1, hi)
                 : llvm::AddOverflow(hi, step + 1, lo))
      return std::nullopt;
    AccessWindow moved = slab;
    if (llvm::AddOverflow(lo, step, nextLo) ||
        llvm::AddOverflow(hi, step, nextHi))
      return std::nullopt;
    moved.ranges[motion->dim] = {nextLo, nextHi};
    next.previousSlabs[var] = slab;
    next.regions[var] = moved;
  }
  return next;
}
