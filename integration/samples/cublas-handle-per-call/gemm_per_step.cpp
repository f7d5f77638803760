// INTEGRATION-CHECK: cublas-handle-per-call
// EXPECT-DIAG: cublas-handle-per-call @ 17
// EXPECT-DIAG: cublas-handle-per-call @ 34 (note)
// PREDICT: created-handles == 100
//
// A GEMM wrapper that makes its own handle and destroys it, called on every
// step of a loop. Nothing leaks and the result is right; but each step pays
// for a cublasCreate (a workspace allocation and a device synchronization)
// and a cublasDestroy. The tracer counts the handles the program created:
// 100, where one would do.
#include "sample.h"

// C = A * B for n x n column-major matrices; true on success.
static bool gemm(const float *d_a, const float *d_b, float *d_c, int n) {
  const float one = 1.0f, zero = 0.0f;
  cublasHandle_t handle;
  if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS)
    return false;
  bool ok = cublas_ok(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n,
                                  &one, d_a, n, d_b, n, &zero, d_c, n),
                      "gemm");
  return cublas_ok(cublasDestroy(handle), "destroy") && ok;
}

int main() {
  const int n = 32, steps = 100;
  std::vector<float> a(n * n, 0.0f), b = ramp(n * n, 1.0f), got(n * n);
  for (int i = 0; i < n; ++i)
    a[i * n + i] = 1.0f; // the identity: C = B
  float *d_a = to_device(a, "a"), *d_b = to_device(b, "b");
  float *d_c = to_device(got, "c");
  bool ok = d_a && d_b && d_c;
  for (int step = 0; step < steps && ok; ++step)
    ok = gemm(d_a, d_b, d_c, n);
  ok = ok && to_host(got, d_c, "c");
  free_device({d_a, d_b, d_c});
  return report_result(ok && got == b);
}
