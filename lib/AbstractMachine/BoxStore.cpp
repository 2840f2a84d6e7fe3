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

#include "ExoGPU/AbstractMachine/SyncStore.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <limits>
#include <set>

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

/// One level of a variable's tree: disjoint intervals in increasing order
/// covering all of int64. At the last level an interval holds a cell; above,
/// a subtree (null: every element empty).
struct Node;
struct Segment {
  int64_t lo, hi;
  CellId cell = kEmpty;
  std::unique_ptr<Node> child;
};
struct Node {
  std::vector<Segment> segments;
};

/// A variable: its rank and tree (for rank 0, a single cell).
struct Variable {
  unsigned rank = 0;
  std::unique_ptr<Node> root;
  CellId scalar = kEmpty;
};

constexpr int64_t kMinIndex = std::numeric_limits<int64_t>::min();
constexpr int64_t kMaxIndex = std::numeric_limits<int64_t>::max();

class BoxStore : public SyncStore {
public:
  BoxStore() { cells.emplace_back(); }

  void startTask(int64_t task) override;
  void reset(const AccessWindow &box) override;
  void update(const AccessWindow &window,
              function_ref<bool(ElementState &)> fn) override;
  bool visit(
      const AccessWindow &window, bool distinct,
      function_ref<bool(const ElementKey &, const ElementState &)> fn) override;
  void visitBoxes(const AccessWindow &window,
                  function_ref<void(const AccessWindow &, const ElementState &)>
                      fn) override;
  bool hasRecordSeenByAll() override;
  void liftSeenBy(const ThreadSet &exec, const RecordLift &lambda,
                  const LiftSignature &signature) override;
  void liftObserving(const ElementKey &barrier, int64_t max,
                     const RecordLift &lambda,
                     const LiftSignature &signature) override;
  void endBarrierLifetime(const ElementKey &barrier) override;

private:
  using Ranges = ArrayRef<IntervalSet::Interval>;
  using Memo = DenseMap<CellId, CellId>;

  Variable &getVariable(StringAttr var, unsigned rank);
  static std::unique_ptr<Node> makeNode();
  std::unique_ptr<Node> copyTree(const Node &node);
  void releaseTree(const Node &node);
  /// Splits the segment containing `at` so that one starts at `at`.
  void split(Node &node, int64_t at);
  /// Merges segments [first, last] with neighbours of equal contents.
  void merge(Node &node, bool leaf, size_t first, size_t last);
  static bool equalTrees(const Node *a, const Node *b);

  /// Replaces every cell of the box `ranges` under `node` (at `level` of a
  /// `rank`-level tree) through `replace`.
  void updateTree(Node &node, unsigned level, unsigned rank, Ranges ranges,
                  function_ref<CellId(CellId)> replace);
  void visitTreeBoxes(
      const Node *node, unsigned level, unsigned rank, Ranges ranges,
      AccessWindow &box,
      function_ref<void(const AccessWindow &, const ElementState &)> fn);
  bool
  visitTree(const Node *node, unsigned level, unsigned rank, Ranges ranges,
            ElementKey &key, bool distinct, DenseSet<CellId> &seen,
            function_ref<bool(const ElementKey &, const ElementState &)> fn);

  CellId newCell(ElementState state);
  void retain(CellId id) {
    if (id != kEmpty)
      ++cells[id].refs;
  }
  void release(CellId id);
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

