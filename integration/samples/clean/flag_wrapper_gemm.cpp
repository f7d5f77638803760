// INTEGRATION-CHECK: none
// PREDICT: clean
//
// The BLAS-style row-major wrapper of flag_wrapper_short.cpp, called with
// each pair of flags and buffers of the sizes each reads: the conditionals
// pick the leading dimensions and transposes that describe the data. No
// check may report anything, and every product is right.
#include "sample.h"

enum Transpose { NoTrans, Trans };

// C (M x N, row-major) = op(A) * op(B), as C^T = op(B)^T * op(A)^T.
static bool gemm_row_major(cublasHandle_t handle, Transpose ta, Transpose tb,
                           int M, int N, int K, const float *A, const float *B,
                           float *C) {
  const float alpha = 1.0f, beta = 0.0f;
  const int lda = (ta == NoTrans) ? K : M;
  const int ldb = (tb == NoTrans) ? N : K;
  const cublasOperation_t op_a = (ta == NoTrans) ? CUBLAS_OP_N : CUBLAS_OP_T;
  const cublasOperation_t op_b = (tb == NoTrans) ? CUBLAS_OP_N : CUBLAS_OP_T;
  return cublas_ok(cublasSgemm(handle, op_b, op_a, N, M, K, &alpha, B, ldb, A, lda, &beta, C, N), "gemm");
}

// Row-major op(A) * op(B) on the host.
static std::vector<float> reference(Transpose ta, Transpose tb, int M, int N,
                                    int K, const std::vector<float> &a,
                                    const std::vector<float> &b) {
  std::vector<float> want(M * N, 0.0f);
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      for (int p = 0; p < K; ++p)
        want[i * N + j] += (ta == NoTrans ? a[i * K + p] : a[p * M + i]) *
                           (tb == NoTrans ? b[p * N + j] : b[j * K + p]);
  return want;
}

int main() {
  const int M = 128, N = 64, K = 96;
  const std::vector<float> a = ramp(M * K, 1.0f), b = ramp(K * N, 0.5f);
  std::vector<float> c(M * N);
  float *d_a = to_device(a, "A"), *d_b = to_device(b, "B");
  float *d_c = device_zeros(c.size(), "C");
  if (!d_a || !d_b || !d_c)
    return 2;
  cublasHandle_t handle;
  if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS)
    return 2;
  // Constant flags at each call, as callers write them.
  bool ok = gemm_row_major(handle, NoTrans, NoTrans, M, N, K, d_a, d_b, d_c) &&
            device_ok("gemm NN") && to_host(c, d_c, "C") &&
            all_close(c, reference(NoTrans, NoTrans, M, N, K, a, b));
  ok = ok && gemm_row_major(handle, Trans, NoTrans, M, N, K, d_a, d_b, d_c) &&
       device_ok("gemm TN") && to_host(c, d_c, "C") &&
       all_close(c, reference(Trans, NoTrans, M, N, K, a, b));
  ok = ok && gemm_row_major(handle, NoTrans, Trans, M, N, K, d_a, d_b, d_c) &&
       device_ok("gemm NT") && to_host(c, d_c, "C") &&
       all_close(c, reference(NoTrans, Trans, M, N, K, a, b));
  ok = ok && gemm_row_major(handle, Trans, Trans, M, N, K, d_a, d_b, d_c) &&
       device_ok("gemm TT") && to_host(c, d_c, "C") &&
       all_close(c, reference(Trans, Trans, M, N, K, a, b));
  cublas_ok(cublasDestroy(handle), "destroy");
  free_device({d_a, d_b, d_c});
  return report_result(ok);
}
