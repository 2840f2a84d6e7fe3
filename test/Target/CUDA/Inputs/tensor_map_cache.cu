//===- tensor_map_cache.cu - exo::TensorMapCache against a counting encoder ===//
//
// Part of ExoGPU (tensor-map-cache.test). Drives the per-call-site cache of
// the runtime with an encoder that counts its calls and writes its call
// number into the map, so that a reused map is told from a new one, and
// prints what each call returned.
//
//===----------------------------------------------------------------------===//

#include "exogpu/runtime.cuh"

#include <cstdio>

namespace {

int encodings = 0;
bool refuse = false;

cudaError_t countingEncoder(CUtensorMap *map, CUtensorMapDataType, unsigned,
                            const void *, const cuuint64_t *,
                            const cuuint64_t *, const cuuint32_t *,
                            CUtensorMapSwizzle) {
  if (refuse)
    return cudaErrorInvalidValue;
  std::memset(map, 0, sizeof(*map));
  reinterpret_cast<int *>(map)[0] = ++encodings;
  return cudaSuccess;
}

/// Encodes a 2-D map of `rows` x 64 floats at `address` through `cache` and
/// prints which encoding the returned map is.
void call(exo::TensorMapCache &cache, const char *what, const void *address,
          cuuint64_t rows, CUtensorMapSwizzle swizzle) {
  const cuuint64_t dims[] = {64, rows};
  const cuuint64_t strides[] = {256};
  const cuuint32_t box[] = {32, 128};
  CUtensorMap map;
  cudaError_t status =
      cache.encode(&map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, address, dims,
                   strides, box, swizzle, countingEncoder);
  if (status != cudaSuccess)
    std::printf("%s: error %d (%d encodings)\n", what, int(status), encodings);
  else
    std::printf("%s: map %d (%d encodings)\n", what,
                reinterpret_cast<int *>(&map)[0], encodings);
}

} // namespace

int main() {
  exo::TensorMapCache cache;
  alignas(16) static char tensors[16][256];
  call(cache, "first", tensors[0], 1024, CU_TENSOR_MAP_SWIZZLE_128B);
  call(cache, "same", tensors[0], 1024, CU_TENSOR_MAP_SWIZZLE_128B);
  call(cache, "other shape", tensors[0], 2048, CU_TENSOR_MAP_SWIZZLE_128B);
  call(cache, "other swizzle", tensors[0], 1024, CU_TENSOR_MAP_SWIZZLE_NONE);
  call(cache, "other tensor", tensors[1], 1024, CU_TENSOR_MAP_SWIZZLE_128B);
  call(cache, "first again", tensors[0], 1024, CU_TENSOR_MAP_SWIZZLE_128B);
  // A failed encoding is returned and not kept.
  refuse = true;
  call(cache, "refused", tensors[2], 1024, CU_TENSOR_MAP_SWIZZLE_128B);
  refuse = false;
  call(cache, "after refusal", tensors[2], 1024, CU_TENSOR_MAP_SWIZZLE_128B);
  // Eight entries: tensors 3..9 fill the last three and push out the four
  // oldest (tensor 0's three maps, tensor 1's); tensor 2's stays.
  for (int i = 3; i < 10; ++i)
    call(cache, "fill", tensors[i], 1024, CU_TENSOR_MAP_SWIZZLE_128B);
  call(cache, "tensor 2 kept", tensors[2], 1024, CU_TENSOR_MAP_SWIZZLE_128B);
  call(cache, "tensor 0 replaced", tensors[0], 1024,
       CU_TENSOR_MAP_SWIZZLE_128B);
  return 0;
}
