//===- HostEmitter.cpp - procs as host functions --------------------------===//
//
// Part of ExoGPU (internal to the CUDA translation). Each proc becomes a host
// function over device pointers and sizes on one CUDA stream (the host API of
// docs/cuda-translation.md): it checks its preconditions, runs its CPU-scope
// statements (seeds/002 Sec. 3.4), encodes the tensor maps of its
// Sm90_tensorMap windows (Fig. 14) and launches a persistent kernel for each
// device function, returning the first CUDA error it meets.
//
//===----------------------------------------------------------------------===//

#include "HostEmitter.h"
#include "ControlBounds.h"
#include "KernelEmitter.h"

using namespace mlir;
using namespace mlir::exogpu;
using namespace mlir::exogpu::cuda;

/// The C++ type of host parameter `i` of `proc`.
static std::string getHostParamType(ProcOp proc, unsigned i) {
  switch (proc.getParamKind(i)) {
  case ParamKind::size:
  case ParamKind::index:
    return "int64_t";
  case ParamKind::boolean:
    return "bool";
  case ParamKind::data: {
    auto type = cast<BufferTypeInterface>(proc.getParam(i).getType());
    bool readOnly = !mayWrite(proc, proc.getParam(i));
    return std::string(readOnly ? "const " : "") +
           getCType(type.getElementType()) + " *";
  }
  case ParamKind::barrier:
    return "<barrier>";
  }
  return "<unknown>";
}

std::string mlir::exogpu::cuda::getHostSignature(ProcOp proc) {
  std::string signature =
      "cudaError_t " + proc.getSymName().str() + "(cudaStream_t stream";
  NameTable names;
  for (unsigned i = 0, e = proc.getNumParams(); i < e; ++i) {
    std::string type = getHostParamType(proc, i);
    signature +=
        ", " + type + (type.back() == '*' ? "" : " ") +
        names.bind(proc.getParam(i), getPreferredName(proc.getParam(i), "arg"));
  }
  return signature + ")";
}

bool HostEmitter::fitsInt32(ArrayRef<AffineExpr> extents) {
  if (extents.size() != 1)
    return extents.empty();
  if (auto c = dyn_cast<AffineConstantExpr>(extents[0]))
    return c.getValue() <= std::numeric_limits<int32_t>::max();
  auto dim = dyn_cast<AffineDimExpr>(extents[0]);
  auto param =
      dim ? dyn_cast<BlockArgument>(state.space.getValue(dim.getPosition()))
          : BlockArgument();
  return param && param.getOwner()->getParentOp() == state.proc &&
         state.proc.getParamKind(param.getArgNumber()) == ParamKind::size;
}

std::string HostEmitter::printElementCount(ArrayRef<AffineExpr> extents) {
  std::string list;
  for (AffineExpr extent : extents)
    list += (list.empty() ? "" : ", ") + state.print(extent);
  return "exo::element_count({" + list + "})";
}

void HostEmitter::emitSplitChecks(ArrayRef<AffineExpr> remainders) {
  std::string condition;
  for (AffineExpr remainder : remainders)
    condition +=
        (condition.empty() ? "" : " || ") + state.print(remainder) + " != 0";
  out.line("if (" + condition + ")");
  out.line("  return cudaErrorInvalidValue;");
}

HostEmitter::HostEmitter(ProcState &state, CodeWriter &out,
                         raw_ostream &kernels)
    : FunctionEmitter(state, out), kernels(kernels) {}

