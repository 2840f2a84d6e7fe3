//===- SyncRepair.cpp - checking a program, repairing a hazard -----------===//
//
// Part of ExoGPU.
//
//===----------------------------------------------------------------------===//

#include "SyncRepair.h"
#include "ExoGPU/Analysis/DistributedMemory.h"
#include "ExoGPU/Conversion/ExoGPUToExoAM.h"
#include "ExoGPU/Dialect/ExoGPU/IR/ExoGPUOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/Verifier.h"

using namespace mlir;
using namespace mlir::exoam;

LogicalResult mlir::exoam::checkProgram(ModuleOp program,
                                        ArrayRef<std::string> procNames,
                                        const Bindings &bindings,
                                        StringRef passName,
                                        const InterpretOptions &options) {
  exogpu::CollectiveAnalysis analysis(program);
  if (!analysis.getDiagnostics().empty()) {
    exogpu::emitDiagnostics(analysis.getDiagnostics());
    return failure();
  }
  // Distributed memory deduction checks who may access each shard (Sec.
  // 4.1), which the abstract machine takes for granted.
  exogpu::DistributedMemoryAnalysis distribution(program, analysis);
  if (!distribution.getDiagnostics().empty()) {
    exogpu::emitDiagnostics(distribution.getDiagnostics());
    return failure();
  }
  OwningOpRef<ModuleOp> machine = ModuleOp::create(program.getLoc());
  OpBuilder builder = OpBuilder::atBlockEnd(machine->getBody());
  SymbolTable symbols(program);
  bool ok = true;
  for (const std::string &name : procNames) {
    auto proc = symbols.lookup<exogpu::ProcOp>(name);
    if (!proc)
      return emitError(program.getLoc()) << passName << ": no proc @" << name;
    FailureOr<ProcOp> amProc =
        exogpu::convertProcToExoAM(proc, analysis, builder);
    if (failed(amProc)) {
      ok = false;
      continue;
    }
    FailureOr<SmallVector<int64_t>> values =
        bindParams(*amProc, bindings, passName);
    ok &= succeeded(values) &&
          succeeded(interpretProc(*amProc, *values, options));
  }
  return success(ok);
}

/// The statement of `program` at `loc`: the first op there, outer before
/// inner (a statement before the expressions it holds).
static Operation *findStatement(ModuleOp program, Location loc) {
  Operation *found = nullptr;
  program.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (op->getLoc() != loc || !op->getParentOfType<exogpu::ProcOp>())
      return WalkResult::advance();
    found = op;
    return WalkResult::interrupt();
  });
  return found;
}

/// The line `op` is at, as "line N" (empty without a file location).
static std::string describeLine(Operation *op) {
  auto file = op->getLoc()->findInstanceOf<FileLineColLoc>();
  return file ? "line " + std::to_string(file.getLine()) : "";
}

/// Whether `op` comes from the Python frontend (docs/python.md): its
/// location is in a `.py` file, so a repair is spelled as Python.
static bool isFromPython(Operation *op) {
  auto file = op->getLoc()->findInstanceOf<FileLineColLoc>();
  return file && file.getFilename().getValue().ends_with(".py");
}

/// `op` as a reader finds it in the source: `exogpu.for %kk` (line 93), or
/// in a Python source `for kk` (line 93).
static std::string describeStatement(Operation *op, bool python) {
  std::string text = "`";
  auto loop = dyn_cast<exogpu::ForOp>(op);
  auto call = dyn_cast<exogpu::CallOp>(op);
  if (!python) {
    text += op->getName().getStringRef().str();
    if (loop && loop.getIterNameAttr())
      text += " %" + loop.getIterNameAttr().str();
    if (call)
      text += " @" + call.getCallee().str();
  } else if (loop) {
    text += "for";
    if (loop.getIterNameAttr())
      text += " " + loop.getIterNameAttr().str();
  } else if (call) {
    text += call.getCallee().str() + "(...)";
  } else if (isa<exogpu::WarpsOp>(op)) {
    text += "with CudaWarps";
  } else if (isa<exogpu::DeviceFunctionOp>(op)) {
    text += "with CudaDeviceFunction";
  } else if (isa<exogpu::FenceOp, exogpu::ArriveOp, exogpu::AwaitOp>(op)) {
    StringRef name = op->getName().stripDialect();
    text += name.take_front(1).upper() + name.drop_front(1).str();
  } else {
    text += op->getName().stripDialect().str();
  }
  text += "`";
  std::string line = describeLine(op);
  return line.empty() ? text : text + " (" + line + ")";
}

