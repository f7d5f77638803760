#include <cublas_v2.h>
#include <cuda_runtime.h>

#include "config.h"

__global__ void fill(float *p, float v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] = v;
}

int gemm(cublasHandle_t handle, float *dA, float *dB, float *dC) {
  const int n = MATRIX_N;
  fill<<<(n * n + 255) / 256, 256>>>(dA, 1.0f, n * n);
  const float alpha = 1.0f, beta = 0.0f;
  cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha, dA, n, dB, n,
              &beta, dC, n);
  return 0;
}
