//===- ProcLowering.h - the exogpu -> exoam translation ---------*- C++ -*-===//
//
// Part of ExoGPU (internal to the exogpu -> exoam translation). The state of
// translating one proc (seeds/002 Sec. 5.2): the global control values, the
// frames of inlined procs, and one method per rule of Fig. 5 and 19. The
// rules are defined in ProcLowering.cpp (procs, proc inlining, structure),
// Emission.cpp (thread mappings, AMIR statements), DataLowering.cpp
// (assignments, windows, allocation, free), SyncLowering.cpp (fence, arrive,
// await) and CallLowering.cpp (instruction calls).
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_LIB_CONVERSION_EXOGPUTOEXOAM_PROCLOWERING_H
#define EXOGPU_LIB_CONVERSION_EXOGPUTOEXOAM_PROCLOWERING_H

#include "ControlMapping.h"
#include "ExoGPU/Analysis/CollectiveAnalysis.h"
#include "ExoGPU/Dialect/ExoAM/IR/ExoAMOps.h"
#include "ExoGPU/Dialect/ExoGPU/IR/ParamAccess.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/StringSet.h"

namespace mlir::exogpu::lowering {

using exoam::VisibilityLevel;

/// One inlined proc body: what its control values and buffers are.
struct Frame {
  DenseMap<Value, GlobalExpr> ctrl;
  DenseMap<Value, View> buffers;
};

/// Translates one proc (and the procs it inlines).
class ProcLowering {
public:
  ProcLowering(const CollectiveAnalysis &analysis, OpBuilder &builder)
      : analysis(analysis), builder(builder), context(builder.getContext()) {}

  FailureOr<exoam::ProcOp> run(ProcOp proc);

private:
  // Control values.
  GlobalExpr addGlobal(Value exoamValue);
  FailureOr<GlobalExpr> lowerCtrl(Operation *op, Value value);
  FailureOr<SmallVector<GlobalExpr>>
  lowerExprs(Operation *op, ArrayRef<AffineExpr> exprs, ValueRange ctrl);
  /// `condition` (over `ctrl` of `op`) over the operands `packer` collects.
  FailureOr<ConditionAttr> lowerCondition(Operation *op,
                                          ConditionAttr condition,
                                          ValueRange ctrl,
                                          OperandPacker &packer);

  // Buffers.
  FailureOr<const View *> lookupView(Operation *op, Value buffer);
  FailureOr<Access> lowerAccess(Operation *op, Value buffer,
                                ArrayRef<int32_t> kinds,
                                ArrayRef<AffineExpr> exprs, ValueRange ctrl);
  StringAttr uniqueName(StringRef base);
  LogicalResult bindParams(ProcOp proc, Frame &frame,
                           function_ref<FailureOr<GlobalExpr>(unsigned)> ctrl,
                           function_ref<FailureOr<View>(unsigned)> buffer);

  // Statements.
  LogicalResult lowerBlock(Block &block);
  /// Lowers `body`, the body of `op` (a statement's, or the callee's of an
  /// inlined call), one body deeper: an error at `op` naming the call chain
  /// if that is more than kMaxBodyNesting bodies deep.
  LogicalResult lowerNestedBody(Operation *op, Block &body);
  LogicalResult lowerOp(Operation &op);
  LogicalResult lowerFor(ForOp loop);
  LogicalResult lowerIf(IfOp guard);
  LogicalResult lowerDeviceFunction(DeviceFunctionOp deviceFunction);
  LogicalResult lowerWarps(WarpsOp warps);
  LogicalResult lowerWrite(Operation *op, bool isReduce);
  LogicalResult lowerAlloc(AllocOp alloc);
  LogicalResult lowerFree(FreeOp free);
  LogicalResult lowerWindow(WindowOp window);
  LogicalResult lowerSplit(SplitOp split);
  LogicalResult lowerFence(FenceOp fence);
  LogicalResult lowerArrive(ArriveOp arrive);
  LogicalResult lowerAwait(AwaitOp await);
  LogicalResult lowerCall(CallOp call);
  LogicalResult lowerInstrCall(CallOp call, InstrOp instr);
  /// The CTA (in the cluster) of the collective that executes `stmt`, as an
  /// expression of the global values; none if it spans several CTAs.
  FailureOr<std::optional<GlobalExpr>> getIssuingCta(Operation *stmt);
  LogicalResult inlineProcCall(CallOp call, ProcOp callee);

