// INTEGRATION-CHECK: cublas-handle-per-call
// EXPECT-DIAG: cublas-handle-per-call @ 18
// EXPECT-DIAG: cublas-handle-per-call @ 43 (note)
// PREDICT: created-handles == 30
// PREDICT: leaked-descriptors == 0
//
// A cublasLt product that opens its own cublasLt handle on every call and
// closes it again, called from a loop of 30 steps: 30 cublasLtCreate where
// one handle would do. Everything is destroyed; the result is right.
#include "sample.h"

#include <cublasLt.h>

// C = A * B for n x n matrices, in a handle of its own.
static bool multiply(cublasLtMatmulDesc_t op, cublasLtMatrixLayout_t layout,
                     const float *d_a, const float *d_b, float *d_c) {
  cublasLtHandle_t lt;
  if (!cublas_ok(cublasLtCreate(&lt), "lt create"))
    return false;
  const float alpha = 1.0f, beta = 0.0f;
  bool ok = cublas_ok(cublasLtMatmul(lt, op, &alpha, d_a, layout, d_b, layout,
                                     &beta, d_c, layout, d_c, layout, nullptr,
                                     nullptr, 0, 0),
                      "matmul");
  return cublas_ok(cublasLtDestroy(lt), "lt destroy") && ok;
}

int main() {
  const int n = 16, steps = 30;
  const std::vector<float> a = ramp(n * n, 1.0f), b = ramp(n * n, 0.5f);
  std::vector<float> c(n * n, 0.0f);
  float *d_a = to_device(a, "a"), *d_b = to_device(b, "b");
  float *d_c = to_device(c, "c");
  cublasLtMatmulDesc_t op = nullptr;
  cublasLtMatrixLayout_t layout = nullptr;
  bool ok = d_a && d_b && d_c &&
            cublas_ok(cublasLtMatmulDescCreate(&op, CUBLAS_COMPUTE_32F,
                                               CUDA_R_32F),
                      "desc create") &&
            cublas_ok(cublasLtMatrixLayoutCreate(&layout, CUDA_R_32F, n, n, n),
                      "layout create");
  for (int step = 0; step < steps && ok; ++step)
    ok = multiply(op, layout, d_a, d_b, d_c);
  ok = ok && to_host(c, d_c, "c");
  if (layout)
    cublas_ok(cublasLtMatrixLayoutDestroy(layout), "layout destroy");
  if (op)
    cublas_ok(cublasLtMatmulDescDestroy(op), "desc destroy");
  free_device({d_a, d_b, d_c});
  return report_product(ok, n, n, n, a, b, c);
}
