//===- BufferRewrites.cpp - Exo's checked buffer rewrites -----------------===//
//
// Part of ExoGPU. See BufferRewrites.h. The legality conditions follow Exo's
// buffer primitives (public Exo documentation, "Buffer Transformation
// Primitives").
//
//===----------------------------------------------------------------------===//

#include "ExoGPU/Transforms/Scheduling/BufferRewrites.h"
#include "ExoGPU/Analysis/Dependences.h"
#include "ExoGPU/Transforms/Scheduling/BufferUses.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::exogpu;

/// Coordinate kinds as ints.
static constexpr int32_t kPoint = static_cast<int32_t>(CoordKind::Point);
static constexpr int32_t kInterval = static_cast<int32_t>(CoordKind::Interval);
static constexpr int32_t kFull = static_cast<int32_t>(CoordKind::Full);

static StringRef nameOf(Value buffer) {
  if (auto alloc = buffer.getDefiningOp<AllocOp>())
    return alloc.getName() ? *alloc.getName() : StringRef("?");
  return "?";
}

//===----------------------------------------------------------------------===//
// Coordinates, one dimension at a time
//===----------------------------------------------------------------------===//

namespace {
/// One coordinate of a use, with its expressions over the use's operands.
struct Coord {
  int32_t kind;
  AffineExpr lo, hi; // point: lo; interval: [lo, hi)
};

/// The coordinates of a use, one per buffer dimension (a whole-buffer use
/// becomes all `:`), and the operands they are over.
struct UseCoords {
  SmallVector<Coord, 4> coords;
  SmallVector<Value, 4> operands;

  static UseCoords of(const BufferUse &use, unsigned rank) {
    UseCoords result;
    result.operands = use.operands;
    unsigned next = 0;
    if (use.kinds.empty() && !use.isPointsOnly()) {
      result.coords.assign(rank, {kFull, {}, {}});
      return result;
    }
    for (int32_t kind : use.kinds) {
      Coord c{kind, {}, {}};
      if (kind == kPoint)
        c.lo = use.exprs[next++];
      else if (kind == kInterval) {
        c.lo = use.exprs[next++];
        c.hi = use.exprs[next++];
      }
      result.coords.push_back(c);
    }
    return result;
  }

  /// Adds `expr` (over `exprOperands`) to the operands; returns it over them.
  AffineExpr import(const ValueExpr &expr) {
    return remapOperands(expr.expr, expr.operands, operands);
  }

  /// Writes the coordinates back into the use's op.
  void apply(const BufferUse &use, Value buffer) const {
    SmallVector<int32_t> kinds;
    SmallVector<AffineExpr> exprs;
    for (const Coord &c : coords) {
      kinds.push_back(c.kind);
      if (c.kind == kPoint)
        exprs.push_back(c.lo);
      else if (c.kind == kInterval) {
        exprs.push_back(c.lo);
        exprs.push_back(c.hi);
      }
    }
    setUseCoordinates(use, buffer, kinds, exprs, operands);
  }
};
} // namespace

/// The extents of an allocation, over its control operands.
static ValueExpr extentOf(AllocOp alloc, unsigned dim) {
  return {alloc.getExtents().getResult(dim),
          SmallVector<Value, 4>(alloc.getCtrl())};
}

/// Sets the extents of `alloc` (over `operands`) and its result type (the
/// callers refuse extents that are not positive constants beforehand).
static void setAllocExtents(AllocOp alloc, ArrayRef<AffineExpr> extents,
                            ValueRange operands, TypeChanges &changes) {
  MLIRContext *ctx = alloc.getContext();
  setControlMaps(alloc, {AffineMap::get(operands.size(), 0, extents, ctx)},
                 operands);
  (void)updateBufferTypes(alloc, changes);
}

/// The windows and splits of `buffer` (ops viewing it as their source),
/// transitively.
static void collectViews(Value buffer, SmallVectorImpl<Operation *> &views) {
  for (Operation *user : buffer.getUsers())
    if (auto view = dyn_cast<ViewLikeOpInterface>(user);
        view && view.getViewSource() == buffer) {
      views.push_back(user);
      collectViews(view.getViewDest(), views);
    }
}

/// Computes new coordinates for every use of `alloc` with `transform`, then
/// (if all succeed) applies them and the new extents (over
/// `extentOperands`). Frees keep no coordinates.
static LogicalResult rewriteDims(
    RewriterBase &rewriter, AllocOp alloc, ArrayRef<AffineExpr> newExtents,
    ValueRange extentOperands,
    function_ref<LogicalResult(const BufferUse &, UseCoords &)> transform,
    Refusal &refusal) {
  if (!isa<DataTensorType>(alloc.getType())) {
    refusal.at(alloc.getLoc()) << "buffer rewrites apply to data buffers";
    return failure();
  }
  // A statement that never runs satisfies every condition; its extents
  // must still be positive.
  for (AffineExpr extent : newExtents)
    if (auto c = dyn_cast<AffineConstantExpr>(extent); c && c.getValue() <= 0) {
      refusal.at(alloc.getLoc()) << "the rewrite would give '" << nameOf(alloc)
                                 << "' an extent of " << c.getValue();
      return failure();
    }
  SmallVector<BufferUse> uses = getBufferUses(alloc.getResult());
  unsigned rank = alloc.getExtents().getNumResults();
  SmallVector<std::pair<BufferUse, UseCoords>, 4> plans;
  for (const BufferUse &use : uses) {
    if (isa<FreeOp>(use.op))
      continue;
    // A split has no coordinates to rewrite: its dimension and result type
    // would not follow the new dimensions.
    if (isa<SplitOp>(use.op)) {
      Diagnostic &diag = refusal.at(alloc.getLoc());
      diag << "this rewrite of '" << nameOf(alloc)
           << "' changes its dimensions, which an exogpu.split of it views";
      diag.attachNote(use.op->getLoc()) << "the split";
      return failure();
    }
    UseCoords coords = UseCoords::of(use, rank);
    if (failed(transform(use, coords)))
      return failure();
    plans.push_back({use, coords});
  }
  EditJournal journal;
  for (auto &[use, coords] : plans) {
    journal.record(use.op);
    rewriter.modifyOpInPlace(use.op, [&] {
      coords.apply(use, alloc.getResult());
      simplifyControl(use.op);
    });
  }
  journal.record(alloc);
  rewriter.modifyOpInPlace(alloc, [&] {
    setAllocExtents(alloc, newExtents, extentOperands,
                    journal.getTypeChanges());
  });
  // Windows of the buffer take the types their new coordinates give.
  return finishTentativeEdit(
      journal, alloc->getParentOfType<ProcOp>(), alloc.getLoc(),
      "this rewrite of '" + nameOf(alloc) + "'", refusal);
}

/// Explains that a coordinate of a windowed access blocks a rewrite.
static LogicalResult refuseCoordinate(Refusal &refusal, AllocOp alloc,
                                      const BufferUse &use, StringRef rewrite,
                                      unsigned dim) {
  Diagnostic &diag = refusal.at(alloc.getLoc());
  diag << rewrite << ": dimension " << dim << " of '" << nameOf(alloc)
       << "' is a window interval in an access the rewrite cannot express";
  diag.attachNote(use.op->getLoc()) << "this access";
  return failure();
}

