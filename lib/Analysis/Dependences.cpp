//===- Dependences.cpp - legality queries of the scheduling rewrites -----===//
//
// Part of ExoGPU. See Dependences.h.
//
//===----------------------------------------------------------------------===//

#include "ExoGPU/Analysis/Dependences.h"
#include "ExoGPU/Dialect/ExoGPU/IR/ExoGPUOps.h"

using namespace mlir;
using namespace mlir::exogpu;

//===----------------------------------------------------------------------===//
// InstanceSet
//===----------------------------------------------------------------------===//

void InstanceSet::addContext(Operation *op, const InstanceScope &scope) {
  for (Operation *parent = op->getParentOp(); parent;
       parent = parent->getParentOp()) {
    unsigned copy = scope.isPrivate(parent) ? scope.copy : 0;
    if (auto loop = dyn_cast<ForOp>(parent)) {
      if (!addedScopes.insert({parent, copy}).second)
        continue;
      ValueRange ctrl = loop.getCtrl();
      LinearForm iter =
          LinearForm::ofColumn(set.getColumn(loop.getIterator(), copy));
      set.addLessEqual(set.linearize(loop.getLowerBoundExpr(), ctrl, scope),
                       iter);
      set.addLess(iter, set.linearize(loop.getUpperBoundExpr(), ctrl, scope));
    } else if (auto guard = dyn_cast<IfOp>(parent)) {
      if (!llvm::is_contained(scope.ignoredGuards, parent) &&
          addedScopes.insert({parent, copy}).second)
        set.addCondition(guard.getCondition(), guard.getCtrl(), scope);
    } else if (auto proc = dyn_cast<ProcOp>(parent)) {
      if (!addedScopes.insert({parent, 0}).second)
        break;
      for (unsigned i = 0, e = proc.getNumParams(); i < e; ++i)
        if (proc.getParamKind(i) == ParamKind::size)
          set.addLessEqual(
              LinearForm::ofConstant(1),
              LinearForm::ofColumn(set.getColumn(proc.getParam(i), 0)));
      if (ConditionAttr pre = proc.getPreconditionsAttr())
        set.addCondition(pre, proc.getBody().getArguments(), InstanceScope());
      break;
    }
  }
}

void InstanceSet::addIteratorLess(Operation *loop, unsigned a, unsigned b) {
  Value iter = cast<ForOp>(loop).getIterator();
  set.addLess(LinearForm::ofColumn(set.getColumn(iter, a)),
              LinearForm::ofColumn(set.getColumn(iter, b)));
}

void InstanceSet::addIteratorEqual(Operation *loop, unsigned a, unsigned b) {
  Value iter = cast<ForOp>(loop).getIterator();
  set.addEqual(LinearForm::ofColumn(set.getColumn(iter, a)),
               LinearForm::ofColumn(set.getColumn(iter, b)));
}

/// The ops enclosing `op` up to (not including) its proc, outermost first.
static SmallVector<Operation *> getEnclosingOps(Operation *op) {
  SmallVector<Operation *> chain;
  for (Operation *parent = op->getParentOp();
       parent && !isa<ProcOp, InstrOp>(parent); parent = parent->getParentOp())
    chain.push_back(parent);
  std::reverse(chain.begin(), chain.end());
  return chain;
}

