//===- HostArray.h - data buffers of the sequential runner ------*- C++ -*-===//
//
// Part of ExoGPU. The host-side contents of one data parameter: precision,
// shape and row-major bytes. Arrays are filled deterministically from the
// pcg3d hash (seeds/002 Sec. 6 generates its inputs with it; Jarzynski and
// Olano 2020), poisoned, summarized, and read from / written to .npy files
// (runtime/include/exogpu/npy.h, shared with the generated GPU drivers).
// docs/running.md states the fill and poison patterns exactly.
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_RUNNER_HOSTARRAY_H
#define EXOGPU_RUNNER_HOSTARRAY_H

#include "exogpu/fill.h"
#include "mlir/IR/Types.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <vector>

namespace mlir::exogpu::runner {

/// The precisions of data buffers (seeds/002 Fig. 10 plus bf16): the
/// element kinds of the input fill the runner shares with the GPU drivers
/// (runtime/include/exogpu/fill.h).
using Precision = ::exogpu::fill::Kind;

/// Facts about one precision.
struct PrecisionInfo {
  /// The spelling in exogpu types: "f32", "ui8", ...
  StringRef name;
  unsigned bytes;
  /// The NumPy dtype of its .npy files; bf16 (which NumPy lacks) is stored
  /// as its 16-bit patterns, "<u2".
  StringRef npyDescr;
  /// The C++ element type of the host API of `exogpu-translate`.
  StringRef cudaType;
  bool isFloat;
};

/// The precision of an exogpu element type, if it is one.
std::optional<Precision> getPrecision(Type type);

const PrecisionInfo &getInfo(Precision precision);

/// Row-major contents of one buffer.
class HostArray {
public:
  HostArray(Precision precision, ArrayRef<int64_t> shape);

  Precision getPrecision() const { return precision; }
  ArrayRef<int64_t> getShape() const { return shape; }
  int64_t getNumElements() const { return numElements; }
  unsigned char *getData() { return bytes.data(); }
  const unsigned char *getData() const { return bytes.data(); }
  size_t getNumBytes() const { return bytes.size(); }

  /// Element `i` (row-major) as a double (exact for every precision).
  double get(int64_t i) const;

  /// Fills element i with pcg3d(i, param, seed): floats uniform in [-1, 1)
  /// on a 2^-23 grid, rounded to the precision; integers the hash's top
  /// bits (see docs/running.md). The fill is runtime/include/exogpu/fill.h,
  /// which the GPU drivers run on the device.
  void fillPcg3d(uint32_t param, uint32_t seed);

  /// Fills every byte with 0xFF for floats (a NaN in every float
  /// precision) or 0xAB for integers: what a write-only output holds before
  /// the proc runs, on the CPU and in the GPU driver alike.
  void poison();

  /// Reads `path`, which must hold this array's precision and shape;
  /// `what` names the parameter in errors.
  llvm::Error load(StringRef path, StringRef what);

  /// Writes the array as a .npy file, creating its folder if missing.
  llvm::Error save(StringRef path) const;

  /// The row-major multi-index of element `i`, as "[i, j]".
  std::string formatIndex(int64_t i) const;

private:
  Precision precision;
  SmallVector<int64_t> shape;
  int64_t numElements;
  std::vector<unsigned char> bytes;
};

/// Checksum, range and NaN count of an array.
struct ArraySummary {
  /// The sum in double precision, in row-major order, NaNs skipped.
  double sum = 0;
  double min = 0, max = 0;
  int64_t nanCount = 0;
  /// FNV-1a (64 bit) of the bytes: equal arrays have equal hashes.
  uint64_t hash = 0;
};

ArraySummary summarize(const HostArray &array);

/// Prints `name: f32[64, 64] sum ... min ... max ... nan N fnv1a 0x...`.
void printSummary(llvm::raw_ostream &os, StringRef name,
                  const HostArray &array);

} // namespace mlir::exogpu::runner

#endif // EXOGPU_RUNNER_HOSTARRAY_H