//===----------------------------------------------------------------------===//
// lift_alloc, sink_alloc
//===----------------------------------------------------------------------===//

FailureOr<AllocOp> mlir::exogpu::liftAlloc(RewriterBase &rewriter,
                                           AllocOp alloc, unsigned levels,
                                           Refusal &refusal) {
  for (Operation *user : alloc.getResult().getUsers())
    if (isa<FreeOp>(user)) {
      refusal.at(alloc.getLoc())
          << "lift_alloc: '" << nameOf(alloc)
          << "' already has a free; schedule before inserting frees";
      return failure();
    }
  bool cpuAllocated = true;
  if (auto tensor = dyn_cast<DataTensorType>(alloc.getType()))
    cpuAllocated = tensor.getMemory().isCpuAllocated();
  else
    cpuAllocated = false;
  // Every scope it leaves, checked before anything moves.
  Operation *outermost = alloc;
  for (unsigned level = 0; level < levels; ++level) {
    Operation *scope = outermost->getParentOp();
    if (isa<ProcOp>(scope)) {
      refusal.at(alloc.getLoc())
          << "lift_alloc: '" << nameOf(alloc) << "' is already at the top of "
          << "its proc";
      return failure();
    }
    if (isa<DeviceFunctionOp>(scope) && !cpuAllocated) {
      refusal.at(alloc.getLoc())
          << "lift_alloc: '" << nameOf(alloc)
          << "' cannot leave the device function: its memory is allocated in "
             "CUDA scope";
      return failure();
    }
    if (auto loop = dyn_cast<ForOp>(scope);
        loop && llvm::is_contained(alloc.getCtrl(), loop.getIterator())) {
      refusal.at(alloc.getLoc())
          << "lift_alloc: the extents of '" << nameOf(alloc)
          << "' use the iterator of the loop it would leave";
      return failure();
    }
    outermost = scope;
  }
  // The allocation now runs in every instance of the outermost scope it
  // leaves, also where a guard excluded it or a loop ran zero times: its
  // extents must not be negative there (a run-time check).
  for (AffineExpr extent : alloc.getExtents().getResults()) {
    std::string witness;
    if (!isRelationInvariant(
            outermost, extent, alloc.getCtrl(), ConditionAtomKind::Ge,
            getAffineConstantExpr(0, alloc.getContext()), {}, &witness)) {
      explainNotInvariant(refusal, alloc.getLoc(),
                          "lift_alloc: the extent '" +
                              printControlText(extent, alloc.getCtrl()) +
                              "' of '" + nameOf(alloc) +
                              "' may be negative where the allocation would "
                              "now run",
                          witness);
      return failure();
    }
  }
  Block *block = alloc->getBlock();
  Operation *next = alloc->getNextNode();
  rewriter.moveOpBefore(alloc, outermost);
  if (failed(verifyOrExplain(alloc->getParentOfType<ProcOp>(), alloc.getLoc(),
                             "lift_alloc", refusal))) {
    if (next)
      rewriter.moveOpBefore(alloc, next);
    else
      rewriter.moveOpBefore(alloc, block, block->end());
    return failure();
  }
  return alloc;
}

FailureOr<AllocOp> mlir::exogpu::sinkAlloc(RewriterBase &rewriter,
                                           AllocOp alloc, Refusal &refusal) {
  Operation *scope = alloc->getNextNode();
  if (!isa_and_nonnull<ForOp, IfOp>(scope)) {
    refusal.at(alloc.getLoc())
        << "sink_alloc needs a loop or guard right after the allocation";
    return failure();
  }
  for (Operation *user : alloc.getResult().getUsers()) {
    if (!scope->isProperAncestor(user)) {
      Diagnostic &diag = refusal.at(alloc.getLoc());
      diag << "cannot sink '" << nameOf(alloc)
           << "': it is used outside the next statement";
      diag.attachNote(user->getLoc()) << "this use";
      return failure();
    }
  }
  if (auto loop = dyn_cast<ForOp>(scope)) {
    // Each iteration gets a fresh buffer: no iteration may read what an
    // earlier one wrote, unless it assigned the element itself first.
    SmallVector<Operation *> body;
    for (Operation &op : loop.getBody().front())
      body.push_back(&op);
    auto assignedBefore = [&](Operation *reader, const BufferAccess &read) {
      Operation *top = reader;
      while (top->getParentOp() != loop)
        top = top->getParentOp();
      for (Operation *prev = top->getPrevNode(); prev;
           prev = prev->getPrevNode()) {
        auto assign = dyn_cast<AssignOp>(prev);
        if (!assign || assign.getDest() != alloc.getResult())
          continue;
        bool same = true;
        for (auto [d, index] :
             llvm::enumerate(assign.getIndices().getResults()))
          same &= isRelationInvariant(reader, read.lo[d], read.operands,
                                      ConditionAtomKind::Eq, index,
                                      assign.getCtrl()) &&
                  read.lo[d] == read.hi[d];
        if (same)
          return true;
      }
      return false;
    };
    InstanceScope earlier({loop}, 1), later({loop}, 2);
    AccessCollector collector;
    std::optional<AccessConflict> conflict = findConflict(
        collector, body, earlier, body, later, ConflictKind::WriteThenRead,
        [&](InstanceSet &set, const BufferAccess &w, const BufferAccess &r) {
          if (w.root != alloc.getResult() || assignedBefore(r.stmt, r))
            set.getSet().addNonNegative(LinearForm::ofConstant(-1));
          set.addIteratorLess(loop, 1, 2);
        });
    if (conflict) {
      Diagnostic &diag = refusal.at(alloc.getLoc());
      diag << "cannot sink '" << nameOf(alloc)
           << "' into the loop: an iteration reads what an earlier one wrote";
      attachConflictNotes(diag, *conflict, "earlier iteration",
                          "later "
                          "iteration");
      return failure();
    }
  }
  rewriter.moveOpBefore(alloc, &scope->getRegion(0).front(),
                        scope->getRegion(0).front().begin());
  return alloc;
}

//===----------------------------------------------------------------------===//
// expand_dim, divide_dim, mult_dim, rearrange_dim
//===----------------------------------------------------------------------===//

