//===- RandomScheduler.cpp - random checked rewrites of a proc ------------===//
//
// Part of ExoGPU (test support). See RandomScheduler.h.
//
//===----------------------------------------------------------------------===//

#include "RandomScheduler.h"
#include "ExoGPU/Analysis/BufferAccesses.h"
#include "ExoGPU/Transforms/Scheduling/BufferRewrites.h"
#include "ExoGPU/Transforms/Scheduling/LoopRewrites.h"
#include "ExoGPU/Transforms/Scheduling/ProcRewrites.h"
#include "ExoGPU/Transforms/Scheduling/StatementRewrites.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::exogpu;
using namespace mlir::exogpu::test;

/// Where `op` is, for a trace: `for 'i' at 12:5`.
static std::string describe(Operation *op) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << op->getName().stripDialect();
  if (auto loop = dyn_cast<ForOp>(op); loop && loop.getIterName())
    os << " '" << *loop.getIterName() << "'";
  if (auto alloc = dyn_cast<AllocOp>(op); alloc && alloc.getName())
    os << " '" << *alloc.getName() << "'";
  if (auto loc = dyn_cast<FileLineColLoc>(op->getLoc()))
    os << " at " << loc.getLine() << ":" << loc.getColumn();
  return text;
}

/// Runs `rewrite`, an attempt of `name` on `target` with `parameters`; the
/// target is described first (the rewrite may erase it).
template <typename RewriteFn>
static RewriteAttempt attempt(StringRef name, Operation *target,
                              const Twine &parameters, RewriteFn rewrite) {
  RewriteAttempt result{name.str(), (describe(target) + parameters).str()};
  result.applied = succeeded(rewrite());
  return result;
}

RandomScheduler::RandomScheduler(ProcOp proc, unsigned seed)
    : proc(proc), rng(seed), rewriter(proc.getContext()) {}

unsigned RandomScheduler::below(unsigned n) {
  return std::uniform_int_distribution<unsigned>(0, n - 1)(rng);
}

//===----------------------------------------------------------------------===//
// Targets and parameters
//===----------------------------------------------------------------------===//

SmallVector<Operation *> RandomScheduler::statements() {
  SmallVector<Operation *> ops;
  proc.walk([&](Operation *op) {
    if (isa<ForOp, IfOp, AssignOp, ReduceOp, CallOp, AllocOp, WindowOp>(op))
      ops.push_back(op);
  });
  return ops;
}

SmallVector<ForOp> RandomScheduler::seqLoops() {
  SmallVector<ForOp> loops;
  proc.walk([&](ForOp loop) {
    if (loop.getMode() == LoopMode::seq)
      loops.push_back(loop);
  });
  return loops;
}

SmallVector<Operation *> RandomScheduler::blockFrom(Operation *first,
                                                    unsigned extra) {
  SmallVector<Operation *> block{first};
  for (Operation *op = first->getNextNode(); op && block.size() <= extra;
       op = op->getNextNode())
    block.push_back(op);
  return block;
}

SmallVector<std::string> RandomScheduler::controlNames(Operation *at) {
  SmallVector<std::string> names;
  for (Operation *op = at->getParentOp(); op && op != proc;
       op = op->getParentOp())
    if (auto loop = dyn_cast<ForOp>(op); loop && loop.getIterName())
      names.push_back(loop.getIterName()->str());
  for (unsigned i = 0, e = proc.getNumParams(); i < e; ++i)
    if (proc.getParamKind(i) == ParamKind::size ||
        proc.getParamKind(i) == ParamKind::index)
      names.push_back(cast<StringAttr>(proc.getArgNames()[i]).str());
  return names;
}

