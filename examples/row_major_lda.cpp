// A row-major M x K matrix handed to column-major cuBLAS with lda = K: for
// M > K cuBLAS rejects it ("parameter number 8 had an illegal value",
// CUBLAS_STATUS_INVALID_VALUE); the status is checked, so the run stops.
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

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
  const int M = 512, N = 256, K = 128;
  float *dA, *dB, *dC;
  if (cudaMalloc(&dA, M * K * sizeof(float)) != cudaSuccess ||
      cudaMalloc(&dB, K * N * sizeof(float)) != cudaSuccess ||
      cudaMalloc(&dC, M * N * sizeof(float)) != cudaSuccess)
    return 1;
  cublasHandle_t handle;
  CUBLAS_CHECK(cublasCreate(&handle));
  const float alpha = 1.0f, beta = 0.0f;
  // Leading dimensions written for row-major storage: lda must be >= M.
  CUBLAS_CHECK(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, M, N, K, &alpha,
                           dA, K, dB, N, &beta, dC, N));
  CUBLAS_CHECK(cublasDestroy(handle));
  cudaFree(dA);
  cudaFree(dB);
  cudaFree(dC);
  return 0;
}
