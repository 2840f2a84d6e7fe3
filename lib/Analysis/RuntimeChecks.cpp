//===- RuntimeChecks.cpp - instances that fail a run-time check ----------===//
//
// Part of ExoGPU. See RuntimeChecks.h.
//
//===----------------------------------------------------------------------===//

#include "ExoGPU/Analysis/RuntimeChecks.h"
#include "ExoGPU/Dialect/ExoGPU/IR/ControlExpr.h"
#include "ExoGPU/Dialect/ExoGPU/IR/ExoGPUOps.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::exogpu;

namespace {
/// Adds to an instance set the constraint that a run-time check fails, over
/// values in the instance's copies.
using Violation = function_ref<void(ControlSet &, const InstanceScope &)>;

/// Visits statements and the bodies of what they call, looking for an
/// instance that fails a check.
class FailureFinder {
public:
  FailureFinder(const InstanceScope &scope,
                function_ref<void(InstanceSet &)> constrain)
      : rootScope(scope), constrain(constrain) {}

  /// Checks `op` and every op nested in it; stops at the first failure.
  void visit(Operation *op);

  std::optional<RuntimeFailure> result;

private:
  /// The scope of the values of the frame being visited: the caller's own
  /// statements use the rewrite's scope, callee bodies the shared copy.
  const InstanceScope &frameScope() const {
    return chain.empty() ? rootScope : calleeScope;
  }
  /// The instances of `op` in the current frame: its context, the
  /// rewrite's constraints and the bindings of the calls leading to it.
  InstanceSet instancesOf(Operation *op);
  /// Whether some instance of `op` satisfies `violation`; records the
  /// failure `what` if so.
  bool fails(Operation *op, const Twine &what, Violation violation);
  /// Checks `0 <= index < extent`.
  bool checkIndex(Operation *op, AffineExpr index, ValueRange ctrl,
                  AffineExpr extent, ValueRange extentOperands,
                  const Twine &what);
  /// Checks a window of `source` (points and intervals within it).
  bool checkWindow(Operation *op, Value source, ArrayRef<int32_t> kinds,
                   ArrayRef<AffineExpr> exprs, ValueRange ctrl,
                   const Twine &what);
  /// Checks that the extent `split` divides is a multiple of its factor.
  bool checkSplit(SplitOp split);
  bool checkCall(CallOp call);

  const InstanceScope &rootScope;
  InstanceScope calleeScope;
  function_ref<void(InstanceSet &)> constrain;
  /// The calls whose callee body is being visited, outermost first.
  SmallVector<CallOp> chain;
};
} // namespace

/// Binds the control parameters of `call`'s callee to its arguments (boolean
/// parameters stay free: the lowering makes any nonzero argument true).
static void bindCall(ControlSet &set, CallOp call, Operation *callee,
                     const InstanceScope &callerScope) {
  Block &body = callee->getRegion(0).front();
  ArrayRef<int32_t> kinds = isa<ProcOp>(callee)
                                ? cast<ProcOp>(callee).getArgKinds()
                                : cast<InstrOp>(callee).getArgKinds();
  unsigned next = 0;
  for (auto [i, raw] : llvm::enumerate(kinds)) {
    auto kind = static_cast<ParamKind>(raw);
    if (kind == ParamKind::data)
      continue;
    if (next >= call.getCtrlArgs().getNumResults())
      return;
    AffineExpr arg = call.getCtrlArgs().getResult(next++);
    if (kind == ParamKind::boolean)
      continue;
    set.addEqual(LinearForm::ofColumn(set.getColumn(body.getArgument(i), 0)),
                 set.linearize(arg, call.getCtrl(), callerScope));
  }
}

InstanceSet FailureFinder::instancesOf(Operation *op) {
  InstanceSet instances;
  instances.addContext(chain.empty() ? op : chain.front().getOperation(),
                       rootScope);
  if (constrain)
    constrain(instances);
  for (auto [k, call] : llvm::enumerate(chain)) {
    Operation *callee = call.lookupCallee();
    bindCall(instances.getSet(), call, callee,
             k == 0 ? rootScope : calleeScope);
    instances.addContext(
        k + 1 < chain.size() ? chain[k + 1].getOperation() : op, calleeScope);
  }
  return instances;
}

