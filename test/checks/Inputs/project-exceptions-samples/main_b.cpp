#include "sample.h"
#include "helpers.h"

// Runs the routine twice, on two sizes.
static void runBoth(cublasLtHandle_t ltHandle) {
  LtSgemm(ltHandle, 4, 4, 4, nullptr, nullptr, nullptr, nullptr, 0);
  LtSgemm(ltHandle, 8, 8, 8, nullptr, nullptr, nullptr, nullptr, 0);
}

int main() {
  cublasLtHandle_t ltHandle;
  checkCublasStatus(cublasLtCreate(&ltHandle));
  runBoth(ltHandle);
  checkCublasStatus(cublasLtDestroy(ltHandle));
  return 0;
}
