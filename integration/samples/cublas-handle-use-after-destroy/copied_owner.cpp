// INTEGRATION-CHECK: cublas-handle-use-after-destroy
// EXPECT-DIAG: cublas-handle-use-after-destroy @ 47
// EXPECT-DIAG: cublas-handle-use-after-destroy @ 19 (note)
// PREDICT: use-after-destroy cublasSaxpy_v2 @ 25
//
// A small class owns its handle: it creates it in its constructor and
// destroys it in its destructor, but its copy constructor is the one the
// compiler writes. Passing it by value to a step function copies the
// handle; the copy's destructor destroys it when the step returns, and the
// original goes on with a destroyed handle (cuBLAS may return
// NOT_INITIALIZED, crash or seem to work), then destroys it again.
#include "sample.h"

class Axpy {
public:
  Axpy() : ok_(cublasCreate(&handle_) == CUBLAS_STATUS_SUCCESS) {}
  ~Axpy() {
    if (handle_)
      (void)cublasDestroy(handle_); // nothing to do if it fails
  }
  bool ok() const { return ok_; }
  // y -= x
  bool run(int n, const float *d_x, float *d_y) const {
    const float alpha = -1.0f;
    return cublas_ok(cublasSaxpy(handle_, n, &alpha, d_x, 1, d_y, 1), "axpy");
  }

private:
  cublasHandle_t handle_ = nullptr;
  bool ok_;
};

static bool step(Axpy axpy, int n, const float *d_x, float *d_y) {
  return axpy.run(n, d_x, d_y);
}

int main() {
  const int n = 4096;
  const std::vector<float> x = ramp(n, 1.0f), y = ramp(n, 3.0f);
  std::vector<float> got(n);
  float *d_x = to_device(x, "x"), *d_y = to_device(y, "y");
  if (!d_x || !d_y)
    return 2;
  Axpy axpy;
  if (!axpy.ok())
    return 2;
  bool ok = step(axpy, n, d_x, d_y);
  ok = axpy.run(n, d_x, d_y) && ok;
  ok = to_host(got, d_y, "y") && ok;
  free_device({d_x, d_y});

  std::vector<float> want(n);
  for (int i = 0; i < n; ++i)
    want[i] = y[i] - 2.0f * x[i];
  return report_result(ok && all_close(got, want));
}
