// RUN: %check_clang_tidy %s cublas-matrix-extents %t
// The row-major leading dimension when the sizes are symbols: nothing gives
// ld < rows, but ld *is* the matrix's column count, a different value.
#include <cublas_v2.h>
#include <cublasLt.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cassert>
#include <cstdlib>

static const float One = 1.0f, Zero = 0.0f;

// The tutorial GEMM with sizes from the command line.
int tutorial(int argc, char **argv, cublasHandle_t h) {
  int M = atoi(argv[1]), N = atoi(argv[2]), K = atoi(argv[3]);
  float *dA, *dB, *dC;
  cudaMalloc(&dA, M * K * sizeof(float));
  cudaMalloc(&dB, K * N * sizeof(float));
  cudaMalloc(&dC, M * N * sizeof(float));
  cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, M, N, K, &One, dA, K, dB, N, &Zero,
              dC, N);
  // CHECK-NOTES: :[[@LINE-2]]:63: warning: 'lda' (K) is k, the column count of A for transa=CUBLAS_OP_N, as for row-major data; column-major cuBLAS needs lda >= m (M), the rows of A: correct only when the two happen to be equal (a smaller lda gives CUBLAS_STATUS_INVALID_VALUE, a larger one reads the wrong elements) [cublas-matrix-extents]
  // CHECK-NOTES: :[[@LINE-3]]:70: warning: 'ldb' (N) is n, the column count of B for transb=CUBLAS_OP_N, as for row-major data; column-major cuBLAS needs ldb >= k (K), the rows of B: correct only when the two happen to be equal (a smaller ldb gives CUBLAS_STATUS_INVALID_VALUE, a larger one reads the wrong elements) [cublas-matrix-extents]
  // CHECK-NOTES: :[[@LINE-3]]:19: warning: 'ldc' (N) is n, the column count of C, as for row-major data; column-major cuBLAS needs ldc >= m (M), the rows of C: correct only when the two happen to be equal (a smaller ldc gives CUBLAS_STATUS_INVALID_VALUE, a larger one reads the wrong elements) [cublas-matrix-extents]
  // CHECK-NOTES: :[[@LINE-5]]:3: note: matrices are column-major in cuBLAS: for row-major data compute the transposed product instead, passing B before A and n before m (C^T = B^T * A^T), or store the matrices column-major
  // The operand-swap trick computes C^T = B^T * A^T: every ld is right.
  cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &One, dB, N, dA, K, &Zero,
              dC, N);
  return 0;
}

// A helper whose sizes are its parameters.
void helper(cublasHandle_t h, int m, int n, int k, const float *A,
            const float *B, float *C) {
  cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &One, A, m, B, k, &Zero, C,
              n);
  // CHECK-NOTES: :[[@LINE-1]]:15: warning: 'ldc' is n, the column count of C, as for row-major data; column-major cuBLAS needs ldc >= m, the rows of C: correct only when the two happen to be equal (a smaller ldc gives CUBLAS_STATUS_INVALID_VALUE, a larger one reads the wrong elements) [cublas-matrix-extents]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: matrices are column-major in cuBLAS: for row-major data compute the transposed product instead, passing B before A and n before m (C^T = B^T * A^T), or store the matrices column-major
}

// The transposed product of row-major data is already there, and only one
// ld is wrong: the note does not tell to swap what is swapped.
void alreadySwapped(cublasHandle_t h, int M, int N, int K, const float *A,
                    const float *B, float *C) {
  cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &One, B, N, A, M, &Zero, C,
              N);
  // CHECK-NOTES: :[[@LINE-2]]:68: warning: 'ldb' (M) is n, the column count of B for transb=CUBLAS_OP_N, as for row-major data; column-major cuBLAS needs ldb >= k (K), the rows of B: correct only when the two happen to be equal (a smaller ldb gives CUBLAS_STATUS_INVALID_VALUE, a larger one reads the wrong elements) [cublas-matrix-extents]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: matrices are column-major in cuBLAS: each leading dimension is the row count of its matrix as stored (for row-major data given as the transposed product, C^T = B^T * A^T, the length of a row-major row)
}

