// INTEGRATION-CHECK: cublas-handle-leak
// EXPECT-DIAG: cublas-handle-leak @ 18
// EXPECT-DIAG: cublas-handle-leak @ 22 (note)
// EXPECT-DIAG: cublas-handle-per-call @ 18
// EXPECT-DIAG: cublas-handle-per-call @ 38 (note)
// PREDICT: leaked-handles == 100
// PREDICT: created-handles == 200
//
// A helper that creates a handle and then returns early for an empty input,
// without destroying it. Half of its 200 calls get an empty input, so exactly
// 100 handles leak; the other calls destroy theirs. A handle made per call
// of a function called in a loop is also cublas-handle-per-call's.
#include "sample.h"

// The sum of |x[i]| into *out; 0 on success.
static int sum_abs(const float *d_x, int n, float *out) {
  cublasHandle_t handle;
  if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS)
    return -1;
  if (n == 0) {
    *out = 0.0f;
    return 0;
  }
  cublasStatus_t status = cublasSasum(handle, n, d_x, 1, out);
  if (cublasDestroy(handle) != CUBLAS_STATUS_SUCCESS)
    return -1;
  return status == CUBLAS_STATUS_SUCCESS ? 0 : -1;
}

int main() {
  const int n = 512, calls = 200;
  const std::vector<float> x = ramp(n, -1.0f);
  float *d_x = to_device(x, "x");
  bool ok = d_x != nullptr;
  double total = 0.0;
  for (int i = 0; i < calls && ok; ++i) {
    float sum = 0.0f;
    ok = sum_abs(d_x, i % 2 == 0 ? 0 : n, &sum) == 0;
    total += sum;
  }
  free_device({d_x});
  double want = 0.0;
  for (float v : x)
    want += std::fabs(v);
  want *= calls / 2;
  return report_result(ok && std::fabs(total - want) <= 1e-4 * want);
}
