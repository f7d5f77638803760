#include <cublas_v2.h>

int gemm(cublasHandle_t, float *, float *, float *);

int setup() {
  cublasHandle_t handle;
  if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS)
    return 1;
  if (cublasSetStream(handle, nullptr) != CUBLAS_STATUS_SUCCESS)
    return 2;
  cublasDestroy(handle);
  return 0;
}
