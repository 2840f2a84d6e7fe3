//===- Translation.h - state of the CUDA translation ------------*- C++ -*-===//
//
// Part of ExoGPU (internal to the CUDA translation). The state shared by the
// pieces of the translation of one module: C++ names of values, buffers and
// the views windows make of them, and the emitters of host functions and
// kernels. Each piece lives in its own file:
//
//   Names.cpp             C++ identifiers for exogpu values
//   Buffers.cpp           how buffers are stored and indexed (Fig. 12)
//   CodeWriter.cpp        indented C++ text
//   ControlPrinter.cpp    control expressions as C++
//   FunctionEmitter.cpp   statements common to host and device code,
//                         instruction templates
//   ThreadMapping.cpp     cuda_threads loops and warps blocks (Sec. 4.2)
//   KernelStructure.cpp   the task nest and the warp groups' code paths
//   SharedMemoryPlan.cpp  static shared-memory offsets, mbarrier rings
//   SyncPlan.cpp          who arrives, at which scope, which proxy fences
//   SyncLowering.cpp      Fence, Arrive and Await (Fig. 13, 16)
//   KernelEmitter.cpp     device functions as persistent kernels
//   HostEmitter.cpp       procs as host functions
//   TranslateToCuda.cpp   the module, the header and the registration
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_LIB_TARGET_CUDA_TRANSLATION_H
#define EXOGPU_LIB_TARGET_CUDA_TRANSLATION_H

#include "CodeWriter.h"
#include "ControlPrinter.h"
#include "ExoGPU/Analysis/CollectiveAnalysis.h"
#include "ExoGPU/Analysis/DistributedMemory.h"
#include "ExoGPU/Dialect/ExoGPU/IR/ControlExpr.h"
#include "ExoGPU/Dialect/ExoGPU/IR/ExoGPUOps.h"
#include "ExoGPU/Target/CUDA/TranslateToCuda.h"
#include "mlir/IR/AsmState.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringSet.h"

#include <memory>

namespace mlir::exogpu::cuda {

//===----------------------------------------------------------------------===//
// Names
//===----------------------------------------------------------------------===//

/// C++ identifiers for the values of one proc (its host function and its
/// kernels share one table, so a value keeps its name across both). Names
/// are the user's (parameter, iterator, allocation and window names), made
/// unique and kept clear of C++ keywords, CUDA builtins and the `exo_`
/// prefix the translation reserves for its own variables.
class NameTable {
public:
  /// Binds `value` to a fresh identifier derived from `preferred`.
  const std::string &bind(Value value, StringRef preferred);
  /// A fresh identifier derived from `base`, bound to nothing.
  std::string fresh(StringRef base);
  /// The identifier of `value`; empty if unbound.
  StringRef lookup(Value value) const;

  /// The names taken so far. release(mark) frees the names taken after
  /// `mark` (their values stay bound): sibling C++ blocks reuse names.
  size_t mark() const { return taken.size(); }
  void release(size_t mark);

private:
  DenseMap<Value, std::string> names;
  llvm::StringSet<> used;
  std::vector<std::string> taken;
};

/// The name the user gave `value` (parameter, iterator, alloc or window
/// name), or `fallback`.
std::string getPreferredName(Value value, StringRef fallback);

/// The C++ type of an exogpu element type (`float`, `__nv_bfloat16`, ...).
std::string getCType(Type elementType);

/// `memory` as written in exogpu: `Sm90_SmemSwizzled(128)`.
std::string formatMemory(MemoryAttr memory);

/// A C++ literal of `value` in `elementType`.
std::string formatLiteral(TypedAttr value, Type elementType);

//===----------------------------------------------------------------------===//
// Buffers
//===----------------------------------------------------------------------===//

/// How the elements of a buffer are held in the emitted C++ (Fig. 12).
enum class StorageKind {
  /// Global or host memory: a pointer, row-major over the full extents.
  Pointer,
  /// Shared memory: a pointer into the kernel's dynamic shared memory,
  /// row-major over the shard extents, optionally swizzled.
  Shared,
  /// CudaRmem: a C array of the shard extents (a scalar for rank 0).
  Registers,
  /// Sm80/Sm90 register-matrix tiles: a C array of the leading shard
  /// extents, then the registers of one tile in the instruction's layout.
  RegisterMatrix,
};

/// A buffer with storage: a data parameter or an allocation.
struct RootBuffer {
  Value value;
  std::string name;
  Type elementType;
  MemoryAttr memory;
  StorageKind storage = StorageKind::Pointer;
  /// Extents of every dimension, over the proc's ControlSpace.
  SmallVector<AffineExpr> extents;
  /// Leading dimensions distributed over thread collectives (Sec. 4.1,
  /// guide rule 4): stripped from the storage and from every index.
  unsigned numDistributed = 0;
  /// Sm90_SmemSwizzled(B): B; 0 for linear layouts.
  int64_t swizzleBytes = 0;
  /// Register matrices: the threads that hold one tile (32 or 128).
  int64_t matrixThreads = 0;
  /// Whether the pointer is a device pointer (else host memory).
  bool isDevice = true;