LogicalResult HostEmitter::emitProc() {
  ProcOp proc = state.proc;
  for (unsigned i = 0, e = proc.getNumParams(); i < e; ++i) {
    Value param = proc.getParam(i);
    state.names.bind(param, getPreferredName(param, "arg"));
    switch (proc.getParamKind(i)) {
    case ParamKind::size:
      state.ranges[param] = IntRange::nonNegative();
      break;
    case ParamKind::data:
      if (failed(state.addRoot(param, proc.getLoc())))
        return failure();
      break;
    case ParamKind::barrier:
      return emitInternalError(proc.getLoc())
             << "procs take no barrier parameters";
    default:
      break;
    }
  }
  out.comment(state.describe(proc));
  out.open("extern \"C\" " + getHostSignature(proc));
  // Sizes are non-negative and, like every data parameter's element count,
  // fit the 32-bit indexing of the kernels.
  std::string sizes;
  for (unsigned i = 0, e = proc.getNumParams(); i < e; ++i) {
    if (proc.getParamKind(i) != ParamKind::size)
      continue;
    std::string name = state.print(proc.getParam(i));
    sizes += (sizes.empty() ? "" : " || ") + name + " < 0 || " + name +
             " > INT32_MAX";
  }
  if (!sizes.empty()) {
    out.comment("Sizes are non-negative and fit 32-bit device indexing");
    out.line("if (" + sizes + ")");
    out.line("  return cudaErrorInvalidValue;");
  }
  for (unsigned i = 0, e = proc.getNumParams(); i < e; ++i) {
    if (proc.getParamKind(i) != ParamKind::data)
      continue;
    const RootBuffer &root = *state.roots[proc.getParam(i)];
    if (!root.isDevice || fitsInt32(root.extents))
      continue;
    out.line("if (" + printElementCount(root.extents) + " > INT32_MAX)");
    out.line("  return cudaErrorInvalidValue;");
  }
  if (ConditionAttr preconditions = proc.getPreconditionsAttr()) {
    std::string condition =
        state.printCondition(preconditions, proc.getBody().getArguments());
    out.comment("The proc's preconditions (`requires`)");
    out.line("if (!(" + condition + "))");
    out.line("  return cudaErrorInvalidValue;");
  }
  if (failed(emitBlock(proc.getBody().front())))
    return failure();
  out.line("return cudaSuccess;");
  out.close();
  return success();
}

LogicalResult HostEmitter::emitOp(Operation *op) {
  if (auto deviceFunction = dyn_cast<DeviceFunctionOp>(op))
    return emitLaunch(deviceFunction);
  if (auto alloc = dyn_cast<AllocOp>(op))
    return emitAlloc(alloc);
  if (isa<FreeOp>(op))
    return success(); // storage ends with its C++ block
  if (auto window = dyn_cast<WindowOp>(op))
    return window.getSpecial() ? emitTensorMap(window)
                               : FunctionEmitter::emitOp(op);
  if (auto call = dyn_cast<CallOp>(op)) {
    if (ProcOp proc = call.lookupProc())
      return emitProcCall(call, proc);
  }
  return FunctionEmitter::emitOp(op);
}

LogicalResult HostEmitter::checkSplitExtent(SplitOp split,
                                            AffineExpr remainder) {
  out.comment(state.describe(split));
  out.comment("The split dimension's extent is a multiple of the factor");
  emitSplitChecks(remainder);
  return success();
}

LogicalResult HostEmitter::emitAlloc(AllocOp alloc) {
  Value value = alloc.getResult();
  auto type = dyn_cast<BufferTypeInterface>(value.getType());
  if (!type)
    return emitInternalError(alloc.getLoc())
           << "barriers are allocated in device code";
  FailureOr<RootBuffer *> root = state.addRoot(value, alloc.getLoc());
  if (failed(root))
    return failure();
  RootBuffer &buffer = **root;
  std::string count;
  for (AffineExpr extent : buffer.extents) {
    std::string text = state.print(extent);
    if (text.find_first_of("+-*/%") != std::string::npos)
      text = "(" + text + ")";
    count +=
        (count.empty() ? "static_cast<size_t>(" + text + ")" : " * " + text);
  }
  if (count.empty())
    count = "1";
  std::string ctype = getCType(buffer.elementType);
  std::string storage = state.names.fresh(buffer.name + "_storage");
  out.comment(state.describe(alloc));
  if (buffer.isDevice) {
    if (!fitsInt32(buffer.extents)) {
      out.line("if (" + printElementCount(buffer.extents) + " > INT32_MAX)");
      out.line("  return cudaErrorInvalidValue;");
    }
    out.line("exo::DeviceArray<" + ctype + "> " + storage + "(stream);");
    out.line("EXOGPU_TRY(" + storage + ".allocate(" + count + "));");
    out.line(ctype + " *const " + buffer.name + " = " + storage + ".get();");
  } else {
    out.line("std::vector<" + ctype + "> " + storage + "(" + count + ");");
    out.line(ctype + " *const " + buffer.name + " = " + storage + ".data();");
  }
  return success();
}

