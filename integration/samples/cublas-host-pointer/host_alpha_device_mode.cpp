// INTEGRATION-CHECK: cublas-host-pointer
// EXPECT-DIAG: cublas-host-pointer @ 26
// PREDICT: host-pointer cublasSscal_v2 alpha @ 26
//
// The handle is switched to CUBLAS_POINTER_MODE_DEVICE so that a dot product
// can leave its result in device memory. The scaling after it still passes
// the address of a host float as alpha, which cuBLAS now reads on the device.
#include "sample.h"

int main() {
  const int n = 4096;
  const std::vector<float> x = ramp(n, 1.0f);
  std::vector<float> got(n);
  float *d_x = to_device(x, "x"), *d_dot = device_zeros(1, "dot");
  if (!d_x || !d_dot)
    return 2;

  cublasHandle_t handle;
  if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS)
    return 2;
  const float alpha = 0.5f;
  const bool ok =
      cublas_ok(cublasSetPointerMode(handle, CUBLAS_POINTER_MODE_DEVICE),
                "device mode") &&
      cublas_ok(cublasSdot(handle, n, d_x, 1, d_x, 1, d_dot), "dot") &&
      cublas_ok(cublasSscal(handle, n, &alpha, d_x, 1), "scal") &&
      device_ok("scal") && to_host(got, d_x, "x");
  cublas_ok(cublasDestroy(handle), "destroy");
  free_device({d_x, d_dot});

  std::vector<float> want(x);
  for (float &v : want)
    v *= alpha;
  return report_result(ok && all_close(got, want));
}
