//===- DistributedMemory.cpp - distributed memory deduction --------------===//
//
// Part of ExoGPU. Distributed memory analysis of seeds/002 Sec. 4.1 with the
// deduction rules of the guide ("Distributed Memory", rules 1-4):
//  1. each memory type has a native unit; each shard is allocated by one
//     collective of that unit;
//  2. the leading indices of every use must be cuda_threads iterators whose
//     tiling operators t0 -> t1 form a chain from the allocating scope's
//     tile thread count to the native unit's thread count;
//  3. every use of a variable deduces the same distribution;
//  4. the deduced distributed dimensions are recorded for code generation.
// Barriers treat every index as distributed (no native unit). A use through
// an exogpu.split is a use of the split's source, whose split dimension is
// indexed by the two coordinates of the split; a distributed dimension
// cannot be split.
//
//===----------------------------------------------------------------------===//

#include "ExoGPU/Analysis/DistributedMemory.h"

#include "ExoGPU/Dialect/ExoGPU/IR/ControlExpr.h"
#include "ExoGPU/Dialect/ExoGPU/IR/ExoGPUOps.h"
#include "ExoGPU/Dialect/ExoGPU/IR/Scope.h"
#include "llvm/ADT/STLExtras.h"

#include <deque>
#include <map>

using namespace mlir;
using namespace mlir::exogpu;

static std::string str(int64_t value) { return std::to_string(value); }

std::optional<CollUnitKind> mlir::exogpu::getNativeUnit(MemoryKind kind) {
  switch (kind) {
  case MemoryKind::CudaRmem:
    return CollUnitKind::cuda_thread;
  case MemoryKind::Sm80_RmemMatrixA:
  case MemoryKind::Sm80_RmemMatrixB:
  case MemoryKind::Sm80_RmemMatrixD:
    return CollUnitKind::cuda_warp;
  case MemoryKind::Sm90_RmemMatrixA:
  case MemoryKind::Sm90_RmemMatrixD:
    return CollUnitKind::cuda_warpgroup;
  case MemoryKind::CudaBasicSmem:
  case MemoryKind::CudaSmemAtomicity16B:
  case MemoryKind::CudaSmemLinear:
  case MemoryKind::Sm90_SmemSwizzled:
    return CollUnitKind::cuda_cta_in_cluster;
  default:
    return std::nullopt;
  }
}

void DistributedLayout::print(raw_ostream &os) const {
  os << extents.size() << " distributed dim(s) [";
  llvm::interleaveComma(extents, os);
  os << "] with thread pitches [";
  llvm::interleaveComma(threadPitches, os);
  os << "]; shards of " << shardThreads << " thread(s); shard 0 owned by "
     << firstShardOwner;
}

