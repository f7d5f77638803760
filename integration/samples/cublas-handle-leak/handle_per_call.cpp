// INTEGRATION-CHECK: cublas-handle-leak
// EXPECT-DIAG: cublas-handle-leak @ 15
// EXPECT-DIAG: cublas-handle-leak @ 17 (note)
// PREDICT: leaked-handles >= 200
//
// A helper that creates a cuBLAS handle on every call and never destroys it,
// called 200 times. Each call leaks the handle with its device workspace and
// stream resources; a long job ends in CUBLAS_STATUS_ALLOC_FAILED at some
// later cublasCreate. The results stay right, which is why nobody notices:
// the tracer counts the handles still alive at exit.
#include "sample.h"

static bool scale(float *d_x, int n, float factor) {
  cublasHandle_t handle;
  if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS)
    return false;
  return cublas_ok(cublasSscal(handle, n, &factor, d_x, 1), "scal");
}

int main() {
  const int n = 256, calls = 200;
  const std::vector<float> x = ramp(n, 1.0f);
  std::vector<float> got(n);
  float *d_x = to_device(x, "x");
  bool ok = d_x != nullptr;
  // Doubles and halves x in turn: after an even number of calls it is x again.
  for (int i = 0; i < calls && ok; ++i)
    ok = scale(d_x, n, i % 2 == 0 ? 2.0f : 0.5f);
  ok = ok && to_host(got, d_x, "x");
  free_device({d_x});
  return report_result(ok && all_close(got, x));
}
