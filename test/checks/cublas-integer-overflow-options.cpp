// RUN: %check_clang_tidy %s cublas-integer-overflow %t -config='{CheckOptions: {cublas-integer-overflow.ReportUnproven: true, cublas-integer-overflow.NarrowedValues: products}}'
// With NarrowedValues=products, rule 2 reports only the narrowed values
// that the code computed as products, and constants that do not fit:
// single sizes are left alone. Rule 1 is unchanged.
#include <cublas_v2.h>

#include <cstddef>
#include <cstdint>

void sizes(cublasHandle_t h, size_t M, size_t N, size_t K, const float *a,
           const float *b, float *c) {
  const float one = 1.f, zero = 0.f;
  cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &one, b, N, a, K, &zero, c,
              N);
}

void product(cublasHandle_t h, size_t rows, size_t cols, const float *x,
             float *y) {
  const float one = 1.f;
  cublasSaxpy(h, rows * cols, &one, x, 1, y, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: 'rows * cols' ('size_t') is narrowed to the 'int' parameter 'n' of cublasSaxpy with nothing that bounds it: a value above 2147483647 wraps; cublasSaxpy_64 takes it as it is [cublas-integer-overflow]
}

// A product as one dimension of a GEMM: with ReportUnproven it is a product
// all the same, and products stays reporting it.
void productRows(cublasHandle_t h, size_t batch, size_t seq, const float *w,
                 const float *x, float *y) {
  const float one = 1.f, zero = 0.f;
  cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 64, batch * seq, 64, &one, w, 64, x,
              64, &zero, y, 64);
  // CHECK-MESSAGES: :[[@LINE-2]]:48: warning: 'batch * seq' ('size_t') is narrowed to the 'int' parameter 'n' of cublasSgemm with nothing that bounds it: a value above 2147483647 wraps; cublasSgemm_64 takes it as it is [cublas-integer-overflow]
}

void constant(cublasHandle_t h, const float *x, float *y) {
  const int64_t n = 1ll << 32;
  const float one = 1.f;
  cublasSaxpy(h, n, &one, x, 1, y, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: 'n' ('int64_t') is 4294967296, which does not fit the 'int' parameter 'n' of cublasSaxpy: it becomes 0; cublasSaxpy_64 takes it as it is [cublas-integer-overflow]
}

void stride(cublasHandle_t h, int m, int k, const float *a, const float *b,
            float *c) {
  const float one = 1.f, zero = 0.f;
  cublasSgemmStridedBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, m, 1, k, &one, a, m,
                            m * k, b, k, k, &zero, c, m, m, 2);
  // CHECK-MESSAGES: :[[@LINE-1]]:29: warning: 'm * k' is computed in 'int' and wraps once it exceeds 2147483647{{.*}} [cublas-integer-overflow]
}
