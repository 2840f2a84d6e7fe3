//===- Evaluation.cpp - accesses and thread mappings under sigma ---------===//
//
// Part of ExoGPU. Access windows (seeds/002 Fig. 6) and thread mappings
// (Def. 5.2; the collective tiling interpretation of seeds/001).
//
//===----------------------------------------------------------------------===//

#include "ExoGPU/AbstractMachine/Evaluation.h"
#include "ExoGPU/Dialect/ExoGPU/IR/ControlExpr.h"
#include "mlir/IR/Operation.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::exoam;

//===----------------------------------------------------------------------===//
// Access windows
//===----------------------------------------------------------------------===//

bool AccessWindow::empty() const {
  return llvm::any_of(
      ranges, [](IntervalSet::Interval r) { return r.first > r.second; });
}

bool AccessWindow::isSingleElement() const {
  return llvm::all_of(
      ranges, [](IntervalSet::Interval r) { return r.first == r.second; });
}

bool AccessWindow::forEachElement(
    function_ref<bool(const ElementKey &)> fn) const {
  if (empty())
    return true;
  ElementKey key{var, {}};
  for (IntervalSet::Interval r : ranges)
    key.index.push_back(r.first);
  // Odometer over the index tuple, last coordinate fastest.
  while (true) {
    if (!fn(key))
      return false;
    int dim = static_cast<int>(ranges.size()) - 1;
    for (; dim >= 0; --dim) {
      if (key.index[dim] < ranges[dim].second) {
        ++key.index[dim];
        break;
      }
      key.index[dim] = ranges[dim].first;
    }
    if (dim < 0)
      return true;
  }
}

ElementKey mlir::exoam::getElementKey(const AccessWindow &window) {
  ElementKey key{window.var, {}};
  for (IntervalSet::Interval r : window.ranges)
    key.index.push_back(r.first);
  return key;
}

AccessWindow mlir::exoam::getElementWindow(const ElementKey &key) {
  AccessWindow window{key.var, {}};
  for (int64_t i : key.index)
    window.ranges.push_back({i, i});
  return window;
}

AccessWindow mlir::exoam::getAllocationWindow(StringAttr var,
                                              ArrayRef<int64_t> extents) {
  AccessWindow box{var, {}};
  for (int64_t extent : extents)
    box.ranges.push_back({0, extent - 1});
  return box;
}

AccessWindow mlir::exoam::translateWindow(AccessWindow window,
                                          ArrayRef<int64_t> shift) {
  for (auto [range, delta] : llvm::zip(window.ranges, shift)) {
    range.first += delta;
    range.second += delta;
  }
  return window;
}

bool mlir::exoam::isWithin(ArrayRef<IntervalSet::Interval> inner,
                           ArrayRef<IntervalSet::Interval> outer) {
  return llvm::all_of(llvm::zip(inner, outer), [](auto pair) {
    auto [range, bound] = pair;
    return bound.first <= range.first && range.second <= bound.second;
  });
}

void AccessWindow::print(raw_ostream &os) const {
  os << '@' << var.getValue() << '[';
  llvm::interleaveComma(ranges, os, [&](IntervalSet::Interval r) {
    os << r.first;
    if (r.second != r.first)
      os << ".." << r.second;
  });
  os << ']';
}

FailureOr<AccessWindow>
mlir::exoam::evaluateAccess(Operation *op, AccessAttr access,
                            ArrayRef<int64_t> values,
                            exogpu::ControlExprEvaluator &evaluator) {
  AccessWindow window{access.getVar(), {}};
  AffineMap coords = access.getCoords();
  unsigned next = 0;
  auto coordinate = [&]() -> std::optional<int64_t> {
    if (next >= coords.getNumResults())
      return std::nullopt;
    return evaluator.evaluate(coords.getResult(next++), values);
  };
  for (int32_t kind : access.getKinds()) {
    std::optional<int64_t> lo = coordinate(), hi = lo;
    if (kind == static_cast<int32_t>(AccessCoordKind::Range))
      hi = coordinate();
    if (!lo || !hi)
      return emitError(op->getLoc())
             << "a coordinate of the access to @" << access.getVar().getValue()
             << " overflows int64 (or is missing) with these values";
    window.ranges.push_back({*lo, *hi});
  }
  return window;
}

