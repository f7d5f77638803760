// INTEGRATION-CHECK: cublas-device-pointer
// EXPECT-DIAG: cublas-device-pointer @ 29
// PREDICT: device-pointer cublasSscal_v2 alpha @ 29
//
// The scale factor is computed on the device (a dot product in
// CUBLAS_POINTER_MODE_DEVICE), and the handle is back in host pointer mode
// when cublasSscal gets the device address as alpha: cuBLAS dereferences it
// on the host (a segmentation fault on machines where the CPU cannot read
// GPU memory).
#include "sample.h"

int main() {
  const int n = 4096;
  const std::vector<float> x = ramp(n, 0.01f);
  std::vector<float> got(n);
  float *d_x = to_device(x, "x"), *d_dot = nullptr;
  if (!d_x || !cuda_ok(cudaMalloc(&d_dot, sizeof(float)), "cudaMalloc dot"))
    return 2;

  cublasHandle_t handle;
  if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS)
    return 2;
  const bool ok =
      cublas_ok(cublasSetPointerMode(handle, CUBLAS_POINTER_MODE_DEVICE),
                "device mode") &&
      cublas_ok(cublasSdot(handle, n, d_x, 1, d_x, 1, d_dot), "dot") &&
      cublas_ok(cublasSetPointerMode(handle, CUBLAS_POINTER_MODE_HOST),
                "host mode") &&
      cublas_ok(cublasSscal(handle, n, d_dot, d_x, 1), "scal") &&
      to_host(got, d_x, "x");
  cublas_ok(cublasDestroy(handle), "destroy");
  free_device({d_x});
  cuda_ok(cudaFree(d_dot), "cudaFree dot"); // not in free_device: see sample.h

  double dot = 0.0;
  for (float v : x)
    dot += double(v) * v;
  std::vector<float> want(x);
  for (float &v : want)
    v *= float(dot);
  return report_result(ok && all_close(got, want));
}
