//===- BufferAccesses.cpp - what statements read, write and reduce -------===//
//
// Part of ExoGPU. Access relations of leaf statements, resolved through
// windows and splits to root buffers (see BufferAccesses.h).
//
//===----------------------------------------------------------------------===//

#include "ExoGPU/Analysis/BufferAccesses.h"
#include "ExoGPU/Dialect/ExoGPU/IR/ControlExpr.h"
#include "ExoGPU/Dialect/ExoGPU/IR/ExoGPUOps.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::exogpu;

std::string mlir::exogpu::getBufferName(Value buffer) {
  std::optional<StringRef> name;
  if (auto alloc = buffer.getDefiningOp<AllocOp>())
    name = alloc.getName();
  else if (auto window = buffer.getDefiningOp<WindowOp>())
    name = window.getName();
  else if (auto split = buffer.getDefiningOp<SplitOp>())
    name = split.getName();
  else
    return getControlName(buffer);
  return name ? name->str() : "?";
}

std::string BufferAccess::describe() const {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << getBufferName(root) << '[';
  for (unsigned d = 0, e = lo.size(); d < e; ++d) {
    if (d)
      os << ", ";
    os << printControlText(lo[d], operands);
    if (lo[d] != hi[d])
      os << ".." << printControlText(hi[d], operands);
  }
  os << ']';
  return text;
}

/// Whether `value` is a parameter of a proc or instruction.
static bool isParameter(Value value) {
  auto arg = dyn_cast<BlockArgument>(value);
  return arg && isa_and_nonnull<ProcOp, InstrOp>(arg.getOwner()->getParentOp());
}

void mlir::exogpu::getRootExtents(Value root,
                                  SmallVectorImpl<AffineExpr> &extents,
                                  SmallVectorImpl<Value> &operands) {
  if (auto alloc = root.getDefiningOp<AllocOp>()) {
    llvm::append_range(extents, alloc.getExtents().getResults());
    llvm::append_range(operands, alloc.getCtrl());
    return;
  }
  auto arg = cast<BlockArgument>(root);
  Operation *callable = arg.getOwner()->getParentOp();
  ArrayAttr all = isa<ProcOp>(callable)
                      ? cast<ProcOp>(callable).getArgExtents()
                      : cast<InstrOp>(callable).getArgExtents();
  AffineMap map = cast<AffineMapAttr>(all[arg.getArgNumber()]).getValue();
  llvm::append_range(extents, map.getResults());
  llvm::append_range(operands, arg.getOwner()->getArguments());
}

/// The view `split` makes of the view `view` of its source.
static LogicalResult applySplit(BufferView &view, SplitOp split) {
  int64_t factor = split.getFactor();
  if (split.getDim() >= view.dims.size() || factor <= 0)
    return failure();
  auto dim = view.dims.begin() + split.getDim();
  BufferView::Dim inner{dim->rootDim, dim->stride,
                        getAffineConstantExpr(factor, split.getContext())};
  if (llvm::MulOverflow(dim->stride, factor, dim->stride))
    return failure();
  dim->extent = dim->extent.floorDiv(factor);
  view.dims.insert(dim + 1, inner);
  return success();
}

/// The view `window` makes of the view `view` of its source: a point fixes a
/// dimension, an interval narrows it.
static LogicalResult applyWindow(BufferView &view, WindowOp window) {
  ArrayRef<int32_t> kinds = window.getCoordKinds();
  ArrayRef<AffineExpr> exprs = window.getCoords().getResults();
  if (kinds.size() != view.dims.size())
    return failure();
  unsigned numCtrl = window.getCtrl().size(), shift = view.operands.size();
  llvm::append_range(view.operands, window.getCtrl());
  SmallVector<BufferView::Dim, 4> dims;
  unsigned next = 0;
  for (auto [dim, raw] : llvm::zip(view.dims, kinds)) {
    auto kind = static_cast<CoordKind>(raw);
    if (kind == CoordKind::Full) {
      dims.push_back(dim);
      continue;
    }
    if (next + getCoordArity(kind) > exprs.size())
      return failure();
    auto take = [&] { return exprs[next++].shiftDims(numCtrl, shift); };
    AffineExpr lo = take();
    AffineExpr &offset = view.offsets[dim.rootDim];
    offset = offset + lo * dim.stride;
    if (kind == CoordKind::Interval)
      dims.push_back({dim.rootDim, dim.stride, take() - lo});
  }
  view.dims = std::move(dims);
  return success();
}

