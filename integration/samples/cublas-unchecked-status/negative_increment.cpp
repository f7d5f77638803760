// INTEGRATION-CHECK: cublas-unchecked-status
// EXPECT-DIAG: cublas-unchecked-status @ 30
// PREDICT: status CUBLAS_STATUS_INVALID_VALUE from cublasSetVector @ 30
// PREDICT: wrong-result
//
// The upload of x drops its status. x is stored backwards, and the input says
// so with a negative increment: the BLAS routines accept one, but
// cublasSetVector does not and returns CUBLAS_STATUS_INVALID_VALUE. x stays
// zero on the device and the AXPY after it adds nothing.
#include "sample.h"

int main() {
  // As read from the input: n and the increment of x.
  int n = 0, inc = 1;
  if (std::sscanf("1000 -1", "%d %d", &n, &inc) != 2)
    return 2;
  const std::vector<float> x = ramp(n, 1.0f);
  const std::vector<float> y = ramp(n, 2.0f);
  std::vector<float> got(n);

  float *d_x = nullptr, *d_y = nullptr;
  if (!cuda_ok(cudaMalloc(&d_x, x.size() * sizeof(float)), "cudaMalloc x") ||
      !cuda_ok(cudaMalloc(&d_y, y.size() * sizeof(float)), "cudaMalloc y") ||
      !cuda_ok(cudaMemset(d_x, 0, x.size() * sizeof(float)), "cudaMemset x"))
    return 2;

  cublasHandle_t handle;
  if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS)
    return 2;
  cublasSetVector(n, sizeof(float), x.data(), inc, d_x, 1);
  const float alpha = 3.0f;
  bool ok = cublas_ok(cublasSetVector(n, sizeof(float), y.data(), 1, d_y, 1),
                      "set y") &&
            cublas_ok(cublasSaxpy(handle, n, &alpha, d_x, 1, d_y, 1), "axpy") &&
            cublas_ok(cublasGetVector(n, sizeof(float), d_y, 1, got.data(), 1),
                      "get y");
  cublas_ok(cublasDestroy(handle), "destroy");
  cuda_ok(cudaFree(d_x), "cudaFree x");
  cuda_ok(cudaFree(d_y), "cudaFree y");

  std::vector<float> want(n);
  for (int i = 0; i < n; ++i)
    want[i] = alpha * x[n - 1 - i] + y[i];
  return report_result(ok && all_close(got, want));
}
