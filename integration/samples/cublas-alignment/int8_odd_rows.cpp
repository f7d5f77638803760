// INTEGRATION-CHECK: cublas-alignment
// EXPECT-DIAG: cublas-alignment @ 32
// PREDICT: status CUBLAS_STATUS_NOT_SUPPORTED from cublasGemmEx @ 31
// PREDICT: wrong-result
//
// An int8 GEMM with int32 accumulation (CUBLAS_COMPUTE_32I) over a matrix
// of 30 rows, packed, as the clean control does it over 32: lda = m = 30.
// The int8 kernels load A and B four bytes at a time and need lda and ldb
// multiples of 4; there is no other kernel for this compute type, so
// cublasGemmEx returns CUBLAS_STATUS_NOT_SUPPORTED and C keeps its -1s.
#include "sample.h"

#include <cstdint>

int main() {
  const int m = 30, n = 32, k = 64;
  std::vector<int8_t> a(m * k), b(k * n);
  for (int i = 0; i < m * k; ++i)
    a[i] = static_cast<int8_t>(i % 3 - 1);
  for (int i = 0; i < k * n; ++i)
    b[i] = static_cast<int8_t>((i / 2) % 3);
  std::vector<int32_t> c(m * n, -1);
  int8_t *d_a = to_device(a, "A"), *d_b = to_device(b, "B");
  int32_t *d_c = to_device(c, "C");
  if (!d_a || !d_b || !d_c)
    return 2;
  cublasHandle_t handle;
  if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS)
    return 2;
  const int32_t alpha = 1, beta = 0;
  bool ok = cublas_ok(cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k,
                                   &alpha, d_a, CUDA_R_8I, m, d_b, CUDA_R_8I,
                                   k, &beta, d_c, CUDA_R_32I, m,
                                   CUBLAS_COMPUTE_32I, CUBLAS_GEMM_DEFAULT),
                      "gemm") &&
            device_ok("gemm") && to_host(c, d_c, "C");
  for (int i = 0; ok && i < m; ++i)
    for (int j = 0; ok && j < n; ++j) {
      int32_t want = 0;
      for (int l = 0; l < k; ++l)
        want += a[i + l * m] * b[l + j * k];
      ok = c[i + j * m] == want;
    }
  cublas_ok(cublasDestroy(handle), "destroy");
  free_device({d_a, d_b, d_c});
  return report_result(ok);
}
