//===- GPURewrites.cpp - GPU annotations of a scheduled proc --------------===//
//
// Part of ExoGPU. See GPURewrites.h.
//
//===----------------------------------------------------------------------===//

#include "ExoGPU/Transforms/Scheduling/GPURewrites.h"
#include "ExoGPU/Analysis/BufferAccesses.h"
#include "ExoGPU/Dialect/ExoGPU/IR/ControlExpr.h"
#include "ExoGPU/Dialect/ExoGPU/IR/Scope.h"

using namespace mlir;
using namespace mlir::exogpu;

static ProcOp procOf(Operation *op) {
  if (auto proc = dyn_cast<ProcOp>(op))
    return proc;
  return op->getParentOfType<ProcOp>();
}

LogicalResult mlir::exogpu::setLoopMode(RewriterBase &rewriter, ForOp loop,
                                        LoopMode mode, CollUnitAttr unit,
                                        Refusal &refusal) {
  LoopMode oldMode = loop.getMode();
  CollUnitAttr oldUnit = loop.getUnitAttr();
  auto set = [&](LoopMode m, CollUnitAttr u) {
    loop.setModeAttr(LoopModeAttr::get(loop.getContext(), m));
    if (u)
      loop.setUnitAttr(u);
    else
      loop.removeUnitAttr();
  };
  set(mode, unit);
  if (failed(verifyOrExplain(procOf(loop), loop.getLoc(), "set_loop_mode",
                             refusal))) {
    set(oldMode, oldUnit);
    return failure();
  }
  rewriter.modifyOpInPlace(loop, [] {});
  return success();
}

//===----------------------------------------------------------------------===//
// Device functions and warps
//===----------------------------------------------------------------------===//

FailureOr<DeviceFunctionOp> mlir::exogpu::wrapDeviceFunction(
    RewriterBase &rewriter, ForOp nest, unsigned tasks,
    const DeviceFunctionConfig &config, Refusal &refusal) {
  if (isCudaScope(nest)) {
    refusal.at(nest.getLoc())
        << "wrap_device_function: the loop is already in a device function";
    return failure();
  }
  // The task loops: a perfect nest of seq loops.
  SmallVector<ForOp> taskLoops;
  ForOp loop = nest;
  for (unsigned i = 0; i < tasks; ++i) {
    if (!loop || failed(checkSeqLoop(loop, "wrap_device_function", refusal))) {
      if (!loop)
        refusal.at(nest.getLoc())
            << "wrap_device_function: the loop nest has fewer than " << tasks
            << " perfectly nested loops to become cuda_tasks loops";
      return failure();
    }
    taskLoops.push_back(loop);
    Block &body = loop.getBody().front();
    loop = i + 1 < tasks && llvm::hasSingleElement(body)
               ? dyn_cast<ForOp>(body.front())
               : ForOp();
  }
  // Parameters in host memory used only inside the kernel move to device
  // memory.
  ProcOp proc = procOf(nest);
  SmallVector<std::pair<BlockArgument, DataTensorType>> retyped;
  if (config.paramMemory) {
    for (BlockArgument param : proc.getBody().getArguments()) {
      auto type = dyn_cast<DataTensorType>(param.getType());
      if (!type || !type.getMemory().isHost() || param.use_empty())
        continue;
      bool inside = true, outside = false;
      for (Operation *user : param.getUsers()) {
        bool in = nest->isAncestor(user);
        inside &= in;
        outside |= !in;
      }
      if (!inside && outside) {
        // Used both inside and at CPU scope: it stays in host memory and
        // the verifier reports the kernel's accesses below.
        continue;
      }
      retyped.push_back({param, type});
    }
  }
  MLIRContext *ctx = nest.getContext();
  rewriter.setInsertionPoint(nest);
  auto kernel = DeviceFunctionOp::create(
      rewriter, nest.getLoc(), rewriter.getI64IntegerAttr(config.clusterDim),
      config.blockDim ? rewriter.getI64IntegerAttr(*config.blockDim)
                      : IntegerAttr(),
      config.warps);
  rewriter.createBlock(&kernel.getBody());
  rewriter.moveOpBefore(nest, &kernel.getBody().front(),
                        kernel.getBody().front().end());
  for (ForOp task : taskLoops)
    task.setModeAttr(LoopModeAttr::get(ctx, LoopMode::cuda_tasks));
  for (auto [param, type] : retyped)
    param.setType(DataTensorType::get(ctx, type.getElementType(),
                                      type.getShape(), config.paramMemory));
  if (failed(verifyOrExplain(proc, nest.getLoc(), "wrap_device_function",
                             refusal))) {
    for (auto [param, type] : retyped)
      param.setType(type);
    for (ForOp task : taskLoops)
      task.setModeAttr(LoopModeAttr::get(ctx, LoopMode::seq));
    rewriter.moveOpBefore(nest, kernel);
    rewriter.eraseOp(kernel);
    return failure();
  }
  for (ForOp task : taskLoops)
    rewriter.modifyOpInPlace(task, [] {});
  return kernel;
}

