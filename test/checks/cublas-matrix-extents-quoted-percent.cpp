// RUN: %check_clang_tidy %s cublas-matrix-extents %t
// The messages quote the code as written; a '%' in it (a modulo) is text,
// not a format directive of the diagnostic.
#include <cublas_v2.h>

void modulo(cublasHandle_t h, const float *A, const float *B, float *C) {
  const float one = 1.f, zero = 0.f;
  int m = 512;
  cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, 64, 64, &one, A, m % 100, B, 64,
              &zero, C, m);
  // CHECK-NOTES: :[[@LINE-2]]:64: warning: 'lda' (m % 100 = 12) is smaller than the rows of A (m = 512) for transa=CUBLAS_OP_N; cuBLAS returns CUBLAS_STATUS_INVALID_VALUE [cublas-matrix-extents]
}

// A leading dimension rounded up with a modulo is correct: no finding.
void roundedUp(cublasHandle_t h, const float *A, const float *B, float *C) {
  const float one = 1.f, zero = 0.f;
  int m = 500;
  int lda = m + (32 - m % 32) % 32;
  cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, 64, 64, &one, A, lda, B, 64,
              &zero, C, m);
}
