// INTEGRATION-CHECK: cublas-matrix-extents
// EXPECT-DIAG: cublas-matrix-extents @ 23
// PREDICT: out-of-bounds cublasSgemm_v2 A @ 21
// PREDICT: sanitizer "Invalid __global__ read"
// PREDICT: wrong-result
//
// A GEMM wrapper pads its leading dimension to a multiple of 32 elements
// with a small helper (m = 100 becomes lda = 128), as for a tuned layout;
// its caller allocates and fills A unpadded, m * k floats. The GEMM reads
// lda*(k-1)+m = 8164 floats from a 6400-float buffer: past its end, and
// every column after the first from the wrong place.
#include "sample.h"

static int pad(int x) { return (x + 31) / 32 * 32; }

static bool gemm_padded(cublasHandle_t handle, const float *d_a,
                        const float *d_b, float *d_c, int m, int n, int k) {
  const int lda = pad(m);
  const float alpha = 1.0f, beta = 0.0f;
  // The wrapper's A is lda x k: the caller is to allocate the padding.
  return cublas_ok(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k,
                               &alpha,
                               d_a,
                               lda, d_b, k, &beta, d_c, m),
                   "gemm");
}

int main() {
  const int m = 100, n = 64, k = 64;
  const std::vector<float> a = ramp(m * k, 1.0f), b = ramp(k * n, 0.5f);
  std::vector<float> c(m * n);
  float *d_a = nullptr;
  if (!cuda_ok(cudaMalloc(&d_a, sizeof(float) * m * k), "cudaMalloc A") ||
      !cuda_ok(cudaMemcpy(d_a, a.data(), sizeof(float) * m * k,
                          cudaMemcpyHostToDevice),
               "copy A"))
    return 2;
  float *d_b = to_device(b, "B"), *d_c = device_zeros(c.size(), "C");
  if (!d_b || !d_c)
    return 2;

  cublasHandle_t handle;
  if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS)
    return 2;
  const bool ok = gemm_padded(handle, d_a, d_b, d_c, m, n, k) &&
                  device_ok("gemm") && to_host(c, d_c, "C");
  cublas_ok(cublasDestroy(handle), "destroy");
  free_device({d_b, d_c});
  cuda_ok(cudaFree(d_a), "cudaFree A"); // not in free_device: see sample.h
  return report_product(ok, m, n, k, a, b, c);
}
