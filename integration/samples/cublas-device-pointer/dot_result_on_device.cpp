// INTEGRATION-CHECK: cublas-device-pointer
// EXPECT-DIAG: cublas-device-pointer @ 20
// PREDICT: device-pointer cublasSdot_v2 result @ 20
//
// The dot product's result pointer is device memory, but the handle is in
// the default host pointer mode: cuBLAS stores the result through a host
// write to a device address (a segmentation fault where the CPU cannot
// address GPU memory, silently lost otherwise).
#include "sample.h"

int main() {
  const int n = 1 << 16;
  const std::vector<float> x = ramp(n, 0.001f);
  float *d_x = to_device(x, "x"), *d_result = nullptr;
  if (!d_x || !cuda_ok(cudaMalloc(&d_result, sizeof(float)), "cudaMalloc result"))
    return 2;
  cublasHandle_t handle;
  if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS)
    return 2;
  bool ok = cublas_ok(cublasSdot(handle, n, d_x, 1, d_x, 1, d_result), "dot");
  std::vector<float> got(1, 0.0f);
  ok = ok && to_host(got, d_result, "result");
  cublas_ok(cublasDestroy(handle), "destroy");
  free_device({d_x});
  cuda_ok(cudaFree(d_result), "cudaFree result"); // not in free_device: see sample.h
  double want = 0.0;
  for (float v : x)
    want += double(v) * v;
  return report_result(ok && std::fabs(got[0] - want) <= 1e-3 * want);
}
