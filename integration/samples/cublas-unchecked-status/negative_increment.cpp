// INTEGRATION-CHECK: cublas-unchecked-status
// EXPECT-DIAG: cublas-unchecked-status @ 26
// PREDICT: status CUBLAS_STATUS_INVALID_VALUE from cublasSetVector @ 26
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
  const std::vector<float> x = ramp(n, 1.0f), y = ramp(n, 2.0f);
  std::vector<float> got(n);
  float *d_x = device_zeros(n, "x"), *d_y = to_device(y, "y");
  if (!d_x || !d_y)
    return 2;

  cublasHandle_t handle;
  if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS)
    return 2;
  cublasSetVector(n, sizeof(float), x.data(), inc, d_x, 1);
  const float alpha = 3.0f;
  const bool ok =
      cublas_ok(cublasSaxpy(handle, n, &alpha, d_x, 1, d_y, 1), "axpy") &&
      to_host(got, d_y, "y");
  cublas_ok(cublasDestroy(handle), "destroy");
  free_device({d_x, d_y});

  std::vector<float> want(n);
  for (int i = 0; i < n; ++i)
    want[i] = alpha * x[n - 1 - i] + y[i];
  return report_result(ok && all_close(got, want));
}
