//===- ProcRewrites.cpp - procs, calls and instruction selection ---------===//
//
// Part of ExoGPU. See ProcRewrites.h.
//
//===----------------------------------------------------------------------===//

#include "ExoGPU/Transforms/Scheduling/ProcRewrites.h"
#include "ExoGPU/Analysis/BufferAccesses.h"
#include "ExoGPU/Analysis/Dependences.h"
#include "ExoGPU/Analysis/RuntimeChecks.h"
#include "ExoGPU/Dialect/ExoGPU/IR/ControlExpr.h"
#include "ExoGPU/Dialect/ExoGPU/IR/Libraries.h"
#include "ExoGPU/Dialect/ExoGPU/IR/Scope.h"
#include "ExoGPU/Transforms/Scheduling/BufferRewrites.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace mlir::exogpu;

static constexpr int32_t kPoint = static_cast<int32_t>(CoordKind::Point);
static constexpr int32_t kInterval = static_cast<int32_t>(CoordKind::Interval);

/// The names of a callable's parameters.
template <typename CallableT>
static StringRef paramName(CallableT op, unsigned i) {
  return cast<StringAttr>(op.getArgNames()[i]).getValue();
}

//===----------------------------------------------------------------------===//
// inline
//===----------------------------------------------------------------------===//

FailureOr<SmallVector<Operation *>>
mlir::exogpu::inlineCall(RewriterBase &rewriter, CallOp call,
                         Refusal &refusal) {
  ProcOp callee = call.lookupProc();
  if (!callee) {
    refusal.at(call.getLoc())
        << "inline applies to calls of procs (instructions are hardware)";
    return failure();
  }
  FailureOr<SmallVector<AccessView>> views = splitAccesses(
      call, call.getCoordKinds(), call.getCoordCounts(), call.getCoords());
  if (failed(views))
    return failure();
  MLIRContext *ctx = call.getContext();
  rewriter.setInsertionPoint(call);
  IRMapping mapping;
  SmallVector<ControlSubstitution> substitutions;
  SmallVector<WindowOp> windows;
  unsigned nextCtrl = 0, nextData = 0;
  SmallVector<Value> ctrl(call.getCtrl());
  for (unsigned i = 0, e = callee.getNumParams(); i < e; ++i) {
    BlockArgument param = callee.getParam(i);
    if (callee.getParamKind(i) != ParamKind::data) {
      AffineExpr arg = call.getCtrlArgs().getResult(nextCtrl++);
      substitutions.push_back(
          {param, {arg, SmallVector<Value, 4>(ctrl.begin(), ctrl.end())}});
      continue;
    }
    Value arg = call.getDataArgs()[nextData];
    const AccessView &view = (*views)[nextData++];
    if (view.kinds.empty()) {
      mapping.map(param, arg);
      continue;
    }
    // The argument window, inlined below.
    auto source = cast<BufferTypeInterface>(arg.getType());
    SmallVector<int64_t> shape;
    unsigned next = 0;
    for (auto [d, raw] : llvm::enumerate(view.kinds)) {
      if (raw == kPoint) {
        ++next;
      } else if (raw == kInterval) {
        auto c = dyn_cast<AffineConstantExpr>(view.exprs[next + 1] -
                                              view.exprs[next]);
        shape.push_back(c ? c.getValue() : ShapedType::kDynamic);
        next += 2;
      } else {
        shape.push_back(source.getShape()[d]);
      }
    }
    auto window = WindowOp::create(
        rewriter, call.getLoc(),
        WindowType::get(ctx, source.getElementType(), shape, source.getMemory(),
                        SpecialWindowAttr()),
        arg, view.kinds, AffineMap::get(ctrl.size(), 0, view.exprs, ctx), ctrl,
        SpecialWindowAttr(), rewriter.getStringAttr(paramName(callee, i)));
    setControlMaps(window, getControlMaps(window), ctrl);
    mapping.map(param, window.getResult());
    windows.push_back(window);
  }
  SmallVector<Operation *> created;
  TypeChanges types;
  bool typed = true;
  for (Operation &op : callee.getBody().front()) {
    Operation *copy = rewriter.clone(op, mapping);
    substituteControlValues(copy, substitutions);
    created.push_back(copy);
    // An extent over a parameter the call passes a constant for is static.
    typed = typed && succeeded(updateBufferTypes(copy, types));
  }
  // Undoes the inlining: the copies, then the argument windows left.
  auto undo = [&] {
    for (Operation *copy : llvm::reverse(created))
      rewriter.eraseOp(copy);
    for (WindowOp window : llvm::reverse(windows))
      if (window.getResult().use_empty() && window->getBlock())
        rewriter.eraseOp(window);
  };
  if (!typed) {
    undo();
    refusal.at(call.getLoc())
        << "inline would give a buffer of @" << callee.getSymName()
        << " a constant extent that is not positive";
    return failure();
  }
  for (auto [i, window] : llvm::enumerate(windows)) {
    if (failed(inlineWindow(rewriter, window, refusal))) {
      windows.erase(windows.begin(), windows.begin() + i);
      undo();
      return failure();
    }
  }
  windows.clear();
  if (failed(verifyOrExplain(call->getParentOfType<ProcOp>(), call.getLoc(),
                             "inline", refusal))) {
    undo();
    return failure();
  }
  rewriter.eraseOp(call);
  return created;
}

