// INTEGRATION-CHECK: cublas-data-type
// EXPECT-DIAG: cublas-data-type @ 31
// EXPECT-DIAG: cublas-data-type @ 32
// PREDICT: out-of-bounds cublasGemmEx A @ 30
// PREDICT: wrong-result
//
// A and B were converted to half precision to halve their memory, but the
// GEMM still says CUDA_R_32F for them (the call was written for the float
// version). cuBLAS reads each as floats: twice the bytes each allocation
// holds, the first half of them the bits of two halves at a time. The
// product is garbage and the reads run past the end of both buffers.
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
  const float alpha = 1.0f, beta = 0.0f;
  const bool ok =
      cublas_ok(
          cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &alpha,
                       d_a, CUDA_R_32F, m,
                       d_b, CUDA_R_32F, k, &beta, d_c, CUDA_R_32F, m,
                       CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
          "gemm") &&
      device_ok("gemm") && to_host(c, d_c, "C");
  cublas_ok(cublasDestroy(handle), "destroy");
  cuda_ok(cudaFree(d_a), "cudaFree A");
  cuda_ok(cudaFree(d_b), "cudaFree B");
  cuda_ok(cudaFree(d_c), "cudaFree C");
  return report_product(ok, m, n, k, a, b, c);
}
