//===- ExoAMBase.td - exoam dialect definition -------------*- tablegen -*-===//
//
// The `exoam` dialect: the Abstract Machine IR (AMIR) of the Exo-GPU paper
// (seeds/002 Sec. 5.1, Fig. 4). Every AMIR statement is one op.
//
//===----------------------------------------------------------------------===//

#ifndef EXOAM_BASE_TD
#define EXOAM_BASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"

def ExoAM_Dialect : Dialect {
  let name = "exoam";
  let cppNamespace = "::mlir::exoam";
  let summary = "The Abstract Machine IR of Exo-GPU: synchronization effects "
                "without values";
  let description = [{
    The `exoam` dialect is the AMIR of seeds/002 Fig. 4. A program records,
    per array element, which threads may observe each read and mutation on
    which qualitative timeline (Fig. 15), raises that visibility with fences
    and split barriers, and checks it before later accesses. It carries no
    data values: it exists only to be interpreted by the abstract machine
    (Fig. 6, 7, 21, 22, App. B; `--exoam-interpret`).

    Variables are names (`@x`): AMIR procs take control parameters only
    (Sec. 5.2.4), so data and barrier variables are not SSA values. Control
    expressions (bounds, coordinates, conditions) are quasi-affine maps over
    the `index` / `i1` control operands of the op that holds them, spelled
    in infix (`%i * 16 + %j`). Each statement whose meaning depends on the
    executing threads carries its thread mapping (Sec. 4, Def. 5.2).
  }];
  let dependentDialects = ["::mlir::exogpu::ExoGPUDialect"];
  let useDefaultAttributePrinterParser = 1;
  let extraClassDeclaration = [{
  private:
    void registerAttributes();
    void registerOps();
  }];
}

/// Base class of every exoam op.
class ExoAM_Op<string mnemonic, list<Trait> traits = []>
    : Op<ExoAM_Dialect, mnemonic, traits>;

/// Base class of every AMIR statement (Fig. 4 `Stmt#`): statements appear
/// only in procs, loops and guards.
class ExoAM_StmtOp<string mnemonic, list<Trait> traits = []>
    : ExoAM_Op<mnemonic, traits # [ParentOneOf<["::mlir::exoam::ProcOp",
                                                "::mlir::exoam::LoopOp",
                                                "::mlir::exoam::IfOp"]>]>;

/// Base class of exoam attributes.
class ExoAM_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<ExoAM_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

#endif // EXOAM_BASE_TD