//===----------------------------------------------------------------------===//
// extract_subproc
//===----------------------------------------------------------------------===//

FailureOr<std::pair<ProcOp, CallOp>>
mlir::exogpu::extractSubproc(RewriterBase &rewriter,
                             ArrayRef<Operation *> block, StringRef name,
                             Refusal &refusal) {
  Operation *first = block.front();
  if (isCudaScope(first)) {
    refusal.at(first->getLoc())
        << "extract_subproc: procs are called at CPU scope; this block is in "
           "a device function";
    return failure();
  }
  auto parent = first->getParentOfType<ProcOp>();
  auto inBlock = [&](Operation *op) {
    return llvm::any_of(block, [&](Operation *stmt) {
      return stmt == op || stmt->isProperAncestor(op);
    });
  };
  auto definedInBlock = [&](Value v) {
    Operation *def = v.getDefiningOp();
    if (!def)
      def = cast<BlockArgument>(v).getOwner()->getParentOp();
    return inBlock(def);
  };
  // The block moves into the new proc: what it defines would not be visible
  // after it.
  SmallVector<Operation *> after;
  for (Operation *op = block.back()->getNextNode(); op; op = op->getNextNode())
    after.push_back(op);
  if (Operation *user = findUseOfDefinitions(block, after)) {
    refusal.at(user->getLoc())
        << "extract_subproc: this statement after the block uses a buffer or "
           "window the block defines";
    return failure();
  }
  // The values the block uses from outside, control values first; buffers
  // bring the control values of their extents.
  SmallVector<Value> control, data;
  auto addControl = [&](Value v) {
    if (!llvm::is_contained(control, v))
      control.push_back(v);
  };
  WalkResult walk = WalkResult::advance();
  for (Operation *stmt : block) {
    walk = stmt->walk([&](Operation *op) {
      for (Value v : op->getOperands()) {
        if (definedInBlock(v))
          continue;
        if (v.getType().isIndex() || v.getType().isInteger(1)) {
          addControl(v);
          continue;
        }
        bool isParam = isa<BlockArgument>(v);
        if (!isa<DataTensorType>(v.getType()) ||
            (!isParam && !v.getDefiningOp<AllocOp>())) {
          refusal.at(op->getLoc())
              << "extract_subproc: the block uses '" << getBufferName(v)
              << "', a window, split or barrier defined outside it; pass "
                 "buffers (inline_window first, or take the split in the "
                 "block)";
          return WalkResult::interrupt();
        }
        if (!llvm::is_contained(data, v)) {
          data.push_back(v);
          SmallVector<AffineExpr> extents;
          SmallVector<Value> operands;
          getRootExtents(v, extents, operands);
          for (AffineExpr e : extents)
            e.walk([&](AffineExpr sub) {
              if (auto d = dyn_cast<AffineDimExpr>(sub))
                addControl(operands[d.getPosition()]);
            });
        }
      }
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return failure();
  }
  // Parameter kinds: sizes stay sizes, booleans bools, the rest indices.
  MLIRContext *ctx = rewriter.getContext();
  SmallVector<Value> params(control);
  llvm::append_range(params, data);
  auto kindOf = [&](Value v) {
    if (v.getType().isInteger(1))
      return ParamKind::boolean;
    if (auto arg = dyn_cast<BlockArgument>(v);
        arg && arg.getOwner()->getParentOp() == parent)
      return parent.getParamKind(arg.getArgNumber());
    return ParamKind::index;
  };
  SmallVector<int32_t> kinds;
  SmallVector<Attribute> extentMaps, names;
  SmallVector<Type> types;
  for (Value v : params) {
    kinds.push_back(static_cast<int32_t>(kindOf(v)));
    types.push_back(v.getType());
    std::string nameText = isa<BufferTypeInterface>(v.getType())
                               ? getBufferName(v)
                               : getControlName(v);
    names.push_back(rewriter.getStringAttr(nameText == "?" ? "" : nameText));
    SmallVector<AffineExpr> extents;
    if (isa<DataTensorType>(v.getType())) {
      SmallVector<Value> operands;
      getRootExtents(v, extents, operands);
      for (AffineExpr &e : extents) {
        SmallVector<AffineExpr> dims;
        for (Value o : operands) {
          auto it = llvm::find(params, o);
          dims.push_back(getAffineDimExpr(it - params.begin(), ctx));
        }
        e = e.replaceDimsAndSymbols(dims, {});
      }
    }
    extentMaps.push_back(
        AffineMapAttr::get(AffineMap::get(params.size(), 0, extents, ctx)));
  }
  // Extents use size parameters only: a buffer whose extents depend on an
  // iterator cannot be passed.
  for (auto [i, map] : llvm::enumerate(extentMaps)) {
    bool onlySizes = true;
    for (AffineExpr e : cast<AffineMapAttr>(map).getValue().getResults())
      e.walk([&](AffineExpr sub) {
        if (auto d = dyn_cast<AffineDimExpr>(sub))
          onlySizes &=
              kinds[d.getPosition()] == static_cast<int32_t>(ParamKind::size);
      });
    if (!onlySizes) {
      refusal.at(first->getLoc())
          << "extract_subproc: the extents of '" << getBufferName(params[i])
          << "' depend on values that are not sizes";
      return failure();
    }
  }
  // The preconditions over passed parameters (a conjunction only).
  ConditionAttr pre;
  if (ConditionAttr old = parent.getPreconditionsAttr();
      old && !llvm::is_contained(old.getAtoms(),
                                 static_cast<int64_t>(ConditionAtomKind::Or))) {
    SmallVector<AffineExpr> exprs;
    SmallVector<int64_t> atoms;
    unsigned next = 0;
    for (int64_t raw : old.getAtoms()) {
      auto kind = static_cast<ConditionAtomKind>(raw);
      unsigned arity =
          kind == ConditionAtomKind::Bool ? 1
          : kind == ConditionAtomKind::True || kind == ConditionAtomKind::False
              ? 0
              : 2;
      SmallVector<AffineExpr> atomExprs;
      bool passed = true;
      for (unsigned a = 0; a < arity; ++a) {
        AffineExpr e = old.getMap().getResult(next++);
        SmallVector<AffineExpr> dims;
        for (BlockArgument arg : parent.getBody().getArguments()) {
          auto it = llvm::find(params, Value(arg));
          passed &=
              it != params.end() || !e.isFunctionOfDim(arg.getArgNumber());
          dims.push_back(getAffineDimExpr(
              it == params.end() ? 0 : it - params.begin(), ctx));
        }
        atomExprs.push_back(e.replaceDimsAndSymbols(dims, {}));
      }
      if (!passed)
        continue;
      llvm::append_range(exprs, atomExprs);
      atoms.push_back(raw);
    }
    if (!atoms.empty())
      pre = ConditionAttr::get(
          ctx, AffineMap::get(params.size(), 0, exprs, ctx), atoms);
  }
  // The proc, before the parent.
  rewriter.setInsertionPoint(parent);
  auto proc = ProcOp::create(
      rewriter, first->getLoc(), rewriter.getStringAttr(name),
      rewriter.getDenseI32ArrayAttr(kinds), rewriter.getArrayAttr(extentMaps),
      rewriter.getArrayAttr(names), pre);
  SmallVector<Location> locs(params.size(), first->getLoc());
  Block *body = rewriter.createBlock(&proc.getBody(), {}, types, locs);
  IRMapping mapping;
  for (auto [v, arg] : llvm::zip(params, body->getArguments()))
    mapping.map(v, arg);
  rewriter.setInsertionPointToEnd(body);
  for (Operation *stmt : block)
    rewriter.clone(*stmt, mapping);
  // The call.
  rewriter.setInsertionPoint(first);
  SmallVector<AffineExpr> ctrlArgs;
  for (unsigned i = 0; i < control.size(); ++i)
    ctrlArgs.push_back(getAffineDimExpr(i, ctx));
  SmallVector<int32_t> counts(data.size(), 0);
  auto call = CallOp::create(
      rewriter, first->getLoc(), FlatSymbolRefAttr::get(proc.getSymNameAttr()),
      AffineMapAttr::get(AffineMap::get(control.size(), 0, ctrlArgs, ctx)),
      data, Value(), rewriter.getDenseI32ArrayAttr({}),
      rewriter.getDenseI32ArrayAttr(counts),
      AffineMapAttr::get(AffineMap::get(control.size(), 0, {}, ctx)), control);
  if (failed(verifyOrExplain(parent->getParentOp(), first->getLoc(),
                             "extract_subproc", refusal))) {
    rewriter.eraseOp(call);
    rewriter.eraseOp(proc);
    return failure();
  }
  for (Operation *stmt : llvm::reverse(block))
    rewriter.eraseOp(stmt);
  return std::make_pair(proc, call);
}

//===----------------------------------------------------------------------===//
// copy_proc, call_eqv
//===----------------------------------------------------------------------===//

/// The equivalence class of a proc: the proc it was copied from, or itself.
static StringRef equivalenceClass(ProcOp proc) {
  if (auto of = proc->getAttrOfType<FlatSymbolRefAttr>(kEquivalentToAttrName))
    return of.getValue();
  return proc.getSymName();
}

FailureOr<ProcOp> mlir::exogpu::copyProc(RewriterBase &rewriter, ProcOp proc,
                                         StringRef name, Refusal &refusal) {
  if (lookupSymbol(proc, StringAttr::get(proc.getContext(), name))) {
    refusal.at(proc.getLoc())
        << "copy_proc: a symbol named @" << name << " exists";
    return failure();
  }
  rewriter.setInsertionPointAfter(proc);
  auto copy = cast<ProcOp>(rewriter.clone(*proc));
  rewriter.modifyOpInPlace(copy, [&] {
    copy.setSymName(name);
    copy->setAttr(
        kEquivalentToAttrName,
        FlatSymbolRefAttr::get(proc.getContext(), equivalenceClass(proc)));
  });
  return copy;
}

LogicalResult mlir::exogpu::callEqv(RewriterBase &rewriter, CallOp call,
                                    ProcOp other, Refusal &refusal) {
  ProcOp callee = call.lookupProc();
  if (!callee) {
    refusal.at(call.getLoc()) << "call_eqv applies to calls of procs";
    return failure();
  }
  if (equivalenceClass(callee) != equivalenceClass(other)) {
    refusal.at(call.getLoc())
        << "call_eqv: @" << other.getSymName() << " is not known to be "
        << "equivalent to @" << callee.getSymName()
        << " (neither is a copy_proc copy of the other's proc)";
    return failure();
  }
  if (callee.getArgKinds() != other.getArgKinds() ||
      callee.getBody().getArgumentTypes() !=
          other.getBody().getArgumentTypes()) {
    refusal.at(call.getLoc())
        << "call_eqv: @" << other.getSymName() << " has another signature";
    return failure();
  }
  rewriter.modifyOpInPlace(call, [&] {
    call.setCalleeAttr(FlatSymbolRefAttr::get(other.getSymNameAttr()));
  });
  return success();
}

//===----------------------------------------------------------------------===//
// replace: unification of a block with an instruction body
//===----------------------------------------------------------------------===//

namespace {
/// A data parameter bound to a window of a block buffer: per dimension of
/// the buffer a point or the start of an interval the parameter's
/// dimension runs over.
struct DataBinding {
  Value buffer;
  SmallVector<bool, 4> isInterval;
  SmallVector<AffineExpr, 4> exprs; // point, or interval start
  SmallVector<AffineExpr, 4> extents;
  SmallVector<Value, 4> operands;
};

/// Unifies block statements with an instruction's body.
class Unifier {
public:
  Unifier(InstrOp instr, Refusal &refusal) : instr(instr), refusal(refusal) {}

  LogicalResult matchBlock(ArrayRef<Operation *> block, Block &body,
                           Operation *anchor);

  InstrOp instr;
  Refusal &refusal;
  DenseMap<Value, Value> iterators; // instruction iterator -> block iterator
  DenseMap<unsigned, ValueExpr> control;
  DenseMap<unsigned, DataBinding> data;

private:
  LogicalResult mismatch(Operation *s, Operation *t, const Twine &what) {
    Diagnostic &diag = refusal.at(s->getLoc());
    diag << "replace: the block does not match the body of @"
         << instr.getSymName() << ": " << what;
    diag.attachNote(t->getLoc()) << "instruction statement";
    return failure();
  }
  /// `expr` of the instruction over block values; fails on an unbound
  /// control parameter.
  FailureOr<ValueExpr> translate(AffineExpr expr, ValueRange ctrl);
  LogicalResult matchExpr(Operation *s, AffineExpr se, ValueRange sctrl,
                          Operation *t, AffineExpr te, ValueRange tctrl);
  LogicalResult matchAccess(Operation *s, Value sbuf, AffineMap sidx,
                            ValueRange sctrl, Operation *t, Value tbuf,
                            AffineMap tidx, ValueRange tctrl);
  LogicalResult matchValue(Operation *s, Value sv, Operation *t, Value tv);
  LogicalResult matchStmt(Operation *s, Operation *t);
  bool isInner(Value v) const {
    return llvm::any_of(iterators, [&](auto &kv) { return kv.second == v; });
  }
  std::optional<unsigned> paramIndex(Value v) const {
    auto arg = dyn_cast<BlockArgument>(v);
    if (!arg || arg.getOwner()->getParentOp() != instr)
      return std::nullopt;
    return arg.getArgNumber();
  }
};
} // namespace

FailureOr<ValueExpr> Unifier::translate(AffineExpr expr, ValueRange ctrl) {
  ValueExpr result{AffineExpr(), {}};
  SmallVector<AffineExpr> dims;
  for (auto [d, v] : llvm::enumerate(ctrl)) {
    if (!expr.isFunctionOfDim(d)) {
      dims.push_back(getAffineConstantExpr(0, expr.getContext()));
      continue;
    }
    if (Value block = iterators.lookup(v)) {
      dims.push_back(remapOperands(getAffineDimExpr(0, expr.getContext()),
                                   {block}, result.operands));
      continue;
    }
    std::optional<unsigned> p = paramIndex(v);
    if (!p || !control.count(*p))
      return failure();
    const ValueExpr &bound = control[*p];
    dims.push_back(remapOperands(bound.expr, bound.operands, result.operands));
  }
  result.expr =
      tidyExpr(expr.replaceDimsAndSymbols(dims, {}), result.operands.size());
  return result;
}

LogicalResult Unifier::matchExpr(Operation *s, AffineExpr se, ValueRange sctrl,
                                 Operation *t, AffineExpr te,
                                 ValueRange tctrl) {
  FailureOr<ValueExpr> translated = translate(te, tctrl);
  if (failed(translated)) {
    // `c` or `c + k` for an unbound control parameter c: solve.
    AffineExpr base = te;
    int64_t offset = 0;
    if (auto bin = dyn_cast<AffineBinaryOpExpr>(te);
        bin && te.getKind() == AffineExprKind::Add)
      if (auto k = dyn_cast<AffineConstantExpr>(bin.getRHS())) {
        base = bin.getLHS();
        offset = k.getValue();
      }
    auto dim = dyn_cast<AffineDimExpr>(base);
    std::optional<unsigned> p =
        dim ? paramIndex(tctrl[dim.getPosition()]) : std::nullopt;
    if (!p || control.count(*p))
      return mismatch(s, t,
                      "cannot solve '" + printControlText(te, tctrl) + "'");
    control[*p] = {tidyExpr(se - offset, sctrl.size()),
                   SmallVector<Value, 4>(sctrl)};
    return success();
  }
  if (!isRelationInvariant(s, se, sctrl, ConditionAtomKind::Eq,
                           translated->expr, translated->operands))
    return mismatch(
        s, t,
        "'" + printControlText(se, sctrl) + "' is not '" +
            printControlText(translated->expr, translated->operands) + "'");
  return success();
}

LogicalResult Unifier::matchAccess(Operation *s, Value sbuf, AffineMap sidx,
                                   ValueRange sctrl, Operation *t, Value tbuf,
                                   AffineMap tidx, ValueRange tctrl) {
  std::optional<unsigned> p = paramIndex(tbuf);
  if (!p)
    return mismatch(s, t, "the instruction accesses a window of a parameter");
  SmallVector<ValueExpr> f;
  for (AffineExpr e : tidx.getResults()) {
    FailureOr<ValueExpr> translated = translate(e, tctrl);
    if (failed(translated))
      return mismatch(s, t,
                      "cannot solve the index '" + printControlText(e, tctrl) +
                          "' of parameter '" + paramName(instr, *p) + "'");
    f.push_back(*translated);
  }
  auto it = data.find(*p);
  if (it == data.end()) {
    // Bind: the buffer dimensions indexed by the inner iterators are the
    // parameter's dimensions, in order.
    DataBinding binding;
    binding.buffer = sbuf;
    binding.operands.assign(sctrl.begin(), sctrl.end());
    unsigned k = 0;
    for (AffineExpr e : sidx.getResults()) {
      bool inner = false;
      e.walk([&](AffineExpr sub) {
        if (auto d = dyn_cast<AffineDimExpr>(sub))
          inner |= isInner(sctrl[d.getPosition()]);
      });
      binding.isInterval.push_back(inner);
      if (!inner) {
        binding.exprs.push_back(e);
        continue;
      }
      if (k >= f.size())
        return mismatch(s, t,
                        "more buffer dimensions vary with the loops than "
                        "parameter '" +
                            paramName(instr, *p) + "' has");
      AffineExpr fk = remapOperands(f[k].expr, f[k].operands, binding.operands);
      AffineExpr lo = tidyExpr(e - fk, binding.operands.size());
      bool usesInner = false;
      lo.walk([&](AffineExpr sub) {
        if (auto d = dyn_cast<AffineDimExpr>(sub))
          usesInner |= isInner(binding.operands[d.getPosition()]);
      });
      if (usesInner)
        return mismatch(s, t,
                        "the buffer index '" + printControlText(e, sctrl) +
                            "' does not follow '" +
                            printControlText(f[k].expr, f[k].operands) + "'");
      binding.exprs.push_back(lo);
      ++k;
    }
    if (k != f.size())
      return mismatch(s, t,
                      "fewer buffer dimensions vary with the loops than "
                      "parameter '" +
                          paramName(instr, *p) + "' has");
    // Extents of the parameter's dimensions.
    AffineMap extents = instr.getParamExtents(*p);
    for (AffineExpr e : extents.getResults()) {
      FailureOr<ValueExpr> ext =
          translate(e, instr.getBody().front().getArguments());
      if (failed(ext))
        return mismatch(s, t,
                        "the extents of parameter '" + paramName(instr, *p) +
                            "' use an undetermined parameter");
      binding.extents.push_back(
          remapOperands(ext->expr, ext->operands, binding.operands));
    }
    data[*p] = binding;
    return success();
  }
  // Bound: the access must be the same window.
  DataBinding &binding = it->second;
  if (binding.buffer != sbuf)
    return mismatch(s, t,
                    "parameter '" + paramName(instr, *p) +
                        "' stands for two different buffers");
  unsigned k = 0;
  for (auto [d, e] : llvm::enumerate(sidx.getResults())) {
    ValueExpr expected{binding.exprs[d], binding.operands};
    if (binding.isInterval[d])
      expected = ValueExpr::add(expected, f[k++]);
    if (!isRelationInvariant(s, e, sctrl, ConditionAtomKind::Eq, expected.expr,
                             expected.operands))
      return mismatch(s, t,
                      "parameter '" + paramName(instr, *p) +
                          "' stands for two different windows");
  }
  return success();
}

LogicalResult Unifier::matchValue(Operation *s, Value sv, Operation *t,
                                  Value tv) {
  Operation *sd = sv.getDefiningOp(), *td = tv.getDefiningOp();
  if (!sd || !td || sd->getName() != td->getName())
    return mismatch(s, t, "the data expressions differ");
  if (auto sr = dyn_cast<ReadOp>(sd)) {
    auto tr = cast<ReadOp>(td);
    return matchAccess(s, sr.getSource(), sr.getIndices(), sr.getCtrl(), t,
                       tr.getSource(), tr.getIndices(), tr.getCtrl());
  }
  if (auto sc = dyn_cast<ConstantOp>(sd)) {
    if (sc.getValue() != cast<ConstantOp>(td).getValue())
      return mismatch(s, t, "the constants differ");
    return success();
  }
  for (auto [a, b] : llvm::zip(sd->getOperands(), td->getOperands()))
    if (failed(matchValue(s, a, t, b)))
      return failure();
  return success();
}

LogicalResult Unifier::matchStmt(Operation *s, Operation *t) {
  if (s->getName() != t->getName())
    return mismatch(s, t,
                    "a '" + s->getName().getStringRef() +
                        "' where the instruction has '" +
                        t->getName().getStringRef() + "'");
  if (auto sl = dyn_cast<ForOp>(s)) {
    auto tl = cast<ForOp>(t);
    if (sl.getMode() != LoopMode::seq)
      return mismatch(s, t, "the block's loop is not a seq loop");
    if (failed(matchExpr(s, sl.getLowerBoundExpr(), sl.getCtrl(), t,
                         tl.getLowerBoundExpr(), tl.getCtrl())) ||
        failed(matchExpr(s, sl.getUpperBoundExpr(), sl.getCtrl(), t,
                         tl.getUpperBoundExpr(), tl.getCtrl())))
      return failure();
    iterators[tl.getIterator()] = sl.getIterator();
    SmallVector<Operation *> body;
    for (Operation &op : sl.getBody().front())
      body.push_back(&op);
    return matchBlock(body, tl.getBody().front(), s);
  }
  if (auto sg = dyn_cast<IfOp>(s)) {
    auto tg = cast<IfOp>(t);
    if (sg.getCondition().getAtoms() != tg.getCondition().getAtoms())
      return mismatch(s, t, "the conditions differ");
    for (auto [se, te] : llvm::zip(sg.getCondition().getMap().getResults(),
                                   tg.getCondition().getMap().getResults()))
      if (failed(matchExpr(s, se, sg.getCtrl(), t, te, tg.getCtrl())))
        return failure();
    SmallVector<Operation *> body;
    for (Operation &op : sg.getBody().front())
      body.push_back(&op);
    return matchBlock(body, tg.getBody().front(), s);
  }
  auto matchWrite = [&](auto sw, auto tw) -> LogicalResult {
    if (failed(matchAccess(s, sw.getDest(), sw.getIndices(), sw.getCtrl(), t,
                           tw.getDest(), tw.getIndices(), tw.getCtrl())))
      return failure();
    return matchValue(s, sw.getValueExpr(), t, tw.getValueExpr());
  };
  if (auto sa = dyn_cast<AssignOp>(s))
    return matchWrite(sa, cast<AssignOp>(t));
  if (auto sr = dyn_cast<ReduceOp>(s))
    return matchWrite(sr, cast<ReduceOp>(t));
  return mismatch(s, t,
                  "a '" + s->getName().getStringRef() + "' cannot be matched");
}

LogicalResult Unifier::matchBlock(ArrayRef<Operation *> block, Block &body,
                                  Operation *anchor) {
  SmallVector<Operation *> instrStmts;
  for (Operation &op : body)
    instrStmts.push_back(&op);
  if (block.size() != instrStmts.size()) {
    Diagnostic &diag = refusal.at(anchor->getLoc());
    diag << "replace: the block does not match the body of @"
         << instr.getSymName() << ": " << block.size()
         << " statement(s) where the instruction has " << instrStmts.size();
    return failure();
  }
  for (auto [s, t] : llvm::zip(block, instrStmts))
    if (failed(matchStmt(s, t)))
      return failure();
  return success();
}

FailureOr<CallOp>
mlir::exogpu::replaceWithInstr(RewriterBase &rewriter,
                               ArrayRef<Operation *> block, InstrOp instr,
                               ArrayRef<std::pair<StringRef, ValueExpr>> given,
                               const ParsedAccess *barrier, Refusal &refusal) {
  Operation *first = block.front();
  Unifier unifier(instr, refusal);
  for (auto [name, expr] : given) {
    std::optional<unsigned> index;
    for (unsigned i = 0, e = instr.getNumParams(); i < e; ++i)
      if (paramName(instr, i) == name &&
          instr.getParamKind(i) != ParamKind::data)
        index = i;
    if (!index) {
      refusal.at(first->getLoc())
          << "replace: @" << instr.getSymName() << " has no control parameter '"
          << name << "'";
      return failure();
    }
    unifier.control[*index] = expr;
  }
  if (failed(unifier.matchBlock(block, instr.getBody().front(), first)))
    return failure();
  // Every parameter is determined.
  MLIRContext *ctx = rewriter.getContext();
  SmallVector<Value> operands, dataArgs;
  SmallVector<AffineExpr> ctrlArgs, coords;
  SmallVector<int32_t> kinds, counts;
  for (unsigned i = 0, e = instr.getNumParams(); i < e; ++i) {
    if (instr.getParamKind(i) != ParamKind::data) {
      auto it = unifier.control.find(i);
      if (it == unifier.control.end()) {
        refusal.at(first->getLoc())
            << "replace: the body of @" << instr.getSymName()
            << " does not determine its parameter '" << paramName(instr, i)
            << "'; pass it with args";
        return failure();
      }
      ctrlArgs.push_back(
          remapOperands(it->second.expr, it->second.operands, operands));
      continue;
    }
    auto it = unifier.data.find(i);
    if (it == unifier.data.end()) {
      refusal.at(first->getLoc())
          << "replace: the block does not use parameter '"
          << paramName(instr, i) << "' of @" << instr.getSymName();
      return failure();
    }
    const DataBinding &binding = it->second;
    dataArgs.push_back(binding.buffer);
    unsigned count = 0, k = 0;
    for (auto [d, expr] : llvm::enumerate(binding.exprs)) {
      AffineExpr e = remapOperands(expr, binding.operands, operands);
      if (binding.isInterval[d]) {
        AffineExpr extent =
            remapOperands(binding.extents[k++], binding.operands, operands);
        // A whole static dimension is written `:`.
        auto c = dyn_cast<AffineConstantExpr>(extent);
        auto zero = dyn_cast<AffineConstantExpr>(e);
        ArrayRef<int64_t> shape =
            cast<BufferTypeInterface>(binding.buffer.getType()).getShape();
        if (c && zero && zero.getValue() == 0 && shape[d] == c.getValue()) {
          kinds.push_back(static_cast<int32_t>(CoordKind::Full));
        } else {
          kinds.push_back(kInterval);
          coords.push_back(e);
          coords.push_back(e + extent);
        }
      } else {
        kinds.push_back(kPoint);
        coords.push_back(e);
      }
      ++count;
    }
    counts.push_back(count);
  }
  Value barrierValue;
  if (barrier) {
    barrierValue = barrier->buffer;
    llvm::append_range(kinds, barrier->kinds);
    counts.push_back(barrier->kinds.size());
    for (AffineExpr e : barrier->exprs)
      coords.push_back(remapOperands(e, barrier->operands, operands));
  }
  rewriter.setInsertionPoint(first);
  auto call = CallOp::create(
      rewriter, first->getLoc(), FlatSymbolRefAttr::get(instr.getSymNameAttr()),
      AffineMapAttr::get(AffineMap::get(operands.size(), 0, ctrlArgs, ctx)),
      dataArgs, barrierValue, rewriter.getDenseI32ArrayAttr(kinds),
      rewriter.getDenseI32ArrayAttr(counts),
      AffineMapAttr::get(AffineMap::get(operands.size(), 0, coords, ctx)),
      operands);
  setControlMaps(call, getControlMaps(call), operands);
  simplifyControl(call);
  if (failed(verifyOrExplain(call->getParentOfType<ProcOp>(), first->getLoc(),
                             "replace", refusal))) {
    rewriter.eraseOp(call);
    return failure();
  }
  // The arguments are windows the block did not take: each must lie within
  // its buffer, and the body, run on them, within its parameters.
  if (std::optional<RuntimeFailure> broken =
          findRuntimeFailure({call}, InstanceScope())) {
    Diagnostic &diag = refusal.at(first->getLoc());
    diag << "replace: the call of @" << instr.getSymName()
         << " would fail a run-time check";
    attachRuntimeFailureNotes(diag, *broken);
    rewriter.eraseOp(call);
    return failure();
  }
  for (Operation *stmt : llvm::reverse(block))
    rewriter.eraseOp(stmt);
  return call;
}