/// The CUtensorMapDataType of an element type.
static std::optional<StringRef> getTensorMapType(Type type) {
  if (type.isF32())
    return StringRef("CU_TENSOR_MAP_DATA_TYPE_FLOAT32");
  if (type.isF64())
    return StringRef("CU_TENSOR_MAP_DATA_TYPE_FLOAT64");
  if (type.isF16())
    return StringRef("CU_TENSOR_MAP_DATA_TYPE_FLOAT16");
  if (type.isBF16())
    return StringRef("CU_TENSOR_MAP_DATA_TYPE_BFLOAT16");
  if (type.isInteger(32) && !type.isUnsignedInteger())
    return StringRef("CU_TENSOR_MAP_DATA_TYPE_INT32");
  if (type.isInteger(16))
    return StringRef("CU_TENSOR_MAP_DATA_TYPE_UINT16");
  if (type.isInteger(8))
    return StringRef("CU_TENSOR_MAP_DATA_TYPE_UINT8");
  return std::nullopt;
}

LogicalResult HostEmitter::emitTensorMap(WindowOp window) {
  if (failed(emitWindow(window)))
    return failure();
  const BufferView &view = state.views[window.getResult()];
  const RootBuffer &root = *view.root;
  SpecialWindowAttr special = *window.getSpecial();
  SmallVector<unsigned> dims = view.getIntervalDims();
  ArrayRef<int64_t> box = special.getBox();
  if (dims.back() != view.extents.size() - 1)
    return emitTranslationError(window.getLoc())
           << "TMA needs the innermost dimension of the window to be the "
              "buffer's contiguous one";
  std::optional<StringRef> dataType = getTensorMapType(root.elementType);
  if (!dataType)
    return emitInternalError(window.getLoc())
           << "TMA has no data type for " << root.elementType;
  int64_t elementBytes = root.elementType.getIntOrFloatBitWidth() / 8;
  int64_t swizzle = special.getSwizzle();
  if (swizzle && box.back() * elementBytes > swizzle)
    return emitTranslationError(window.getLoc())
           << "the box's inner extent (" << box.back() * elementBytes
           << " bytes) exceeds the " << swizzle << "-byte swizzle span";
  std::string name = state.names.bind(
      window.getResult(), getPreferredName(window.getResult(), "tensor_map"));
  state.tensorMaps[window.getResult()] = {name, view, special};
  FailureOr<std::string> address = state.pointerTo(view, window.getLoc());
  if (failed(address))
    return failure();
  // Dimensions, byte strides and box, innermost first.
  auto wrap = [](std::string text) {
    return text.find_first_of("+-*/%") == std::string::npos ? text
                                                            : "(" + text + ")";
  };
  std::string extents, strides, boxText;
  for (unsigned i = dims.size(); i-- > 0;) {
    extents += (extents.empty() ? "" : ", ") + std::string("cuuint64_t(") +
               state.print(view.dims[dims[i]].extent) + ")";
    boxText += (boxText.empty() ? "" : ", ") + std::to_string(box[i]);
    if (i + 1 == dims.size())
      continue;
    std::string stride = std::to_string(elementBytes);
    for (unsigned d = dims[i] + 1; d < view.extents.size(); ++d)
      stride += " * " + wrap(state.print(view.extents[d]));
    strides += (strides.empty() ? "" : ", ") + std::string("cuuint64_t(") +
               stride + ")";
  }
  // Encoded once per call site, tensor and shape (exo::TensorMapCache).
  out.comment(state.describe(window));
  out.line("CUtensorMap " + name + ";");
  out.open("");
  out.line("static thread_local exo::TensorMapCache cache;");
  out.line("const cuuint64_t dims[] = {" + extents + "};");
  if (!strides.empty())
    out.line("const cuuint64_t strides[] = {" + strides + "};");
  out.line("const cuuint32_t box[] = {" + boxText + "};");
  out.line("EXOGPU_TRY(cache.encode(&" + name + ", " + dataType->str() + ", " +
           std::to_string(dims.size()) + ", " + *address + ", dims, " +
           (strides.empty() ? "nullptr" : "strides") +
           ", box, CU_TENSOR_MAP_SWIZZLE_" +
           (swizzle ? std::to_string(swizzle) + "B" : std::string("NONE")) +
           "));");
  out.close();
  return success();
}

