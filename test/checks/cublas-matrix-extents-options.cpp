// RUN: %check_clang_tidy -check-suffix=DEFAULT %s cublas-matrix-extents %t.default
// RUN: %check_clang_tidy -check-suffix=NONE %s cublas-matrix-extents %t.none \
// RUN:   -config="{CheckOptions: {cublas-matrix-extents.MaxCallSites: 0}}"
// RUN: %check_clang_tidy -check-suffix=ONE %s cublas-matrix-extents %t.one \
// RUN:   -config="{CheckOptions: {cublas-matrix-extents.MaxCallSites: 1}}"

// MaxCallSites: how many call sites of a function lend it their arguments.
// 0 judges every function by its own code alone.
#include <cublas_v2.h>
#include <cuda_runtime.h>

static void gemm(cublasHandle_t h, const float *A, float *C, int m, int lda) {
  const float one = 1, zero = 0;
  cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, m, m, &one, A, lda, A, lda,
              &zero, C, m);
  // CHECK-MESSAGES-DEFAULT: :[[@LINE-2]]:62: warning: 'lda' (32) is smaller than the rows of A (m = 128) for transa=CUBLAS_OP_N; cuBLAS returns CUBLAS_STATUS_INVALID_VALUE [cublas-matrix-extents]
  // CHECK-MESSAGES-DEFAULT: :[[@LINE-3]]:62: warning: 'lda' (64) is smaller than the rows of A (m = 128) for transa=CUBLAS_OP_N; cuBLAS returns CUBLAS_STATUS_INVALID_VALUE [cublas-matrix-extents]
  // CHECK-MESSAGES-DEFAULT: :[[@LINE-4]]:70: warning: 'ldb' (lda = 32) is smaller than the rows of B (m = 128) for transb=CUBLAS_OP_N; cuBLAS returns CUBLAS_STATUS_INVALID_VALUE [cublas-matrix-extents]
  // CHECK-MESSAGES-DEFAULT: :[[@LINE-5]]:70: warning: 'ldb' (lda = 64) is smaller than the rows of B (m = 128) for transb=CUBLAS_OP_N; cuBLAS returns CUBLAS_STATUS_INVALID_VALUE [cublas-matrix-extents]
  // CHECK-MESSAGES-ONE: :[[@LINE-6]]:62: warning: 'lda' (64) is smaller than the rows of A (m = 128) for transa=CUBLAS_OP_N; cuBLAS returns CUBLAS_STATUS_INVALID_VALUE [cublas-matrix-extents]
  // CHECK-MESSAGES-ONE: :[[@LINE-7]]:70: warning: 'ldb' (lda = 64) is smaller than the rows of B (m = 128) for transb=CUBLAS_OP_N; cuBLAS returns CUBLAS_STATUS_INVALID_VALUE [cublas-matrix-extents]
}

void caller(cublasHandle_t h, float *dA, float *dC) {
  gemm(h, dA, dC, 128, 64);
  gemm(h, dA, dC, 128, 32);
  gemm(h, dA, dC, 128, 128);
}
