//===- ImportNavigation.cpp - definition and hover through imports -------===//
//
// Part of ExoGPU.
//
//===----------------------------------------------------------------------===//

#include "ImportNavigation.h"
#include "ExoGPU/Dialect/ExoGPU/IR/ExoGPUOps.h"
#include "ExoGPU/Dialect/ExoGPU/IR/Libraries.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace mlir;
using namespace mlir::exogpu;

/// The most lines of an op's header a hover shows.
static constexpr unsigned kMaxHeaderLines = 12;

void ImportNavigation::observe(StringRef method,
                               const llvm::json::Value &params) {
  llvm::json::Path::Root root;
  if (method == "textDocument/didOpen") {
    llvm::lsp::DidOpenTextDocumentParams open;
    if (fromJSON(params, open, root))
      documents[open.textDocument.uri.file()] = open.textDocument.text;
  } else if (method == "textDocument/didChange") {
    llvm::lsp::DidChangeTextDocumentParams change;
    if (!fromJSON(params, change, root))
      return;
    auto it = documents.find(change.textDocument.uri.file());
    if (it != documents.end() &&
        failed(llvm::lsp::TextDocumentContentChangeEvent::applyTo(
            change.contentChanges, it->second)))
      documents.erase(it);
  } else if (method == "textDocument/didClose") {
    llvm::lsp::DidCloseTextDocumentParams close;
    if (fromJSON(params, close, root))
      documents.erase(close.textDocument.uri.file());
  }
}

static bool isSymbolChar(char c) {
  return llvm::isAlnum(c) || c == '_' || c == '$' || c == '.';
}

/// The `@name` around `column` of `line`: the name and its [begin, end)
/// columns (from 0, the `@` included).
static std::optional<std::tuple<std::string, int, int>>
getSymbolAt(StringRef line, int column) {
  int size = line.size();
  if (column < 0 || column > size)
    return std::nullopt;
  int begin = column;
  if (column < size && line[column] == '@') {
    ++begin;
  } else {
    while (begin > 0 && isSymbolChar(line[begin - 1]))
      --begin;
    if (begin == 0 || line[begin - 1] != '@')
      return std::nullopt;
  }
  int end = begin;
  while (end < size && isSymbolChar(line[end]))
    ++end;
  if (end == begin)
    return std::nullopt;
  return std::make_tuple(line.slice(begin, end).str(), begin - 1, end);
}

/// The file, line and column (from 1) `loc` points at.
static std::optional<std::tuple<std::string, unsigned, unsigned>>
getFilePosition(Location loc) {
  std::optional<std::tuple<std::string, unsigned, unsigned>> position;
  loc->walk([&](Location nested) {
    if (auto file = dyn_cast<FileLineColLoc>(nested)) {
      position = std::make_tuple(file.getFilename().str(), file.getLine(),
                                 file.getColumn());
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return position;
}

std::optional<ImportNavigation::ImportedSymbol>
ImportNavigation::find(const llvm::lsp::TextDocumentPositionParams &params) {
  auto document = documents.find(params.textDocument.uri.file());
  if (document == documents.end())
    return std::nullopt;
  SmallVector<StringRef> lines;
  StringRef(document->second).split(lines, '\n');
  if (params.position.line < 0 ||
      static_cast<size_t>(params.position.line) >= lines.size())
    return std::nullopt;
  auto symbol = getSymbolAt(lines[params.position.line].rtrim('\r'),
                            params.position.character);
  if (!symbol)
    return std::nullopt;
  auto [name, begin, end] = *symbol;

  // The document as the server reads it, its errors silenced (the server
  // reports them), resolved against its own folder.
  MLIRContext context(registry);
  ScopedDiagnosticHandler silence(&context,
                                  [](Diagnostic &) { return success(); });
  ParserConfig config(&context, /*verifyAfterParse=*/false);
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(
      document->second, config, params.textDocument.uri.file());
  if (!module)
    return std::nullopt;
  bool defined = false;
  Operation *definition = nullptr;
  module->walk([&](Operation *op) {
    if (auto own = dyn_cast<SymbolOpInterface>(op))
      defined |= own.getName() == name;
    auto import = dyn_cast<ImportOp>(op);
    if (!import || definition)
      return;
    FailureOr<const Library *> library = import.getLibrary();
    if (succeeded(library))
      definition = (*library)->symbols.lookup(name);
  });
  if (defined || !definition)
    return std::nullopt;
  auto position = getFilePosition(definition->getLoc());
  if (!position)
    return std::nullopt;

  ImportedSymbol found;
  found.name = name;
  std::tie(found.file, found.line, found.column) = *position;
  found.kind = definition->getName().getStringRef().str();
  int line = params.position.line;
  found.reference = llvm::lsp::Range(llvm::lsp::Position(line, begin),
                                     llvm::lsp::Position(line, end));
  // The comment above the definition and its header, from the file.
  auto file = llvm::MemoryBuffer::getFile(found.file);
  if (!file)
    return found;
  SmallVector<StringRef> source;
  (*file)->getBuffer().split(source, '\n');
  if (found.line == 0 || found.line > source.size())
    return found;
  unsigned first = found.line - 1;
  while (first > 0 && source[first - 1].ltrim().starts_with("//"))
    --first;
  for (unsigned i = first; i + 1 < found.line; ++i) {
    StringRef text = source[i].ltrim().drop_front(2);
    found.comment +=
        text.starts_with(" ") ? text.drop_front().str() : text.str();
    found.comment += "\n";
  }
  for (unsigned i = found.line - 1;
       i < source.size() && i < found.line - 1 + kMaxHeaderLines; ++i) {
    found.header += source[i].rtrim().str() + "\n";
    if (source[i].rtrim().ends_with("{"))
      break;
  }
  // The column of the name in the definition's first line.
  size_t at = source[found.line - 1].find("@" + name);
  if (at != StringRef::npos)
    found.column = at + 1;
  return found;
}

/// `value` with its strings copied: the toJSON of a protocol struct refers
/// to the struct's strings, which do not outlive it.
static llvm::json::Value copyStrings(const llvm::json::Value &value) {
  return llvm::cantFail(llvm::json::parse(llvm::formatv("{0}", value).str()));
}

std::optional<llvm::json::Value>
ImportNavigation::answer(StringRef method, const llvm::json::Value &params) {
  if (method != "textDocument/definition" && method != "textDocument/hover")
    return std::nullopt;
  llvm::lsp::TextDocumentPositionParams position;
  llvm::json::Path::Root root;
  if (!fromJSON(params, position, root))
    return std::nullopt;
  std::optional<ImportedSymbol> found = find(position);
  if (!found)
    return std::nullopt;
  if (method == "textDocument/definition") {
    llvm::Expected<llvm::lsp::URIForFile> uri =
        llvm::lsp::URIForFile::fromFile(found->file);
    if (!uri) {
      llvm::consumeError(uri.takeError());
      return std::nullopt;
    }
    llvm::lsp::Position start(found->line - 1, found->column - 1);
    llvm::lsp::Position end(start.line,
                            start.character + 1 + found->name.size());
    return copyStrings(llvm::json::Array{
        toJSON(llvm::lsp::Location{*uri, llvm::lsp::Range(start, end)})});
  }
  llvm::lsp::Hover hover(found->reference);
  std::string &text = hover.contents.value;
  text = "`" + found->kind + " @" + found->name + "` imported from `" +
         found->file + ":" + std::to_string(found->line) + "`\n\n";
  if (!found->comment.empty())
    text += found->comment + "\n";
  if (!found->header.empty())
    text += "```mlir\n" + found->header + "```\n";
  return copyStrings(toJSON(hover));
}