LogicalResult mlir::exogpu::expandDim(RewriterBase &rewriter, AllocOp alloc,
                                      const ValueExpr &size,
                                      const ValueExpr &index,
                                      Refusal &refusal) {
  std::string witness;
  AffineExpr zero = getAffineConstantExpr(0, alloc.getContext());
  if (!isRelationInvariant(alloc, index.expr, index.operands,
                           ConditionAtomKind::Ge, zero, {}, &witness) ||
      !isRelationInvariant(alloc, index.expr, index.operands,
                           ConditionAtomKind::Lt, size.expr, size.operands,
                           &witness)) {
    explainNotInvariant(refusal, alloc.getLoc(),
                        "expand_dim: the index '" +
                            printControlText(index.expr, index.operands) +
                            "' is not always in [0, " +
                            printControlText(size.expr, size.operands) + ")",
                        witness);
    return failure();
  }
  SmallVector<Value> operands(alloc.getCtrl());
  SmallVector<AffineExpr> extents{
      remapOperands(size.expr, size.operands, operands)};
  llvm::append_range(extents, alloc.getExtents().getResults());
  return rewriteDims(
      rewriter, alloc, extents, operands,
      [&](const BufferUse &, UseCoords &coords) {
        AffineExpr i = coords.import(index);
        coords.coords.insert(coords.coords.begin(), {kPoint, i, {}});
        return success();
      },
      refusal);
}

LogicalResult mlir::exogpu::divideDim(RewriterBase &rewriter, AllocOp alloc,
                                      unsigned dim, int64_t quotient,
                                      Refusal &refusal) {
  unsigned rank = alloc.getExtents().getNumResults();
  if (dim >= rank || quotient < 1) {
    refusal.at(alloc.getLoc()) << "divide_dim: '" << nameOf(alloc) << "' has "
                               << rank << " dimension(s); need a dimension "
                               << "below that and a positive quotient";
    return failure();
  }
  ValueExpr extent = extentOf(alloc, dim);
  std::string witness;
  MLIRContext *ctx = alloc.getContext();
  if (!isRelationInvariant(alloc, extent.expr % quotient, extent.operands,
                           ConditionAtomKind::Eq, getAffineConstantExpr(0, ctx),
                           {}, &witness)) {
    explainNotInvariant(refusal, alloc.getLoc(),
                        "divide_dim: extent '" +
                            printControlText(extent.expr, extent.operands) +
                            "' of '" + nameOf(alloc) +
                            "' is not always a multiple of " + Twine(quotient),
                        witness);
    return failure();
  }
  SmallVector<AffineExpr> extents(alloc.getExtents().getResults());
  extents[dim] = extent.expr.floorDiv(quotient);
  extents.insert(extents.begin() + dim + 1,
                 getAffineConstantExpr(quotient, ctx));
  return rewriteDims(
      rewriter, alloc, extents, alloc.getCtrl(),
      [&](const BufferUse &use, UseCoords &coords) -> LogicalResult {
        Coord c = coords.coords[dim];
        Coord outer{kPoint, {}, {}}, inner{kPoint, {}, {}};
        ValueRange ops = coords.operands;
        auto invariant = [&](AffineExpr l, ConditionAtomKind rel,
                             AffineExpr r) {
          return isRelationInvariant(use.op, l, ops, rel, r, ops);
        };
        if (c.kind == kPoint) {
          outer.lo = c.lo.floorDiv(quotient);
          inner.lo = c.lo % quotient;
        } else if (c.kind == kInterval &&
                   invariant(c.lo % quotient, ConditionAtomKind::Eq,
                             getAffineConstantExpr(0, ctx)) &&
                   invariant(c.hi - c.lo, ConditionAtomKind::Eq,
                             getAffineConstantExpr(quotient, ctx))) {
          outer.lo = c.lo.floorDiv(quotient);
          inner = {kFull, {}, {}};
        } else if (c.kind == kInterval &&
                   invariant(c.lo.floorDiv(quotient), ConditionAtomKind::Eq,
                             (c.hi - 1).floorDiv(quotient))) {
          outer.lo = c.lo.floorDiv(quotient);
          inner = {kInterval, c.lo % quotient, c.lo % quotient + (c.hi - c.lo)};
        } else {
          return refuseCoordinate(refusal, alloc, use, "divide_dim", dim);
        }
        coords.coords[dim] = outer;
        coords.coords.insert(coords.coords.begin() + dim + 1, inner);
        return success();
      },
      refusal);
}

LogicalResult mlir::exogpu::multDim(RewriterBase &rewriter, AllocOp alloc,
                                    unsigned hi, unsigned lo,
                                    Refusal &refusal) {
  unsigned rank = alloc.getExtents().getNumResults();
  if (hi >= rank || lo >= rank || hi == lo) {
    refusal.at(alloc.getLoc())
        << "mult_dim needs two different dimensions of "
        << "'" << nameOf(alloc) << "' (rank " << rank << ")";
    return failure();
  }
  auto c = dyn_cast<AffineConstantExpr>(alloc.getExtents().getResult(lo));
  if (!c) {
    refusal.at(alloc.getLoc())
        << "mult_dim: dimension " << lo << " of '" << nameOf(alloc)
        << "' must have a constant extent";
    return failure();
  }
  int64_t factor = c.getValue();
  if (failed(checkControlMagnitude(
          llvm::SaturatingMultiply(
              coefficientMagnitude(alloc.getExtents().getResult(hi)),
              static_cast<uint64_t>(factor)),
          alloc.getLoc(), "mult_dim", refusal)))
    return failure();
  SmallVector<AffineExpr> extents(alloc.getExtents().getResults());
  extents[hi] = extents[hi] * factor;
  extents.erase(extents.begin() + lo);
  return rewriteDims(
      rewriter, alloc, extents, alloc.getCtrl(),
      [&](const BufferUse &use, UseCoords &coords) -> LogicalResult {
        Coord a = coords.coords[hi], b = coords.coords[lo];
        Coord merged;
        if (a.kind != kPoint)
          return refuseCoordinate(refusal, alloc, use, "mult_dim", hi);
        if (b.kind == kPoint)
          merged = {kPoint, a.lo * factor + b.lo, {}};
        else if (b.kind == kInterval)
          merged = {kInterval, a.lo * factor + b.lo, a.lo * factor + b.hi};
        else
          merged = {kInterval, a.lo * factor, a.lo * factor + factor};
        coords.coords[hi] = merged;
        coords.coords.erase(coords.coords.begin() + lo);
        return success();
      },
      refusal);
}

LogicalResult mlir::exogpu::rearrangeDim(RewriterBase &rewriter, AllocOp alloc,
                                         ArrayRef<int64_t> perm,
                                         Refusal &refusal) {
  unsigned rank = alloc.getExtents().getNumResults();
  SmallVector<int64_t> sorted(perm);
  llvm::sort(sorted);
  bool isPermutation = sorted.size() == rank;
  for (unsigned i = 0; isPermutation && i < rank; ++i)
    isPermutation = sorted[i] == i;
  if (!isPermutation) {
    refusal.at(alloc.getLoc()) << "rearrange_dim needs a permutation of 0.."
                               << rank - 1 << " for '" << nameOf(alloc) << "'";
    return failure();
  }
  SmallVector<AffineExpr> extents;
  for (int64_t d : perm)
    extents.push_back(alloc.getExtents().getResult(d));
  return rewriteDims(
      rewriter, alloc, extents, alloc.getCtrl(),
      [&](const BufferUse &use, UseCoords &coords) -> LogicalResult {
        // A window or call argument keeps the order of its dimensions.
        int64_t lastOpen = -1;
        for (int64_t d : perm) {
          if (coords.coords[d].kind == kPoint)
            continue;
          if (d < lastOpen)
            return refuseCoordinate(refusal, alloc, use, "rearrange_dim", d);
          lastOpen = d;
        }
        SmallVector<Coord, 4> permuted;
        for (int64_t d : perm)
          permuted.push_back(coords.coords[d]);
        coords.coords = permuted;
        return success();
      },
      refusal);
}

