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
  void reset(StringAttr var, ArrayRef<int64_t> extents) override;
  void update(const AccessWindow &window,
              function_ref<bool(ElementState &)> fn) override;
  bool visit(
      const AccessWindow &window, bool distinct,
      function_ref<bool(const ElementKey &, const ElementState &)> fn) override;
  void liftSeenBy(const ThreadSet &, const RecordLift &lambda,
                  const LiftSignature &) override {
    lift(lambda);
  }
  void liftObserving(const ElementKey &, int64_t, const RecordLift &lambda,
                     const LiftSignature &) override {
    lift(lambda);
  }
  void endBarrierLifetime(const ElementKey &barrier) override {
    lift([&](std::vector<VisibilityRecord> &records) {
      return forgetBarrier(records, barrier);
    });
  }

private:
  /// lift(rho, lambda): every read and mutate record of every element.
  void lift(const RecordLift &lambda);

  std::map<ElementKey, ElementState> elements;
};
} // namespace

static bool isInBox(ArrayRef<int64_t> index, ArrayRef<int64_t> extents) {
  if (index.size() != extents.size())
    return false;
  for (auto [i, n] : llvm::zip(index, extents))
    if (i < 0 || i >= n)
      return false;
  return true;
}

void ReferenceStore::reset(StringAttr var, ArrayRef<int64_t> extents) {
  // An empty state is the same as no entry: erase the elements in the box.
  auto it = elements.lower_bound(ElementKey{var, {}});
  while (it != elements.end() && it->first.var == var) {
    if (isInBox(it->first.index, extents))
      it = elements.erase(it);
    else
      ++it;
  }
}

void ReferenceStore::update(const AccessWindow &window,
                            function_ref<bool(ElementState &)> fn) {
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

void ReferenceStore::lift(const RecordLift &lambda) {
  for (auto &entry : elements) {
    lambda(entry.second.reads);
    lambda(entry.second.mutates);
  }
}

std::unique_ptr<SyncStore> mlir::exoam::createReferenceStore() {
  return std::make_unique<ReferenceStore>();
}