  /// Elements of one register-matrix tile held by each thread.
  int64_t getRegistersPerTile() const;
  /// The storage extents of a shard (constant for Shared, Registers and
  /// RegisterMatrix storage; RegisterMatrix ends with the registers of a
  /// tile).
  SmallVector<int64_t> getShardShape() const;
};

/// One dimension of a buffer's storage (BufferView::extents) seen through
/// windows: a fixed point, or an interval [lo, lo + extent) that is one
/// dimension of the view.
struct ViewDim {
  bool isPoint = false;
  AffineExpr lo;
  AffineExpr extent;
};

/// A buffer seen through windows (seeds/002 Fig. 2 window statement) and
/// splits (exogpu.split): the root, the row-major extents the view indexes
/// the root's storage by and, per one of those dimensions, a point or an
/// interval. The extents are the root's, except that each split replaces
/// one of them, E, by two, [E / factor, factor]: a reshape of the same
/// row-major storage, so an element has the same linear offset under both.
struct BufferView {
  const RootBuffer *root = nullptr;
  /// The row-major extents `dims` index (the root's, reshaped by splits).
  SmallVector<AffineExpr, 4> extents;
  SmallVector<ViewDim, 4> dims;

  /// The intervals of the view, in order (its dimensions).
  SmallVector<unsigned> getIntervalDims() const;
};

/// A tensor-map window (Fig. 14 Sm90_tensorMap): a CUtensorMap the host
/// encodes for a global-memory window.
struct TensorMapInfo {
  std::string name;
  BufferView view;
  SpecialWindowAttr special;
};

//===----------------------------------------------------------------------===//
// Translation state
//===----------------------------------------------------------------------===//

/// The state of one module's translation.
struct ModuleState {
  ModuleOp module;
  CudaTranslationOptions options;
  std::unique_ptr<CollectiveAnalysis> collective;
  std::unique_ptr<DistributedMemoryAnalysis> distributed;
};

/// The state of one proc's translation: names, control values, buffers.
/// Its host function and its kernels share it.
class ProcState {
public:
  ProcState(ModuleState &module, ProcOp proc);

  ModuleState &module;
  ProcOp proc;
  ControlSpace space;
  NameTable names;
  /// Printing of op headers for source comments.
  AsmState asmState;

  /// Bounds of control values (sizes are non-negative; loop iterators lie
  /// within their bounds).
  DenseMap<Value, IntRange> ranges;
  DenseMap<Value, std::unique_ptr<RootBuffer>> roots;
  /// Every data buffer value (parameter, allocation, window) and its view.
  DenseMap<Value, BufferView> views;
  DenseMap<Value, TensorMapInfo> tensorMaps;

  /// Values the function being emitted uses but does not define, when it is
  /// a kernel (`importScope` is its device_function): its parameters.
  Operation *importScope = nullptr;
  llvm::SetVector<Value> imports;

  /// Records a use of `value` for the kernel being emitted.
  void noteUse(Value value);

  /// When set (while a kernel is emitted), every control expression printed
  /// is appended here, over the space: the host function bounds them
  /// (ControlBounds.h).
  SmallVectorImpl<AffineExpr> *printedExprs = nullptr;

  /// How often the emitted code named each value (a loop iterator whose
  /// value the code never reads gets no declaration).
  DenseMap<Value, unsigned> useCounts;

