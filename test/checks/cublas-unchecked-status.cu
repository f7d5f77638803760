// RUN: %check_clang_tidy %s cublas-unchecked-status %t
// REQUIRES: real-cuda-headers

// A .cu file: the plugin run passes --cuda-host-only, the standalone driver
// adds it itself. Kernels and launches parse; only the host side is checked.
#include <cublas_v2.h>
#include <cuda_runtime.h>

__global__ void scale(float *v, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    v[i] *= s;
}

int run(cublasHandle_t h, float *d_x, float *d_y, int n) {
  const float one = 1.0f;
  scale<<<(n + 255) / 256, 256>>>(d_x, 2.0f, n);
  cublasSaxpy(h, n, &one, d_x, 1, d_y, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the cublasStatus_t returned by 'cublasSaxpy' is discarded
  if (cublasDestroy(h) != CUBLAS_STATUS_SUCCESS)
    return 1;
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 2;
}
