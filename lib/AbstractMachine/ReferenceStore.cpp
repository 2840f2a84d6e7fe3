//===- ReferenceStore.cpp - rho as one state per element -----------------===//
//
// Part of ExoGPU. The reference storage of the synchronization environment
// (seeds/002 Def. 5.3): an ordered map from element to state, with lift
// applied to every record of every element (Def. B.2), exactly as written.
//
//===----------------------------------------------------------------------===//

#include "ExoGPU/AbstractMachine/SyncStore.h"

using namespace mlir;
using namespace mlir::exoam;

SyncStore::~SyncStore() = default;

namespace {
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
  /// lift(rho, lambda): every record list of every element.
  void lift(const RecordLift &lambda);

  std::map<ElementKey, ElementState> elements;
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

void ReferenceStore::reset(const AccessWindow &box) {
  // An empty state is the same as no entry: erase the elements in the box.
  auto it = elements.lower_bound(ElementKey{box.var, {}});
  while (it != elements.end() && it->first.var == box.var) {
    if (isInBox(it->first.index, box))
      it = elements.erase(it);
    else
      ++it;
  }
}

void ReferenceStore::update(const AccessWindow &window,
                            function_ref<bool(ElementState &)> fn, bool) {
  ++epoch;
  window.forEachElement([&](const ElementKey &key) {
    fn(elements[key]);
    return true;
  });
}

bool ReferenceStore::visit(
    const AccessWindow &window, bool distinct,
    function_ref<bool(const ElementKey &, const ElementState &)> fn) {
  static const ElementState empty;
  return window.forEachElement([&](const ElementKey &key) {
    auto it = elements.find(key);
    return fn(key, it == elements.end() ? empty : it->second);
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
  return llvm::any_of(elements, [](const auto &entry) {
    return holdsRecordSeenByAll(entry.second);
  });
}

void ReferenceStore::lift(const RecordLift &lambda) {
  ++epoch;
  for (auto &entry : elements)
    forEachRecordList(entry.second, [&](std::vector<VisibilityRecord> &records,
                                        bool ring) { lambda(records, ring); });
}

std::unique_ptr<SyncStore> mlir::exoam::createReferenceStore() {
  return std::make_unique<ReferenceStore>();
}
