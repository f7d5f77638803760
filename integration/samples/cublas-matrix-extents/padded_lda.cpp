// INTEGRATION-CHECK: cublas-matrix-extents
// EXPECT-DIAG: cublas-matrix-extents @ 31
// PREDICT: out-of-bounds cublasSgemm_v2 A @ 31
// PREDICT: sanitizer "Invalid __global__ read"
// PREDICT: wrong-result
//
// The leading dimension of A is padded to a multiple of 32 (m = 100, lda =
// 128), as for a tuned layout, but A was allocated and filled unpadded: m * k
// floats. The GEMM reads lda*(k-1)+m = 8164 floats from a 6400-float buffer:
// past its end, and every column after the first from the wrong place.
#include "sample.h"

int main() {
  const int m = 100, n = 64, k = 64, lda = 128;
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
                                  &alpha, d_a, lda, d_b, k, &beta, d_c, m),
                      "gemm") &&
            device_ok("gemm") &&
            cublas_ok(cublasGetMatrix(m, n, sizeof(float), d_c, m, c.data(), m),
                      "get C");
  cublas_ok(cublasDestroy(handle), "destroy");
  cuda_ok(cudaFree(d_a), "cudaFree A");
  cuda_ok(cudaFree(d_b), "cudaFree B");
  cuda_ok(cudaFree(d_c), "cudaFree C");
  return report_result(ok && all_close(c, host_gemm(m, n, k, a, b)));
}