namespace {

/// One coordinate of an access (Fig. 1 WinCoord).
struct Coord {
  CoordKind kind;
  AffineExpr lo;
  AffineExpr hi;
  /// Set for the coordinate of a dimension of the split's source that an
  /// access through `splitBy` indexes with two coordinates (lo and hi are
  /// then null): it cannot be a distributed index.
  SplitOp splitBy = {};
};

/// One use of a data or barrier variable.
struct Access {
  /// The op whose collective performs the access.
  Operation *op;
  Value buffer;
  SmallVector<Coord> coords;
  ValueRange ctrl;
  /// Desugaring of instruction calls (Sec. 4.1 step 1): the collective units
  /// the callee distributes this argument's interval dimensions over.
  ArrayRef<CollUnitAttr> calleeUnits;
};

/// One index consumed by the deduction, as a tiling operator t0 -> t1.
struct ChainLink {
  int64_t t0;
  int64_t t1;
  unsigned index;
};

/// The deduction state of one variable.
struct VariableState {
  bool failed = false;
  std::optional<DistributedLayout> layout;
};

/// The coordinates of the accesses of `op` (`counts[i]` coordinates for
/// access i, stored as one kind list and one map; see splitAccesses).
std::optional<SmallVector<SmallVector<Coord>>>
splitCoords(Operation *op, ArrayRef<int32_t> kinds, ArrayRef<int32_t> counts,
            AffineMap map) {
  FailureOr<SmallVector<AccessView>> views =
      splitAccesses(op, kinds, counts, map);
  if (failed(views))
    return std::nullopt;
  SmallVector<SmallVector<Coord>> result;
  for (const AccessView &view : *views) {
    SmallVector<Coord> &coords = result.emplace_back();
    ArrayRef<AffineExpr> exprs = view.exprs;
    for (int32_t raw : view.kinds) {
      auto kind = static_cast<CoordKind>(raw);
      unsigned arity = getCoordArity(kind);
      coords.push_back({kind, arity > 0 ? exprs[0] : AffineExpr(),
                        arity > 1 ? exprs[1] : AffineExpr()});
      exprs = exprs.drop_front(arity);
    }
  }
  return result;
}

/// Point coordinates for every result of an index map.
SmallVector<Coord> pointCoords(AffineMap map) {
  return llvm::map_to_vector(map.getResults(), [](AffineExpr e) {
    return Coord{CoordKind::Point, e, AffineExpr()};
  });
}

/// Describes an allocation for messages: `f32[16, 8] @CudaRmem`.
std::string describeAllocation(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  auto printShape = [&](ArrayRef<int64_t> shape) {
    if (shape.empty())
      return;
    os << '[';
    llvm::interleaveComma(shape, os, [&](int64_t d) {
      if (ShapedType::isDynamic(d))
        os << '?';
      else
        os << d;
    });
    os << ']';
  };
  if (auto barrier = dyn_cast<BarrierType>(type)) {
    os << "barrier";
    printShape(barrier.getShape());
    os << " @" << stringifyBarrierKind(barrier.getKind());
    return text;
  }
  auto tensor = cast<DataTensorType>(type);
  os << tensor.getElementType();
  printShape(tensor.getShape());
  os << " @" << stringifyMemoryKind(tensor.getMemory().getKind());
  return text;
}

/// The deduction for one root op.
class Deducer {
public:
  Deducer(const CollectiveAnalysis &collective,
          DenseMap<Value, DistributedLayout> &layouts,
          SmallVector<AnalysisDiagnostic> &diagnostics)
      : collective(collective), layouts(layouts), diagnostics(diagnostics) {}

  void run(Operation *root);

private:
  void visit(Operation *op);
  void checkAllocation(AllocOp alloc);
  void deduce(Access access);
  void fail(const Access &access, AllocOp alloc, std::string message);
  /// Refuses a split of a distributed dimension of an allocation.
  void checkSplit(SplitOp split);

  const CollectiveAnalysis &collective;
  DenseMap<Value, DistributedLayout> &layouts;
  SmallVector<AnalysisDiagnostic> &diagnostics;
  DenseMap<Value, VariableState> states;
  /// The splits in CUDA scope, checked once every layout is deduced.
  SmallVector<SplitOp> splits;
};

} // namespace

void Deducer::run(Operation *root) {
  root->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (isCudaScope(op))
      visit(op);
  });
  for (SplitOp split : splits)
    checkSplit(split);
  for (auto &[value, state] : states)
    if (!state.failed && state.layout)
      layouts[value] = *state.layout;
}

void Deducer::fail(const Access &access, AllocOp alloc, std::string message) {
  states[alloc.getResult()].failed = true;
  AnalysisDiagnostic diagnostic{access.op->getLoc(),
                                "distributed memory deduction for the " +
                                    describeAllocation(alloc.getType()) +
                                    " allocation failed: " + message,
                                {}};
  diagnostic.notes.push_back({alloc.getLoc(), "allocated here"});
  diagnostics.push_back(std::move(diagnostic));
}