FailureOr<BufferView> mlir::exogpu::getBufferView(Value buffer) {
  if (buffer.getDefiningOp<AllocOp>() || isParameter(buffer)) {
    BufferView view;
    view.root = buffer;
    SmallVector<AffineExpr> extents;
    getRootExtents(buffer, extents, view.operands);
    for (auto [d, extent] : llvm::enumerate(extents)) {
      view.offsets.push_back(getAffineConstantExpr(0, buffer.getContext()));
      view.dims.push_back({static_cast<unsigned>(d), 1, extent});
    }
    return view;
  }
  Operation *def = buffer.getDefiningOp();
  if (!isa_and_nonnull<WindowOp, SplitOp>(def))
    return failure();
  FailureOr<BufferView> view =
      getBufferView(cast<ViewLikeOpInterface>(def).getViewSource());
  if (failed(view))
    return failure();
  LogicalResult applied = isa<SplitOp>(def)
                              ? applySplit(*view, cast<SplitOp>(def))
                              : applyWindow(*view, cast<WindowOp>(def));
  if (failed(applied))
    return failure();
  return view;
}

/// The access of `buffer` at coordinates `kinds`/`exprs` (over `ctrl`); no
/// coordinates is the whole buffer. Each view dimension adds the range of
/// its coordinate, times its stride, to its root dimension.
static FailureOr<BufferAccess> makeAccess(Operation *stmt, Location loc,
                                          Value buffer, AccessKind kind,
                                          ArrayRef<int32_t> kinds,
                                          ArrayRef<AffineExpr> exprs,
                                          ValueRange ctrl) {
  FailureOr<BufferView> view = getBufferView(buffer);
  if (failed(view) || (!kinds.empty() && kinds.size() != view->dims.size()))
    return failure();
  BufferAccess access{stmt,          loc,           view->root,    kind,
                      view->offsets, view->offsets, view->operands};
  unsigned shift = access.operands.size();
  llvm::append_range(access.operands, ctrl);
  unsigned next = 0;
  for (auto [k, dim] : llvm::enumerate(view->dims)) {
    auto coord =
        kinds.empty() ? CoordKind::Full : static_cast<CoordKind>(kinds[k]);
    if (next + getCoordArity(coord) > exprs.size())
      return failure();
    auto take = [&] { return exprs[next++].shiftDims(ctrl.size(), shift); };
    AffineExpr &lo = access.lo[dim.rootDim], &hi = access.hi[dim.rootDim];
    if (coord == CoordKind::Point) {
      AffineExpr p = take() * dim.stride;
      lo = lo + p;
      hi = hi + p;
    } else if (coord == CoordKind::Interval) {
      AffineExpr l = take(), h = take();
      lo = lo + l * dim.stride;
      hi = hi + h * dim.stride - dim.stride;
    } else {
      hi = hi + dim.extent * dim.stride - dim.stride;
    }
  }
  return access;
}

/// The parameter of `callable` that `buffer` is a window of, if any.
static std::optional<unsigned> getRootParam(Operation *callable, Value buffer) {
  FailureOr<BufferView> view = getBufferView(buffer);
  if (failed(view))
    return std::nullopt;
  auto arg = dyn_cast<BlockArgument>(view->root);
  if (!arg || arg.getOwner()->getParentOp() != callable)
    return std::nullopt;
  return arg.getArgNumber();
}