std::string RandomScheduler::randomExprText(Operation *at) {
  SmallVector<std::string> names = controlNames(at);
  std::string c = std::to_string(static_cast<int>(below(5)));
  if (names.empty() || chance(30))
    return chance(15) ? "-" + c : c;
  std::string n = pick<std::string>(names);
  switch (below(7)) {
  case 0:
    return n;
  case 1:
    return n + " + " + c;
  case 2:
    return n + " - " + c;
  case 3:
    return std::to_string(2 + below(2)) + " * " + n;
  case 4:
    return n + " / " + std::to_string(2 + below(3));
  case 5:
    return n + " mod " + std::to_string(2 + below(3));
  default:
    return n + " + " + pick<std::string>(names);
  }
}

SmallVector<Value> RandomScheduler::visibleRootBuffers(Operation *at) {
  SmallVector<Value> buffers;
  for (BlockArgument arg : proc.getBody().getArguments())
    if (isa<DataTensorType>(arg.getType()))
      buffers.push_back(arg);
  for (Operation *op = at; op && op != proc; op = op->getParentOp())
    for (Operation *prev = op->getPrevNode(); prev; prev = prev->getPrevNode())
      if (auto alloc = dyn_cast<AllocOp>(prev);
          alloc && alloc.getName() && isa<DataTensorType>(alloc.getType()))
        buffers.push_back(alloc.getResult());
  return buffers;
}

std::string RandomScheduler::randomWindowText(Operation *at, Value buffer) {
  std::string text = getBufferName(buffer);
  if (chance(20))
    return text;
  SmallVector<AffineExpr> extents;
  SmallVector<Value> operands;
  getRootExtents(buffer, extents, operands);
  text += "[";
  for (auto [d, extent] : llvm::enumerate(extents)) {
    if (d)
      text += ", ";
    std::string end = printControlText(extent, operands);
    switch (below(5)) {
    case 0:
      text += ":";
      break;
    case 1:
      text += "0 : " + end;
      break;
    case 2:
      text += randomExprText(at);
      break;
    case 3:
      text += randomExprText(at) + " : " + end;
      break;
    default: {
      std::string lo = randomExprText(at);
      text += lo + " : " + lo + " + " + std::to_string(1 + below(3));
      break;
    }
    }
  }
  return text + "]";
}

/// Parses `text` at `at`; none if it does not parse.
static std::optional<ValueExpr> parseAt(StringRef text, Operation *at) {
  Refusal ignored;
  FailureOr<ValueExpr> expr = parseControlText(text, at, at->getLoc(), ignored);
  return succeeded(expr) ? std::optional(*expr) : std::nullopt;
}

//===----------------------------------------------------------------------===//
// The rewrites
//===----------------------------------------------------------------------===//

/// The number of loop, statement, buffer and proc rewrites.
static constexpr unsigned kLoopRewrites = 13, kStatementRewrites = 8,
                          kBufferRewrites = 11, kProcRewrites = 4;

std::optional<RewriteAttempt> RandomScheduler::step() {
  unsigned which = below(kLoopRewrites + kStatementRewrites + kBufferRewrites +
                         kProcRewrites);
  std::optional<RewriteAttempt> result;
  if (which < kLoopRewrites) {
    result = tryLoopRewrite(which);
  } else if ((which -= kLoopRewrites) < kStatementRewrites) {
    result = tryStatementRewrite(which);
  } else if ((which -= kStatementRewrites) < kBufferRewrites) {
    result = tryBufferRewrite(which);
  } else {
    result = tryProcRewrite(which - kBufferRewrites);
  }
  if (result && !result->applied && refusal.hasReason())
    result->reason = refusal.take(proc.getLoc()).str();
  refusal = Refusal();
  return result;
}

