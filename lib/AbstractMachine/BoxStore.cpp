//===- BoxStore.cpp - rho shared between elements with one history -------===//
//
// Part of ExoGPU. The fast storage of the synchronization environment
// (seeds/002 Def. 5.3), after the ideas of the project's design card
// ("Abstract machine performance"):
//  * windowed accesses are interpreted as boxes, not element by element:
//    each variable is a tree with one level per dimension, each level a
//    sorted list of disjoint index intervals; the leaves are cells holding
//    one state shared by every element of the leaf box. An update splits the
//    intervals at the box's bounds, replaces each distinct cell once (a
//    memo maps old cell to new cell) and merges neighbours that became
//    equal;
//  * lifts (Def. B.2) change only records that the lift's witness can see
//    (Fig. 22 FENCE, ARRIVE: a record some executing thread sees at
//    unordered or above) or that observed the awaited barrier at a count
//    at most Max (AWAIT). Indexes from task to cells with such records and
//    from barrier element and count to observing cells select them; a lift
//    mutates those cells in place, which changes every element sharing
//    them, as the pointwise lift does;
//  * a lift repeated with the same signature visits only the cells whose
//    records changed since its previous run (a change log; AWAIT also the
//    cells that observed a count between the two Maxes): on the others the
//    previous run left nothing to do.
// The indexes and the log may hold cells that no longer qualify (or were
// recycled): visiting one is harmless, since the lambda is the identity on
// it or finds nothing left to do.
//
//===----------------------------------------------------------------------===//

#include "BoxTree.h"
#include "ExoGPU/AbstractMachine/SyncStore.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <limits>
#include <set>
#include <unordered_map>

using namespace mlir;
using namespace mlir::exoam;

namespace {

/// A cell id; 0 is the shared empty state.
using CellId = uint32_t;
constexpr CellId kEmpty = 0;

/// The number of a change: its position in the change log.
using ChangeNumber = uint64_t;

/// A state, the number of tree leaves that hold it, and its latest entry in
/// the change log.
struct Cell {
  ElementState state;
  uint32_t refs = 0;
  std::optional<ChangeNumber> loggedAt;
};

constexpr int64_t kMinIndex = std::numeric_limits<int64_t>::min();

class BoxStore : public SyncStore, public BoxTree::ValueOwner {
public:
  BoxStore() { cells.emplace_back(); }
  /// (The trees release their cells: they go first.)
  ~BoxStore() override { variables.clear(); }

  void startTask(int64_t task) override;
  void reset(const AccessWindow &box) override;
  void update(const AccessWindow &window, function_ref<bool(ElementState &)> fn,
              bool share = false) override;
  bool visit(
      const AccessWindow &window, bool distinct,
      function_ref<bool(const ElementKey &, const ElementState &)> fn) override;
  void visitBoxes(const AccessWindow &window,
                  function_ref<void(const AccessWindow &, const ElementState &)>
                      fn) override;
  bool hasRecordSeenByAll() override;
  void liftSeenBy(const ThreadSet &exec, const RecordLift &lambda,
                  const LiftSignature &signature) override;
  void liftObserving(const ElementKey &barrier, int64_t max, int64_t done,
                     const RecordLift &lambda,
                     const LiftSignature &signature) override;
  void endBarrierLifetime(const ElementKey &barrier) override;
  void liftSeenByAll(const RecordLift &lambda) override;
  uint64_t getSeenByAllEpoch() const override { return seenByAllEpoch; }
  void trackLiftChanges(bool on) override {
    liftChanges.clear();
    trackingLifts = on;
  }
  bool areLiftChangesWithin(ArrayRef<AccessWindow> regions) override;

private:
  using Memo = DenseMap<CellId, CellId>;

  BoxTree &getVariable(StringAttr var, unsigned rank);
  /// The tree of `var`, if it was ever updated.
  const BoxTree *findVariable(StringAttr var) const {
    auto it = variables.find(var);
    return it == variables.end() ? nullptr : it->second.get();
  }

