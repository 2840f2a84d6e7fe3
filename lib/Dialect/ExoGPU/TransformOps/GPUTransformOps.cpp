//===- GPUTransformOps.cpp - GPU annotations -------------------*- C++ -*-===//
//
// Part of ExoGPU. The transform ops of GPUTransformOps.td: payload checks,
// then the rewrites of Scheduling/GPURewrites.h.
//
//===----------------------------------------------------------------------===//

#include "ExoGPU/Dialect/ExoGPU/TransformOps/ExoGPUTransformOps.h"
#include "ExoGPU/Transforms/Scheduling/GPURewrites.h"
#include "HandleUtils.h"
#include "mlir/AsmParser/AsmParser.h"

using namespace mlir;
using namespace mlir::exogpu;

#define GET_OP_CLASSES
#include "ExoGPU/Dialect/ExoGPU/TransformOps/GPUTransformOps.cpp.inc"

EXOGPU_EDIT_EFFECTS(SetLoopModeOp)
EXOGPU_EDIT_EFFECTS(WrapDeviceFunctionOp)
EXOGPU_EDIT_EFFECTS(WrapWarpsOp)
EXOGPU_EDIT_EFFECTS(InsertFenceOp)
EXOGPU_EDIT_EFFECTS(InsertArriveOp)
EXOGPU_EDIT_EFFECTS(InsertAwaitOp)
EXOGPU_EDIT_EFFECTS(InsertBarrierAllocOp)
EXOGPU_EDIT_EFFECTS(SetTrailingBarrierOp)

/// The collective unit `text` names (`cuda_thread`, `4 * cuda_warp`;
/// Fig. 11), or null.
static CollUnitAttr parseUnit(MLIRContext *ctx, StringRef text) {
  // Parse quietly: the verifier reports a bad unit at the transform op.
  ScopedDiagnosticHandler quiet(ctx, [](Diagnostic &) { return success(); });
  return dyn_cast_or_null<CollUnitAttr>(
      parseAttribute(("#exogpu.unit<" + text + ">").str(), ctx));
}

/// Verifier rule: `text` names a sync timeline (Fig. 16).
static LogicalResult verifyTimeline(Operation *op, StringRef text) {
  if (symbolizeSyncTimeline(text))
    return success();
  return op->emitOpError() << "'" << text
                           << "' is not a sync timeline (Fig. 16)";
}

LogicalResult SetLoopModeOp::verify() {
  if (!symbolizeLoopMode(getMode()))
    return emitOpError() << "'" << getMode()
                         << "' is not a loop mode (seq, cuda_tasks or "
                            "cuda_threads)";
  if (getUnit() && !parseUnit(getContext(), *getUnit()))
    return emitOpError() << "'" << *getUnit()
                         << "' is not a collective unit (Fig. 11)";
  return success();
}

DiagnosedSilenceableFailure
SetLoopModeOp::apply(transform::TransformRewriter &rewriter,
                     transform::TransformResults &results,
                     transform::TransformState &state) {
  ForOp loop;
  if (DiagnosedSilenceableFailure diag =
          getSingle<ForOp>(*this, state, getTarget(), "a loop", loop);
      !diag.succeeded())
    return diag;
  CollUnitAttr unit = getUnit() ? parseUnit(getContext(), *getUnit()) : nullptr;
  Refusal refusal;
  if (failed(setLoopMode(rewriter, loop, *symbolizeLoopMode(getMode()), unit,
                         refusal)))
    return refused(refusal, getLoc());
  return DiagnosedSilenceableFailure::success();
}

LogicalResult WrapDeviceFunctionOp::verify() {
  if (getBlockDim().has_value() == static_cast<bool>(getWarps()))
    return emitOpError("needs either blockDim or a warp config (warps)");
  if (getParamsTo())
    return verifyMemoryName(*this, *getParamsTo());
  return success();
}

DiagnosedSilenceableFailure
WrapDeviceFunctionOp::apply(transform::TransformRewriter &rewriter,
                            transform::TransformResults &results,
                            transform::TransformState &state) {
  ForOp nest;
  if (DiagnosedSilenceableFailure diag =
          getSingle<ForOp>(*this, state, getTarget(), "a loop", nest);
      !diag.succeeded())
    return diag;
  DeviceFunctionConfig config;
  config.clusterDim = getClusterDim();
  config.blockDim = getBlockDim();
  config.warps = getWarpsAttr();
  if (getParamsTo())
    config.paramMemory = parseMemoryName(getContext(), *getParamsTo());
  Refusal refusal;
  FailureOr<DeviceFunctionOp> kernel =
      wrapDeviceFunction(rewriter, nest, getTasks(), config, refusal);
  if (failed(kernel))
    return refused(refusal, getLoc());
  setResultOps(results, getResult(), {*kernel});
  return DiagnosedSilenceableFailure::success();
}

