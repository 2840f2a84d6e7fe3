//===- HostSymbols.cpp - what the JIT-compiled meaning calls on the host --===//
//
// Part of ExoGPU. See HostSymbols.h.
//
//===----------------------------------------------------------------------===//

#include "ExoGPU/Runner/HostSymbols.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/bit.h"

#include <cmath>

using namespace mlir::exogpu::runner;

//===----------------------------------------------------------------------===//
// Rounding to and from the 16-bit formats
//===----------------------------------------------------------------------===//

uint16_t mlir::exogpu::runner::roundToNarrowFloat(double value,
                                                  unsigned exponentBits,
                                                  unsigned mantissaBits) {
  uint64_t bits = llvm::bit_cast<uint64_t>(value);
  auto sign =
      static_cast<uint16_t>((bits >> 63) << (exponentBits + mantissaBits));
  uint64_t exponent = (bits >> 52) & 0x7ff;
  uint64_t fraction = bits & ((uint64_t(1) << 52) - 1);
  uint64_t maxExponent = (uint64_t(1) << exponentBits) - 1;
  uint64_t infinity = maxExponent << mantissaBits;
  if (exponent == 0x7ff) {
    if (fraction == 0)
      return sign | infinity;
    // A NaN: quiet, with the top of its payload.
    return sign | infinity | (uint64_t(1) << (mantissaBits - 1)) |
           (fraction >> (52 - mantissaBits));
  }
  // Zeros and f64 subnormals (below 2^-1022) round to a signed zero in
  // every narrow format.
  if (exponent == 0)
    return sign;
  // The significand with its leading one, and the narrow format's biased
  // exponent; below 1 the result is subnormal: shift further right.
  uint64_t significand = fraction | (uint64_t(1) << 52);
  int64_t bias = (int64_t(1) << (exponentBits - 1)) - 1;
  int64_t narrowExponent = static_cast<int64_t>(exponent) - 1023 + bias;
  int64_t shift = 52 - static_cast<int64_t>(mantissaBits);
  if (narrowExponent < 1) {
    shift += 1 - narrowExponent;
    narrowExponent = 1;
  }
  if (shift > 54) // Below half the smallest subnormal.
    return sign;
  uint64_t kept = significand >> shift;
  uint64_t rest = significand & ((uint64_t(1) << shift) - 1);
  uint64_t half = uint64_t(1) << (shift - 1);
  if (rest > half || (rest == half && (kept & 1)))
    ++kept;
  // `kept` holds the leading one of a normal result, which adds one to the
  // exponent field: (e - 1) << m + kept is e << m + fraction, and a carry
  // out of the fraction or out of the subnormals moves to the next binade.
  uint64_t magnitude = ((narrowExponent - 1) << mantissaBits) + kept;
  if (kept < (uint64_t(1) << mantissaBits)) // Subnormal: no leading one.
    magnitude = kept;
  if (magnitude >= infinity)
    return sign | infinity;
  return sign | static_cast<uint16_t>(magnitude);
}

double mlir::exogpu::runner::extendNarrowFloat(uint16_t bits,
                                               unsigned exponentBits,
                                               unsigned mantissaBits) {
  uint64_t exponent = (bits >> mantissaBits) & ((1u << exponentBits) - 1);
  uint64_t fraction = bits & ((1u << mantissaBits) - 1);
  bool negative = (bits >> (exponentBits + mantissaBits)) & 1;
  int bias = (1 << (exponentBits - 1)) - 1;
  double magnitude;
  if (exponent == (1u << exponentBits) - 1)
    magnitude = fraction ? std::nan("") : HUGE_VAL;
  else if (exponent == 0)
    magnitude = std::ldexp(static_cast<double>(fraction),
                           1 - bias - static_cast<int>(mantissaBits));
  else
    magnitude = std::ldexp(
        static_cast<double>(fraction | (uint64_t(1) << mantissaBits)),
        static_cast<int>(exponent) - bias - static_cast<int>(mantissaBits));
  return negative ? -magnitude : magnitude;
}

//===----------------------------------------------------------------------===//
// The compiler-runtime routines
//===----------------------------------------------------------------------===//