  CellId newCell(ElementState state);
  /// A cell holding `state` for a leaf that held `old`: a cell of an
  /// earlier shared update with that state if there is one, else `old`
  /// changed in place if the leaf is its only holder, else a new cell.
  CellId shareCell(ElementState state, CellId old);
  void retain(CellId id) override { ++cells[id].refs; }
  void release(CellId id) override;
  /// Adds `id` to the lift indexes `record` (one of its records) qualifies
  /// for.
  void indexRecord(CellId id, const VisibilityRecord &record);
  /// Indexes the reads and mutates of cell `id`: all of them, or those not
  /// indexed yet (records an update added, or a lift changed).
  void index(CellId id, bool all);
  /// Logs that the records of cell `id` changed.
  void noteChange(CellId id);
  /// Starts a lift: trims the change log and returns the change number the
  /// lift's own changes start at.
  ChangeNumber beginLift();
  /// Applies `lambda` to the records of cell `id` (once per lift: `visited`)
  /// and re-indexes and logs them if it changed them.
  void liftCell(CellId id, const RecordLift &lambda, DenseSet<CellId> &visited);
  /// Lifts the cells logged in [since, until).
  void liftLogged(ChangeNumber since, ChangeNumber until,
                  const RecordLift &lambda, DenseSet<CellId> &visited);

  DenseMap<StringAttr, std::unique_ptr<BoxTree>> variables;
  /// The cells made by shared updates, by the hash of their states then
  /// (entries whose cell changed since, or was freed, are skipped).
  std::unordered_map<size_t, SmallVector<CellId, 1>> sharedCells;
  std::vector<Cell> cells;
  std::vector<CellId> freeCells;
  /// Cells with a record that a thread of the task sees at unordered or
  /// above; `everyTask` for grants to all threads (CPU statements).
  std::map<int64_t, DenseSet<CellId>> seenByTask;
  /// The first task that may still lift: no task before it executes again.
  int64_t firstLiveTask = kMinIndex;
  DenseSet<CellId> seenByEveryTask;
  /// Moves when a record seen by every thread is indexed for the first time
  /// since it was made or changed (every change marks a record not indexed;
  /// copies of a record keep its mark).
  uint64_t seenByAllEpoch = 0;
  /// Orders barrier elements by identity, which is all the index needs.
  struct KeyLess {
    bool operator()(const ElementKey &a, const ElementKey &b) const {
      if (a.var != b.var)
        return a.var.getAsOpaquePointer() < b.var.getAsOpaquePointer();
      return a.index < b.index;
    }
  };
  /// Per barrier element in its current lifetime: the cells with a record
  /// that observed it, by the count observed; and per AWAIT signature the
  /// count up to which its lifts raised every observer (`done`).
  struct BarrierIndex {
    std::set<std::pair<int64_t, CellId>> observers;
    std::map<LiftSignature, int64_t> awaits;
  };
  std::map<ElementKey, BarrierIndex, KeyLess> barriers;

  /// The cells whose records changed (or that were created), in order:
  /// entry i has change number logBase + i.
  std::vector<CellId> changeLog;
  ChangeNumber logBase = 0;
  /// The start of the latest lift.
  ChangeNumber latestLiftStart = 0;
  /// Per FENCE and ARRIVE signature, the start of its latest lift.
  std::map<LiftSignature, ChangeNumber> seenByLifts;

  /// The cells lifts changed while tracking them (areLiftChangesWithin).
  bool trackingLifts = false;
  DenseSet<CellId> liftChanges;
};

} // namespace

//===----------------------------------------------------------------------===//
// Cells and indexes
//===----------------------------------------------------------------------===//

CellId BoxStore::newCell(ElementState state) {
  CellId id;
  if (!freeCells.empty()) {
    id = freeCells.back();
    freeCells.pop_back();
  } else {
    id = cells.size();
    cells.emplace_back();
  }
  cells[id].state = std::move(state);
  cells[id].refs = 0;
  index(id, /*all=*/true);
  noteChange(id);
  return id;
}