  DenseMap<StringAttr, Variable> variables;
  std::vector<Cell> cells;
  std::vector<CellId> freeCells;
  /// Cells with a record that a thread of the task sees at unordered or
  /// above; `everyTask` for grants to all threads (CPU statements).
  std::map<int64_t, DenseSet<CellId>> seenByTask;
  /// The first task that may still lift: no task before it executes again.
  int64_t firstLiveTask = kMinIndex;
  DenseSet<CellId> seenByEveryTask;
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
  /// start of its latest lift and the largest Max it ran with.
  struct BarrierIndex {
    std::set<std::pair<int64_t, CellId>> observers;
    std::map<LiftSignature, std::pair<ChangeNumber, int64_t>> awaits;
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
  if (id == kEmpty || --cells[id].refs != 0)
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
  ElementState &state = cells[id].state;
  for (std::vector<VisibilityRecord> *records : {&state.reads, &state.mutates})
    for (VisibilityRecord &record : *records) {
      if (!all && record.indexed)
        continue;
      indexRecord(id, record);
      record.indexed = true;
    }
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
    for (auto &[key, barrier] : barriers)
      eraseFromMap(barrier.awaits, [&](std::pair<ChangeNumber, int64_t> mark) {
        return mark.first < logBase;
      });
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
  Cell &cell = cells[id];
  bool changed = lambda(cell.state.reads);
  changed |= lambda(cell.state.mutates);
  if (!changed)
    return;
  index(id, /*all=*/false);
  noteChange(id);
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
                             const RecordLift &lambda,
                             const LiftSignature &signature) {
  ChangeNumber start = beginLift();
  auto found = barriers.find(barrier);
  if (found == barriers.end())
    return;
  BarrierIndex &index = found->second;
  DenseSet<CellId> visited;
  // Cells unchanged since an earlier lift with this signature: only the
  // counts above its Max are new.
  std::optional<int64_t> done;
  auto [it, inserted] = index.awaits.try_emplace(signature, start, max);
  if (!inserted) {
    auto [since, previousMax] = it->second;
    it->second = {start, std::max(max, previousMax)};
    liftLogged(since, start, lambda, visited);
    done = previousMax;
  }
  if (done && *done >= max)
    return;
  auto first = done ? index.observers.upper_bound({*done, ~CellId(0)})
                    : index.observers.begin();
  SmallVector<CellId> pending;
  for (auto entry = first;
       entry != index.observers.end() && entry->first <= max; ++entry)
    pending.push_back(entry->second);
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
        [&](std::vector<VisibilityRecord> &records) {
          return forgetBarrier(records, barrier);
        },
        visited);
  barriers.erase(barrier);
}

//===----------------------------------------------------------------------===//
// Trees
//===----------------------------------------------------------------------===//

std::unique_ptr<Node> BoxStore::makeNode() {
  auto node = std::make_unique<Node>();
  node->segments.push_back({kMinIndex, kMaxIndex, kEmpty, nullptr});
  return node;
}

Variable &BoxStore::getVariable(StringAttr var, unsigned rank) {
  auto [it, inserted] = variables.try_emplace(var);
  if (inserted) {
    it->second.rank = rank;
    if (rank > 0)
      it->second.root = makeNode();
  }
  return it->second;
}

std::unique_ptr<Node> BoxStore::copyTree(const Node &node) {
  auto copy = std::make_unique<Node>();
  copy->segments.reserve(node.segments.size());
  for (const Segment &segment : node.segments) {
    Segment &out = copy->segments.emplace_back();
    out.lo = segment.lo;
    out.hi = segment.hi;
    out.cell = segment.cell;
    retain(segment.cell);
    if (segment.child)
      out.child = copyTree(*segment.child);
  }
  return copy;
}

void BoxStore::releaseTree(const Node &node) {
  for (const Segment &segment : node.segments) {
    release(segment.cell);
    if (segment.child)
      releaseTree(*segment.child);
  }
}

void BoxStore::split(Node &node, int64_t at) {
  auto it = llvm::upper_bound(
      node.segments, at, [](int64_t v, const Segment &s) { return v < s.lo; });
  // `it` is the first segment starting after `at`; the one before holds it.
  if (it == node.segments.begin())
    return;
  Segment &holder = *std::prev(it);
  if (holder.lo == at || holder.hi < at)
    return;
  Segment tail;
  tail.lo = at;
  tail.hi = holder.hi;
  tail.cell = holder.cell;
  retain(holder.cell);
  if (holder.child)
    tail.child = copyTree(*holder.child);
  holder.hi = at - 1;
  node.segments.insert(it, std::move(tail));
}

bool BoxStore::equalTrees(const Node *a, const Node *b) {
  if (!a || !b)
    return a == b;
  if (a->segments.size() != b->segments.size())
    return false;
  for (auto [x, y] : llvm::zip(a->segments, b->segments))
    if (x.lo != y.lo || x.hi != y.hi || x.cell != y.cell ||
        !equalTrees(x.child.get(), y.child.get()))
      return false;
  return true;
}