// The routines take and return f16 and bf16 in floating-point registers, as
// LLVM's code generators call them (the x86-64 and AArch64 psABIs pass
// _Float16 and __bf16 alike): _Float16 stands for both here.
#ifdef __FLT16_MAX__
namespace {
constexpr unsigned halfExponent = 5, halfMantissa = 10;
constexpr unsigned bfloatExponent = 8, bfloatMantissa = 7;

_Float16 fromBits(uint16_t bits) { return llvm::bit_cast<_Float16>(bits); }
uint16_t toBits(_Float16 value) { return llvm::bit_cast<uint16_t>(value); }

extern "C" _Float16 exogpuTruncDoubleToHalf(double value) {
  return fromBits(roundToNarrowFloat(value, halfExponent, halfMantissa));
}
extern "C" _Float16 exogpuTruncFloatToHalf(float value) {
  return exogpuTruncDoubleToHalf(value); // f32 -> f64 is exact.
}
extern "C" _Float16 exogpuTruncDoubleToBFloat(double value) {
  return fromBits(roundToNarrowFloat(value, bfloatExponent, bfloatMantissa));
}
extern "C" _Float16 exogpuTruncFloatToBFloat(float value) {
  return exogpuTruncDoubleToBFloat(value);
}
extern "C" double exogpuExtendHalfToDouble(_Float16 value) {
  return extendNarrowFloat(toBits(value), halfExponent, halfMantissa);
}
extern "C" float exogpuExtendHalfToFloat(_Float16 value) {
  return static_cast<float>(exogpuExtendHalfToDouble(value)); // Exact.
}
extern "C" float exogpuExtendBFloatToFloat(_Float16 value) {
  return static_cast<float>(
      extendNarrowFloat(toBits(value), bfloatExponent, bfloatMantissa));
}

/// The routines, under each name LLVM's code generators use for them.
const RunnerSymbol floatConversionSymbols[] = {
    {"__truncdfhf2", reinterpret_cast<void *>(&exogpuTruncDoubleToHalf)},
    {"__truncsfhf2", reinterpret_cast<void *>(&exogpuTruncFloatToHalf)},
    {"__gnu_f2h_ieee", reinterpret_cast<void *>(&exogpuTruncFloatToHalf)},
    {"__truncdfbf2", reinterpret_cast<void *>(&exogpuTruncDoubleToBFloat)},
    {"__truncsfbf2", reinterpret_cast<void *>(&exogpuTruncFloatToBFloat)},
    {"__extendhfdf2", reinterpret_cast<void *>(&exogpuExtendHalfToDouble)},
    {"__extendhfsf2", reinterpret_cast<void *>(&exogpuExtendHalfToFloat)},
    {"__gnu_h2f_ieee", reinterpret_cast<void *>(&exogpuExtendHalfToFloat)},
    {"__extendbfsf2", reinterpret_cast<void *>(&exogpuExtendBFloatToFloat)},
};
} // namespace

llvm::ArrayRef<RunnerSymbol> mlir::exogpu::runner::getFloatConversionSymbols() {
  return floatConversionSymbols;
}
#else
llvm::ArrayRef<RunnerSymbol> mlir::exogpu::runner::getFloatConversionSymbols() {
  return {};
}
#endif

//===----------------------------------------------------------------------===//
// The C library
//===----------------------------------------------------------------------===//

bool mlir::exogpu::runner::isCLibrarySymbol(llvm::StringRef name) {
  // What the lowered meaning calls: memory (memref allocation and copies),
  // the math functions of math-to-llvm's intrinsics in f32 and f64, and what
  // LLVM's optimizer turns loops and pow-like calls into.
  static const llvm::StringSet<> names = {
      "malloc",  "free",   "aligned_alloc", "calloc",     "realloc", "memcpy",
      "memmove", "memset", "exp2",          "exp2f",      "log2",    "log2f",
      "exp",     "expf",   "log",           "logf",       "pow",     "powf",
      "ldexp",   "ldexpf", "fmax",          "fmaxf",      "fmin",    "fminf",
      "sqrt",    "sqrtf",  "fabs",          "fabsf",      "floor",   "floorf",
      "ceil",    "ceilf",  "trunc",         "truncf",     "round",   "roundf",
      "rint",    "rintf",  "nearbyint",     "nearbyintf", "fma",     "fmaf"};
  return names.contains(name);
}