std::optional<ElementKey>
mlir::exoam::findCommonElement(ArrayRef<AccessWindow> windows) {
  AccessWindow common = windows.front();
  for (const AccessWindow &window : windows.drop_front()) {
    if (window.var != common.var ||
        window.ranges.size() != common.ranges.size())
      return std::nullopt;
    for (auto [c, w] : llvm::zip(common.ranges, window.ranges))
      c = {std::max(c.first, w.first), std::min(c.second, w.second)};
  }
  if (common.empty() || !common.isSingleElement())
    return std::nullopt;
  ElementKey key{common.var, {}};
  for (IntervalSet::Interval r : common.ranges)
    key.index.push_back(r.first);
  return key;
}

//===----------------------------------------------------------------------===//
// Thread mappings
//===----------------------------------------------------------------------===//

FailureOr<ThreadSet> mlir::exoam::evaluateThreads(Operation *op,
                                                  ThreadMappingAttr threads,
                                                  ArrayRef<int64_t> values,
                                                  int64_t task) {
  if (threads.getScope() == ExecScope::cpu)
    return ThreadSet::getAll();
  ArrayRef<TilingDimAttr> dims = threads.getDims();
  // The thread pitch P_m is the product of the later extents (Def. 4.2).
  SmallVector<int64_t> pitches(dims.size(), 1);
  for (int m = static_cast<int>(dims.size()) - 2; m >= 0; --m)
    if (llvm::MulOverflow(pitches[m + 1], dims[m + 1].getExtent(), pitches[m]))
      return emitError(op->getLoc())
             << "thread mapping: the thread pitch of tiling dimension " << m
             << " overflows int64";

  // F_m(sigma) (seeds/001): narrow [0, D_m P_m - 1] by each operator, then
  // divide by the pitch.
  SmallVector<IntervalSet::Interval> coords;
  for (auto [m, dim] : llvm::enumerate(dims)) {
    int64_t pitch = pitches[m];
    int64_t a = 0, b;
    if (dim.getExtent() < 1 || llvm::MulOverflow(dim.getExtent(), pitch, b))
      return emitError(op->getLoc())
             << "thread mapping: tiling dimension " << m << " has extent "
             << dim.getExtent() << ", which with its pitch " << pitch
             << " is not a positive int64 count of threads";
    b -= 1;
    for (TilingOpAttr tilingOp : dim.getOps()) {
      int64_t s = tilingOp.getIter() ? values[*tilingOp.getIter()] : 0;
      int64_t start, step, x, last;
      if (llvm::AddOverflow(a, tilingOp.getLinearOffset(), start) ||
          llvm::MulOverflow(s, tilingOp.getLinearBox(), step) ||
          llvm::AddOverflow(start, step, x) ||
          llvm::AddOverflow(x, tilingOp.getLinearBox() - 1, last))
        return emitError(op->getLoc()) << "thread mapping overflows in tiling "
                                          "dimension "
                                       << m << " (iterator value " << s << ")";
      a = x;
      b = last;
    }
    int64_t lo = llvm::divideFloorSigned(a, pitch);
    int64_t hi = llvm::divideFloorSigned(b, pitch);
    if (lo < 0 || hi >= dim.getExtent())
      return emitError(op->getLoc())
             << "thread mapping selects coordinates " << lo << ".." << hi
             << " of tiling dimension " << m << ", which has extent "
             << dim.getExtent();
    coords.push_back({lo, hi});
  }

  // The lexicographic linearization of F_0 x ... x F_{M-1}: one interval of
  // the last dimension per combination of the others (a bounded number).
  constexpr int64_t kMostIntervals = 1 << 16;
  int64_t intervals = 1;
  for (IntervalSet::Interval c : ArrayRef(coords).drop_back())
    if (llvm::MulOverflow(intervals, c.second - c.first + 1, intervals) ||
        intervals > kMostIntervals)
      return emitError(op->getLoc())
             << "thread mapping selects more than " << kMostIntervals
             << " separate thread ranges; the abstract machine does not "
                "enumerate them";
  IntervalSet local;
  SmallVector<int64_t> index;
  for (IntervalSet::Interval c : coords)
    index.push_back(c.first);
  while (true) {
    int64_t base = 0;
    for (size_t m = 0; m + 1 < coords.size(); ++m)
      base += index[m] * pitches[m];
    local.insert(base + coords.back().first, base + coords.back().second);
    int m = static_cast<int>(coords.size()) - 2;
    for (; m >= 0; --m) {
      if (index[m] < coords[m].second) {
        ++index[m];
        break;
      }
      index[m] = coords[m].first;
    }
    if (m < 0)
      break;
  }
  return ThreadSet::get(task, local);
}
