// INTEGRATION-CHECK: cublas-unchecked-status
// EXPECT-DIAG: cublas-unchecked-status @ 37
// PREDICT: status CUBLAS_STATUS_INVALID_VALUE from cublasSgemm_v2 @ 37
// PREDICT: wrong-result
//
// The GEMM's status is dropped. Its sizes come from a configuration read at
// run time, whose lda is the row-major one (k, where column-major A needs at
// least m): cuBLAS rejects the call with CUBLAS_STATUS_INVALID_VALUE, C keeps
// the zeros it was cleared to, and the program carries on with them.
#include "sample.h"

int main() {
  // As read from a configuration file: m n k lda.
  int m = 0, n = 0, k = 0, lda = 0;
  if (std::sscanf("96 64 32 32", "%d %d %d %d", &m, &n, &k, &lda) != 4)
    return 2;
  const std::vector<float> a = ramp(static_cast<std::size_t>(m) * k, 1.0f);
  const std::vector<float> b = ramp(static_cast<std::size_t>(k) * n, 0.5f);
  std::vector<float> c(static_cast<std::size_t>(m) * n);

  float *d_a = nullptr, *d_b = nullptr, *d_c = nullptr;
  if (!cuda_ok(cudaMalloc(&d_a, a.size() * sizeof(float)), "cudaMalloc A") ||
      !cuda_ok(cudaMalloc(&d_b, b.size() * sizeof(float)), "cudaMalloc B") ||
      !cuda_ok(cudaMalloc(&d_c, c.size() * sizeof(float)), "cudaMalloc C") ||
      !cuda_ok(cudaMemset(d_c, 0, c.size() * sizeof(float)), "cudaMemset C"))
    return 2;

  cublasHandle_t handle;
  if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS)
    return 2;
  bool ok = cublas_ok(cublasSetMatrix(m, k, sizeof(float), a.data(), m, d_a, m),
                      "set A") &&
            cublas_ok(cublasSetMatrix(k, n, sizeof(float), b.data(), k, d_b, k),
                      "set B");
  if (ok) {
    const float alpha = 1.0f, beta = 0.0f;
    cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &alpha, d_a, lda,
                d_b, k, &beta, d_c, m);
    ok = cublas_ok(cublasGetMatrix(m, n, sizeof(float), d_c, m, c.data(), m),
                   "get C");
  }
  cublas_ok(cublasDestroy(handle), "destroy");
  cuda_ok(cudaFree(d_a), "cudaFree A");
  cuda_ok(cudaFree(d_b), "cudaFree B");
  cuda_ok(cudaFree(d_c), "cudaFree C");
  return report_result(ok && all_close(c, host_gemm(m, n, k, a, b)));
}
