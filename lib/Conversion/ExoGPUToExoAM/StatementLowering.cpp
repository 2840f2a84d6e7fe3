//===- StatementLowering.cpp - T_s of seeds/002 Fig. 5 -------------------===//
//
// Part of ExoGPU. Translates exogpu statements to AMIR rule by rule:
// structure (loops, guards, device functions, warps blocks), assignments and
// reductions (Fig. 5, with T_e, T_ex, T_qin of Fig. 17-18), allocations and
// frees, synchronization statements, and instruction calls with the
// per-argument conversion T_arg of Fig. 19-20. Calls of procs at CPU scope
// are inlined (Sec. 5.2 preprocessing (ii)).
//
//===----------------------------------------------------------------------===//

#include "ControlMapping.h"
#include "ExoGPU/Conversion/ExoGPUToExoAM.h"
#include "ExoGPU/Dialect/ExoAM/IR/SyncTimelines.h"
#include "ExoGPU/Dialect/ExoGPU/IR/Scope.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::exogpu;
using namespace mlir::exogpu::lowering;
using exoam::VisibilityLevel;

namespace {

/// How an instruction's body uses a parameter (Sec. 5.2.3 access mode).
enum class AccessMode { ReadOnly, WriteOnly, ReadWrite };

/// One inlined proc body: what its control values and buffers are.
struct Frame {
  DenseMap<Value, GlobalExpr> ctrl;
  DenseMap<Value, View> buffers;
};

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
  LogicalResult lowerOp(Operation &op);
  LogicalResult lowerFor(ForOp loop);
  LogicalResult lowerIf(IfOp guard);
  LogicalResult lowerDeviceFunction(DeviceFunctionOp deviceFunction);
  LogicalResult lowerWarps(WarpsOp warps);
  LogicalResult lowerWrite(Operation *op, bool isReduce);
  LogicalResult lowerAlloc(AllocOp alloc);
  LogicalResult lowerFree(FreeOp free);
  LogicalResult lowerWindow(WindowOp window);
  LogicalResult lowerFence(FenceOp fence);
  LogicalResult lowerArrive(ArriveOp arrive);
  LogicalResult lowerAwait(AwaitOp await);
  LogicalResult lowerCall(CallOp call);
  LogicalResult lowerInstrCall(CallOp call, InstrOp instr);
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
  LogicalResult emitRecord(Operation *stmt, bool read, VisibilityLevel level,
                           bool convergent, const Access &access,
                           exogpu::QualTimeline timeline,
                           exoam::QualMask atomic, ArrayRef<Access> barriers);
  void emitClear(Operation *stmt, bool reads, const Access &access);
  LogicalResult emitFence(Operation *stmt, bool transitive, exoam::QualMask pre,
                          exoam::QualMask full, exoam::QualMask temp);
  LogicalResult emitFreeChecks(Operation *stmt, const Access &whole);
  AccessMode getAccessMode(InstrOp instr, unsigned param);

  const CollectiveAnalysis &analysis;
  OpBuilder &builder;
  MLIRContext *context;
  SmallVector<Value> globals;
  Frame *frame = nullptr;
  /// Views are owned here: accesses point to them.
  std::vector<std::unique_ptr<View>> views;
  llvm::StringSet<> names;
  /// Procs being inlined, to reject recursion.
  SmallVector<Operation *> callStack;
  DenseMap<Operation *, SmallVector<AccessMode>> accessModes;
};

} // namespace

//===----------------------------------------------------------------------===//
// Control values and buffers
//===----------------------------------------------------------------------===//

GlobalExpr ProcLowering::addGlobal(Value exoamValue) {
  globals.push_back(exoamValue);
  return getAffineDimExpr(globals.size() - 1, context);
}

FailureOr<GlobalExpr> ProcLowering::lowerCtrl(Operation *op, Value value) {
  auto it = frame->ctrl.find(value);
  if (it == frame->ctrl.end())
    return emitError(op->getLoc(), "sync check: control value not bound in the "
                                   "abstract machine translation");
  return it->second;
}

FailureOr<SmallVector<GlobalExpr>>
ProcLowering::lowerExprs(Operation *op, ArrayRef<AffineExpr> exprs,
                         ValueRange ctrl) {
  // Only the operands the expressions use need a binding (the extents of a
  // proc parameter are maps over all parameters, data ones included).
  llvm::SmallBitVector used(ctrl.size());
  for (AffineExpr expr : exprs)
    expr.walk([&](AffineExpr e) {
      if (auto dim = dyn_cast<AffineDimExpr>(e))
        if (dim.getPosition() < ctrl.size())
          used.set(dim.getPosition());
    });
  SmallVector<AffineExpr> replacements;
  for (auto [index, value] : llvm::enumerate(ctrl)) {
    if (!used.test(index)) {
      replacements.push_back(getAffineConstantExpr(0, context));
      continue;
    }
    FailureOr<GlobalExpr> lowered = lowerCtrl(op, value);
    if (failed(lowered))
      return failure();
    replacements.push_back(*lowered);
  }
  SmallVector<GlobalExpr> result;
  for (AffineExpr expr : exprs)
    result.push_back(expr.replaceDims(replacements));
  return result;
}

