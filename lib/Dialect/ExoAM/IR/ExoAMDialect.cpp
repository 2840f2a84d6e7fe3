//===- ExoAMDialect.cpp - exoam dialect registration ---------------------===//
//
// Part of ExoGPU.
//
//===----------------------------------------------------------------------===//

#include "ExoGPU/Dialect/ExoAM/IR/ExoAMOps.h"

using namespace mlir;
using namespace mlir::exoam;

#include "ExoGPU/Dialect/ExoAM/IR/ExoAMDialect.cpp.inc"

void ExoAMDialect::initialize() {
  registerAttributes();
  registerOps();
}

void ExoAMDialect::registerOps() {
  addOperations<
#define GET_OP_LIST
#include "ExoGPU/Dialect/ExoAM/IR/ControlOps.cpp.inc"
      ,
#define GET_OP_LIST
#include "ExoGPU/Dialect/ExoAM/IR/RecordOps.cpp.inc"
      ,
#define GET_OP_LIST
#include "ExoGPU/Dialect/ExoAM/IR/SyncOps.cpp.inc"
      ,
#define GET_OP_LIST
#include "ExoGPU/Dialect/ExoAM/IR/CheckOps.cpp.inc"
      >();
}
