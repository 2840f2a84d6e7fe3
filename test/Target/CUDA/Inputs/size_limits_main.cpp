// Calls the host functions of size_limits.mlir with values their kernels cannot
// compute in int, and with values they can; prints whether each call was
// refused (cudaErrorInvalidValue) before anything ran.
#include "size_limits.h"

#include <cstdio>

static void report(const char *call, cudaError_t status) {
  std::printf("%s: %s\n", call,
              status == cudaErrorInvalidValue ? "refused" : "not refused");
}

int main() {
  report("square_tasks(46340)", square_tasks(nullptr, 46340, nullptr));
  report("square_tasks(46341)", square_tasks(nullptr, 46341, nullptr));
  report("bytes(2^29 - 8)", bytes(nullptr, (1ll << 29) - 8, nullptr));
  report("bytes(2^29 + 32)", bytes(nullptr, (1ll << 29) + 32, nullptr));
  report("offset(2^31 - 1)", offset(nullptr, (1ll << 31) - 1, nullptr));
  report("offset(2^32 + 1)", offset(nullptr, (1ll << 32) + 1, nullptr));
  report("offset(-2^31 - 1)", offset(nullptr, -(1ll << 31) - 1, nullptr));
  return 0;
}
