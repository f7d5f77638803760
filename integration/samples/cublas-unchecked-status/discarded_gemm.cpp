// INTEGRATION-CHECK: cublas-unchecked-status
// EXPECT-DIAG: cublas-unchecked-status @ 29
// PREDICT: status CUBLAS_STATUS_INVALID_VALUE from cublasSgemm_v2 @ 29
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
  const std::vector<float> a = ramp(std::size_t(m) * k, 1.0f);
  const std::vector<float> b = ramp(std::size_t(k) * n, 0.5f);
  std::vector<float> c(std::size_t(m) * n);
  float *d_a = to_device(a, "A"), *d_b = to_device(b, "B");
  float *d_c = device_zeros(c.size(), "C");
  if (!d_a || !d_b || !d_c)
    return 2;

  cublasHandle_t handle;
  if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS)
    return 2;
  const float alpha = 1.0f, beta = 0.0f;
  cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &alpha, d_a, lda, d_b,
              k, &beta, d_c, m);
  const bool ok = to_host(c, d_c, "C");
  cublas_ok(cublasDestroy(handle), "destroy");
  free_device({d_a, d_b, d_c});
  return report_product(ok, m, n, k, a, b, c);
}
