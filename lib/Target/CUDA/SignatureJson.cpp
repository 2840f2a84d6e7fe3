//===- SignatureJson.cpp - host API signatures as JSON --------------------===//
//
// Part of ExoGPU. See include/ExoGPU/Target/CUDA/SignatureJson.h. The format
// (docs/python.md, "The signature"):
//
//   {"format": 1, "procs": [{
//      "name": "gemv", "location": "gemv.mlir:1",
//      "declaration": "cudaError_t gemv(cudaStream_t stream, ...)",
//      "params": [{"name": "M", "kind": "size"},
//                 {"name": "A", "kind": "data", "dtype": "f32",
//                  "shape": ["M", "N"], "shape_text": ["M", "N"],
//                  "memory": "CudaGmemLinear", "host": false,
//                  "access": "read"}, ...],
//      "requires": {"text": "M mod 128 == 0 and N > 0",
//                   "dnf": [[["==", ["mod", "M", 128], 0], [">", "N", 0]]]}}]}
//
// An expression is an integer (a constant), a string (a control parameter)
// or a list [op, lhs, rhs] with op one of "+", "*", "floordiv", "ceildiv",
// "mod" (floor division and its non-negative remainder, divisors positive).
// A condition is in disjunctive normal form: a list of conjunctions, each a
// list of atoms: [rel, lhs, rhs] with rel one of "==", "<", "<=", ">", ">=",
// a string (a bool parameter), or true / false.
//
//===----------------------------------------------------------------------===//

#include "ExoGPU/Target/CUDA/SignatureJson.h"
#include "CodeWriter.h"
#include "ExoGPU/Dialect/ExoGPU/IR/ControlExpr.h"
#include "ExoGPU/Dialect/ExoGPU/IR/Libraries.h"
#include "ExoGPU/Dialect/ExoGPU/IR/ParamAccess.h"
#include "HostEmitter.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/JSON.h"

using namespace mlir;
using namespace mlir::exogpu;
using namespace mlir::exogpu::cuda;

/// The JSON spelling of a parameter kind.
static StringRef getKindName(ParamKind kind) {
  switch (kind) {
  case ParamKind::size:
    return "size";
  case ParamKind::index:
    return "index";
  case ParamKind::boolean:
    return "bool";
  case ParamKind::data:
    return "data";
  case ParamKind::barrier:
    break;
  }
  llvm_unreachable("verified: procs take no barrier parameters");
}

/// The JSON spelling of an access mode.
static StringRef getAccessName(ParamAccessMode mode) {
  switch (mode) {
  case ParamAccessMode::ReadOnly:
    return "read";
  case ParamAccessMode::WriteOnly:
    return "write";
  case ParamAccessMode::ReadWrite:
    return "read_write";
  }
  llvm_unreachable("unknown access mode");
}

/// The JSON spelling of a binary operator of a control expression.
static StringRef getOperatorName(AffineExprKind kind) {
  switch (kind) {
  case AffineExprKind::Add:
    return "+";
  case AffineExprKind::Mul:
    return "*";
  case AffineExprKind::FloorDiv:
    return "floordiv";
  case AffineExprKind::CeilDiv:
    return "ceildiv";
  case AffineExprKind::Mod:
    return "mod";
  default:
    llvm_unreachable("not a binary operator");
  }
}

/// The JSON spelling of a relation of a condition.
static StringRef getRelationName(ConditionAtomKind kind) {
  switch (kind) {
  case ConditionAtomKind::Eq:
    return "==";
  case ConditionAtomKind::Lt:
    return "<";
  case ConditionAtomKind::Le:
    return "<=";
  case ConditionAtomKind::Gt:
    return ">";
  case ConditionAtomKind::Ge:
    return ">=";
  default:
    llvm_unreachable("not a relation");
  }
}

/// Writes `expr` as an expression tree whose dimension `i` is `names[i]`.
static void writeExpr(llvm::json::OStream &json, AffineExpr expr,
                      ArrayRef<StringRef> names) {
  if (auto constant = dyn_cast<AffineConstantExpr>(expr))
    return json.value(constant.getValue());
  if (auto dim = dyn_cast<AffineDimExpr>(expr))
    return json.value(names[dim.getPosition()]);
  // Verified control maps have no symbols: the rest are binary operators.
  auto binary = cast<AffineBinaryOpExpr>(expr);
  json.array([&] {
    json.value(getOperatorName(expr.getKind()));
    writeExpr(json, binary.getLHS(), names);
    writeExpr(json, binary.getRHS(), names);
  });
}