//===----------------------------------------------------------------------===//
// resize_dim
//===----------------------------------------------------------------------===//

/// Checks that no write of an element congruent modulo `size` (along `dim`)
/// falls between a write of an element of `alloc` and a later read of it.
static LogicalResult checkFold(AllocOp alloc, unsigned dim, int64_t size,
                               Refusal &refusal) {
  auto proc = alloc->getParentOfType<ProcOp>();
  AccessCollector collector;
  SmallVector<BufferAccess> all, writes, reads;
  collector.collect(proc, all);
  for (BufferAccess &access : all) {
    if (access.root != alloc.getResult())
      continue;
    (access.mutates() ? writes : reads).push_back(access);
  }
  InstanceScope s1({proc}, 1), s2({proc}, 2), s3({proc}, 3);
  for (const BufferAccess &w : writes) {
    for (const BufferAccess &other : writes) {
      for (const BufferAccess &r : reads) {
        InstanceSet instances;
        instances.addContext(w.stmt, s1);
        instances.addContext(other.stmt, s2);
        instances.addContext(r.stmt, s3);
        ControlSet &set = instances.getSet();
        unsigned rank = w.lo.size();
        SmallVector<unsigned> a, b;
        for (unsigned d = 0; d < rank; ++d) {
          a.push_back(set.addLocalColumn());
          b.push_back(set.addLocalColumn());
        }
        instances.addInAccess(w, s1, a);
        instances.addInAccess(r, s3, a);
        instances.addInAccess(other, s2, b);
        unsigned q = set.addLocalColumn();
        for (unsigned d = 0; d < rank; ++d) {
          LinearForm diff =
              LinearForm::ofColumn(b[d]).plus(LinearForm::ofColumn(a[d]), -1);
          if (d != dim) {
            set.addEqualZero(diff);
            continue;
          }
          // b = a + size * q with q != 0.
          set.addEqualZero(diff.plus(LinearForm::ofColumn(q), -size));
        }
        set.addDisjunction(2, [&](ControlSet &alt, unsigned i) {
          if (i == 0)
            alt.addLess(LinearForm::ofConstant(0), LinearForm::ofColumn(q));
          else
            alt.addLess(LinearForm::ofColumn(q), LinearForm::ofConstant(0));
        });
        for (Operation *parent = alloc->getParentOp(); parent;
             parent = parent->getParentOp())
          if (isa<ForOp>(parent)) {
            instances.addIteratorEqual(parent, 1, 2);
            instances.addIteratorEqual(parent, 2, 3);
          }
        instances.addHappensBefore(w.stmt, s1, other.stmt, s2);
        instances.addHappensBefore(other.stmt, s2, r.stmt, s3);
        if (set.isEmpty())
          continue;
        Diagnostic &diag = refusal.at(alloc.getLoc());
        diag << "cannot fold dimension " << dim << " of '" << nameOf(alloc)
             << "' to " << size
             << ": a write of a congruent element falls between a write and "
                "a read of an element";
        diag.attachNote(w.loc) << "first write: " << w.describe();
        diag.attachNote(other.loc) << "congruent write: " << other.describe();
        diag.attachNote(r.loc)
            << "read: " << r.describe() << " (for example at "
            << set.describeSample() << ")";
        return failure();
      }
    }
  }
  return success();
}

LogicalResult mlir::exogpu::resizeDim(RewriterBase &rewriter, AllocOp alloc,
                                      unsigned dim, const ValueExpr &size,
                                      const ValueExpr &offset, bool fold,
                                      Refusal &refusal) {
  unsigned rank = alloc.getExtents().getNumResults();
  if (dim >= rank) {
    refusal.at(alloc.getLoc()) << "resize_dim: '" << nameOf(alloc) << "' has "
                               << rank << " dimension(s)";
    return failure();
  }
  MLIRContext *ctx = alloc.getContext();
  SmallVector<Value> operands(alloc.getCtrl());
  SmallVector<AffineExpr> extents(alloc.getExtents().getResults());
  extents[dim] = remapOperands(size.expr, size.operands, operands);
  if (fold) {
    auto c = dyn_cast<AffineConstantExpr>(size.expr);
    if (!c || c.getValue() <= 0) {
      refusal.at(alloc.getLoc())
          << "resize_dim: a folded dimension needs a positive constant size";
      return failure();
    }
    if (failed(checkFold(alloc, dim, c.getValue(), refusal)))
      return failure();
    return rewriteDims(
        rewriter, alloc, extents, operands,
        [&](const BufferUse &use, UseCoords &coords) -> LogicalResult {
          Coord &coord = coords.coords[dim];
          if (coord.kind != kPoint)
            return refuseCoordinate(refusal, alloc, use, "resize_dim", dim);
          coord.lo = coord.lo % c.getValue();
          return success();
        },
        refusal);
  }
  // A dynamic extent is checked at run time: it must not be negative.
  std::string witness;
  if (!isRelationInvariant(alloc, size.expr, size.operands,
                           ConditionAtomKind::Ge, getAffineConstantExpr(0, ctx),
                           {}, &witness)) {
    explainNotInvariant(refusal, alloc.getLoc(),
                        "resize_dim: the size '" +
                            printControlText(size.expr, size.operands) +
                            "' of '" + nameOf(alloc) + "' may be negative",
                        witness);
    return failure();
  }
  ValueExpr oldExtent = extentOf(alloc, dim);
  return rewriteDims(
      rewriter, alloc, extents, operands,
      [&](const BufferUse &use, UseCoords &coords) -> LogicalResult {
        Coord &coord = coords.coords[dim];
        AffineExpr off = coords.import(offset);
        AffineExpr first, last;
        if (coord.kind == kPoint) {
          first = last = coord.lo;
        } else if (coord.kind == kInterval) {
          first = coord.lo;
          last = coord.hi - 1;
        } else {
          first = getAffineConstantExpr(0, ctx);
          last = coords.import(oldExtent) - 1;
          coord = {kInterval, first, last + 1};
        }
        AffineExpr end = off + coords.import(size);
        std::string witness;
        if (!isRelationInvariant(use.op, first, coords.operands,
                                 ConditionAtomKind::Ge, off, coords.operands,
                                 &witness) ||
            !isRelationInvariant(use.op, last, coords.operands,
                                 ConditionAtomKind::Lt, end, coords.operands,
                                 &witness)) {
          Diagnostic &diag = refusal.at(alloc.getLoc());
          diag << "resize_dim: an access of '" << nameOf(alloc)
               << "' leaves the new range of dimension " << dim;
          diag.attachNote(use.op->getLoc())
              << "this access (for example at " << witness << ")";
          return failure();
        }
        coord.lo = coord.lo - off;
        if (coord.kind == kInterval)
          coord.hi = coord.hi - off;
        return success();
      },
      refusal);
}

