//===- fill.h - the pcg3d input fill, for host and device code --*- C++ -*-===//
//
// Part of ExoGPU. The deterministic input fill of the sequential runner
// (`exogpu-run`) and of the generated GPU drivers, docs/running.md "The
// fill": element `i` (row-major) of the data parameter at position `P` of a
// proc's signature, with seed `S`, derives from `x`, the first component of
// pcg3d(i mod 2^32, P, S) (Jarzynski and Olano, "Hash Functions for GPU
// Rendering", JCGT 2020; the hash the paper's benchmarks use, seeds/002
// Sec. 6):
//  * floats: 2 * (x >> 8) * 2^-24 - 1, uniform in [-1, 1) on a 2^-23 grid
//    (exact in f32 and f64), rounded to nearest-even for f16 and bf16;
//  * i8 and ui8: x >> 24; ui16: x >> 16; i32: the bits of x.
//
// Plain C++17 without dependencies: every function is usable in host code
// and, compiled by nvcc, in device code, and no step rounds (the float
// value is an exact integer times a power of two, the 16-bit conversions
// work on the bits), so host and device fills are equal bit for bit
// whatever the compiler contracts. With nvcc, `fillDevice` fills a device
// buffer with a kernel.
//
//   exogpu::fill::fillHost(exogpu::fill::Kind::F32, data, count, P, S);
//   cudaError_t e = exogpu::fill::fillDevice(kind, ptr, count, P, S, stream);
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_RUNTIME_FILL_H
#define EXOGPU_RUNTIME_FILL_H

#include <cstdint>
#include <cstring>

#ifdef __CUDACC__
#include <cuda_runtime.h>
#define EXOGPU_FILL_HD __host__ __device__
#else
#define EXOGPU_FILL_HD
#endif

