//===- BoundProc.cpp - a proc at concrete control values ------------------===//
//
// Part of ExoGPU. See BoundProc.h.
//
//===----------------------------------------------------------------------===//

#include "ExoGPU/Runner/BoundProc.h"
#include "ExoGPU/Dialect/ExoGPU/IR/ControlExpr.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::exogpu;
using namespace mlir::exogpu::runner;

static llvm::Error error(const Twine &message) {
  return llvm::createStringError(message.str());
}

llvm::Expected<BoundProc> BoundProc::describe(ProcOp proc) {
  BoundProc bound;
  bound.proc = proc;
  SmallVector<ParamAccessMode> modes = getParamAccessModes(proc);
  for (unsigned i = 0, e = proc.getNumParams(); i < e; ++i) {
    ParamInfo &param = bound.params.emplace_back();
    param.name = cast<StringAttr>(proc.getArgNames()[i]).getValue().str();
    param.kind = proc.getParamKind(i);
    if (!param.isData())
      continue;
    auto type = cast<BufferTypeInterface>(proc.getParam(i).getType());
    std::optional<Precision> precision = getPrecision(type.getElementType());
    if (!precision)
      return error("@" + proc.getSymName() + ": %" + param.name +
                   " has a precision the runner cannot hold");
    param.precision = *precision;
    param.mode = modes[i];
    param.isHostMemory = type.getMemory().isHost();
    param.extents = proc.getParamExtents(i);
  }
  bound.values.assign(bound.params.size(), 0);
  return bound;
}

llvm::Expected<BoundProc> BoundProc::bind(ProcOp proc, StringRef values) {
  llvm::Expected<BoundProc> described = describe(proc);
  if (!described)
    return described.takeError();
  BoundProc &bound = *described;
  std::string where = ("@" + proc.getSymName()).str();
  SmallVector<bool> given(bound.params.size(), false);
  SmallVector<StringRef> items;
  values.split(items, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (StringRef item : items) {
    auto [name, text] = item.split('=');
    name = name.trim();
    text = text.trim();
    auto it = llvm::find_if(bound.params,
                            [&](const ParamInfo &p) { return p.name == name; });
    if (it == bound.params.end())
      return error(where + " has no parameter %" + name);
    unsigned i = it - bound.params.begin();
    if (it->isData())
      return error("%" + name + " is a data parameter of " + where +
                   "; give control parameters only");
    int64_t value = 0;
    if (it->kind == ParamKind::boolean && (text == "true" || text == "false"))
      value = text == "true";
    else if (text.getAsInteger(10, value) ||
             (it->kind == ParamKind::boolean && value != 0 && value != 1))
      return error("malformed value '" + text + "' for %" + name);
    if (it->kind == ParamKind::size && value <= 0)
      return error("size %" + name + " must be positive, got " + Twine(value));
    if (given[i])
      return error("%" + name + " is given twice");
    given[i] = true;
    bound.values[i] = value;
  }
  for (auto [param, has] : llvm::zip(bound.params, given))
    if (!param.isData() && !has)
      return error(where + " needs a value for %" + param.name + " (add " +
                   param.name + "=<value> to the sizes)");
  SmallVector<StringRef> names = llvm::map_to_vector(
      bound.params, [](const ParamInfo &p) { return StringRef(p.name); });
  if (ConditionAttr pre = proc.getPreconditionsAttr();
      pre && !pre.evaluate(bound.values)) {
    std::string clause;
    llvm::raw_string_ostream os(clause);
    printCondition(os, pre, names);
    return error("precondition of " + where + " does not hold at " +
                 bound.formatValues() + ": requires " + clause);
  }
  for (auto [i, param] : llvm::enumerate(bound.params)) {
    if (!param.isData())
      continue;
    for (auto [dim, extent] : llvm::enumerate(param.extents.getResults())) {
      int64_t value = evaluateControlExpr(extent, bound.values);
      if (value < 0)
        return error("extent " + Twine(dim) + " of " + param.name + " is " +
                     Twine(value) + " at " + bound.formatValues());
      param.shape.push_back(value);
    }
  }
  return std::move(bound);
}

std::string BoundProc::formatValues() const {
  SmallVector<std::string> parts;
  for (auto [param, value] : llvm::zip(params, values))
    if (!param.isData())
      parts.push_back(param.name + "=" + std::to_string(value));
  return llvm::join(parts, ", ");
}

llvm::Error runner::checkSameSignature(const BoundProc &reference,
                                       const BoundProc &other) {
  std::string a = ("@" + reference.getProc().getSymName()).str();
  std::string b = ("@" + other.getProc().getSymName()).str();
  ArrayRef<ParamInfo> left = reference.getParams();
  ArrayRef<ParamInfo> right = other.getParams();
  if (left.size() != right.size())
    return error(a + " has " + Twine(left.size()) + " parameters, " + b +
                 " has " + Twine(right.size()));
  for (auto [i, l, r] : llvm::enumerate(left, right)) {
    std::string where = "parameter " + std::to_string(i) + " (%" + l.name +
                        " of " + a + ", %" + r.name + " of " + b + ")";
    if (l.kind != r.kind)
      return error(where + ": the kinds differ");
    if (!l.isData())
      continue;
    if (l.precision != r.precision)
      return error(where + ": " + getInfo(l.precision).name + " vs " +
                   getInfo(r.precision).name);
    if (l.shape != r.shape)
      return error(where + ": the extents differ");
  }
  return llvm::Error::success();
}
