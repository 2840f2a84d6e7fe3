//===- Buffers.cpp - buffer storage, views and element access -------------===//
//
// Part of ExoGPU (internal to the CUDA translation). How each data memory of
// seeds/002 Fig. 12 is held in the emitted C++ and how an element or a window
// of it is named there. Distributed dimensions (Sec. 4.1, guide "Distributed
// Memory" rule 4) are stripped from storage and indices: a thread sees only
// its own shard.
//
//===----------------------------------------------------------------------===//

#include "ExoGPU/Dialect/ExoGPU/IR/ParamAccess.h"
#include "Translation.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::exogpu;
using namespace mlir::exogpu::cuda;

InFlightDiagnostic mlir::exogpu::cuda::emitTranslationError(Location loc) {
  return emitError(loc, "CUDA translation: ");
}

InFlightDiagnostic mlir::exogpu::cuda::emitInternalError(Location loc) {
  return emitError(loc, "CUDA translation: internal error (an invariant the "
                        "verifiers and analyses establish does not hold): ");
}

//===----------------------------------------------------------------------===//
// RootBuffer and BufferView
//===----------------------------------------------------------------------===//

static std::optional<int64_t> getConstant(AffineExpr expr) {
  if (auto c = dyn_cast<AffineConstantExpr>(expr))
    return c.getValue();
  return std::nullopt;
}

int64_t RootBuffer::getRegistersPerTile() const {
  if (storage != StorageKind::RegisterMatrix || extents.size() < 2)
    return 0;
  int64_t rows = getConstant(extents[extents.size() - 2]).value_or(0);
  int64_t cols = getConstant(extents.back()).value_or(0);
  return matrixThreads ? rows * cols / matrixThreads : 0;
}

SmallVector<int64_t> RootBuffer::getShardShape() const {
  SmallVector<int64_t> shape;
  ArrayRef<AffineExpr> shard = ArrayRef(extents).drop_front(numDistributed);
  if (storage == StorageKind::RegisterMatrix)
    shard = shard.drop_back(2);
  for (AffineExpr e : shard)
    shape.push_back(getConstant(e).value_or(ShapedType::kDynamic));
  if (storage == StorageKind::RegisterMatrix)
    shape.push_back(getRegistersPerTile());
  return shape;
}

SmallVector<unsigned> BufferView::getIntervalDims() const {
  SmallVector<unsigned> result;
  for (auto [i, d] : llvm::enumerate(dims))
    if (!d.isPoint)
      result.push_back(i);
  return result;
}

//===----------------------------------------------------------------------===//
// ProcState
//===----------------------------------------------------------------------===//

ProcState::ProcState(ModuleState &module, ProcOp proc)
    : module(module), proc(proc), space(proc.getContext()),
      asmState(proc, OpPrintingFlags().skipRegions()) {}

void ProcState::noteUse(Value value) {
  if (!importScope)
    return;
  Operation *owner = isa<BlockArgument>(value)
                         ? cast<BlockArgument>(value).getOwner()->getParentOp()
                         : value.getDefiningOp();
  if (owner && !importScope->isAncestor(owner))
    imports.insert(value);
}

IntRange ProcState::getDimRange(unsigned dim) {
  auto it = ranges.find(space.getValue(dim));
  return it == ranges.end() ? IntRange() : it->second;
}

std::string ProcState::print(Value value) {
  noteUse(value);
  ++useCounts[value];
  StringRef name = names.lookup(value);
  return name.empty() ? "<unbound>" : name.str();
}

std::string ProcState::print(AffineExpr expr) {
  if (printedExprs)
    printedExprs->push_back(expr);
  return printControlExpr(
      expr, [&](unsigned d) { return print(space.getValue(d)); },
      [&](unsigned d) { return getDimRange(d); });
}

std::string ProcState::print(AffineExpr expr, ValueRange operands) {
  return print(space.lift(expr, operands));
}

std::string ProcState::printCondition(ConditionAttr condition,
                                      ValueRange operands) {
  if (printedExprs)
    llvm::append_range(*printedExprs, space.lift(condition.getMap(), operands));
  return printConditionExpr(
      condition, [&](unsigned i) { return print(operands[i]); },
      [&](unsigned i) {
        auto it = ranges.find(operands[i]);
        return it == ranges.end() ? IntRange() : it->second;
      });
}

