// The program the tracer test (check_preload.py) runs with the tracer
// preloaded, against the fake cuBLAS and CUDA runtime of this directory.
// The runner's own parser reads the predictions below, and its own matcher
// compares them with the tracer's report: a test of both without a GPU.
//
// PREDICT: status CUBLAS_STATUS_INVALID_VALUE from cublasSgemm_v2 @ 40
// PREDICT: host-pointer cublasSaxpy_v2 x @ 48
// PREDICT: host-pointer cublasSscal_v2 alpha @ 53
// PREDICT: device-pointer cublasSetVector x @ 49
// PREDICT: out-of-bounds cublasSgemm_v2 A @ 45
// PREDICT: use-after-destroy cublasSscal_v2 @ 59
// PREDICT: use-after-destroy cublasDestroy_v2 @ 60
// PREDICT: leaked-handles == 3
// PREDICT: leaked-descriptors == 1
// PREDICT: wrong-result
// PREDICT: cuda-error cudaErrorInvalidValue
#include <cublasLt.h>
#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <vector>

int main() {
  const int n = 64;
  float *d_a = nullptr, *d_b = nullptr, *d_alpha = nullptr;
  if (cudaMalloc((void **)&d_a, n * n * sizeof(float)) != cudaSuccess ||
      cudaMalloc((void **)&d_b, n * n * sizeof(float)) != cudaSuccess ||
      cudaMalloc((void **)&d_alpha, sizeof(float)) != cudaSuccess)
    return 1;
  std::vector<float> host(n, 1.0f);
  const float alpha = 2.0f, beta = 0.0f;

  cublasHandle_t handle;
  if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS)
    return 1;
  // lda below m: CUBLAS_STATUS_INVALID_VALUE.
  cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha, d_a, n / 2,
              d_b, n, &beta, d_b, n);
  if (std::getenv("TRACE_CLIENT_CRASH"))
    std::raise(SIGSEGV); // what was recorded so far must be in the report
  // A, 64 x 64 with lda 96, reaches past the end of d_a.
  cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n / 2, n, &alpha, d_a,
              n + n / 2, d_b, n, &beta, d_b, n);
  // Host memory as x; device memory as the host source of a copy.
  cublasSaxpy(handle, n, &alpha, host.data(), 1, d_b, 1);
  cublasSetVector(n, sizeof(float), d_a, 1, d_b, 1);
  // A device alpha in device pointer mode, then a host one.
  cublasSetPointerMode(handle, CUBLAS_POINTER_MODE_DEVICE);
  cublasSscal(handle, n, d_alpha, d_a, 1);
  cublasSscal(handle, n, &alpha, d_a, 1);
  cublasSetPointerMode(handle, CUBLAS_POINTER_MODE_HOST);
  float norm = 0;
  cublasSnrm2(handle, n, d_a, 1, &norm); // calls cublasSaxpy inside
  // Used and destroyed again after the destroy.
  cublasDestroy(handle);
  cublasSscal(handle, n, &alpha, d_a, 1);
  cublasDestroy(handle);

  // Three handles and one layout never destroyed; one of each destroyed.
  for (int i = 0; i < 4; ++i) {
    cublasHandle_t h;
    if (cublasCreate(&h) == CUBLAS_STATUS_SUCCESS && i == 0)
      cublasDestroy(h);
  }
  cublasLtMatrixLayout_t layouts[2];
  cublasLtMatrixLayoutCreate(&layouts[0], CUDA_R_32F, n, n, n);
  cublasLtMatrixLayoutCreate(&layouts[1], CUDA_R_32F, n, n, n);
  cublasLtMatrixLayoutDestroy(layouts[1]);

  std::printf("CUDA-ERROR: %s (as a sample prints it)\n",
              cudaGetErrorName(cudaErrorInvalidValue));
  std::printf("RESULT: WRONG\n");
  return 0;
}