bool FailureFinder::fails(Operation *op, const Twine &what,
                          Violation violation) {
  InstanceSet instances = instancesOf(op);
  violation(instances.getSet(), frameScope());
  if (instances.getSet().isEmpty())
    return false;
  result =
      RuntimeFailure{op, what.str(), instances.getSet().describeSample(), {}};
  for (CallOp call : chain)
    result->calls.push_back(call);
  return true;
}

bool FailureFinder::checkIndex(Operation *op, AffineExpr index, ValueRange ctrl,
                               AffineExpr extent, ValueRange extentOperands,
                               const Twine &what) {
  std::string text = (what + " is not within [0, " +
                      printControlText(extent, extentOperands) + ")")
                         .str();
  return fails(op, text,
               [&](ControlSet &set, const InstanceScope &scope) {
                 set.addLess(set.linearize(index, ctrl, scope),
                             LinearForm::ofConstant(0));
               }) ||
         fails(op, text, [&](ControlSet &set, const InstanceScope &scope) {
           set.addLessEqual(set.linearize(extent, extentOperands, scope),
                            set.linearize(index, ctrl, scope));
         });
}

bool FailureFinder::checkWindow(Operation *op, Value source,
                                ArrayRef<int32_t> kinds,
                                ArrayRef<AffineExpr> exprs, ValueRange ctrl,
                                const Twine &what) {
  FailureOr<BufferView> view = getBufferView(source);
  if (failed(view) || kinds.size() != view->dims.size())
    return false;
  std::string name = getBufferName(source);
  unsigned next = 0;
  for (auto [k, dim] : llvm::enumerate(view->dims)) {
    auto kind = static_cast<CoordKind>(kinds[k]);
    if (next + getCoordArity(kind) > exprs.size())
      return false;
    std::string where =
        (what + " (dimension " + Twine(k) + " of '" + name + "')").str();
    if (kind == CoordKind::Point) {
      if (checkIndex(op, exprs[next++], ctrl, dim.extent, view->operands,
                     where))
        return true;
      continue;
    }
    if (kind != CoordKind::Interval)
      continue;
    AffineExpr lo = exprs[next++], hi = exprs[next++];
    std::string text = where + ": interval [" + printControlText(lo, ctrl) +
                       ", " + printControlText(hi, ctrl) +
                       ") is not within [0, " +
                       printControlText(dim.extent, view->operands) + "]";
    auto outside = [&](ControlSet &set, const InstanceScope &scope) {
      LinearForm l = set.linearize(lo, ctrl, scope);
      LinearForm h = set.linearize(hi, ctrl, scope);
      LinearForm e = set.linearize(dim.extent, view->operands, scope);
      set.addDisjunction(3, [&](ControlSet &alt, unsigned i) {
        if (i == 0)
          alt.addLess(l, LinearForm::ofConstant(0));
        else if (i == 1)
          alt.addLess(h, l);
        else
          alt.addLess(e, h);
      });
    };
    if (fails(op, text, outside))
      return true;
  }
  return false;
}

bool FailureFinder::checkSplit(SplitOp split) {
  FailureOr<BufferView> view = getBufferView(split.getSource());
  int64_t factor = split.getFactor();
  if (failed(view) || split.getDim() >= view->dims.size() || factor <= 0)
    return false;
  AffineExpr extent = view->dims[split.getDim()].extent;
  return fails(
      split,
      "extent " + printControlText(extent, view->operands) + " of dimension " +
          Twine(split.getDim()) + " of '" + getBufferName(split.getSource()) +
          "' is not a multiple of the split factor " + Twine(factor),
      [&](ControlSet &set, const InstanceScope &scope) {
        set.addLess(LinearForm::ofConstant(0),
                    set.linearize(extent % factor, view->operands, scope));
      });
}