FailureOr<const View *> ProcLowering::lookupView(Operation *op, Value buffer) {
  auto it = frame->buffers.find(buffer);
  if (it == frame->buffers.end())
    return emitError(op->getLoc(),
                     "sync check: buffer not bound in the abstract "
                     "machine translation");
  return &it->second;
}

FailureOr<Access> ProcLowering::lowerAccess(Operation *op, Value buffer,
                                            ArrayRef<int32_t> kinds,
                                            ArrayRef<AffineExpr> exprs,
                                            ValueRange ctrl) {
  FailureOr<const View *> view = lookupView(op, buffer);
  FailureOr<SmallVector<GlobalExpr>> lowered = lowerExprs(op, exprs, ctrl);
  if (failed(view) || failed(lowered))
    return failure();
  FailureOr<Access> access = applyCoords(**view, kinds, *lowered);
  if (failed(access))
    return emitError(op->getLoc(),
                     "sync check: the access's coordinates do not match "
                     "its buffer");
  return access;
}

StringAttr ProcLowering::uniqueName(StringRef base) {
  std::string name = base.empty() ? "tmp" : base.str();
  for (unsigned i = 1; !names.insert(name).second; ++i)
    name = (base + "." + Twine(i)).str();
  return StringAttr::get(context, name);
}

/// A view of a whole variable with `extents`.
static View makeRootView(StringAttr var, ArrayRef<GlobalExpr> extents,
                         MLIRContext *context) {
  View view;
  view.var = var;
  for (GlobalExpr extent : extents)
    view.dims.push_back({false, getAffineConstantExpr(0, context), extent});
  return view;
}

