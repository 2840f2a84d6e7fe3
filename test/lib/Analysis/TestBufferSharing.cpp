//===- TestBufferSharing.cpp - remarks of the buffer sharing analysis -----===//
//
// Part of ExoGPU (test support). For every device function of the module,
// runs the collective analysis and BufferSharingAnalysis
// (ExoGPU/Analysis/BufferSharing.h) and reports, at each buffer the kernel
// accesses (its alloc, or the proc parameter), who may touch a common
// element of it, one of them writing: "no two threads", "threads of one
// CTA" or "threads of different CTAs".
//
//===----------------------------------------------------------------------===//

#include "ExoGPU/Analysis/BufferSharing.h"
#include "ExoGPU/Dialect/ExoGPU/IR/ExoGPUOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::exogpu;

namespace {
struct TestBufferSharingPass
    : PassWrapper<TestBufferSharingPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestBufferSharingPass)

  StringRef getArgument() const final { return "exogpu-test-buffer-sharing"; }
  StringRef getDescription() const final {
    return "Report which buffers two threads of a kernel may share";
  }

  void runOnOperation() override {
    CollectiveAnalysis collective(getOperation());
    if (!collective.getDiagnostics().empty()) {
      emitDiagnostics(collective.getDiagnostics());
      return signalPassFailure();
    }
    getOperation().walk([&](DeviceFunctionOp kernel) {
      BufferSharingAnalysis sharing(kernel, collective);
      SmallVector<BufferAccess> accesses;
      AccessCollector collector;
      collector.collect(kernel, accesses);
      llvm::SetVector<Value> roots;
      for (const BufferAccess &access : accesses)
        roots.insert(access.root);
      for (Value root : roots) {
        // At the alloc, or at the proc of a parameter.
        Operation *at = root.getDefiningOp();
        if (!at)
          at = cast<BlockArgument>(root).getOwner()->getParentOp();
        Location loc = at->getLoc();
        StringRef who;
        switch (sharing.getSharing(root)) {
        case BufferSharing::None:
          who = "no two threads";
          break;
        case BufferSharing::WithinCta:
          who = "threads of one CTA";
          break;
        case BufferSharing::AcrossCtas:
          who = "threads of different CTAs";
          break;
        }
        emitRemark(loc) << "@" << getBufferName(root) << " is shared by "
                        << who;
      }
    });
  }
};
} // namespace

namespace mlir::exogpu {
/// Registers --exogpu-test-buffer-sharing.
void registerTestBufferSharingPass() {
  PassRegistration<TestBufferSharingPass>();
}
} // namespace mlir::exogpu