//===----------------------------------------------------------------------===//
// delete_buffer, reuse_buffer
//===----------------------------------------------------------------------===//

LogicalResult mlir::exogpu::deleteBuffer(RewriterBase &rewriter, AllocOp alloc,
                                         Refusal &refusal) {
  for (Operation *user : alloc.getResult().getUsers()) {
    if (isa<FreeOp>(user))
      continue;
    Diagnostic &diag = refusal.at(alloc.getLoc());
    diag << "cannot delete '" << nameOf(alloc) << "': it is used";
    diag.attachNote(user->getLoc()) << "this use";
    return failure();
  }
  for (Operation *user :
       llvm::make_early_inc_range(alloc.getResult().getUsers()))
    rewriter.eraseOp(user);
  rewriter.eraseOp(alloc);
  return success();
}

LogicalResult mlir::exogpu::reuseBuffer(RewriterBase &rewriter, AllocOp kept,
                                        AllocOp replaced, Refusal &refusal) {
  if (kept.getType() != replaced.getType() ||
      kept.getExtents() != replaced.getExtents() ||
      kept.getCtrl() != replaced.getCtrl()) {
    refusal.at(replaced.getLoc())
        << "reuse_buffer needs two buffers of the same type and extents";
    return failure();
  }
  if (kept->getBlock() != replaced->getBlock() ||
      !kept->isBeforeInBlock(replaced)) {
    refusal.at(replaced.getLoc())
        << "reuse_buffer needs the reused buffer allocated earlier in the "
           "same block";
    return failure();
  }
  // Every access of `kept`, directly or through its windows and splits,
  // precedes the allocation it replaces.
  SmallVector<Operation *> views;
  collectViews(kept.getResult(), views);
  SmallVector<Operation *> users(kept.getResult().getUsers());
  for (Operation *view : views)
    llvm::append_range(users, view->getResult(0).getUsers());
  for (Operation *user : users) {
    Operation *top = replaced->getBlock()->findAncestorOpInBlock(*user);
    if (top && top->isBeforeInBlock(replaced))
      continue;
    Diagnostic &diag = refusal.at(replaced.getLoc());
    diag << "cannot reuse '" << nameOf(kept) << "' for '" << nameOf(replaced)
         << "': it is still used after this allocation";
    diag.attachNote(user->getLoc()) << "this use";
    return failure();
  }
  rewriter.replaceAllUsesWith(replaced.getResult(), kept.getResult());
  rewriter.eraseOp(replaced);
  return success();
}

//===----------------------------------------------------------------------===//
// set_memory, set_precision
//===----------------------------------------------------------------------===//

/// Retypes `buffer` and its windows and splits with `retype`, verifies the
/// proc, and restores the types if it is invalid.
static LogicalResult
retypeBuffer(RewriterBase &rewriter, Value buffer,
             function_ref<Type(BufferTypeInterface)> retype,
             function_ref<void(bool restore)> alsoChange, const Twine &what,
             Refusal &refusal) {
  Operation *proc = buffer.getParentRegion()->getParentOp();
  if (!isa<ProcOp>(proc))
    proc = proc->getParentOfType<ProcOp>();
  SmallVector<Operation *> views;
  collectViews(buffer, views);
  SmallVector<std::pair<Value, Type>> old{{buffer, buffer.getType()}};
  for (Operation *view : views)
    old.push_back({view->getResult(0), view->getResult(0).getType()});
  for (auto [value, type] : old)
    value.setType(retype(cast<BufferTypeInterface>(type)));
  alsoChange(false);
  Location loc = buffer.getLoc();
  if (failed(verifyOrExplain(proc, loc, what, refusal))) {
    for (auto [value, type] : old)
      value.setType(type);
    alsoChange(true);
    return failure();
  }
  // Tell the rewriter's listeners.
  for (Operation *view : views)
    rewriter.modifyOpInPlace(view, [] {});
  if (Operation *def = buffer.getDefiningOp())
    rewriter.modifyOpInPlace(def, [] {});
  return success();
}

/// `type` with another memory or precision.
static Type withParts(BufferTypeInterface type, Type element,
                      MemoryAttr memory) {
  MLIRContext *ctx = type.getContext();
  if (auto window = dyn_cast<WindowType>(type))
    return WindowType::get(ctx, element, window.getShape(), memory,
                           window.getSpecial());
  return DataTensorType::get(ctx, element, type.getShape(), memory);
}

/// Checks that `buffer` is an allocation or a proc parameter.
static LogicalResult checkRootBuffer(Value buffer, Refusal &refusal) {
  auto arg = dyn_cast<BlockArgument>(buffer);
  bool param = arg && isa<ProcOp>(arg.getOwner()->getParentOp());
  if ((buffer.getDefiningOp<AllocOp>() || param) &&
      isa<DataTensorType>(buffer.getType()))
    return success();
  refusal.at(buffer.getLoc())
      << "expected a data allocation or a data parameter of a proc";
  return failure();
}

LogicalResult mlir::exogpu::setMemory(RewriterBase &rewriter, Value buffer,
                                      MemoryAttr memory, Refusal &refusal) {
  if (failed(checkRootBuffer(buffer, refusal)))
    return failure();
  return retypeBuffer(
      rewriter, buffer,
      [&](BufferTypeInterface type) {
        return withParts(type, type.getElementType(), memory);
      },
      [](bool) {}, "set_memory", refusal);
}

LogicalResult mlir::exogpu::setPrecision(RewriterBase &rewriter, Value buffer,
                                         Type type, Refusal &refusal) {
  if (failed(checkRootBuffer(buffer, refusal)))
    return failure();
  SmallVector<Operation *> views;
  collectViews(buffer, views);
  SmallVector<ReadOp> reads;
  auto addReads = [&](Value v) {
    for (Operation *user : v.getUsers())
      if (auto read = dyn_cast<ReadOp>(user))
        reads.push_back(read);
  };
  addReads(buffer);
  for (Operation *view : views)
    addReads(view->getResult(0));
  SmallVector<Type> oldTypes;
  for (ReadOp read : reads)
    oldTypes.push_back(read.getType());
  return retypeBuffer(
      rewriter, buffer,
      [&](BufferTypeInterface t) { return withParts(t, type, t.getMemory()); },
      [&](bool restore) {
        for (auto [read, old] : llvm::zip(reads, oldTypes))
          read.getResult().setType(restore ? old : type);
      },
      "set_precision", refusal);
}

//===----------------------------------------------------------------------===//
// stage_mem
//===----------------------------------------------------------------------===//

