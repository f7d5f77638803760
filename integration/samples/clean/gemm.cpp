// INTEGRATION-CHECK: none
// PREDICT: clean
//
// A GEMM done right: every status checked, device memory for every operand,
// column-major leading dimensions, every handle destroyed. No check may
// report anything, and it runs clean: no failed status, no leak, no
// compute-sanitizer finding, the right product.
#include "sample.h"

static bool multiply(cublasHandle_t handle, int m, int n, int k,
                     const float *d_a, const float *d_b, float *d_c) {
  const float alpha = 1.0f, beta = 0.0f;
  return cublas_ok(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k,
                               &alpha, d_a, m, d_b, k, &beta, d_c, m),
                   "gemm");
}

int main() {
  const int m = 96, n = 64, k = 48;
  const std::vector<float> a = ramp(m * k, 1.0f), b = ramp(k * n, 0.5f);
  std::vector<float> c(m * n);
  float *d_a = nullptr, *d_b = nullptr, *d_c = nullptr;
  bool ok = cuda_ok(cudaMalloc(&d_a, sizeof(float) * m * k), "cudaMalloc A") &&
            cuda_ok(cudaMalloc(&d_b, sizeof(float) * k * n), "cudaMalloc B") &&
            cuda_ok(cudaMalloc(&d_c, sizeof(float) * m * n), "cudaMalloc C") &&
            cublas_ok(cublasSetMatrix(m, k, sizeof(float), a.data(), m, d_a, m),
                      "set A") &&
            cublas_ok(cublasSetMatrix(k, n, sizeof(float), b.data(), k, d_b, k),
                      "set B");

  cublasHandle_t handle;
  if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS)
    return 2;
  ok = ok && multiply(handle, m, n, k, d_a, d_b, d_c) &&
       cublas_ok(cublasGetMatrix(m, n, sizeof(float), d_c, m, c.data(), m),
                 "get C");
  if (cublasDestroy(handle) != CUBLAS_STATUS_SUCCESS)
    ok = false;
  free_device({d_a, d_b, d_c});
  return report_product(ok, m, n, k, a, b, c);
}
