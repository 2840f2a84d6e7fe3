//===- ImportOps.cpp - exogpu imports -------------------------------------===//
//
// Part of ExoGPU. `exogpu.import`: the library it names and the symbols it
// brings into its module (docs/design/exogpu-dialect.md "Imports").
//
//===----------------------------------------------------------------------===//

#include "ExoGPU/Dialect/ExoGPU/IR/ExoGPUOps.h"
#include "ExoGPU/Dialect/ExoGPU/IR/Libraries.h"

using namespace mlir;
using namespace mlir::exogpu;

#define GET_OP_CLASSES
#include "ExoGPU/Dialect/ExoGPU/IR/ImportOps.cpp.inc"

FailureOr<const Library *> ImportOp::getLibrary(bool emitErrors) {
  auto *dialect = cast<ExoGPUDialect>((*this)->getDialect());
  return dialect->getLibraries().load(*this, emitErrors);
}

/// Whether `a` and `b` are one definition: the same op, or copies of it (a
/// library prepended to the module that imports it).
static bool isSameDefinition(Operation *a, Operation *b) {
  return a == b || OperationEquivalence::isEquivalentTo(
                       a, b, OperationEquivalence::IgnoreLocations);
}

/// The file `loc` points into, for messages about definitions in other
/// files (which a diagnostic verifier could not match as notes).
static StringRef getFileName(Location loc) {
  auto file = loc->findInstanceOf<FileLineColLoc>();
  return file ? file.getFilename().getValue() : "<unknown file>";
}

LogicalResult ImportOp::verify() {
  if (getName().empty())
    return emitOpError("names no file");
  FailureOr<const Library *> library = getLibrary(/*emitErrors=*/true);
  if (failed(library))
    return failure();
  // What the module defines, and what the imports before this one bring.
  llvm::StringMap<Operation *> defined;
  llvm::StringMap<std::pair<Operation *, ImportOp>> imported;
  bool before = true;
  for (Operation &op : *(*this)->getBlock()) {
    if (auto symbol = dyn_cast<SymbolOpInterface>(op))
      defined.try_emplace(symbol.getName(), symbol);
    auto other = dyn_cast<ImportOp>(op);
    before &= other != *this;
    if (!before || !other)
      continue;
    FailureOr<const Library *> earlier = other.getLibrary();
    if (succeeded(earlier))
      for (const auto &[name, symbol] : (*earlier)->symbols)
        imported.try_emplace(name, symbol, other);
  }
  for (const auto &[name, symbol] : (*library)->symbols) {
    if (Operation *own = defined.lookup(name)) {
      if (isSameDefinition(own, symbol))
        continue;
      InFlightDiagnostic diag = emitOpError()
                                << "brings '@" << name << "' of "
                                << getFileName(symbol->getLoc())
                                << ", which this module also defines "
                                   "differently";
      diag.attachNote(own->getLoc()) << "the module's definition";
      return diag;
    }
    auto earlier = imported.find(name);
    if (earlier == imported.end() ||
        isSameDefinition(earlier->second.first, symbol))
      continue;
    InFlightDiagnostic diag =
        emitOpError() << "brings '@" << name << "' of "
                      << getFileName(symbol->getLoc())
                      << ", which an earlier import also brings, defined "
                         "differently in "
                      << getFileName(earlier->second.first->getLoc());
    diag.attachNote(earlier->second.second.getLoc()) << "the earlier import";
    return diag;
  }
  return success();
}