/// Sec. 4.1 (i), allocation half: the allocating collective must be able to
/// hold shards of the native unit.
void Deducer::checkAllocation(AllocOp alloc) {
  auto tensor = dyn_cast<DataTensorType>(alloc.getType());
  if (!tensor)
    return;
  std::optional<CollUnitKind> native =
      getNativeUnit(tensor.getMemory().getKind());
  const CollTiling *tiling = collective.getTiling(alloc);
  std::optional<CollParams> params = collective.getParams(alloc);
  if (!native || !tiling || !params)
    return;
  CollUnitAttr unit = CollUnitAttr::get(alloc.getContext(), *native, 1, {});
  std::string reason;
  FailureOr<CollType> type =
      typeUnit(unit, *params, UnitTyping::Unitary, reason);
  if (succeeded(type) && *type->getBoxThreads() <= tiling->getTileThreads())
    return;
  states[alloc.getResult()].failed = true;
  diagnostics.push_back(AnalysisDiagnostic{
      alloc.getLoc(),
      describeAllocation(tensor) + " is allocated by a tile of " +
          str(tiling->getTileThreads()) +
          " thread(s), smaller than its native unit " + formatUnit(unit) +
          (succeeded(type) ? " (" + str(*type->getBoxThreads()) + " threads)"
                           : ": " + reason) +
          "; allocate it in an enclosing scope (Sec. 4.1 (i))",
      {}});
}

/// The allocation `split` splits, through other splits, and the dimension
/// of it the split divides; nullopt if the source is not an allocation.
static std::optional<std::pair<AllocOp, uint64_t>> getSplitRoot(SplitOp split) {
  uint64_t dim = split.getDim();
  Value source = split.getSource();
  // Dimensions d and d + 1 of an inner split are dimension d of its source.
  while (auto inner = source.getDefiningOp<SplitOp>()) {
    if (dim > inner.getDim())
      --dim;
    source = inner.getSource();
  }
  if (auto alloc = source.getDefiningOp<AllocOp>())
    return std::make_pair(alloc, dim);
  return std::nullopt;
}

void Deducer::checkSplit(SplitOp split) {
  std::optional<std::pair<AllocOp, uint64_t>> root = getSplitRoot(split);
  if (!root)
    return;
  auto [alloc, dim] = *root;
  auto it = states.find(alloc.getResult());
  if (it == states.end() || it->second.failed || !it->second.layout ||
      dim >= it->second.layout->getNumDistributedDims())
    return;
  it->second.failed = true;
  AnalysisDiagnostic diagnostic{
      split.getLoc(),
      "exogpu.split splits dimension " + str(dim) + " of the " +
          describeAllocation(alloc.getType()) +
          " allocation, which is distributed over thread collectives; a "
          "distributed dimension cannot be split",
      {}};
  diagnostic.notes.push_back({alloc.getLoc(), "allocated here"});
  diagnostics.push_back(std::move(diagnostic));
}

