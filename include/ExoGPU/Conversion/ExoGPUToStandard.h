//===- ExoGPUToStandard.h - sequential meaning in upstream MLIR -*- C++ -*-===//
//
// Part of ExoGPU. Lowers exogpu procs to func/scf/memref/arith/affine/cf
// functions that compute their sequential meaning (seeds/002 Sec. 2.3: a
// program equals its sequential reading), for the runner `exogpu-run` and
// for any upstream lowering to LLVM. See --convert-exogpu-to-standard.
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_CONVERSION_EXOGPUTOSTANDARD_H
#define EXOGPU_CONVERSION_EXOGPUTOSTANDARD_H

#include "mlir/IR/BuiltinOps.h"

namespace mlir::exogpu {

/// The signless type that holds values of exogpu precision `precision` in
/// memrefs and arithmetic: `ui8` -> `i8`, `ui16` -> `i16`, every other
/// precision (f16, bf16, f32, f64, i8, i32) itself.
Type getStorageType(Type precision);

/// Links `module`'s imports into it (exogpu::linkImports), then replaces
/// every exogpu.proc by a func.func of the same name computing its
/// sequential meaning and drops the exogpu.instr definitions.
/// Errors are reported at the exogpu ops; on failure the module is left
/// partially converted.
LogicalResult convertExoGPUToStandard(ModuleOp module);

} // namespace mlir::exogpu

#endif // EXOGPU_CONVERSION_EXOGPUTOSTANDARD_H
