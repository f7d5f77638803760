// INTEGRATION-CHECK: cublas-matrix-extents
// EXPECT-DIAG: cublas-matrix-extents @ 38
// PREDICT: wrong-result
//
// Four products in one strided-batched call, with the stride of C set to
// half a matrix (m * n / 2, as if C were half the size): each result
// overwrites the second half of the one before it. The buffer is sized for
// that stride, so nothing is out of bounds; the results are just wrong.
#include "sample.h"

#include <algorithm>

int main() {
  const int m = 64, n = 64, k = 16, batch = 4;
  const long long stride_a = m * k, stride_b = k * n, stride_c = m * n / 2;
  std::vector<float> a(stride_a * batch);
  for (int i = 0; i < batch; ++i) {
    const std::vector<float> a_i = ramp(stride_a, 1.0f + i);
    std::copy(a_i.begin(), a_i.end(), a.begin() + i * stride_a);
  }
  const std::vector<float> b = ramp(stride_b * batch, 0.5f);
  std::vector<float> c(stride_c * (batch - 1) + m * n);
  float *d_a = nullptr, *d_b = nullptr, *d_c = nullptr;
  if (!cuda_ok(cudaMalloc(&d_a, sizeof(float) * stride_a * batch),
               "cudaMalloc A") ||
      !cuda_ok(cudaMalloc(&d_b, sizeof(float) * stride_b * batch),
               "cudaMalloc B") ||
      !cuda_ok(
          cudaMalloc(&d_c, sizeof(float) * (stride_c * (batch - 1) + m * n)),
          "cudaMalloc C"))
    return 2;

  cublasHandle_t handle;
  if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS)
    return 2;
  const float alpha = 1.0f, beta = 0.0f;
  bool ok =
      cuda_ok(cudaMemcpy(d_a, a.data(), a.size() * sizeof(float),
                         cudaMemcpyHostToDevice),
              "copy A") &&
      cuda_ok(cudaMemcpy(d_b, b.data(), b.size() * sizeof(float),
                         cudaMemcpyHostToDevice),
              "copy B") &&
      cublas_ok(cublasSgemmStridedBatched(
                    handle, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &alpha, d_a, m,
                    stride_a, d_b, k, stride_b, &beta, d_c, m, stride_c, batch),
                "gemm") &&
      cuda_ok(cudaMemcpy(c.data(), d_c, c.size() * sizeof(float),
                         cudaMemcpyDeviceToHost),
              "copy C");
  cublas_ok(cublasDestroy(handle), "destroy");
  cuda_ok(cudaFree(d_a), "cudaFree A");
  cuda_ok(cudaFree(d_b), "cudaFree B");
  cuda_ok(cudaFree(d_c), "cudaFree C");

  bool right = ok;
  for (int i = 0; i < batch && right; ++i) {
    const std::vector<float> a_i(a.begin() + i * stride_a,
                                 a.begin() + (i + 1) * stride_a);
    const std::vector<float> b_i(b.begin() + i * stride_b,
                                 b.begin() + (i + 1) * stride_b);
    const std::vector<float> c_i(c.begin() + i * stride_c,
                                 c.begin() + i * stride_c + m * n);
    right = all_close(c_i, host_gemm(m, n, k, a_i, b_i));
  }
  return report_result(right);
}
