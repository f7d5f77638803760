// INTEGRATION-CHECK: cublas-handle-leak
// EXPECT-DIAG: cublas-handle-leak @ 29
// EXPECT-DIAG: cublas-handle-leak @ 34 (note)
// EXPECT-DIAG: cublas-handle-per-call @ 29
// EXPECT-DIAG: cublas-handle-per-call @ 48 (note)
// PREDICT: leaked-handles == 100
// PREDICT: created-handles == 200
//
// The project tests statuses with a function of its own, `ok(s)`, and
// returns early when a call fails. A matrix-vector product with an
// increment of 0 fails (cublasSgemv rejects incx = 0 with
// CUBLAS_STATUS_INVALID_VALUE), and that return skips the destroy. Half of
// the 200 calls get such an increment, so exactly 100 handles leak.
#include "sample.h"

#include <cstdio>

static bool ok(cublasStatus_t s) {
  if (s != CUBLAS_STATUS_SUCCESS) {
    std::fprintf(stderr, "cuBLAS status %d\n", static_cast<int>(s));
    return false;
  }
  return true;
}

static int apply(const float *d_a, const float *d_x, float *d_y, int n,
                 int incx) {
  cublasHandle_t handle;
  if (!ok(cublasCreate(&handle)))
    return -1;
  const float one = 1.0f, zero = 0.0f;
  if (!ok(cublasSgemv(handle, CUBLAS_OP_N, n, n, &one, d_a, n, d_x, incx,
                      &zero, d_y, 1)))
    return -2;
  ok(cublasDestroy(handle));
  return 0;
}

int main() {
  const int n = 64;
  float *d_a = device_zeros(n * n, "A"), *d_x = device_zeros(n, "x"),
        *d_y = device_zeros(n, "y");
  if (!d_a || !d_x || !d_y)
    return 2;
  int failures = 0;
  for (int i = 0; i < 200; ++i) {
    // Every second call with an increment of 0, which cuBLAS rejects.
    if (apply(d_a, d_x, d_y, n, i % 2 == 0 ? 1 : 0) != 0)
      ++failures;
  }
  free_device({d_a, d_x, d_y});
  std::printf("%d of 200 calls failed\n", failures);
  return failures == 100 ? 0 : 1;
}