LogicalResult WrapWarpsOp::verify() {
  if (!getName() && !getRange())
    return emitOpError("needs a warp group name or a range");
  if (getRange() && getRange()->size() != 2)
    return emitOpError("range needs two integers: lo, hi");
  return success();
}

DiagnosedSilenceableFailure
WrapWarpsOp::apply(transform::TransformRewriter &rewriter,
                   transform::TransformResults &results,
                   transform::TransformState &state) {
  SmallVector<Operation *> block;
  if (DiagnosedSilenceableFailure diag =
          getStatementBlock(*this, state, getTarget(), block);
      !diag.succeeded())
    return diag;
  std::optional<std::pair<int64_t, int64_t>> range;
  if (getRange())
    range = std::make_pair((*getRange())[0], (*getRange())[1]);
  Refusal refusal;
  FailureOr<WarpsOp> warps =
      wrapWarps(rewriter, block, getNameAttr(), range, refusal);
  if (failed(warps))
    return refused(refusal, getLoc());
  setResultOps(results, getResult(), {*warps});
  return DiagnosedSilenceableFailure::success();
}

/// The kind of place `position` names: `before`, `after`, `start`, `end`.
static std::optional<InsertionPlace::Kind> symbolizePosition(StringRef text) {
  return llvm::StringSwitch<std::optional<InsertionPlace::Kind>>(text)
      .Case("before", InsertionPlace::Before)
      .Case("after", InsertionPlace::After)
      .Case("start", InsertionPlace::Start)
      .Case("end", InsertionPlace::End)
      .Default(std::nullopt);
}

/// Verifier rule of the insert ops: `position` names a place.
static LogicalResult verifyPosition(Operation *op, StringRef position) {
  if (symbolizePosition(position))
    return success();
  return op->emitOpError()
         << "position must be \"before\", \"after\", \"start\" or \"end\"";
}

/// The place an insert op names and its parsed guard, or a silenceable
/// failure.
static DiagnosedSilenceableFailure
getPlace(transform::TransformOpInterface self, transform::TransformState &state,
         Value target, StringRef position, std::optional<StringRef> guardText,
         InsertionPlace &place, std::optional<ParsedCondition> &guard) {
  Operation *anchor = nullptr;
  if (DiagnosedSilenceableFailure diag = getSingleStatement(
          self, state, target, "a statement", isProcStatement, anchor);
      !diag.succeeded())
    return diag;
  place = {anchor, *symbolizePosition(position)};
  if (guardText) {
    Refusal refusal;
    Operation *at = anchor;
    if (place.kind == InsertionPlace::Start ||
        place.kind == InsertionPlace::End)
      if (Block *body =
              anchor->getNumRegions() ? &anchor->getRegion(0).front() : nullptr;
          body && !body->empty())
        at = &body->front();
    FailureOr<ParsedCondition> parsed = parseConditionText(
        *guardText, at, self->getLoc(), refusal, place.extraNames());
    if (failed(parsed))
      return refused(refusal, self->getLoc());
    guard = *parsed;
  }
  return DiagnosedSilenceableFailure::success();
}

/// Parses a barrier access at the place.
static FailureOr<ParsedAccess> parseBarrier(const InsertionPlace &place,
                                            StringRef text, Location loc,
                                            Refusal &refusal) {
  Operation *at = place.anchor;
  if (place.kind == InsertionPlace::Start || place.kind == InsertionPlace::End)
    if (Block *body = at->getNumRegions() ? &at->getRegion(0).front() : nullptr;
        body && !body->empty())
      at = &body->front();
  return parseAccessText(text, at, loc, refusal, place.extraNames());
}

/// Inserts the statement `insert` builds at the place an insert op names
/// and returns it in `result`.
template <typename OpT>
static DiagnosedSilenceableFailure applyInsert(
    transform::TransformOpInterface self, transform::TransformState &state,
    transform::TransformResults &results, Value target, StringRef position,
    std::optional<StringRef> guardText, Value result,
    function_ref<FailureOr<OpT>(const InsertionPlace &, const ParsedCondition *,
                                Refusal &)>
        insert) {
  InsertionPlace place;
  std::optional<ParsedCondition> guard;
  if (DiagnosedSilenceableFailure diag =
          getPlace(self, state, target, position, guardText, place, guard);
      !diag.succeeded())
    return diag;
  Refusal refusal;
  FailureOr<OpT> op = insert(place, guard ? &*guard : nullptr, refusal);
  if (failed(op))
    return refused(refusal, self->getLoc());
  setResultOps(results, result, {*op});
  return DiagnosedSilenceableFailure::success();
}

