//===- LinkImports.cpp - copy imported definitions into the module -------===//
//
// Part of ExoGPU. Implements --exogpu-link-imports (exogpu::linkImports as a
// pass; docs/design/exogpu-dialect.md "Imports").
//
//===----------------------------------------------------------------------===//

#include "ExoGPU/Dialect/ExoGPU/IR/Libraries.h"
#include "ExoGPU/Transforms/Passes.h"

namespace mlir::exogpu {
#define GEN_PASS_DEF_EXOGPULINKIMPORTS
#include "ExoGPU/Transforms/Passes.h.inc"
} // namespace mlir::exogpu

using namespace mlir;
using namespace mlir::exogpu;

namespace {
struct LinkImportsPass
    : public exogpu::impl::ExoGPULinkImportsBase<LinkImportsPass> {
  void runOnOperation() override {
    if (failed(linkImports(getOperation())))
      signalPassFailure();
  }
};
} // namespace