void Deducer::visit(Operation *op) {
  if (auto alloc = dyn_cast<AllocOp>(op)) {
    checkAllocation(alloc);
    return;
  }
  if (auto split = dyn_cast<SplitOp>(op)) {
    splits.push_back(split);
    return;
  }
  if (auto assign = dyn_cast<AssignOp>(op)) {
    deduce({op,
            assign.getDest(),
            pointCoords(assign.getIndices()),
            assign.getCtrl(),
            {}});
    return;
  }
  if (auto reduce = dyn_cast<ReduceOp>(op)) {
    deduce({op,
            reduce.getDest(),
            pointCoords(reduce.getIndices()),
            reduce.getCtrl(),
            {}});
    return;
  }
  if (auto read = dyn_cast<ReadOp>(op)) {
    deduce({op,
            read.getSource(),
            pointCoords(read.getIndices()),
            read.getCtrl(),
            {}});
    return;
  }
  if (auto window = dyn_cast<WindowOp>(op)) {
    auto coords =
        splitCoords(op, window.getCoordKinds(),
                    {static_cast<int32_t>(window.getCoordKinds().size())},
                    window.getCoords());
    if (coords)
      deduce({op, window.getSource(), coords->front(), window.getCtrl(), {}});
    return;
  }
  if (auto await = dyn_cast<AwaitOp>(op)) {
    auto coords =
        splitCoords(op, await.getCoordKinds(),
                    {static_cast<int32_t>(await.getCoordKinds().size())},
                    await.getCoords());
    if (coords)
      deduce({op, await.getBarrier(), coords->front(), await.getCtrl(), {}});
    return;
  }
  if (auto arrive = dyn_cast<ArriveOp>(op)) {
    // The first barrier is the home barrier; multicast targets only widen
    // it (guide, "Split Barrier").
    auto coords = splitCoords(op, arrive.getCoordKinds(),
                              arrive.getCoordCounts(), arrive.getCoords());
    if (coords && !arrive.getBarriers().empty())
      deduce({op,
              arrive.getBarriers().front(),
              coords->front(),
              arrive.getCtrl(),
              {}});
    return;
  }
  auto call = dyn_cast<CallOp>(op);
  if (!call)
    return;
  auto coords = splitCoords(op, call.getCoordKinds(), call.getCoordCounts(),
                            call.getCoords());
  if (!coords)
    return;
  InstrOp instr = call.lookupInstr();
  SmallVector<unsigned> dataParams;
  if (instr)
    for (unsigned i = 0, e = instr.getNumParams(); i < e; ++i)
      if (instr.getParamKind(i) == ParamKind::data)
        dataParams.push_back(i);
  for (auto [n, arg] : llvm::enumerate(call.getDataArgs())) {
    ArrayRef<CollUnitAttr> units;
    if (instr && n < dataParams.size())
      units = instr.getParamSpec(dataParams[n]).getDist();
    deduce({op, arg, (*coords)[n], call.getCtrl(), units});
  }
  if (Value barrier = call.getBarrier()) {
    SmallVector<CollUnitAttr> units;
    if (ArrayAttr dist = instr ? instr.getBarrierDistAttr() : ArrayAttr())
      for (Attribute a : dist)
        units.push_back(cast<CollUnitAttr>(a));
    deduce({op, barrier, coords->back(), call.getCtrl(), units});
  }
}

/// The static extent of dimension `dim`, if known.
static std::optional<int64_t> getStaticExtent(Type type, unsigned dim) {
  ArrayRef<int64_t> shape;
  if (auto barrier = dyn_cast<BarrierType>(type))
    shape = barrier.getShape();
  else
    shape = cast<DataTensorType>(type).getShape();
  if (dim >= shape.size() || ShapedType::isDynamic(shape[dim]))
    return std::nullopt;
  return shape[dim];
}

/// Why a coordinate is not a plain cuda_threads iterator.
static std::string describeNonIterator(const Coord &coord, ValueRange ctrl) {
  if (coord.kind != CoordKind::Point)
    return "a window interval";
  auto dim = dyn_cast<AffineDimExpr>(coord.lo);
  if (!dim)
    return "an expression";
  auto arg = dyn_cast<BlockArgument>(ctrl[dim.getPosition()]);
  auto loop =
      arg ? dyn_cast_or_null<ForOp>(arg.getOwner()->getParentOp()) : ForOp();
  if (loop && loop.getIterator() == arg)
    return std::string("a ") + stringifyLoopMode(loop.getMode()).str() +
           " iterator";
  return "a control value that is not a cuda_threads iterator";
}

/// Rewrites `access`, an access through `split`, as an access of its source:
/// the two coordinates of the split dimensions become one, marked as split.
/// False if the access does not have a coordinate per dimension of the split.
static bool applySplit(Access &access, SplitOp split) {
  access.buffer = split.getSource();
  if (access.coords.empty()) // The whole buffer.
    return true;
  uint64_t dim = split.getDim();
  if (dim + 1 >= access.coords.size())
    return false;
  bool point = access.coords[dim].kind == CoordKind::Point &&
               access.coords[dim + 1].kind == CoordKind::Point;
  access.coords[dim] = {point ? CoordKind::Point : CoordKind::Interval,
                        AffineExpr(), AffineExpr(), split};
  access.coords.erase(access.coords.begin() + dim + 1);
  return true;
}

