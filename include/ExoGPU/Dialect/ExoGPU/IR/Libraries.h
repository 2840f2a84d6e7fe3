//===- Libraries.h - the files exogpu.import loads --------------*- C++ -*-===//
//
// Part of ExoGPU. The libraries `exogpu.import` names (instruction libraries
// such as stdlib/sm90a.mlir, files of procs), the search path they are found
// on, the one lookup of a symbol through a module's imports, and the linking
// of the imported definitions into a module
// (docs/design/exogpu-dialect.md "Imports").
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_DIALECT_EXOGPU_IR_LIBRARIES_H
#define EXOGPU_DIALECT_EXOGPU_IR_LIBRARIES_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

#include <mutex>

namespace mlir::exogpu {
class ImportOp;

/// A file loaded for `exogpu.import`: parsed and verified once per context.
struct Library {
  /// The file's real path (its identity) and where its diagnostics point.
  std::string path;
  OwningOpRef<ModuleOp> module;
  /// The libraries the file imports, directly or not, each once, every
  /// library after the ones it imports (the order `cat` would prepend them).
  SmallVector<const Library *> closure;
  /// Every symbol the file and `closure` define, by name.
  llvm::StringMap<Operation *> symbols;
};

/// The folders imports are searched in and the libraries of one context,
/// owned by the exogpu dialect (`ExoGPUDialect::getLibraries`). Thread safe.
class LibraryManager {
public:
  LibraryManager();

  /// Appends `dirs` to the folders searched after the importing file's
  /// folder and before `EXOGPU_IMPORT_PATH` (the tools' `-I`).
  void addSearchDirs(ArrayRef<std::string> dirs);

  /// The folders `import` is looked up in, in order.
  SmallVector<std::string> getSearchPath(ImportOp import);

  /// Finds, parses and verifies the file `import` names, or returns the one
  /// loaded before. Reports why it fails at `import` when `emitErrors` is
  /// set.
  FailureOr<const Library *> load(ImportOp import, bool emitErrors);

private:
  FailureOr<const Library *> loadFile(ImportOp import, StringRef path,
                                      bool emitErrors);

  /// Held while a file loads (recursively: its imports load meanwhile).
  std::recursive_mutex mutex;
  /// `addSearchDirs`, then `EXOGPU_IMPORT_PATH`, then the installed
  /// libraries next to the executable.
  SmallVector<std::string> searchDirs, environmentDirs, installedDirs;
  llvm::StringMap<std::unique_ptr<Library>> libraries;
  /// Real paths being loaded (an import of one of them is a cycle) and
  /// those that failed.
  llvm::StringSet<> loading, failed;
};

/// The symbol `name` as seen from `from`: the nearest symbol table's, else
/// the one an import of an enclosing module brings. Null when there is none.
/// `symbolTables`, when given, caches the symbol tables of the first step.
Operation *lookupSymbol(Operation *from, StringAttr name,
                        SymbolTableCollection *symbolTables = nullptr);

/// Copies every definition `module`'s imports bring (each library once) into
/// `module` where its import stands, and erases the imports: the module then
/// holds the whole program, as the concatenated files did. Fails after
/// reporting at the import when one cannot be loaded.
LogicalResult linkImports(ModuleOp module);

/// Calls `fn` on `module` when it imports nothing, else on a copy of it with
/// its imports linked (linkImports): for translations that read the whole
/// program and leave their input as it is.
LogicalResult withImportsLinked(ModuleOp module,
                                function_ref<LogicalResult(ModuleOp)> fn);

/// Adds `exogpu.import "name"` in front of `module`'s body.
void addImport(ModuleOp module, StringRef name);

} // namespace mlir::exogpu

#endif // EXOGPU_DIALECT_EXOGPU_IR_LIBRARIES_H