/// Builds `for n0 in seq(0, e0): for n1 ...: body(iterators)`, returning the
/// outermost statement (or what `body` built, with no dimensions).
static Operation *buildNest(RewriterBase &rewriter, Location loc,
                            StringRef prefix, ArrayRef<ValueExpr> extents,
                            function_ref<Operation *(ArrayRef<Value>)> body) {
  MLIRContext *ctx = rewriter.getContext();
  SmallVector<Value> ivs;
  Operation *outer = nullptr;
  OpBuilder::InsertionGuard guard(rewriter);
  for (auto [d, extent] : llvm::enumerate(extents)) {
    ForOp loop = createLoop(rewriter, loc, (prefix + Twine(d)).str(),
                            LoopMode::seq, ValueExpr::constant(0, ctx), extent);
    if (!outer)
      outer = loop;
    ivs.push_back(loop.getIterator());
    rewriter.setInsertionPointToStart(&loop.getBody().front());
  }
  Operation *inner = body(ivs);
  return outer ? outer : inner;
}

/// Creates `dest[destIndices] = src[srcIndices]` (or `+=`; `src` null for a
/// zero), both index lists over `operands`.
static Operation *buildCopy(RewriterBase &rewriter, Location loc, bool reduce,
                            Value dest, ArrayRef<AffineExpr> destIndices,
                            Value src, ArrayRef<AffineExpr> srcIndices,
                            ValueRange operands) {
  MLIRContext *ctx = rewriter.getContext();
  AffineMapAttr destMap =
      AffineMapAttr::get(AffineMap::get(operands.size(), 0, destIndices, ctx));
  Operation *stmt =
      reduce ? ReduceOp::create(rewriter, loc, dest, destMap, operands)
                   .getOperation()
             : AssignOp::create(rewriter, loc, dest, destMap, operands)
                   .getOperation();
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.createBlock(&stmt->getRegion(0));
  Type element = cast<BufferTypeInterface>(dest.getType()).getElementType();
  Value value;
  if (src) {
    value = ReadOp::create(
        rewriter, loc,
        cast<BufferTypeInterface>(src.getType()).getElementType(), src,
        AffineMap::get(operands.size(), 0, srcIndices, ctx), operands);
  } else {
    TypedAttr zero = isa<FloatType>(element)
                         ? TypedAttr(rewriter.getFloatAttr(element, 0.0))
                         : TypedAttr(rewriter.getIntegerAttr(element, 0));
    value = ConstantOp::create(rewriter, loc, element, zero);
  }
  YieldOp::create(rewriter, loc, value);
  setControlMaps(stmt, getControlMaps(stmt), operands);
  for (Operation &op : stmt->getRegion(0).front())
    if (auto read = dyn_cast<ReadOp>(op))
      setControlMaps(read, getControlMaps(read), operands);
  return stmt;
}

namespace {
/// The window of stage_mem over its buffer, per dimension of the buffer.
struct StageWindow {
  SmallVector<Coord, 4> dims;
  SmallVector<Value, 4> operands;
  SmallVector<ValueExpr> extents; // of the staged buffer
};
} // namespace

/// Whether `first` is a nest of seq loops around one assignment of `buffer`
/// that writes every element of `window` and reads nothing of it.
static bool overwritesWindow(Operation *first, Value buffer,
                             const StageWindow &window) {
  SmallVector<ForOp> loops;
  Operation *op = first;
  while (auto loop = dyn_cast<ForOp>(op)) {
    if (!llvm::hasSingleElement(loop.getBody().front()))
      return false;
    loops.push_back(loop);
    op = &loop.getBody().front().front();
  }
  auto assign = dyn_cast<AssignOp>(op);
  if (!assign || assign.getDest() != buffer)
    return false;
  bool readsBuffer = false;
  assign.getValue().walk(
      [&](ReadOp read) { readsBuffer |= read.getSource() == buffer; });
  if (readsBuffer)
    return false;
  ValueRange ctrl = assign.getCtrl();
  SmallVector<bool> used(loops.size(), false);
  unsigned open = 0;
  for (auto [d, coord] : llvm::enumerate(window.dims)) {
    AffineExpr index = assign.getIndices().getResult(d);
    if (coord.kind == kPoint) {
      if (!isRelationInvariant(assign, index, ctrl, ConditionAtomKind::Eq,
                               coord.lo, window.operands))
        return false;
      continue;
    }
    // index == lo + iterator of a loop over [0, extent).
    ValueExpr extent = window.extents[open++];
    bool found = false;
    for (auto [l, loop] : llvm::enumerate(loops)) {
      if (used[l])
        continue;
      ValueExpr shifted = ValueExpr::add({coord.lo, window.operands},
                                         ValueExpr::of(loop.getIterator()));
      if (!isRelationInvariant(assign, index, ctrl, ConditionAtomKind::Eq,
                               shifted.expr, shifted.operands))
        continue;
      if (!isRelationInvariant(loop, loop.getLowerBoundExpr(), loop.getCtrl(),
                               ConditionAtomKind::Eq,
                               getAffineConstantExpr(0, loop.getContext()),
                               {}) ||
          !isRelationInvariant(loop, loop.getUpperBoundExpr(), loop.getCtrl(),
                               ConditionAtomKind::Eq, extent.expr,
                               extent.operands))
        return false;
      used[l] = found = true;
      break;
    }
    if (!found)
      return false;
  }
  return llvm::all_of(used, [](bool u) { return u; });
}