  // Emission of AMIR statements.
  FailureOr<exoam::ThreadMappingAttr> threadsOf(Operation *stmt,
                                                OperandPacker &packer);
  exogpu::QualTimeline getInOrderTimeline(Operation *stmt,
                                          const Access &access);
  LogicalResult emitCheck(Operation *stmt, bool reads, VisibilityLevel level,
                          bool convergent, const Access &access,
                          exoam::QualMask timelines,
                          exoam::AccessPurpose purpose);
  /// A record observing `barriers`, at the arrive count of `home` if given.
  LogicalResult emitRecord(Operation *stmt, bool read, VisibilityLevel level,
                           bool convergent, const Access &access,
                           exogpu::QualTimeline timeline,
                           exoam::QualMask atomic, ArrayRef<Access> barriers,
                           const Access *home = nullptr);
  void emitClear(Operation *stmt, bool reads, const Access &access);
  LogicalResult emitFence(Operation *stmt, bool transitive, exoam::QualMask pre,
                          exoam::QualMask full, exoam::QualMask temp);
  LogicalResult emitFreeChecks(Operation *stmt, const Access &whole);
  /// Alloc(x[c*]) of `view`'s variable with `extents`, bounded by `limit`
  /// (the hardware limit of its memory) if given, each element a ring of
  /// `ringDepth` mbarriers if given.
  void emitAlloc(Operation *stmt, const View &view,
                 ArrayRef<GlobalExpr> extents,
                 std::optional<AllocationLimit> limit = std::nullopt,
                 std::optional<int64_t> ringDepth = std::nullopt);
  /// The depth of the mbarrier rings the CUDA translation makes of `alloc`,
  /// if it allocates a CudaMbarrier in a device function.
  std::optional<int64_t> getRingDepth(AllocOp alloc);
  /// The signal of a call's completion on the barrier accesses `barriers`
  /// (`home` for a multicast), if they are rings of mbarriers.
  LogicalResult emitCompletion(CallOp call, ArrayRef<Access> barriers,
                               const Access *home);
  /// Checks that `access` lies within `view` (an access through a window,
  /// or a window of `view`).
  void emitBoundsCheck(Operation *stmt, const Access &access, const View &view);
  /// Checks that window coordinates `kinds`/`exprs` of `view` lie within its
  /// dimensions, one by one (through a split the variable's box says too
  /// little); `what` names what is checked in errors.
  void emitCoordBoundsCheck(Operation *stmt, const View &view,
                            ArrayRef<int32_t> kinds, ArrayRef<GlobalExpr> exprs,
                            StringRef what);
  /// Checks that the window coordinates `kinds`/`exprs` of `view` (a window
  /// statement's or a call argument's) lie within it.
  void emitWindowBoundsCheck(Operation *stmt, const View &view,
                             ArrayRef<int32_t> kinds,
                             ArrayRef<GlobalExpr> exprs);
  /// Checks the conjunction of relations `atoms` between the pairs of
  /// `exprs` (over global values), named `what` in errors.
  void emitRelationsCheck(Operation *stmt, ArrayRef<GlobalExpr> exprs,
                          ArrayRef<ConditionAtomKind> atoms, StringRef what);
  /// Checks `condition` (over `ctrl` of `stmt`), named `what` in errors.
  LogicalResult emitConditionCheck(Operation *stmt, ConditionAttr condition,
                                   ValueRange ctrl, StringRef what);
  /// Checks the precondition of `proc`, if any, with its parameters bound in
  /// the current frame.
  LogicalResult emitPreconditionCheck(Operation *stmt, ProcOp proc);
  ParamAccessMode getAccessMode(InstrOp instr, unsigned param);

  const CollectiveAnalysis &analysis;
  OpBuilder &builder;
  MLIRContext *context;
  SmallVector<Value> globals;
  Frame *frame = nullptr;
  llvm::StringSet<> names;
  /// Procs being inlined, to reject recursion.
  SmallVector<Operation *> callStack;
  /// The bodies being translated, inlined procs' included.
  unsigned bodyDepth = 0;
  DenseMap<Operation *, SmallVector<ParamAccessMode>> accessModes;
  /// The ring depth of each device function's mbarriers.
  DenseMap<Operation *, int64_t> ringDepths;
};

} // namespace mlir::exogpu::lowering

#endif // EXOGPU_LIB_CONVERSION_EXOGPUTOEXOAM_PROCLOWERING_H
