// INTEGRATION-CHECK: cublas-handle-state
// EXPECT-DIAG: cublas-handle-state @ 23
// EXPECT-DIAG: cublas-handle-state @ 26 (note)
// EXPECT-DIAG: cublas-handle-state @ 31 (note)
// PREDICT: host-pointer cublasSscal_v2 alpha @ 31
//
// pointer_mode_leak.cpp with the handle the way a program shares one: a
// global that blas() returns, the accessor every function calls. The norm
// helper switches the shared handle to CUBLAS_POINTER_MODE_DEVICE and never
// switches it back; the next call anywhere in the program, a scaling by a
// host float, has cuBLAS read the address of that float on the device.
#include "sample.h"

#include <cmath>

static cublasHandle_t g_blas = nullptr;

// The program's one cuBLAS handle.
static cublasHandle_t blas() { return g_blas; }

// The norm of d_x into d_norm (device memory).
static bool norm_on_device(int n, const float *d_x, float *d_norm) {
  if (!cublas_ok(cublasSetPointerMode(blas(), CUBLAS_POINTER_MODE_DEVICE),
                 "device mode"))
    return false;
  return cublas_ok(cublasSnrm2(blas(), n, d_x, 1, d_norm), "nrm2");
}

// Scales d_x by a host factor.
static bool scale(int n, float *d_x, float factor) {
  return cublas_ok(cublasSscal(blas(), n, &factor, d_x, 1), "scal");
}

int main() {
  const int n = 4096;
  const std::vector<float> x = ramp(n, 1.0f);
  std::vector<float> got(n);
  float *d_x = to_device(x, "x"), *d_norm = device_zeros(1, "norm");
  if (!d_x || !d_norm)
    return 2;
  if (cublasCreate(&g_blas) != CUBLAS_STATUS_SUCCESS)
    return 2;
  const float alpha = 0.5f;
  const bool ok = norm_on_device(n, d_x, d_norm) && scale(n, d_x, alpha) &&
                  device_ok("scal") && to_host(got, d_x, "x");
  cublas_ok(cublasDestroy(g_blas), "destroy");
  free_device({d_x, d_norm});

  std::vector<float> want(x);
  for (float &v : want)
    v *= alpha;
  return report_result(ok && all_close(got, want));
}
