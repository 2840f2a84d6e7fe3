//===- CollectiveAnalysisPass.cpp - --exogpu-collective-analysis ---------===//
//
// Part of ExoGPU. Runs the collective analysis (seeds/002 Sec. 4) on every
// proc, reports its errors and optionally explains its tilings as remarks.
//
//===----------------------------------------------------------------------===//

#include "ExoGPU/Analysis/CollectiveAnalysis.h"
#include "ExoGPU/Analysis/Passes.h"
#include "ExoGPU/Dialect/ExoGPU/IR/ExoGPUOps.h"
#include "mlir/IR/AsmState.h"

namespace mlir::exogpu {
#define GEN_PASS_DEF_COLLECTIVEANALYSISPASS
#include "ExoGPU/Analysis/Passes.h.inc"
} // namespace mlir::exogpu

using namespace mlir;
using namespace mlir::exogpu;

/// The innermost cuda_threads loop enclosing `op`, if any.
static ForOp getEnclosingThreadsLoop(Operation *op) {
  for (Operation *p = op->getParentOp(); p && !isa<DeviceFunctionOp>(p);
       p = p->getParentOp())
    if (auto loop = dyn_cast<ForOp>(p);
        loop && loop.getMode() == LoopMode::cuda_threads)
      return loop;
  return {};
}

namespace {
/// Writes the remarks of one proc.
class RemarkWriter {
public:
  RemarkWriter(ProcOp proc, const CollectiveAnalysis &analysis,
               unsigned iterations)
      : state(proc), analysis(analysis), iterations(iterations) {}

  /// `what`: tiling, threads per collective, and the collectives of the
  /// first iterations of `iter` (the other iterators at 0).
  void emit(Operation *op, const Twine &what, const CollTiling &tiling,
            Value iter);

  /// The SSA name of `value`.
  std::string name(Value value) {
    std::string text;
    llvm::raw_string_ostream os(text);
    printIter(os, value);
    return text;
  }

private:
  void printIter(raw_ostream &os, Value iter) {
    iter.printAsOperand(os, state);
  }

  AsmState state;
  const CollectiveAnalysis &analysis;
  unsigned iterations;
};
} // namespace

void RemarkWriter::emit(Operation *op, const Twine &what,
                        const CollTiling &tiling, Value iter) {
  std::string text;
  llvm::raw_string_ostream os(text);
  auto printIterFn = [&](raw_ostream &out, Value v) { printIter(out, v); };
  os << what.str() << ": tiling ";
  tiling.print(os, printIterFn);
  os << "; " << tiling.getBoxThreads() << " thread(s)";
  int64_t count = 1;
  if (iter)
    if (std::optional<IteratorInfo> info = analysis.getIteratorInfo(iter))
      count = info->tileCount;
  int64_t shown = iter ? std::min<int64_t>(count, iterations) : 1;
  for (int64_t k = 0; k < shown; ++k) {
    std::string reason;
    FailureOr<ThreadSet> threads = tiling.evaluate(
        [&](Value v) -> std::optional<int64_t> { return v == iter ? k : 0; },
        reason);
    os << "; ";
    if (iter) {
      printIter(os, iter);
      os << " = " << k << ": ";
    } else {
      os << "threads ";
    }
    if (succeeded(threads))
      os << *threads;
    else
      os << '(' << reason << ')';
  }
  if (iter && count > shown)
    os << "; ...";
  mlir::emitRemark(op->getLoc(), text);
}

namespace {
struct CollectiveAnalysisPass
    : public exogpu::impl::CollectiveAnalysisPassBase<CollectiveAnalysisPass> {
  using Base::Base;

  void runOnOperation() override {
    bool foundErrors = false;
    for (ProcOp proc : getOperation().getOps<ProcOp>()) {
      const auto &analysis = getChildAnalysis<CollectiveAnalysis>(proc);
      emitDiagnostics(analysis.getDiagnostics());
      foundErrors |= !analysis.getDiagnostics().empty();
      if (emitRemarks)
        writeRemarks(proc, analysis);
    }
    if (foundErrors)
      signalPassFailure();
    markAllAnalysesPreserved();
  }

  void writeRemarks(ProcOp proc, const CollectiveAnalysis &analysis) {
    RemarkWriter writer(proc, analysis, remarkIterations);
    proc.walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (auto loop = dyn_cast<ForOp>(op)) {
        if (loop.getMode() != LoopMode::cuda_threads)
          return;
        if (const CollTiling *body = analysis.getBodyTiling(loop))
          writer.emit(op, "cuda_threads " + writer.name(loop.getIterator()),
                      *body, loop.getIterator());
        return;
      }
      if (isa<WarpsOp>(op)) {
        if (const CollTiling *body = analysis.getBodyTiling(op))
          writer.emit(op, "warps", *body,
                      getEnclosingThreadsLoop(op)
                          ? getEnclosingThreadsLoop(op).getIterator()
                          : Value());
        return;
      }
      if (auto call = dyn_cast<CallOp>(op)) {
        if (const CollTiling *tiling = analysis.getTiling(op))
          writer.emit(op, "call @" + call.getCallee(), *tiling,
                      getEnclosingThreadsLoop(op)
                          ? getEnclosingThreadsLoop(op).getIterator()
                          : Value());
      }
    });
  }
};
} // namespace