void InstanceSet::addHappensBefore(Operation *a, const InstanceScope &sa,
                                   Operation *b, const InstanceScope &sb) {
  SmallVector<Operation *> chainA = getEnclosingOps(a);
  SmallVector<Operation *> chainB = getEnclosingOps(b);
  unsigned common = 0;
  while (common < chainA.size() && common < chainB.size() &&
         chainA[common] == chainB[common])
    ++common;
  SmallVector<Operation *> loops;
  for (unsigned i = 0; i < common; ++i)
    if (isa<ForOp>(chainA[i]))
      loops.push_back(chainA[i]);
  // The children of the deepest common scope that contain a and b.
  Operation *childA = common < chainA.size() ? chainA[common] : a;
  Operation *childB = common < chainB.size() ? chainB[common] : b;
  bool textual = childA != childB && childA->getBlock() == childB->getBlock() &&
                 childA->isBeforeInBlock(childB);
  auto copyOf = [](const InstanceScope &s, Operation *loop) {
    return s.isPrivate(loop) ? s.copy : 0;
  };
  set.addDisjunction(
      loops.size() + (textual ? 1 : 0), [&](ControlSet &alt, unsigned k) {
        for (unsigned j = 0; j < loops.size() && j <= k; ++j) {
          Value iter = cast<ForOp>(loops[j]).getIterator();
          LinearForm ia =
              LinearForm::ofColumn(alt.getColumn(iter, copyOf(sa, loops[j])));
          LinearForm ib =
              LinearForm::ofColumn(alt.getColumn(iter, copyOf(sb, loops[j])));
          if (j == k)
            alt.addLess(ia, ib);
          else
            alt.addEqual(ia, ib);
        }
      });
}

void InstanceSet::addInAccess(const BufferAccess &access,
                              const InstanceScope &scope,
                              ArrayRef<unsigned> index) {
  for (auto [d, column] : llvm::enumerate(index)) {
    LinearForm e = LinearForm::ofColumn(column);
    set.addLessEqual(set.linearize(access.lo[d], access.operands, scope), e);
    set.addLessEqual(e, set.linearize(access.hi[d], access.operands, scope));
  }
}

void InstanceSet::addSameElement(const BufferAccess &a, const InstanceScope &sa,
                                 const BufferAccess &b,
                                 const InstanceScope &sb) {
  SmallVector<unsigned> index;
  for (unsigned d = 0, e = a.lo.size(); d < e; ++d)
    index.push_back(set.addLocalColumn());
  addInAccess(a, sa, index);
  addInAccess(b, sb, index);
  // One buffer instance per iteration of the loops around its allocation.
  if (auto alloc = a.root.getDefiningOp<AllocOp>())
    for (Operation *parent = alloc->getParentOp(); parent;
         parent = parent->getParentOp())
      if (auto loop = dyn_cast<ForOp>(parent))
        set.addEqual(LinearForm::ofColumn(set.getColumn(
                         loop.getIterator(), sa.copyOf(loop.getIterator()))),
                     LinearForm::ofColumn(set.getColumn(
                         loop.getIterator(), sb.copyOf(loop.getIterator()))));
}

//===----------------------------------------------------------------------===//
// Queries
//===----------------------------------------------------------------------===//

void mlir::exogpu::attachConflictNotes(Diagnostic &diag,
                                       const AccessConflict &conflict,
                                       StringRef firstRole,
                                       StringRef secondRole) {
  auto kindName = [](AccessKind kind) {
    switch (kind) {
    case AccessKind::Read:
      return "read";
    case AccessKind::Write:
      return "write";
    case AccessKind::Reduce:
      return "reduction";
    }
    return "access";
  };
  diag.attachNote(conflict.first.loc)
      << firstRole << ": " << kindName(conflict.first.kind) << " of "
      << conflict.first.describe();
  Diagnostic &note = diag.attachNote(conflict.second.loc);
  note << secondRole << ": " << kindName(conflict.second.kind) << " of "
       << conflict.second.describe();
  if (!conflict.witness.empty())
    note << " (for example at " << conflict.witness << ")";
}

/// Whether the pair (a, b) is one `kind` looks at.
static bool isCandidatePair(const BufferAccess &a, const BufferAccess &b,
                            ConflictKind kind) {
  if (a.root != b.root)
    return false;
  if (kind == ConflictKind::WriteThenRead)
    return a.mutates() && b.kind == AccessKind::Read;
  if (kind == ConflictKind::Race)
    return a.mutates() || b.mutates();
  return (a.mutates() || b.mutates()) &&
         !(a.kind == AccessKind::Reduce && b.kind == AccessKind::Reduce);
}

