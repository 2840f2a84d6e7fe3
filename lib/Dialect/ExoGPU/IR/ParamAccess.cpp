//===- ParamAccess.cpp - how instructions access their parameters ---------===//
//
// Part of ExoGPU.
//
//===----------------------------------------------------------------------===//

#include "ExoGPU/Dialect/ExoGPU/IR/ParamAccess.h"

using namespace mlir;
using namespace mlir::exogpu;

/// The parameter of an instruction body that `buffer` is, or a window of.
static std::optional<unsigned> getRootParam(InstrOp instr, Value buffer) {
  while (auto window = buffer.getDefiningOp<WindowOp>())
    buffer = window.getSource();
  auto arg = dyn_cast<BlockArgument>(buffer);
  if (!arg || arg.getOwner() != &instr.getBody().front())
    return std::nullopt;
  return arg.getArgNumber();
}

SmallVector<ParamAccessMode> mlir::exogpu::getParamAccessModes(InstrOp instr) {
  SmallVector<unsigned> uses(instr.getNumParams(), 0);
  enum { Read = 1, Write = 2, Reduce = 4 };
  instr.walk([&](Operation *op) {
    if (auto read = dyn_cast<ReadOp>(op)) {
      if (auto p = getRootParam(instr, read.getSource()))
        uses[*p] |= Read;
    } else if (auto assign = dyn_cast<AssignOp>(op)) {
      if (auto p = getRootParam(instr, assign.getDest()))
        uses[*p] |= Write;
    } else if (auto reduce = dyn_cast<ReduceOp>(op)) {
      if (auto p = getRootParam(instr, reduce.getDest()))
        uses[*p] |= Reduce;
    }
  });
  return llvm::map_to_vector(uses, [](unsigned use) {
    return use == Write  ? ParamAccessMode::WriteOnly
           : use & ~Read ? ParamAccessMode::ReadWrite
                         : ParamAccessMode::ReadOnly;
  });
}
