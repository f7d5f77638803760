// INTEGRATION-CHECK: cublas-host-pointer
// EXPECT-DIAG: cublas-host-pointer @ 25
// PREDICT: host-pointer cublasSaxpy_v2 x @ 25
//
// y += alpha * x with x still in host memory: x.data() goes where cuBLAS
// needs a device pointer. Without HMM the kernel faults on the host address
// (cudaErrorIllegalAddress at the next synchronisation, and the context is
// lost); with HMM or ATS the GPU reads it through page faults, slowly and
// correctly. Either way the tracer sees host memory in a device argument.
#include "sample.h"

int main() {
  const int n = 1 << 16;
  const std::vector<float> x = ramp(n, 1.0f), y = ramp(n, 2.0f);
  std::vector<float> got(n);
  float *d_y = to_device(y, "y");
  if (!d_y)
    return 2;

  cublasHandle_t handle;
  if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS)
    return 2;
  const float alpha = 2.0f;
  const bool ok =
      cublas_ok(cublasSaxpy(handle, n, &alpha, x.data(), 1, d_y, 1), "axpy") &&
      device_ok("axpy") && to_host(got, d_y, "y");
  cublas_ok(cublasDestroy(handle), "destroy");
  free_device({d_y});

  std::vector<float> want(n);
  for (int i = 0; i < n; ++i)
    want[i] = alpha * x[i] + y[i];
  return report_result(ok && all_close(got, want));
}
