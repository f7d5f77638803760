#include <cublas_v2.h>

int work(cublasHandle_t handle, bool early) {
  cublasHandle_t local;
  if (cublasCreate(&local) != CUBLAS_STATUS_SUCCESS)
    return -1;
  if (early)
    return 1;
  cublasDestroy(local);
  cublasSetStream(handle, nullptr);
  return 0;
}