LogicalResult InsertFenceOp::verify() {
  if (failed(verifyPosition(*this, getPosition())) ||
      failed(verifyTimeline(*this, getPre())))
    return failure();
  return verifyTimeline(*this, getPost());
}

LogicalResult InsertArriveOp::verify() {
  if (failed(verifyPosition(*this, getPosition())))
    return failure();
  return verifyTimeline(*this, getTimeline());
}

LogicalResult InsertAwaitOp::verify() {
  if (failed(verifyPosition(*this, getPosition())))
    return failure();
  return verifyTimeline(*this, getTimeline());
}

LogicalResult InsertBarrierAllocOp::verify() {
  if (failed(verifyPosition(*this, getPosition())))
    return failure();
  if (symbolizeBarrierKind(getMechanism()))
    return success();
  return emitOpError() << "'" << getMechanism()
                       << "' is not a barrier mechanism (Fig. 13)";
}

DiagnosedSilenceableFailure
InsertFenceOp::apply(transform::TransformRewriter &rewriter,
                     transform::TransformResults &results,
                     transform::TransformState &state) {
  return applyInsert<FenceOp>(
      *this, state, results, getTarget(), getPosition(), getGuard(),
      getResult(),
      [&](const InsertionPlace &place, const ParsedCondition *guard,
          Refusal &refusal) -> FailureOr<FenceOp> {
        return insertFence(rewriter, place, *symbolizeSyncTimeline(getPre()),
                           *symbolizeSyncTimeline(getPost()), guard, refusal);
      });
}

DiagnosedSilenceableFailure
InsertArriveOp::apply(transform::TransformRewriter &rewriter,
                      transform::TransformResults &results,
                      transform::TransformState &state) {
  return applyInsert<ArriveOp>(
      *this, state, results, getTarget(), getPosition(), getGuard(),
      getResult(),
      [&](const InsertionPlace &place, const ParsedCondition *guard,
          Refusal &refusal) -> FailureOr<ArriveOp> {
        SmallVector<ParsedAccess> barriers;
        for (Attribute text : getBarriers()) {
          FailureOr<ParsedAccess> barrier = parseBarrier(
              place, cast<StringAttr>(text).getValue(), getLoc(), refusal);
          if (failed(barrier))
            return failure();
          barriers.push_back(*barrier);
        }
        return insertArrive(rewriter, place,
                            *symbolizeSyncTimeline(getTimeline()), getCount(),
                            barriers, guard, refusal);
      });
}

DiagnosedSilenceableFailure
InsertAwaitOp::apply(transform::TransformRewriter &rewriter,
                     transform::TransformResults &results,
                     transform::TransformState &state) {
  return applyInsert<AwaitOp>(
      *this, state, results, getTarget(), getPosition(), getGuard(),
      getResult(),
      [&](const InsertionPlace &place, const ParsedCondition *guard,
          Refusal &refusal) -> FailureOr<AwaitOp> {
        FailureOr<ParsedAccess> barrier =
            parseBarrier(place, getBarrier(), getLoc(), refusal);
        if (failed(barrier))
          return failure();
        return insertAwait(rewriter, place, *barrier,
                           *symbolizeSyncTimeline(getTimeline()), getCount(),
                           guard, refusal);
      });
}

DiagnosedSilenceableFailure
InsertBarrierAllocOp::apply(transform::TransformRewriter &rewriter,
                            transform::TransformResults &results,
                            transform::TransformState &state) {
  return applyInsert<AllocOp>(
      *this, state, results, getTarget(), getPosition(), std::nullopt,
      getResult(),
      [&](const InsertionPlace &place, const ParsedCondition *,
          Refusal &refusal) -> FailureOr<AllocOp> {
        return insertBarrierAlloc(rewriter, place, getName(), getShape(),
                                  *symbolizeBarrierKind(getMechanism()),
                                  getGuarded(), refusal);
      });
}

DiagnosedSilenceableFailure
SetTrailingBarrierOp::apply(transform::TransformRewriter &rewriter,
                            transform::TransformResults &results,
                            transform::TransformState &state) {
  CallOp call;
  if (DiagnosedSilenceableFailure diag =
          getSingle<CallOp>(*this, state, getTarget(), "a call", call);
      !diag.succeeded())
    return diag;
  Refusal refusal;
  std::optional<ParsedAccess> barrier;
  if (getBarrier()) {
    FailureOr<ParsedAccess> parsed =
        parseAccessText(*getBarrier(), call, getLoc(), refusal);
    if (failed(parsed))
      return refused(refusal, getLoc());
    barrier = *parsed;
  }
  if (failed(setTrailingBarrier(rewriter, call, barrier ? &*barrier : nullptr,
                                refusal)))
    return refused(refusal, getLoc());
  return DiagnosedSilenceableFailure::success();
}
