// INTEGRATION-CHECK: cublas-data-type
// EXPECT-DIAG: cublas-data-type @ 32
// PREDICT: status CUBLAS_STATUS_NOT_SUPPORTED from cublasGemmEx @ 30
//
// Half inputs, a float output for accuracy, and CUBLAS_COMPUTE_16F with
// half scalars to "keep everything in half": every pointer and scalar
// agrees with its type, but cublasGemmEx has no kernel for a float C with a
// half compute type (the documented table lists only C = CUDA_R_16F for
// CUBLAS_COMPUTE_16F). It returns CUBLAS_STATUS_NOT_SUPPORTED; the sample
// checks the status and has no product to show.
#include "sample.h"

int main() {
  const int m = 64, n = 32, k = 16;
  const std::vector<float> a = ramp(m * k, 0.5f), b = ramp(k * n, 0.25f);
  std::vector<float> c(m * n);
  __half *d_a = to_device(to_half(a), "A");
  __half *d_b = to_device(to_half(b), "B");
  float *d_c = device_zeros(c.size(), "C");
  if (!d_a || !d_b || !d_c)
    return 2;

  cublasHandle_t handle;
  if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS)
    return 2;
  const __half alpha = __float2half(1.0f);
  const __half beta = __float2half(0.0f);
  const bool ok =
      cublas_ok(
          cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &alpha,
                       d_a,
                       CUDA_R_16F, m, d_b, CUDA_R_16F, k, &beta, d_c,
                       CUDA_R_32F, m, CUBLAS_COMPUTE_16F, CUBLAS_GEMM_DEFAULT),
          "gemm") &&
      device_ok("gemm") && to_host(c, d_c, "C");
  cublas_ok(cublasDestroy(handle), "destroy");
  free_device({d_a, d_b, d_c});
  return report_product(ok, m, n, k, a, b, c);
}
