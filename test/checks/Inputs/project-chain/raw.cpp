#include "project.h"

#include <cstdio>

bool ok(cublasStatus_t s) {
  if (s != CUBLAS_STATUS_SUCCESS)
    std::fprintf(stderr, "cuBLAS error %d\n", static_cast<int>(s));
  return s == CUBLAS_STATUS_SUCCESS;
}

void destroyHandle(cublasHandle_t h) { ok(cublasDestroy(h)); }

cublasStatus_t scaleRaw(cublasHandle_t h, int n, float *x) {
  const float a = 2.0f;
  return cublasSscal(h, n, &a, x, 1);
}

// op(A) is m x k: A is m x k (lda = m), or k x m read transposed (lda = k).
void gemmRaw(cublasHandle_t h, int transA, int m, int n, int k, const float *A,
             const float *B, float *C) {
  const float one = 1.0f, zero = 0.0f;
  int lda = transA == 1 ? k : m;
  cublasOperation_t opA = transA == 1 ? CUBLAS_OP_T : CUBLAS_OP_N;
  ok(cublasSgemm(h, opA, CUBLAS_OP_N, m, n, k, &one, A, lda, B, k, &zero, C,
                 m));
}

void scratch(float *x) {
  cublasHandle_t h;
  if (!ok(cublasCreate(&h)))
    return;
  const float a = 2.0f;
  ok(cublasSscal(h, 16, &a, x, 1));
  ok(cublasDestroy(h));
}

void destroyGlobal() { ok(cublasDestroy(g_blas)); }