std::optional<RewriteAttempt> RandomScheduler::tryLoopRewrite(unsigned which) {
  SmallVector<ForOp> loops = seqLoops();
  SmallVector<Operation *> stmts = statements();
  // Statements that have a next statement in their block.
  SmallVector<Operation *> withNext;
  for (Operation *op : stmts)
    if (op->getNextNode())
      withNext.push_back(op);
  if (which == 2 || which == 3) {
    if (withNext.empty())
      return std::nullopt;
    Operation *first = pick<Operation *>(withNext);
    if (which == 2) {
      unsigned levels = 1 + below(2);
      return attempt("fission", first, " levels " + Twine(levels),
                     [&] { return fission(rewriter, first, levels, refusal); });
    }
    if (isa<ForOp, IfOp>(first) && chance(70))
      return attempt("fuse", first, "", [&] {
        return fuse(rewriter, first, first->getNextNode(), refusal);
      });
    return attempt("reorder_stmts", first, "", [&] {
      return reorderStmts(rewriter, first, first->getNextNode(), refusal);
    });
  }
  if (which == 10) {
    if (stmts.empty())
      return std::nullopt;
    SmallVector<Operation *> block =
        blockFrom(pick<Operation *>(stmts), below(2));
    std::string hi = chance(50) ? std::to_string(1 + below(3))
                                : randomExprText(block.front());
    std::optional<ValueExpr> n = parseAt(hi, block.front());
    bool guard = chance(50);
    std::string params = " (" + std::to_string(block.size()) +
                         " statement(s)) to \"" + hi + "\"" +
                         (guard ? " guard" : "");
    if (!n)
      return RewriteAttempt{"add_loop", describe(block.front()) + params,
                            false};
    return attempt("add_loop", block.front(), params, [&] {
      return addLoop(rewriter, block, freshName(), *n, guard, refusal);
    });
  }
  if (which == 11) {
    SmallVector<Operation *> scopes;
    for (Operation *op : stmts)
      if (isa<ForOp, IfOp>(op) && isa<ForOp, IfOp>(op->getParentOp()))
        scopes.push_back(op);
    if (scopes.empty())
      return std::nullopt;
    Operation *inner = pick<Operation *>(scopes);
    return attempt("lift_scope", inner, "",
                   [&] { return liftScope(rewriter, inner, refusal); });
  }
  if (loops.empty())
    return std::nullopt;
  ForOp loop = pick<ForOp>(loops);
  switch (which) {
  case 0: {
    int64_t factor = 2 + below(3);
    TailStrategy tail = pick<TailStrategy>(
        {TailStrategy::Perfect, TailStrategy::Guard, TailStrategy::Cut});
    const char *tailName = tail == TailStrategy::Perfect ? "perfect"
                           : tail == TailStrategy::Guard ? "guard"
                                                         : "cut";
    std::string outer = freshName(), inner = freshName();
    return attempt("divide_loop", loop,
                   " by " + Twine(factor) + " tail " + tailName, [&] {
                     return divideLoop(rewriter, loop, factor, outer, inner,
                                       tail, refusal);
                   });
  }
  case 1:
    return attempt("reorder_loops", loop, "",
                   [&] { return reorderLoops(rewriter, loop, refusal); });
  case 4: {
    // Keep the proc small: unroll short loops only.
    std::optional<int64_t> trips = loop.getConstantTripCount();
    if (!trips || *trips > 4)
      return std::nullopt;
    return attempt("unroll_loop", loop, "",
                   [&] { return unrollLoop(rewriter, loop, refusal); });
  }
  case 5:
  case 6:
  case 7: {
    std::string a = randomExprText(loop), b = randomExprText(loop);
    std::optional<ValueExpr> x = parseAt(a, loop), y = parseAt(b, loop);
    StringRef name = which == 5   ? "cut_loop"
                     : which == 6 ? "shift_loop"
                                  : "extend_loop";
    std::string params =
        " to \"" + a + "\"" + (which == 7 ? ", \"" + b + "\"" : "");
    if (!x || !y)
      return RewriteAttempt{name.str(), describe(loop) + params, false};
    Operation *target = loop;
    if (which == 5)
      return attempt(name, target, params,
                     [&] { return cutLoop(rewriter, loop, *x, refusal); });
    if (which == 6)
      return attempt(name, target, params,
                     [&] { return shiftLoop(rewriter, loop, *x, refusal); });
    return attempt(name, target, params,
                   [&] { return extendLoop(rewriter, loop, *x, *y, refusal); });
  }
  case 8:
    return attempt("remove_loop", loop, "",
                   [&] { return removeLoop(rewriter, loop, refusal); });
  case 9:
    return attempt("eliminate_dead_code", loop, "",
                   [&] { return eliminateDeadCode(rewriter, loop, refusal); });
  default:
    return attempt("mult_loops", loop, "", [&] {
      return multLoops(rewriter, loop, freshName(), refusal);
    });
  }
}

