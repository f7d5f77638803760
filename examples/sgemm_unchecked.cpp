// C = A * B on the GPU with every cuBLAS status ignored: when a call fails
// (no GPU memory, a bad argument) the program prints garbage and exits 0.
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <vector>

int main() {
  const int n = 512;
  std::vector<float> hA(n * n, 1.0f), hB(n * n, 2.0f), hC(n * n);
  float *dA, *dB, *dC;
  cudaMalloc(&dA, n * n * sizeof(float));
  cudaMalloc(&dB, n * n * sizeof(float));
  cudaMalloc(&dC, n * n * sizeof(float));

  cublasHandle_t handle;
  cublasCreate(&handle);
  cublasSetMatrix(n, n, sizeof(float), hA.data(), n, dA, n);
  cublasSetMatrix(n, n, sizeof(float), hB.data(), n, dB, n);

  const float alpha = 1.0f, beta = 0.0f;
  cublasStatus_t status = cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n,
                                      n, &alpha, dA, n, dB, n, &beta, dC, n);
  status = cublasGetMatrix(n, n, sizeof(float), dC, n, hC.data(), n);
  if (status != cudaSuccess) {
    std::fprintf(stderr, "copy back failed\n");
    return 1;
  }
  std::printf("C[0] = %f\n", hC[0]);

  cudaFree(dA);
  cudaFree(dB);
  cudaFree(dC);
  cublasDestroy(handle);
  return 0;
}