  /// Bounds of dimension `dim` of the space.
  IntRange getDimRange(unsigned dim);
  /// A control expression over the space as C++.
  std::string print(AffineExpr expr);
  /// The value of control operand `value` as C++.
  std::string print(Value value);
  /// Control expressions of an op (map over its operands) as C++.
  std::string print(AffineExpr expr, ValueRange operands);
  /// A condition of an op as C++.
  std::string printCondition(ConditionAttr condition, ValueRange operands);

  /// The root buffer made for a data parameter or an allocation.
  FailureOr<RootBuffer *> addRoot(Value value, Location loc);
  /// The view of a buffer value; fails (with a diagnostic at `loc`) for a
  /// value the translation has not seen.
  FailureOr<BufferView> getView(Value buffer, Location loc);

  /// Applies window coordinates (`kinds` and `exprs` over the space) to a
  /// view (Fig. 1 WinCoord).
  FailureOr<BufferView> applyCoords(const BufferView &view,
                                    ArrayRef<int32_t> kinds,
                                    ArrayRef<AffineExpr> exprs, Location loc);
  /// Splits dimension `dim` of a view in two, [E / factor, factor]
  /// (exogpu.split). Fails, with a diagnostic at `loc`, where that is not a
  /// reshape of the root's row-major storage: registers, swizzled shared
  /// memory, a distributed dimension, or one that a window narrowed. The
  /// caller checks that E is a multiple of `factor`.
  FailureOr<BufferView> applySplit(const BufferView &view, unsigned dim,
                                   int64_t factor, Location loc);

  /// The C++ lvalue of the element of `view` at point `coords` (one per
  /// view dimension).
  FailureOr<std::string> elementRef(const BufferView &view,
                                    ArrayRef<AffineExpr> coords, Location loc);
  /// A pointer to the first element of `view` (the first register of a
  /// register view).
  FailureOr<std::string> pointerTo(const BufferView &view, Location loc);
  /// The elements of `view` in row-major order over its dimensions that are
  /// not distributed (`{p.N}` of a template).
  FailureOr<SmallVector<std::string>> listElements(const BufferView &view,
                                                   Location loc);
  /// The distance in elements between consecutive indices of dimension
  /// `dim` of `view` in its root's row-major storage, before any swizzle
  /// (`{p.strideN}` of a template); shared and global memory only.
  FailureOr<std::string> elementStride(const BufferView &view, unsigned dim,
                                       Location loc);

  /// A source comment for `op`: `file.mlir:12: for k in seq(0, K / 32)`.
  std::string describe(Operation *op);

private:
  /// The coordinates, over `view.extents`, of the element of `view` at
  /// `coords`.
  SmallVector<AffineExpr> toStorageCoords(const BufferView &view,
                                          ArrayRef<AffineExpr> coords);
  /// The C++ of the row-major offset of an element over `extents`.
  std::string linearOffset(ArrayRef<AffineExpr> coords,
                           ArrayRef<AffineExpr> extents);
  /// The row-major stride of a dimension whose inner extents are `inner`:
  /// the product of its constant extents and the C++ operands of the others.
  std::pair<int64_t, SmallVector<std::string>>
  strideFactors(ArrayRef<AffineExpr> inner);
};

/// `text`, parenthesized unless it is a name or a number: a C++ operand.
std::string wrapOperand(const std::string &text);

/// Emits an error at `loc` prefixed as a translation error.
InFlightDiagnostic emitTranslationError(Location loc);

/// Emits an error for a broken invariant: something the verifiers and the
/// analyses that run first rule out. The Debian MLIR build has no
/// assertions, so the translation checks what it relies on and reports it
/// instead of crashing; no valid input reaches these.
InFlightDiagnostic emitInternalError(Location loc);

/// Whether instruction parameter `param` is only read by the instruction's
/// body (Sec. 5.2.3 access modes).
bool isReadOnlyParam(InstrOp instr, unsigned param);

/// Whether `op` (or any op nested in it) may write the buffer `root`
/// through assignments, reductions, instruction arguments or proc calls.
bool mayWrite(Operation *op, Value root);

/// Refuses, with a diagnostic at the call, an instruction call in `kernel`
/// whose `kernel_read_only` parameter (#exogpu.arg) is a window of a buffer
/// the kernel writes (ReadOnlyArguments.cpp).
LogicalResult checkKernelReadOnlyArguments(ProcState &state,
                                           DeviceFunctionOp kernel);

} // namespace mlir::exogpu::cuda

#endif // EXOGPU_LIB_TARGET_CUDA_TRANSLATION_H
