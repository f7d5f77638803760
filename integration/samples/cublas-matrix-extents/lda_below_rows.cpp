// INTEGRATION-CHECK: cublas-matrix-extents
// EXPECT-DIAG: cublas-matrix-extents @ 27
// PREDICT: status CUBLAS_STATUS_INVALID_VALUE from cublasSgemm_v2 @ 26
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
  float *d_a = to_device(a, "A"), *d_b = to_device(b, "B");
  float *d_c = device_zeros(c.size(), "C");
  if (!d_a || !d_b || !d_c)
    return 2;

  cublasHandle_t handle;
  if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS)
    return 2;
  const float alpha = 1.0f, beta = 0.0f;
  const bool ok =
      cublas_ok(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &alpha,
                            d_a, k, d_b, k, &beta, d_c, m),
                "gemm") &&
      to_host(c, d_c, "C");
  cublas_ok(cublasDestroy(handle), "destroy");
  free_device({d_a, d_b, d_c});
  return report_product(ok, m, n, k, a, b, c);
}
