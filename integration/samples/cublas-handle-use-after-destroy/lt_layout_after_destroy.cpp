// INTEGRATION-CHECK: cublas-handle-use-after-destroy
// EXPECT-DIAG: cublas-handle-use-after-destroy @ 53
// PREDICT: use-after-destroy cublasLtMatmul @ 53
//
// Two cublasLt products into C. The layout of C is destroyed after the
// first, as if C were done with, and the second still describes C with it:
// cublasLtMatmul reads a freed descriptor.
#include "sample.h"

#include <cublasLt.h>

int main() {
  const int n = 64;
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
  cublasLtMatrixLayout_t layout, layout_c;
  if (cublasLtMatrixLayoutCreate(&layout, CUDA_R_32F, n, n, n) !=
      CUBLAS_STATUS_SUCCESS) {
    cublas_ok(cublasLtMatmulDescDestroy(op), "destroy descriptor");
    cublas_ok(cublasLtDestroy(lt), "destroy handle");
    return 2;
  }
  if (cublasLtMatrixLayoutCreate(&layout_c, CUDA_R_32F, n, n, n) !=
      CUBLAS_STATUS_SUCCESS) {
    cublas_ok(cublasLtMatrixLayoutDestroy(layout), "destroy layout");
    cublas_ok(cublasLtMatmulDescDestroy(op), "destroy descriptor");
    cublas_ok(cublasLtDestroy(lt), "destroy handle");
    return 2;
  }

  // C = A * B, then C = B * A + C.
  const float alpha = 1.0f, beta = 0.0f, one = 1.0f;
  bool ok = cublas_ok(cublasLtMatmul(lt, op, &alpha, d_a, layout, d_b, layout,
                                     &beta, d_c, layout_c, d_c, layout, nullptr,
                                     nullptr, 0, 0),
                      "A * B");
  cublas_ok(cublasLtMatrixLayoutDestroy(layout_c), "destroy layout");
  ok = ok &&
       cublas_ok(cublasLtMatmul(lt, op, &alpha, d_b, layout, d_a, layout, &one,
                                d_c, layout_c, d_c, layout, nullptr, nullptr, 0,
                                0),
                 "B * A + C") &&
       to_host(c, d_c, "C");
  cublas_ok(cublasLtMatrixLayoutDestroy(layout), "destroy layout");
  cublas_ok(cublasLtMatmulDescDestroy(op), "destroy descriptor");
  cublas_ok(cublasLtDestroy(lt), "destroy handle");
  free_device({d_a, d_b, d_c});

  std::vector<float> want = host_gemm(n, n, n, a, b);
  const std::vector<float> ba = host_gemm(n, n, n, b, a);
  for (std::size_t i = 0; i < want.size(); ++i)
    want[i] += ba[i];
  return report_result(ok && all_close(c, want));
}
