// INTEGRATION-CHECK: cublas-handle-state
// EXPECT-DIAG: cublas-handle-state @ 19
// EXPECT-DIAG: cublas-handle-state @ 22 (note)
// EXPECT-DIAG: cublas-handle-state @ 38 (note)
// PREDICT: host-pointer cublasSscal_v2 alpha @ 38
//
// A helper computes a norm into device memory, and switches the caller's
// handle to CUBLAS_POINTER_MODE_DEVICE to do so. It never switches it
// back: the caller's next call, a scaling by a host float, has cuBLAS read
// the address of that float on the device.
#include "sample.h"

#include <cmath>

// The norm of d_x into d_norm (device memory), on the caller's handle.
static bool norm_on_device(cublasHandle_t handle, int n, const float *d_x,
                           float *d_norm) {
  if (!cublas_ok(
          cublasSetPointerMode(handle, CUBLAS_POINTER_MODE_DEVICE),
          "device mode"))
    return false;
  return cublas_ok(cublasSnrm2(handle, n, d_x, 1, d_norm), "nrm2");
}

int main() {
  const int n = 4096;
  const std::vector<float> x = ramp(n, 1.0f);
  std::vector<float> got(n);
  float *d_x = to_device(x, "x"), *d_norm = device_zeros(1, "norm");
  if (!d_x || !d_norm)
    return 2;

  cublasHandle_t handle;
  if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS)
    return 2;
  const float alpha = 0.5f;
  const bool ok = norm_on_device(handle, n, d_x, d_norm) &&
                  cublas_ok(cublasSscal(handle, n, &alpha, d_x, 1), "scal") &&
                  device_ok("scal") && to_host(got, d_x, "x");
  cublas_ok(cublasDestroy(handle), "destroy");
  free_device({d_x, d_norm});

  std::vector<float> want(x);
  for (float &v : want)
    v *= alpha;
  return report_result(ok && all_close(got, want));
}
