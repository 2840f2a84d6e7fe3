//===- ImportOps.td - exogpu imports -----------------------*- tablegen -*-===//
//
// The libraries a module uses: instruction libraries (stdlib/) and files of
// procs, named in the IR (docs/design/exogpu-dialect.md "Imports").
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_IMPORT_OPS_TD
#define EXOGPU_IMPORT_OPS_TD

include "ExoGPU/Dialect/ExoGPU/IR/ExoGPUBase.td"

def ExoGPU_ImportOp : ExoGPU_Op<"import", [HasParent<"::mlir::ModuleOp">]> {
  let summary = "use the instructions and procs of a library or another file";
  let description = [{
    Makes the symbols another file defines (and those it imports in turn)
    visible in the enclosing module, as if the files were one module: the
    instructions a kernel calls (`"sm90a"`: the instruction library
    `sm90a.mlir`) or the procs of another kernel file
    (`"gemm_tf32_sm90a.mlir"`). A name without the `.mlir` ending gets it.
    The file is looked up in the folder of the importing file (the current
    folder for stdin), the `-I` folders of the tool, the folders of
    `EXOGPU_IMPORT_PATH` and `<bindir>/../share/exogpu/stdlib`, first match
    wins.

    Each file is parsed and verified once per context, however many modules
    import it. The import fails to verify when the file is not found (the
    error lists the folders searched), does not verify, imports itself
    through a cycle, or brings a symbol that the module or an earlier import
    defines differently. Calls resolve to the module's own definition first
    (`CallOp::lookupCallee`); the definitions are not copied into the module,
    which prints as written. `exogpu::linkImports` (the pass
    `--exogpu-link-imports`) copies them in.

    ```mlir
    exogpu.import "sm90a"
    exogpu.import "gemm_tf32_sm90a.mlir"
    ```
  }];
  let arguments = (ins StrAttr:$name);
  let assemblyFormat = "$name attr-dict";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The library this import names, found, parsed and verified on first
    /// use and shared by every import of the same file in the context.
    /// Failure when it cannot be loaded; the reasons are reported at this
    /// import when `emitErrors` is set.
    ::mlir::FailureOr<const Library *> getLibrary(bool emitErrors = false);
  }];
}

#endif // EXOGPU_IMPORT_OPS_TD