std::optional<RewriteAttempt>
RandomScheduler::tryStatementRewrite(unsigned which) {
  switch (which) {
  case 0:
  case 1: {
    SmallVector<Operation *> exprs;
    proc.walk([&](Operation *op) {
      if (isa<AddOp, SubOp, MulOp, ReadOp, NegOp>(op))
        exprs.push_back(op);
    });
    if (exprs.empty())
      return std::nullopt;
    Operation *expr = pick<Operation *>(exprs);
    if (which == 0)
      return attempt("commute_expr", expr, "",
                     [&] { return commuteExpr(rewriter, expr, refusal); });
    return attempt("bind_expr", expr, "", [&] {
      return bindExpr(rewriter, expr, freshName(), MemoryAttr(), refusal);
    });
  }
  case 2: {
    SmallVector<Operation *> ops = statements();
    llvm::erase_if(ops, [](Operation *op) {
      return getControlMaps(op).empty() ||
             llvm::all_of(getControlMaps(op), [](AffineMap map) {
               return map.getNumResults() == 0;
             });
    });
    if (ops.empty())
      return std::nullopt;
    Operation *op = pick<Operation *>(ops);
    unsigned total = 0;
    for (AffineMap map : getControlMaps(op))
      total += map.getNumResults();
    unsigned index = below(total + 1);
    std::string text = randomExprText(op);
    std::optional<ValueExpr> replacement = parseAt(text, op);
    std::string params =
        " expression " + std::to_string(index) + " to \"" + text + "\"";
    if (!replacement)
      return RewriteAttempt{"rewrite_expr", describe(op) + params, false};
    return attempt("rewrite_expr", op, params, [&] {
      return rewriteExpr(rewriter, op, index, *replacement, refusal);
    });
  }
  case 3: {
    SmallVector<Operation *> ops = opsOf<AssignOp>();
    if (ops.empty())
      return std::nullopt;
    auto assign = cast<AssignOp>(pick<Operation *>(ops));
    return attempt("inline_assign", assign, "",
                   [&] { return inlineAssign(rewriter, assign, refusal); });
  }
  case 4:
  case 5: {
    SmallVector<Operation *> ops = opsOf<IfOp>();
    if (ops.empty())
      return std::nullopt;
    auto guard = cast<IfOp>(pick<Operation *>(ops));
    if (which == 4)
      return attempt("remove_if", guard, "", [&] {
        return removeIf(rewriter, guard, /*unsafe=*/false, refusal);
      });
    return attempt("eliminate_dead_code", guard, "",
                   [&] { return eliminateDeadCode(rewriter, guard, refusal); });
  }
  case 6: {
    SmallVector<Operation *> ops = statements();
    Operation *root = ops.empty() || chance(50) ? proc.getOperation()
                                                : pick<Operation *>(ops);
    simplify(rewriter, root);
    return RewriteAttempt{"simplify", describe(root), true};
  }
  default: {
    SmallVector<Operation *> ops = opsOf<WindowOp>();
    if (ops.empty())
      return std::nullopt;
    auto window = cast<WindowOp>(pick<Operation *>(ops));
    return attempt("inline_window", window, "",
                   [&] { return inlineWindow(rewriter, window, refusal); });
  }
  }
}

