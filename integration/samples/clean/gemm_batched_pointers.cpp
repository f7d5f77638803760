// INTEGRATION-CHECK: none
// PREDICT: clean
//
// The control for batched_pointers_short.cpp: every pointer array holds
// batchCount device pointers, allocated and copied as such. No check may
// report anything, and every product is right.
#include "sample.h"

int main() {
  const int m = 32, n = 32, k = 32, batch = 8;
  const std::vector<float> a = ramp(m * k * batch, 1.0f),
                           b = ramp(k * n * batch, 0.5f);
  std::vector<float> c(m * n * batch);
  float *d_a = to_device(a, "A"), *d_b = to_device(b, "B");
  float *d_c = device_zeros(c.size(), "C");
  if (!d_a || !d_b || !d_c)
    return 2;
  std::vector<const float *> a_array(batch), b_array(batch);
  std::vector<float *> c_array(batch);
  for (int i = 0; i < batch; ++i) {
    a_array[i] = d_a + i * m * k;
    b_array[i] = d_b + i * k * n;
    c_array[i] = d_c + i * m * n;
  }
  const float **d_a_array = nullptr;
  if (!cuda_ok(cudaMalloc(&d_a_array, batch * sizeof(float *)),
               "cudaMalloc A array") ||
      !cuda_ok(cudaMemcpy(d_a_array, a_array.data(), batch * sizeof(float *),
                          cudaMemcpyHostToDevice),
               "copy A array"))
    return 2;
  const float **d_b_array = to_device(b_array, "B array");
  float **d_c_array = to_device(c_array, "C array");
  if (!d_b_array || !d_c_array)
    return 2;

  cublasHandle_t handle;
  if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS)
    return 2;
  const float alpha = 1.0f, beta = 0.0f;
  const bool ok =
      cublas_ok(cublasSgemmBatched(handle, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k,
                                   &alpha, d_a_array, m, d_b_array, k, &beta,
                                   d_c_array, m, batch),
                "gemm batched") &&
      device_ok("gemm batched") && to_host(c, d_c, "C");
  cublas_ok(cublasDestroy(handle), "destroy");
  cuda_ok(cudaFree(d_a_array), "cudaFree");
  free_device({d_a, d_b, d_c, d_b_array, d_c_array});
  return report_result(ok && batches_right(a, b, c, m, n, k, batch, m * n));
}
