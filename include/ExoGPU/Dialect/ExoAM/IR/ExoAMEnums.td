//===- ExoAMEnums.td - exoam enumerations ------------------*- tablegen -*-===//
//
// Visibility levels (Fig. 4 VL), statement scopes (Def. 5.2) and the access
// a check guards. Kept apart
// from the attributes so that enum generation does not see the exogpu enums.
//
//===----------------------------------------------------------------------===//

#ifndef EXOAM_ENUMS_TD
#define EXOAM_ENUMS_TD

include "ExoGPU/Dialect/ExoAM/IR/ExoAMBase.td"
include "mlir/IR/EnumAttr.td"

def ExoAM_VisibilityLevel : I32EnumAttr<"VisibilityLevel",
    "visibility level (Fig. 4 VL), totally ordered by value", [
    I32EnumAttrCase<"invisible", 0>,
    I32EnumAttrCase<"atomic_only", 1>,
    I32EnumAttrCase<"unordered", 2>,
    I32EnumAttrCase<"temporally_ordered", 3>,
    I32EnumAttrCase<"fully_ordered", 4>]> {
  let cppNamespace = "::mlir::exoam";
  let genSpecializedAttr = 0;
}

def ExoAM_ExecScope : I32EnumAttr<"ExecScope",
    "whether a statement runs on the CPU or on the GPU (Def. 5.2 scope)", [
    I32EnumAttrCase<"cpu", 0>,
    I32EnumAttrCase<"gpu", 1>]> {
  let cppNamespace = "::mlir::exoam";
  let genSpecializedAttr = 0;
}

def ExoAM_AccessPurpose : I32EnumAttr<"AccessPurpose",
    "the access a visibility check guards (names the hazard it detects)", [
    I32EnumAttrCase<"read", 0>,
    I32EnumAttrCase<"write", 1>,
    I32EnumAttrCase<"free", 2>]> {
  let cppNamespace = "::mlir::exoam";
  let genSpecializedAttr = 0;
}

#endif // EXOAM_ENUMS_TD
