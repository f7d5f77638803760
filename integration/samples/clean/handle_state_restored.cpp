// INTEGRATION-CHECK: none
// PREDICT: clean
//
// The correct forms of cublas-handle-state's samples: the stream set first
// and the workspace after it (PyTorch's order), and a helper that saves the
// caller's pointer mode and sets it back before it returns, on its error
// path too. The caller's host alpha is read on the host.
#include "sample.h"

static bool norm_on_device(cublasHandle_t handle, int n, const float *d_x,
                           float *d_norm) {
  cublasPointerMode_t saved;
  if (!cublas_ok(cublasGetPointerMode(handle, &saved), "get mode") ||
      !cublas_ok(cublasSetPointerMode(handle, CUBLAS_POINTER_MODE_DEVICE),
                 "device mode"))
    return false;
  const bool ok = cublas_ok(cublasSnrm2(handle, n, d_x, 1, d_norm), "nrm2");
  return cublas_ok(cublasSetPointerMode(handle, saved), "restore mode") && ok;
}

int main() {
  const int n = 4096;
  const std::vector<float> x = ramp(n, 1.0f);
  std::vector<float> got(n);
  float *d_x = to_device(x, "x"), *d_norm = device_zeros(1, "norm");
  void *workspace = nullptr;
  const size_t workspaceSize = 4 << 20;
  cudaStream_t stream;
  if (!d_x || !d_norm ||
      !cuda_ok(cudaMalloc(&workspace, workspaceSize), "workspace") ||
      !cuda_ok(cudaStreamCreate(&stream), "stream"))
    return 2;

  cublasHandle_t handle;
  if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS)
    return 2;
  const float alpha = 0.5f;
  const bool ok =
      cublas_ok(cublasSetStream(handle, stream), "stream") &&
      cublas_ok(cublasSetWorkspace(handle, workspace, workspaceSize),
                "workspace") &&
      norm_on_device(handle, n, d_x, d_norm) &&
      cublas_ok(cublasSscal(handle, n, &alpha, d_x, 1), "scal") &&
      cuda_ok(cudaStreamSynchronize(stream), "sync") && to_host(got, d_x, "x");
  cublas_ok(cublasDestroy(handle), "destroy");
  cuda_ok(cudaStreamDestroy(stream), "stream destroy");
  cuda_ok(cudaFree(workspace), "workspace free");
  free_device({d_x, d_norm});

  std::vector<float> want(x);
  for (float &v : want)
    v *= alpha;
  return report_result(ok && all_close(got, want));
}
