//===- Libraries.cpp - the files exogpu.import loads ----------------------===//
//
// Part of ExoGPU. Finding, loading (once per context) and linking the files
// `exogpu.import` names, and the lookup of a symbol through a module's
// imports (docs/design/exogpu-dialect.md "Imports").
//
//===----------------------------------------------------------------------===//

#include "ExoGPU/Dialect/ExoGPU/IR/Libraries.h"
#include "ExoGPU/Dialect/ExoGPU/IR/ExoGPUOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"

using namespace mlir;
using namespace mlir::exogpu;
namespace path = llvm::sys::path;

/// The environment variable of folders searched after the tools' `-I`.
static constexpr llvm::StringLiteral kImportPathVariable = "EXOGPU_IMPORT_PATH";

LibraryManager::LibraryManager() {
  if (std::optional<std::string> value =
          llvm::sys::Process::GetEnv(kImportPathVariable)) {
    SmallVector<StringRef> dirs;
    StringRef(*value).split(dirs, llvm::sys::EnvPathSeparator, /*MaxSplit=*/-1,
                            /*KeepEmpty=*/false);
    for (StringRef dir : dirs)
      environmentDirs.push_back(dir.str());
  }
  // The instruction libraries of the prefix the executable runs from:
  // installed, or the build tree's link to the repository's stdlib/.
  std::string executable = llvm::sys::fs::getMainExecutable(nullptr, nullptr);
  if (!executable.empty()) {
    SmallString<256> dir = path::parent_path(path::parent_path(executable));
    path::append(dir, "share", "exogpu", "stdlib");
    installedDirs.push_back(dir.str().str());
  }
}

void LibraryManager::addSearchDirs(ArrayRef<std::string> dirs) {
  std::lock_guard<std::recursive_mutex> lock(mutex);
  llvm::append_range(searchDirs, dirs);
}

/// The folder of the file `loc` points into; the current folder for stdin
/// and locations without a file.
static std::string getImportingDir(Location loc) {
  auto file = loc->findInstanceOf<FileLineColLoc>();
  StringRef name = file ? file.getFilename().getValue() : "";
  if (name.empty() || name == "-" || name == "<stdin>")
    return ".";
  StringRef parent = path::parent_path(name);
  return parent.empty() ? "." : parent.str();
}

SmallVector<std::string> LibraryManager::getSearchPath(ImportOp import) {
  std::lock_guard<std::recursive_mutex> lock(mutex);
  SmallVector<std::string> dirs{getImportingDir(import.getLoc())};
  llvm::StringSet<> seen{dirs.front()};
  for (ArrayRef<std::string> group :
       {ArrayRef(searchDirs), ArrayRef(environmentDirs),
        ArrayRef(installedDirs)})
    for (const std::string &dir : group)
      if (seen.insert(dir).second)
        dirs.push_back(dir);
  return dirs;
}

/// The file name an import of `name` looks for: `name`, with `.mlir`
/// appended when it has another ending.
static std::string getFileName(StringRef name) {
  return name.ends_with(".mlir") ? name.str() : (name + ".mlir").str();
}

FailureOr<const Library *> LibraryManager::load(ImportOp import,
                                                bool emitErrors) {
  std::lock_guard<std::recursive_mutex> lock(mutex);
  std::string fileName = getFileName(import.getName());
  SmallVector<std::string> dirs;
  if (!path::is_absolute(fileName))
    dirs = getSearchPath(import);
  std::optional<std::string> found;
  for (StringRef dir : dirs.empty() ? SmallVector<std::string>{""} : dirs) {
    SmallString<256> candidate(dir);
    path::append(candidate, fileName);
    if (llvm::sys::fs::is_regular_file(candidate)) {
      found = candidate.str().str();
      break;
    }
  }
  if (!found) {
    if (emitErrors) {
      InFlightDiagnostic diag = import.emitOpError()
                                << "cannot find '" << import.getName() << "'";
      if (dirs.empty())
        diag << " (no file " << fileName << ")";
      else
        diag << " (looked for " << fileName << " in: " << llvm::join(dirs, ", ")
             << ")";
    }
    return failure();
  }
  SmallString<256> realPath;
  if (llvm::sys::fs::real_path(*found, realPath)) {
    if (emitErrors)
      import.emitOpError() << "cannot read '" << *found << "'";
    return failure();
  }
  auto it = libraries.find(realPath);
  if (it != libraries.end())
    return const_cast<const Library *>(it->second.get());
  if (loading.contains(realPath)) {
    if (emitErrors)
      import.emitOpError() << "imports '" << import.getName() << "' ("
                           << realPath
                           << ") while that file is being imported: the "
                              "imports form a cycle";
    return failure();
  }
  if (failed.contains(realPath)) {
    if (emitErrors)
      import.emitOpError() << "cannot import '" << import.getName() << "' ("
                           << realPath << "): it does not verify";
    return failure();
  }
  return loadFile(import, realPath, emitErrors);
}

