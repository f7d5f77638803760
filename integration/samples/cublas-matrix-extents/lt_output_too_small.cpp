// INTEGRATION-CHECK: cublas-matrix-extents
// EXPECT-DIAG: cublas-matrix-extents @ 40
// PREDICT: sanitizer "Invalid __global__ write"
//
// The cuBLASLt version of a GEMM whose output buffer is still sized for the
// previous problem (32 columns) while the layout of C and D says 64: the
// matmul writes the second half of D past the end of its allocation. The
// columns the sample reads back are right; the sanitizer sees the writes.
#include "sample.h"

#include <cublasLt.h>

int main() {
  const int m = 128, n = 64, k = 32, old_n = 32;
  const std::vector<float> a = ramp(m * k, 1.0f), b = ramp(k * n, 0.5f);
  std::vector<float> c(m * old_n);
  float *d_a = to_device(a, "A"), *d_b = to_device(b, "B"), *d_c = nullptr;
  if (!d_a || !d_b ||
      !cuda_ok(cudaMalloc(&d_c, sizeof(float) * m * old_n), "cudaMalloc C"))
    return 2;

  cublasLtHandle_t lt;
  if (cublasLtCreate(&lt) != CUBLAS_STATUS_SUCCESS)
    return 2;
  cublasLtMatmulDesc_t op;
  cublasLtMatrixLayout_t la, lb, lc;
  if (!cublas_ok(cublasLtMatmulDescCreate(&op, CUBLAS_COMPUTE_32F, CUDA_R_32F),
                 "descriptor") ||
      !cublas_ok(cublasLtMatrixLayoutCreate(&la, CUDA_R_32F, m, k, m), "A") ||
      !cublas_ok(cublasLtMatrixLayoutCreate(&lb, CUDA_R_32F, k, n, k), "B") ||
      !cublas_ok(cublasLtMatrixLayoutCreate(&lc, CUDA_R_32F, m, n, m), "C"))
    return 2;
  const float alpha = 1.0f, beta = 0.0f;
  const bool ok =
      cublas_ok(cublasLtMatmul(lt, op, &alpha, d_a, la, d_b, lb, &beta,
                               // C and D: the same buffer, described by
                               // the same layout (m x n), written in full
                               // by D; with beta = 0 C is not read, but D
                               // is written past the end of d_c
                               d_c, lc, d_c, lc, nullptr, nullptr, 0, 0),
                "matmul") &&
      device_ok("matmul") && to_host(c, d_c, "C");
  cublas_ok(cublasLtMatrixLayoutDestroy(la), "destroy A layout");
  cublas_ok(cublasLtMatrixLayoutDestroy(lb), "destroy B layout");
  cublas_ok(cublasLtMatrixLayoutDestroy(lc), "destroy C layout");
  cublas_ok(cublasLtMatmulDescDestroy(op), "destroy descriptor");
  cublas_ok(cublasLtDestroy(lt), "destroy");
  free_device({d_a, d_b});
  cuda_ok(cudaFree(d_c), "cudaFree C");
  const std::vector<float> b_first(b.begin(), b.begin() + k * old_n);
  return report_product(ok, m, old_n, k, a, b_first, c);
}
