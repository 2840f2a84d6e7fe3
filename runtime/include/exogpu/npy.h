//===- npy.h - read and write NumPy .npy files (header-only) ----*- C++ -*-===//
//
// Part of ExoGPU. The array files the sequential runner (`exogpu-run`) and
// the generated GPU drivers exchange: NumPy format version 1.0 (2.0 and 3.0
// are read too), little endian, C order. Plain C++17 with no dependencies,
// so host code compiled by nvcc can include it:
//
//   exogpu::npy::Array a;
//   std::string error = exogpu::npy::read("A.npy", a);
//   if (!error.empty()) ...
//   error = exogpu::npy::write("C.npy", "<f4", {64, 64}, data);
//
// See https://numpy.org/doc/stable/reference/generated/numpy.lib.format.html
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_RUNTIME_NPY_H
#define EXOGPU_RUNTIME_NPY_H

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace exogpu::npy {

/// An array as stored: its dtype descriptor (`<f4`, `|u1`, ...), shape and
/// raw little-endian C-order bytes.
struct Array {
  std::string descr;
  std::vector<int64_t> shape;
  std::vector<unsigned char> data;
};

/// The size in bytes of one element of `descr` (`<f4` -> 4), or 0 if it is
/// not a fixed-size little-endian or byte-order-free scalar type.
inline size_t itemSize(const std::string &descr) {
  if (descr.size() < 3 || (descr[0] != '<' && descr[0] != '|'))
    return 0;
  if (std::strchr("fiuVb", descr[1]) == nullptr)
    return 0;
  size_t size = 0;
  for (size_t i = 2; i < descr.size(); ++i) {
    if (descr[i] < '0' || descr[i] > '9' || size > (1u << 20))
      return 0;
    size = size * 10 + static_cast<size_t>(descr[i] - '0');
  }
  return size;
}

/// The number of elements of `shape` (1 for a scalar), or -1 if a dimension
/// is negative or the product overflows.
inline int64_t numElements(const std::vector<int64_t> &shape) {
  int64_t count = 1;
  for (int64_t dim : shape) {
    if (dim < 0 || (dim != 0 && count > INT64_MAX / dim))
      return -1;
    count *= dim;
  }
  return count;
}

namespace detail {
/// The value of `'key':` in the header dictionary, from after the colon.
inline const char *findKey(const std::string &header, const char *key) {
  size_t pos = header.find(key);
  if (pos == std::string::npos)
    return nullptr;
  pos = header.find(':', pos + std::strlen(key));
  if (pos == std::string::npos)
    return nullptr;
  const char *p = header.c_str() + pos + 1;
  while (*p == ' ')
    ++p;
  return p;
}

/// Parses the header dictionary into `out`; returns an error or "".
inline std::string parseHeader(const std::string &header, Array &out) {
  const char *descr = findKey(header, "'descr'");
  if (!descr || (*descr != '\'' && *descr != '"'))
    return "no 'descr' in the header";
  const char *end = std::strchr(descr + 1, *descr);
  if (!end)
    return "malformed 'descr'";
  out.descr.assign(descr + 1, end);
  const char *order = findKey(header, "'fortran_order'");
  if (!order)
    return "no 'fortran_order' in the header";
  if (std::strncmp(order, "False", 5) != 0)
    return "Fortran-order arrays are not supported (write a C-order array)";
  const char *shape = findKey(header, "'shape'");
  if (!shape || *shape != '(')
    return "no 'shape' tuple in the header";
  out.shape.clear();
  for (const char *p = shape + 1; *p != ')';) {
    if (*p == ' ' || *p == ',') {
      ++p;
      continue;
    }
    if (*p < '0' || *p > '9')
      return "malformed 'shape' in the header";
    int64_t dim = 0;
    for (; *p >= '0' && *p <= '9'; ++p) {
      if (dim > (INT64_MAX - 9) / 10)
        return "a dimension of 'shape' is too large";
      dim = dim * 10 + (*p - '0');
    }
    out.shape.push_back(dim);
  }
  return "";
}
} // namespace detail

/// Reads the .npy file at `path` into `out`. Returns "" on success, else
/// what is wrong (the file cannot be read, is not a .npy file, is in Fortran
/// order, or holds fewer bytes than its header says).
inline std::string read(const std::string &path, Array &out) {
  FILE *file = std::fopen(path.c_str(), "rb");
  if (!file)
    return "cannot open " + path;
  auto fail = [&](const std::string &message) {
    std::fclose(file);
    return path + ": " + message;
  };
  unsigned char prefix[8];
  if (std::fread(prefix, 1, 8, file) != 8 ||
      std::memcmp(prefix, "\x93NUMPY", 6) != 0)
    return fail("not a .npy file");
  size_t headerLength = 0;
  if (prefix[6] == 1) {
    unsigned char length[2];
    if (std::fread(length, 1, 2, file) != 2)
      return fail("truncated header");
    headerLength = length[0] | (size_t(length[1]) << 8);
  } else if (prefix[6] == 2 || prefix[6] == 3) {
    unsigned char length[4];
    if (std::fread(length, 1, 4, file) != 4)
      return fail("truncated header");
    headerLength = length[0] | (size_t(length[1]) << 8) |
                   (size_t(length[2]) << 16) | (size_t(length[3]) << 24);
  } else {
    return fail("unsupported .npy format version " +
                std::to_string(int(prefix[6])));
  }
  if (headerLength > (1u << 20))
    return fail("header too long");
  std::string header(headerLength, '\0');
  if (std::fread(&header[0], 1, headerLength, file) != headerLength)
    return fail("truncated header");
  std::string error = detail::parseHeader(header, out);
  if (!error.empty())
    return fail(error);
  size_t item = itemSize(out.descr);
  if (item == 0)
    return fail("unsupported dtype '" + out.descr +
                "' (little-endian scalars only)");
  int64_t count = numElements(out.shape);
  if (count < 0 || uint64_t(count) > SIZE_MAX / item)
    return fail("shape too large");
  out.data.resize(size_t(count) * item);
  if (std::fread(out.data.data(), 1, out.data.size(), file) != out.data.size())
    return fail("the data is shorter than the shape says");
  std::fclose(file);
  return "";
}

/// Writes a C-order array of dtype `descr` and `shape` whose bytes start at
/// `data` to `path` (format version 1.0). Returns "" on success, else what
/// went wrong.
inline std::string write(const std::string &path, const std::string &descr,
                         const std::vector<int64_t> &shape, const void *data) {
  size_t item = itemSize(descr);
  int64_t count = numElements(shape);
  if (item == 0 || count < 0)
    return path + ": invalid dtype or shape";
  std::string dict = "{'descr': '" + descr +
                     "', 'fortran_order': False, "
                     "'shape': (";
  for (size_t i = 0; i < shape.size(); ++i)
    dict += std::to_string(shape[i]) + (shape.size() == 1      ? ","
                                        : i + 1 < shape.size() ? ", "
                                                               : "");
  dict += "), }";
  // Pad with spaces so that the data starts at a multiple of 64 bytes.
  size_t total = 10 + dict.size() + 1;
  dict.append((64 - total % 64) % 64, ' ');
  dict += '\n';
  FILE *file = std::fopen(path.c_str(), "wb");
  if (!file)
    return "cannot create " + path;
  unsigned char prefix[10] = {0x93,
                              'N',
                              'U',
                              'M',
                              'P',
                              'Y',
                              1,
                              0,
                              static_cast<unsigned char>(dict.size() & 0xff),
                              static_cast<unsigned char>(dict.size() >> 8)};
  size_t bytes = size_t(count) * item;
  bool ok = std::fwrite(prefix, 1, 10, file) == 10 &&
            std::fwrite(dict.data(), 1, dict.size(), file) == dict.size() &&
            std::fwrite(data, 1, bytes, file) == bytes;
  ok &= std::fclose(file) == 0;
  return ok ? "" : "cannot write " + path;
}

} // namespace exogpu::npy

#endif // EXOGPU_RUNTIME_NPY_H
