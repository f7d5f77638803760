// INTEGRATION-CHECK: cublas-handle-leak
// EXPECT-DIAG: cublas-handle-leak @ 19
// EXPECT-DIAG: cublas-handle-leak @ 34 (note)
// PREDICT: created-handles == 10
// PREDICT: leaked-handles == 9
//
// A global handle that init() creates and shutdown() destroys; init() was
// meant for the start of the program, but a restructuring moved it into
// the epoch loop. shutdown() runs once, after the loop, and destroys the
// last handle only: every epoch but the last leaks one (its workspace and
// stream resources), and a long run ends in CUBLAS_STATUS_ALLOC_FAILED at
// some later cublasCreate. The results stay right: the tracer counts the
// handles created and those still alive at exit.
#include "sample.h"

static cublasHandle_t g_blas;

static void init() {
  cublas_ok(cublasCreate(&g_blas), "create");
}

static void shutdown() { cublas_ok(cublasDestroy(g_blas), "destroy"); }

int main() {
  const int n = 256, epochs = 10;
  const std::vector<float> x = ramp(n, 1.0f);
  std::vector<float> got(n);
  float *d_x = to_device(x, "x");
  bool ok = d_x != nullptr;
  // Doubles and halves x in turn: after an even number of epochs it is x
  // again.
  for (int e = 0; e < epochs && ok; ++e) {
    const float factor = e % 2 == 0 ? 2.0f : 0.5f;
    init();
    ok = cublas_ok(cublasSscal(g_blas, n, &factor, d_x, 1), "scal");
  }
  shutdown();
  ok = ok && to_host(got, d_x, "x");
  free_device({d_x});
  return report_result(ok && all_close(got, x));
}