void BoxStore::release(CellId id) {
  if (--cells[id].refs != 0)
    return;
  cells[id].state = ElementState();
  freeCells.push_back(id);
}

void BoxStore::indexRecord(CellId id, const VisibilityRecord &record) {
  // Tasks before firstLiveTask never lift again.
  auto noteTask = [&](int64_t task) {
    if (task >= firstLiveTask)
      seenByTask[task].insert(id);
  };
  // A group's members see it through their own grants.
  if (record.isGroup && record.memberLevel >= VisibilityLevel::unordered)
    record.actors.forEachTask(noteTask);
  for (const VisibilityGrant &grant : record.visibility.getGrants()) {
    if (grant.level < VisibilityLevel::unordered)
      continue;
    if (grant.threads.isAll())
      seenByEveryTask.insert(id);
    else
      grant.threads.forEachTask(noteTask);
  }
  for (const auto &[key, count] : record.arrives)
    barriers[key].observers.insert({count, id});
}

void BoxStore::index(CellId id, bool all) {
  forEachRecordList(cells[id].state,
                    [&](std::vector<VisibilityRecord> &records, bool) {
                      for (VisibilityRecord &record : records) {
                        if (!all && record.indexed)
                          continue;
                        if (!record.indexed && isSeenByAll(record))
                          ++seenByAllEpoch;
                        indexRecord(id, record);
                        record.indexed = true;
                      }
                    });
}

void BoxStore::noteChange(CellId id) {
  // Every lift signature's start is at most latestLiftStart: an entry from
  // there on is after all of them.
  Cell &cell = cells[id];
  if (cell.loggedAt && *cell.loggedAt >= latestLiftStart)
    return;
  cell.loggedAt = logBase + changeLog.size();
  changeLog.push_back(id);
}

/// Erases the entries of `map` whose value satisfies `pred`.
template <typename Map, typename Pred>
static void eraseFromMap(Map &map, Pred pred) {
  for (auto it = map.begin(); it != map.end();)
    it = pred(it->second) ? map.erase(it) : std::next(it);
}

ChangeNumber BoxStore::beginLift() {
  // Drop the older half of a long log, and the signatures that started in
  // it: their next lift visits every candidate cell again.
  constexpr size_t kLogCapacity = 1 << 16;
  if (changeLog.size() >= kLogCapacity) {
    size_t dropped = changeLog.size() / 2;
    changeLog.erase(changeLog.begin(), changeLog.begin() + dropped);
    logBase += dropped;
    eraseFromMap(seenByLifts,
                 [&](ChangeNumber start) { return start < logBase; });
  }
  latestLiftStart = logBase + changeLog.size();
  return latestLiftStart;
}

void BoxStore::liftCell(CellId id, const RecordLift &lambda,
                        DenseSet<CellId> &visited) {
  if (id == kEmpty || cells[id].refs == 0 || !visited.insert(id).second)
    return;
  // Lifts add grants and observed barriers (and mark those records not
  // indexed), split groups, or drop a barrier (which the indexes tolerate).
  bool changed = false;
  forEachRecordList(cells[id].state,
                    [&](std::vector<VisibilityRecord> &records, bool ring) {
                      changed |= lambda(records, ring);
                    });
  if (!changed)
    return;
  index(id, /*all=*/false);
  noteChange(id);
  if (trackingLifts)
    liftChanges.insert(id);
}

void BoxStore::liftLogged(ChangeNumber since, ChangeNumber until,
                          const RecordLift &lambda, DenseSet<CellId> &visited) {
  // The lift's own changes are logged after `until`; trimming happens only
  // between lifts.
  for (ChangeNumber n = since; n < until; ++n)
    liftCell(changeLog[n - logBase], lambda, visited);
}

