// INTEGRATION-CHECK: none
// PREDICT: clean
//
// A cublasLt product with its handle, operation descriptor and layout all
// destroyed on every path. Nothing to report, nothing left at exit.
#include "sample.h"

#include <cublasLt.h>

static bool multiply(cublasLtHandle_t lt, const float *d_a, const float *d_b,
                     float *d_c, int n) {
  cublasLtMatmulDesc_t op;
  if (cublasLtMatmulDescCreate(&op, CUBLAS_COMPUTE_32F, CUDA_R_32F) !=
      CUBLAS_STATUS_SUCCESS)
    return false;
  cublasLtMatrixLayout_t layout;
  if (cublasLtMatrixLayoutCreate(&layout, CUDA_R_32F, n, n, n) !=
      CUBLAS_STATUS_SUCCESS) {
    cublas_ok(cublasLtMatmulDescDestroy(op), "destroy descriptor");
    return false;
  }
  const float alpha = 1.0f, beta = 0.0f;
  const bool ok = cublas_ok(cublasLtMatmul(lt, op, &alpha, d_a, layout, d_b,
                                           layout, &beta, d_c, layout, d_c,
                                           layout, nullptr, nullptr, 0, 0),
                            "matmul");
  cublas_ok(cublasLtMatrixLayoutDestroy(layout), "destroy layout");
  cublas_ok(cublasLtMatmulDescDestroy(op), "destroy descriptor");
  return ok;
}

int main() {
  const int n = 64;
  const std::vector<float> a = ramp(n * n, 1.0f), b = ramp(n * n, 0.5f);
  std::vector<float> c(n * n);
  float *d_a = to_device(a, "A"), *d_b = to_device(b, "B");
  float *d_c = device_zeros(c.size(), "C");
  cublasLtHandle_t lt;
  if (cublasLtCreate(&lt) != CUBLAS_STATUS_SUCCESS)
    return 2;
  const bool ok = d_a && d_b && d_c && multiply(lt, d_a, d_b, d_c, n) &&
                  to_host(c, d_c, "C");
  const bool destroyed = cublasLtDestroy(lt) == CUBLAS_STATUS_SUCCESS;
  free_device({d_a, d_b, d_c});
  return report_product(ok && destroyed, n, n, n, a, b, c);
}
