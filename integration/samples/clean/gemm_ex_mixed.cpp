// INTEGRATION-CHECK: none
// PREDICT: clean
//
// The mixed-precision set-ups the cublas-data-type traps look like when done
// right: half inputs with a float output and float scalars under
// CUBLAS_COMPUTE_32F, and an all-half GEMM with half scalars under
// CUBLAS_COMPUTE_16F. Nothing to report, both products right.
#include "sample.h"

int main() {
  const int m = 64, n = 32, k = 16;
  const std::vector<float> a = ramp(m * k, 0.5f), b = ramp(k * n, 0.25f);
  std::vector<float> c(m * n);
  std::vector<__half> c16(m * n);
  __half *d_a = to_device(to_half(a), "A");
  __half *d_b = to_device(to_half(b), "B");
  float *d_c = device_zeros(c.size(), "C");
  __half *d_c16 = to_device(to_half(std::vector<float>(c16.size(), 0.0f)), "C16");
  if (!d_a || !d_b || !d_c || !d_c16)
    return 2;

  cublasHandle_t handle;
  if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS)
    return 2;
  const float alpha = 1.0f, beta = 0.0f;
  const __half alpha16 = __float2half(1.0f), beta16 = __float2half(0.0f);
  const bool ok =
      cublas_ok(cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k,
                             &alpha, d_a, CUDA_R_16F, m, d_b, CUDA_R_16F, k,
                             &beta, d_c, CUDA_R_32F, m, CUBLAS_COMPUTE_32F,
                             CUBLAS_GEMM_DEFAULT),
                "gemm 16F->32F") &&
      cublas_ok(cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k,
                             &alpha16, d_a, CUDA_R_16F, m, d_b, CUDA_R_16F, k,
                             &beta16, d_c16, CUDA_R_16F, m, CUBLAS_COMPUTE_16F,
                             CUBLAS_GEMM_DEFAULT),
                "gemm 16F") &&
      device_ok("gemm") && to_host(c, d_c, "C") && to_host(c16, d_c16, "C16");
  cublas_ok(cublasDestroy(handle), "destroy");
  free_device({d_a, d_b, d_c, d_c16});
  const std::vector<float> want = host_gemm(m, n, k, a, b);
  return report_result(ok && all_close(c, want) && all_close(from_half(c16), want));
}