void BoxStore::liftSeenBy(const ThreadSet &exec, const RecordLift &lambda,
                          const LiftSignature &signature) {
  ChangeNumber start = beginLift();
  DenseSet<CellId> visited;
  if (exec.isAll()) {
    for (CellId id = 1; id < cells.size(); ++id)
      liftCell(id, lambda, visited);
    return;
  }
  if (!signature.empty()) {
    auto [it, inserted] = seenByLifts.try_emplace(signature, start);
    if (!inserted) {
      ChangeNumber since = it->second;
      it->second = start;
      liftLogged(since, start, lambda, visited);
      return;
    }
  }
  auto visitAll = [&](const DenseSet<CellId> &ids) {
    SmallVector<CellId> pending(ids.begin(), ids.end());
    for (CellId id : pending)
      liftCell(id, lambda, visited);
  };
  exec.forEachTask([&](int64_t task) {
    auto it = seenByTask.find(task);
    if (it != seenByTask.end())
      visitAll(it->second);
  });
  visitAll(seenByEveryTask);
}

void BoxStore::liftObserving(const ElementKey &barrier, int64_t max,
                             int64_t done, const RecordLift &lambda,
                             const LiftSignature &signature) {
  beginLift();
  auto found = barriers.find(barrier);
  if (found == barriers.end())
    return;
  BarrierIndex &index = found->second;
  // An earlier lift with this signature raised every record that observed
  // a count up to its `done`, which the caller keeps below every count a
  // record can come to observe later (grants are never lost): only the
  // counts above the largest earlier `done` need a visit.
  std::optional<int64_t> earlier;
  auto [it, inserted] = index.awaits.try_emplace(signature, done);
  if (!inserted) {
    earlier = it->second;
    it->second = std::max(done, it->second);
  }
  auto first = earlier ? index.observers.upper_bound({*earlier, ~CellId(0)})
                       : index.observers.begin();
  SmallVector<CellId> pending;
  for (auto entry = first;
       entry != index.observers.end() && entry->first <= max; ++entry)
    pending.push_back(entry->second);
  DenseSet<CellId> visited;
  for (CellId id : pending)
    liftCell(id, lambda, visited);
}

void BoxStore::endBarrierLifetime(const ElementKey &barrier) {
  beginLift();
  auto found = barriers.find(barrier);
  if (found == barriers.end())
    return;
  SmallVector<CellId> pending;
  for (const auto &entry : found->second.observers)
    pending.push_back(entry.second);
  DenseSet<CellId> visited;
  for (CellId id : pending)
    liftCell(
        id,
        [&](std::vector<VisibilityRecord> &records, bool) {
          return forgetBarrier(records, barrier);
        },
        visited);
  barriers.erase(barrier);
}

void BoxStore::liftSeenByAll(const RecordLift &lambda) {
  beginLift();
  SmallVector<CellId> pending(seenByEveryTask.begin(), seenByEveryTask.end());
  DenseSet<CellId> visited;
  for (CellId id : pending)
    liftCell(id, lambda, visited);
}

BoxTree &BoxStore::getVariable(StringAttr var, unsigned rank) {
  auto [it, inserted] = variables.try_emplace(var);
  if (inserted)
    it->second = std::make_unique<BoxTree>(rank, this);
  return *it->second;
}

//===----------------------------------------------------------------------===//
// SyncStore
//===----------------------------------------------------------------------===//

CellId BoxStore::shareCell(ElementState state, CellId old) {
  SmallVector<CellId, 1> &equal = sharedCells[hashState(state)];
  llvm::erase_if(equal, [&](CellId id) { return cells[id].refs == 0; });
  for (CellId id : equal)
    if (isSameState(cells[id].state, state))
      return id;
  CellId id = old;
  if (old != kEmpty && cells[old].refs == 1) {
    // The one leaf holding `old` takes the new state: change it in place.
    cells[old].state = std::move(state);
    index(old, /*all=*/false);
    noteChange(old);
  } else {
    id = newCell(std::move(state));
  }
  equal.push_back(id);
  return id;
}