std::string ProcState::describe(Operation *op) {
  std::string where = formatLocation(op->getLoc());
  std::string what = summarizeOp(op, asmState);
  return where.empty() ? what : where + ": " + what;
}

std::string mlir::exogpu::cuda::formatMemory(MemoryAttr memory) {
  std::string text = stringifyMemoryKind(memory.getKind()).str();
  if (!memory.getArgs().empty()) {
    text += "(";
    for (auto [i, arg] : llvm::enumerate(memory.getArgs()))
      text += (i ? ", " : "") + std::to_string(arg);
    text += ")";
  }
  return text;
}

/// The memories held as pointers into global or host memory.
static bool isPointerMemory(MemoryAttr memory) {
  return memory.isCpuAllocated() ||
         memory.getKind() == MemoryKind::CudaDeviceVisibleLinear ||
         memory.getKind() == MemoryKind::CudaBasicDeviceVisible ||
         memory.getKind() == MemoryKind::CudaDeviceVisibleAtomicity16B;
}

FailureOr<RootBuffer *> ProcState::addRoot(Value value, Location loc) {
  auto type = cast<BufferTypeInterface>(value.getType());
  auto root = std::make_unique<RootBuffer>();
  root->value = value;
  root->elementType = type.getElementType();
  root->memory = type.getMemory();
  root->name = names.bind(value, getPreferredName(value, "buffer"));
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    auto callable = cast<ProcOp>(arg.getOwner()->getParentOp());
    ValueRange params = callable.getBody().getArguments();
    root->extents =
        space.lift(callable.getParamExtents(arg.getArgNumber()), params);
  } else {
    auto alloc = value.getDefiningOp<AllocOp>();
    root->extents = space.lift(alloc.getExtents(), alloc.getCtrl());
  }
  MemoryAttr memory = root->memory;
  root->isDevice = !memory.isHost();
  if (isPointerMemory(memory)) {
    root->storage = StorageKind::Pointer;
  } else {
    if (const DistributedLayout *layout = module.distributed->lookup(value))
      root->numDistributed = layout->getNumDistributedDims();
    if (memory.isSmem()) {
      root->storage = StorageKind::Shared;
      if (memory.getKind() == MemoryKind::Sm90_SmemSwizzled)
        root->swizzleBytes = memory.getArgs()[0];
    } else if (int64_t threads = memory.getMatrixThreads()) {
      root->storage = StorageKind::RegisterMatrix;
      root->matrixThreads = threads;
      if (type.getRank() < 2 + root->numDistributed)
        return emitInternalError(loc)
               << "a register-matrix buffer needs the two tile dimensions "
                  "after its distributed ones";
      if (root->getRegistersPerTile() <= 0)
        return emitInternalError(loc)
               << "the tile of a register-matrix buffer must have constant "
                  "extents";
    } else if (memory.isRmem()) {
      root->storage = StorageKind::Registers;
    } else {
      return emitInternalError(loc)
             << "memory " << formatMemory(memory) << " has no CUDA storage";
    }
    for (int64_t extent : root->getShardShape())
      if (ShapedType::isDynamic(extent))
        return emitTranslationError(loc)
               << "the shard of a " << formatMemory(memory)
               << " buffer must have constant extents (they size registers "
                  "or static shared memory)";
  }
  RootBuffer *result = root.get();
  BufferView view;
  view.root = result;
  view.extents.assign(result->extents.begin(), result->extents.end());
  for (AffineExpr extent : result->extents)
    view.dims.push_back(
        {false, getAffineConstantExpr(0, proc.getContext()), extent});
  views[value] = view;
  roots[value] = std::move(root);
  return result;
}

FailureOr<BufferView> ProcState::getView(Value buffer, Location loc) {
  auto it = views.find(buffer);
  if (it == views.end())
    return emitInternalError(loc) << "buffer used before its definition "
                                     "was translated";
  noteUse(it->second.root->value);
  return it->second;
}

