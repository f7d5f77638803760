// INTEGRATION-CHECK: none
// PREDICT: clean
//
// What the host-pointer traps look like when done right: alpha and the dot
// product's result in device memory under CUBLAS_POINTER_MODE_DEVICE, the
// arrays of pointers of a batched GEMM copied to the device, a kernel of our
// own filling the inputs. Nothing to report, and it runs clean.
#include "sample.h"

__global__ void fill(float *x, int n, float scale) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = scale * static_cast<float>(i % 7 + 1);
}

int main() {
  const int m = 16, n = 16, k = 16, batch = 4;
  const int per_a = m * k, per_b = k * n, per_c = m * n;
  float *d_a = nullptr, *d_b = nullptr, *d_c = nullptr, *d_scalars = nullptr;
  const float **d_a_array = nullptr, **d_b_array = nullptr;
  float **d_c_array = nullptr;
  if (!cuda_ok(cudaMalloc(&d_a, sizeof(float) * per_a * batch),
               "cudaMalloc A") ||
      !cuda_ok(cudaMalloc(&d_b, sizeof(float) * per_b * batch),
               "cudaMalloc B") ||
      !cuda_ok(cudaMalloc(&d_c, sizeof(float) * per_c * batch),
               "cudaMalloc C") ||
      !cuda_ok(cudaMalloc(&d_scalars, sizeof(float) * 3),
               "cudaMalloc scalars") ||
      !cuda_ok(cudaMalloc(&d_a_array, sizeof(float *) * batch),
               "cudaMalloc A array") ||
      !cuda_ok(cudaMalloc(&d_b_array, sizeof(float *) * batch),
               "cudaMalloc B array") ||
      !cuda_ok(cudaMalloc(&d_c_array, sizeof(float *) * batch),
               "cudaMalloc C array"))
    return 2;
  fill<<<(per_a * batch + 127) / 128, 128>>>(d_a, per_a * batch, 1.0f);
  fill<<<(per_b * batch + 127) / 128, 128>>>(d_b, per_b * batch, 0.5f);
  std::vector<const float *> a_array(batch), b_array(batch);
  std::vector<float *> c_array(batch);
  for (int i = 0; i < batch; ++i) {
    a_array[i] = d_a + i * per_a;
    b_array[i] = d_b + i * per_b;
    c_array[i] = d_c + i * per_c;
  }
  const float scalars[3] = {2.0f, 0.0f, 0.0f}; // alpha, beta, dot result
  bool ok = cuda_ok(cudaGetLastError(), "fill") &&
            cuda_ok(cudaMemcpy(d_a_array, a_array.data(),
                               sizeof(float *) * batch, cudaMemcpyHostToDevice),
                    "copy A array") &&
            cuda_ok(cudaMemcpy(d_b_array, b_array.data(),
                               sizeof(float *) * batch, cudaMemcpyHostToDevice),
                    "copy B array") &&
            cuda_ok(cudaMemcpy(d_c_array, c_array.data(),
                               sizeof(float *) * batch, cudaMemcpyHostToDevice),
                    "copy C array") &&
            cuda_ok(cudaMemcpy(d_scalars, scalars, sizeof(scalars),
                               cudaMemcpyHostToDevice),
                    "copy scalars");

  cublasHandle_t handle;
  if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS)
    return 2;
  ok = ok &&
       cublas_ok(cublasSetPointerMode(handle, CUBLAS_POINTER_MODE_DEVICE),
                 "device mode") &&
       cublas_ok(cublasSgemmBatched(handle, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k,
                                    d_scalars, d_a_array, m, d_b_array, k,
                                    d_scalars + 1, d_c_array, m, batch),
                 "gemm batched") &&
       cublas_ok(
           cublasSdot(handle, per_c * batch, d_c, 1, d_c, 1, d_scalars + 2),
           "dot");
  std::vector<float> c(per_c * batch);
  float dot = 0.0f;
  ok = ok &&
       cuda_ok(cudaMemcpy(c.data(), d_c, sizeof(float) * c.size(),
                          cudaMemcpyDeviceToHost),
               "copy C") &&
       cuda_ok(cudaMemcpy(&dot, d_scalars + 2, sizeof(float),
                          cudaMemcpyDeviceToHost),
               "copy dot");
  if (cublasDestroy(handle) != CUBLAS_STATUS_SUCCESS)
    ok = false;
  cuda_ok(cudaFree(d_a), "cudaFree A");
  cuda_ok(cudaFree(d_b), "cudaFree B");
  cuda_ok(cudaFree(d_c), "cudaFree C");
  cuda_ok(cudaFree(d_scalars), "cudaFree scalars");
  cuda_ok(cudaFree(d_a_array), "cudaFree A array");
  cuda_ok(cudaFree(d_b_array), "cudaFree B array");
  cuda_ok(cudaFree(d_c_array), "cudaFree C array");

  // Every batch has the same inputs (the fill pattern repeats every 7).
  bool right = ok;
  double want_dot = 0.0;
  for (int i = 0; i < batch && right; ++i) {
    std::vector<float> a_i(per_a), b_i(per_b);
    for (int j = 0; j < per_a; ++j)
      a_i[j] = 1.0f * static_cast<float>((i * per_a + j) % 7 + 1);
    for (int j = 0; j < per_b; ++j)
      b_i[j] = 0.5f * static_cast<float>((i * per_b + j) % 7 + 1);
    std::vector<float> want = host_gemm(m, n, k, a_i, b_i);
    for (float &v : want) {
      v *= scalars[0];
      want_dot += static_cast<double>(v) * v;
    }
    right = all_close(
        std::vector<float>(c.begin() + i * per_c, c.begin() + (i + 1) * per_c),
        want);
  }
  right = right && std::fabs(dot - want_dot) <= 1e-3 * want_dot;
  return report_result(right);
}
