//===- RegisterImportPaths.cpp - addExoGPUImportPaths ---------------------===//
//
// Part of ExoGPU.
//
//===----------------------------------------------------------------------===//

#include "ExoGPU/Dialect/ExoGPU/IR/ExoGPUDialect.h"
#include "ExoGPU/Dialect/ExoGPU/IR/Libraries.h"
#include "ExoGPU/Registration.h"
#include "mlir/IR/DialectRegistry.h"

using namespace mlir;
using namespace mlir::exogpu;

namespace {
/// Appends folders to the import search path of each context the exogpu
/// dialect loads into.
class ImportPathExtension
    : public DialectExtension<ImportPathExtension, ExoGPUDialect> {
public:
  explicit ImportPathExtension(ArrayRef<std::string> dirs)
      : dirs(dirs.begin(), dirs.end()) {}

  void apply(MLIRContext *, ExoGPUDialect *dialect) const final {
    dialect->getLibraries().addSearchDirs(dirs);
  }

private:
  std::vector<std::string> dirs;
};
} // namespace

void mlir::exogpu::addExoGPUImportPaths(DialectRegistry &registry,
                                        ArrayRef<std::string> dirs) {
  if (dirs.empty())
    return;
  auto extension = std::make_unique<ImportPathExtension>(dirs);
  // One extension per call: each call appends its own folders.
  TypeID id = TypeID::getFromOpaquePointer(extension.get());
  registry.addExtension(id, std::move(extension));
}