std::optional<RewriteAttempt>
RandomScheduler::tryBufferRewrite(unsigned which) {
  SmallVector<Operation *> allocOps = opsOf<AllocOp>();
  if (which == 10) {
    // stage_mem of a visible buffer around a block.
    SmallVector<Operation *> stmts = statements();
    llvm::erase_if(stmts, [](Operation *op) { return isa<AllocOp>(op); });
    if (stmts.empty())
      return std::nullopt;
    SmallVector<Operation *> block =
        blockFrom(pick<Operation *>(stmts), below(2));
    SmallVector<Value> buffers = visibleRootBuffers(block.front());
    if (buffers.empty())
      return std::nullopt;
    std::string text = randomWindowText(block.front(), pick<Value>(buffers));
    bool accum = chance(25);
    std::string params = " (" + std::to_string(block.size()) +
                         " statement(s)) window \"" + text + "\"" +
                         (accum ? " accum" : "");
    Refusal ignored;
    FailureOr<ParsedAccess> window =
        parseAccessText(text, block.front(), block.front()->getLoc(), ignored);
    if (failed(window))
      return RewriteAttempt{"stage_mem", describe(block.front()) + params,
                            false};
    MemoryAttr memory =
        MemoryAttr::get(proc.getContext(), MemoryKind::DRAM, {});
    return attempt("stage_mem", block.front(), params, [&] {
      return stageMem(rewriter, block, *window, freshName(), memory, accum,
                      refusal);
    });
  }
  if (allocOps.empty())
    return std::nullopt;
  auto alloc = cast<AllocOp>(pick<Operation *>(allocOps));
  unsigned rank = alloc.getExtents().getNumResults();
  switch (which) {
  case 0: {
    unsigned levels = 1 + below(2);
    return attempt("lift_alloc", alloc, " levels " + Twine(levels),
                   [&] { return liftAlloc(rewriter, alloc, levels, refusal); });
  }
  case 1:
    return attempt("sink_alloc", alloc, "",
                   [&] { return sinkAlloc(rewriter, alloc, refusal); });
  case 2: {
    std::string size =
        chance(50) ? std::to_string(1 + below(3)) : randomExprText(alloc);
    std::string index = randomExprText(alloc);
    std::optional<ValueExpr> s = parseAt(size, alloc),
                             i = parseAt(index, alloc);
    std::string params = " size \"" + size + "\" index \"" + index + "\"";
    if (!s || !i)
      return RewriteAttempt{"expand_dim", describe(alloc) + params, false};
    return attempt("expand_dim", alloc, params,
                   [&] { return expandDim(rewriter, alloc, *s, *i, refusal); });
  }
  case 3: {
    unsigned dim = below(rank + 1), q = 2 + below(2);
    return attempt("divide_dim", alloc,
                   " dim " + Twine(dim) + " by " + Twine(q),
                   [&] { return divideDim(rewriter, alloc, dim, q, refusal); });
  }
  case 4: {
    unsigned hi = below(rank + 1), lo = below(rank + 1);
    return attempt("mult_dim", alloc, " dims " + Twine(hi) + ", " + Twine(lo),
                   [&] { return multDim(rewriter, alloc, hi, lo, refusal); });
  }
  case 5: {
    SmallVector<int64_t> perm;
    for (unsigned d = 0; d < rank; ++d)
      perm.push_back(d);
    std::shuffle(perm.begin(), perm.end(), rng);
    return attempt("rearrange_dim", alloc, "", [&] {
      return rearrangeDim(rewriter, alloc, perm, refusal);
    });
  }
  case 6:
  case 7: {
    bool fold = which == 7;
    unsigned dim = below(rank + 1);
    std::string size =
        fold ? std::to_string(1 + below(4)) : randomExprText(alloc);
    std::string offset = chance(40) ? "0" : randomExprText(alloc);
    std::optional<ValueExpr> s = parseAt(size, alloc),
                             o = parseAt(offset, alloc);
    std::string params = " dim " + std::to_string(dim) + " size \"" + size +
                         "\"" + (fold ? " fold" : " offset \"" + offset + "\"");
    if (!s || !o)
      return RewriteAttempt{"resize_dim", describe(alloc) + params, false};
    return attempt("resize_dim", alloc, params, [&] {
      return resizeDim(rewriter, alloc, dim, *s, *o, fold, refusal);
    });
  }
  case 8:
    return attempt("delete_buffer", alloc, "",
                   [&] { return deleteBuffer(rewriter, alloc, refusal); });
  default: {
    // An earlier allocation of the same block for this one.
    SmallVector<Operation *> earlier;
    for (Operation *op = alloc->getPrevNode(); op; op = op->getPrevNode())
      if (isa<AllocOp>(op))
        earlier.push_back(op);
    if (earlier.empty())
      return std::nullopt;
    auto kept = cast<AllocOp>(pick<Operation *>(earlier));
    return attempt("reuse_buffer", kept, " for " + describe(alloc),
                   [&] { return reuseBuffer(rewriter, kept, alloc, refusal); });
  }
  }
}

