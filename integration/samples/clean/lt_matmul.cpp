// INTEGRATION-CHECK: none
// PREDICT: clean
//
// A cublasLt product with its handle, operation descriptor and layouts all
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
  float *d_a = nullptr, *d_b = nullptr, *d_c = nullptr;
  if (!cuda_ok(cudaMalloc(&d_a, a.size() * sizeof(float)), "cudaMalloc A") ||
      !cuda_ok(cudaMalloc(&d_b, b.size() * sizeof(float)), "cudaMalloc B") ||
      !cuda_ok(cudaMalloc(&d_c, c.size() * sizeof(float)), "cudaMalloc C"))
    return 2;
  bool ok = cuda_ok(cudaMemcpy(d_a, a.data(), a.size() * sizeof(float),
                               cudaMemcpyHostToDevice),
                    "copy A") &&
            cuda_ok(cudaMemcpy(d_b, b.data(), b.size() * sizeof(float),
                               cudaMemcpyHostToDevice),
                    "copy B");
  cublasLtHandle_t lt;
  if (cublasLtCreate(&lt) != CUBLAS_STATUS_SUCCESS)
    return 2;
  ok = ok && multiply(lt, d_a, d_b, d_c, n) &&
       cuda_ok(cudaMemcpy(c.data(), d_c, c.size() * sizeof(float),
                          cudaMemcpyDeviceToHost),
               "copy C");
  if (cublasLtDestroy(lt) != CUBLAS_STATUS_SUCCESS)
    ok = false;
  cuda_ok(cudaFree(d_a), "cudaFree A");
  cuda_ok(cudaFree(d_b), "cudaFree B");
  cuda_ok(cudaFree(d_c), "cudaFree C");
  return report_result(ok && all_close(c, host_gemm(n, n, n, a, b)));
}
