// RUN: %check_clang_tidy %s cublas-integer-overflow %t -config='{CheckOptions: {cublas-integer-overflow.NarrowedValues: all}}'
// With NarrowedValues=all, every 64-bit value narrowed without a bound is
// reported, not only products: once per variable, at the first argument.
#include <cublas_v2.h>

#include <cstddef>
#include <cstdint>
#include <stdexcept>

void sizes(cublasHandle_t h, size_t M, size_t N, size_t K, const float *a,
           const float *b, float *c) {
  const float one = 1.f, zero = 0.f;
  cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &one, b, N, a, K, &zero, c,
              N);
  // CHECK-MESSAGES: :[[@LINE-2]]:44: warning: 'N' ('size_t') is narrowed to the 'int' parameter 'm' of cublasSgemm with nothing that bounds it: a value above 2147483647 wraps; cublasSgemm_64 takes it as it is [cublas-integer-overflow]
  // CHECK-MESSAGES: :[[@LINE-3]]:47: warning: 'M' ('size_t') is narrowed to the 'int' parameter 'n' of cublasSgemm with nothing that bounds it: a value above 2147483647 wraps; cublasSgemm_64 takes it as it is [cublas-integer-overflow]
  // CHECK-MESSAGES: :[[@LINE-4]]:50: warning: 'K' ('size_t') is narrowed to the 'int' parameter 'k' of cublasSgemm with nothing that bounds it: a value above 2147483647 wraps; cublasSgemm_64 takes it as it is [cublas-integer-overflow]
}

// Checked against INT_MAX first: silent.
void checked(cublasHandle_t h, size_t n, const float *x, float *y) {
  if (n > static_cast<size_t>(INT32_MAX))
    throw std::length_error("n does not fit the 32-bit API");
  const float one = 1.f;
  cublasSaxpy(h, n, &one, x, 1, y, 1);
}

// A plain cast says nothing about the value: still narrowed.
void plainCast(cublasHandle_t h, int64_t n, const float *x, float *y) {
  const float one = 1.f;
  cublasSaxpy(h, static_cast<int>(n), &one, x, 1, y, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: 'n' ('int64_t') is narrowed to the 'int' parameter 'n' of cublasSaxpy with nothing that bounds it: a value above 2147483647 wraps; cublasSaxpy_64 takes it as it is [cublas-integer-overflow]
}