// Transposed A is stored k x m: its ld is at least k; m is its column count.
void transposed(cublasHandle_t h, int m, int n, int k, const float *A,
                const float *B, float *C) {
  cublasSgemm(h, CUBLAS_OP_T, CUBLAS_OP_N, m, n, k, &One, A, m, B, k, &Zero, C,
              m);
  // CHECK-NOTES: :[[@LINE-2]]:62: warning: 'lda' is m, the column count of A for transa=CUBLAS_OP_T, as for row-major data; column-major cuBLAS needs lda >= k, the rows of A: correct only when the two happen to be equal (a smaller lda gives CUBLAS_STATUS_INVALID_VALUE, a larger one reads the wrong elements) [cublas-matrix-extents]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: matrices are column-major in cuBLAS: each leading dimension is the row count of its matrix as stored (for row-major data given as the transposed product, C^T = B^T * A^T, the length of a row-major row)
  // Right for the transposed shape.
  cublasSgemm(h, CUBLAS_OP_T, CUBLAS_OP_N, m, n, k, &One, A, k, B, k, &Zero, C,
              m);
}

void gemv(cublasHandle_t h, int m, int n, const float *A, const float *x,
          float *y) {
  cublasSgemv(h, CUBLAS_OP_N, m, n, &One, A, n, x, 1, &Zero, y, 1);
  // CHECK-NOTES: :[[@LINE-1]]:46: warning: 'lda' is n, the column count of A, as for row-major data; column-major cuBLAS needs lda >= m, the rows of A: correct only when the two happen to be equal (a smaller lda gives CUBLAS_STATUS_INVALID_VALUE, a larger one reads the wrong elements) [cublas-matrix-extents]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: matrices are column-major in cuBLAS: a row-major matrix is the column-major transpose; swap its rows and columns (and the transpose flag), or store it column-major
  cublasSgemv(h, CUBLAS_OP_T, n, m, &One, A, n, x, 1, &Zero, y, 1);
}

void stridedBatched(cublasHandle_t h, int m, int n, int k, int batch,
                    const float *A, const float *B, float *C) {
  cublasSgemmStridedBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &One, A, m,
                            (long long)m * k, B, k, (long long)k * n, &Zero, C,
                            n, (long long)m * n, batch);
  // CHECK-NOTES: :[[@LINE-1]]:29: warning: 'ldc' is n, the column count of C, as for row-major data; column-major cuBLAS needs ldc >= m, the rows of C: correct only when the two happen to be equal (a smaller ldc gives CUBLAS_STATUS_INVALID_VALUE, a larger one reads the wrong elements) [cublas-matrix-extents]
  // CHECK-NOTES: :[[@LINE-4]]:3: note: matrices are column-major in cuBLAS: for row-major data compute the transposed product instead, passing B before A and n before m (C^T = B^T * A^T), or store the matrices column-major
}

void gemmEx(cublasHandle_t h, int m, int n, int k, const void *A,
            const void *B, void *C) {
  cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &One, A, CUDA_R_32F, k, B,
               CUDA_R_32F, k, &Zero, C, CUDA_R_32F, m, CUBLAS_COMPUTE_32F,
               CUBLAS_GEMM_DEFAULT);
  // CHECK-NOTES: :[[@LINE-3]]:75: warning: 'lda' is k, the column count of A for transa=CUBLAS_OP_N, as for row-major data; column-major cuBLAS needs lda >= m, the rows of A: correct only when the two happen to be equal (a smaller lda gives CUBLAS_STATUS_INVALID_VALUE, a larger one reads the wrong elements) [cublas-matrix-extents]
  // CHECK-NOTES: :[[@LINE-4]]:3: note: matrices are column-major in cuBLAS: each leading dimension is the row count of its matrix as stored (for row-major data given as the transposed product, C^T = B^T * A^T, the length of a row-major row)
}

// Copies between host and device: the same rule for rows x cols.
void copies(int rows, int cols, const float *host, float *device) {
  cublasSetMatrix(rows, cols, sizeof(float), host, cols, device, rows);
  // CHECK-NOTES: :[[@LINE-1]]:52: warning: 'lda' is cols, the column count, as for row-major data; column-major cublasSetMatrix needs lda >= rows: correct only when the two happen to be equal (a smaller lda fails, a larger one reads the wrong elements) [cublas-matrix-extents]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: matrices are column-major in cuBLAS: a row-major rows x cols array is the column-major cols x rows transpose; swap rows and cols or store it column-major
  cublasGetMatrix(rows, cols, sizeof(float), device, rows, (float *)host, rows);
}

// A cuBLASLt layout is column-major unless its order is set.
void ltLayout(int rows, int cols) {
  cublasLtMatrixLayout_t L;
  cublasLtMatrixLayoutCreate(&L, CUDA_R_32F, rows, cols, cols);
  // CHECK-NOTES: :[[@LINE-1]]:58: warning: 'ld' is cols, the column count of this column-major cublasLt layout, as for row-major data; cuBLASLt needs ld >= rows: correct only when the two happen to be equal (a smaller ld is rejected, a larger one reads the wrong elements) [cublas-matrix-extents]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: for row-major data set CUBLASLT_MATRIX_LAYOUT_ORDER to CUBLASLT_ORDER_ROW, or describe the column-major transpose
  cublasLtMatrixLayoutDestroy(L);
}

