//===- TestRandomSchedule.cpp - random sequences of checked rewrites ------===//
//
// Part of ExoGPU (test support). For every proc of the module, adds a copy
// `NAME_scheduled` (copy_proc) and applies a random sequence of scheduling
// rewrites to it, with random targets and parameters. Refused rewrites leave
// the IR unchanged and are skipped; every applied one must preserve the
// sequential meaning, which test/Transforms/Scheduling/random-schedules.mlir
// checks by comparing both procs with exogpu-run. After each applied rewrite
// the copy must verify. A remark reports how many rewrites applied.
//
//===----------------------------------------------------------------------===//

#include "ExoGPU/Dialect/ExoGPU/IR/ExoGPUOps.h"
#include "ExoGPU/Transforms/Scheduling/BufferRewrites.h"
#include "ExoGPU/Transforms/Scheduling/LoopRewrites.h"
#include "ExoGPU/Transforms/Scheduling/ProcRewrites.h"
#include "ExoGPU/Transforms/Scheduling/StatementRewrites.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/ADT/StringMap.h"

#include <random>

using namespace mlir;
using namespace mlir::exogpu;

namespace {

/// Applies random rewrites to one proc.
class RandomScheduler {
public:
  RandomScheduler(ProcOp proc, unsigned seed)
      : proc(proc), rng(seed), rewriter(proc.getContext()) {}

  /// Tries one random rewrite; returns its name if it applied.
  std::optional<StringRef> step();

private:
  template <typename T> T pick(ArrayRef<T> items) {
    return items[std::uniform_int_distribution<size_t>(0,
                                                       items.size() - 1)(rng)];
  }
  unsigned below(unsigned n) {
    return std::uniform_int_distribution<unsigned>(0, n - 1)(rng);
  }
  std::string freshName() { return "r" + std::to_string(next++); }

  SmallVector<ForOp> seqLoops() {
    SmallVector<ForOp> loops;
    proc.walk([&](ForOp loop) {
      if (loop.getMode() == LoopMode::seq)
        loops.push_back(loop);
    });
    return loops;
  }
  template <typename OpT> SmallVector<Operation *> opsOf() {
    SmallVector<Operation *> ops;
    proc.walk([&](OpT op) { ops.push_back(op); });
    return ops;
  }
  /// Statements that have a next statement in their block.
  SmallVector<Operation *> withNext() {
    SmallVector<Operation *> ops;
    proc.walk([&](Operation *op) {
      if (op != proc.getOperation() &&
          isa<ForOp, IfOp, AssignOp, ReduceOp, AllocOp>(op) &&
          op->getNextNode())
        ops.push_back(op);
    });
    return ops;
  }