FailureOr<BufferView> ProcState::applyCoords(const BufferView &view,
                                             ArrayRef<int32_t> kinds,
                                             ArrayRef<AffineExpr> exprs,
                                             Location loc) {
  SmallVector<unsigned> intervals = view.getIntervalDims();
  if (kinds.empty())
    return view;
  if (kinds.size() != intervals.size())
    return emitInternalError(loc)
           << "window has " << kinds.size() << " coordinate(s) for "
           << intervals.size() << " dimension(s)";
  BufferView result = view;
  unsigned next = 0;
  for (auto [i, kind] : llvm::enumerate(kinds)) {
    ViewDim &d = result.dims[intervals[i]];
    switch (static_cast<CoordKind>(kind)) {
    case CoordKind::Point:
      d.isPoint = true;
      d.lo = d.lo + exprs[next++];
      break;
    case CoordKind::Interval: {
      AffineExpr lo = exprs[next++], hi = exprs[next++];
      d.lo = d.lo + lo;
      d.extent = normalizeControlExpr(hi - lo);
      break;
    }
    case CoordKind::Full:
      break;
    }
    d.lo = normalizeControlExpr(d.lo);
  }
  return result;
}

FailureOr<BufferView> ProcState::applySplit(const BufferView &view,
                                            unsigned dim, int64_t factor,
                                            Location loc) {
  const RootBuffer &root = *view.root;
  SmallVector<unsigned> intervals = view.getIntervalDims();
  if (dim >= intervals.size() || factor <= 0)
    return emitInternalError(loc)
           << "split of dimension " << dim << " by " << factor
           << " of a window with " << intervals.size() << " dimension(s)";
  // Only a plain row-major array reshapes into one with more dimensions (the
  // verifier refuses register and swizzled memories, the distributed
  // memory deduction splits of distributed dimensions).
  bool rowMajor = root.storage == StorageKind::Pointer ||
                  (root.storage == StorageKind::Shared && !root.swizzleBytes);
  unsigned d = intervals[dim];
  if (!rowMajor || d < root.numDistributed)
    return emitInternalError(loc)
           << "split of a " << formatMemory(root.memory)
           << " buffer that is not a row-major array, or of a distributed "
              "dimension";
  // An interval [lo, lo + e) of a dimension of extent E splits into
  // row-major dimensions of the storage only if lo, e and E are multiples
  // of the factor, where the split's meaning asks that of e alone; the
  // whole dimension (lo = 0, e = E) is split, and a window taken of that.
  MLIRContext *ctx = proc.getContext();
  AffineExpr zero = getAffineConstantExpr(0, ctx);
  const ViewDim &interval = view.dims[d];
  if (interval.lo != zero || interval.extent != view.extents[d])
    return emitTranslationError(loc)
           << "cannot split dimension " << dim << " of a window of "
           << root.name
           << ": the window narrows it, and only a whole dimension of a "
              "buffer splits into row-major dimensions; split the buffer "
              "first, then take the window of the split";
  AffineExpr outer = normalizeControlExpr(interval.extent.floorDiv(factor));
  AffineExpr inner = getAffineConstantExpr(factor, ctx);
  BufferView result = view;
  result.extents[d] = outer;
  result.extents.insert(result.extents.begin() + d + 1, inner);
  result.dims[d].extent = outer;
  result.dims.insert(result.dims.begin() + d + 1, ViewDim{false, zero, inner});
  return result;
}

SmallVector<AffineExpr>
ProcState::toStorageCoords(const BufferView &view,
                           ArrayRef<AffineExpr> coords) {
  SmallVector<AffineExpr> storage;
  unsigned next = 0;
  for (const ViewDim &d : view.dims) {
    AffineExpr c = d.isPoint ? d.lo : d.lo + coords[next++];
    storage.push_back(normalizeControlExpr(c));
  }
  return storage;
}

std::string mlir::exogpu::cuda::wrapOperand(const std::string &text) {
  return text.find_first_of(" +-*/%") == std::string::npos ? text
                                                           : "(" + text + ")";
}

std::pair<int64_t, SmallVector<std::string>>
ProcState::strideFactors(ArrayRef<AffineExpr> inner) {
  int64_t constant = 1;
  SmallVector<std::string> factors;
  for (AffineExpr extent : inner) {
    if (auto c = dyn_cast<AffineConstantExpr>(extent))
      constant *= c.getValue();
    else
      factors.push_back(wrapOperand(print(extent)));
  }
  return {constant, factors};
}

