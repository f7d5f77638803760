// INTEGRATION-CHECK: cublas-matrix-extents
// EXPECT-DIAG: cublas-matrix-extents @ 31
// PREDICT: out-of-bounds cublasSetWorkspace_v2 workspace @ 30
//
// The handle is given a workspace of its own (to keep cuBLAS from
// allocating one per stream), but the size passed is the one a tuning note
// recommends, 4 MiB, while the buffer was allocated with the 1 MiB of an
// older version of the code. cuBLAS may use any of those 4 MiB for split-K
// partial sums: whatever lies past the buffer's end is overwritten when it
// does.
#include "sample.h"

int main() {
  const int m = 128, n = 64, k = 32;
  const std::size_t workspace_bytes = 1 << 20;
  const std::vector<float> a = ramp(m * k, 1.0f), b = ramp(k * n, 0.5f);
  std::vector<float> c(m * n);
  float *d_a = to_device(a, "A"), *d_b = to_device(b, "B");
  float *d_c = device_zeros(c.size(), "C");
  void *workspace = nullptr;
  if (!d_a || !d_b || !d_c ||
      !cuda_ok(cudaMalloc(&workspace, workspace_bytes), "cudaMalloc workspace"))
    return 2;

  cublasHandle_t handle;
  if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS)
    return 2;
  const float alpha = 1.0f, beta = 0.0f;
  const bool ok =
      cublas_ok(cublasSetWorkspace(handle, workspace,
                                   4 << 20),
                "workspace") &&
      cublas_ok(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &alpha,
                            d_a, m, d_b, k, &beta, d_c, m),
                "gemm") &&
      device_ok("gemm") && to_host(c, d_c, "C");
  cublas_ok(cublasDestroy(handle), "destroy");
  free_device({d_a, d_b, d_c});
  cuda_ok(cudaFree(workspace), "cudaFree workspace");
  return report_product(ok, m, n, k, a, b, c);
}