LogicalResult
ProcLowering::bindParams(ProcOp proc, Frame &frame,
                         function_ref<FailureOr<GlobalExpr>(unsigned)> ctrl,
                         function_ref<FailureOr<View>(unsigned)> buffer) {
  for (unsigned i = 0, e = proc.getNumParams(); i < e; ++i) {
    ParamKind kind = proc.getParamKind(i);
    if (kind == ParamKind::data || kind == ParamKind::barrier) {
      FailureOr<View> view = buffer(i);
      if (failed(view))
        return failure();
      frame.buffers[proc.getParam(i)] = std::move(*view);
      continue;
    }
    FailureOr<GlobalExpr> value = ctrl(i);
    if (failed(value))
      return failure();
    frame.ctrl[proc.getParam(i)] = *value;
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Procs
//===----------------------------------------------------------------------===//

/// The exoam type of a control parameter.
static Type getControlType(ParamKind kind, MLIRContext *context) {
  if (kind == ParamKind::boolean)
    return IntegerType::get(context, 1);
  return IndexType::get(context);
}

/// The extents of data or barrier parameter `i`, over the parameters.
static SmallVector<AffineExpr> getParamExtentExprs(ProcOp proc, unsigned i) {
  Type type = proc.getParam(i).getType();
  if (auto barrier = dyn_cast<BarrierType>(type)) {
    SmallVector<AffineExpr> extents;
    for (int64_t extent : barrier.getShape())
      extents.push_back(getAffineConstantExpr(extent, proc.getContext()));
    return extents;
  }
  return llvm::to_vector(proc.getParamExtents(i).getResults());
}

/// Fills the memory or barrier mechanism of `view` from `type`.
static void setStorage(View &view, Type type) {
  if (auto barrier = dyn_cast<BarrierType>(type)) {
    view.isBarrier = true;
    view.barrierKind = barrier.getKind();
    return;
  }
  view.memory = cast<BufferTypeInterface>(type).getMemory();
}

FailureOr<exoam::ProcOp> ProcLowering::run(ProcOp proc) {
  SmallVector<Attribute> argNames;
  SmallVector<Type> argTypes;
  SmallVector<Location> argLocs;
  SmallVector<unsigned> ctrlParams;
  for (unsigned i = 0, e = proc.getNumParams(); i < e; ++i) {
    ParamKind kind = proc.getParamKind(i);
    if (kind == ParamKind::data || kind == ParamKind::barrier)
      continue;
    ctrlParams.push_back(i);
    argNames.push_back(proc.getArgNames()[i]);
    argTypes.push_back(getControlType(kind, context));
    argLocs.push_back(proc.getParam(i).getLoc());
  }
  auto amProc =
      exoam::ProcOp::create(builder, proc.getLoc(), proc.getSymNameAttr(),
                            builder.getArrayAttr(argNames));
  OpBuilder::InsertionGuard guard(builder);
  Block *body = builder.createBlock(&amProc.getBody(), {}, argTypes, argLocs);

  Frame top;
  frame = &top;
  for (auto [index, param] : llvm::enumerate(ctrlParams))
    top.ctrl[proc.getParam(param)] = addGlobal(body->getArgument(index));
  // Data and barrier parameters are variables never allocated (the machine
  // starts them empty); their names are the parameter names.
  for (unsigned i = 0, e = proc.getNumParams(); i < e; ++i) {
    ParamKind kind = proc.getParamKind(i);
    if (kind != ParamKind::data && kind != ParamKind::barrier)
      continue;
    FailureOr<SmallVector<GlobalExpr>> extents = lowerExprs(
        proc, getParamExtentExprs(proc, i), proc.getBody().getArguments());
    if (failed(extents))
      return failure();
    StringAttr name = uniqueName(cast<StringAttr>(proc.getArgNames()[i]));
    View view = makeRootView(name, *extents, context);
    setStorage(view, proc.getParam(i).getType());
    top.buffers[proc.getParam(i)] = std::move(view);
  }
  callStack.push_back(proc);
  if (failed(lowerBlock(proc.getBody().front()))) {
    amProc.erase();
    return failure();
  }
  return amProc;
}

LogicalResult ProcLowering::inlineProcCall(CallOp call, ProcOp callee) {
  if (isCudaScope(call))
    return emitError(call.getLoc(),
                     "sync check: calls of procs inside a "
                     "device_function are not supported; inline @")
           << callee.getSymName() << " into the device function first";
  if (llvm::is_contained(callStack, callee.getOperation()))
    return emitError(call.getLoc(), "sync check: recursive call of @")
           << callee.getSymName() << " cannot be inlined";
  FailureOr<SmallVector<GlobalExpr>> ctrlArgs =
      lowerExprs(call, call.getCtrlArgs().getResults(), call.getCtrl());
  FailureOr<SmallVector<AccessView>> accesses = splitAccesses(
      call, call.getCoordKinds(), call.getCoordCounts(), call.getCoords());
  if (failed(ctrlArgs) || failed(accesses))
    return failure();
  Frame callee_frame;
  unsigned nextCtrl = 0, nextData = 0;
  LogicalResult bound = bindParams(
      callee, callee_frame,
      [&](unsigned) -> FailureOr<GlobalExpr> {
        if (nextCtrl >= ctrlArgs->size())
          return emitError(call.getLoc(),
                           "sync check: too few control arguments");
        return (*ctrlArgs)[nextCtrl++];
      },
      [&](unsigned) -> FailureOr<View> {
        if (nextData >= call.getDataArgs().size())
          return emitError(call.getLoc(), "sync check: too few data arguments");
        unsigned index = nextData++;
        Value arg = call.getDataArgs()[index];
        FailureOr<const View *> view = lookupView(call, arg);
        FailureOr<SmallVector<GlobalExpr>> exprs =
            lowerExprs(call, (*accesses)[index].exprs, call.getCtrl());
        if (failed(view) || failed(exprs))
          return failure();
        FailureOr<View> window =
            applyWindow(**view, (*accesses)[index].kinds, *exprs);
        if (failed(window))
          return emitError(call.getLoc(),
                           "sync check: argument coordinates do not "
                           "match the buffer");
        return window;
      });
  if (failed(bound))
    return failure();
  Frame *caller = frame;
  frame = &callee_frame;
  callStack.push_back(callee);
  LogicalResult result = lowerBlock(callee.getBody().front());
  callStack.pop_back();
  frame = caller;
  return result;
}

//===----------------------------------------------------------------------===//
// Structure (Fig. 5: sequencing, loops, guards, device functions, warps)
//===----------------------------------------------------------------------===//

LogicalResult ProcLowering::lowerBlock(Block &block) {
  for (Operation &op : block)
    if (failed(lowerOp(op)))
      return failure();
  return success();
}

LogicalResult ProcLowering::lowerOp(Operation &op) {
  return TypeSwitch<Operation *, LogicalResult>(&op)
      .Case([&](ForOp loop) { return lowerFor(loop); })
      .Case([&](IfOp guard) { return lowerIf(guard); })
      .Case([&](DeviceFunctionOp df) { return lowerDeviceFunction(df); })
      .Case([&](WarpsOp warps) { return lowerWarps(warps); })
      .Case([&](AssignOp assign) { return lowerWrite(assign, false); })
      .Case([&](ReduceOp reduce) { return lowerWrite(reduce, true); })
      .Case([&](AllocOp alloc) { return lowerAlloc(alloc); })
      .Case([&](FreeOp free) { return lowerFree(free); })
      .Case([&](WindowOp window) { return lowerWindow(window); })
      .Case([&](FenceOp fence) { return lowerFence(fence); })
      .Case([&](ArriveOp arrive) { return lowerArrive(arrive); })
      .Case([&](AwaitOp await) { return lowerAwait(await); })
      .Case([&](CallOp call) { return lowerCall(call); })
      .Default([&](Operation *other) {
        return emitError(other->getLoc(), "sync check: no abstract machine "
                                          "translation for this operation");
      });
}

LogicalResult ProcLowering::lowerFor(ForOp loop) {
  FailureOr<SmallVector<GlobalExpr>> bounds =
      lowerExprs(loop, loop.getBounds().getResults(), loop.getCtrl());
  if (failed(bounds))
    return failure();
  OperandPacker packer(context, globals);
  SmallVector<AffineExpr> packed = {packer.pack((*bounds)[0]),
                                    packer.pack((*bounds)[1])};
  auto amLoop = exoam::LoopOp::create(builder, loop.getLoc(),
                                      AffineMapAttr::get(packer.getMap(packed)),
                                      packer.getOperands());
  OpBuilder::InsertionGuard guard(builder);
  Block *body =
      builder.createBlock(&amLoop.getBody(), {}, {builder.getIndexType()},
                          {loop.getIterator().getLoc()});
  frame->ctrl[loop.getIterator()] = addGlobal(body->getArgument(0));
  // Fig. 5: a cuda_tasks iteration starts a new task.
  if (loop.getMode() == LoopMode::cuda_tasks)
    exoam::IncTaskIdOp::create(builder, loop.getLoc());
  return lowerBlock(loop.getBody().front());
}

/// Creates an exoam.if with `condition` over `ctrl` and lowers `body` in it.
LogicalResult ProcLowering::lowerIf(IfOp guard) {
  ConditionAttr condition = guard.getCondition();
  FailureOr<SmallVector<GlobalExpr>> exprs =
      lowerExprs(guard, condition.getMap().getResults(), guard.getCtrl());
  if (failed(exprs))
    return failure();
  OperandPacker packer(context, globals);
  SmallVector<AffineExpr> packed;
  for (GlobalExpr expr : *exprs)
    packed.push_back(packer.pack(expr));
  auto amIf = exoam::IfOp::create(
      builder, guard.getLoc(),
      ConditionAttr::get(context, packer.getMap(packed), condition.getAtoms()),
      packer.getOperands());
  OpBuilder::InsertionGuard insertion(builder);
  builder.createBlock(&amIf.getBody());
  return lowerBlock(guard.getBody().front());
}

LogicalResult ProcLowering::lowerWarps(WarpsOp warps) {
  // Fig. 5: `with CudaWarps(...) do s` is `if true then T_s(s)`.
  auto amIf = exoam::IfOp::create(
      builder, warps.getLoc(),
      ConditionAttr::get(context, AffineMap::get(0, 0, {}, context),
                         {static_cast<int64_t>(ConditionAtomKind::True)}),
      ValueRange());
  OpBuilder::InsertionGuard insertion(builder);
  builder.createBlock(&amIf.getBody());
  return lowerBlock(warps.getBody().front());
}

LogicalResult
ProcLowering::lowerDeviceFunction(DeviceFunctionOp deviceFunction) {
  // Fig. 5: the kernel launch and its completion are stream-ordered fences.
  using exogpu::SyncTimeline;
  exoam::QualMask qcs = exoam::getFullTimelines(SyncTimeline::cuda_stream_sync);
  exoam::QualMask tcs =
      exoam::getTemporalTimelines(SyncTimeline::cuda_stream_sync);
  exoam::QualMask cpu =
      exoam::getQualBit(exogpu::QualTimeline::cpu_in_order_qual);
  if (failed(emitFence(deviceFunction, true, qcs | cpu, qcs, tcs)) ||
      failed(lowerBlock(deviceFunction.getBody().front())))
    return failure();
  return emitFence(deviceFunction, true, qcs, qcs, tcs);
}

//===----------------------------------------------------------------------===//
// Thread mappings and AMIR statements
//===----------------------------------------------------------------------===//

FailureOr<exoam::ThreadMappingAttr>
ProcLowering::threadsOf(Operation *stmt, OperandPacker &packer) {
  if (!isCudaScope(stmt))
    return exoam::ThreadMappingAttr::get(context, exoam::ExecScope::cpu, {});
  const CollTiling *tiling = analysis.getTiling(stmt);
  if (!tiling)
    return emitError(stmt->getLoc(),
                     "sync check: no collective tiling for this "
                     "statement (see the collective analysis errors)");
  SmallVector<exoam::TilingDimAttr> dims;
  int64_t pitch = 1;
  ArrayRef<CollDim> collDims = tiling->getDims();
  SmallVector<exoam::TilingDimAttr> reversed;
  for (const CollDim &dim : llvm::reverse(collDims)) {
    if (dim.pitch != pitch)
      return emitError(stmt->getLoc(),
                       "sync check: collective tiling with a thread "
                       "pitch that is not the product of the inner "
                       "extents");
    pitch *= dim.extent;
    SmallVector<exoam::TilingOpAttr> ops;
    for (const CollDimOp &op : dim.ops) {
      std::optional<int64_t> iter;
      if (op.iter) {
        FailureOr<GlobalExpr> value = lowerCtrl(stmt, op.iter);
        if (failed(value))
          return failure();
        auto dimExpr = dyn_cast<AffineDimExpr>(*value);
        if (!dimExpr)
          return emitError(stmt->getLoc(),
                           "sync check: a cuda_threads iterator is "
                           "not a loop iterator");
        iter = packer.packDim(dimExpr.getPosition());
      }
      ops.push_back(exoam::TilingOpAttr::get(context, iter, op.linearBox,
                                             op.linearOffset));
    }
    reversed.push_back(exoam::TilingDimAttr::get(context, dim.extent, ops));
  }
  dims.assign(reversed.rbegin(), reversed.rend());
  return exoam::ThreadMappingAttr::get(context, exoam::ExecScope::gpu, dims);
}

exogpu::QualTimeline ProcLowering::getInOrderTimeline(Operation *stmt,
                                                      const Access &access) {
  // Fig. 18 T_qin.
  if (!isCudaScope(stmt))
    return exogpu::QualTimeline::cpu_in_order_qual;
  if (access.view->isRmem())
    return exogpu::QualTimeline::cuda_in_order_rmem_qual;
  return exogpu::QualTimeline::cuda_in_order_ram_qual;
}

LogicalResult ProcLowering::emitCheck(Operation *stmt, bool reads,
                                      VisibilityLevel level, bool convergent,
                                      const Access &access,
                                      exoam::QualMask timelines,
                                      exoam::AccessPurpose purpose) {
  OperandPacker packer(context, globals);
  unsigned target = packer.addAccess(access);
  FailureOr<exoam::ThreadMappingAttr> threads = threadsOf(stmt, packer);
  if (failed(threads))
    return failure();
  auto set = exoam::QualTimelineSetAttr::get(context, timelines);
  auto purposeAttr = exoam::AccessPurposeAttr::get(context, purpose);
  if (reads)
    exoam::CheckReadsOp::create(builder, stmt->getLoc(), level, convergent,
                                packer.getAccess(target), set, purposeAttr,
                                *threads, packer.getOperands());
  else
    exoam::CheckMutatesOp::create(builder, stmt->getLoc(), level, convergent,
                                  packer.getAccess(target), set, purposeAttr,
                                  *threads, packer.getOperands());
  return success();
}

LogicalResult ProcLowering::emitRecord(Operation *stmt, bool read,
                                       VisibilityLevel level, bool convergent,
                                       const Access &access,
                                       exogpu::QualTimeline timeline,
                                       exoam::QualMask atomic,
                                       ArrayRef<Access> barriers) {
  OperandPacker packer(context, globals);
  unsigned target = packer.addAccess(access);
  SmallVector<unsigned> barrierHandles;
  for (const Access &barrier : barriers)
    barrierHandles.push_back(packer.addAccess(barrier));
  FailureOr<exoam::ThreadMappingAttr> threads = threadsOf(stmt, packer);
  if (failed(threads))
    return failure();
  SmallVector<Attribute> barrierAttrs;
  for (unsigned handle : barrierHandles)
    barrierAttrs.push_back(packer.getAccess(handle));
  auto atomicSet = exoam::QualTimelineSetAttr::get(context, atomic);
  if (read)
    exoam::RecordReadOp::create(builder, stmt->getLoc(), level, convergent,
                                packer.getAccess(target), timeline, atomicSet,
                                builder.getArrayAttr(barrierAttrs), *threads,
                                packer.getOperands());
  else
    exoam::RecordMutateOp::create(builder, stmt->getLoc(), level, convergent,
                                  packer.getAccess(target), timeline, atomicSet,
                                  builder.getArrayAttr(barrierAttrs), *threads,
                                  packer.getOperands());
  return success();
}

void ProcLowering::emitClear(Operation *stmt, bool reads,
                             const Access &access) {
  OperandPacker packer(context, globals);
  unsigned target = packer.addAccess(access);
  if (reads)
    exoam::ClearReadsOp::create(builder, stmt->getLoc(),
                                packer.getAccess(target), packer.getOperands());
  else
    exoam::ClearMutatesOp::create(builder, stmt->getLoc(),
                                  packer.getAccess(target),
                                  packer.getOperands());
}

LogicalResult ProcLowering::emitFence(Operation *stmt, bool transitive,
                                      exoam::QualMask pre, exoam::QualMask full,
                                      exoam::QualMask temp) {
  OperandPacker packer(context, globals);
  FailureOr<exoam::ThreadMappingAttr> threads = threadsOf(stmt, packer);
  if (failed(threads))
    return failure();
  auto set = [&](exoam::QualMask mask) {
    return exoam::QualTimelineSetAttr::get(context, mask);
  };
  exoam::FenceOp::create(builder, stmt->getLoc(), transitive, set(pre),
                         set(full), set(temp), *threads, packer.getOperands());
  return success();
}

//===----------------------------------------------------------------------===//
// Data statements (Fig. 5 assignments, Fig. 17 T_e)
//===----------------------------------------------------------------------===//

/// Adds `access` to `set` unless it is there (T_e is a set).
static void addDistinct(SmallVectorImpl<Access> &set, Access access) {
  if (!llvm::is_contained(set, access))
    set.push_back(std::move(access));
}

LogicalResult ProcLowering::lowerWrite(Operation *op, bool isReduce) {
  auto assign = dyn_cast<AssignOp>(op);
  auto reduce = dyn_cast<ReduceOp>(op);
  Value dest = assign ? assign.getDest() : reduce.getDest();
  AffineMap indices = assign ? assign.getIndices() : reduce.getIndices();
  ValueRange ctrl = assign ? assign.getCtrl() : reduce.getCtrl();
  Region &value = assign ? assign.getValue() : reduce.getValue();

  // T_e of the right-hand side: the distinct reads.
  SmallVector<Access> reads;
  WalkResult walk = value.walk([&](ReadOp read) {
    SmallVector<int32_t> kinds(read.getIndices().getNumResults(),
                               static_cast<int32_t>(CoordKind::Point));
    FailureOr<Access> access =
        lowerAccess(read, read.getSource(), kinds,
                    read.getIndices().getResults(), read.getCtrl());
    if (failed(access))
      return WalkResult::interrupt();
    addDistinct(reads, *access);
    return WalkResult::advance();
  });
  SmallVector<int32_t> kinds(indices.getNumResults(),
                             static_cast<int32_t>(CoordKind::Point));
  FailureOr<Access> target =
      lowerAccess(op, dest, kinds, indices.getResults(), ctrl);
  if (walk.wasInterrupted() || failed(target))
    return failure();

  // Fig. 5: tau_pre is fully_ordered for `+=` (the old value is read),
  // temporally_ordered for `=`. A read needs the writes before it fully
  // ordered (as for read-only instruction arguments, Fig. 19); see
  // docs/abstract-machine.md.
  VisibilityLevel pre = isReduce ? VisibilityLevel::fully_ordered
                                 : VisibilityLevel::temporally_ordered;
  VisibilityLevel post = VisibilityLevel::fully_ordered;
  for (const Access &read : reads) {
    if (read.view->isSyncExempt())
      continue;
    exogpu::QualTimeline q = getInOrderTimeline(op, read);
    if (failed(emitCheck(op, false, VisibilityLevel::fully_ordered, false, read,
                         exoam::getQualBit(q), exoam::AccessPurpose::read)) ||
        failed(emitRecord(op, true, post, false, read, q, 0, {})))
      return failure();
  }
  if (target->view->isSyncExempt())
    return success();
  exogpu::QualTimeline q = getInOrderTimeline(op, *target);
  exoam::QualMask mask = exoam::getQualBit(q);
  if (failed(emitCheck(op, true, pre, false, *target, mask,
                       exoam::AccessPurpose::write)) ||
      failed(emitCheck(op, false, pre, false, *target, mask,
                       exoam::AccessPurpose::write)))
    return failure();
  emitClear(op, true, *target);
  emitClear(op, false, *target);
  return emitRecord(op, false, post, false, *target, q, 0, {});
}

LogicalResult ProcLowering::lowerWindow(WindowOp window) {
  FailureOr<const View *> view = lookupView(window, window.getSource());
  FailureOr<SmallVector<GlobalExpr>> exprs =
      lowerExprs(window, window.getCoords().getResults(), window.getCtrl());
  if (failed(view) || failed(exprs))
    return failure();
  FailureOr<View> result = applyWindow(**view, window.getCoordKinds(), *exprs);
  if (failed(result))
    return emitError(window.getLoc(),
                     "sync check: window coordinates do not match "
                     "the buffer");
  frame->buffers[window.getResult()] = std::move(*result);
  return success();
}

//===----------------------------------------------------------------------===//
// Allocation and free (Fig. 5)
//===----------------------------------------------------------------------===//

LogicalResult ProcLowering::lowerAlloc(AllocOp alloc) {
  FailureOr<SmallVector<GlobalExpr>> extents =
      lowerExprs(alloc, alloc.getExtents().getResults(), alloc.getCtrl());
  if (failed(extents))
    return failure();
  StringAttr name = uniqueName(alloc.getName().value_or("tmp"));
  View view = makeRootView(name, *extents, context);
  setStorage(view, alloc.getResult().getType());
  FailureOr<Access> whole = applyCoords(view, {}, {});
  if (failed(whole))
    return emitError(alloc.getLoc(), "sync check: malformed allocation");
  // Alloc(x[c*]): the coordinates are the extents (points).
  Access extentsAccess = *whole;
  for (auto [coord, extent] : llvm::zip(extentsAccess.coords, *extents)) {
    coord.isRange = false;
    coord.lo = coord.hi = extent;
  }
  OperandPacker packer(context, globals);
  unsigned target = packer.addAccess(extentsAccess);
  exoam::AllocOp::create(builder, alloc.getLoc(), packer.getAccess(target),
                         view.isBarrier, packer.getOperands());
  frame->buffers[alloc.getResult()] = std::move(view);
  return success();
}

LogicalResult ProcLowering::emitFreeChecks(Operation *stmt,
                                           const Access &whole) {
  // tau_v^free = temporally_ordered, on T_qin of the variable.
  if (!whole.view->isSmem())
    return success();
  exoam::QualMask q = exoam::getQualBit(getInOrderTimeline(stmt, whole));
  if (failed(emitCheck(stmt, true, VisibilityLevel::temporally_ordered, false,
                       whole, q, exoam::AccessPurpose::free)))
    return failure();
  return emitCheck(stmt, false, VisibilityLevel::temporally_ordered, false,
                   whole, q, exoam::AccessPurpose::free);
}

LogicalResult ProcLowering::lowerFree(FreeOp free) {
  FailureOr<const View *> view = lookupView(free, free.getBuffer());
  if (failed(view))
    return failure();
  FailureOr<Access> whole = applyCoords(**view, {}, {});
  if (failed(whole))
    return emitError(free.getLoc(), "sync check: malformed free");
  if ((*view)->isBarrier) {
    OperandPacker packer(context, globals);
    unsigned target = packer.addAccess(*whole);
    exoam::CheckBarrierOp::create(
        builder, free.getLoc(), packer.getAccess(target), packer.getOperands());
  }
  return emitFreeChecks(free, *whole);
}

//===----------------------------------------------------------------------===//
// Synchronization statements (Fig. 5, T_tr / T_qfull / T_qtmp / T_qarr)
//===----------------------------------------------------------------------===//

LogicalResult ProcLowering::lowerFence(FenceOp fence) {
  SyncTimeline pre = fence.getPre();
  SyncTimeline post = fence.getPost();
  return emitFence(fence, exoam::isTransitive(pre),
                   exoam::getFullTimelines(pre), exoam::getFullTimelines(post),
                   exoam::getTemporalTimelines(post));
}

LogicalResult ProcLowering::lowerArrive(ArriveOp arrive) {
  FailureOr<SmallVector<AccessView>> coords =
      splitAccesses(arrive, arrive.getCoordKinds(), arrive.getCoordCounts(),
                    arrive.getCoords());
  if (failed(coords))
    return failure();
  SmallVector<Access> barriers;
  for (auto [barrier, view] : llvm::zip(arrive.getBarriers(), *coords)) {
    FailureOr<Access> access =
        lowerAccess(arrive, barrier, view.kinds, view.exprs, arrive.getCtrl());
    if (failed(access))
      return failure();
    barriers.push_back(*access);
  }
  SyncTimeline timeline = arrive.getTimeline();
  for (const Access &barrier : barriers)
    if (!barrier.view->isSyncExempt() &&
        failed(emitRecord(arrive, true, VisibilityLevel::fully_ordered, false,
                          barrier, exoam::getArriveTimeline(timeline), 0, {})))
      return failure();
  OperandPacker packer(context, globals);
  SmallVector<unsigned> handles;
  for (const Access &barrier : barriers)
    handles.push_back(packer.addAccess(barrier));
  FailureOr<exoam::ThreadMappingAttr> threads = threadsOf(arrive, packer);
  if (failed(threads))
    return failure();
  SmallVector<Attribute> attrs;
  for (unsigned handle : handles)
    attrs.push_back(packer.getAccess(handle));
  exoam::ArriveOp::create(
      builder, arrive.getLoc(), exoam::isTransitive(timeline),
      exoam::QualTimelineSetAttr::get(context,
                                      exoam::getFullTimelines(timeline)),
      builder.getArrayAttr(attrs), *threads, packer.getOperands());
  return success();
}

LogicalResult ProcLowering::lowerAwait(AwaitOp await) {
  FailureOr<Access> barrier =
      lowerAccess(await, await.getBarrier(), await.getCoordKinds(),
                  await.getCoords().getResults(), await.getCtrl());
  if (failed(barrier))
    return failure();
  if (!barrier->view->isSyncExempt() &&
      failed(emitRecord(await, true, VisibilityLevel::fully_ordered, false,
                        *barrier, getInOrderTimeline(await, *barrier), 0, {})))
    return failure();
  SyncTimeline timeline = await.getTimeline();
  OperandPacker packer(context, globals);
  unsigned handle = packer.addAccess(*barrier);
  FailureOr<exoam::ThreadMappingAttr> threads = threadsOf(await, packer);
  if (failed(threads))
    return failure();
  auto set = [&](exoam::QualMask mask) {
    return exoam::QualTimelineSetAttr::get(context, mask);
  };
  exoam::AwaitOp::create(builder, await.getLoc(), packer.getAccess(handle),
                         set(exoam::getFullTimelines(timeline)),
                         set(exoam::getTemporalTimelines(timeline)),
                         await.getCount(), *threads, packer.getOperands());
  return success();
}

//===----------------------------------------------------------------------===//
// Calls (Fig. 5 `g(c*, e*) >> e_z`, Fig. 19-20 T_arg)
//===----------------------------------------------------------------------===//

LogicalResult ProcLowering::lowerCall(CallOp call) {
  Operation *callee =
      SymbolTable::lookupNearestSymbolFrom(call, call.getCalleeAttr());
  if (auto instr = dyn_cast_or_null<InstrOp>(callee))
    return lowerInstrCall(call, instr);
  if (auto proc = dyn_cast_or_null<ProcOp>(callee))
    return inlineProcCall(call, proc);
  return emitError(call.getLoc(), "sync check: unknown callee ")
         << call.getCallee();
}

/// The parameter of an instruction body that `buffer` is, or a window of.
static std::optional<unsigned> getRootParam(InstrOp instr, Value buffer) {
  while (auto window = buffer.getDefiningOp<WindowOp>())
    buffer = window.getSource();
  auto arg = dyn_cast<BlockArgument>(buffer);
  if (!arg || arg.getOwner() != &instr.getBody().front())
    return std::nullopt;
  return arg.getArgNumber();
}

AccessMode ProcLowering::getAccessMode(InstrOp instr, unsigned param) {
  auto [it, inserted] = accessModes.try_emplace(instr);
  SmallVector<AccessMode> &modes = it->second;
  if (inserted) {
    // Sec. 5.2.3: only read: read-only; only written: write-only; anything
    // else (reduced, or read and written): read-write.
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
    for (unsigned use : uses)
      modes.push_back(use == Write  ? AccessMode::WriteOnly
                      : use & ~Read ? AccessMode::ReadWrite
                                    : AccessMode::ReadOnly);
  }
  return modes[param];
}

/// Fig. 20 T_init: the initial timeline, by default the in-order timeline of
/// the parameter's memory.
static exogpu::QualTimeline getInitTimeline(InstrOp instr, ArgSpecAttr spec,
                                            Type paramType) {
  if (std::optional<exogpu::QualTimeline> init = spec.getInit())
    return *init;
  if (instr.getTarget() == InstrTarget::cpu)
    return exogpu::QualTimeline::cpu_in_order_qual;
  if (cast<BufferTypeInterface>(paramType).getMemory().isRmem())
    return exogpu::QualTimeline::cuda_in_order_rmem_qual;
  return exogpu::QualTimeline::cuda_in_order_ram_qual;
}

static exoam::QualMask toMask(ArrayRef<exogpu::QualTimeline> timelines) {
  exoam::QualMask mask = 0;
  for (exogpu::QualTimeline q : timelines)
    mask |= exoam::getQualBit(q);
  return mask;
}

LogicalResult ProcLowering::lowerInstrCall(CallOp call, InstrOp instr) {
  FailureOr<SmallVector<AccessView>> coords = splitAccesses(
      call, call.getCoordKinds(), call.getCoordCounts(), call.getCoords());
  if (failed(coords))
    return failure();
  // T_e(e_z): the barrier the instruction completes on, if any.
  SmallVector<Access> barriers;
  if (Value barrier = call.getBarrier()) {
    const AccessView &view = coords->back();
    FailureOr<Access> access =
        lowerAccess(call, barrier, view.kinds, view.exprs, call.getCtrl());
    if (failed(access))
      return failure();
    barriers.push_back(*access);
    if (!access->view->isSyncExempt() &&
        failed(emitRecord(call, true, VisibilityLevel::fully_ordered, false,
                          *access, getInOrderTimeline(call, *access), 0, {})))
      return failure();
  }
  unsigned nextData = 0;
  for (unsigned i = 0, e = instr.getNumParams(); i < e; ++i) {
    if (instr.getParamKind(i) != ParamKind::data)
      continue;
    if (nextData >= call.getDataArgs().size())
      return emitError(call.getLoc(), "sync check: too few data arguments");
    unsigned index = nextData++;
    FailureOr<Access> access =
        lowerAccess(call, call.getDataArgs()[index], (*coords)[index].kinds,
                    (*coords)[index].exprs, call.getCtrl());
    if (failed(access))
      return failure();
    if (access->view->isSyncExempt())
      continue;
    ArgSpecAttr spec = instr.getParamSpec(i);
    bool convergent = spec.getConvergent();
    exogpu::QualTimeline init =
        getInitTimeline(instr, spec, instr.getParam(i).getType());
    exoam::QualMask ext = toMask(spec.getExt());
    if (!ext)
      ext = exoam::getQualBit(init);
    exoam::QualMask atomic = toMask(spec.getAtomic());
    VisibilityLevel post = spec.getOutOfOrder()
                               ? VisibilityLevel::unordered
                               : VisibilityLevel::fully_ordered;
    AccessMode mode = getAccessMode(instr, i);
    // Fig. 19, one case per access mode and atomicity.
    if (!atomic && mode == AccessMode::ReadOnly) {
      if (failed(emitCheck(call, false, VisibilityLevel::fully_ordered,
                           convergent, *access, ext,
                           exoam::AccessPurpose::read)) ||
          failed(emitRecord(call, true, post, convergent, *access, init, 0,
                            barriers)))
        return failure();
      continue;
    }
    VisibilityLevel pre = atomic ? VisibilityLevel::atomic_only
                          : mode == AccessMode::WriteOnly
                              ? VisibilityLevel::temporally_ordered
                              : VisibilityLevel::fully_ordered;
    if (failed(emitCheck(call, false, pre, convergent, *access, ext,
                         exoam::AccessPurpose::write)) ||
        failed(emitCheck(call, true, VisibilityLevel::temporally_ordered,
                         convergent, *access, ext,
                         exoam::AccessPurpose::write)))
      return failure();
    emitClear(call, true, *access);
    if (!atomic)
      emitClear(call, false, *access);
    if (failed(emitRecord(call, false, post, convergent, *access, init, atomic,
                          barriers)))
      return failure();
  }
  return success();
}

FailureOr<exoam::ProcOp> mlir::exogpu::convertProcToExoAM(
    ProcOp proc, const CollectiveAnalysis &analysis, OpBuilder &builder) {
  return ProcLowering(analysis, builder).run(proc);
}
