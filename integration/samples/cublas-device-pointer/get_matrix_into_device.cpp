// INTEGRATION-CHECK: cublas-device-pointer
// EXPECT-DIAG: cublas-device-pointer @ 19
// PREDICT: device-pointer cublasGetMatrix B @ 19
//
// A copy "back to the host" whose destination is a second device buffer:
// cublasGetMatrix reads B as host memory, so the copy runs as device to
// host into a device address (cudaErrorInvalidValue inside cuBLAS, or a
// host-side fault), and the host copy the program goes on to check is never
// written.
#include "sample.h"

int main() {
  const int n = 256;
  const std::vector<float> a = ramp(n * n, 0.5f);
  std::vector<float> got(n * n, 0.0f);
  float *d_a = to_device(a, "a"), *d_copy = nullptr;
  if (!d_a || !cuda_ok(cudaMalloc(&d_copy, n * n * sizeof(float)), "cudaMalloc copy"))
    return 2;
  bool ok = cublas_ok(cublasGetMatrix(n, n, sizeof(float), d_a, n, d_copy, n),
                      "get matrix");
  ok = ok && to_host(got, d_copy, "copy");
  free_device({d_a});
  cuda_ok(cudaFree(d_copy), "cudaFree copy"); // not in free_device: see sample.h
  return report_result(ok && all_close(got, a));
}
