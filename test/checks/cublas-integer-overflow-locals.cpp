// RUN: %check_clang_tidy %s cublas-integer-overflow %t -config='{CheckOptions: {cublas-integer-overflow.ReportUnproven: true}}'
// RUN: %check_clang_tidy -check-suffix=DEFAULT %s cublas-integer-overflow %t
// Values that reach the argument through a local: the note points at the
// operation where the value wrapped or was narrowed.
#include <cublas_v2.h>

#include <cstddef>
#include <cstdint>

// Through a local: the wrap happens where the local is set.
void strideLocal(cublasHandle_t h, int m, int n, int k, int batch,
                 const float *a, const float *b, float *c) {
  const float one = 1.f, zero = 0.f;
  const long long strideA = m * k;
  const long long strideB = static_cast<long long>(k) * n; // widened first
  const long long strideC = (long long)(m * n);            // widened too late
  cublasSgemmStridedBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one, a, m,
                            strideA, b, k, strideB, &zero, c, m, strideC,
                            batch);
  // CHECK-NOTES: :[[@LINE-2]]:29: warning: 'strideA' holds 'm * k', which is computed in 'int' and wraps once it exceeds 2147483647, before it is widened to the 'long long' parameter 'strideA' of cublasSgemmStridedBatched; widen an operand first: 'static_cast<long long>(m) * k' [cublas-integer-overflow]
  // CHECK-NOTES: :[[@LINE-7]]:29: note: 'm * k' is computed in 'int' here
  // CHECK-NOTES: :[[@LINE-4]]:66: warning: 'strideC' holds 'm * n', which is computed in 'int' and wraps once it exceeds 2147483647, before it is widened to the 'long long' parameter 'strideC' of cublasSgemmStridedBatched; widen an operand first: 'static_cast<long long>(m) * n' [cublas-integer-overflow]
  // CHECK-NOTES: :[[@LINE-7]]:41: note: 'm * n' is computed in 'int' here
}

// A count derived from a product, kept in an int local.
void narrowedIntoLocal(cublasHandle_t h, size_t rows, size_t cols, float *y) {
  const float one = 1.f;
  const int count = rows * cols;
  cublasSscal(h, count, &one, y, 1);
  // CHECK-NOTES: :[[@LINE-1]]:18: warning: 'count' holds 'rows * cols' ('size_t') narrowed to 'int', and is narrowed to the 'int' parameter 'n' of cublasSscal with nothing that bounds it: a value above 2147483647 wraps; cublasSscal_64 takes it as it is [cublas-integer-overflow]
  // CHECK-NOTES: :[[@LINE-3]]:21: note: 'rows * cols' is narrowed to 'int' here
  // CHECK-NOTES-DEFAULT: :[[@LINE-3]]:18: warning: 'count' holds 'rows * cols' ('size_t') narrowed to 'int', and is narrowed to the 'int' parameter 'n' of cublasSscal with nothing that bounds it: a value above 2147483647 wraps; cublasSscal_64 takes it as it is [cublas-integer-overflow]
  // CHECK-NOTES-DEFAULT: :[[@LINE-5]]:21: note: 'rows * cols' is narrowed to 'int' here
}

// Reported once, at the first argument the value reaches.
void reportedOnce(cublasHandle_t h, int64_t m, int64_t k, const float *a,
                  float *c) {
  const int mk = m * k;
  const float one = 1.f;
  cublasScopy(h, mk, a, 1, c, 1);
  // CHECK-NOTES: :[[@LINE-1]]:18: warning: 'mk' holds 'm * k' ('int64_t') narrowed to 'int', and is narrowed to the 'int' parameter 'n' of cublasScopy with nothing that bounds it: a value above 2147483647 wraps; cublasScopy_64 takes it as it is [cublas-integer-overflow]
  // CHECK-NOTES: :[[@LINE-4]]:18: note: 'm * k' is narrowed to 'int' here
  // CHECK-NOTES-DEFAULT: :[[@LINE-3]]:18: warning: 'mk' holds 'm * k' ('int64_t') narrowed to 'int', and is narrowed to the 'int' parameter 'n' of cublasScopy with nothing that bounds it: a value above 2147483647 wraps; cublasScopy_64 takes it as it is [cublas-integer-overflow]
  // CHECK-NOTES-DEFAULT: :[[@LINE-6]]:18: note: 'm * k' is narrowed to 'int' here
  cublasSscal(h, mk, &one, c, 1);
}

// A cuBLASLt layout's 64-bit batch stride, set through a local that got an
// int product.
#include <cublasLt.h>
void ltStride(cublasLtMatrixLayout_t layout, int m, int k) {
  const int64_t stride = m * k;
  cublasLtMatrixLayoutSetAttribute(
      layout, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, &stride,
      sizeof(stride));
  // CHECK-NOTES: :[[@LINE-2]]:60: warning: 'stride' holds 'm * k', which is computed in 'int' and wraps once it exceeds 2147483647, before it is widened to the 'int64_t' CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET of cublasLtMatrixLayoutSetAttribute; widen an operand first: 'static_cast<int64_t>(m) * k' [cublas-integer-overflow]
  // CHECK-NOTES: :[[@LINE-5]]:26: note: 'm * k' is computed in 'int' here
  const int64_t widened = static_cast<int64_t>(m) * k;
  cublasLtMatrixLayoutSetAttribute(
      layout, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, &widened,
      sizeof(widened));
  const int32_t count = 4;
  cublasLtMatrixLayoutSetAttribute(layout, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT,
                                   &count, sizeof(count));
}
