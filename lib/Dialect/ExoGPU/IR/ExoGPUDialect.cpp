//===- ExoGPUDialect.cpp - exogpu dialect registration -------------------===//
//
// Part of ExoGPU.
//
//===----------------------------------------------------------------------===//

#include "ExoGPU/Dialect/ExoGPU/IR/ExoGPUOps.h"
#include "ExoGPU/Dialect/ExoGPU/IR/Libraries.h"

using namespace mlir;
using namespace mlir::exogpu;

#include "ExoGPU/Dialect/ExoGPU/IR/ExoGPUDialect.cpp.inc"

void ExoGPUDialect::initialize() {
  registerAttributes();
  registerTypes();
  registerOps();
  libraries = std::make_unique<LibraryManager>();
}

void ExoGPUDialect::registerOps() {
  addOperations<
#define GET_OP_LIST
#include "ExoGPU/Dialect/ExoGPU/IR/ControlOps.cpp.inc"
      ,
#define GET_OP_LIST
#include "ExoGPU/Dialect/ExoGPU/IR/DataOps.cpp.inc"
      ,
#define GET_OP_LIST
#include "ExoGPU/Dialect/ExoGPU/IR/MemoryOps.cpp.inc"
      ,
#define GET_OP_LIST
#include "ExoGPU/Dialect/ExoGPU/IR/SyncOps.cpp.inc"
      ,
#define GET_OP_LIST
#include "ExoGPU/Dialect/ExoGPU/IR/ProcOps.cpp.inc"
      ,
#define GET_OP_LIST
#include "ExoGPU/Dialect/ExoGPU/IR/ImportOps.cpp.inc"
      >();
}
