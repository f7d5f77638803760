// INTEGRATION-CHECK: cublas-handle-state
// EXPECT-DIAG: cublas-handle-state @ 24
// EXPECT-DIAG: cublas-handle-state @ 29 (note)
// EXPECT-DIAG: cublas-handle-state @ 34 (note)
// PREDICT: default-workspace cublasSgemm_v2 @ 34
//
// A GEMM wrapper that remembers the stream and the workspace it gave its
// handle and calls cublasSetStream and cublasSetWorkspace only when they
// change. The second call moves to another stream with the same
// workspace: the stream change resets the handle's workspace to cuBLAS's
// default pool, the cache still holds the old one, and the GEMM runs
// without it. The numbers are right; the workspace is silently not the
// one given.
#include "sample.h"

struct Gemm {
  cublasHandle_t handle = nullptr;
  cudaStream_t stream = nullptr;
  void *workspace = nullptr;

  bool run(cudaStream_t s, void *ws, size_t bytes, int n, const float *a,
           const float *b, float *c) {
    if (s != stream) {
      if (!cublas_ok(cublasSetStream(handle, s), "stream"))
        return false;
      stream = s;
    }
    if (ws != workspace) {
      if (!cublas_ok(cublasSetWorkspace(handle, ws, bytes), "workspace"))
        return false;
      workspace = ws;
    }
    const float one = 1.0f, zero = 0.0f;
    return cublas_ok(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n,
                                 &one, a, n, b, n, &zero, c, n),
                     "gemm");
  }
};

int main() {
  const int n = 256;
  const std::vector<float> a = ramp(n * n, 0.01f), b = ramp(n * n, 0.02f);
  std::vector<float> got(n * n);
  float *d_a = to_device(a, "A"), *d_b = to_device(b, "B"),
        *d_c = device_zeros(n * n, "C");
  void *workspace = nullptr;
  const size_t workspaceSize = 4 << 20;
  cudaStream_t first, second;
  if (!d_a || !d_b || !d_c ||
      !cuda_ok(cudaMalloc(&workspace, workspaceSize), "workspace") ||
      !cuda_ok(cudaStreamCreate(&first), "stream") ||
      !cuda_ok(cudaStreamCreate(&second), "stream"))
    return 2;

  Gemm gemm;
  if (cublasCreate(&gemm.handle) != CUBLAS_STATUS_SUCCESS)
    return 2;
  const bool ok =
      gemm.run(first, workspace, workspaceSize, n, d_a, d_b, d_c) &&
      cuda_ok(cudaStreamSynchronize(first), "sync") &&
      gemm.run(second, workspace, workspaceSize, n, d_a, d_b, d_c) &&
      cuda_ok(cudaStreamSynchronize(second), "sync") &&
      to_host(got, d_c, "C");
  cublas_ok(cublasDestroy(gemm.handle), "destroy");
  cuda_ok(cudaStreamDestroy(first), "stream destroy");
  cuda_ok(cudaStreamDestroy(second), "stream destroy");
  cuda_ok(cudaFree(workspace), "workspace free");
  free_device({d_a, d_b, d_c});
  return report_product(ok, n, n, n, a, b, got);
}
