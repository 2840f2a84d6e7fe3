//===- ParamAccess.cpp - how callables access their parameters ------------===//
//
// Part of ExoGPU.
//
//===----------------------------------------------------------------------===//

#include "ExoGPU/Dialect/ExoGPU/IR/ParamAccess.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace mlir;
using namespace mlir::exogpu;

namespace {
/// The uses of one parameter, as bits.
enum Use : unsigned { Read = 1, Write = 2, Reduce = 4 };
} // namespace

/// The position in `roots` of the buffer `buffer` is, or is a window or a
/// split of.
static std::optional<unsigned> getRoot(ArrayRef<Value> roots, Value buffer) {
  while (auto view = buffer.getDefiningOp<ViewLikeOpInterface>())
    buffer = view.getViewSource();
  auto it = llvm::find(roots, buffer);
  if (it == roots.end())
    return std::nullopt;
  return it - roots.begin();
}

static ParamAccessMode toMode(unsigned use) {
  return use == Write  ? ParamAccessMode::WriteOnly
         : use & ~Read ? ParamAccessMode::ReadWrite
                       : ParamAccessMode::ReadOnly;
}

static unsigned toUse(ParamAccessMode mode) {
  switch (mode) {
  case ParamAccessMode::ReadOnly:
    return Read;
  case ParamAccessMode::WriteOnly:
    return Write;
  case ParamAccessMode::ReadWrite:
    return Reduce;
  }
  return Reduce;
}

/// The data parameters of `callee` (a proc or instruction), in order.
static SmallVector<unsigned> getDataParams(Operation *callee) {
  if (auto proc = dyn_cast<ProcOp>(callee))
    return proc.getDataParamIndices();
  if (auto instr = dyn_cast<InstrOp>(callee))
    return instr.getDataParamIndices();
  return {};
}

static SmallVector<ParamAccessMode>
computeModes(Operation *callable, llvm::SmallPtrSetImpl<Operation *> &active);

/// The uses (as bits) the statements nested in `scope` make of each of
/// `roots`; `active` holds the procs being analyzed (a call of one of them
/// is recursive).
static SmallVector<unsigned>
computeUses(Operation *scope, ArrayRef<Value> roots,
            llvm::SmallPtrSetImpl<Operation *> &active) {
  SmallVector<unsigned> uses(roots.size(), 0);
  auto mark = [&](Value buffer, unsigned use) {
    if (std::optional<unsigned> root = getRoot(roots, buffer))
      uses[*root] |= use;
  };
  scope->walk([&](Operation *op) {
    if (auto read = dyn_cast<ReadOp>(op)) {
      mark(read.getSource(), Read);
    } else if (auto assign = dyn_cast<AssignOp>(op)) {
      mark(assign.getDest(), Write);
    } else if (auto reduce = dyn_cast<ReduceOp>(op)) {
      mark(reduce.getDest(), Reduce);
    } else if (auto call = dyn_cast<CallOp>(op)) {
      Operation *callee = call.lookupCallee();
      if (!callee || !isa<ProcOp, InstrOp>(callee))
        return;
      SmallVector<ParamAccessMode> modes(
          callee->getRegion(0).front().getNumArguments(),
          ParamAccessMode::ReadWrite);
      if (!active.contains(callee))
        modes = computeModes(callee, active);
      for (auto [arg, param] :
           llvm::zip(call.getDataArgs(), getDataParams(callee)))
        mark(arg, toUse(modes[param]));
    }
  });
  return uses;
}

/// The modes of `callable`'s parameters.
static SmallVector<ParamAccessMode>
computeModes(Operation *callable, llvm::SmallPtrSetImpl<Operation *> &active) {
  SmallVector<Value> params(callable->getRegion(0).front().getArguments());
  active.insert(callable);
  SmallVector<unsigned> uses = computeUses(callable, params, active);
  active.erase(callable);
  return llvm::map_to_vector(uses, toMode);
}

SmallVector<ParamAccessMode> mlir::exogpu::getParamAccessModes(InstrOp instr) {
  llvm::SmallPtrSet<Operation *, 4> active;
  return computeModes(instr, active);
}

SmallVector<ParamAccessMode> mlir::exogpu::getParamAccessModes(ProcOp proc) {
  llvm::SmallPtrSet<Operation *, 4> active;
  return computeModes(proc, active);
}

std::optional<ParamAccessMode>
mlir::exogpu::getBufferAccessMode(Operation *scope, Value root) {
  llvm::SmallPtrSet<Operation *, 4> active;
  unsigned use = computeUses(scope, {root}, active).front();
  if (!use)
    return std::nullopt;
  return toMode(use);
}
