//===- ReadOnlyArguments.cpp - kernel_read_only preconditions -------------===//
//
// Part of ExoGPU (internal to the CUDA translation). An instruction parameter
// marked `kernel_read_only` (#exogpu.arg) is read through the non-coherent
// path (`ld.global.nc`): it may return data older than a store the same
// kernel made, and its inline asm has no memory clobber, so nvcc may move it
// above a barrier. Both are harmless only when the kernel never writes the
// buffer; this file refuses the kernels that do (issue 30, class I).
//
//===----------------------------------------------------------------------===//

#include "ExoGPU/Analysis/BufferAccesses.h"
#include "Translation.h"

using namespace mlir;
using namespace mlir::exogpu;
using namespace mlir::exogpu::cuda;

/// The first statement in `scope` that may write `root`; null if none.
static Operation *findWrite(Operation *scope, Value root) {
  Operation *write = nullptr;
  scope->walk([&](Operation *op) {
    if (!isa<AssignOp, ReduceOp, CallOp>(op) || !mayWrite(op, root))
      return WalkResult::advance();
    write = op;
    return WalkResult::interrupt();
  });
  return write;
}

LogicalResult
mlir::exogpu::cuda::checkKernelReadOnlyArguments(ProcState &state,
                                                 DeviceFunctionOp kernel) {
  WalkResult result = kernel.walk([&](CallOp call) {
    InstrOp instr = call.lookupInstr();
    if (!instr)
      return WalkResult::advance();
    for (auto [arg, i] :
         llvm::zip(call.getDataArgs(), instr.getDataParamIndices())) {
      if (!instr.getParamSpec(i).getKernelReadOnly())
        continue;
      FailureOr<exogpu::BufferView> view = exogpu::getBufferView(arg);
      if (failed(view)) {
        emitInternalError(call.getLoc())
            << "an argument of this call is not a buffer or a window of one";
        return WalkResult::interrupt();
      }
      Value root = view->root;
      Operation *write = findWrite(kernel, root);
      if (!write)
        continue;
      InFlightDiagnostic diag =
          emitTranslationError(call.getLoc())
          << "@" << instr.getSymName() << " reads its parameter '"
          << cast<StringAttr>(instr.getArgNames()[i]).getValue()
          << "' through the non-coherent path (kernel_read_only), which "
             "needs '"
          << state.names.lookup(root)
          << "' read-only in the whole kernel, but the kernel writes it; "
             "use a coherent load (e.g. a plain exogpu.read) for data the "
             "kernel writes";
      diag.attachNote(write->getLoc()) << "the kernel writes it here";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}
