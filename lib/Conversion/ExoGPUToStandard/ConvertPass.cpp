//===- ConvertPass.cpp - --convert-exogpu-to-standard ---------------------===//
//
// Part of ExoGPU. Replaces the exogpu procs of a module by functions
// computing their sequential meaning (seeds/002 Sec. 2.3).
//
//===----------------------------------------------------------------------===//

#include "ExoGPU/Conversion/ExoGPUToStandard.h"
#include "ExoGPU/Conversion/Passes.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace mlir::exogpu {
#define GEN_PASS_DEF_CONVERTEXOGPUTOSTANDARD
#include "ExoGPU/Conversion/Passes.h.inc"
} // namespace mlir::exogpu

using namespace mlir;
using namespace mlir::exogpu;

namespace {
struct ConvertExoGPUToStandardPass
    : public exogpu::impl::ConvertExoGPUToStandardBase<
          ConvertExoGPUToStandardPass> {
  void runOnOperation() override {
    if (failed(convertExoGPUToStandard(getOperation())))
      signalPassFailure();
  }
};
} // namespace
