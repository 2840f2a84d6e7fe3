//===- ReferenceStore.cpp - rho as one state per element -----------------===//
//
// Part of ExoGPU. The reference storage of the synchronization environment
// (seeds/002 Def. 5.3): an ordered map from element to state, with lift
// applied to every record of every element (Def. B.2), exactly as written.
//
// Elements whose histories made the same state hold that state once: every
// rule reads and writes an element's state alone (the updates' functions and
// the lifts' lambdas depend on the state, not on the element), so a rule
// computed once per distinct state is the rule applied to each element that
// holds it. This is memoization, not an abstraction: every element still
// has every record the rules give it (no record groups, no skipped lifts,
// no pruning; those are the box store's).
//
//===----------------------------------------------------------------------===//

#include "ExoGPU/AbstractMachine/SyncStore.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace mlir::exoam;

SyncStore::~SyncStore() = default;

namespace {
/// A state and the number of elements that hold it.
struct SharedState {
  ElementState state;
  size_t users = 0;
  /// Its position in ReferenceStore::states.
  size_t slot = 0;
};

class ReferenceStore : public SyncStore {
public:
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
  void liftSeenBy(const ThreadSet &, const RecordLift &lambda,
                  const LiftSignature &) override {
    lift(lambda);
  }
  void liftObserving(const ElementKey &, int64_t, int64_t,
                     const RecordLift &lambda, const LiftSignature &) override {
    lift(lambda);
  }
  void endBarrierLifetime(const ElementKey &barrier) override {
    lift([&](std::vector<VisibilityRecord> &records, bool) {
      return forgetBarrier(records, barrier);
    });
  }
  void liftSeenByAll(const RecordLift &lambda) override { lift(lambda); }
  /// (Any update or lift moves it.)
  uint64_t getSeenByAllEpoch() const override { return epoch; }

private:
  /// lift(rho, lambda): every record list of every element (of every
  /// distinct state).
  void lift(const RecordLift &lambda);

  /// A new state held by no element yet.
  SharedState *makeState();
  /// One element fewer holds `shared` (null: the empty state); a state no
  /// element holds is freed by freeUnused.
  void release(SharedState *shared);
  /// Frees the states no element holds.
  void freeUnused();

  /// The elements that are not in the empty state (null: never written or
  /// reset).
  std::map<ElementKey, SharedState *> elements;
  /// Every state an element holds, once.
  std::vector<std::unique_ptr<SharedState>> states;
  /// States whose last element left them since the last freeUnused.
  std::vector<SharedState *> unused;
  uint64_t epoch = 0;
};
} // namespace

static bool isInBox(ArrayRef<int64_t> index, const AccessWindow &box) {
  if (index.size() != box.ranges.size())
    return false;
  for (auto [i, range] : llvm::zip(index, box.ranges))
    if (i < range.first || i > range.second)
      return false;
  return true;
}

SharedState *ReferenceStore::makeState() {
  states.push_back(std::make_unique<SharedState>());
  states.back()->slot = states.size() - 1;
  return states.back().get();
}

void ReferenceStore::release(SharedState *shared) {
  if (shared && --shared->users == 0)
    unused.push_back(shared);
}

void ReferenceStore::freeUnused() {
  for (SharedState *shared : unused) {
    if (shared->users != 0)
      continue;
    size_t slot = shared->slot;
    std::swap(states[slot], states.back());
    states[slot]->slot = slot;
    states.pop_back();
  }
  unused.clear();
}

void ReferenceStore::reset(const AccessWindow &box) {
  // An empty state is the same as no entry: erase the elements in the box.
  auto it = elements.lower_bound(ElementKey{box.var, {}});
  while (it != elements.end() && it->first.var == box.var) {
    if (isInBox(it->first.index, box)) {
      release(it->second);
      it = elements.erase(it);
    } else {
      ++it;
    }
  }
  freeUnused();
}

void ReferenceStore::update(const AccessWindow &window,
                            function_ref<bool(ElementState &)> fn, bool) {
  ++epoch;
  // The new state of each distinct old state (null: the empty state), made
  // once. Old states stay allocated until the walk ends, so that no new
  // state takes the address of an old one the map still names.
  DenseMap<SharedState *, SharedState *> made;
  window.forEachElement([&](const ElementKey &key) {
    SharedState *&held = elements[key];
    auto [it, inserted] = made.try_emplace(held, nullptr);
    if (inserted) {
      it->second = makeState();
      if (held)
        it->second->state = held->state;
      fn(it->second->state);
    }
    release(held);
    held = it->second;
    ++held->users;
    return true;
  });
  freeUnused();
}

bool ReferenceStore::visit(
    const AccessWindow &window, bool distinct,
    function_ref<bool(const ElementKey &, const ElementState &)> fn) {
  static const ElementState empty;
  DenseSet<SharedState *> visited;
  return window.forEachElement([&](const ElementKey &key) {
    auto it = elements.find(key);
    SharedState *held = it == elements.end() ? nullptr : it->second;
    if (distinct && !visited.insert(held).second)
      return true;
    return fn(key, held ? held->state : empty);
  });
}

void ReferenceStore::visitBoxes(
    const AccessWindow &window,
    function_ref<void(const AccessWindow &, const ElementState &)> fn) {
  visit(window, /*distinct=*/false,
        [&](const ElementKey &key, const ElementState &state) {
          AccessWindow box{key.var, {}};
          for (int64_t i : key.index)
            box.ranges.push_back({i, i});
          fn(box, state);
          return true;
        });
}

bool ReferenceStore::hasRecordSeenByAll() {
  return llvm::any_of(states, [](const std::unique_ptr<SharedState> &shared) {
    return holdsRecordSeenByAll(shared->state);
  });
}

void ReferenceStore::lift(const RecordLift &lambda) {
  ++epoch;
  for (std::unique_ptr<SharedState> &shared : states)
    forEachRecordList(shared->state, [&](std::vector<VisibilityRecord> &records,
                                         bool ring) { lambda(records, ring); });
}

std::unique_ptr<SyncStore> mlir::exoam::createReferenceStore() {
  return std::make_unique<ReferenceStore>();
}
