// y = alpha * x + y with x still in host memory: the kernel reads a host
// address and the context dies with cudaErrorIllegalAddress (or, with HMM,
// crawls through page faults).
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

#define CUBLAS_CHECK(call)                                                     \
  do {                                                                         \
    cublasStatus_t s_ = (call);                                                \
    if (s_ != CUBLAS_STATUS_SUCCESS) {                                         \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                  \
                   cublasGetStatusString(s_));                                 \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

int main() {
  const int n = 1 << 20;
  std::vector<float> x(n, 1.0f), y(n, 2.0f);
  float *dY = nullptr;
  if (cudaMalloc(&dY, n * sizeof(float)) != cudaSuccess)
    return 1;
  cublasHandle_t handle;
  CUBLAS_CHECK(cublasCreate(&handle));
  CUBLAS_CHECK(cublasSetVector(n, sizeof(float), y.data(), 1, dY, 1));
  const float alpha = 3.0f;
  CUBLAS_CHECK(cublasSaxpy(handle, n, &alpha, x.data(), 1, dY, 1));
  CUBLAS_CHECK(cublasGetVector(n, sizeof(float), dY, 1, y.data(), 1));
  std::printf("y[0] = %f\n", y[0]);
  CUBLAS_CHECK(cublasDestroy(handle));
  cudaFree(dY);
  return 0;
}
