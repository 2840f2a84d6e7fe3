//===- JitProgram.h - run procs' sequential meaning on the CPU --*- C++ -*-===//
//
// Part of ExoGPU. Lowers a module's procs to upstream MLIR
// (--convert-exogpu-to-standard), then to LLVM, and JIT-compiles them with
// MLIR's ExecutionEngine, so a proc's sequential meaning runs natively on
// host arrays. A failed `cf.assert` in the compiled code (a called proc's
// precondition, a parameter extent, an out-of-bounds access caught by
// upstream runtime verification) is returned as an error, not an abort.
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_RUNNER_JITPROGRAM_H
#define EXOGPU_RUNNER_JITPROGRAM_H

#include "ExoGPU/Runner/BoundProc.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"

#include <memory>
#include <string>
#include <vector>

namespace mlir {
class ExecutionEngine;
} // namespace mlir

namespace mlir::exogpu::runner {

struct JitOptions {
  /// The LLVM optimization level (0-3). -O2 runs the GEMMs as fast as -O3
  /// and compiles them about four times faster (docs/running.md).
  unsigned optLevel = 2;
  /// Insert upstream runtime verification (bounds checks of every load,
  /// store and subview).
  bool checkBounds = true;
  /// The CPU to compile for: empty for the host CPU and its features; an
  /// LLVM CPU name (`x86-64`) for that CPU's baseline features, where the
  /// code generator calls the most runtime routines (f16 and bf16
  /// conversions without F16C or AVX512-BF16).
  std::string cpu;
  /// The procs the program runs: the compiled module keeps them and what
  /// they reach through symbol references (the procs and instructions they
  /// call); the other procs and instructions are not compiled (the
  /// attention example's four kernels took 3.9 s to compile for one).
  /// Empty: every proc.
  std::vector<std::string> entries;
};

/// A function outside the compiled module that the compiled code calls.
struct HostSymbol {
  std::string name;
  /// Defined by the runner (HostSymbols.h, the assertion traps); otherwise
  /// a C library function.
  bool fromRunner;
};

/// Adds the passes from --convert-exogpu-to-standard output to the LLVM
/// dialect: affine, scf, memref (with strided metadata), arith, cf and func
/// lowerings, and the runtime verification of `options`.
void buildSequentialToLLVMPipeline(OpPassManager &pm,
                                   const JitOptions &options);

/// A module's procs compiled for the host.
class JitProgram {
public:
  ~JitProgram();

  /// Lowers a clone of `module` and compiles it. Errors name the failing
  /// step; lowering errors are also reported as diagnostics.
  static llvm::Expected<std::unique_ptr<JitProgram>>
  compile(ModuleOp module, const JitOptions &options);

  /// Calls the function of `proc` with its control values and `arrays` (one
  /// per parameter: the data parameter's contents, null for control
  /// parameters), on a thread with a 256 MiB stack.
  llvm::Error run(const BoundProc &proc, ArrayRef<HostArray *> arrays);

  /// The functions outside the module that the compiled code calls, sorted
  /// by name. Compilation fails if one is neither the runner's nor the C
  /// library's, so that the meaning never depends on the host's compiler
  /// runtime.
  ArrayRef<HostSymbol> getHostSymbols() const { return hostSymbols; }

private:
  JitProgram() = default;
  std::unique_ptr<ExecutionEngine> engine;
  std::vector<HostSymbol> hostSymbols;
};

} // namespace mlir::exogpu::runner

#endif // EXOGPU_RUNNER_JITPROGRAM_H