unsigned AccessCollector::getParamModes(Operation *callable, unsigned param) {
  auto it = paramModes.find(callable);
  if (it != paramModes.end())
    return param < it->second.size() ? it->second[param] : 0;
  unsigned numParams = callable->getRegion(0).front().getNumArguments();
  // Mark as in progress (a recursive call reads and writes everything).
  paramModes[callable].assign(numParams, 0b111);
  SmallVector<unsigned> modes(numParams, 0);
  auto mark = [&](Value buffer, AccessKind kind) {
    if (std::optional<unsigned> p = getRootParam(callable, buffer))
      modes[*p] |= 1u << static_cast<unsigned>(kind);
  };
  callable->walk([&](Operation *op) {
    if (auto read = dyn_cast<ReadOp>(op))
      mark(read.getSource(), AccessKind::Read);
    else if (auto assign = dyn_cast<AssignOp>(op))
      mark(assign.getDest(), AccessKind::Write);
    else if (auto reduce = dyn_cast<ReduceOp>(op))
      mark(reduce.getDest(), AccessKind::Reduce);
    else if (auto call = dyn_cast<CallOp>(op)) {
      Operation *callee = call.lookupCallee();
      SmallVector<unsigned> data;
      if (callee)
        for (unsigned i = 0, e = callee->getRegion(0).front().getNumArguments();
             i < e; ++i)
          if (isa<BufferTypeInterface>(
                  callee->getRegion(0).front().getArgument(i).getType()))
            data.push_back(i);
      for (auto [n, arg] : llvm::enumerate(call.getDataArgs())) {
        unsigned inner =
            callee && n < data.size() ? getParamModes(callee, data[n]) : 0b111;
        if (std::optional<unsigned> p = getRootParam(callable, arg))
          modes[*p] |= inner;
      }
    }
  });
  paramModes[callable] = modes;
  return modes[param];
}

void AccessCollector::collectLeaf(Operation *op,
                                  SmallVectorImpl<BufferAccess> &accesses) {
  auto add = [&](Location loc, Value buffer, AccessKind kind,
                 ArrayRef<int32_t> kinds, ArrayRef<AffineExpr> exprs,
                 ValueRange ctrl) {
    FailureOr<BufferAccess> access =
        makeAccess(op, loc, buffer, kind, kinds, exprs, ctrl);
    if (succeeded(access))
      accesses.push_back(std::move(*access));
  };
  auto addWrite = [&](auto write, AccessKind kind) {
    SmallVector<int32_t> points(write.getIndices().getNumResults(),
                                static_cast<int32_t>(CoordKind::Point));
    add(op->getLoc(), write.getDest(), kind, points,
        write.getIndices().getResults(), write.getCtrl());
    write.getValue().walk([&](ReadOp read) {
      SmallVector<int32_t> readPoints(read.getIndices().getNumResults(),
                                      static_cast<int32_t>(CoordKind::Point));
      add(read.getLoc(), read.getSource(), AccessKind::Read, readPoints,
          read.getIndices().getResults(), read.getCtrl());
    });
  };
  if (auto assign = dyn_cast<AssignOp>(op))
    return addWrite(assign, AccessKind::Write);
  if (auto reduce = dyn_cast<ReduceOp>(op))
    return addWrite(reduce, AccessKind::Reduce);
  if (auto free = dyn_cast<FreeOp>(op)) {
    if (isa<BufferTypeInterface>(free.getBuffer().getType()))
      add(op->getLoc(), free.getBuffer(), AccessKind::Write, {}, {}, {});
    return;
  }
  auto call = dyn_cast<CallOp>(op);
  if (!call)
    return;
  FailureOr<SmallVector<AccessView>> coords = splitAccesses(
      call, call.getCoordKinds(), call.getCoordCounts(), call.getCoords());
  if (failed(coords))
    return;
  Operation *callee = call.lookupCallee();
  SmallVector<unsigned> data;
  if (callee)
    for (BlockArgument arg : callee->getRegion(0).front().getArguments())
      if (isa<BufferTypeInterface>(arg.getType()))
        data.push_back(arg.getArgNumber());
  for (auto [n, arg] : llvm::enumerate(call.getDataArgs())) {
    unsigned modes =
        callee && n < data.size() ? getParamModes(callee, data[n]) : 0b111;
    for (AccessKind kind :
         {AccessKind::Read, AccessKind::Write, AccessKind::Reduce})
      if (modes & (1u << static_cast<unsigned>(kind)))
        add(op->getLoc(), arg, kind, (*coords)[n].kinds, (*coords)[n].exprs,
            call.getCtrl());
  }
}

void AccessCollector::collect(Operation *op,
                              SmallVectorImpl<BufferAccess> &accesses) {
  op->walk<WalkOrder::PreOrder>([&](Operation *nested) {
    if (isa<AssignOp, ReduceOp>(nested)) {
      collectLeaf(nested, accesses);
      return WalkResult::skip();
    }
    if (isa<CallOp, FreeOp>(nested))
      collectLeaf(nested, accesses);
    return WalkResult::advance();
  });
}