void BoxStore::update(const AccessWindow &window,
                      function_ref<bool(ElementState &)> fn, bool share) {
  if (window.empty())
    return;
  Memo memo;
  auto replace = [&](CellId old) {
    auto [it, inserted] = memo.try_emplace(old, old);
    if (!inserted)
      return it->second;
    // A cell held by this one leaf belongs to elements that are all in the
    // box: change it in place (unless the new state may be shared).
    if (!share && old != kEmpty && cells[old].refs == 1) {
      if (fn(cells[old].state)) {
        index(old, /*all=*/false);
        noteChange(old);
      }
      return old;
    }
    ElementState state = cells[old].state;
    fn(state);
    if (isSameState(state, cells[old].state))
      return old;
    if (!share)
      return it->second = newCell(std::move(state));
    return it->second = shareCell(std::move(state), old);
  };
  getVariable(window.var, window.ranges.size()).update(window.ranges, replace);
}

void BoxStore::startTask(int64_t task) {
  // The entries of earlier tasks are never looked at again.
  firstLiveTask = std::max(firstLiveTask, task);
  seenByTask.erase(seenByTask.begin(), seenByTask.lower_bound(firstLiveTask));
}

void BoxStore::reset(const AccessWindow &box) {
  if (box.empty())
    return;
  getVariable(box.var, box.ranges.size()).update(box.ranges, [](CellId) {
    return kEmpty;
  });
}

bool BoxStore::visit(
    const AccessWindow &window, bool distinct,
    function_ref<bool(const ElementKey &, const ElementState &)> fn) {
  if (window.empty())
    return true;
  ElementKey key{window.var, {}};
  const BoxTree *tree = findVariable(window.var);
  if (!tree) {
    // Every element is empty: with `distinct`, the first stands for all.
    if (distinct) {
      for (IntervalSet::Interval range : window.ranges)
        key.index.push_back(range.first);
      return fn(key, cells[kEmpty].state);
    }
    return window.forEachElement([&](const ElementKey &element) {
      return fn(element, cells[kEmpty].state);
    });
  }
  return tree->visitElements(window.ranges, distinct,
                             [&](ArrayRef<int64_t> index, CellId id) {
                               key.index.assign(index.begin(), index.end());
                               return fn(key, cells[id].state);
                             });
}

void BoxStore::visitBoxes(
    const AccessWindow &window,
    function_ref<void(const AccessWindow &, const ElementState &)> fn) {
  if (window.empty())
    return;
  const BoxTree *tree = findVariable(window.var);
  if (!tree) {
    fn(window, cells[kEmpty].state);
    return;
  }
  AccessWindow box{window.var, {}};
  tree->visitBoxes(window.ranges, [&](BoxTree::Ranges ranges, CellId id) {
    box.ranges.assign(ranges.begin(), ranges.end());
    fn(box, cells[id].state);
  });
}

bool BoxStore::hasRecordSeenByAll() {
  // Such a record is in a cell of the index (which may hold stale cells).
  return llvm::any_of(seenByEveryTask, [&](CellId id) {
    return cells[id].refs != 0 && holdsRecordSeenByAll(cells[id].state);
  });
}

bool BoxStore::areLiftChangesWithin(ArrayRef<AccessWindow> regions) {
  // A lift changes a cell in place, for every leaf holding it: each such
  // leaf must lie within a region, which the count of the leaves found
  // there (one region per variable) against the cell's holders proves.
  DenseMap<CellId, uint32_t> heldInside;
  for (const AccessWindow &region : regions) {
    const BoxTree *tree = findVariable(region.var);
    if (!tree || region.empty())
      continue;
    if (tree->getRank() != region.ranges.size())
      return false;
    bool inside = true;
    tree->visitLeaves(region.ranges, [&](BoxTree::Ranges leaf, CellId id) {
      if (!liftChanges.contains(id))
        return;
      inside &= isWithin(leaf, region.ranges);
      ++heldInside[id];
    });
    if (!inside)
      return false;
  }
  return llvm::all_of(liftChanges, [&](CellId id) {
    return cells[id].refs == heldInside.lookup(id);
  });
}

std::unique_ptr<SyncStore> mlir::exoam::createBoxStore() {
  return std::make_unique<BoxStore>();
}
