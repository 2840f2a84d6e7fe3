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

/// The parameter of `body` that `buffer` is, or a window of.
static std::optional<unsigned> getRootParam(Block &body, Value buffer) {
  while (auto window = buffer.getDefiningOp<WindowOp>())
    buffer = window.getSource();
  auto arg = dyn_cast<BlockArgument>(buffer);
  if (!arg || arg.getOwner() != &body)
    return std::nullopt;
  return arg.getArgNumber();
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
  SmallVector<unsigned> data;
  auto collect = [&](auto op) {
    for (unsigned i = 0, e = op.getNumParams(); i < e; ++i)
      if (op.getParamKind(i) == ParamKind::data)
        data.push_back(i);
  };
  if (auto proc = dyn_cast<ProcOp>(callee))
    collect(proc);
  else if (auto instr = dyn_cast<InstrOp>(callee))
    collect(instr);
  return data;
}

/// The modes of `callable`'s parameters; `active` holds the procs being
/// analyzed (a call of one of them is recursive).
static SmallVector<ParamAccessMode>
computeModes(Operation *callable, llvm::SmallPtrSetImpl<Operation *> &active) {
  Block &body = callable->getRegion(0).front();
  SmallVector<unsigned> uses(body.getNumArguments(), 0);
  auto mark = [&](Value buffer, unsigned use) {
    if (std::optional<unsigned> param = getRootParam(body, buffer))
      uses[*param] |= use;
  };
  active.insert(callable);
  callable->walk([&](Operation *op) {
    if (auto read = dyn_cast<ReadOp>(op)) {
      mark(read.getSource(), Read);
    } else if (auto assign = dyn_cast<AssignOp>(op)) {
      mark(assign.getDest(), Write);
    } else if (auto reduce = dyn_cast<ReduceOp>(op)) {
      mark(reduce.getDest(), Reduce);
    } else if (auto call = dyn_cast<CallOp>(op)) {
      Operation *callee =
          SymbolTable::lookupNearestSymbolFrom(call, call.getCalleeAttr());
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
