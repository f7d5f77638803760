// INTEGRATION-CHECK: cublas-host-pointer
// EXPECT-DIAG: cublas-host-pointer @ 53
// PREDICT: host-pointer cublasSgemmBatched Aarray @ 53
//
// A batched GEMM takes device arrays of device pointers. The arrays for B
// and C were copied to the device; the one for A was not, and its host
// std::vector goes in: the kernel reads the pointers to A from a host
// address (an illegal address without HMM, page faults with it).
#include "sample.h"

int main() {
  const int m = 32, n = 32, k = 32, batch = 8;
  const std::size_t a_size = m * k, b_size = k * n, c_size = m * n;
  const std::vector<float> a = ramp(a_size * batch, 1.0f),
                           b = ramp(b_size * batch, 0.5f);
  std::vector<float> c(c_size * batch);
  float *d_a = nullptr, *d_b = nullptr, *d_c = nullptr;
  const float **d_b_array = nullptr;
  float **d_c_array = nullptr;
  if (!cuda_ok(cudaMalloc(&d_a, a.size() * sizeof(float)), "cudaMalloc A") ||
      !cuda_ok(cudaMalloc(&d_b, b.size() * sizeof(float)), "cudaMalloc B") ||
      !cuda_ok(cudaMalloc(&d_c, c.size() * sizeof(float)), "cudaMalloc C") ||
      !cuda_ok(cudaMalloc(&d_b_array, batch * sizeof(float *)),
               "cudaMalloc B array") ||
      !cuda_ok(cudaMalloc(&d_c_array, batch * sizeof(float *)),
               "cudaMalloc C array"))
    return 2;
  std::vector<const float *> a_array(batch), b_array(batch);
  std::vector<float *> c_array(batch);
  for (int i = 0; i < batch; ++i) {
    a_array[i] = d_a + i * a_size;
    b_array[i] = d_b + i * b_size;
    c_array[i] = d_c + i * c_size;
  }
  bool ok = cuda_ok(cudaMemcpy(d_a, a.data(), a.size() * sizeof(float),
                               cudaMemcpyHostToDevice),
                    "copy A") &&
            cuda_ok(cudaMemcpy(d_b, b.data(), b.size() * sizeof(float),
                               cudaMemcpyHostToDevice),
                    "copy B") &&
            cuda_ok(cudaMemcpy(d_b_array, b_array.data(),
                               batch * sizeof(float *), cudaMemcpyHostToDevice),
                    "copy B array") &&
            cuda_ok(cudaMemcpy(d_c_array, c_array.data(),
                               batch * sizeof(float *), cudaMemcpyHostToDevice),
                    "copy C array");

  cublasHandle_t handle;
  if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS)
    return 2;
  const float alpha = 1.0f, beta = 0.0f;
  ok = ok &&
       cublas_ok(cublasSgemmBatched(handle, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k,
                                    &alpha, a_array.data(), m, d_b_array, k,
                                    &beta, d_c_array, m, batch),
                 "gemm batched") &&
       device_ok("gemm batched") &&
       cuda_ok(cudaMemcpy(c.data(), d_c, c.size() * sizeof(float),
                          cudaMemcpyDeviceToHost),
               "copy C");
  cublas_ok(cublasDestroy(handle), "destroy");
  cuda_ok(cudaFree(d_a), "cudaFree A");
  cuda_ok(cudaFree(d_b), "cudaFree B");
  cuda_ok(cudaFree(d_c), "cudaFree C");
  cuda_ok(cudaFree(d_b_array), "cudaFree B array");
  cuda_ok(cudaFree(d_c_array), "cudaFree C array");

  bool right = ok;
  for (int i = 0; i < batch && right; ++i) {
    const std::vector<float> a_i(a.begin() + i * a_size,
                                 a.begin() + (i + 1) * a_size);
    const std::vector<float> b_i(b.begin() + i * b_size,
                                 b.begin() + (i + 1) * b_size);
    const std::vector<float> c_i(c.begin() + i * c_size,
                                 c.begin() + (i + 1) * c_size);
    right = all_close(c_i, host_gemm(m, n, k, a_i, b_i));
  }
  return report_result(right);
}
