#include "project.h"
#include <cstdio>

// A checker: looks at the status, and gives it back.
cublasStatus_t checkStatus(cublasStatus_t Status) {
  if (Status != CUBLAS_STATUS_SUCCESS)
    std::fprintf(stderr, "cuBLAS error %d\n", static_cast<int>(Status));
  return Status;
}

// A wrapper: returns the status of the call it makes, unseen.
cublasStatus_t scaleWrapper(cublasHandle_t H, int N, float *X) {
  const float Alpha = 2.0f;
  return cublasSscal(H, N, &Alpha, X, 1);
}

// Copies the host data to a device buffer of its own: X is host memory.
cublasStatus_t scaleCopy(cublasHandle_t H, int N, const float *X) {
  float *Device = nullptr;
  if (cudaMalloc(reinterpret_cast<void **>(&Device), N * sizeof(float)) != cudaSuccess)
    return CUBLAS_STATUS_ALLOC_FAILED;
  cublasStatus_t Status = cublasSetVector(N, sizeof(float), X, 1, Device, 1);
  const float Alpha = 2.0f;
  if (Status == CUBLAS_STATUS_SUCCESS)
    Status = cublasSscal(H, N, &Alpha, Device, 1);
  cudaFree(Device);
  return Status;
}
