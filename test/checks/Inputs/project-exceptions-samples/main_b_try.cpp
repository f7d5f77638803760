#include "sample.h"
#include "helpers.h"

#include <cstdio>

// Tries a size, and goes on to the next when it fails.
static void runBoth(cublasLtHandle_t ltHandle) {
  for (int size : {4, 8}) {
    try {
      LtSgemm(ltHandle, size, size, size, nullptr, nullptr, nullptr, nullptr,
              0);
    } catch (const std::exception &e) {
      std::printf("size %d: %s\n", size, e.what());
    }
  }
}

int main() {
  cublasLtHandle_t ltHandle;
  checkCublasStatus(cublasLtCreate(&ltHandle));
  runBoth(ltHandle);
  checkCublasStatus(cublasLtDestroy(ltHandle));
  return 0;
}
