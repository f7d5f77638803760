// INTEGRATION-CHECK: cublas-handle-use-after-destroy
// EXPECT-DIAG: cublas-handle-use-after-destroy @ 35
// EXPECT-DIAG: cublas-handle-use-after-destroy @ 32 (note)
// PREDICT: use-after-destroy cublasSscal_v2 @ 35
//
// The cleanup lives in a helper, shutdown(), called when the work is
// "done"; a normalisation added later below it still uses the handle. The
// destroy is not in the function that uses the handle, so a reader of
// main() does not see it: cublasSscal gets a handle whose memory is freed
// (CUBLAS_STATUS_NOT_INITIALIZED, a crash, or nothing visible); the tracer
// sees a destroyed handle passed.
#include "sample.h"

static void shutdown(cublasHandle_t handle) {
  cublas_ok(cublasDestroy(handle), "destroy");
}

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
  // The work is done: release the handle.
  shutdown(handle);

  const float inverse = 1.0f / norm;
  ok = ok && cublas_ok(cublasSscal(handle, n, &inverse, d_x, 1), "normalise") &&
       to_host(got, d_x, "x");
  free_device({d_x});
  std::vector<float> want(x);
  for (float &v : want)
    v *= inverse;
  return report_result(ok && all_close(got, want));
}
