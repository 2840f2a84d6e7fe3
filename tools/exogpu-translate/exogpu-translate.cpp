//===- exogpu-translate.cpp - ExoGPU translation driver
//--------------------===//
//
// Part of ExoGPU. Translates exogpu modules out of MLIR, in the style of
// mlir-translate:
//   exogpu-translate --to-cuda kernel.mlir -o kernel.cu
//   exogpu-translate --to-cuda-header kernel.mlir -o kernel.h
//
//===----------------------------------------------------------------------===//

#include "ExoGPU/Target/CUDA/TranslateToCuda.h"
#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"

int main(int argc, char **argv) {
  mlir::exogpu::registerToCudaTranslation();
  return mlir::failed(
      mlir::mlirTranslateMain(argc, argv, "ExoGPU translation driver\n"));
}