std::optional<RewriteAttempt> RandomScheduler::tryProcRewrite(unsigned which) {
  auto module = proc->getParentOfType<ModuleOp>();
  SmallVector<Operation *> calls = opsOf<CallOp>();
  if (which == 0 || which == 1) {
    if (calls.empty())
      return std::nullopt;
    auto call = cast<CallOp>(pick<Operation *>(calls));
    if (which == 0)
      return attempt("inline", call, " @" + call.getCallee(),
                     [&] { return inlineCall(rewriter, call, refusal); });
    SmallVector<ProcOp> procs(module.getOps<ProcOp>());
    ProcOp other = pick<ProcOp>(procs);
    return attempt("call_eqv", call,
                   " @" + call.getCallee() + " -> @" + other.getSymName(),
                   [&] { return callEqv(rewriter, call, other, refusal); });
  }
  SmallVector<Operation *> stmts = statements();
  if (stmts.empty())
    return std::nullopt;
  if (which == 2) {
    // A block of statements into a new proc, called in its place.
    SmallVector<Operation *> block =
        blockFrom(pick<Operation *>(stmts), below(2));
    return attempt("extract_subproc", block.front(),
                   " (" + Twine(block.size()) + " statement(s))", [&] {
                     return extractSubproc(
                         rewriter, block,
                         (proc.getSymName() + "_" + freshName()).str(),
                         refusal);
                   });
  }
  // replace: a loop (usually) against the instructions of the module, in
  // random order, with random values for the parameters their bodies may
  // not determine; the first that applies is the attempt.
  SmallVector<InstrOp> instrs(module.getOps<InstrOp>());
  if (instrs.empty())
    return std::nullopt;
  std::shuffle(instrs.begin(), instrs.end(), rng);
  // Instruction bodies are loops around one statement.
  SmallVector<ForOp> loops = seqLoops();
  llvm::erase_if(loops, [](ForOp loop) {
    Block &body = loop.getBody().front();
    return !llvm::hasSingleElement(body) ||
           !isa<AssignOp, ReduceOp>(body.front());
  });
  Operation *target = !loops.empty() && chance(80)
                          ? pick<ForOp>(loops).getOperation()
                          : pick<Operation *>(stmts);
  std::string detail = describe(target);
  std::string params;
  for (InstrOp instr : instrs) {
    SmallVector<std::pair<StringRef, ValueExpr>> given;
    params = " with @" + instr.getSymName().str();
    for (unsigned i = 0, e = instr.getNumParams(); i < e; ++i) {
      if (instr.getParamKind(i) == ParamKind::data || chance(50))
        continue;
      std::string text = chance(50) ? pick<std::string>({"2", "4", "8"})
                                    : randomExprText(target);
      std::optional<ValueExpr> value = parseAt(text, target);
      if (!value)
        continue;
      StringRef name = cast<StringAttr>(instr.getArgNames()[i]).getValue();
      given.push_back({name, *value});
      params += " " + name.str() + " = \"" + text + "\"";
    }
    if (succeeded(replaceWithInstr(rewriter, {target}, instr, given,
                                   /*barrier=*/nullptr, refusal)))
      return RewriteAttempt{"replace", detail + params, true};
  }
  return RewriteAttempt{"replace", detail + params, false};
}
