#include "sample.h"
#include "helpers.h"

int main() {
  cublasLtHandle_t ltHandle;
  checkCublasStatus(cublasLtCreate(&ltHandle));
  LtSgemm(ltHandle, 4, 4, 4, nullptr, nullptr, nullptr, nullptr, 0);
  checkCublasStatus(cublasLtDestroy(ltHandle));
  return 0;
}