std::string ProcState::linearOffset(ArrayRef<AffineExpr> coords,
                                    ArrayRef<AffineExpr> extents) {
  // Row-major: sum of c_i * (E_{i+1} * ... * E_{n-1}). Dimensions whose
  // stride is a constant fold into one affine sum; a stride with a size
  // parameter (not affine) multiplies its coordinate in the text.
  MLIRContext *ctx = proc.getContext();
  AffineExpr folded = getAffineConstantExpr(0, ctx);
  SmallVector<std::string> terms;
  for (size_t i = 0; i < coords.size(); ++i) {
    auto [constantStride, dynamicStride] =
        strideFactors(extents.drop_front(i + 1));
    if (dynamicStride.empty()) {
      folded = folded + coords[i] * constantStride;
      continue;
    }
    if (coords[i] == getAffineConstantExpr(0, ctx))
      continue;
    if (constantStride != 1)
      dynamicStride.push_back(std::to_string(constantStride));
    std::string stride = llvm::join(dynamicStride, " * ");
    terms.push_back(wrapOperand(print(coords[i])) + " * " +
                    (dynamicStride.size() > 1 ? "(" + stride + ")" : stride));
  }
  folded = normalizeControlExpr(folded);
  if (folded != getAffineConstantExpr(0, ctx) || terms.empty())
    terms.push_back(print(folded));
  return llvm::join(terms, " + ");
}

FailureOr<std::string> ProcState::elementRef(const BufferView &view,
                                             ArrayRef<AffineExpr> coords,
                                             Location loc) {
  const RootBuffer &root = *view.root;
  SmallVector<AffineExpr> storageCoords = toStorageCoords(view, coords);
  ArrayRef<AffineExpr> shard =
      ArrayRef(storageCoords).drop_front(root.numDistributed);
  switch (root.storage) {
  case StorageKind::Pointer:
  case StorageKind::Shared: {
    // Row-major over the view's extents (global memory has no distributed
    // dimensions; shared memory holds the thread's shard).
    std::string offset = linearOffset(
        shard, ArrayRef(view.extents).drop_front(root.numDistributed));
    if (root.swizzleBytes)
      return "*exo::swizzle<" + std::to_string(root.swizzleBytes) + ">(" +
             root.name + ", " + offset + ")";
    return root.name + "[" + offset + "]";
  }
  case StorageKind::Registers: {
    std::string ref = root.name;
    for (AffineExpr c : shard)
      ref += "[" + print(c) + "]";
    return ref;
  }
  case StorageKind::RegisterMatrix:
    return emitTranslationError(loc)
           << "elements of " << formatMemory(root.memory)
           << " tiles are held in the registers of many threads and can "
              "only be accessed through instructions";
  }
  return failure();
}

FailureOr<std::string> ProcState::pointerTo(const BufferView &view,
                                            Location loc) {
  const RootBuffer &root = *view.root;
  SmallVector<AffineExpr> origin;
  for (const ViewDim &d : view.dims)
    origin.push_back(d.lo);
  ArrayRef<AffineExpr> shard = ArrayRef(origin).drop_front(root.numDistributed);
  auto offsetPointer = [&](const std::string &offset) {
    return offset == "0" ? root.name : root.name + " + " + offset;
  };
  switch (root.storage) {
  case StorageKind::Pointer:
  case StorageKind::Shared:
    return offsetPointer(linearOffset(
        shard, ArrayRef(view.extents).drop_front(root.numDistributed)));
  case StorageKind::Registers: {
    if (shard.empty())
      return "&" + root.name;
    std::string ref = "&" + root.name;
    for (AffineExpr c : shard)
      ref += "[" + print(c) + "]";
    return ref;
  }
  case StorageKind::RegisterMatrix: {
    ArrayRef<ViewDim> tile = ArrayRef(view.dims).take_back(2);
    ArrayRef<AffineExpr> tileExtents = ArrayRef(view.extents).take_back(2);
    for (auto [d, extent] : llvm::zip(tile, tileExtents))
      if (d.isPoint || d.lo != getAffineConstantExpr(0, proc.getContext()) ||
          d.extent != extent)
        return emitInternalError(loc)
               << "a window into a " << formatMemory(root.memory)
               << " buffer must cover whole tiles";
    std::string ref = root.name;
    for (const ViewDim &d :
         ArrayRef(view.dims).drop_front(root.numDistributed).drop_back(2)) {
      if (!d.isPoint)
        return emitInternalError(loc)
               << "a window into a " << formatMemory(root.memory)
               << " buffer must select one tile (points before the tile "
                  "dimensions)";
      ref += "[" + print(d.lo) + "]";
    }
    return ref;
  }
  }
  return failure();
}

