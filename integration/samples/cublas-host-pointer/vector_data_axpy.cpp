// INTEGRATION-CHECK: cublas-host-pointer
// EXPECT-DIAG: cublas-host-pointer @ 27
// PREDICT: host-pointer cublasSaxpy_v2 x @ 27
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
  float *d_y = nullptr;
  if (!cuda_ok(cudaMalloc(&d_y, n * sizeof(float)), "cudaMalloc y"))
    return 2;

  cublasHandle_t handle;
  if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS)
    return 2;
  const float alpha = 2.0f;
  bool ok = cublas_ok(cublasSetVector(n, sizeof(float), y.data(), 1, d_y, 1),
                      "set y");
  ok = ok &&
       cublas_ok(cublasSaxpy(handle, n, &alpha, x.data(), 1, d_y, 1), "axpy") &&
       device_ok("axpy") &&
       cublas_ok(cublasGetVector(n, sizeof(float), d_y, 1, got.data(), 1),
                 "get y");
  cublas_ok(cublasDestroy(handle), "destroy");
  cuda_ok(cudaFree(d_y), "cudaFree y");
  std::vector<float> want(n);
  for (int i = 0; i < n; ++i)
    want[i] = alpha * x[i] + y[i];
  return report_result(ok && all_close(got, want));
}