void BoxStore::merge(Node &node, bool leaf, size_t first, size_t last) {
  // Only segments [first, last] changed: merge each with its neighbours.
  std::vector<Segment> &segments = node.segments;
  size_t begin = first == 0 ? 0 : first - 1;
  size_t end = std::min(last + 1, segments.size() - 1);
  size_t out = begin;
  for (size_t i = begin + 1; i <= end; ++i) {
    Segment &kept = segments[out];
    Segment &next = segments[i];
    bool same = leaf ? kept.cell == next.cell
                     : equalTrees(kept.child.get(), next.child.get());
    if (same) {
      kept.hi = next.hi;
      release(next.cell);
      if (next.child)
        releaseTree(*next.child);
      continue;
    }
    if (++out != i)
      segments[out] = std::move(next);
  }
  segments.erase(segments.begin() + out + 1, segments.begin() + end + 1);
}

void BoxStore::updateTree(Node &node, unsigned level, unsigned rank,
                          Ranges ranges, function_ref<CellId(CellId)> replace) {
  auto [lo, hi] = ranges[level];
  bool leaf = level + 1 == rank;
  split(node, lo);
  if (hi != kMaxIndex)
    split(node, hi + 1);
  size_t first = node.segments.size(), last = 0;
  for (auto [index, segment] : llvm::enumerate(node.segments)) {
    if (segment.hi < lo || segment.lo > hi)
      continue;
    first = std::min(first, index);
    last = index;
    if (leaf) {
      CellId next = replace(segment.cell);
      if (next != segment.cell) {
        retain(next);
        release(segment.cell);
        segment.cell = next;
      }
      continue;
    }
    if (!segment.child)
      segment.child = makeNode();
    updateTree(*segment.child, level + 1, rank, ranges, replace);
  }
  if (first <= last)
    merge(node, leaf, first, last);
}

void BoxStore::visitTreeBoxes(
    const Node *node, unsigned level, unsigned rank, Ranges ranges,
    AccessWindow &box,
    function_ref<void(const AccessWindow &, const ElementState &)> fn) {
  auto [lo, hi] = ranges[level];
  bool leaf = level + 1 == rank;
  if (!node) {
    // Every element below is empty.
    for (unsigned l = level; l < rank; ++l)
      box.ranges[l] = ranges[l];
    fn(box, cells[kEmpty].state);
    return;
  }
  for (const Segment &segment : node->segments) {
    if (segment.hi < lo || segment.lo > hi)
      continue;
    box.ranges[level] = {std::max(lo, segment.lo), std::min(hi, segment.hi)};
    if (leaf)
      fn(box, cells[segment.cell].state);
    else
      visitTreeBoxes(segment.child.get(), level + 1, rank, ranges, box, fn);
  }
}

bool BoxStore::visitTree(
    const Node *node, unsigned level, unsigned rank, Ranges ranges,
    ElementKey &key, bool distinct, DenseSet<CellId> &seen,
    function_ref<bool(const ElementKey &, const ElementState &)> fn) {
  auto [lo, hi] = ranges[level];
  bool leaf = level + 1 == rank;
  static const Node empty = [] {
    Node node;
    node.segments.push_back({kMinIndex, kMaxIndex, kEmpty, nullptr});
    return node;
  }();
  if (!node)
    node = &empty;
  for (const Segment &segment : node->segments) {
    if (segment.hi < lo || segment.lo > hi)
      continue;
    int64_t first = std::max(lo, segment.lo), last = std::min(hi, segment.hi);
    // With `distinct`, the first index of the segment stands for all of it:
    // every index below it has the same cells.
    if (distinct)
      last = first;
    for (int64_t i = first; i <= last; ++i) {
      key.index[level] = i;
      if (leaf) {
        if (distinct && !seen.insert(segment.cell).second)
          continue;
        if (!fn(key, cells[segment.cell].state))
          return false;
        continue;
      }
      if (!visitTree(segment.child.get(), level + 1, rank, ranges, key,
                     distinct, seen, fn))
        return false;
    }
  }
  return true;
}

