// INTEGRATION-CHECK: cublas-handle-use-after-destroy
// EXPECT-DIAG: cublas-handle-use-after-destroy @ 37
// PREDICT: use-after-destroy cublasDestroy_v2 @ 37
//
// A cleanup helper destroys the handle, and the destroy that was there
// before the helper existed is still at the end of main: the handle is
// destroyed twice. The second cublasDestroy frees freed memory (glibc may
// abort with "double free", cuBLAS may return an error or not).
#include "sample.h"

static void release(cublasHandle_t handle, float *d_x, float *d_y) {
  cublas_ok(cublasDestroy(handle), "destroy");
  free_device({d_x, d_y});
}

int main() {
  const int n = 4096;
  const std::vector<float> x = ramp(n, 1.0f), y = ramp(n, 3.0f);
  std::vector<float> got(n);
  float *d_x = to_device(x, "x"), *d_y = to_device(y, "y");
  if (!d_x || !d_y)
    return 2;

  cublasHandle_t handle;
  if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS)
    return 2;
  const float alpha = -1.0f;
  const bool ok =
      cublas_ok(cublasSaxpy(handle, n, &alpha, d_x, 1, d_y, 1), "axpy") &&
      to_host(got, d_y, "y");
  release(handle, d_x, d_y);

  std::vector<float> want(n);
  for (int i = 0; i < n; ++i)
    want[i] = y[i] - x[i];
  const int rc = report_result(ok && all_close(got, want));
  if (cublasDestroy(handle) != CUBLAS_STATUS_SUCCESS)
    return 1;
  return rc;
}
