//===- HostArray.cpp - data buffers of the sequential runner --------------===//
//
// Part of ExoGPU. See HostArray.h.
//
//===----------------------------------------------------------------------===//

#include "ExoGPU/Runner/HostArray.h"
#include "exogpu/fill.h"
#include "exogpu/npy.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Path.h"

#include <cmath>
#include <cstring>
#include <limits>

using namespace mlir;
using namespace mlir::exogpu::runner;

static const PrecisionInfo kInfos[] = {
    {"f16", 2, "<f2", "__half", true},
    {"bf16", 2, "<u2", "__nv_bfloat16", true},
    {"f32", 4, "<f4", "float", true},
    {"f64", 8, "<f8", "double", true},
    {"i8", 1, "|i1", "int8_t", false},
    {"ui8", 1, "|u1", "uint8_t", false},
    {"ui16", 2, "<u2", "uint16_t", false},
    {"i32", 4, "<i4", "int32_t", false},
};

const PrecisionInfo &mlir::exogpu::runner::getInfo(Precision precision) {
  return kInfos[static_cast<unsigned>(precision)];
}

std::optional<Precision> mlir::exogpu::runner::getPrecision(Type type) {
  if (type.isF16())
    return Precision::F16;
  if (type.isBF16())
    return Precision::BF16;
  if (type.isF32())
    return Precision::F32;
  if (type.isF64())
    return Precision::F64;
  if (type.isSignlessInteger(8))
    return Precision::I8;
  if (type.isUnsignedInteger(8))
    return Precision::UI8;
  if (type.isUnsignedInteger(16))
    return Precision::UI16;
  if (type.isSignlessInteger(32))
    return Precision::I32;
  return std::nullopt;
}

/// The APFloat semantics of a 16-bit float precision.
static const llvm::fltSemantics &getHalfSemantics(Precision precision) {
  return precision == Precision::F16 ? llvm::APFloat::IEEEhalf()
                                     : llvm::APFloat::BFloat();
}

HostArray::HostArray(Precision precision, ArrayRef<int64_t> shape)
    : precision(precision), shape(shape) {
  numElements = 1;
  for (int64_t extent : shape)
    numElements *= extent;
  bytes.resize(numElements * getInfo(precision).bytes);
}

double HostArray::get(int64_t i) const {
  const unsigned char *p = bytes.data() + i * getInfo(precision).bytes;
  auto load = [&](auto value) {
    std::memcpy(&value, p, sizeof(value));
    return value;
  };
  switch (precision) {
  case Precision::F16:
  case Precision::BF16:
    return llvm::APFloat(getHalfSemantics(precision),
                         llvm::APInt(16, load(uint16_t())))
        .convertToDouble();
  case Precision::F32:
    return load(float());
  case Precision::F64:
    return load(double());
  case Precision::I8:
    return load(int8_t());
  case Precision::UI8:
    return load(uint8_t());
  case Precision::UI16:
    return load(uint16_t());
  case Precision::I32:
    return load(int32_t());
  }
  return 0;
}

void HostArray::fillPcg3d(uint32_t param, uint32_t seed) {
  ::exogpu::fill::fillHost(precision, bytes.data(), numElements, param, seed);
}

void HostArray::poison() {
  std::memset(bytes.data(), getInfo(precision).isFloat ? 0xFF : 0xAB,
              bytes.size());
}

llvm::Error HostArray::load(StringRef path, StringRef what) {
  ::exogpu::npy::Array file;
  std::string error = ::exogpu::npy::read(path.str(), file);
  if (!error.empty())
    return llvm::createStringError(error);
  const PrecisionInfo &info = getInfo(precision);
  auto formatShape = [](ArrayRef<int64_t> dims) {
    std::string text = "(";
    llvm::raw_string_ostream os(text);
    llvm::interleaveComma(dims, os);
    os << (dims.size() == 1 ? ",)" : ")");
    return text;
  };
  if (file.descr != info.npyDescr)
    return llvm::createStringError(path + ": dtype '" + file.descr + "', but " +
                                   what + " is " + info.name + " ('" +
                                   info.npyDescr + "')");
  if (ArrayRef<int64_t>(file.shape) != ArrayRef<int64_t>(shape))
    return llvm::createStringError(path + ": shape " + formatShape(file.shape) +
                                   ", but " + what + " has shape " +
                                   formatShape(shape));
  bytes = std::move(file.data);
  return llvm::Error::success();
}

llvm::Error HostArray::save(StringRef path) const {
  if (std::error_code error =
          llvm::sys::fs::create_directories(llvm::sys::path::parent_path(path)))
    return llvm::createStringError("cannot create the folder of " + path +
                                   ": " + error.message());
  std::string error = ::exogpu::npy::write(
      path.str(), getInfo(precision).npyDescr.str(),
      std::vector<int64_t>(shape.begin(), shape.end()), bytes.data());
  if (!error.empty())
    return llvm::createStringError(error);
  return llvm::Error::success();
}

std::string HostArray::formatIndex(int64_t i) const {
  SmallVector<int64_t> index(shape.size());
  for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
    index[d] = shape[d] ? i % shape[d] : 0;
    i = shape[d] ? i / shape[d] : 0;
  }
  std::string text = "[";
  llvm::raw_string_ostream os(text);
  llvm::interleaveComma(index, os);
  os << ']';
  return text;
}

ArraySummary mlir::exogpu::runner::summarize(const HostArray &array) {
  ArraySummary summary;
  summary.min = std::numeric_limits<double>::infinity();
  summary.max = -summary.min;
  for (int64_t i = 0, e = array.getNumElements(); i < e; ++i) {
    double value = array.get(i);
    if (std::isnan(value)) {
      ++summary.nanCount;
      continue;
    }
    summary.sum += value;
    summary.min = std::min(summary.min, value);
    summary.max = std::max(summary.max, value);
  }
  if (summary.nanCount == array.getNumElements())
    summary.min = summary.max = std::nan("");
  summary.hash = 0xcbf29ce484222325ull;
  for (size_t i = 0, e = array.getNumBytes(); i < e; ++i) {
    summary.hash ^= array.getData()[i];
    summary.hash *= 0x100000001b3ull;
  }
  return summary;
}

void mlir::exogpu::runner::printSummary(llvm::raw_ostream &os, StringRef name,
                                        const HostArray &array) {
  ArraySummary summary = summarize(array);
  os << name << ": " << getInfo(array.getPrecision()).name;
  if (!array.getShape().empty()) {
    os << '[';
    llvm::interleaveComma(array.getShape(), os);
    os << ']';
  }
  // Integers (and their sums, below 2^53) print exactly.
  const char *format = getInfo(array.getPrecision()).isFloat
                           ? " sum %.9g min %.9g max %.9g"
                           : " sum %.0f min %.0f max %.0f";
  os << llvm::format(format, summary.sum, summary.min, summary.max)
     << llvm::format(" nan %lld fnv1a 0x%016llx\n",
                     static_cast<long long>(summary.nanCount),
                     static_cast<unsigned long long>(summary.hash));
}
