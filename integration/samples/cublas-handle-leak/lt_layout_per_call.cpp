// INTEGRATION-CHECK: cublas-handle-leak
// EXPECT-DIAG: cublas-handle-leak @ 23
// EXPECT-DIAG: cublas-handle-leak @ 33 (note)
// PREDICT: leaked-descriptors == 50
// PREDICT: leaked-handles == 0
//
// A cublasLt product that describes its operands anew on every call and
// destroys the layout of A and B but not the one of C. 50 calls, 50 matrix
// layouts alive at exit; the cublasLt handle and the operation descriptor,
// made once, are destroyed.
#include "sample.h"

#include <cublasLt.h>

// C = A * B for n x n matrices.
static bool multiply(cublasLtHandle_t lt, cublasLtMatmulDesc_t op,
                     const float *d_a, const float *d_b, float *d_c, int n) {
  cublasLtMatrixLayout_t layout_ab;
  if (cublasLtMatrixLayoutCreate(&layout_ab, CUDA_R_32F, n, n, n) !=
      CUBLAS_STATUS_SUCCESS)
    return false;
  cublasLtMatrixLayout_t layout_c;
  if (cublasLtMatrixLayoutCreate(&layout_c, CUDA_R_32F, n, n, n) !=
      CUBLAS_STATUS_SUCCESS) {
    cublas_ok(cublasLtMatrixLayoutDestroy(layout_ab), "destroy layout");
    return false;
  }
  const float alpha = 1.0f, beta = 0.0f;
  cublasStatus_t status =
      cublasLtMatmul(lt, op, &alpha, d_a, layout_ab, d_b, layout_ab, &beta, d_c,
                     layout_c, d_c, layout_c, nullptr, nullptr, 0, 0);
  cublas_ok(cublasLtMatrixLayoutDestroy(layout_ab), "destroy layout");
  return cublas_ok(status, "matmul");
}

int main() {
  const int n = 64, calls = 50;
  const std::vector<float> a = ramp(n * n, 1.0f), b = ramp(n * n, 0.5f);
  std::vector<float> c(n * n);
  float *d_a = to_device(a, "A"), *d_b = to_device(b, "B");
  float *d_c = device_zeros(c.size(), "C");
  if (!d_a || !d_b || !d_c)
    return 2;

  cublasLtHandle_t lt;
  if (cublasLtCreate(&lt) != CUBLAS_STATUS_SUCCESS)
    return 2;
  cublasLtMatmulDesc_t op;
  if (cublasLtMatmulDescCreate(&op, CUBLAS_COMPUTE_32F, CUDA_R_32F) !=
      CUBLAS_STATUS_SUCCESS) {
    cublas_ok(cublasLtDestroy(lt), "destroy handle");
    return 2;
  }
  bool ok = true;
  for (int i = 0; i < calls && ok; ++i)
    ok = multiply(lt, op, d_a, d_b, d_c, n);
  ok = ok && to_host(c, d_c, "C");
  cublas_ok(cublasLtMatmulDescDestroy(op), "destroy descriptor");
  cublas_ok(cublasLtDestroy(lt), "destroy handle");
  free_device({d_a, d_b, d_c});
  return report_product(ok, n, n, n, a, b, c);
}
