// INTEGRATION-CHECK: cublas-data-type
// EXPECT-DIAG: cublas-data-type @ 32
// EXPECT-DIAG: cublas-data-type @ 33
// PREDICT: wrong-result
//
// An all-half GEMM whose alpha and beta are __half too, as the data is; but
// with CUBLAS_COMPUTE_32F (chosen for accuracy) cuBLAS reads alpha and beta
// as floats: the two bytes of each half and two bytes of whatever follows
// them on the stack. The product comes back scaled by a garbage factor.
#include "sample.h"

int main() {
  const int m = 64, n = 32, k = 16;
  const std::vector<float> a = ramp(m * k, 0.5f), b = ramp(k * n, 0.25f);
  std::vector<__half> c(m * n);
  __half *d_a = to_device(to_half(a), "A");
  __half *d_b = to_device(to_half(b), "B");
  __half *d_c = to_device(to_half(std::vector<float>(c.size(), 0.0f)), "C");
  if (!d_a || !d_b || !d_c)
    return 2;

  cublasHandle_t handle;
  if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS)
    return 2;
  const __half alpha = __float2half(1.0f);
  const __half beta = __float2half(0.0f);
  const bool ok =
      cublas_ok(
          cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k,
                       // alpha, then beta: each read as a 4-byte float
                       //
                       &alpha, d_a, CUDA_R_16F, m, d_b, CUDA_R_16F, k,
                       &beta, d_c, CUDA_R_16F, m, CUBLAS_COMPUTE_32F,
                       CUBLAS_GEMM_DEFAULT),
          "gemm") &&
      device_ok("gemm") && to_host(c, d_c, "C");
  cublas_ok(cublasDestroy(handle), "destroy");
  free_device({d_a, d_b, d_c});
  return report_product(ok, m, n, k, a, b, from_half(c));
}
