// INTEGRATION-CHECK: cublas-handle-state
// EXPECT-DIAG: cublas-handle-state @ 35
// EXPECT-DIAG: cublas-handle-state @ 33 (note)
// EXPECT-DIAG: cublas-handle-state @ 36 (note)
// PREDICT: default-workspace cublasSgemm_v2 @ 36
//
// A GEMM given a workspace of its own (for CUDA graph capture, or a memory
// budget), then moved to a stream: cublasSetStream resets the workspace to
// cuBLAS's default pool, and the GEMM runs without the one it was given.
// The numbers are right; the workspace is silently not the one set.
#include "sample.h"

int main() {
  const int n = 256;
  const std::vector<float> a = ramp(n * n, 0.01f), b = ramp(n * n, 0.02f);
  std::vector<float> got(n * n);
  float *d_a = to_device(a, "A"), *d_b = to_device(b, "B"),
        *d_c = device_zeros(n * n, "C");
  void *workspace = nullptr;
  const size_t workspaceSize = 4 << 20;
  cudaStream_t stream;
  if (!d_a || !d_b || !d_c ||
      !cuda_ok(cudaMalloc(&workspace, workspaceSize), "workspace") ||
      !cuda_ok(cudaStreamCreate(&stream), "stream"))
    return 2;

  cublasHandle_t handle;
  if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS)
    return 2;
  const float one = 1.0f, zero = 0.0f;
  const bool ok =
      cublas_ok(
          cublasSetWorkspace(handle, workspace, workspaceSize),
          "workspace") &&
      cublas_ok(cublasSetStream(handle, stream), "stream") &&
      cublas_ok(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one,
                            d_a, n, d_b, n, &zero, d_c, n),
                "gemm") &&
      cuda_ok(cudaStreamSynchronize(stream), "sync") && to_host(got, d_c, "C");
  cublas_ok(cublasDestroy(handle), "destroy");
  cuda_ok(cudaStreamDestroy(stream), "stream destroy");
  cuda_ok(cudaFree(workspace), "workspace free");
  free_device({d_a, d_b, d_c});
  return report_product(ok, n, n, n, a, b, got);
}
