#include "project.h"

static cublasHandle_t Kept;

void useOnly(cublasHandle_t H, float *X, int N) {
  const float Alpha = 2.0f;
  checkStatus(cublasSscal(H, N, &Alpha, X, 1));
}

void shutdown(cublasHandle_t H) { checkStatus(cublasDestroy(H)); }

void stash(cublasHandle_t H) { Kept = H; }

// Recursion across files: pong is in main.cpp.
void ping(cublasHandle_t H, int N) {
  if (N > 0)
    pong(H, N - 1);
}

static void releaseStatic(cublasHandle_t H) { checkStatus(cublasDestroy(H)); }
void callReleaseStatic(cublasHandle_t H) { releaseStatic(H); }

// A handle made and destroyed on every call.
int prepareOnce(float *X) {
  cublasHandle_t H;
  if (cublasCreate(&H) != CUBLAS_STATUS_SUCCESS)
    return 1;
  const float Alpha = 1.0f;
  checkStatus(cublasSscal(H, 4, &Alpha, X, 1));
  checkStatus(cublasDestroy(H));
  return 0;
}

// The same on a device it selects: one handle per device is the guidance.
int prepareOnDevice(int Device, float *X) {
  if (cudaSetDevice(Device) != cudaSuccess)
    return 1;
  cublasHandle_t H;
  if (cublasCreate(&H) != CUBLAS_STATUS_SUCCESS)
    return 1;
  const float Alpha = 1.0f;
  checkStatus(cublasSscal(H, 4, &Alpha, X, 1));
  checkStatus(cublasDestroy(H));
  return 0;
}
