//===- fill_dump.cpp - write the pcg3d fill of one array as .npy ----------===//
//
// Part of ExoGPU's tests. Writes N elements of the input fill
// (runtime/include/exogpu/fill.h) of the data parameter at position PARAM
// with seed SEED, as exogpu-run --write-inputs writes a rank-1 input:
//
//   fill_dump PRECISION N PARAM SEED OUT.npy [--device]
//
// Plain C++17 for the host; compiled by nvcc as CUDA, --device fills on the
// GPU (exit 77 without one).
//
//===----------------------------------------------------------------------===//

#include "exogpu/fill.h"
#include "exogpu/npy.h"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using exogpu::fill::Kind;

int main(int argc, char **argv) {
  if (argc < 6) {
    std::fprintf(stderr, "usage: fill_dump PRECISION N PARAM SEED OUT.npy "
                         "[--device]\n");
    return 1;
  }
  struct Named {
    const char *name, *descr;
    Kind kind;
  };
  const Named kinds[] = {
      {"f16", "<f2", Kind::F16},   {"bf16", "<u2", Kind::BF16},
      {"f32", "<f4", Kind::F32},   {"f64", "<f8", Kind::F64},
      {"i8", "|i1", Kind::I8},     {"ui8", "|u1", Kind::UI8},
      {"ui16", "<u2", Kind::UI16}, {"i32", "<i4", Kind::I32}};
  const Named *named = nullptr;
  for (const Named &k : kinds)
    if (std::string(argv[1]) == k.name)
      named = &k;
  if (!named) {
    std::fprintf(stderr, "fill_dump: unknown precision %s\n", argv[1]);
    return 1;
  }
  int64_t count = std::atoll(argv[2]);
  auto param = static_cast<uint32_t>(std::strtoul(argv[3], nullptr, 10));
  auto seed = static_cast<uint32_t>(std::strtoul(argv[4], nullptr, 10));
  std::vector<unsigned char> data(count *
                                  exogpu::fill::elementBytes(named->kind));
  bool device = argc > 6 && std::string(argv[6]) == "--device";
  if (device) {
#ifdef __CUDACC__
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
      std::fprintf(stderr, "fill_dump: no CUDA device\n");
      return 77;
    }
    void *buffer = nullptr;
    if (cudaMalloc(&buffer, data.size()) != cudaSuccess ||
        exogpu::fill::fillDevice(named->kind, buffer, count, param, seed,
                                 nullptr) != cudaSuccess ||
        cudaMemcpy(data.data(), buffer, data.size(), cudaMemcpyDeviceToHost) !=
            cudaSuccess) {
      std::fprintf(stderr, "fill_dump: CUDA error\n");
      return 2;
    }
#else
    std::fprintf(stderr, "fill_dump: --device needs a CUDA build\n");
    return 1;
#endif
  } else {
    exogpu::fill::fillHost(named->kind, data.data(), count, param, seed);
  }
  std::string error =
      exogpu::npy::write(argv[5], named->descr, {count}, data.data());
  if (!error.empty()) {
    std::fprintf(stderr, "fill_dump: %s\n", error.c_str());
    return 1;
  }
  return 0;
}