/// The extents of the window `kinds`/`exprs` (over `ctrl`) of `buffer`, as
/// (expression, operands) pairs, one per dimension of the window.
static SmallVector<std::pair<AffineExpr, SmallVector<Value>>>
windowExtents(Value buffer, ArrayRef<int32_t> kinds, ArrayRef<AffineExpr> exprs,
              ValueRange ctrl) {
  SmallVector<std::pair<AffineExpr, SmallVector<Value>>> extents;
  FailureOr<BufferView> view = getBufferView(buffer);
  if (failed(view) || (!kinds.empty() && kinds.size() != view->dims.size()))
    return extents;
  unsigned next = 0;
  for (auto [k, dim] : llvm::enumerate(view->dims)) {
    auto kind =
        kinds.empty() ? CoordKind::Full : static_cast<CoordKind>(kinds[k]);
    if (next + getCoordArity(kind) > exprs.size())
      return {};
    if (kind == CoordKind::Point) {
      ++next;
    } else if (kind == CoordKind::Interval) {
      extents.push_back({exprs[next + 1] - exprs[next],
                         SmallVector<Value>(ctrl.begin(), ctrl.end())});
      next += 2;
    } else {
      extents.push_back({dim.extent, SmallVector<Value>(view->operands.begin(),
                                                        view->operands.end())});
    }
  }
  return extents;
}

bool FailureFinder::checkCall(CallOp call) {
  FailureOr<SmallVector<AccessView>> coords = splitAccesses(
      call, call.getCoordKinds(), call.getCoordCounts(), call.getCoords());
  if (failed(coords))
    return false;
  for (auto [n, arg] : llvm::enumerate(call.getDataArgs()))
    if (checkWindow(call, arg, (*coords)[n].kinds, (*coords)[n].exprs,
                    call.getCtrl(), "data argument " + Twine(n)))
      return true;
  Operation *callee = call.lookupCallee();
  if (!callee)
    return false;
  std::string calleeName =
      "@" + cast<SymbolOpInterface>(callee).getName().str();
  if (llvm::any_of(chain, [&](CallOp outer) {
        return outer.getCallee() == call.getCallee();
      })) {
    return fails(call, calleeName + " is called recursively",
                 [](ControlSet &, const InstanceScope &) {});
  }
  Block &body = callee->getRegion(0).front();
  auto bind = [&](ControlSet &set, const InstanceScope &scope) {
    bindCall(set, call, callee, scope);
  };
  auto proc = dyn_cast<ProcOp>(callee);
  if (proc) {
    // The callee's contract: its precondition, positive sizes.
    if (ConditionAttr pre = proc.getPreconditionsAttr())
      if (fails(call, "the precondition of " + calleeName + " does not hold",
                [&](ControlSet &set, const InstanceScope &scope) {
                  bind(set, scope);
                  set.addCondition(pre, body.getArguments(), calleeScope,
                                   /*negated=*/true);
                }))
        return true;
    for (unsigned i = 0, e = proc.getNumParams(); i < e; ++i)
      if (proc.getParamKind(i) == ParamKind::size &&
          fails(call,
                "size argument '" + getControlName(proc.getParam(i)) + "' of " +
                    calleeName + " is not positive",
                [&](ControlSet &set, const InstanceScope &scope) {
                  bind(set, scope);
                  set.addLess(
                      LinearForm::ofColumn(set.getColumn(proc.getParam(i), 0)),
                      LinearForm::ofConstant(1));
                }))
        return true;
  }
  // Each data argument has the extents of its parameter.
  ArrayRef<int32_t> kinds =
      proc ? proc.getArgKinds() : cast<InstrOp>(callee).getArgKinds();
  ArrayAttr paramExtents =
      proc ? proc.getArgExtents() : cast<InstrOp>(callee).getArgExtents();
  unsigned n = 0;
  for (unsigned i = 0, e = kinds.size(); i < e; ++i) {
    if (static_cast<ParamKind>(kinds[i]) != ParamKind::data)
      continue;
    if (n >= call.getDataArgs().size())
      return false;
    auto extents = windowExtents(call.getDataArgs()[n], (*coords)[n].kinds,
                                 (*coords)[n].exprs, call.getCtrl());
    AffineMap want = cast<AffineMapAttr>(paramExtents[i]).getValue();
    for (unsigned d = 0,
                  e = std::min<unsigned>(extents.size(), want.getNumResults());
         d < e; ++d) {
      AffineExpr got = extents[d].first, expected = want.getResult(d);
      ArrayRef<Value> gotOperands = extents[d].second;
      if (fails(call,
                "extent " + Twine(d) + " of data argument " + Twine(n) +
                    " is not the extent " +
                    printControlText(expected, body.getArguments()) +
                    " of parameter '" + getControlName(body.getArgument(i)) +
                    "' of " + calleeName,
                [&](ControlSet &set, const InstanceScope &scope) {
                  bind(set, scope);
                  LinearForm g = set.linearize(got, gotOperands, scope);
                  LinearForm w =
                      set.linearize(expected, body.getArguments(), calleeScope);
                  set.addDisjunction(2, [&](ControlSet &alt, unsigned k) {
                    if (k == 0)
                      alt.addLess(g, w);
                    else
                      alt.addLess(w, g);
                  });
                }))
        return true;
    }
    ++n;
  }
  // The callee's own checks, with its parameters bound to the arguments.
  chain.push_back(call);
  for (Operation &op : body) {
    visit(&op);
    if (result)
      break;
  }
  chain.pop_back();
  return result.has_value();
}