  ProcOp proc;
  std::mt19937 rng;
  IRRewriter rewriter;
  unsigned next = 0;
};

std::optional<StringRef> RandomScheduler::step() {
  MLIRContext *ctx = proc.getContext();
  Refusal refusal;
  SmallVector<ForOp> loops = seqLoops();
  auto constant = [&](int64_t c) { return ValueExpr::constant(c, ctx); };
  auto loBound = [](ForOp loop) {
    return ValueExpr{loop.getLowerBoundExpr(),
                     SmallVector<Value, 4>(loop.getCtrl())};
  };
  auto hiBound = [](ForOp loop) {
    return ValueExpr{loop.getUpperBoundExpr(),
                     SmallVector<Value, 4>(loop.getCtrl())};
  };
  switch (below(20)) {
  case 0: {
    if (loops.empty())
      return std::nullopt;
    auto tail = pick<TailStrategy>(
        {TailStrategy::Perfect, TailStrategy::Guard, TailStrategy::Cut});
    std::string outer = freshName(), inner = freshName();
    if (succeeded(divideLoop(rewriter, pick<ForOp>(loops), 2 + below(3), outer,
                             inner, tail, refusal)))
      return StringRef("divide_loop");
    return std::nullopt;
  }
  case 1:
    if (!loops.empty() &&
        succeeded(reorderLoops(rewriter, pick<ForOp>(loops), refusal)))
      return StringRef("reorder_loops");
    return std::nullopt;
  case 2: {
    SmallVector<Operation *> ops = withNext();
    if (!ops.empty() && succeeded(fission(rewriter, pick<Operation *>(ops),
                                          1 + below(2), refusal)))
      return StringRef("fission");
    return std::nullopt;
  }
  case 3: {
    SmallVector<Operation *> ops = withNext();
    if (ops.empty())
      return std::nullopt;
    Operation *first = pick<Operation *>(ops);
    if (isa<ForOp, IfOp>(first) &&
        succeeded(fuse(rewriter, first, first->getNextNode(), refusal)))
      return StringRef("fuse");
    if (succeeded(reorderStmts(rewriter, first, first->getNextNode(), refusal)))
      return StringRef("reorder_stmts");
    return std::nullopt;
  }
  case 4: {
    if (loops.empty())
      return std::nullopt;
    ForOp loop = pick<ForOp>(loops);
    std::optional<int64_t> trips = loop.getConstantTripCount();
    if (trips && *trips <= 4 && succeeded(unrollLoop(rewriter, loop, refusal)))
      return StringRef("unroll_loop");
    return std::nullopt;
  }
  case 5: {
    if (loops.empty())
      return std::nullopt;
    ForOp loop = pick<ForOp>(loops);
    if (succeeded(cutLoop(rewriter, loop,
                          ValueExpr::add(loBound(loop), constant(below(3))),
                          refusal)))
      return StringRef("cut_loop");
    return std::nullopt;
  }
  case 6:
    if (!loops.empty() && succeeded(shiftLoop(rewriter, pick<ForOp>(loops),
                                              constant(below(3)), refusal)))
      return StringRef("shift_loop");
    return std::nullopt;
  case 7: {
    if (loops.empty())
      return std::nullopt;
    ForOp loop = pick<ForOp>(loops);
    if (succeeded(extendLoop(
            rewriter, loop, loBound(loop),
            ValueExpr::add(hiBound(loop), constant(1 + below(2))), refusal)))
      return StringRef("extend_loop");
    return std::nullopt;
  }
  case 8:
    if (!loops.empty() &&
        succeeded(removeLoop(rewriter, pick<ForOp>(loops), refusal)))
      return StringRef("remove_loop");
    return std::nullopt;
  case 9: {
    SmallVector<Operation *> ops = opsOf<AssignOp>();
    if (!ops.empty() &&
        succeeded(addLoop(rewriter, {pick<Operation *>(ops)}, freshName(),
                          constant(1 + below(3)), below(2), refusal)))
      return StringRef("add_loop");
    return std::nullopt;
  }
  case 10: {
    SmallVector<Operation *> scopes;
    proc.walk([&](Operation *op) {
      if (isa<ForOp, IfOp>(op) && isa<ForOp, IfOp>(op->getParentOp()))
        scopes.push_back(op);
    });
    if (!scopes.empty() &&
        succeeded(liftScope(rewriter, pick<Operation *>(scopes), refusal)))
      return StringRef("lift_scope");
    return std::nullopt;
  }
  case 11:
    if (!loops.empty() && succeeded(multLoops(rewriter, pick<ForOp>(loops),
                                              freshName(), refusal)))
      return StringRef("mult_loops");
    return std::nullopt;
  case 12: {
    SmallVector<Operation *> exprs;
    proc.walk([&](Operation *op) {
      if (isa<AddOp, SubOp, MulOp, ReadOp>(op))
        exprs.push_back(op);
    });
    if (exprs.empty())
      return std::nullopt;
    Operation *expr = pick<Operation *>(exprs);
    if (below(2) && succeeded(commuteExpr(rewriter, expr, refusal)))
      return StringRef("commute_expr");
    if (succeeded(bindExpr(rewriter, expr, freshName(), MemoryAttr(), refusal)))
      return StringRef("bind_expr");
    return std::nullopt;
  }
  case 13: {
    SmallVector<Operation *> ops = opsOf<AssignOp>();
    if (!ops.empty() &&
        succeeded(inlineAssign(rewriter, cast<AssignOp>(pick<Operation *>(ops)),
                               refusal)))
      return StringRef("inline_assign");
    return std::nullopt;
  }
  case 14: {
    SmallVector<Operation *> ops = opsOf<IfOp>();
    if (ops.empty())
      return std::nullopt;
    auto guard = cast<IfOp>(pick<Operation *>(ops));
    if (below(2) &&
        succeeded(removeIf(rewriter, guard, /*unsafe=*/false, refusal)))
      return StringRef("remove_if");
    if (succeeded(eliminateDeadCode(rewriter, guard, refusal)))
      return StringRef("eliminate_dead_code");
    return std::nullopt;
  }
  case 15: {
    SmallVector<Operation *> allocs = opsOf<AllocOp>();
    if (allocs.empty())
      return std::nullopt;
    auto alloc = cast<AllocOp>(pick<Operation *>(allocs));
    if (below(2) && succeeded(liftAlloc(rewriter, alloc, 1, refusal)))
      return StringRef("lift_alloc");
    if (succeeded(sinkAlloc(rewriter, alloc, refusal)))
      return StringRef("sink_alloc");
    return std::nullopt;
  }
  case 16: {
    SmallVector<Operation *> allocs = opsOf<AllocOp>();
    if (allocs.empty())
      return std::nullopt;
    auto alloc = cast<AllocOp>(pick<Operation *>(allocs));
    unsigned rank = alloc.getExtents().getNumResults();
    switch (below(4)) {
    case 0:
      if (succeeded(expandDim(rewriter, alloc, constant(2), constant(below(2)),
                              refusal)))
        return StringRef("expand_dim");
      return std::nullopt;
    case 1:
      if (rank &&
          succeeded(divideDim(rewriter, alloc, below(rank), 2, refusal)))
        return StringRef("divide_dim");
      return std::nullopt;
    case 2: {
      SmallVector<int64_t> perm;
      for (unsigned d = 0; d < rank; ++d)
        perm.push_back(d);
      std::shuffle(perm.begin(), perm.end(), rng);
      if (rank && succeeded(rearrangeDim(rewriter, alloc, perm, refusal)))
        return StringRef("rearrange_dim");
      return std::nullopt;
    }
    default:
      if (rank > 1 && succeeded(multDim(rewriter, alloc, 0, rank - 1, refusal)))
        return StringRef("mult_dim");
      return std::nullopt;
    }
  }
  case 17: {
    // Stage a whole parameter or allocation around a random statement.
    SmallVector<Operation *> stmts;
    proc.walk([&](Operation *op) {
      if (isa<ForOp, AssignOp, ReduceOp>(op))
        stmts.push_back(op);
    });
    SmallVector<Value> buffers;
    for (BlockArgument arg : proc.getBody().getArguments())
      if (isa<DataTensorType>(arg.getType()))
        buffers.push_back(arg);
    if (stmts.empty() || buffers.empty())
      return std::nullopt;
    ParsedAccess window;
    window.buffer = pick<Value>(buffers);
    MemoryAttr memory = MemoryAttr::get(ctx, MemoryKind::DRAM, {});
    if (succeeded(stageMem(rewriter, {pick<Operation *>(stmts)}, window,
                           freshName(), memory, false, refusal)))
      return StringRef("stage_mem");
    return std::nullopt;
  }
  default:
    simplify(rewriter, proc);
    return StringRef("simplify");
  }
}

struct TestRandomSchedulePass
    : PassWrapper<TestRandomSchedulePass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestRandomSchedulePass)

  TestRandomSchedulePass() = default;
  TestRandomSchedulePass(const TestRandomSchedulePass &other)
      : PassWrapper(other) {}

  StringRef getArgument() const final { return "exogpu-test-random-schedule"; }
  StringRef getDescription() const final {
    return "Apply random checked scheduling rewrites to a copy of each proc";
  }

  Option<unsigned> seed{*this, "seed", llvm::cl::desc("Random seed"),
                        llvm::cl::init(1)};
  Option<unsigned> steps{*this, "steps",
                         llvm::cl::desc("Rewrites tried per proc"),
                         llvm::cl::init(40)};

  void runOnOperation() override {
    SmallVector<ProcOp> procs;
    getOperation().walk([&](ProcOp proc) { procs.push_back(proc); });
    IRRewriter rewriter(&getContext());
    for (auto [index, proc] : llvm::enumerate(procs)) {
      Refusal refusal;
      FailureOr<ProcOp> copy = copyProc(
          rewriter, proc, (proc.getSymName() + "_scheduled").str(), refusal);
      if (failed(copy)) {
        emitError(proc.getLoc()) << "cannot copy the proc";
        return signalPassFailure();
      }
      RandomScheduler scheduler(*copy, seed + 7919 * index);
      llvm::StringMap<unsigned> applied;
      unsigned total = 0;
      for (unsigned i = 0; i < steps; ++i) {
        std::optional<StringRef> name = scheduler.step();
        if (!name)
          continue;
        ++applied[*name];
        ++total;
        if (failed(verifyWithSymbolUses(*copy))) {
          emitError(copy->getLoc())
              << "random schedule: invalid IR after " << *name;
          return signalPassFailure();
        }
      }
      InFlightDiagnostic remark = emitRemark(copy->getLoc());
      remark << "random schedule of @" << copy->getSymName() << ": " << total
             << " of " << static_cast<unsigned>(steps) << " rewrites applied";
    }
  }
};
} // namespace

namespace mlir::exogpu {
/// Registers --exogpu-test-random-schedule.
void registerTestRandomSchedulePass() {
  PassRegistration<TestRandomSchedulePass>();
}
} // namespace mlir::exogpu
