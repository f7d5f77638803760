// INTEGRATION-CHECK: none
// PREDICT: clean
//
// getrf_workspace_bytes.cpp with the workspace the query asked for:
// lwork floats, lwork * sizeof(float) bytes. No check may report anything,
// compute-sanitizer finds nothing, and the factorization succeeds.
#include "sample.h"

#include <cusolverDn.h>

static bool solver_ok(cusolverStatus_t status, const char *what) {
  if (status == CUSOLVER_STATUS_SUCCESS)
    return true;
  std::printf("CUSOLVER-ERROR: %d (%s)\n", static_cast<int>(status), what);
  return false;
}

// Factors the n x n d_a in place, with a workspace of the size the query
// gives.
static bool factor(cusolverDnHandle_t h, float *d_a, int n, int *d_ipiv,
                   int *d_info) {
  int lwork = 0;
  if (!solver_ok(cusolverDnSgetrf_bufferSize(h, n, n, d_a, n, &lwork),
                 "bufferSize"))
    return false;
  float *d_work = nullptr;
  if (!cuda_ok(cudaMalloc(&d_work, sizeof(float) * lwork), "work"))
    return false;
  bool ok =
      solver_ok(cusolverDnSgetrf(h, n, n, d_a, n, d_work, d_ipiv, d_info),
                "getrf") &&
      device_ok("getrf");
  cudaFree(d_work);
  return ok;
}

int main() {
  const int n = 1024;
  // A diagonally dominant matrix: no pivot is ever zero.
  std::vector<float> a = ramp(static_cast<std::size_t>(n) * n, 1e-3f);
  for (int i = 0; i < n; ++i)
    a[static_cast<std::size_t>(i) * n + i] += 2.0f * n;
  float *d_a = to_device(a, "a");
  int *d_ipiv = nullptr, *d_info = nullptr;
  bool ok = d_a && cuda_ok(cudaMalloc(&d_ipiv, sizeof(int) * n), "ipiv") &&
            cuda_ok(cudaMalloc(&d_info, sizeof(int)), "info");
  cusolverDnHandle_t h = nullptr;
  if (ok && solver_ok(cusolverDnCreate(&h), "create")) {
    ok = factor(h, d_a, n, d_ipiv, d_info);
    ok = solver_ok(cusolverDnDestroy(h), "destroy") && ok;
  } else {
    ok = false;
  }
  std::vector<int> info(1, -1);
  ok = ok && to_host(info, d_info, "info") && info[0] == 0;
  free_device({d_a, d_ipiv, d_info});
  return report_result(ok);
}
