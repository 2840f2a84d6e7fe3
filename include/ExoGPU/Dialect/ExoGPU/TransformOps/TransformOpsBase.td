//===- TransformOpsBase.td - shared parts of transform.exogpu.* -*- tablegen -*-===//
//
// Part of ExoGPU. The scheduling language as a Transform-dialect extension
// (seeds/002 Sec. 2.3; DESIGN.md "Scheduling"): every rewrite is an op
// `transform.exogpu.NAME` that takes handles to exogpu statements and
// returns handles to the statements it created, so scripts compose.
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_TRANSFORMOPS_BASE_TD
#define EXOGPU_TRANSFORMOPS_BASE_TD

include "mlir/Dialect/Transform/IR/TransformDialect.td"
include "mlir/Dialect/Transform/Interfaces/TransformInterfaces.td"
include "mlir/Dialect/Transform/IR/TransformTypes.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/IR/OpBase.td"

class ExoGPU_TransformOp<string mnemonic, list<Trait> traits = []>
    : Op<Transform_Dialect, "exogpu." # mnemonic,
         traits # [DeclareOpInterfaceMethods<TransformOpInterface>]> {
  let cppNamespace = "::mlir::exogpu";
}

/// A rewrite that replaces the statements its handles point to: it consumes
/// the handles and returns handles to the statements it creates.
class ExoGPU_RewriteOp<string mnemonic, list<Trait> traits = []>
    : ExoGPU_TransformOp<mnemonic, traits # [FunctionalStyleTransformOpTrait,
                                            MemoryEffectsOpInterface]>;

/// A rewrite that edits statements in place or adds statements next to
/// them: its handles stay valid.
class ExoGPU_EditOp<string mnemonic, list<Trait> traits = []>
    : ExoGPU_TransformOp<mnemonic, traits # [
        DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]>;

#endif // EXOGPU_TRANSFORMOPS_BASE_TD
