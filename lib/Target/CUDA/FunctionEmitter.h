//===- FunctionEmitter.h - statements of one C++ function -------*- C++ -*-===//
//
// Part of ExoGPU (internal to the CUDA translation). The statements of
// seeds/002 Fig. 2 that mean the same in host and device code (seq loops,
// guards, assignments, reductions, windows, instruction calls) and the
// dispatch that host functions (HostEmitter) and kernels (KernelEmitter)
// extend with the statements of their own scope.
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_LIB_TARGET_CUDA_FUNCTIONEMITTER_H
#define EXOGPU_LIB_TARGET_CUDA_FUNCTIONEMITTER_H

#include "Translation.h"

namespace mlir::exogpu::cuda {

/// Emits the statements of one C++ function.
class FunctionEmitter {
public:
  FunctionEmitter(ProcState &state, CodeWriter &out) : state(state), out(out) {}
  virtual ~FunctionEmitter() = default;

  /// Emits every op of `block` in order.
  LogicalResult emitBlock(Block &block);

protected:
  /// Emits one statement; the base handles the statements common to both
  /// scopes and reports the rest as unsupported.
  virtual LogicalResult emitOp(Operation *op);

  /// What `{bar}` of an instruction template means at `call`.
  virtual FailureOr<std::string> getBarrierAddress(CallOp call);

  /// Makes the function check at run time that a split's dimension divides
  /// evenly (exogpu.split): `remainder`, over the space, is its extent
  /// modulo the factor, which the translation cannot show to be 0. The
  /// check must come before anything that could use the split runs.
  virtual LogicalResult checkSplitExtent(SplitOp split,
                                         AffineExpr remainder) = 0;

  /// Whether the function is device code (a kernel) rather than host code.
  virtual bool isDeviceCode() const { return false; }

  /// The C++ type of control values the function computes: 64-bit in host
  /// code, `int` in kernels (whose launches the host function refuses when
  /// a control value could leave 32 bits, docs/cuda-translation.md).
  std::string getControlType() const {
    return isDeviceCode() ? "int" : "int64_t";
  }

  LogicalResult emitSeqFor(ForOp loop);
  LogicalResult emitIf(IfOp op);
  LogicalResult emitWrite(Operation *op, Value dest, AffineMap indices,
                          ValueRange ctrl, Value valueExpr, bool reduce);
  LogicalResult emitWindow(WindowOp window);
  LogicalResult emitSplit(SplitOp split);
  LogicalResult emitInstrCall(CallOp call, InstrOp instr);

  /// A data expression (the value of an assign/reduce region) as C++.
  FailureOr<std::string> emitDataExpr(Value value);

  /// Emits `block` (into a C++ block the caller opened), preceded by a
  /// `const int name = init;` for each value the emitted code names.
  LogicalResult
  emitScopeBody(Block &block,
                ArrayRef<std::pair<Value, std::string>> declarations);

  /// Binds a loop iterator's name and its bounds for printing.
  void bindIterator(ForOp loop, IntRange range);

  /// Control argument `index` of `call` for a parameter of `kind`.
  std::string printControlArg(CallOp call, unsigned index, ParamKind kind);

  /// The views of the data arguments of `call`.
  FailureOr<SmallVector<BufferView>> getCallViews(CallOp call);

  ProcState &state;
  CodeWriter &out;

private:
  /// Expressions (over the space) known to be 0 where the statement being
  /// emitted runs: the `e == 0` atoms of the one-conjunction guards around
  /// it, and the split remainders already checked in its blocks. A split
  /// whose remainder is among them needs no check of its own.
  SmallVector<AffineExpr> knownZero;
};

/// Whether the body of a seq loop should be fully unrolled: it indexes
/// register storage with the iterator (registers must be indexed by
/// compile-time constants, DESIGN.md "Registers") and its trip count is a
/// small constant.
bool shouldUnroll(ForOp loop);

} // namespace mlir::exogpu::cuda

#endif // EXOGPU_LIB_TARGET_CUDA_FUNCTIONEMITTER_H