LogicalResult HostEmitter::emitLaunch(DeviceFunctionOp deviceFunction) {
  std::string name =
      state.names.fresh(state.proc.getSymName().str() + "_kernel");
  FailureOr<KernelLaunch> launch =
      emitKernel(state, deviceFunction, name, kernels);
  if (failed(launch))
    return failure();
  out.comment(state.describe(deviceFunction));
  out.open("");
  std::string tasks;
  for (ForOp loop : launch->taskLoops) {
    AffineExpr lo = state.space.lift(loop.getLowerBoundExpr(), loop.getCtrl());
    AffineExpr hi = state.space.lift(loop.getUpperBoundExpr(), loop.getCtrl());
    std::string count = state.print(normalizeControlExpr(hi - lo));
    tasks += (tasks.empty() ? "" : " * ") + std::string("std::max<int64_t>(") +
             count + ", 0)";
  }
  FailureOr<KernelControlBounds> bounds = boundKernelControlValues(
      state, launch->controlExprs, launch->params, deviceFunction.getLoc());
  if (failed(bounds))
    return failure();
  const CollParams &params = launch->collParams;
  if (!launch->splitRemainders.empty()) {
    out.comment("The kernel's split dimensions are multiples of their split "
                "factors");
    emitSplitChecks(launch->splitRemainders);
  }
  out.line("const int64_t exo_tasks = " + tasks + ";");
  if (!bounds->checks.empty()) {
    out.comment("The kernel computes its control values in int: refuse "
                "values that could leave 32 bits");
    for (auto [i, check] : llvm::enumerate(bounds->checks)) {
      bool last = i + 1 == bounds->checks.size();
      out.line((i ? "    " : "if (") + check + " > INT32_MAX" +
               (last ? ")" : " ||"));
    }
    out.line("  return cudaErrorInvalidValue;");
  }
  out.comment("The kernel counts its tasks in int");
  out.line("if (exo_tasks > INT32_MAX)");
  out.line("  return cudaErrorInvalidValue;");
  out.open("if (exo_tasks > 0)");
  std::string smem = std::to_string(launch->smemBytes);
  if (launch->smemBytes > 48 * 1024)
    out.line("EXOGPU_TRY(cudaFuncSetAttribute(" + name +
             ", cudaFuncAttributeMaxDynamicSharedMemorySize, " + smem + "));");
  out.line("unsigned exo_grid = 0;");
  out.line("EXOGPU_TRY(exo::persistent_grid(" + name + ", " +
           std::to_string(params.blockDim) + ", " +
           std::to_string(params.clusterDim) + ", " + smem +
           ", exo_tasks, &exo_grid));");
  out.comment("Its task index runs up to exo_tasks + the grid");
  out.line("if (exo_tasks > INT32_MAX - int64_t(exo_grid))");
  out.line("  return cudaErrorInvalidValue;");
  std::string args;
  for (Value value : launch->params) {
    std::string arg = state.print(value);
    if (value.getType().isIndex())
      arg = "static_cast<int>(" + arg + ")";
    args += ", " + arg;
  }
  out.line("EXOGPU_TRY(exo::launch(" + name + ", exo_grid, " +
           std::to_string(params.blockDim) + ", " +
           std::to_string(params.clusterDim) + ", " + smem + ", stream" + args +
           "));");
  out.close();
  out.close();
  return success();
}

