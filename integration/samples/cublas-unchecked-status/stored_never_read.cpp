// INTEGRATION-CHECK: cublas-unchecked-status
// EXPECT-DIAG: cublas-unchecked-status @ 31
// EXPECT-DIAG: cublas-unchecked-status @ 33 (note)
// PREDICT: status CUBLAS_STATUS_INVALID_VALUE from cublasSgemv_v2 @ 31
// PREDICT: wrong-result
//
// y = A x, with the GEMV's status stored and then overwritten by the next
// call's before anyone reads it. The leading dimension of A comes from the
// input, written for the transposed layout (lda = n = 64 for 128 rows);
// cuBLAS rejects lda < m with CUBLAS_STATUS_INVALID_VALUE, y keeps its zeros
// and the copy back succeeds, so the only status read says all is well.
#include "sample.h"

int main() {
  // As read from the input: m n lda.
  int m = 0, n = 0, lda = 1;
  if (std::sscanf("128 64 64", "%d %d %d", &m, &n, &lda) != 3)
    return 2;
  const std::vector<float> a = ramp(std::size_t(m) * n, 0.25f);
  const std::vector<float> x = ramp(n, 1.0f);
  std::vector<float> y(m);
  float *d_a = to_device(a, "A"), *d_x = to_device(x, "x");
  float *d_y = device_zeros(y.size(), "y");
  if (!d_a || !d_x || !d_y)
    return 2;

  cublasHandle_t handle;
  if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS)
    return 2;
  const float alpha = 1.0f, beta = 0.0f;
  cublasStatus_t status = cublasSgemv(handle, CUBLAS_OP_N, m, n, &alpha, d_a, lda,
                                      d_x, 1, &beta, d_y, 1);
  status = cublasGetVector(m, sizeof(float), d_y, 1, y.data(), 1);
  const bool ok = status == CUBLAS_STATUS_SUCCESS;
  cublas_ok(cublasDestroy(handle), "destroy");
  free_device({d_a, d_x, d_y});
  return report_product(ok, m, 1, n, a, x, y);
}
