//===- HostSymbols.h - what the compiled meaning calls ----------*- C++ -*-===//
//
// Part of ExoGPU. The sequential meaning, JIT-compiled by MLIR's
// ExecutionEngine, may call functions outside the compiled module: C library
// functions (exp2f, memcpy, ...) and the compiler-runtime routines that
// LLVM's code generator calls where the target CPU has no instruction (f16
// and bf16 conversions on x86-64 without F16C or AVX512-BF16). The runner
// provides the latter itself, so that the meaning does not depend on the
// host's compiler runtime (Debian 12's libgcc has no bf16 routines), and
// lists every symbol a compiled program takes from the host.
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_RUNNER_HOSTSYMBOLS_H
#define EXOGPU_RUNNER_HOSTSYMBOLS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>

namespace mlir::exogpu::runner {

/// A function the runner defines for the compiled code.
struct RunnerSymbol {
  /// The symbol name, unmangled.
  const char *name;
  /// Its address in the runner.
  void *address;
};

/// The compiler-runtime routines (compiler-rt's and libgcc's names) for
/// conversions to and from f16 and bf16, implemented by the runner with
/// round-to-nearest-even, as the GPU's conversions round.
llvm::ArrayRef<RunnerSymbol> getFloatConversionSymbols();

/// Whether `name` is a function of the C library (glibc's libc or libm,
/// present on every host the runner supports) that compiled code may call.
bool isCLibrarySymbol(llvm::StringRef name);

/// The bits of `value` rounded to nearest, ties to even, in the binary
/// floating-point format with `exponentBits` exponent and `mantissaBits`
/// fraction bits (at most 16 bits in all: f16 is 5 and 10, bf16 8 and 7).
/// Overflow gives infinity; NaNs stay NaNs (quiet, sign kept).
uint16_t roundToNarrowFloat(double value, unsigned exponentBits,
                            unsigned mantissaBits);

/// The value of `bits` in the format of roundToNarrowFloat (exact).
double extendNarrowFloat(uint16_t bits, unsigned exponentBits,
                         unsigned mantissaBits);

} // namespace mlir::exogpu::runner

#endif // EXOGPU_RUNNER_HOSTSYMBOLS_H