void Deducer::deduce(Access access) {
  while (auto split = access.buffer.getDefiningOp<SplitOp>())
    if (!applySplit(access, split))
      return;
  auto alloc = access.buffer.getDefiningOp<AllocOp>();
  if (!alloc || !isCudaScope(alloc))
    return;
  VariableState &state = states[alloc.getResult()];
  if (state.failed)
    return;
  const CollTiling *allocTiling = collective.getTiling(alloc);
  const CollTiling *useTiling = collective.getTiling(access.op);
  std::optional<CollParams> params = collective.getParams(alloc);
  if (!allocTiling || !useTiling || !params)
    return;
  Type type = alloc.getType();
  bool isBarrier = isa<BarrierType>(type);

  // Rule 1: the target of the tiling chain. Data stops at the native unit;
  // barriers have none and distribute every index (Sec. 4.1 step 3).
  int64_t allocTile = allocTiling->getTileThreads();
  int64_t allocBox = allocTiling->getBoxThreads();
  int64_t target = 0;
  std::optional<CollType> nativeType;
  CollUnitAttr nativeUnit;
  if (!isBarrier) {
    std::optional<CollUnitKind> native =
        getNativeUnit(cast<DataTensorType>(type).getMemory().getKind());
    if (!native)
      return;
    nativeUnit = CollUnitAttr::get(alloc.getContext(), *native, 1, {});
    std::string reason;
    FailureOr<CollType> typed =
        typeUnit(nativeUnit, *params, UnitTyping::Unitary, reason);
    if (failed(typed))
      return fail(access, alloc, reason);
    nativeType = *typed;
    target = *nativeType->getBoxThreads();
  }
  auto done = [&](int64_t current) {
    return !isBarrier && std::min(current, allocBox) <= target;
  };
  auto chainText = [&](ArrayRef<ChainLink> links) {
    std::string text;
    for (const ChainLink &l : links)
      text += (text.empty() ? "" : ", ") + std::string("index ") +
              str(l.index) + ": " + str(l.t0) + " -> " + str(l.t1);
    return text.empty() ? std::string("none") : text;
  };

  // Rule 2: consume indices from the left until they form a chain.
  DistributedLayout layout;
  layout.firstUse = access.op;
  std::map<int64_t, ChainLink> links; // keyed by t0; no-op links omitted
  SmallVector<ChainLink> consumed;
  std::deque<CollTiling> calleeTilings{*useTiling};
  unsigned calleeUnit = 0;
  const CollTiling *leaf = allocTiling;
  int64_t leafTile = allocTile;
  int64_t current = allocTile;
  unsigned numLinked = 0;
  unsigned rank = access.coords.size();
  unsigned i = 0;
  for (; i < rank && !done(current); ++i) {
    const Coord &coord = access.coords[i];
    if (coord.splitBy) {
      fail(access, alloc,
           "distributed index " + str(i) +
               " indexes a dimension split by exogpu.split; a distributed "
               "dimension cannot be split");
      diagnostics.back().notes.push_back(
          {coord.splitBy->getLoc(), "split here"});
      return;
    }
    std::optional<IteratorInfo> info;
    if (coord.kind == CoordKind::Point) {
      if (auto dim = dyn_cast<AffineDimExpr>(coord.lo))
        if (dim.getPosition() < access.ctrl.size())
          info = collective.getIteratorInfo(access.ctrl[dim.getPosition()]);
    } else if (calleeUnit < access.calleeUnits.size()) {
      // Sec. 4.1 step 1: the instruction's threads tile this interval with
      // its distributed collective unit, as a cuda_threads loop would.
      std::optional<int64_t> extent = getStaticExtent(type, i);
      bool whole = coord.kind == CoordKind::Full;
      if (coord.kind == CoordKind::Interval && extent) {
        auto lo = dyn_cast<AffineConstantExpr>(coord.lo);
        auto hi = dyn_cast<AffineConstantExpr>(coord.hi);
        whole = lo && hi && lo.getValue() == 0 && hi.getValue() == *extent;
      }
      if (!extent || !whole)
        return fail(access, alloc,
                    "index " + str(i) +
                        " is distributed over the instruction's threads, so "
                        "it must span the whole (static) dimension");
      CollUnitAttr unit = access.calleeUnits[calleeUnit++];
      std::string reason;
      FailureOr<CollType> unitType =
          typeUnit(unit, *params, UnitTyping::Agnostic, reason);
      if (failed(unitType))
        return fail(access, alloc, reason);
      DeriveSpec spec{Value(), true, 0, *extent};
      DeriveError deriveError;
      const CollTiling *from = &calleeTilings.back();
      FailureOr<DerivedTiling> derived =
          deriveTiling(*from, *unitType, spec, deriveError);
      // An instruction whose collective is smaller than the shards it writes
      // (a one-thread TMA multicast into every CTA's shared memory) is the
      // guide's "limited exception" to ownership: the interval spans the
      // shards as the allocation distributes them.
      if (failed(derived) &&
          deriveError.kind == DeriveError::Kind::NotEnoughThreads) {
        from = leaf;
        derived = deriveTiling(*from, *unitType, spec, deriveError);
      }
      if (failed(derived))
        return fail(access, alloc,
                    "the instruction cannot distribute index " + str(i) +
                        " over " + str(*extent) + " x " + formatUnit(unit) +
                        ": " + deriveError.message);
      IteratorInfo synthetic;
      synthetic.parentTileThreads = from->getTileThreads();
      calleeTilings.push_back(std::move(derived->tiling));
      synthetic.tileThreads = calleeTilings.back().getTileThreads();
      synthetic.tileCount = *extent;
      synthetic.threadPitch = derived->op ? derived->op->threadPitch : 0;
      synthetic.bodyTiling = &calleeTilings.back();
      info = synthetic;
    }
    if (!info)
      return fail(access, alloc,
                  "distributed index " + str(i) +
                      " must be a cuda_threads iterator, not " +
                      describeNonIterator(coord, access.ctrl) +
                      " (tiling chain so far from " + str(allocTile) +
                      " threads: " + chainText(consumed) +
                      ") (Sec. 4.1 (iii))");
    std::optional<int64_t> extent = getStaticExtent(type, i);
    if (!extent || *extent != info->tileCount)
      return fail(access, alloc,
                  "distributed index " + str(i) + " ranges over " +
                      str(info->tileCount) +
                      " value(s), but the dimension has extent " +
                      (extent ? str(*extent) : std::string("?")) +
                      " (Sec. 4.1 (iii))");
    ChainLink link{info->parentTileThreads, info->tileThreads, i};
    if (link.t0 > allocTile)
      return fail(access, alloc,
                  "distributed index " + str(i) + " subdivides tiles of " +
                      str(link.t0) + " threads, more than the " +
                      str(allocTile) +
                      " threads of the tile that allocates it; its loop "
                      "encloses the allocation (Sec. 4.1 (iii))");
    if (link.t0 != link.t1) {
      if (links.count(link.t0))
        return fail(access, alloc,
                    "distributed index " + str(i) + " subdivides tiles of " +
                        str(link.t0) + " threads like index " +
                        str(links[link.t0].index) +
                        " (repeated index?) (Sec. 4.1 (iii))");
      links[link.t0] = link;
    }
    if (!isBarrier && link.t1 < target)
      return fail(access, alloc,
                  "distributed index " + str(i) + " yields tiles of " +
                      str(link.t1) + " thread(s), overshooting the " +
                      str(target) + " threads of the native unit " +
                      formatUnit(nativeUnit) + " (Sec. 4.1 (iii))");
    if (link.t1 < leafTile) {
      leaf = info->bodyTiling;
      leafTile = link.t1;
    }
    consumed.push_back(link);
    layout.extents.push_back(*extent);
    layout.threadPitches.push_back(info->threadPitch);
    for (auto it = links.find(current); it != links.end();
         it = links.find(current)) {
      current = it->second.t1;
      ++numLinked;
    }
  }
  if (!isBarrier && !done(current))
    return fail(access, alloc,
                "the " + str(allocTile) +
                    "-thread tile that allocates it must be distributed down "
                    "to its native unit " +
                    formatUnit(nativeUnit) + " (" + str(target) +
                    " thread(s)), but its indices stop at tiles of " +
                    str(current) + " threads (chain: " + chainText(consumed) +
                    "); without more cuda_threads iterator indices, threads "
                    "would share a shard (Sec. 4.1 (iii))");
  if (numLinked != links.size())
    return fail(access, alloc,
                "the distributed indices do not form one tiling chain from " +
                    str(allocTile) + " threads (" + chainText(consumed) +
                    ") (Sec. 4.1 (iii))");

  // Sec. 4.1 (i): each shard's owner must be a native-unit collective. Warp
  // specialization narrows boxes, not ownership, so compare tiles, except
  // for a shard allocated directly by a specialized native-unit collective.
  if (nativeType) {
    bool useTile = !(leaf == allocTiling && allocBox == target);
    std::string reason;
    if (failed(matchUnit(*leaf, *nativeType, useTile, reason)))
      return fail(access, alloc,
                  "its shards would be owned by collectives that are not " +
                      formatUnit(nativeUnit) + ": " + reason +
                      " (Sec. 4.1 (i))");
  }
  layout.shardThreads = leafTile;

  // A commit group pairs the arrives and awaits of one collective (seeds/004
  // "Async-group": a wait covers the groups of the waiting thread; wgmma
  // groups, of the waiting warpgroup): the collective that arrives or awaits
  // must be a whole shard owner.
  if (auto barrier = dyn_cast<BarrierType>(alloc.getType());
      barrier && barrier.getKind() == BarrierKind::CudaCommitGroup) {
    const CollTiling *use = collective.getTiling(access.op);
    if (use && use->getBoxThreads() != leafTile)
      return fail(access, alloc,
                  "a commit group pairs the arrives and awaits of one "
                  "collective, but " +
                      str(use->getBoxThreads()) +
                      " thread(s) use a shard owned by " + str(leafTile) +
                      "; index it by the collective that issues the "
                      "asynchronous work (seeds/004 \"Async-group\")");
  }
  std::string reason;
  FailureOr<ThreadSet> owner =
      leaf->evaluate([](Value) -> std::optional<int64_t> { return 0; }, reason,
                     /*tileOnly=*/true);
  if (failed(owner))
    return fail(access, alloc, reason);
  layout.firstShardOwner = *owner;

  // Rule 3 / Sec. 4.1 (ii): every use deduces the same distribution.
  if (!state.layout) {
    state.layout = layout;
    return;
  }
  if (*state.layout == layout)
    return;
  std::string mine, first;
  llvm::raw_string_ostream mineOs(mine), firstOs(first);
  layout.print(mineOs);
  state.layout->print(firstOs);
  Operation *firstUse = state.layout->firstUse;
  fail(access, alloc,
       "this use deduces " + mine + ", inconsistent with " + first +
           " deduced at its first use (Sec. 4.1 (ii))");
  diagnostics.back().notes.push_back({firstUse->getLoc(), "first use here"});
}

//===----------------------------------------------------------------------===//
// DistributedMemoryAnalysis
//===----------------------------------------------------------------------===//

DistributedMemoryAnalysis::DistributedMemoryAnalysis(
    Operation *root, const CollectiveAnalysis &collective) {
  run(root, collective);
}

DistributedMemoryAnalysis::DistributedMemoryAnalysis(Operation *root,
                                                     AnalysisManager &am) {
  run(root, am.getAnalysis<CollectiveAnalysis>());
}

void DistributedMemoryAnalysis::run(Operation *root,
                                    const CollectiveAnalysis &collective) {
  Deducer(collective, layouts, diagnostics).run(root);
}

const DistributedLayout *
DistributedMemoryAnalysis::lookup(Value allocation) const {
  auto it = layouts.find(allocation);
  return it == layouts.end() ? nullptr : &it->second;
}
