// INTEGRATION-CHECK: cublas-handle-use-after-destroy
// EXPECT-DIAG: cublas-handle-use-after-destroy @ 42
// EXPECT-DIAG: cublas-handle-use-after-destroy @ 39 (note)
// PREDICT: use-after-destroy cublasSscal_v2 @ 42
//
// A C-style engine keeps its handle in a struct; engine_release() frees it
// when the work is "done". A scaling step added later below the release
// still reads the handle through the struct: cublasSscal gets a handle
// whose memory is freed (CUBLAS_STATUS_NOT_INITIALIZED, a crash, or
// nothing visible); the tracer sees a destroyed handle passed.
#include "sample.h"

struct Engine {
  cublasHandle_t handle = nullptr;
  float *d_x = nullptr;
  int n = 0;
};

static bool engine_init(Engine &e, const std::vector<float> &x) {
  e.n = static_cast<int>(x.size());
  e.d_x = to_device(x, "x");
  return e.d_x && cublasCreate(&e.handle) == CUBLAS_STATUS_SUCCESS;
}

static void engine_release(Engine &e) {
  cublas_ok(cublasDestroy(e.handle), "destroy");
}

int main() {
  const int n = 1024;
  const std::vector<float> x = ramp(n, 1.0f);
  std::vector<float> got(n);
  Engine e;
  if (!engine_init(e, x))
    return 2;
  float norm = 0.0f;
  bool ok = cublas_ok(cublasSnrm2(e.handle, e.n, e.d_x, 1, &norm), "nrm2");
  // The work is done: release the engine's handle.
  engine_release(e);

  const float inverse = 1.0f / norm;
  ok = ok && cublas_ok(cublasSscal(e.handle, e.n, &inverse, e.d_x, 1),
                       "normalise") &&
       to_host(got, e.d_x, "x");
  cuda_ok(cudaFree(e.d_x), "cudaFree x");
  std::vector<float> want(x);
  for (float &v : want)
    v *= inverse;
  return report_result(ok && all_close(got, want));
}
