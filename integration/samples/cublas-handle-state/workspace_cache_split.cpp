// INTEGRATION-CHECK: cublas-handle-state
// EXPECT-DIAG: cublas-handle-state @ 21
// EXPECT-DIAG: cublas-handle-state @ 26 (note)
// EXPECT-DIAG: cublas-handle-state @ 31 (note)
// PREDICT: default-workspace cublasSgemm_v2 @ 31
//
// The workspace cache of workspace_cache.cpp with the stream set by a
// method of its own: set_stream() resets the handle's workspace to cuBLAS's
// default pool but leaves run()'s cache full, so the second run(), on a new
// stream with the same workspace, skips cublasSetWorkspace and the GEMM
// runs without it. The numbers are right; the workspace is silently not
// the one given.
#include "sample.h"

struct Gemm {
  cublasHandle_t handle = nullptr;
  void *workspace = nullptr;

  bool set_stream(cudaStream_t s) {
    // The stream change resets the workspace; the cache stays.
    return cublas_ok(cublasSetStream(handle, s), "stream");
  }
  bool run(void *ws, size_t bytes, int n, const float *a, const float *b,
           float *c) {
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
      gemm.set_stream(first) &&
      gemm.run(workspace, workspaceSize, n, d_a, d_b, d_c) &&
      cuda_ok(cudaStreamSynchronize(first), "sync") &&
      gemm.set_stream(second) &&
      gemm.run(workspace, workspaceSize, n, d_a, d_b, d_c) &&
      cuda_ok(cudaStreamSynchronize(second), "sync") &&
      to_host(got, d_c, "C");
  cublas_ok(cublasDestroy(gemm.handle), "destroy");
  cuda_ok(cudaStreamDestroy(first), "stream destroy");
  cuda_ok(cudaStreamDestroy(second), "stream destroy");
  cuda_ok(cudaFree(workspace), "workspace free");
  free_device({d_a, d_b, d_c});
  return report_product(ok, n, n, n, a, b, got);
}
