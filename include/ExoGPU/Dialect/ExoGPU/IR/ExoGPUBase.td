//===- ExoGPUBase.td - exogpu dialect definition -----------*- tablegen -*-===//
//
// The `exogpu` dialect: the GPU IR of the Exo-GPU paper (seeds/002, Fig. 1-3
// and App. A, Fig. 10-16). Every statement of Fig. 2 is one op.
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_BASE_TD
#define EXOGPU_BASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"

def ExoGPU_Dialect : Dialect {
  let name = "exogpu";
  let cppNamespace = "::mlir::exogpu";
  let summary = "The GPU IR of Exo-GPU: sequential programs with parallel and "
                "synchronization annotations";
  let description = [{
    The `exogpu` dialect expresses a CUDA kernel as a *sequential* program
    (paper seeds/002, Sec. 3). Parallel loops (`cuda_tasks`, `cuda_threads`),
    warp specialization (`warps`) and synchronization (`fence`, `arrive`,
    `await`) are annotations: under sequential semantics they are ignored, and
    the synchronization check proves that the parallel interpretation computes
    the same result.

    Statements are ops. Control expressions (loop bounds, indices, window
    bounds, conditions) are quasi-affine and are stored as `AffineMap`s over
    the op's `index` operands, the way `affine.load` stores its indices. Data
    expressions live inside the statement that uses them.
  }];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  let extraClassDeclaration = [{
    /// The files `exogpu.import` loaded in this context and the folders it
    /// searches (ExoGPU/Dialect/ExoGPU/IR/Libraries.h).
    LibraryManager &getLibraries() { return *libraries; }

  private:
    void registerAttributes();
    void registerTypes();
    void registerOps();

    std::unique_ptr<LibraryManager> libraries;
  }];
}

/// Base class of every exogpu op.
// A 64-bit integer attribute read as signed (I64Attr's getter gives the
// unsigned value, under which a negative bound passes `< 0` checks).
def ExoGPU_SignedI64Attr : TypedSignlessIntegerAttrBase<
    I64, "int64_t", "64-bit signless integer attribute, read as signed"> {
  let convertFromStorage = "$_self.getValue().getSExtValue()";
}

class ExoGPU_Op<string mnemonic, list<Trait> traits = []>
    : Op<ExoGPU_Dialect, mnemonic, traits>;

/// Base classes of exogpu types and attributes.
class ExoGPU_Type<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<ExoGPU_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}
class ExoGPU_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<ExoGPU_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

#endif // EXOGPU_BASE_TD
