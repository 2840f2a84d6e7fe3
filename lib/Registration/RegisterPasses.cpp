//===- RegisterPasses.cpp - registerExoGPUPasses --------------------------===//
//
// Part of ExoGPU.
//
//===----------------------------------------------------------------------===//

#include "ExoGPU/AbstractMachine/Passes.h"
#include "ExoGPU/Analysis/Passes.h"
#include "ExoGPU/Conversion/Passes.h"
#include "ExoGPU/Registration.h"
#include "ExoGPU/Transforms/Passes.h"

void mlir::exogpu::registerExoGPUPasses() {
  registerExoGPUAnalysisPasses();
  registerExoGPUConversionPasses();
  registerExoGPUTransformsPasses();
  exoam::registerExoGPUAbstractMachinePasses();
}
