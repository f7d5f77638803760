// INTEGRATION-CHECK: none
// PREDICT: clean
//
// What the host-pointer traps look like when done right: alpha, beta and the
// dot product's result in device memory under CUBLAS_POINTER_MODE_DEVICE,
// the arrays of pointers of a batched GEMM copied to the device, a kernel of
// our own filling the inputs. Nothing to report, and it runs clean.
#include "sample.h"

__global__ void fill(float *x, int n, float scale) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = scale * static_cast<float>(i % 7 + 1);
}

int main() {
  const int m = 16, n = 16, k = 16, batch = 4;
  // The same values as the kernel writes, for the host's answer.
  const std::vector<float> a = ramp(m * k * batch, 1.0f),
                           b = ramp(k * n * batch, 0.5f);
  std::vector<float> c(m * n * batch);
  float *d_a = device_zeros(a.size(), "A"), *d_b = device_zeros(b.size(), "B");
  float *d_c = device_zeros(c.size(), "C");
  float *d_scalars =
      to_device(std::vector<float>{2.0f, 0.0f, 0.0f}, "alpha, beta, dot");
  if (!d_a || !d_b || !d_c || !d_scalars)
    return 2;
  fill<<<(a.size() + 127) / 128, 128>>>(d_a, a.size(), 1.0f);
  fill<<<(b.size() + 127) / 128, 128>>>(d_b, b.size(), 0.5f);
  std::vector<const float *> a_array(batch), b_array(batch);
  std::vector<float *> c_array(batch);
  for (int i = 0; i < batch; ++i) {
    a_array[i] = d_a + i * m * k;
    b_array[i] = d_b + i * k * n;
    c_array[i] = d_c + i * m * n;
  }
  const float **d_a_array = to_device(a_array, "A array");
  const float **d_b_array = to_device(b_array, "B array");
  float **d_c_array = to_device(c_array, "C array");
  if (!cuda_ok(cudaGetLastError(), "fill") || !d_a_array || !d_b_array ||
      !d_c_array)
    return 2;

  cublasHandle_t handle;
  if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS)
    return 2;
  std::vector<float> dot(1);
  bool ok =
      cublas_ok(cublasSetPointerMode(handle, CUBLAS_POINTER_MODE_DEVICE),
                "device mode") &&
      cublas_ok(cublasSgemmBatched(handle, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k,
                                   d_scalars, d_a_array, m, d_b_array, k,
                                   d_scalars + 1, d_c_array, m, batch),
                "gemm batched") &&
      cublas_ok(cublasSdot(handle, c.size(), d_c, 1, d_c, 1, d_scalars + 2),
                "dot") &&
      to_host(c, d_c, "C") && to_host(dot, d_scalars + 2, "dot");
  if (cublasDestroy(handle) != CUBLAS_STATUS_SUCCESS)
    ok = false;
  free_device({d_a, d_b, d_c, d_scalars, d_a_array, d_b_array, d_c_array});

  // C was computed with alpha = 2: halve it before comparing.
  double want_dot = 0.0;
  for (float &v : c) {
    want_dot += double(v) * v;
    v /= 2.0f;
  }
  return report_result(ok && batches_right(a, b, c, m, n, k, batch, m * n) &&
                       std::fabs(dot[0] - want_dot) <= 1e-3 * want_dot);
}