namespace exogpu::fill {

/// The element types of data parameters: the exogpu precision names in
/// upper case (the generated drivers spell them so).
enum class Kind { F16, BF16, F32, F64, I8, UI8, UI16, I32 };

/// Bytes per element of `kind`.
EXOGPU_FILL_HD inline unsigned elementBytes(Kind kind) {
  switch (kind) {
  case Kind::F16:
  case Kind::BF16:
  case Kind::UI16:
    return 2;
  case Kind::F32:
  case Kind::I32:
    return 4;
  case Kind::F64:
    return 8;
  case Kind::I8:
  case Kind::UI8:
    return 1;
  }
  return 0;
}

/// The first component of pcg3d(x, y, z), all arithmetic wrapping on
/// unsigned 32-bit integers.
EXOGPU_FILL_HD inline uint32_t pcg3d(uint32_t x, uint32_t y, uint32_t z) {
  x = x * 1664525u + 1013904223u;
  y = y * 1664525u + 1013904223u;
  z = z * 1664525u + 1013904223u;
  x += y * z;
  y += z * x;
  z += x * y;
  x ^= x >> 16;
  y ^= y >> 16;
  z ^= z >> 16;
  x += y * z;
  y += z * x;
  z += x * y;
  return x;
}

/// 2 * (x >> 8) * 2^-24 - 1, exactly: an integer of at most 25 bits times
/// a power of two.
EXOGPU_FILL_HD inline float floatValue(uint32_t x) {
  return static_cast<float>(static_cast<int32_t>(x >> 8) * 2 - (1 << 24)) *
         0x1p-24f;
}

/// The bits of an f32 value.
EXOGPU_FILL_HD inline uint32_t floatBits(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  return bits;
}

/// `value` rounded to nearest-even IEEE binary16, as bits.
EXOGPU_FILL_HD inline uint16_t toHalfBits(float value) {
  uint32_t bits = floatBits(value);
  auto sign = static_cast<uint16_t>((bits >> 16) & 0x8000u);
  uint32_t magnitude = bits & 0x7FFFFFFFu;
  if (magnitude > 0x7F800000u) // NaN: a quiet NaN
    return sign | 0x7E00u;
  if (magnitude >= 0x47800000u) // 2^16 and up (and infinity): infinity
    return sign | 0x7C00u;
  if (magnitude >= 0x38800000u) { // 2^-14 and up: a normal half
    // Rebias the exponent (127 -> 15) and round away 13 mantissa bits; a
    // carry moves into the exponent (up to infinity from 65520 on).
    uint32_t rebiased = magnitude - (112u << 23);
    return sign | static_cast<uint16_t>(
                      (rebiased + 0xFFFu + ((rebiased >> 13) & 1u)) >> 13);
  }
  if (magnitude < 0x33000000u) // below 2^-25: zero (2^-25 ties to zero)
    return sign;
  // A subnormal half counts units of 2^-24: the 24-bit significand times
  // 2^(exponent - 126), exponent in [102, 112].
  uint32_t significand = (magnitude & 0x7FFFFFu) | 0x800000u;
  unsigned shift = 126u - (magnitude >> 23);
  uint32_t units = significand >> shift;
  uint32_t rest = significand & ((1u << shift) - 1u);
  uint32_t half = 1u << (shift - 1u);
  if (rest > half || (rest == half && (units & 1u)))
    ++units; // 0x400 (the smallest normal) is its right encoding
  return sign | static_cast<uint16_t>(units);
}

/// `value` rounded to nearest-even bfloat16, as bits.
EXOGPU_FILL_HD inline uint16_t toBFloat16Bits(float value) {
  uint32_t bits = floatBits(value);
  if ((bits & 0x7FFFFFFFu) > 0x7F800000u) // NaN: a quiet NaN
    return static_cast<uint16_t>((bits >> 16) | 0x40u);
  return static_cast<uint16_t>((bits + 0x7FFFu + ((bits >> 16) & 1u)) >> 16);
}

/// Writes element `i` of a buffer of `kind` at `data`: the fill of the data
/// parameter at position `param` with seed `seed`.
EXOGPU_FILL_HD inline void fillElement(Kind kind, void *data, int64_t i,
                                       uint32_t param, uint32_t seed) {
  uint32_t x = pcg3d(static_cast<uint32_t>(i), param, seed);
  auto *bytes = static_cast<unsigned char *>(data);
  switch (kind) {
  case Kind::F16: {
    uint16_t bits = toHalfBits(floatValue(x));
    std::memcpy(bytes + 2 * i, &bits, 2);
    return;
  }
  case Kind::BF16: {
    uint16_t bits = toBFloat16Bits(floatValue(x));
    std::memcpy(bytes + 2 * i, &bits, 2);
    return;
  }
  case Kind::F32: {
    float value = floatValue(x);
    std::memcpy(bytes + 4 * i, &value, 4);
    return;
  }
  case Kind::F64: {
    double value = floatValue(x);
    std::memcpy(bytes + 8 * i, &value, 8);
    return;
  }
  case Kind::I8:
  case Kind::UI8:
    bytes[i] = static_cast<unsigned char>(x >> 24);
    return;
  case Kind::UI16: {
    auto bits = static_cast<uint16_t>(x >> 16);
    std::memcpy(bytes + 2 * i, &bits, 2);
    return;
  }
  case Kind::I32:
    std::memcpy(bytes + 4 * i, &x, 4);
    return;
  }
}

/// Fills `count` elements of a host buffer.
inline void fillHost(Kind kind, void *data, int64_t count, uint32_t param,
                     uint32_t seed) {
  for (int64_t i = 0; i < count; ++i)
    fillElement(kind, data, i, param, seed);
}

#ifdef __CUDACC__
/// Fills `count` elements of a device buffer, a grid-stride loop (the
/// switch on `kind` is uniform across the grid). A template, so that every
/// translation unit may include the header.
template <typename = void>
__global__ void fillKernel(Kind kind, void *data, int64_t count, uint32_t param,
                           uint32_t seed) {
  int64_t stride = int64_t(gridDim.x) * blockDim.x;
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < count;
       i += stride)
    fillElement(kind, data, i, param, seed);
}

/// Enqueues the fill of `count` elements of the device buffer `data` on
/// `stream`; returns the launch's error.
inline cudaError_t fillDevice(Kind kind, void *data, int64_t count,
                              uint32_t param, uint32_t seed,
                              cudaStream_t stream) {
  if (count <= 0)
    return cudaSuccess;
  constexpr int threads = 256;
  int64_t blocks = (count + threads - 1) / threads;
  fillKernel<><<<static_cast<unsigned>(blocks < 4096 ? blocks : 4096), threads,
                 0, stream>>>(kind, data, count, param, seed);
  return cudaGetLastError();
}
#endif // __CUDACC__

} // namespace exogpu::fill

#endif // EXOGPU_RUNTIME_FILL_H
