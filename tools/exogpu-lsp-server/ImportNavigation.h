//===- ImportNavigation.h - definition and hover through imports -*- C++
//-*-===//
//
// Part of ExoGPU. Go-to-definition and hover on a symbol that the document
// does not define but one of its `exogpu.import`s brings (a call of an
// instruction of stdlib/sm90a.mlir, of a proc of another kernel file): the
// answers MLIR's language server, which knows only the document, leaves
// empty (docs/editor.md).
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_LSP_SERVER_IMPORTNAVIGATION_H
#define EXOGPU_LSP_SERVER_IMPORTNAVIGATION_H

#include "mlir/IR/DialectRegistry.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/LSP/Protocol.h"

#include <optional>
#include <string>

namespace mlir::exogpu {

/// The documents a client has open, and the definitions their imports
/// bring. Not thread safe: one thread feeds it the client's messages.
class ImportNavigation {
public:
  explicit ImportNavigation(const DialectRegistry &registry)
      : registry(registry) {}

  /// Follows the client's `textDocument/didOpen`, `didChange` and
  /// `didClose` notifications (other messages are ignored).
  void observe(llvm::StringRef method, const llvm::json::Value &params);

  /// The answer to a `textDocument/definition` or `textDocument/hover`
  /// request whose cursor is on `@name` where an import of the document
  /// defines `name`; nullopt for any other request or position.
  std::optional<llvm::json::Value> answer(llvm::StringRef method,
                                          const llvm::json::Value &params);

private:
  /// A definition an import brings: its file, line and column (from 1) and
  /// the source lines that show it.
  struct ImportedSymbol {
    std::string name;
    std::string file;
    unsigned line = 0, column = 0;
    /// The symbol reference under the cursor, in the document.
    llvm::lsp::Range reference;
    std::string kind;
    std::string comment, header;
  };

  std::optional<ImportedSymbol>
  find(const llvm::lsp::TextDocumentPositionParams &params);

  const DialectRegistry &registry;
  /// The text of each open document, by file.
  llvm::StringMap<std::string> documents;
};

} // namespace mlir::exogpu

#endif // EXOGPU_LSP_SERVER_IMPORTNAVIGATION_H