/// Where a fence inserted at `point` (before `next`, or after `previous`)
/// goes, in the source's terms.
static std::string describePoint(Operation *previous, Operation *next,
                                 Operation *scope, bool python) {
  auto describe = [&](Operation *op) { return describeStatement(op, python); };
  // The frees are the compiler's (at the end of their block), not the
  // user's statements.
  while (previous && isa<exogpu::FreeOp>(previous))
    previous = previous->getPrevNode();
  while (next && isa<exogpu::FreeOp>(next))
    next = next->getNextNode();
  std::string body = "the body of " + describe(scope);
  if (!previous && !next)
    return "in " + body;
  if (!previous)
    return "right before " + describe(next) + ", at the start of " + body;
  std::string text = "right after " + describe(previous);
  if (!next)
    return text + ", at the end of " + body;
  return text + " and before " + describe(next) + ", in " + body;
}

/// The hardware family of a sync timeline: its name up to the first `_`
/// (`wgmma`, `tma`, `Sm80`, `cuda`).
static StringRef getFamily(exogpu::SyncTimeline timeline) {
  return exogpu::stringifySyncTimeline(timeline).split('_').first;
}

namespace {
/// A place a fence could go: before `anchor` or after it.
struct Point {
  Operation *anchor;
  bool after;
};
} // namespace

std::optional<std::string>
mlir::exoam::findSyncRepair(ModuleOp program, ArrayRef<std::string> procNames,
                            const Bindings &bindings, StringRef passName,
                            const InterpretOptions &options,
                            const HazardReport &hazard) {
  Operation *later = findStatement(program, hazard.later);
  Operation *earlier = findStatement(program, hazard.earlier);
  // The statements around each access below the innermost one around both:
  // a fence right before one around the later access or right after one
  // around the earlier access stands between the two. Outermost first (a
  // fence there runs least often), before-points first.
  auto getChain = [](Operation *op, Operation *other) {
    SmallVector<Operation *> chain;
    for (; op && !isa<exogpu::ProcOp>(op) && !(other && op->isAncestor(other));
         op = op->getParentOp())
      chain.insert(chain.begin(), op);
    return chain;
  };
  SmallVector<Point> points;
  for (Operation *op : getChain(later, earlier))
    points.push_back({op, false});
  for (Operation *op : getChain(earlier, later))
    points.push_back({op, true});
  // Pairs of timelines: pairs of one family of the hardware first
  // (wgmma_fence_1 with wgmma_fence_2, cuda_in_order with cuda_in_order: the
  // lowering makes one instruction of them, where a generic pre before a
  // wgmma post costs a barrier), the fewest-timeline candidates first.
  struct Pair {
    exogpu::SyncTimeline pre, post;
    bool unrelated;
    size_t rank;
  };
  SmallVector<Pair> pairs;
  for (auto [i, pre] : llvm::enumerate(hazard.pre))
    for (auto [j, post] : llvm::enumerate(hazard.post))
      pairs.push_back({pre, post, getFamily(pre) != getFamily(post), i + j});
  llvm::stable_sort(pairs, [](const Pair &a, const Pair &b) {
    return std::tie(a.unrelated, a.rank) < std::tie(b.unrelated, b.rank);
  });

  MLIRContext *context = program.getContext();
  // The box engine, which agrees with the reference engine, at its fastest.
  InterpretOptions quiet = options;
  quiet.engine = Engine::Box;
  quiet.replayTasks = quiet.bulkLoops = true;
  quiet.hazard = nullptr;
  quiet.replayRemarks = false;
  quiet.progressSeconds = -1;
  // The trials' diagnostics are not the user's.
  ScopedDiagnosticHandler drop(context, [](Diagnostic &) { return success(); });
  // Each trial is a whole check: a bounded number of them.
  constexpr unsigned kMostTrials = 12;
  unsigned trials = 0;
  for (const Pair &pair : pairs) {
    for (const Point &point : points) {
      if (trials++ == kMostTrials)
        return std::nullopt;
      exogpu::SyncTimeline pre = pair.pre, post = pair.post;
      IRMapping mapping;
      OwningOpRef<ModuleOp> trial = cast<ModuleOp>(program->clone(mapping));
      Operation *anchor = mapping.lookup(point.anchor);
      OpBuilder builder(context);
      if (point.after)
        builder.setInsertionPointAfter(anchor);
      else
        builder.setInsertionPoint(anchor);
      exogpu::FenceOp::create(builder, anchor->getLoc(),
                              exogpu::SyncTimelineAttr::get(context, pre),
                              exogpu::SyncTimelineAttr::get(context, post));
      if (failed(verify(*trial)) ||
          failed(checkProgram(*trial, procNames, bindings, passName, quiet)))
        continue;
      Operation *previous =
          point.after ? point.anchor : point.anchor->getPrevNode();
      Operation *next =
          point.after ? point.anchor->getNextNode() : point.anchor;
      bool python = isFromPython(point.anchor);
      std::string fence = (python ? "Fence(" : "exogpu.fence(") +
                          exogpu::stringifySyncTimeline(pre).str() + ", " +
                          exogpu::stringifySyncTimeline(post).str() + ")";
      return "repair: insert `" + fence + "` " +
             describePoint(previous, next, point.anchor->getParentOp(),
                           python) +
             " (the check accepts the kernel with it at these sizes)";
    }
  }
  return std::nullopt;
}