FailureOr<WarpsOp> mlir::exogpu::wrapWarps(
    RewriterBase &rewriter, ArrayRef<Operation *> block, StringAttr name,
    std::optional<std::pair<int64_t, int64_t>> range, Refusal &refusal) {
  Operation *first = block.front();
  rewriter.setInsertionPoint(first);
  auto warps = WarpsOp::create(
      rewriter, first->getLoc(), name,
      range ? rewriter.getI64IntegerAttr(range->first) : IntegerAttr(),
      range ? rewriter.getI64IntegerAttr(range->second) : IntegerAttr());
  Block *body = rewriter.createBlock(&warps.getBody());
  for (Operation *op : block)
    rewriter.moveOpBefore(op, body, body->end());
  if (failed(verifyOrExplain(procOf(warps), first->getLoc(), "wrap_warps",
                             refusal))) {
    for (Operation *op : block)
      rewriter.moveOpBefore(op, warps);
    rewriter.eraseOp(warps);
    return failure();
  }
  return warps;
}

//===----------------------------------------------------------------------===//
// Synchronization statements
//===----------------------------------------------------------------------===//

SmallVector<std::pair<StringRef, Value>, 1> InsertionPlace::extraNames() const {
  SmallVector<std::pair<StringRef, Value>, 1> names;
  if (kind == Start || kind == End)
    if (auto loop = dyn_cast<ForOp>(anchor); loop && loop.getIterName())
      names.push_back({*loop.getIterName(), loop.getIterator()});
  return names;
}

/// Checks that `access` names a barrier.
static LogicalResult checkBarrier(const ParsedAccess &access, Operation *at,
                                  Refusal &refusal) {
  if (isa<BarrierType>(access.buffer.getType()))
    return success();
  refusal.at(at->getLoc()) << "'" << getBufferName(access.buffer)
                           << "' is a data buffer, not a barrier";
  return failure();
}

/// Moves the rewriter's insertion point to `place`; fails for Start/End of
/// a statement without a body.
static LogicalResult setInsertionPoint(RewriterBase &rewriter,
                                       const InsertionPlace &place,
                                       Refusal &refusal) {
  switch (place.kind) {
  case InsertionPlace::Before:
    rewriter.setInsertionPoint(place.anchor);
    return success();
  case InsertionPlace::After:
    rewriter.setInsertionPointAfter(place.anchor);
    return success();
  case InsertionPlace::Start:
  case InsertionPlace::End:
    if (!isa<ForOp, IfOp, WarpsOp, DeviceFunctionOp>(place.anchor)) {
      refusal.at(place.anchor->getLoc())
          << "cannot insert at the start or end of a statement without a "
             "body";
      return failure();
    }
    Block *body = &place.anchor->getRegion(0).front();
    if (place.kind == InsertionPlace::Start)
      rewriter.setInsertionPointToStart(body);
    else
      rewriter.setInsertionPointToEnd(body);
    return success();
  }
  return success();
}

