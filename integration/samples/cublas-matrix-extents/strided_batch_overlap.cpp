// INTEGRATION-CHECK: cublas-matrix-extents
// EXPECT-DIAG: cublas-matrix-extents @ 36
// PREDICT: wrong-result
//
// Four products in one strided-batched call, with the stride of C set to
// half a matrix (m * n / 2, as if C were half the size): each result
// overwrites the second half of the one before it. The buffer is sized for
// that stride, so nothing is out of bounds; the results are just wrong.
#include "sample.h"

int main() {
  const int m = 64, n = 64, k = 16, batch = 4;
  const long long stride_a = m * k, stride_b = k * n, stride_c = m * n / 2;
  // A different A for each product, so that the overwritten halves differ.
  std::vector<float> a;
  for (int i = 0; i < batch; ++i) {
    const std::vector<float> a_i = ramp(stride_a, 1.0f + i);
    a.insert(a.end(), a_i.begin(), a_i.end());
  }
  const std::vector<float> b = ramp(stride_b * batch, 0.5f);
  std::vector<float> c(stride_c * (batch - 1) + m * n);
  float *d_a = to_device(a, "A"), *d_b = to_device(b, "B"), *d_c = nullptr;
  if (!d_a || !d_b ||
      !cuda_ok(
          cudaMalloc(&d_c, sizeof(float) * (stride_c * (batch - 1) + m * n)),
          "cudaMalloc C"))
    return 2;

  cublasHandle_t handle;
  if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS)
    return 2;
  const float alpha = 1.0f, beta = 0.0f;
  const bool ok =
      cublas_ok(cublasSgemmStridedBatched(
                    handle, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &alpha, d_a, m,
                    stride_a, d_b, k, stride_b, &beta, d_c, m, stride_c, batch),
                "gemm") &&
      to_host(c, d_c, "C");
  cublas_ok(cublasDestroy(handle), "destroy");
  free_device({d_a, d_b});
  cuda_ok(cudaFree(d_c), "cudaFree C"); // not in free_device: see sample.h
  return report_result(ok && batches_right(a, b, c, m, n, k, batch, stride_c));
}