void ltLayoutRowOrder(int rows, int cols) {
  cublasLtMatrixLayout_t L;
  cublasLtMatrixLayoutCreate(&L, CUDA_R_32F, rows, cols, cols);
  cublasLtOrder_t Order = CUBLASLT_ORDER_ROW;
  cublasLtMatrixLayoutSetAttribute(L, CUBLASLT_MATRIX_LAYOUT_ORDER, &Order,
                                   sizeof(Order));
  cublasLtMatrixLayoutDestroy(L);
}

// ---- Correct code that a naive rule would flag ----

// A separate leading-dimension parameter: its value is not known.
void separateLd(cublasHandle_t h, int m, int n, int k, const float *A, int lda,
                const float *B, int ldb, float *C, int ldc) {
  cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &One, A, lda, B, ldb,
              &Zero, C, ldc);
}

// std::max and padding: not the column count.
void maxAndPadded(cublasHandle_t h, int m, int n, int k, const float *A,
                  const float *B, float *C) {
  int lda = std::max(m, k);
  int ldc = (n + 31) / 32 * 32;
  cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &One, A, lda, B, k + 8,
              &Zero, C, ldc);
}

// The code shows the sizes equal (or ordered) before the call.
void shownEqual(cublasHandle_t h, int m, int n, int k, const float *A,
                const float *B, float *C) {
  assert(m == k);
  if (n != m)
    return;
  cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &One, A, k, B, n, &Zero, C,
              n);
}

void shownAtLeast(cublasHandle_t h, int m, int n, const float *A,
                  const float *x, float *y) {
  if (n < m)
    abort();
  cublasSgemv(h, CUBLAS_OP_N, m, n, &One, A, n, x, 1, &Zero, y, 1);
}

// A square allocation: the matrix is n x n, whatever k is called.
void squareAllocation(cublasHandle_t h, int m, int n) {
  float *dA;
  cudaMalloc(&dA, n * n * sizeof(float));
  float *x, *y;
  cudaMalloc(&x, n * sizeof(float));
  cudaMalloc(&y, n * sizeof(float));
  cublasSgemv(h, CUBLAS_OP_N, m, n, &One, dA, n, x, 1, &Zero, y, 1);
}

// One column or one row: any ld from the rows up describes it.
void oneColumn(cublasHandle_t h, int m, int k, const float *A, const float *x,
               float *y) {
  cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, 1, k, &One, A, m, x, k, &Zero, y,
              m);
  cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 1, m, k, &One, x, 1, A, k, &Zero, y,
              1);
}

// Square problems: one size for every dimension.
void square(cublasHandle_t h, int n, const float *A, const float *B,
            float *C) {
  int m = n;
  cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, n, &One, A, n, B, n, &Zero, C,
              n);
}

// The flag is not known: the rows are not either.
void unknownFlag(cublasHandle_t h, cublasOperation_t ta, int m, int n, int k,
                 const float *A, const float *B, float *C) {
  cublasSgemm(h, ta, CUBLAS_OP_N, m, n, k, &One, A, k, B, k, &Zero, C, m);
}

// A helper with its own lda, called with the row-major value.
void withLd(cublasHandle_t h, int m, int n, int k, const float *A, int lda,
            const float *B, float *C) {
  cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &One, A, lda, B, k, &Zero,
              C, m);
  // CHECK-NOTES: :[[@LINE-2]]:62: warning: 'lda' (K) is k, the column count of A for transa=CUBLAS_OP_N, as for row-major data; column-major cuBLAS needs lda >= m (M), the rows of A: correct only when the two happen to be equal (a smaller lda gives CUBLAS_STATUS_INVALID_VALUE, a larger one reads the wrong elements) [cublas-matrix-extents]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: matrices are column-major in cuBLAS: each leading dimension is the row count of its matrix as stored (for row-major data given as the transposed product, C^T = B^T * A^T, the length of a row-major row)
}

void callsWithLd(cublasHandle_t h, int M, int N, int K, const float *A,
                 const float *B, float *C) {
  withLd(h, M, N, K, A, K, B, C);
  // CHECK-NOTES: :[[@LINE-1]]:3: note: with the arguments of this call from 'callsWithLd'
}