void FailureFinder::visit(Operation *root) {
  root->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (result)
      return WalkResult::interrupt();
    auto checkPoints = [&](Value buffer, AffineMap indices, ValueRange ctrl) {
      SmallVector<int32_t> points(indices.getNumResults(),
                                  static_cast<int32_t>(CoordKind::Point));
      return checkWindow(op, buffer, points, indices.getResults(), ctrl,
                         "index");
    };
    bool failed = false;
    if (auto assign = dyn_cast<AssignOp>(op))
      failed =
          checkPoints(assign.getDest(), assign.getIndices(), assign.getCtrl());
    else if (auto reduce = dyn_cast<ReduceOp>(op))
      failed =
          checkPoints(reduce.getDest(), reduce.getIndices(), reduce.getCtrl());
    else if (auto read = dyn_cast<ReadOp>(op))
      failed = checkPoints(read.getSource(), read.getIndices(), read.getCtrl());
    else if (auto window = dyn_cast<WindowOp>(op))
      failed = checkWindow(op, window.getSource(), window.getCoordKinds(),
                           window.getCoords().getResults(), window.getCtrl(),
                           "window");
    else if (auto split = dyn_cast<SplitOp>(op))
      failed = checkSplit(split);
    else if (auto call = dyn_cast<CallOp>(op))
      failed = checkCall(call);
    else if (auto alloc = dyn_cast<AllocOp>(op))
      for (unsigned d = 0, e = alloc.getExtents().getNumResults();
           d < e && !failed; ++d) {
        AffineExpr extent = alloc.getExtents().getResult(d);
        failed =
            fails(op,
                  "extent " + Twine(d) +
                      " of the allocation is "
                      "negative",
                  [&](ControlSet &set, const InstanceScope &scope) {
                    set.addLess(set.linearize(extent, alloc.getCtrl(), scope),
                                LinearForm::ofConstant(0));
                  });
      }
    return failed ? WalkResult::interrupt() : WalkResult::advance();
  });
}

std::optional<RuntimeFailure>
mlir::exogpu::findRuntimeFailure(ArrayRef<Operation *> stmts,
                                 const InstanceScope &scope,
                                 function_ref<void(InstanceSet &)> constrain) {
  FailureFinder finder(scope, constrain);
  for (Operation *op : stmts) {
    finder.visit(op);
    if (finder.result)
      break;
  }
  return finder.result;
}

void mlir::exogpu::attachRuntimeFailureNotes(Diagnostic &diag,
                                             const RuntimeFailure &failure) {
  Diagnostic &note = diag.attachNote(failure.op->getLoc());
  note << failure.what;
  if (!failure.witness.empty())
    note << " (for example at " << failure.witness << ")";
  for (Operation *call : llvm::reverse(failure.calls))
    diag.attachNote(call->getLoc()) << "reached through this call";
}
