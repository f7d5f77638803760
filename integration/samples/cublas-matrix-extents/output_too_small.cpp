// INTEGRATION-CHECK: cublas-matrix-extents
// EXPECT-DIAG: cublas-matrix-extents @ 27
// PREDICT: out-of-bounds cublasSgemm_v2 C @ 26
// PREDICT: sanitizer "Invalid __global__ write"
//
// C is still allocated for the previous problem size (32 columns) and the
// GEMM now writes 64: the second half of C lands past the end of its buffer,
// in whatever comes after it. The columns the sample reads back are right,
// so only the sanitizer and the tracer see the damage.
#include "sample.h"

int main() {
  const int m = 128, n = 64, k = 32, old_n = 32;
  const std::vector<float> a = ramp(m * k, 1.0f), b = ramp(k * n, 0.5f);
  std::vector<float> c(m * old_n);
  float *d_a = to_device(a, "A"), *d_b = to_device(b, "B"), *d_c = nullptr;
  if (!d_a || !d_b ||
      !cuda_ok(cudaMalloc(&d_c, sizeof(float) * m * old_n), "cudaMalloc C"))
    return 2;

  cublasHandle_t handle;
  if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS)
    return 2;
  const float alpha = 1.0f, beta = 0.0f;
  const bool ok =
      cublas_ok(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &alpha,
                            d_a, m, d_b, k, &beta, d_c, m),
                "gemm") &&
      device_ok("gemm") && to_host(c, d_c, "C");
  cublas_ok(cublasDestroy(handle), "destroy");
  free_device({d_a, d_b});
  cuda_ok(cudaFree(d_c), "cudaFree C"); // not in free_device: see sample.h
  const std::vector<float> b_first(b.begin(), b.begin() + k * old_n);
  return report_product(ok, m, old_n, k, a, b_first, c);
}
