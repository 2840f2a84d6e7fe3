//===- ProcLowering.cpp - procs and structure -----------------------------===//
//
// Part of ExoGPU. Control values, buffers and procs of the exogpu -> exoam
// translation, and the structural rules of seeds/002 Fig. 5 (sequencing,
// loops, guards, device functions, warps blocks).
//
//===----------------------------------------------------------------------===//

#include "ProcLowering.h"
#include "ExoGPU/Conversion/ExoGPUToExoAM.h"
#include "ExoGPU/Dialect/ExoAM/IR/SyncTimelines.h"
#include "ExoGPU/Dialect/ExoGPU/IR/BodyParsing.h"
#include "ExoGPU/Dialect/ExoGPU/IR/Scope.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::exogpu;
using namespace mlir::exogpu::lowering;

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
  std::string strided;
  FailureOr<Access> access = applyCoords(**view, kinds, *lowered, &strided);
  if (failed(access) && !strided.empty())
    return emitError(op->getLoc(), "sync check: the access takes a strided "
                                   "set of elements along ")
           << strided
           << " through a split; only boxes are supported: access one chunk "
              "at a time, or whole chunks";
  if (failed(access))
    return emitError(op->getLoc(),
                     "sync check: the access's coordinates do not match "
                     "its buffer");
  // An access through a window must stay in the window (the variable's
  // allocation is checked by the machine itself); through a split, in each
  // of the window's dimensions.
  if ((*view)->isSplit)
    emitCoordBoundsCheck(op, **view, kinds, *lowered,
                         "the access's coordinates lying within the split "
                         "window it is taken through");
  else if ((*view)->isNarrowed && narrows(kinds))
    emitBoundsCheck(op, *access, **view);
  return access;
}

StringAttr ProcLowering::uniqueName(StringRef base) {
  std::string name = base.empty() ? "tmp" : base.str();
  for (unsigned i = 1; !names.insert(name).second; ++i)
    name = (base + "." + Twine(i)).str();
  return StringAttr::get(context, name);
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
    // The machine starts every variable empty, as ALLOC leaves it; the
    // ALLOC gives the machine the parameter's extents to check accesses.
    emitAlloc(proc, view, *extents);
    top.buffers[proc.getParam(i)] = std::move(view);
  }
  if (failed(emitPreconditionCheck(proc, proc)))
    return failure();
  callStack.push_back(proc);
  if (failed(lowerNestedBody(proc, proc.getBody().front()))) {
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
  Frame calleeFrame;
  unsigned nextCtrl = 0, nextData = 0;
  LogicalResult bound = bindParams(
      callee, calleeFrame,
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
        emitWindowBoundsCheck(call, **view, (*accesses)[index].kinds, *exprs);
        return window;
      });
  if (failed(bound))
    return failure();
  Frame *caller = frame;
  frame = &calleeFrame;
  if (failed(emitPreconditionCheck(call, callee))) {
    frame = caller;
    return failure();
  }
  callStack.push_back(callee);
  LogicalResult result = lowerNestedBody(call, callee.getBody().front());
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

/// `@a -> @b -> ... -> @z (N procs)` for the procs of `chain`.
static std::string describeCallChain(ArrayRef<Operation *> chain) {
  std::string text;
  llvm::raw_string_ostream os(text);
  // The first and last few of a long chain.
  constexpr size_t kShown = 3;
  for (auto [index, op] : llvm::enumerate(chain)) {
    if (chain.size() > 2 * kShown && index >= kShown &&
        index < chain.size() - kShown) {
      if (index == kShown)
        os << " -> ...";
      continue;
    }
    os << (index ? " -> @" : "@") << cast<ProcOp>(op).getSymName();
  }
  os << " (" << chain.size() << (chain.size() == 1 ? " proc)" : " procs)");
  return text;
}

LogicalResult ProcLowering::lowerNestedBody(Operation *op, Block &body) {
  // The translation recurses once per body; calls are inlined, so a chain of
  // them nests their bodies as deeply as one proc may (the parsers' bound).
  if (bodyDepth >= kMaxBodyNesting)
    return emitError(op->getLoc())
           << "sync check: statement bodies nest more than " << kMaxBodyNesting
           << " deep once the calls " << describeCallChain(callStack)
           << " are inlined; shorten the chain of calls";
  ++bodyDepth;
  LogicalResult result = lowerBlock(body);
  --bodyDepth;
  return result;
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
      .Case([&](SplitOp split) { return lowerSplit(split); })
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
  // The iterator keeps the source's name (a NameLoc), for diagnostics that
  // say at which iteration an access ran.
  Location iterLoc = loop.getIterator().getLoc();
  if (StringAttr name = loop.getIterNameAttr())
    iterLoc = NameLoc::get(name, iterLoc);
  Block *body = builder.createBlock(&amLoop.getBody(), {},
                                    {builder.getIndexType()}, {iterLoc});
  frame->ctrl[loop.getIterator()] = addGlobal(body->getArgument(0));
  // Fig. 5: a cuda_tasks iteration starts a new task.
  if (loop.getMode() == LoopMode::cuda_tasks)
    exoam::IncTaskIdOp::create(builder, loop.getLoc());
  return lowerNestedBody(loop, loop.getBody().front());
}

FailureOr<ConditionAttr> ProcLowering::lowerCondition(Operation *op,
                                                      ConditionAttr condition,
                                                      ValueRange ctrl,
                                                      OperandPacker &packer) {
  FailureOr<SmallVector<GlobalExpr>> exprs =
      lowerExprs(op, condition.getMap().getResults(), ctrl);
  if (failed(exprs))
    return failure();
  SmallVector<AffineExpr> packed;
  for (GlobalExpr expr : *exprs)
    packed.push_back(packer.pack(expr));
  return ConditionAttr::get(context, packer.getMap(packed),
                            condition.getAtoms());
}

/// Creates an exoam.if with `condition` over `ctrl` and lowers `body` in it.
LogicalResult ProcLowering::lowerIf(IfOp guard) {
  OperandPacker packer(context, globals);
  FailureOr<ConditionAttr> condition =
      lowerCondition(guard, guard.getCondition(), guard.getCtrl(), packer);
  if (failed(condition))
    return failure();
  auto amIf = exoam::IfOp::create(builder, guard.getLoc(), *condition,
                                  packer.getOperands());
  OpBuilder::InsertionGuard insertion(builder);
  builder.createBlock(&amIf.getBody());
  return lowerNestedBody(guard, guard.getBody().front());
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
  return lowerNestedBody(warps, warps.getBody().front());
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
      failed(lowerNestedBody(deviceFunction, deviceFunction.getBody().front())))
    return failure();
  return emitFence(deviceFunction, true, qcs, qcs, tcs);
}