/// The elements [first, last) of its root buffer that a dense view covers,
/// in row-major order, when its window and its extents are constants.
static std::optional<std::pair<int64_t, int64_t>>
getConstantElementRange(const BufferView &view) {
  int64_t first = 0, count = 1;
  for (auto [dim, extent] : llvm::zip(view.dims, view.extents)) {
    auto storageExtent = dyn_cast<AffineConstantExpr>(extent);
    auto lo = dyn_cast<AffineConstantExpr>(dim.lo);
    auto width = dim.isPoint ? AffineConstantExpr()
                             : dyn_cast<AffineConstantExpr>(dim.extent);
    if (!storageExtent || !lo || (!dim.isPoint && !width))
      return std::nullopt;
    first = first * storageExtent.getValue() + lo.getValue();
    count *= dim.isPoint ? 1 : width.getValue();
  }
  // `count` spans the interval and the whole dimensions after it.
  return std::make_pair(first, first + count);
}

/// Whether two dense views of one buffer may share an element.
static bool mayOverlap(const BufferView &a, const BufferView &b) {
  std::optional<std::pair<int64_t, int64_t>> ra = getConstantElementRange(a),
                                             rb = getConstantElementRange(b);
  if (!ra || !rb)
    return true;
  return ra->first < rb->second && rb->first < ra->second;
}

LogicalResult HostEmitter::emitProcCall(CallOp call, ProcOp callee) {
  FailureOr<SmallVector<BufferView>> views = getCallViews(call);
  if (failed(views))
    return failure();
  // The callee's kernels take their buffers `__restrict__` (nvcc may move
  // a load of one parameter across a store to another): two arguments the
  // callee may write one of must not overlap (issue 30, class H).
  SmallVector<std::pair<unsigned, bool>> dataParams;
  for (unsigned i = 0, e = callee.getNumParams(); i < e; ++i)
    if (callee.getParamKind(i) == ParamKind::data)
      dataParams.push_back({i, mayWrite(callee, callee.getParam(i))});
  for (auto [a, first] : llvm::enumerate(dataParams))
    for (auto [b, second] : llvm::enumerate(dataParams)) {
      if (b <= a || (!first.second && !second.second))
        continue;
      const BufferView &viewA = (*views)[a], &viewB = (*views)[b];
      if (viewA.root != viewB.root || !mayOverlap(viewA, viewB))
        continue;
      return emitTranslationError(call.getLoc())
             << "arguments " << a << " and " << b << " of this call may "
             << "overlap (both are windows of " << viewA.root->name << ") and @"
             << callee.getSymName()
             << " writes one of them; its parameters do not alias "
                "(__restrict__ in its kernels): pass disjoint windows with "
                "constant bounds, or a copy";
    }
  std::string args;
  unsigned data = 0, ctrl = 0;
  for (unsigned i = 0, e = callee.getNumParams(); i < e; ++i) {
    if (callee.getParamKind(i) != ParamKind::data) {
      args += ", " + printControlArg(call, ctrl++, callee.getParamKind(i));
      continue;
    }
    const BufferView &view = (*views)[data++];
    // The callee takes a dense row-major buffer: points, then one interval,
    // then whole dimensions.
    bool dense = true, seenInterval = false;
    for (auto [d, dim] : llvm::enumerate(view.dims)) {
      bool whole = !dim.isPoint &&
                   dim.lo == getAffineConstantExpr(0, call.getContext()) &&
                   dim.extent == view.extents[d];
      if (seenInterval && !whole)
        dense = false;
      seenInterval |= !dim.isPoint;
    }
    if (!dense)
      return emitTranslationError(call.getLoc())
             << "argument " << data - 1
             << " is not a contiguous block of its buffer, which a proc "
                "parameter needs";
    FailureOr<std::string> pointer = state.pointerTo(view, call.getLoc());
    if (failed(pointer))
      return failure();
    args += ", " + *pointer;
  }
  out.comment(state.describe(call));
  out.line("EXOGPU_TRY(" + callee.getSymName().str() + "(stream" + args +
           "));");
  return success();
}
