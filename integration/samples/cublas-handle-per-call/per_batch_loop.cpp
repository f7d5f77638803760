// INTEGRATION-CHECK: cublas-handle-per-call
// EXPECT-DIAG: cublas-handle-per-call @ 20
// EXPECT-DIAG: cublas-handle-per-call @ 18 (note)
// PREDICT: created-handles == 64
//
// A loop over batches that makes a handle for each batch, scales it, and
// destroys the handle again: 64 creates and 64 destroys, each with its
// device synchronization, for 64 calls of cublasSscal that one handle
// would have served.
#include "sample.h"

int main() {
  const int n = 256, batches = 64;
  const std::vector<float> x = ramp(n * batches, 1.0f);
  float *d_x = to_device(x, "x");
  bool ok = d_x != nullptr;
  const float two = 2.0f;
  for (int b = 0; b < batches; ++b) {
    cublasHandle_t handle;
    if (!cublas_ok(cublasCreate(&handle), "create")) {
      ok = false;
      continue;
    }
    ok = cublas_ok(cublasSscal(handle, n, &two, d_x + b * n, 1), "scal") && ok;
    ok = cublas_ok(cublasDestroy(handle), "destroy") && ok;
  }
  std::vector<float> got(x.size());
  ok = ok && to_host(got, d_x, "x");
  free_device({d_x});
  bool right = true;
  for (std::size_t i = 0; i < x.size(); ++i)
    right = right && got[i] == 2.0f * x[i];
  return report_result(ok && right);
}
