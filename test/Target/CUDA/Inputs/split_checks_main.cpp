// Calls the host functions of split_checks.mlir with extents their splits
// divide and with extents they do not; prints whether each call was refused
// (cudaErrorInvalidValue). M = 0: no kernel runs, so a call that is not
// refused needs no device.
#include "split_checks.h"

#include <cstdio>

static void report(const char *call, cudaError_t status) {
  std::printf("%s: %s\n", call,
              status == cudaErrorInvalidValue ? "refused" : "not refused");
}

int main() {
  report("row_chunk_sums(K = 128)",
         row_chunk_sums(nullptr, 0, 128, nullptr, nullptr));
  report("row_chunk_sums(K = 96)",
         row_chunk_sums(nullptr, 0, 96, nullptr, nullptr));
  report("row_chunk_sums(K = 32)",
         row_chunk_sums(nullptr, 0, 32, nullptr, nullptr));
  report("scale_chunks(K = 64)", scale_chunks(nullptr, 0, 64, nullptr));
  report("scale_chunks(K = 48)", scale_chunks(nullptr, 0, 48, nullptr));
  return 0;
}
