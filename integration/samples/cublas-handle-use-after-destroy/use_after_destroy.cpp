// INTEGRATION-CHECK: cublas-handle-use-after-destroy
// EXPECT-DIAG: cublas-handle-use-after-destroy @ 28
// PREDICT: use-after-destroy cublasSscal_v2 @ 28
//
// The handle goes with the other resources at the end, and the final
// normalisation, added later below the cleanup, still uses it: cublasSscal
// gets a handle whose memory is freed. What cuBLAS does then is undefined
// (CUBLAS_STATUS_NOT_INITIALIZED, a crash, or nothing visible); the tracer
// sees a destroyed handle passed.
#include "sample.h"

int main() {
  const int n = 1024;
  const std::vector<float> x = ramp(n, 1.0f);
  std::vector<float> got(n);
  float *d_x = to_device(x, "x");
  if (!d_x)
    return 2;

  cublasHandle_t handle;
  if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS)
    return 2;
  float norm = 0.0f;
  bool ok = cublas_ok(cublasSnrm2(handle, n, d_x, 1, &norm), "nrm2");
  cublas_ok(cublasDestroy(handle), "destroy");

  const float inverse = 1.0f / norm;
  ok = ok && cublas_ok(cublasSscal(handle, n, &inverse, d_x, 1), "normalise") &&
       to_host(got, d_x, "x");
  free_device({d_x});
  std::vector<float> want(x);
  for (float &v : want)
    v *= inverse;
  return report_result(ok && all_close(got, want));
}