/// Inserts the statement `build` creates at `place`, inside `if guard` when
/// given; undoes it if the IR becomes invalid.
template <typename OpT>
static FailureOr<OpT>
insertStatement(RewriterBase &rewriter, const InsertionPlace &place,
                const ParsedCondition *guard, StringRef what, Refusal &refusal,
                function_ref<OpT(Location)> build) {
  if (failed(setInsertionPoint(rewriter, place, refusal)))
    return failure();
  Location loc = place.anchor->getLoc();
  Operation *top = nullptr;
  if (guard) {
    IfOp ifOp = createIf(rewriter, loc, guard->condition, guard->operands);
    top = ifOp;
    rewriter.setInsertionPointToStart(&ifOp.getBody().front());
  }
  OpT op = build(loc);
  if (!top)
    top = op;
  if (failed(verifyOrExplain(procOf(top), loc, what, refusal))) {
    rewriter.eraseOp(top);
    return failure();
  }
  return op;
}

FailureOr<FenceOp>
mlir::exogpu::insertFence(RewriterBase &rewriter, const InsertionPlace &place,
                          SyncTimeline pre, SyncTimeline post,
                          const ParsedCondition *guard, Refusal &refusal) {
  MLIRContext *ctx = place.anchor->getContext();
  return insertStatement<FenceOp>(
      rewriter, place, guard, "insert_fence", refusal, [&](Location loc) {
        return FenceOp::create(rewriter, loc, SyncTimelineAttr::get(ctx, pre),
                               SyncTimelineAttr::get(ctx, post));
      });
}

FailureOr<ArriveOp>
mlir::exogpu::insertArrive(RewriterBase &rewriter, const InsertionPlace &place,
                           SyncTimeline timeline, int64_t count,
                           ArrayRef<ParsedAccess> barriers,
                           const ParsedCondition *guard, Refusal &refusal) {
  MLIRContext *ctx = place.anchor->getContext();
  for (const ParsedAccess &access : barriers)
    if (failed(checkBarrier(access, place.anchor, refusal)))
      return failure();
  SmallVector<Value> values, operands;
  SmallVector<int32_t> kinds, counts;
  SmallVector<AffineExpr> exprs;
  for (const ParsedAccess &access : barriers) {
    values.push_back(access.buffer);
    llvm::append_range(kinds, access.kinds);
    counts.push_back(access.kinds.size());
    for (AffineExpr e : access.exprs)
      exprs.push_back(remapOperands(e, access.operands, operands));
  }
  return insertStatement<ArriveOp>(
      rewriter, place, guard, "insert_arrive", refusal, [&](Location loc) {
        auto arrive = ArriveOp::create(
            rewriter, loc, SyncTimelineAttr::get(ctx, timeline),
            rewriter.getI64IntegerAttr(count), values,
            rewriter.getDenseI32ArrayAttr(kinds),
            rewriter.getDenseI32ArrayAttr(counts),
            AffineMapAttr::get(AffineMap::get(operands.size(), 0, exprs, ctx)),
            operands);
        setControlMaps(arrive, getControlMaps(arrive), operands);
        return arrive;
      });
}

FailureOr<AwaitOp>
mlir::exogpu::insertAwait(RewriterBase &rewriter, const InsertionPlace &place,
                          const ParsedAccess &barrier, SyncTimeline timeline,
                          int64_t count, const ParsedCondition *guard,
                          Refusal &refusal) {
  MLIRContext *ctx = place.anchor->getContext();
  if (failed(checkBarrier(barrier, place.anchor, refusal)))
    return failure();
  return insertStatement<AwaitOp>(
      rewriter, place, guard, "insert_await", refusal, [&](Location loc) {
        return AwaitOp::create(
            rewriter, loc, barrier.buffer,
            rewriter.getDenseI32ArrayAttr(barrier.kinds),
            AffineMapAttr::get(
                AffineMap::get(barrier.operands.size(), 0, barrier.exprs, ctx)),
            barrier.operands, SyncTimelineAttr::get(ctx, timeline),
            rewriter.getI64IntegerAttr(count));
      });
}