FailureOr<StagedWindow>
mlir::exogpu::stageMem(RewriterBase &rewriter, ArrayRef<Operation *> block,
                       const ParsedAccess &parsed, StringRef name,
                       MemoryAttr memory, bool accum, Refusal &refusal) {
  Operation *first = block.front();
  Value buffer = parsed.buffer;
  Location loc = first->getLoc();
  if (failed(checkRootBuffer(buffer, refusal)))
    return failure();
  auto type = cast<DataTensorType>(buffer.getType());
  MLIRContext *ctx = rewriter.getContext();
  SmallVector<AffineExpr> rootExtents;
  SmallVector<Value> rootOperands;
  getRootExtents(buffer, rootExtents, rootOperands);
  unsigned rank = rootExtents.size();
  if (!parsed.kinds.empty() && parsed.kinds.size() != rank) {
    refusal.at(loc) << "stage_mem: the window has " << parsed.kinds.size()
                    << " coordinate(s), '" << getBufferName(buffer) << "' has "
                    << rank << " dimension(s)";
    return failure();
  }
  // The window per dimension, and the staged buffer's extents.
  StageWindow window;
  window.operands = parsed.operands;
  unsigned next = 0;
  for (unsigned d = 0; d < rank; ++d) {
    int32_t kind = parsed.kinds.empty() ? kFull : parsed.kinds[d];
    Coord c{kind, {}, {}};
    if (kind == kPoint) {
      c.lo = parsed.exprs[next++];
      c.hi = c.lo + 1;
    } else if (kind == kInterval) {
      c.lo = parsed.exprs[next++];
      c.hi = parsed.exprs[next++];
    } else {
      c.lo = getAffineConstantExpr(0, ctx);
      c.hi = remapOperands(rootExtents[d], rootOperands, window.operands);
    }
    window.dims.push_back(c);
  }
  for (const Coord &c : window.dims)
    if (c.kind != kPoint)
      window.extents.push_back(ValueExpr{
          tidyExpr(c.hi - c.lo, window.operands.size()), window.operands});
  // The window lies within the buffer.
  for (auto [d, c] : llvm::enumerate(window.dims)) {
    AffineExpr extent =
        remapOperands(rootExtents[d], rootOperands, window.operands);
    std::string witness;
    if (!isRelationInvariant(first, c.lo, window.operands,
                             ConditionAtomKind::Ge,
                             getAffineConstantExpr(0, ctx), {}, &witness) ||
        !isRelationInvariant(first, c.hi, window.operands,
                             ConditionAtomKind::Le, extent, window.operands,
                             &witness) ||
        !isRelationInvariant(first, c.lo, window.operands,
                             ConditionAtomKind::Le, c.hi, window.operands,
                             &witness)) {
      explainNotInvariant(refusal, loc,
                          "stage_mem: dimension " + Twine(d) +
                              " of the window is not always within '" +
                              getBufferName(buffer) + "'",
                          witness);
      return failure();
    }
  }
  // The block's accesses: kinds, and containment in the window.
  auto inBlock = [&](Operation *op) {
    return llvm::any_of(block, [&](Operation *stmt) {
      return stmt == op || stmt->isProperAncestor(op);
    });
  };
  AccessCollector collector;
  SmallVector<BufferAccess> accesses;
  for (Operation *op : block)
    collector.collect(op, accesses);
  bool reads = false, writes = false, reduces = false;
  for (const BufferAccess &access : accesses) {
    if (access.root != buffer)
      continue;
    reads |= access.kind == AccessKind::Read;
    writes |= access.kind == AccessKind::Write;
    reduces |= access.kind == AccessKind::Reduce;
    InstanceScope scope;
    for (auto [d, c] : llvm::enumerate(window.dims)) {
      std::string witness;
      if (!isRelationInvariant(access.stmt, access.lo[d], access.operands,
                               ConditionAtomKind::Ge, c.lo, window.operands,
                               &witness) ||
          !isRelationInvariant(access.stmt, access.hi[d], access.operands,
                               ConditionAtomKind::Lt, c.hi, window.operands,
                               &witness)) {
        Diagnostic &diag = refusal.at(loc);
        diag << "stage_mem: the block accesses '" << getBufferName(buffer)
             << "' outside the window";
        diag.attachNote(access.loc)
            << "this access: " << access.describe() << ", dimension " << d
            << " (for example at " << witness << ")";
        return failure();
      }
    }
  }
  if (!reads && !writes && !reduces) {
    refusal.at(loc) << "stage_mem: the block does not access '"
                    << getBufferName(buffer) << "'";
    return failure();
  }
  if (accum && (reads || writes)) {
    refusal.at(loc) << "stage_mem with accumulation needs a block that only "
                       "reduces into '"
                    << getBufferName(buffer) << "'";
    return failure();
  }
  SmallVector<BufferUse> uses = getBufferUses(buffer);
  SmallVector<BufferUse> blockUses;
  for (const BufferUse &use : uses) {
    if (!inBlock(use.op))
      continue;
    if (isa<WindowOp, FreeOp>(use.op)) {
      refusal.at(use.op->getLoc())
          << "stage_mem: the block takes a window of '" << getBufferName(buffer)
          << "'; inline it first";
      return failure();
    }
    if (isa<SplitOp>(use.op)) {
      refusal.at(use.op->getLoc())
          << "stage_mem: the block splits '" << getBufferName(buffer)
          << "'; the staged buffer has the window's dimensions, not the "
             "split's";
      return failure();
    }
    // The staged buffer has no dimension where the window has a point: a
    // window or argument that spans one cannot be expressed.
    UseCoords coords = UseCoords::of(use, rank);
    for (auto [d, c] : llvm::enumerate(window.dims)) {
      if (c.kind != kPoint || coords.coords[d].kind == kPoint)
        continue;
      Diagnostic &diag = refusal.at(loc);
      diag << "stage_mem: an access spans dimension " << d << " of '"
           << getBufferName(buffer) << "', which the window fixes to one index";
      diag.attachNote(use.op->getLoc()) << "this access";
      return failure();
    }
    blockUses.push_back(use);
  }
  // Accesses through a window or split taken outside the block would keep
  // going to the buffer while the block works on the staged copy.
  for (Operation *stmt : block) {
    WalkResult walk = stmt->walk([&](Operation *op) {
      for (Value operand : op->getOperands()) {
        auto window = operand.getDefiningOp<ViewLikeOpInterface>();
        if (!window || inBlock(window))
          continue;
        FailureOr<BufferView> view = getBufferView(operand);
        if (failed(view) || view->root != buffer)
          continue;
        StringRef kind = isa<SplitOp>(window) ? "split" : "window";
        Diagnostic &diag = refusal.at(loc);
        diag << "stage_mem: the block accesses '" << getBufferName(buffer)
             << "' through the " << kind << " '" << getBufferName(operand)
             << "' taken outside it";
        diag.attachNote(op->getLoc()) << "this access";
        diag.attachNote(window->getLoc()) << "the " << kind;
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return failure();
  }
  // Without a load the store would write back elements the block did not
  // write: only a first statement that overwrites the whole window makes it
  // unnecessary.
  bool load = !accum && !overwritesWindow(first, buffer, window);
  bool store = writes || reduces;

  // The staging buffer.
  rewriter.setInsertionPoint(first);
  SmallVector<Value> extentOperands;
  SmallVector<AffineExpr> extents;
  SmallVector<int64_t> shape;
  for (const ValueExpr &e : window.extents) {
    extents.push_back(remapOperands(e.expr, e.operands, extentOperands));
    auto c = dyn_cast<AffineConstantExpr>(e.expr);
    shape.push_back(c ? c.getValue() : ShapedType::kDynamic);
  }
  auto alloc = AllocOp::create(
      rewriter, loc,
      DataTensorType::get(ctx, type.getElementType(), shape, memory),
      AffineMapAttr::get(
          AffineMap::get(extentOperands.size(), 0, extents, ctx)),
      extentOperands, rewriter.getStringAttr(name));
  // Indices of the copies: the staged buffer at the iterators, the buffer
  // at lo + iterator (or the point).
  auto copyIndices = [&](ArrayRef<Value> ivs, SmallVectorImpl<Value> &operands,
                         SmallVectorImpl<AffineExpr> &staged,
                         SmallVectorImpl<AffineExpr> &original) {
    operands.assign(window.operands.begin(), window.operands.end());
    unsigned open = 0;
    for (const Coord &c : window.dims) {
      if (c.kind == kPoint) {
        original.push_back(c.lo);
        continue;
      }
      AffineExpr iv =
          remapOperands(getAffineDimExpr(0, ctx), {ivs[open++]}, operands);
      staged.push_back(iv);
      original.push_back(c.lo + iv);
    }
  };
  StagedWindow result{alloc, nullptr, nullptr};
  if (load || accum) {
    result.load =
        buildNest(rewriter, loc, "i", window.extents, [&](ArrayRef<Value> ivs) {
          SmallVector<Value> operands;
          SmallVector<AffineExpr> staged, original;
          copyIndices(ivs, operands, staged, original);
          return buildCopy(rewriter, loc, false, alloc.getResult(), staged,
                           accum ? Value() : buffer, original, operands);
        });
  }
  if (store) {
    rewriter.setInsertionPointAfter(block.back());
    result.store =
        buildNest(rewriter, loc, "i", window.extents, [&](ArrayRef<Value> ivs) {
          SmallVector<Value> operands;
          SmallVector<AffineExpr> staged, original;
          copyIndices(ivs, operands, staged, original);
          return buildCopy(rewriter, loc, accum, buffer, original,
                           alloc.getResult(), staged, operands);
        });
  }
  // Redirect the block's accesses: drop point dimensions, shift intervals.
  EditJournal journal;
  for (const BufferUse &use : blockUses) {
    UseCoords coords = UseCoords::of(use, rank);
    UseCoords staged;
    staged.operands = coords.operands;
    for (auto [d, c] : llvm::enumerate(window.dims)) {
      if (c.kind == kPoint)
        continue;
      AffineExpr lo = staged.import({c.lo, window.operands});
      Coord coord = coords.coords[d];
      if (coord.kind == kFull) {
        if (c.kind == kFull) {
          staged.coords.push_back(coord);
          continue;
        }
        coord = {kInterval, getAffineConstantExpr(0, ctx),
                 staged.import({rootExtents[d],
                                SmallVector<Value, 4>(rootOperands.begin(),
                                                      rootOperands.end())})};
      }
      coord.lo = coord.lo - lo;
      if (coord.kind == kInterval)
        coord.hi = coord.hi - lo;
      staged.coords.push_back(coord);
    }
    journal.record(use.op);
    rewriter.modifyOpInPlace(use.op, [&] {
      staged.apply(use, alloc.getResult());
      simplifyControl(use.op);
    });
  }
  if (failed(finishTentativeEdit(journal, alloc->getParentOfType<ProcOp>(), loc,
                                 "stage_mem", refusal))) {
    for (Operation *op : {result.store, result.load})
      if (op)
        rewriter.eraseOp(op);
    rewriter.eraseOp(alloc);
    return failure();
  }
  return result;
}

//===----------------------------------------------------------------------===//
// inline_window, bind_window
//===----------------------------------------------------------------------===//

LogicalResult mlir::exogpu::inlineWindow(RewriterBase &rewriter,
                                         WindowOp window, Refusal &refusal) {
  if (window.getSpecial()) {
    refusal.at(window.getLoc())
        << "inline_window: a special window (tensor map) is what its uses "
           "require; it stays";
    return failure();
  }
  SmallVector<BufferUse> uses = getBufferUses(window.getResult());
  for (const BufferUse &use : uses) {
    if (!isa<SplitOp>(use.op))
      continue;
    // A split takes no coordinates to compose with the window's.
    Diagnostic &diag = refusal.at(window.getLoc());
    diag << "inline_window: an exogpu.split views '"
         << getBufferName(window.getResult())
         << "'; a split of its source would not take the window's "
            "coordinates";
    diag.attachNote(use.op->getLoc()) << "the split";
    return failure();
  }
  unsigned rank = cast<WindowType>(window.getType()).getRank();
  // The window's own coordinates over the source dimensions.
  BufferUse self{window, 0, {}, {}, {}};
  llvm::append_range(self.kinds, window.getCoordKinds());
  llvm::append_range(self.exprs, window.getCoords().getResults());
  llvm::append_range(self.operands, window.getCtrl());
  unsigned sourceRank =
      cast<BufferTypeInterface>(window.getSource().getType()).getRank();
  UseCoords outer = UseCoords::of(self, sourceRank);
  EditJournal journal;
  for (const BufferUse &use : uses) {
    UseCoords inner = UseCoords::of(use, rank);
    UseCoords composed;
    composed.operands = inner.operands;
    unsigned k = 0;
    for (const Coord &w : outer.coords) {
      if (w.kind == kPoint) {
        composed.coords.push_back(
            {kPoint, composed.import({w.lo, outer.operands}), {}});
        continue;
      }
      Coord c = inner.coords[k++];
      if (w.kind == kFull) {
        composed.coords.push_back(c);
        continue;
      }
      AffineExpr lo = composed.import({w.lo, outer.operands});
      if (c.kind == kFull)
        composed.coords.push_back(
            {kInterval, lo, composed.import({w.hi, outer.operands})});
      else if (c.kind == kPoint)
        composed.coords.push_back({kPoint, lo + c.lo, {}});
      else
        composed.coords.push_back({kInterval, lo + c.lo, lo + c.hi});
    }
    journal.record(use.op);
    rewriter.modifyOpInPlace(use.op, [&] {
      composed.apply(use, window.getSource());
      simplifyControl(use.op);
    });
  }
  // A window of the window becomes a window of its source: its type follows
  // from the composed coordinates.
  if (failed(finishTentativeEdit(journal, window->getParentOfType<ProcOp>(),
                                 window.getLoc(), "inline_window", refusal)))
    return failure();
  rewriter.eraseOp(window);
  return success();
}

FailureOr<WindowOp> mlir::exogpu::bindWindow(RewriterBase &rewriter,
                                             ArrayRef<Operation *> block,
                                             Value buffer, StringRef name,
                                             SpecialWindowAttr special,
                                             Refusal &refusal) {
  auto type = cast<BufferTypeInterface>(buffer.getType());
  auto proc = block.front()->getParentOfType<ProcOp>();
  auto arg = dyn_cast<BlockArgument>(buffer);
  if (arg && arg.getOwner()->getParentOp() == proc)
    rewriter.setInsertionPointToStart(&proc.getBody().front());
  else
    rewriter.setInsertionPointAfterValue(buffer);
  MLIRContext *ctx = rewriter.getContext();
  SmallVector<int32_t> kinds(type.getRank(), kFull);
  auto window = WindowOp::create(
      rewriter, buffer.getLoc(),
      WindowType::get(ctx, type.getElementType(), type.getShape(),
                      type.getMemory(), special),
      buffer, kinds, AffineMap::get(0, 0, {}, ctx), ValueRange{}, special,
      rewriter.getStringAttr(name));
  SmallVector<OpOperand *> redirected;
  for (OpOperand &use : buffer.getUses()) {
    Operation *user = use.getOwner();
    if (llvm::any_of(block, [&](Operation *stmt) {
          return stmt == user || stmt->isProperAncestor(user);
        }))
      redirected.push_back(&use);
  }
  if (redirected.empty()) {
    rewriter.eraseOp(window);
    refusal.at(block.front()->getLoc())
        << "bind_window: the block does not use '" << getBufferName(buffer)
        << "'";
    return failure();
  }
  for (OpOperand *use : redirected)
    use->set(window.getResult());
  if (failed(verifyOrExplain(proc, block.front()->getLoc(), "bind_window",
                             refusal))) {
    for (OpOperand *use : redirected)
      use->set(buffer);
    rewriter.eraseOp(window);
    return failure();
  }
  for (OpOperand *use : redirected)
    rewriter.modifyOpInPlace(use->getOwner(), [] {});
  return window;
}
