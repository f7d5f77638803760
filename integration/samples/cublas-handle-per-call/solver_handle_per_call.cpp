// INTEGRATION-CHECK: cublas-handle-per-call
// EXPECT-DIAG: cublas-handle-per-call @ 26
// EXPECT-DIAG: cublas-handle-per-call @ 58 (note)
// PREDICT: created-handles >= 100
//
// A Cholesky helper that makes its own cuSOLVER handle and destroys it,
// called for each of 100 matrices. Nothing leaks and every factorization
// is right; but each call pays for a cusolverDnCreate (which creates a
// cuBLAS handle inside, with its workspace) and a cusolverDnDestroy. The
// tracer counts the handles the program created: at least 100, where one
// would do.
#include "sample.h"

#include <cusolverDn.h>

static bool solver_ok(cusolverStatus_t status, const char *what) {
  if (status == CUSOLVER_STATUS_SUCCESS)
    return true;
  std::printf("CUSOLVER-ERROR: %d (%s)\n", static_cast<int>(status), what);
  return false;
}

// Factors the n x n symmetric positive definite d_a in place.
static bool cholesky(float *d_a, int n, float *d_work, int lwork, int *d_info) {
  cusolverDnHandle_t h;
  if (!solver_ok(cusolverDnCreate(&h), "create"))
    return false;
  bool ok = solver_ok(cusolverDnSpotrf(h, CUBLAS_FILL_MODE_LOWER, n, d_a, n,
                                       d_work, lwork, d_info),
                      "potrf");
  return solver_ok(cusolverDnDestroy(h), "destroy") && ok;
}

int main() {
  const int n = 32, count = 100;
  std::vector<float> a(n * n, 0.0f);
  for (int i = 0; i < n; ++i)
    a[i * n + i] = 4.0f; // 4 I: its factor is 2 I
  float *d_a = to_device(a, "a");
  int *d_info = nullptr;
  float *d_work = nullptr;
  int lwork = 0;
  bool ok = d_a && cuda_ok(cudaMalloc(&d_info, sizeof(int)), "info");
  cusolverDnHandle_t probe = nullptr;
  if (ok && solver_ok(cusolverDnCreate(&probe), "create")) {
    ok = solver_ok(cusolverDnSpotrf_bufferSize(probe, CUBLAS_FILL_MODE_LOWER,
                                               n, d_a, n, &lwork),
                   "bufferSize");
    ok = solver_ok(cusolverDnDestroy(probe), "destroy") && ok;
  } else {
    ok = false;
  }
  ok = ok && cuda_ok(cudaMalloc(&d_work, sizeof(float) * lwork), "work");
  const std::size_t bytes = sizeof(float) * a.size();
  for (int i = 0; i < count && ok; ++i)
    ok = cuda_ok(cudaMemcpy(d_a, a.data(), bytes, cudaMemcpyHostToDevice),
                 "a") &&
         cholesky(d_a, n, d_work, lwork, d_info);
  std::vector<float> got(n * n);
  std::vector<int> info(1, -1);
  ok = ok && to_host(got, d_a, "a") && to_host(info, d_info, "info") &&
       info[0] == 0 && got[0] == 2.0f && got[n * n - 1] == 2.0f;
  free_device({d_a, d_info, d_work});
  return report_result(ok);
}