FailureOr<AllocOp> mlir::exogpu::insertBarrierAlloc(
    RewriterBase &rewriter, const InsertionPlace &place, StringRef name,
    ArrayRef<int64_t> shape, BarrierKind kind, bool guarded, Refusal &refusal) {
  MLIRContext *ctx = place.anchor->getContext();
  SmallVector<AffineExpr> extents;
  for (int64_t d : shape)
    extents.push_back(getAffineConstantExpr(d, ctx));
  return insertStatement<AllocOp>(
      rewriter, place, nullptr, "insert_barrier_alloc", refusal,
      [&](Location loc) {
        return AllocOp::create(
            rewriter, loc, BarrierType::get(ctx, shape, kind, guarded),
            AffineMapAttr::get(AffineMap::get(0, 0, extents, ctx)),
            ValueRange{}, rewriter.getStringAttr(name));
      });
}

LogicalResult mlir::exogpu::setTrailingBarrier(RewriterBase &rewriter,
                                               CallOp call,
                                               const ParsedAccess *barrier,
                                               Refusal &refusal) {
  if (barrier && failed(checkBarrier(*barrier, call, refusal)))
    return failure();
  // The call with its data accesses, and the new trailing access.
  FailureOr<SmallVector<AccessView>> views = splitAccesses(
      call, call.getCoordKinds(), call.getCoordCounts(), call.getCoords());
  if (failed(views))
    return failure();
  auto save = [&] {
    return std::make_tuple(call.getBarrier(), call.getCoordKindsAttr(),
                           call.getCoordCountsAttr(), call.getCoordsAttr(),
                           call.getCtrlArgsAttr(),
                           SmallVector<Value>(call.getCtrl()));
  };
  auto old = save();
  unsigned numData = call.getDataArgs().size();
  SmallVector<Value> operands(call.getCtrl());
  SmallVector<int32_t> kinds, counts;
  SmallVector<AffineExpr> exprs;
  for (unsigned i = 0; i < numData; ++i) {
    llvm::append_range(kinds, (*views)[i].kinds);
    counts.push_back((*views)[i].kinds.size());
    llvm::append_range(exprs, (*views)[i].exprs);
  }
  if (barrier) {
    llvm::append_range(kinds, barrier->kinds);
    counts.push_back(barrier->kinds.size());
    for (AffineExpr e : barrier->exprs)
      exprs.push_back(remapOperands(e, barrier->operands, operands));
  }
  MLIRContext *ctx = call.getContext();
  auto apply = [&] {
    if (barrier)
      call.getBarrierMutable().assign(barrier->buffer);
    else
      call.getBarrierMutable().clear();
    call.setCoordKinds(kinds);
    call.setCoordCounts(counts);
    setControlMaps(call,
                   {AffineMap::get(operands.size(), 0,
                                   call.getCtrlArgs().getResults(), ctx),
                    AffineMap::get(operands.size(), 0, exprs, ctx)},
                   operands);
  };
  apply();
  if (failed(verifyOrExplain(procOf(call), call.getLoc(),
                             "set_trailing_barrier", refusal))) {
    auto [oldBarrier, oldKinds, oldCounts, oldCoords, oldArgs, oldCtrl] = old;
    if (oldBarrier)
      call.getBarrierMutable().assign(oldBarrier);
    else
      call.getBarrierMutable().clear();
    call.setCoordKindsAttr(oldKinds);
    call.setCoordCountsAttr(oldCounts);
    call.setCoordsAttr(oldCoords);
    call.setCtrlArgsAttr(oldArgs);
    call.getCtrlMutable().assign(oldCtrl);
    return failure();
  }
  rewriter.modifyOpInPlace(call, [] {});
  return success();
}
