// INTEGRATION-CHECK: cublas-matrix-extents
// EXPECT-DIAG: cublas-matrix-extents @ 25
// PREDICT: out-of-bounds cublasSgemm_v2 B @ 25
// PREDICT: sanitizer "Invalid __global__ read"
// PREDICT: wrong-result
//
// A BLAS-style row-major wrapper: its transposes and leading dimensions
// follow its own flags. The caller asks for C = A^T * B, so A is stored
// K x M (leading dimension M) and the wrapper hands it to cuBLAS as B,
// transposed; but A is the buffer of the previous layer, M x 32 floats, not
// M x K. cuBLAS reads M * K = 12288 floats from a 4096-float buffer.
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

int main() {
  const int M = 128, N = 64, K = 96, previous_k = 32;
  const std::vector<float> a = ramp(K * M, 1.0f), b = ramp(K * N, 0.5f);
  std::vector<float> c(M * N);
  float *d_a = nullptr;
  if (!cuda_ok(cudaMalloc(&d_a, sizeof(float) * M * previous_k), "cudaMalloc A") ||
      !cuda_ok(cudaMemcpy(d_a, a.data(), sizeof(float) * M * previous_k,
                          cudaMemcpyHostToDevice),
               "copy A"))
    return 2;
  float *d_b = to_device(b, "B"), *d_c = device_zeros(c.size(), "C");
  if (!d_b || !d_c)
    return 2;

  cublasHandle_t handle;
  if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS)
    return 2;
  const bool ok = gemm_row_major(handle, Trans, NoTrans, M, N, K, d_a, d_b, d_c) &&
                  device_ok("gemm") && to_host(c, d_c, "C");
  cublas_ok(cublasDestroy(handle), "destroy");
  free_device({d_b, d_c});
  cuda_ok(cudaFree(d_a), "cudaFree A"); // not in free_device: see sample.h
  // The reference with all of A: row-major A^T * B.
  std::vector<float> want(M * N, 0.0f);
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      for (int p = 0; p < K; ++p)
        want[i * N + j] += a[p * M + i] * b[p * N + j];
  return report_result(ok && all_close(c, want));
}
