#include "lib.h"

#include <stdexcept>

static void checkStatus(cublasStatus_t s) {
  if (s != CUBLAS_STATUS_SUCCESS)
    throw std::runtime_error("cuBLAS failed");
}

void scaleOrThrow(float *x, int n) {
  cublasHandle_t h;
  checkStatus(cublasCreate(&h));
  const float a = 2.0f;
  checkStatus(cublasSscal(h, n, &a, x, 1));
  checkStatus(cublasDestroy(h));
}

void scaleDeep(float *x, int n) {
  cublasHandle_t h;
  checkStatus(cublasCreate(&h));
  const float a = 2.0f;
  checkStatus(cublasSscal(h, n, &a, x, 1));
  checkStatus(cublasDestroy(h));
}

void scaleUncaught(float *x, int n) {
  cublasHandle_t h;
  checkStatus(cublasCreate(&h));
  const float a = 2.0f;
  checkStatus(cublasSscal(h, n, &a, x, 1));
  checkStatus(cublasDestroy(h));
}

void scaleUnused(float *x, int n) {
  cublasHandle_t h;
  checkStatus(cublasCreate(&h));
  const float a = 2.0f;
  checkStatus(cublasSscal(h, n, &a, x, 1));
  checkStatus(cublasDestroy(h));
}