/// The top-level symbols `module` defines, in order.
static SmallVector<SymbolOpInterface> getSymbols(ModuleOp module) {
  return llvm::to_vector(module.getOps<SymbolOpInterface>());
}

FailureOr<const Library *>
LibraryManager::loadFile(ImportOp import, StringRef path, bool emitErrors) {
  // The file's own imports load while it verifies.
  loading.insert(path);
  ParserConfig config(import.getContext(), /*verifyAfterParse=*/true);
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(path, config);
  loading.erase(path);
  if (!module) {
    failed.insert(path);
    if (emitErrors)
      import.emitOpError() << "cannot import '" << import.getName() << "' ("
                           << path << "): it does not verify";
    return failure();
  }
  auto library = std::make_unique<Library>();
  library->path = path.str();
  // Verified: every import of the file loaded.
  llvm::SetVector<const Library *> closure;
  for (ImportOp nested : module->getOps<ImportOp>()) {
    const Library *imported = *nested.getLibrary();
    closure.insert_range(imported->closure);
    closure.insert(imported);
  }
  library->closure = closure.takeVector();
  for (SymbolOpInterface symbol : getSymbols(*module))
    library->symbols.try_emplace(symbol.getName(), symbol);
  for (const Library *imported : library->closure)
    for (SymbolOpInterface symbol : getSymbols(imported->module.get()))
      library->symbols.try_emplace(symbol.getName(), symbol);
  library->module = std::move(module);
  const Library *result = library.get();
  libraries[path] = std::move(library);
  return result;
}

Operation *mlir::exogpu::lookupSymbol(Operation *from, StringAttr name,
                                      SymbolTableCollection *symbolTables) {
  Operation *own = symbolTables
                       ? symbolTables->lookupNearestSymbolFrom(from, name)
                       : SymbolTable::lookupNearestSymbolFrom(from, name);
  if (own)
    return own;
  for (Operation *scope = from; scope; scope = scope->getParentOp()) {
    auto module = dyn_cast<ModuleOp>(scope);
    if (!module)
      continue;
    for (ImportOp import : module.getOps<ImportOp>()) {
      FailureOr<const Library *> library = import.getLibrary();
      if (failed(library))
        continue;
      if (Operation *symbol = (*library)->symbols.lookup(name))
        return symbol;
    }
  }
  return nullptr;
}

LogicalResult mlir::exogpu::linkImports(ModuleOp module) {
  SmallVector<ImportOp> imports(module.getOps<ImportOp>());
  llvm::StringSet<> linked;
  SymbolTable symbols(module);
  for (ImportOp import : imports) {
    FailureOr<const Library *> library = import.getLibrary(/*emitErrors=*/true);
    if (failed(library))
      return failure();
    SmallVector<const Library *> files((*library)->closure);
    files.push_back(*library);
    OpBuilder builder(import);
    for (const Library *file : files) {
      if (!linked.insert(file->path).second)
        continue;
      for (Operation &op : *file->module.get().getBody()) {
        if (isa<ImportOp>(op))
          continue;
        // A copy of the definition already in the module (the libraries
        // were prepended to it) stays; the import's verifier rejected
        // different definitions of one name.
        auto symbol = dyn_cast<SymbolOpInterface>(op);
        if (symbol && symbols.lookup(symbol.getNameAttr()))
          continue;
        Operation *copy = builder.clone(op);
        if (symbol)
          symbols.insert(copy, builder.getInsertionPoint());
      }
    }
  }
  for (ImportOp import : imports)
    import.erase();
  return success();
}

LogicalResult
mlir::exogpu::withImportsLinked(ModuleOp module,
                                function_ref<LogicalResult(ModuleOp)> fn) {
  if (module.getOps<ImportOp>().empty())
    return fn(module);
  OwningOpRef<ModuleOp> linked = module.clone();
  if (failed(linkImports(*linked)))
    return failure();
  return fn(*linked);
}

void mlir::exogpu::addImport(ModuleOp module, StringRef name) {
  auto builder = OpBuilder::atBlockBegin(module.getBody());
  ImportOp::create(builder, module.getLoc(), name);
}