/// Writes `condition` in disjunctive normal form (see the file comment).
static void writeCondition(llvm::json::OStream &json, ConditionAttr condition,
                           ArrayRef<StringRef> names) {
  AffineMap map = condition.getMap();
  unsigned next = 0;
  json.arrayBegin();
  json.arrayBegin();
  for (int64_t raw : condition.getAtoms()) {
    auto kind = static_cast<ConditionAtomKind>(raw);
    switch (kind) {
    case ConditionAtomKind::Or:
      json.arrayEnd();
      json.arrayBegin();
      break;
    case ConditionAtomKind::True:
    case ConditionAtomKind::False:
      json.value(kind == ConditionAtomKind::True);
      break;
    case ConditionAtomKind::Bool:
      writeExpr(json, map.getResult(next++), names);
      break;
    default:
      json.array([&] {
        json.value(getRelationName(kind));
        writeExpr(json, map.getResult(next++), names);
        writeExpr(json, map.getResult(next++), names);
      });
      break;
    }
  }
  json.arrayEnd();
  json.arrayEnd();
}

/// Writes one data parameter's fields after its name and kind.
static void writeDataParam(llvm::json::OStream &json, ProcOp proc, unsigned i,
                           ParamAccessMode mode, ArrayRef<StringRef> names) {
  auto type = cast<BufferTypeInterface>(proc.getParam(i).getType());
  std::string dtype;
  llvm::raw_string_ostream(dtype) << type.getElementType();
  json.attribute("dtype", dtype);
  AffineMap extents = proc.getParamExtents(i);
  json.attributeArray("shape", [&] {
    for (AffineExpr extent : extents.getResults())
      writeExpr(json, extent, names);
  });
  json.attributeArray("shape_text", [&] {
    for (AffineExpr extent : extents.getResults()) {
      std::string text;
      llvm::raw_string_ostream os(text);
      printControlExpr(os, extent, names);
      json.value(text);
    }
  });
  MemoryAttr memory = type.getMemory();
  std::string memoryName = stringifyMemoryKind(memory.getKind()).str();
  if (!memory.getArgs().empty()) {
    SmallVector<std::string> args = llvm::map_to_vector(
        memory.getArgs(), [](int64_t arg) { return std::to_string(arg); });
    memoryName += "(" + llvm::join(args, ", ") + ")";
  }
  json.attribute("memory", memoryName);
  json.attribute("host", memory.isHost());
  json.attribute("access", getAccessName(mode));
}

/// Writes the description of `proc`.
static void writeProc(llvm::json::OStream &json, ProcOp proc) {
  SmallVector<StringRef> names =
      llvm::map_to_vector(proc.getArgNames(), [](Attribute name) {
        return cast<StringAttr>(name).getValue();
      });
  SmallVector<ParamAccessMode> modes = getParamAccessModes(proc);
  json.object([&] {
    json.attribute("name", proc.getSymName());
    json.attribute("location", formatLocation(proc.getLoc()));
    json.attribute("declaration", getHostSignature(proc));
    json.attributeArray("params", [&] {
      for (unsigned i = 0, e = proc.getNumParams(); i < e; ++i) {
        json.object([&] {
          json.attribute("name", names[i]);
          json.attribute("kind", getKindName(proc.getParamKind(i)));
          if (proc.getParamKind(i) == ParamKind::data)
            writeDataParam(json, proc, i, modes[i], names);
        });
      }
    });
    ConditionAttr preconditions = proc.getPreconditionsAttr();
    if (!preconditions) {
      json.attribute("requires", nullptr);
      return;
    }
    json.attributeObject("requires", [&] {
      std::string text;
      llvm::raw_string_ostream os(text);
      printCondition(os, preconditions, names);
      json.attribute("text", text);
      json.attributeBegin("dnf");
      writeCondition(json, preconditions, names);
      json.attributeEnd();
    });
  });
}

/// The files `module` imports, directly or not, each once (their real
/// paths), for a cache that must see when one of them changes.
static SmallVector<std::string> getImportedFiles(ModuleOp module) {
  llvm::SetVector<const Library *> files;
  for (ImportOp import : module.getOps<ImportOp>()) {
    FailureOr<const Library *> library = import.getLibrary();
    if (failed(library))
      continue;
    files.insert_range((*library)->closure);
    files.insert(*library);
  }
  return llvm::map_to_vector(files,
                             [](const Library *file) { return file->path; });
}

/// The signatures of every proc of `linked` (`module` with its imports
/// linked) as JSON.
static void writeSignatures(ModuleOp module, ModuleOp linked, raw_ostream &os) {
  {
    llvm::json::OStream json(os, /*IndentSize=*/2);
    json.object([&] {
      json.attribute("format", 1);
      json.attributeArray("imports", [&] {
        for (const std::string &file : getImportedFiles(module))
          json.value(file);
      });
      json.attributeArray("procs", [&] {
        for (ProcOp proc : linked.getOps<ProcOp>())
          writeProc(json, proc);
      });
    });
  }
  os << "\n";
}

LogicalResult mlir::exogpu::translateModuleToSignatureJson(ModuleOp module,
                                                           raw_ostream &os) {
  return withImportsLinked(module, [&](ModuleOp linked) {
    writeSignatures(module, linked, os);
    return success();
  });
}