FailureOr<SmallVector<std::string>>
ProcState::listElements(const BufferView &view, Location loc) {
  const RootBuffer &root = *view.root;
  SmallVector<std::string> result;
  if (root.storage == StorageKind::RegisterMatrix) {
    FailureOr<std::string> tile = pointerTo(view, loc);
    if (failed(tile))
      return failure();
    for (int64_t r = 0, e = root.getRegistersPerTile(); r < e; ++r)
      result.push_back(*tile + "[" + std::to_string(r) + "]");
    return result;
  }
  // Enumerate the view's dimensions over non-distributed root dimensions;
  // those over distributed ones name the thread's own shard.
  SmallVector<unsigned> intervals = view.getIntervalDims();
  SmallVector<int64_t> counts;
  for (unsigned d : intervals) {
    if (d < root.numDistributed) {
      counts.push_back(1);
      continue;
    }
    std::optional<int64_t> extent = getConstant(view.dims[d].extent);
    if (!extent)
      return emitInternalError(loc)
             << "the window's extents must be constants to name its "
                "elements";
    counts.push_back(*extent);
  }
  int64_t total = 1;
  for (int64_t c : counts)
    total *= c;
  MLIRContext *ctx = proc.getContext();
  for (int64_t n = 0; n < total; ++n) {
    SmallVector<AffineExpr> coords(counts.size());
    int64_t rest = n;
    for (int i = counts.size() - 1; i >= 0; --i) {
      coords[i] = getAffineConstantExpr(rest % counts[i], ctx);
      rest /= counts[i];
    }
    FailureOr<std::string> ref = elementRef(view, coords, loc);
    if (failed(ref))
      return failure();
    result.push_back(*ref);
  }
  return result;
}

FailureOr<std::string> ProcState::elementStride(const BufferView &view,
                                                unsigned dim, Location loc) {
  const RootBuffer &root = *view.root;
  SmallVector<unsigned> intervals = view.getIntervalDims();
  if (dim >= intervals.size())
    return emitInternalError(loc) << "the window has " << intervals.size()
                                  << " dimension(s), not " << dim + 1;
  unsigned d = intervals[dim];
  // The product of the extents after `d` in the storage: the view's, over
  // the whole buffer (global memory) or the shard (shared memory).
  SmallVector<AffineExpr> inner;
  switch (root.storage) {
  case StorageKind::Shared:
    if (d < root.numDistributed)
      return emitInternalError(loc)
             << "dimension " << dim << " of the window is distributed";
    [[fallthrough]];
  case StorageKind::Pointer:
    inner.assign(view.extents.begin() + d + 1, view.extents.end());
    break;
  case StorageKind::Registers:
  case StorageKind::RegisterMatrix:
    return emitInternalError(loc)
           << "a stride names shared or global memory, not registers";
  }
  auto [constant, factors] = strideFactors(inner);
  if (constant != 1 || factors.empty())
    factors.push_back(std::to_string(constant));
  return llvm::join(factors, " * ");
}

//===----------------------------------------------------------------------===//
// Access modes
//===----------------------------------------------------------------------===//

bool mlir::exogpu::cuda::isReadOnlyParam(InstrOp instr, unsigned param) {
  return getParamAccessModes(instr)[param] == ParamAccessMode::ReadOnly;
}

bool mlir::exogpu::cuda::mayWrite(Operation *op, Value root) {
  std::optional<ParamAccessMode> mode = getBufferAccessMode(op, root);
  return mode && *mode != ParamAccessMode::ReadOnly;
}
