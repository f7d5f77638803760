// INTEGRATION-CHECK: cublas-handle-leak
// EXPECT-DIAG: cublas-handle-leak @ 19
// EXPECT-DIAG: cublas-handle-leak @ 38 (note)
// PREDICT: created-handles == 100
// PREDICT: leaked-handles == 100
//
// A layer class creates its handle in setup(), which the caller runs after
// construction, and has no destructor: the handle is the class's, but
// nothing gives it back. A request handler makes a layer per request, sets
// it up and runs it; each of the 100 requests leaks one handle with its
// workspace and stream resources, and a long-running server ends in
// CUBLAS_STATUS_ALLOC_FAILED at some later cublasCreate. The results stay
// right: the tracer counts the handles still alive at exit.
#include "sample.h"

class Layer {
public:
  bool setup() {
    return cublas_ok(cublasCreate(&handle_), "create");
  }
  bool forward(float *d_x, int n, float factor) {
    return cublas_ok(cublasSscal(handle_, n, &factor, d_x, 1), "scal");
  }

private:
  cublasHandle_t handle_ = nullptr;
};

int main() {
  const int n = 1024, requests = 100;
  const std::vector<float> x = ramp(n, 1.0f);
  float *d_x = to_device(x, "x");
  if (!d_x)
    return 2;
  bool ok = true;
  for (int r = 0; r < requests && ok; ++r) {
    Layer layer;
    ok = layer.setup() && layer.forward(d_x, n, 1.0f);
  }
  std::vector<float> got(n);
  ok = ok && to_host(got, d_x, "x");
  free_device({d_x});
  return report_result(ok && all_close(got, x));
}
