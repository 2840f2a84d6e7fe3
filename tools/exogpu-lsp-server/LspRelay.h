//===- LspRelay.h - MLIR's language server behind a relay --------*- C++
//-*-===//
//
// Part of ExoGPU. Runs MLIR's language server (MlirLspServerMain) on a
// thread of its own, relays the client's messages to it and its messages
// back unchanged, and fills in the definition and hover answers it leaves
// empty for symbols the document's imports bring (ImportNavigation.h).
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_LSP_SERVER_LSPRELAY_H
#define EXOGPU_LSP_SERVER_LSPRELAY_H

#include "mlir/Tools/mlir-lsp-server/MlirLspRegistryFunction.h"

namespace mlir::exogpu {
class ImportNavigation;

/// Serves the client on stdin/stdout as MlirLspServerMain(argc, argv,
/// registry) does, with `navigation` answering for imported symbols.
/// Returns the process's exit status.
int runLspServerWithImports(int argc, char **argv,
                            lsp::DialectRegistryFn registry,
                            ImportNavigation &navigation);

} // namespace mlir::exogpu

#endif // EXOGPU_LSP_SERVER_LSPRELAY_H
