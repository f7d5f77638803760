#include "ops.h"

#include <stdexcept>

static void checkStatus(cublasStatus_t s) {
  if (s != CUBLAS_STATUS_SUCCESS)
    throw std::runtime_error("cuBLAS failed");
}

void scaleInPlace(float *data, int n) {
  cublasHandle_t h;
  checkStatus(cublasCreate(&h));
  const float two = 2.0f;
  checkStatus(cublasSscal(h, n, &two, data, 1));
  checkStatus(cublasDestroy(h));
}
