//===- SequentialLowering.h - exogpu procs to upstream MLIR -----*- C++ -*-===//
//
// Part of ExoGPU (internal to the lowering to upstream MLIR). The state of
// lowering one module's procs to functions computing their sequential
// meaning, and one method per group of rules. The rules are defined in
// ProcLowering.cpp (functions, parameters, preconditions, proc calls),
// ControlLowering.cpp (control expressions, conditions, loops, guards,
// device functions, warps), DataLowering.cpp (allocations, windows, splits,
// reads, writes, data expressions) and CallLowering.cpp (instruction inlining).
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_LIB_CONVERSION_EXOGPUTOSTANDARD_SEQUENTIALLOWERING_H
#define EXOGPU_LIB_CONVERSION_EXOGPUTOSTANDARD_SEQUENTIALLOWERING_H

#include "ExoGPU/Dialect/ExoGPU/IR/ExoGPUOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

namespace mlir::exogpu::sequential {

/// One proc body or inlined instruction body being lowered: the lowered
/// value of each exogpu value in scope (control values: `index` or `i1`;
/// buffers: memrefs; barriers have none) and the call site locations of an
/// inlined body are nested in.
struct Frame {
  IRMapping values;
  /// The call site of an inlined instruction body, or null.
  LocationAttr callSite;
};

/// Lowers the procs of one module.
class SequentialLowering {
public:
  explicit SequentialLowering(ModuleOp module)
      : module(module), builder(module.getContext()) {}

  LogicalResult run();

private:
  // Procs, parameters and proc calls (ProcLowering.cpp).
  LogicalResult checkNoRecursion(ArrayRef<ProcOp> procs);
  func::FuncOp declareFunction(ProcOp proc);
  LogicalResult lowerProc(ProcOp proc, func::FuncOp func);
  /// Asserts `proc`'s precondition, and the dynamic extents of its data
  /// parameters, on `args` (one lowered value per parameter) at `loc`.
  void emitPreconditionCheck(ProcOp proc, ArrayRef<Value> args, Location loc);
  void emitExtentChecks(ProcOp proc, ArrayRef<Value> args, Location loc);
  LogicalResult lowerProcCall(CallOp call, ProcOp callee);

  // Control (ControlLowering.cpp).
  Location getLoc(Operation *op) const;
  FailureOr<Value> lookup(Operation *op, Value value) const;
  /// The lowered values of the `values` that `exprs` use (dimension i is
  /// values[i]); null for the others.
  FailureOr<SmallVector<Value>> lookupUsed(Operation *op, ValueRange values,
                                           ArrayRef<AffineExpr> exprs) const;
  /// `expr` over lowered operands (null ones unused): a constant, or arith
  /// operations whose overflow of 64 bits fails an assertion.
  OpFoldResult applyCtrlExpr(Location loc, AffineExpr expr,
                             ArrayRef<Value> operands);
  /// `expr` (simplified, over `operands`) as arith operations; the
  /// conditions under which no sum or product overflowed are and-ed into
  /// `valid`.
  Value expandCtrlExpr(Location loc, AffineExpr expr, ArrayRef<Value> operands,
                       Value &valid);
  Value applyCtrlValue(Location loc, AffineExpr expr, ArrayRef<Value> operands);
  /// `condition` over lowered operands, as an i1.
  Value buildCondition(Location loc, ConditionAttr condition,
                       ArrayRef<Value> operands);
  /// The same over the exogpu control operands `ctrl` of `op`.
  FailureOr<OpFoldResult> lowerCtrlExpr(Operation *op, AffineExpr expr,
                                        ValueRange ctrl);
  FailureOr<Value> lowerCtrlValue(Operation *op, AffineExpr expr,
                                  ValueRange ctrl);
  FailureOr<Value> lowerCondition(Operation *op, ConditionAttr condition,
                                  ValueRange ctrl);
  /// A cf.assert of `holds` whose message is `what` and `loc`.
  void createAssert(Location loc, Value holds, const Twine &what);
  LogicalResult lowerBlock(Block &block);
  LogicalResult lowerOp(Operation &op);
  LogicalResult lowerFor(ForOp loop);
  LogicalResult lowerIf(IfOp guard);

  // Data (DataLowering.cpp).
  LogicalResult lowerAlloc(AllocOp alloc);
  FailureOr<Value> createView(Operation *op, Value buffer,
                              ArrayRef<int32_t> kinds,
                              ArrayRef<AffineExpr> exprs, ValueRange ctrl);
  LogicalResult lowerWindow(WindowOp window);
  /// A split is a memref.expand_shape of its source, after asserting that
  /// a dynamic extent it divides is a multiple of the factor.
  LogicalResult lowerSplit(SplitOp split);
  FailureOr<SmallVector<Value>> lowerIndices(Operation *op, AffineMap indices,
                                             ValueRange ctrl);
  /// An assignment or reduction (AssignOp, ReduceOp).
  template <typename WriteOpT> LogicalResult lowerWrite(WriteOpT op);
  FailureOr<Value> lowerExpr(Region &expr);

  // Instruction calls (CallLowering.cpp).
  LogicalResult lowerCall(CallOp call);
  LogicalResult inlineInstr(CallOp call, InstrOp instr);
  FailureOr<SmallVector<Value>> lowerDataArgs(CallOp call);
  FailureOr<Value> lowerCtrlArg(CallOp call, unsigned index, bool isBool);

  ModuleOp module;
  OpBuilder builder;
  /// The function of each proc.
  DenseMap<Operation *, func::FuncOp> functions;
  Frame *frame = nullptr;
  /// The entry block of the function being built (static allocations).
  Block *entryBlock = nullptr;
  /// Bytes of static allocations placed on the function's stack so far.
  int64_t stackBytes = 0;
  /// Heap allocations of the block being lowered, freed at its end.
  SmallVector<Value> *blockAllocs = nullptr;
};

} // namespace mlir::exogpu::sequential

#endif // EXOGPU_LIB_CONVERSION_EXOGPUTOSTANDARD_SEQUENTIALLOWERING_H
