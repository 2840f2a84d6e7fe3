//===- BufferSharing.cpp - which buffers threads of a kernel share --------===//
//
// Part of ExoGPU. See BufferSharing.h.
//
//===----------------------------------------------------------------------===//

#include "ExoGPU/Analysis/BufferSharing.h"
#include "ExoGPU/Analysis/Dependences.h"
#include "ExoGPU/Dialect/ExoGPU/IR/ExoGPUOps.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::exogpu;

/// The loops enclosing `op` inside its device function, outermost first.
static SmallVector<ForOp> getEnclosingLoops(Operation *op) {
  SmallVector<ForOp> loops;
  for (Operation *p = op->getParentOp(); p && !isa<DeviceFunctionOp>(p);
       p = p->getParentOp())
    if (auto loop = dyn_cast<ForOp>(p))
      loops.push_back(loop);
  std::reverse(loops.begin(), loops.end());
  return loops;
}

/// The roots a call writes across the cluster: windows passed to an
/// instruction parameter distributed over CTAs (`dist`, multicast TMA).
static void collectMulticastRoots(Operation *deviceFunction,
                                  DenseSet<Value> &roots) {
  deviceFunction->walk([&](CallOp call) {
    InstrOp instr = call.lookupInstr();
    if (!instr)
      return;
    for (auto [arg, i] :
         llvm::zip(call.getDataArgs(), instr.getDataParamIndices())) {
      if (instr.getParamSpec(i).getDist().empty())
        continue;
      if (FailureOr<BufferView> view = getBufferView(arg); succeeded(view))
        roots.insert(view->root);
    }
  });
}

/// Whether two different instances of `stmt` can touch a common element of
/// its buffers, one of them writing.
static bool instancesMayConflict(AccessCollector &collector, Operation *stmt) {
  SmallVector<ForOp> loops = getEnclosingLoops(stmt);
  if (loops.empty())
    return false;
  Operation *top = loops.front();
  InstanceScope first({top}, 1), second({top}, 2);
  auto differ = [&](InstanceSet &instances, const BufferAccess &,
                    const BufferAccess &) {
    instances.getSet().addDisjunction(
        2 * loops.size(), [&](ControlSet &set, unsigned i) {
          Value iter = loops[i / 2].getIterator();
          LinearForm a = LinearForm::ofColumn(set.getColumn(iter, 1));
          LinearForm b = LinearForm::ofColumn(set.getColumn(iter, 2));
          if (i % 2)
            std::swap(a, b);
          set.addLess(a, b);
        });
  };
  return findConflict(collector, {stmt}, first, {stmt}, second,
                      ConflictKind::Race, differ)
      .has_value();
}

BufferSharingAnalysis::BufferSharingAnalysis(
    Operation *deviceFunction, const CollectiveAnalysis &collective) {
  SmallVector<BufferAccess> accesses;
  collector.collect(deviceFunction, accesses);
  llvm::MapVector<Value, SmallVector<const BufferAccess *>> byRoot;
  for (const BufferAccess &access : accesses)
    byRoot[access.root].push_back(&access);
  DenseSet<Value> multicast;
  collectMulticastRoots(deviceFunction, multicast);

  for (auto &[root, rootAccesses] : byRoot) {
    // Each element of a register buffer lives in one thread's registers.
    auto type = dyn_cast<BufferTypeInterface>(root.getType());
    if (type && type.getMemory().isRmem()) {
      sharing[root] = BufferSharing::None;
      continue;
    }
    if (llvm::none_of(rootAccesses,
                      [](const BufferAccess *a) { return a->mutates(); })) {
      sharing[root] = BufferSharing::None;
      continue;
    }
    // One statement, one thread per instance, instances apart.
    Operation *stmt = rootAccesses.front()->stmt;
    bool oneStatement = llvm::all_of(
        rootAccesses, [&](const BufferAccess *a) { return a->stmt == stmt; });
    const CollTiling *tiling = collective.getTiling(stmt);
    if (oneStatement && tiling && tiling->getBoxThreads() == 1 &&
        !instancesMayConflict(collector, stmt)) {
      sharing[root] = BufferSharing::None;
      continue;
    }
    bool cluster = type && type.getMemory().isSmem() && root.getDefiningOp() &&
                   !multicast.contains(root);
    sharing[root] =
        cluster ? BufferSharing::WithinCta : BufferSharing::AcrossCtas;
  }
}

BufferSharing BufferSharingAnalysis::getSharing(Value root) const {
  auto it = sharing.find(root);
  return it == sharing.end() ? BufferSharing::AcrossCtas : it->second;
}

BufferSharing BufferSharingAnalysis::getStatementSharing(Operation *op) {
  SmallVector<BufferAccess> accesses;
  collector.collect(op, accesses);
  BufferSharing widest = BufferSharing::None;
  for (const BufferAccess &access : accesses)
    widest = std::max(widest, getSharing(access.root));
  return widest;
}
