// RUN: %check_clang_tidy %s cublas-unchecked-status %t

// C: enum types convert implicitly, so a cublasStatus_t flows into
// cudaError_t without a cast.
#include <cublas_v2.h>
#include <cuda_runtime.h>

const char *describe(cudaError_t);

int f(cublasHandle_t h, const float *x, float *y, int n) {
  const float one = 1.0f;
  cublasSaxpy(h, n, &one, x, 1, y, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the cublasStatus_t returned by 'cublasSaxpy' is discarded
  cudaError_t err = cublasSaxpy(h, n, &one, x, 1, y, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: cublasStatus_t from 'cublasSaxpy' converted to cudaError_t
  if (err != cudaSuccess)
    return 1;
  cublasStatus_t st = cublasDestroy(h);
  describe(st);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: cublasStatus_t from 'st' converted to cudaError_t
  if (cublasCreate(&h) != cudaSuccess)
    // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: a cublasStatus_t compared with the cudaError_t value 'cudaSuccess'
    return 2;
  st = cublasDestroy(h);
  if (st != CUBLAS_STATUS_SUCCESS)
    return 3;
  return 0;
}
