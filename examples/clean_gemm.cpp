// The same GEMM done right: every status checked, device memory for every
// operand, column-major leading dimensions, the handle destroyed on every
// path. No cublas-* check reports anything here.
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <vector>

static bool ok(cublasStatus_t st, const char *what) {
  if (st == CUBLAS_STATUS_SUCCESS)
    return true;
  std::fprintf(stderr, "%s: %s\n", what, cublasGetStatusString(st));
  return false;
}

static int run(cublasHandle_t handle, int m, int n, int k) {
  std::vector<float> hA(m * k, 1.0f), hB(k * n, 2.0f), hC(m * n);
  float *dA = nullptr, *dB = nullptr, *dC = nullptr;
  int rc = 1;
  if (cudaMalloc(&dA, hA.size() * sizeof(float)) != cudaSuccess ||
      cudaMalloc(&dB, hB.size() * sizeof(float)) != cudaSuccess ||
      cudaMalloc(&dC, hC.size() * sizeof(float)) != cudaSuccess)
    goto out;
  if (!ok(cublasSetMatrix(m, k, sizeof(float), hA.data(), m, dA, m), "set A") ||
      !ok(cublasSetMatrix(k, n, sizeof(float), hB.data(), k, dB, k), "set B"))
    goto out;
  {
    const float alpha = 1.0f, beta = 0.0f;
    cublasStatus_t st = cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k,
                                    &alpha, dA, m, dB, k, &beta, dC, m);
    if (!ok(st, "sgemm"))
      goto out;
  }
  if (!ok(cublasGetMatrix(m, n, sizeof(float), dC, m, hC.data(), m), "get C"))
    goto out;
  std::printf("C[0] = %f (expected %f)\n", hC[0], 2.0f * k);
  rc = 0;
out:
  cudaFree(dA);
  cudaFree(dB);
  cudaFree(dC);
  return rc;
}

int main() {
  cublasHandle_t handle;
  if (!ok(cublasCreate(&handle), "create"))
    return 1;
  int rc = run(handle, 512, 256, 128);
  if (!ok(cublasDestroy(handle), "destroy"))
    rc = 1;
  return rc;
}