std::optional<AccessConflict> mlir::exogpu::findConflict(
    AccessCollector &collector, ArrayRef<Operation *> first,
    const InstanceScope &firstScope, ArrayRef<Operation *> second,
    const InstanceScope &secondScope, ConflictKind kind,
    function_ref<void(InstanceSet &, const BufferAccess &,
                      const BufferAccess &)>
        constrain) {
  SmallVector<BufferAccess> firstAccesses, secondAccesses;
  for (Operation *op : first)
    collector.collect(op, firstAccesses);
  for (Operation *op : second)
    collector.collect(op, secondAccesses);
  for (const BufferAccess &a : firstAccesses) {
    for (const BufferAccess &b : secondAccesses) {
      if (!isCandidatePair(a, b, kind))
        continue;
      InstanceSet instances;
      instances.addContext(a.stmt, firstScope);
      instances.addContext(b.stmt, secondScope);
      instances.addSameElement(a, firstScope, b, secondScope);
      if (constrain)
        constrain(instances, a, b);
      if (!instances.getSet().isEmpty())
        return AccessConflict{a, b, instances.getSet().describeSample()};
    }
  }
  return std::nullopt;
}

bool mlir::exogpu::isConditionInvariant(Operation *op, ConditionAttr condition,
                                        ValueRange operands, bool expectTrue,
                                        std::string *witness) {
  InstanceSet instances;
  InstanceScope scope;
  instances.addContext(op, scope);
  instances.getSet().addCondition(condition, operands, scope,
                                  /*negated=*/expectTrue);
  if (instances.getSet().isEmpty())
    return true;
  if (witness)
    *witness = instances.getSet().describeSample();
  return false;
}

bool mlir::exogpu::isRelationInvariant(Operation *op, AffineExpr lhs,
                                       ValueRange lhsOperands,
                                       ConditionAtomKind rel, AffineExpr rhs,
                                       ValueRange rhsOperands,
                                       std::string *witness) {
  InstanceSet instances;
  InstanceScope scope;
  instances.addContext(op, scope);
  ControlSet &set = instances.getSet();
  LinearForm l = set.linearize(lhs, lhsOperands, scope);
  LinearForm r = set.linearize(rhs, rhsOperands, scope);
  // Add the negated relation.
  switch (rel) {
  case ConditionAtomKind::Eq:
    set.addDisjunction(2, [&](ControlSet &alt, unsigned i) {
      if (i == 0)
        alt.addLess(l, r);
      else
        alt.addLess(r, l);
    });
    break;
  case ConditionAtomKind::Lt:
    set.addLessEqual(r, l);
    break;
  case ConditionAtomKind::Le:
    set.addLess(r, l);
    break;
  case ConditionAtomKind::Gt:
    set.addLessEqual(l, r);
    break;
  default:
    set.addLess(l, r);
    break;
  }
  if (set.isEmpty())
    return true;
  if (witness)
    *witness = set.describeSample();
  return false;
}

bool mlir::exogpu::isIdempotent(AccessCollector &collector,
                                ArrayRef<Operation *> stmts,
                                std::optional<AccessConflict> &conflict) {
  SmallVector<BufferAccess> accesses;
  for (Operation *op : stmts)
    collector.collect(op, accesses);
  for (const BufferAccess &access : accesses) {
    if (access.kind == AccessKind::Reduce) {
      conflict = AccessConflict{access, access, ""};
      return false;
    }
  }
  InstanceScope firstScope(stmts, 1), secondScope(stmts, 2);
  conflict = findConflict(collector, stmts, firstScope, stmts, secondScope,
                          ConflictKind::WriteThenRead, nullptr);
  return !conflict;
}

Operation *mlir::exogpu::findUseOfDefinitions(ArrayRef<Operation *> producers,
                                              ArrayRef<Operation *> users) {
  auto isDefinedIn = [&](Value value) {
    Operation *def = value.getDefiningOp();
    if (!def)
      def = cast<BlockArgument>(value).getOwner()->getParentOp();
    return llvm::any_of(producers, [&](Operation *p) {
      return p == def || p->isProperAncestor(def);
    });
  };
  Operation *found = nullptr;
  for (Operation *user : users) {
    user->walk([&](Operation *op) {
      if (!found && llvm::any_of(op->getOperands(), isDefinedIn))
        found = op;
    });
    if (found)
      return found;
  }
  return nullptr;
}
