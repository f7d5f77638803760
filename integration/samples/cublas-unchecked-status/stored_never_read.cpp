// INTEGRATION-CHECK: cublas-unchecked-status
// EXPECT-DIAG: cublas-unchecked-status @ 39
// EXPECT-DIAG: cublas-unchecked-status @ 41 (note)
// PREDICT: status CUBLAS_STATUS_INVALID_VALUE from cublasSgemv_v2 @ 39
// PREDICT: wrong-result
//
// y = A x, with the GEMV's status stored and then overwritten by the next
// call's before anyone reads it. The stride of x comes from the input and is
// 0 ("contiguous" to the tool that wrote it); cuBLAS rejects incx = 0 with
// CUBLAS_STATUS_INVALID_VALUE, y keeps its zeros, and the copy back succeeds,
// so the only status anyone looks at says all is well.
#include "sample.h"

int main() {
  // As read from the input: m n incx.
  int m = 0, n = 0, incx = 1;
  if (std::sscanf("128 64 0", "%d %d %d", &m, &n, &incx) != 3)
    return 2;
  const std::vector<float> a = ramp(static_cast<std::size_t>(m) * n, 0.25f);
  const std::vector<float> x = ramp(n, 1.0f);
  std::vector<float> y(m);

  float *d_a = nullptr, *d_x = nullptr, *d_y = nullptr;
  if (!cuda_ok(cudaMalloc(&d_a, a.size() * sizeof(float)), "cudaMalloc A") ||
      !cuda_ok(cudaMalloc(&d_x, x.size() * sizeof(float)), "cudaMalloc x") ||
      !cuda_ok(cudaMalloc(&d_y, y.size() * sizeof(float)), "cudaMalloc y") ||
      !cuda_ok(cudaMemset(d_y, 0, y.size() * sizeof(float)), "cudaMemset y"))
    return 2;

  cublasHandle_t handle;
  if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS)
    return 2;
  bool ok = cublas_ok(cublasSetMatrix(m, n, sizeof(float), a.data(), m, d_a, m),
                      "set A") &&
            cublas_ok(cublasSetVector(n, sizeof(float), x.data(), 1, d_x, 1),
                      "set x");
  if (ok) {
    const float alpha = 1.0f, beta = 0.0f;
    cublasStatus_t status = cublasSgemv(handle, CUBLAS_OP_N, m, n, &alpha, d_a,
                                        m, d_x, incx, &beta, d_y, 1);
    status = cublasGetVector(m, sizeof(float), d_y, 1, y.data(), 1);
    ok = status == CUBLAS_STATUS_SUCCESS;
  }
  cublas_ok(cublasDestroy(handle), "destroy");
  cuda_ok(cudaFree(d_a), "cudaFree A");
  cuda_ok(cudaFree(d_x), "cudaFree x");
  cuda_ok(cudaFree(d_y), "cudaFree y");
  return report_result(ok && all_close(y, host_gemm(m, 1, n, a, x)));
}
