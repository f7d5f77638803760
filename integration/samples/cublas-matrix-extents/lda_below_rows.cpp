// INTEGRATION-CHECK: cublas-matrix-extents
// EXPECT-DIAG: cublas-matrix-extents @ 30
// PREDICT: status CUBLAS_STATUS_INVALID_VALUE from cublasSgemm_v2 @ 30
// PREDICT: wrong-result
//
// lda written for row-major data: A is m x k, and its leading dimension is
// given as k (the row length in C) where column-major storage needs at least
// m. cuBLAS rejects the call with CUBLAS_STATUS_INVALID_VALUE; the sample
// checks the status, says so, and has no product to show.
#include "sample.h"

int main() {
  const int m = 128, n = 64, k = 32;
  const std::vector<float> a = ramp(m * k, 1.0f), b = ramp(k * n, 0.5f);
  std::vector<float> c(m * n);
  float *d_a = nullptr, *d_b = nullptr, *d_c = nullptr;
  if (!cuda_ok(cudaMalloc(&d_a, sizeof(float) * m * k), "cudaMalloc A") ||
      !cuda_ok(cudaMalloc(&d_b, sizeof(float) * k * n), "cudaMalloc B") ||
      !cuda_ok(cudaMalloc(&d_c, sizeof(float) * m * n), "cudaMalloc C"))
    return 2;

  cublasHandle_t handle;
  if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS)
    return 2;
  const float alpha = 1.0f, beta = 0.0f;
  bool ok = cublas_ok(cublasSetMatrix(m, k, sizeof(float), a.data(), m, d_a, m),
                      "set A") &&
            cublas_ok(cublasSetMatrix(k, n, sizeof(float), b.data(), k, d_b, k),
                      "set B") &&
            cublas_ok(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k,
                                  &alpha, d_a, k, d_b, k, &beta, d_c, m),
                      "gemm") &&
            cublas_ok(cublasGetMatrix(m, n, sizeof(float), d_c, m, c.data(), m),
                      "get C");
  cublas_ok(cublasDestroy(handle), "destroy");
  cuda_ok(cudaFree(d_a), "cudaFree A");
  cuda_ok(cudaFree(d_b), "cudaFree B");
  cuda_ok(cudaFree(d_c), "cudaFree C");
  return report_result(ok && all_close(c, host_gemm(m, n, k, a, b)));
}
