// A GEMM wrapper that creates a handle per call and leaks it when the GEMM
// fails: a long-running service ends in CUBLAS_STATUS_ALLOC_FAILED at some
// later cublasCreate.
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <cstdio>

int gemm(const float *dA, const float *dB, float *dC, int m, int n, int k) {
  cublasHandle_t handle;
  if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS)
    return -1;
  const float alpha = 1.0f, beta = 0.0f;
  cublasStatus_t st = cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k,
                                  &alpha, dA, m, dB, k, &beta, dC, m);
  if (st != CUBLAS_STATUS_SUCCESS) {
    std::fprintf(stderr, "sgemm failed: %s\n", cublasGetStatusString(st));
    return -1; // the handle leaks here
  }
  cublasDestroy(handle);
  return 0;
}

int main() {
  const int m = 256, n = 128, k = 64;
  float *dA = nullptr, *dB = nullptr, *dC = nullptr;
  if (cudaMalloc(&dA, m * k * sizeof(float)) != cudaSuccess ||
      cudaMalloc(&dB, k * n * sizeof(float)) != cudaSuccess ||
      cudaMalloc(&dC, m * n * sizeof(float)) != cudaSuccess)
    return 1;
  for (int i = 0; i < 1000; ++i)
    if (gemm(dA, dB, dC, m, n, k) != 0)
      return 1;
  cudaFree(dA);
  cudaFree(dB);
  cudaFree(dC);
  return 0;
}