//===----------------------------------------------------------------------===//
// SyncStore
//===----------------------------------------------------------------------===//

/// Whether two states are the same, provenance included.
static bool isSameState(const ElementState &a, const ElementState &b) {
  auto same = [](const std::vector<VisibilityRecord> &x,
                 const std::vector<VisibilityRecord> &y) {
    if (x.size() != y.size())
      return false;
    for (auto [r, s] : llvm::zip(x, y))
      if (!r.isSameRecord(s) || r.origin != s.origin || !(r.actors == s.actors))
        return false;
    return true;
  };
  return a.arrives == b.arrives && a.awaits == b.awaits &&
         a.received == b.received && same(a.reads, b.reads) &&
         same(a.mutates, b.mutates);
}

void BoxStore::update(const AccessWindow &window,
                      function_ref<bool(ElementState &)> fn) {
  if (window.empty())
    return;
  Memo memo;
  auto replace = [&](CellId old) {
    auto [it, inserted] = memo.try_emplace(old, old);
    if (!inserted)
      return it->second;
    // A cell held by this one leaf belongs to elements that are all in the
    // box: change it in place.
    if (old != kEmpty && cells[old].refs == 1) {
      if (fn(cells[old].state)) {
        index(old, /*all=*/false);
        noteChange(old);
      }
      return old;
    }
    ElementState state = cells[old].state;
    fn(state);
    if (!isSameState(state, cells[old].state))
      it->second = newCell(std::move(state));
    return it->second;
  };
  Variable &var = getVariable(window.var, window.ranges.size());
  if (var.rank == 0) {
    CellId next = replace(var.scalar);
    retain(next);
    release(var.scalar);
    var.scalar = next;
    return;
  }
  updateTree(*var.root, 0, var.rank, window.ranges, replace);
}

void BoxStore::startTask(int64_t task) {
  // The entries of earlier tasks are never looked at again.
  firstLiveTask = std::max(firstLiveTask, task);
  seenByTask.erase(seenByTask.begin(), seenByTask.lower_bound(firstLiveTask));
}

void BoxStore::reset(const AccessWindow &box) {
  if (box.empty())
    return;
  Variable &variable = getVariable(box.var, box.ranges.size());
  if (variable.rank == 0) {
    release(variable.scalar);
    variable.scalar = kEmpty;
    return;
  }
  updateTree(*variable.root, 0, variable.rank, box.ranges,
             [](CellId) { return kEmpty; });
}

bool BoxStore::visit(
    const AccessWindow &window, bool distinct,
    function_ref<bool(const ElementKey &, const ElementState &)> fn) {
  if (window.empty())
    return true;
  ElementKey key{window.var, {}};
  key.index.resize(window.ranges.size());
  auto it = variables.find(window.var);
  if (window.ranges.empty()) {
    CellId id = it == variables.end() ? kEmpty : it->second.scalar;
    return fn(key, cells[id].state);
  }
  DenseSet<CellId> seen;
  const Node *root = it == variables.end() ? nullptr : it->second.root.get();
  return visitTree(root, 0, window.ranges.size(), window.ranges, key, distinct,
                   seen, fn);
}

void BoxStore::visitBoxes(
    const AccessWindow &window,
    function_ref<void(const AccessWindow &, const ElementState &)> fn) {
  if (window.empty())
    return;
  auto it = variables.find(window.var);
  if (window.ranges.empty()) {
    fn(window, cells[it == variables.end() ? kEmpty : it->second.scalar].state);
    return;
  }
  AccessWindow box = window;
  visitTreeBoxes(it == variables.end() ? nullptr : it->second.root.get(), 0,
                 window.ranges.size(), window.ranges, box, fn);
}

bool BoxStore::hasRecordSeenByAll() {
  // Such a record is in a cell of the index (which may hold stale cells).
  return llvm::any_of(seenByEveryTask, [&](CellId id) {
    const ElementState &state = cells[id].state;
    return cells[id].refs != 0 && (llvm::any_of(state.reads, isSeenByAll) ||
                                   llvm::any_of(state.mutates, isSeenByAll));
  });
}

std::unique_ptr<SyncStore> mlir::exoam::createBoxStore() {
  return std::make_unique<BoxStore>();
}
