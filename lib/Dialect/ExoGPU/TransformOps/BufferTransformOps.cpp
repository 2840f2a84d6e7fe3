//===- BufferTransformOps.cpp - checked buffer rewrites -------------------===//
//
// Part of ExoGPU. The transform ops of BufferTransformOps.td: payload
// checks, then the rewrites of Scheduling/BufferRewrites.h.
//
//===----------------------------------------------------------------------===//

#include "ExoGPU/Dialect/ExoGPU/TransformOps/ExoGPUTransformOps.h"
#include "ExoGPU/Transforms/Scheduling/BufferRewrites.h"
#include "HandleUtils.h"
#include "mlir/AsmParser/AsmParser.h"

using namespace mlir;
using namespace mlir::exogpu;

#define GET_OP_CLASSES
#include "ExoGPU/Dialect/ExoGPU/TransformOps/BufferTransformOps.cpp.inc"

/// Parses control-expression text at `at` into `var`, or returns the
/// failure.
#define PARSE_EXPR(var, text, at)                                              \
  Refusal var##Refusal;                                                        \
  FailureOr<ValueExpr> var =                                                   \
      parseControlText(text, at, getLoc(), var##Refusal);                      \
  if (failed(var))                                                             \
    return refused(var##Refusal, getLoc());

/// The buffer a handle names: an alloc's result, or parameter `param` of a
/// proc.
static DiagnosedSilenceableFailure
getBuffer(transform::TransformOpInterface self,
          transform::TransformState &state, Value handle,
          std::optional<StringRef> param, Value &buffer) {
  Operation *op = nullptr;
  DiagnosedSilenceableFailure diag = getSingleStatement(
      self, state, handle, "an alloc, or a proc with a parameter name",
      [&](Operation *op) { return param ? isa<ProcOp>(op) : isa<AllocOp>(op); },
      op);
  if (!diag.succeeded())
    return diag;
  if (auto alloc = dyn_cast<AllocOp>(op)) {
    buffer = alloc.getResult();
    return DiagnosedSilenceableFailure::success();
  }
  auto proc = cast<ProcOp>(op);
  for (auto [i, name] : llvm::enumerate(proc.getArgNames()))
    if (cast<StringAttr>(name).getValue() == *param) {
      buffer = proc.getParam(i);
      return DiagnosedSilenceableFailure::success();
    }
  return self.emitSilenceableError()
         << "@" << proc.getSymName() << " has no parameter '" << *param << "'";
}

EXOGPU_EDIT_EFFECTS(LiftAllocOp)
EXOGPU_EDIT_EFFECTS(SinkAllocOp)
EXOGPU_EDIT_EFFECTS(ExpandDimOp)
EXOGPU_EDIT_EFFECTS(DivideDimOp)
EXOGPU_EDIT_EFFECTS(MultDimOp)
EXOGPU_EDIT_EFFECTS(RearrangeDimOp)
EXOGPU_EDIT_EFFECTS(ResizeDimOp)
EXOGPU_EDIT_EFFECTS(SetMemoryOp)
EXOGPU_EDIT_EFFECTS(SetPrecisionOp)
EXOGPU_EDIT_EFFECTS(StageMemOp)
EXOGPU_EDIT_EFFECTS(BindWindowOp)

DiagnosedSilenceableFailure
LiftAllocOp::apply(transform::TransformRewriter &rewriter,
                   transform::TransformResults &results,
                   transform::TransformState &state) {
  EXOGPU_GET_SINGLE(AllocOp, alloc, getTarget(), "an alloc");
  return runRewrite(*this, alloc->getParentOfType<ProcOp>(),
                    [&](Refusal &refusal) {
                      return liftAlloc(rewriter, alloc, getLevels(), refusal);
                    });
}

DiagnosedSilenceableFailure
SinkAllocOp::apply(transform::TransformRewriter &rewriter,
                   transform::TransformResults &results,
                   transform::TransformState &state) {
  EXOGPU_GET_SINGLE(AllocOp, alloc, getTarget(), "an alloc");
  return runRewrite(
      *this, alloc->getParentOfType<ProcOp>(),
      [&](Refusal &refusal) { return sinkAlloc(rewriter, alloc, refusal); });
}

DiagnosedSilenceableFailure
ExpandDimOp::apply(transform::TransformRewriter &rewriter,
                   transform::TransformResults &results,
                   transform::TransformState &state) {
  EXOGPU_GET_SINGLE(AllocOp, alloc, getTarget(), "an alloc");
  PARSE_EXPR(size, getSize(), alloc);
  PARSE_EXPR(index, getIndex(), alloc);
  return runRewrite(*this, alloc->getParentOfType<ProcOp>(),
                    [&](Refusal &refusal) {
                      return expandDim(rewriter, alloc, *size, *index, refusal);
                    });
}

DiagnosedSilenceableFailure
DivideDimOp::apply(transform::TransformRewriter &rewriter,
                   transform::TransformResults &results,
                   transform::TransformState &state) {
  EXOGPU_GET_SINGLE(AllocOp, alloc, getTarget(), "an alloc");
  return runRewrite(
      *this, alloc->getParentOfType<ProcOp>(), [&](Refusal &refusal) {
        return divideDim(rewriter, alloc, getDim(), getQuotient(), refusal);
      });
}

DiagnosedSilenceableFailure
MultDimOp::apply(transform::TransformRewriter &rewriter,
                 transform::TransformResults &results,
                 transform::TransformState &state) {
  EXOGPU_GET_SINGLE(AllocOp, alloc, getTarget(), "an alloc");
  return runRewrite(
      *this, alloc->getParentOfType<ProcOp>(), [&](Refusal &refusal) {
        return multDim(rewriter, alloc, getHi(), getLo(), refusal);
      });
}

DiagnosedSilenceableFailure
RearrangeDimOp::apply(transform::TransformRewriter &rewriter,
                      transform::TransformResults &results,
                      transform::TransformState &state) {
  EXOGPU_GET_SINGLE(AllocOp, alloc, getTarget(), "an alloc");
  return runRewrite(
      *this, alloc->getParentOfType<ProcOp>(), [&](Refusal &refusal) {
        return rearrangeDim(rewriter, alloc, getPermutation(), refusal);
      });
}

LogicalResult ResizeDimOp::verify() {
  if (getFold() && getOffset() != "0")
    return emitOpError("a folded dimension takes no offset");
  return success();
}

DiagnosedSilenceableFailure
ResizeDimOp::apply(transform::TransformRewriter &rewriter,
                   transform::TransformResults &results,
                   transform::TransformState &state) {
  EXOGPU_GET_SINGLE(AllocOp, alloc, getTarget(), "an alloc");
  PARSE_EXPR(size, getSize(), alloc);
  PARSE_EXPR(offset, getOffset(), alloc);
  return runRewrite(*this, alloc->getParentOfType<ProcOp>(),
                    [&](Refusal &refusal) {
                      return resizeDim(rewriter, alloc, getDim(), *size,
                                       *offset, getFold(), refusal);
                    });
}

DiagnosedSilenceableFailure
DeleteBufferOp::apply(transform::TransformRewriter &rewriter,
                      transform::TransformResults &results,
                      transform::TransformState &state) {
  EXOGPU_GET_SINGLE(AllocOp, alloc, getTarget(), "an alloc");
  return runRewrite(
      *this, alloc->getParentOfType<ProcOp>(),
      [&](Refusal &refusal) { return deleteBuffer(rewriter, alloc, refusal); });
}

void ReuseBufferOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  transform::onlyReadsHandle(getKeptMutable(), effects);
  transform::consumesHandle(getReplacedMutable(), effects);
  transform::modifiesPayload(effects);
}

DiagnosedSilenceableFailure
ReuseBufferOp::apply(transform::TransformRewriter &rewriter,
                     transform::TransformResults &results,
                     transform::TransformState &state) {
  EXOGPU_GET_SINGLE(AllocOp, kept, getKept(), "an alloc");
  EXOGPU_GET_SINGLE(AllocOp, replaced, getReplaced(), "an alloc");
  if (DiagnosedSilenceableFailure diag = checkSameProc(*this, kept, replaced);
      !diag.succeeded())
    return diag;
  return runRewrite(*this, kept->getParentOfType<ProcOp>(),
                    [&](Refusal &refusal) {
                      return reuseBuffer(rewriter, kept, replaced, refusal);
                    });
}

/// The proc a buffer belongs to.
static Operation *procOf(Value buffer) {
  Operation *parent = buffer.getParentRegion()->getParentOp();
  return isa<ProcOp>(parent) ? parent : parent->getParentOfType<ProcOp>();
}

LogicalResult SetMemoryOp::verify() {
  return verifyMemoryName(*this, getMemory());
}

DiagnosedSilenceableFailure
SetMemoryOp::apply(transform::TransformRewriter &rewriter,
                   transform::TransformResults &results,
                   transform::TransformState &state) {
  Value buffer;
  if (DiagnosedSilenceableFailure diag =
          getBuffer(*this, state, getTarget(), getParam(), buffer);
      !diag.succeeded())
    return diag;
  MemoryAttr memory = parseMemoryName(getContext(), getMemory());
  return runRewrite(*this, procOf(buffer), [&](Refusal &refusal) {
    return exogpu::setMemory(rewriter, buffer, memory, refusal);
  });
}

DiagnosedSilenceableFailure
SetPrecisionOp::apply(transform::TransformRewriter &rewriter,
                      transform::TransformResults &results,
                      transform::TransformState &state) {
  Value buffer;
  if (DiagnosedSilenceableFailure diag =
          getBuffer(*this, state, getTarget(), getParam(), buffer);
      !diag.succeeded())
    return diag;
  return runRewrite(*this, procOf(buffer), [&](Refusal &refusal) {
    return exogpu::setPrecision(rewriter, buffer, getPrecision(), refusal);
  });
}

LogicalResult StageMemOp::verify() {
  return verifyMemoryName(*this, getMemory());
}

DiagnosedSilenceableFailure
StageMemOp::apply(transform::TransformRewriter &rewriter,
                  transform::TransformResults &results,
                  transform::TransformState &state) {
  SmallVector<Operation *> block;
  if (DiagnosedSilenceableFailure diag =
          getStatementBlock(*this, state, getTarget(), block);
      !diag.succeeded())
    return diag;
  MemoryAttr memory = parseMemoryName(getContext(), getMemory());
  Operation *proc = block.front()->getParentOfType<ProcOp>();
  Refusal refusal;
  FailureOr<ParsedAccess> window =
      parseAccessText(getWindow(), block.front(), getLoc(), refusal);
  if (failed(window))
    return refused(refusal, getLoc());
  FailureOr<StagedWindow> staged = stageMem(rewriter, block, *window, getName(),
                                            memory, getAccum(), refusal);
  if (failed(staged))
    return refused(refusal, getLoc());
  setResultOps(results, getAlloc(), {staged->alloc});
  setResultOps(results, getLoad(), {staged->load});
  setResultOps(results, getStore(), {staged->store});
  return verifyRewritten(*this, proc);
}

DiagnosedSilenceableFailure
InlineWindowOp::apply(transform::TransformRewriter &rewriter,
                      transform::TransformResults &results,
                      transform::TransformState &state) {
  WindowOp window;
  if (DiagnosedSilenceableFailure diag =
          getSingle<WindowOp>(*this, state, getTarget(), "a window", window);
      !diag.succeeded())
    return diag;
  return runRewrite(*this, window->getParentOfType<ProcOp>(),
                    [&](Refusal &refusal) {
                      return inlineWindow(rewriter, window, refusal);
                    });
}

DiagnosedSilenceableFailure
BindWindowOp::apply(transform::TransformRewriter &rewriter,
                    transform::TransformResults &results,
                    transform::TransformState &state) {
  SmallVector<Operation *> block;
  if (DiagnosedSilenceableFailure diag =
          getStatementBlock(*this, state, getTarget(), block);
      !diag.succeeded())
    return diag;
  Value buffer = lookupName(getBuffer(), block.front());
  if (!buffer || !isa<BufferTypeInterface>(buffer.getType()))
    return emitSilenceableError() << "no data buffer named '" << getBuffer()
                                  << "' is visible at the block";
  SpecialWindowAttr special;
  if (getSpecial()) {
    ScopedDiagnosticHandler quiet(getContext(),
                                  [](Diagnostic &) { return success(); });
    StringRef text = *getSpecial();
    text.consume_front("@");
    special = dyn_cast_or_null<SpecialWindowAttr>(parseAttribute(
        ("#exogpu.special_window<@" + text + ">").str(), getContext()));
    if (!special)
      return emitSilenceableError()
             << "'" << *getSpecial() << "' is not a special window (Fig. 14)";
  }
  Operation *proc = block.front()->getParentOfType<ProcOp>();
  Refusal refusal;
  FailureOr<WindowOp> window =
      bindWindow(rewriter, block, buffer, getName(), special, refusal);
  if (failed(window))
    return refused(refusal, getLoc());
  setResultOps(results, getWindow(), {*window});
  return verifyRewritten(*this, proc);
}
