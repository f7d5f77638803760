// RUN: %check_clang_tidy %s cublas-matrix-extents %t
// Every routine family: Level 1, Level 2, the other Level 3 routines, the
// Ex forms with their cudaDataType element sizes, and the Set/Get copies.
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <vector>

void level1(cublasHandle_t h, const float *alpha, float *result, int *index) {
  float *dx, *dy;
  cudaMalloc(&dx, 1000 * sizeof(float));
  cudaMalloc(&dy, 1000 * sizeof(float));
  cublasSaxpy(h, 1000, alpha, dx, 1, dy, 1);
  cublasSaxpy(h, 500, alpha, dx, 2, dy, 2);
  cublasSaxpy(h, 501, alpha, dx, 2, dy, 1);
  // CHECK-NOTES: :[[@LINE-1]]:30: warning: 'x' needs 1001 elements at incx=2 but 'dx' holds 1000 floats (cudaMalloc of 4000 bytes) [cublas-matrix-extents]
  // CHECK-NOTES: :[[@LINE-6]]:3: note: allocated here
  // A negative increment walks the same 1+(n-1)*|incx| elements.
  cublasSaxpy(h, 500, alpha, dx, -2, dy, 1);
  cublasSaxpy(h, 501, alpha, dx, -2, dy, 1);
  // CHECK-NOTES: :[[@LINE-1]]:30: warning: 'x' needs 1001 elements at incx=-2 but 'dx' holds 1000 floats (cudaMalloc of 4000 bytes) [cublas-matrix-extents]
  // CHECK-NOTES: :[[@LINE-11]]:3: note: allocated here
  cublasSaxpy_64(h, 1000, alpha, dx, 1, dy, 1);
  cublasSaxpy_64(h, 1001, alpha, dx, 1, dy, 1);
  // CHECK-NOTES: :[[@LINE-1]]:34: warning: 'x' needs 1001 elements at incx=1 but 'dx' holds 1000 floats (cudaMalloc of 4000 bytes) [cublas-matrix-extents]
  // CHECK-NOTES: :[[@LINE-15]]:3: note: allocated here
  // CHECK-NOTES: :[[@LINE-3]]:41: warning: 'y' needs 1001 elements at incy=1 but 'dy' holds 1000 floats (cudaMalloc of 4000 bytes) [cublas-matrix-extents]
  // CHECK-NOTES: :[[@LINE-16]]:3: note: allocated here
  cublasScopy(h, 1001, dx, 1, dy, 1);
  // CHECK-NOTES: :[[@LINE-1]]:24: warning: 'x' needs 1001 elements at incx=1 but 'dx' holds 1000 floats (cudaMalloc of 4000 bytes) [cublas-matrix-extents]
  // CHECK-NOTES: :[[@LINE-20]]:3: note: allocated here
  // CHECK-NOTES: :[[@LINE-3]]:31: warning: 'y' needs 1001 elements at incy=1 but 'dy' holds 1000 floats (cudaMalloc of 4000 bytes) [cublas-matrix-extents]
  // CHECK-NOTES: :[[@LINE-21]]:3: note: allocated here
  cublasSdot(h, 1000, dx, 1, dy + 1, 1, result);
  // CHECK-NOTES: :[[@LINE-1]]:30: warning: 'y' needs 1000 elements at incy=1 but 'dy + 1' holds 999 floats (cudaMalloc of 4000 bytes, from element 1) [cublas-matrix-extents]
  // CHECK-NOTES: :[[@LINE-24]]:3: note: allocated here
  cublasSnrm2(h, 1000, dx + 500, 1, result);
  // CHECK-NOTES: :[[@LINE-1]]:24: warning: 'x' needs 1000 elements at incx=1 but 'dx + 500' holds 500 floats (cudaMalloc of 4000 bytes, from element 500) [cublas-matrix-extents]
  // CHECK-NOTES: :[[@LINE-28]]:3: note: allocated here
  cublasSscal(h, 1000, alpha, dx, 2);
  // CHECK-NOTES: :[[@LINE-1]]:31: warning: 'x' needs 1999 elements at incx=2 but 'dx' holds 1000 floats (cudaMalloc of 4000 bytes) [cublas-matrix-extents]
  // CHECK-NOTES: :[[@LINE-31]]:3: note: allocated here
  cublasSasum(h, 1000, dx, 1, result);
  cublasIsamax(h, 2000, dx, 1, index);
  // CHECK-NOTES: :[[@LINE-1]]:25: warning: 'x' needs 2000 elements at incx=1 but 'dx' holds 1000 floats (cudaMalloc of 4000 bytes) [cublas-matrix-extents]
  // CHECK-NOTES: :[[@LINE-35]]:3: note: allocated here
  cublasSswap(h, 1000, dx, 1, dy, 3);
  // CHECK-NOTES: :[[@LINE-1]]:31: warning: 'y' needs 2998 elements at incy=3 but 'dy' holds 1000 floats (cudaMalloc of 4000 bytes) [cublas-matrix-extents]
  // CHECK-NOTES: :[[@LINE-37]]:3: note: allocated here
  const float c = 1, s = 0;
  cublasSrot(h, 1000, dx, 1, dy, 1, &c, &s);
  cublasSrot(h, 1000, dx, 1, dy, 2, &c, &s);
  // CHECK-NOTES: :[[@LINE-1]]:30: warning: 'y' needs 1999 elements at incy=2 but 'dy' holds 1000 floats (cudaMalloc of 4000 bytes) [cublas-matrix-extents]
  // CHECK-NOTES: :[[@LINE-42]]:3: note: allocated here
  // An increment of 0 reads one element.
  cublasSaxpy(h, 5000, alpha, dx, 0, dy, 0);
}

void level2(cublasHandle_t h, const float *alpha, const float *beta) {
  const int m = 256, n = 128;
  float *dA, *dx, *dy;
  cudaMalloc(&dA, m * n * sizeof(float));
  cudaMalloc(&dx, n * sizeof(float));
  cudaMalloc(&dy, m * sizeof(float));
  cublasSgemv(h, CUBLAS_OP_N, m, n, alpha, dA, m, dx, 1, beta, dy, 1);
  cublasSgemv(h, CUBLAS_OP_N, m, n, alpha, dA, n, dx, 1, beta, dy, 1);
  // CHECK-NOTES: :[[@LINE-1]]:48: warning: 'lda' (n = 128) is smaller than the rows of A (m = 256); lda is the column count, as for row-major data; cuBLAS returns CUBLAS_STATUS_INVALID_VALUE [cublas-matrix-extents]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: matrices are column-major in cuBLAS: a row-major matrix is the column-major transpose; swap its rows and columns (and the transpose flag), or store it column-major
  // Transposed: x has m elements and y n.
  cublasSgemv(h, CUBLAS_OP_T, m, n, alpha, dA, m, dx, 1, beta, dy, 1);
  // CHECK-NOTES: :[[@LINE-1]]:51: warning: 'x' needs 256 elements at incx=1 but 'dx' holds 128 floats (cudaMalloc of 512 bytes) [cublas-matrix-extents]
  // CHECK-NOTES: :[[@LINE-9]]:3: note: allocated here
  cublasSgemv(h, CUBLAS_OP_T, m, n, alpha, dA, m, dy, 1, beta, dx, 1);
  // Band storage: kl + ku + 1 rows.
  cublasSgbmv(h, CUBLAS_OP_N, m, n, 2, 1, alpha, dA, 4, dx, 1, beta, dy, 1);
  cublasSgbmv(h, CUBLAS_OP_N, m, n, 2, 1, alpha, dA, 3, dx, 1, beta, dy, 1);
  // CHECK-NOTES: :[[@LINE-1]]:54: warning: 'lda' (3) is smaller than the rows of the band storage of A (2 + 1 + 1 = 4); cuBLAS returns CUBLAS_STATUS_INVALID_VALUE [cublas-matrix-extents]
  cublasStbmv(h, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, CUBLAS_DIAG_NON_UNIT, n,
              3, dA, 4, dx, 1);
  cublasStbmv(h, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, CUBLAS_DIAG_NON_UNIT, n,
              3, dA, 3, dx, 1);
              // CHECK-NOTES: :[[@LINE-1]]:22: warning: 'lda' (3) is smaller than the rows of the band storage of A (3 + 1 = 4); cuBLAS returns CUBLAS_STATUS_INVALID_VALUE [cublas-matrix-extents]
  cublasSsbmv(h, CUBLAS_FILL_MODE_UPPER, n, 5, alpha, dA, 5, dx, 1, beta, dy,
              1);
              // CHECK-NOTES: :[[@LINE-2]]:59: warning: 'lda' (5) is smaller than the rows of the band storage of A (5 + 1 = 6); cuBLAS returns CUBLAS_STATUS_INVALID_VALUE [cublas-matrix-extents]
  cublasStrsv(h, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, CUBLAS_DIAG_UNIT, n, dA,
              n, dx, 1);
  cublasStrsv(h, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, CUBLAS_DIAG_UNIT, n, dA,
              n - 1, dx, 1);
              // CHECK-NOTES: :[[@LINE-1]]:15: warning: 'lda' (n - 1 = 127) is smaller than the rows of A (n = 128); cuBLAS returns CUBLAS_STATUS_INVALID_VALUE [cublas-matrix-extents]
  cublasSsymv(h, CUBLAS_FILL_MODE_LOWER, n, alpha, dA, n, dx, 1, beta, dy, 2);
  cublasSsymv(h, CUBLAS_FILL_MODE_LOWER, n, alpha, dA, n, dx, 2, beta, dy, 1);
  // CHECK-NOTES: :[[@LINE-1]]:59: warning: 'x' needs 255 elements at incx=2 but 'dx' holds 128 floats (cudaMalloc of 512 bytes) [cublas-matrix-extents]
  // CHECK-NOTES: :[[@LINE-31]]:3: note: allocated here
  // Packed: n*(n+1)/2 elements.
  cublasStpmv(h, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, CUBLAS_DIAG_UNIT, n, dA,
              dx, 1);
  cublasStpmv(h, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, CUBLAS_DIAG_UNIT, 256,
              dA, dy, 1);
              // CHECK-NOTES: :[[@LINE-1]]:15: warning: 'A' needs 32896 elements in packed storage but 'dA' holds 32768 floats (cudaMalloc of 131072 bytes) [cublas-matrix-extents]
              // CHECK-NOTES: :[[@LINE-39]]:3: note: allocated here
  cublasSger(h, m, n, alpha, dy, 1, dx, 1, dA, m);
  cublasSger(h, m, n, alpha, dx, 1, dy, 1, dA, m);
  // CHECK-NOTES: :[[@LINE-1]]:30: warning: 'x' needs 256 elements at incx=1 but 'dx' holds 128 floats (cudaMalloc of 512 bytes) [cublas-matrix-extents]
  // CHECK-NOTES: :[[@LINE-42]]:3: note: allocated here
  cublasSsyr(h, CUBLAS_FILL_MODE_LOWER, n, alpha, dx, 1, dA, n / 2);
  // CHECK-NOTES: :[[@LINE-1]]:62: warning: 'lda' (n / 2 = 64) is smaller than the rows of A (n = 128); cuBLAS returns CUBLAS_STATUS_INVALID_VALUE [cublas-matrix-extents]
  cublasSgemvStridedBatched(h, CUBLAS_OP_N, 16, 16, alpha, dA, 16, 256, dx, 1,
                            16, beta, dy, 1, 16, 8);
  cublasSgemvStridedBatched(h, CUBLAS_OP_N, 16, 16, alpha, dA, 16, 256, dx, 1,
                            16, beta, dy, 1, 8, 8);
                            // CHECK-NOTES: :[[@LINE-1]]:46: warning: 'stridey' (8) is smaller than the 16 elements of each y at incy=1, so the 8 batches written to y overlap [cublas-matrix-extents]
}

void level3(cublasHandle_t h, const float *alpha, const float *beta) {
  const int m = 128, n = 64, k = 32;
  float *dA, *dB, *dC;
  cudaMalloc(&dA, m * m * sizeof(float));
  cudaMalloc(&dB, m * n * sizeof(float));
  cudaMalloc(&dC, m * n * sizeof(float));
  // symm/trmm/trsm: A is m x m on the left, n x n on the right.
  cublasSsymm(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, m, n, alpha, dA, m,
              dB, m, beta, dC, m);
  cublasSsymm(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, m, n, alpha, dA, n,
              dB, m, beta, dC, m);
              // CHECK-NOTES: :[[@LINE-2]]:77: warning: 'lda' (n = 64) is smaller than the rows of A (m = 128) for side=CUBLAS_SIDE_LEFT; cuBLAS returns CUBLAS_STATUS_INVALID_VALUE [cublas-matrix-extents]
  cublasSsymm(h, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_LOWER, m, n, alpha, dA, n,
              dB, m, beta, dC, m);
  cublasStrmm(h, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N,
              CUBLAS_DIAG_UNIT, m, n, alpha, dA, n, dB, m, dC, n);
              // CHECK-NOTES: :[[@LINE-1]]:64: warning: 'ldc' (n = 64) is smaller than the rows of C (m = 128); ldc is the column count, as for row-major data; cuBLAS returns CUBLAS_STATUS_INVALID_VALUE [cublas-matrix-extents]
              // CHECK-NOTES: :[[@LINE-3]]:3: note: matrices are column-major in cuBLAS: a row-major matrix is the column-major transpose; swap its rows and columns (and the transpose flag), or store it column-major
  cublasStrsm(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_T,
              CUBLAS_DIAG_UNIT, m, n, alpha, dA, m, dB, m);
  cublasStrsm(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_T,
              CUBLAS_DIAG_UNIT, m, n, alpha, dA, n, dB, m);
              // CHECK-NOTES: :[[@LINE-1]]:50: warning: 'lda' (n = 64) is smaller than the rows of A (m = 128) for side=CUBLAS_SIDE_LEFT; cuBLAS returns CUBLAS_STATUS_INVALID_VALUE [cublas-matrix-extents]
  // syrk/syr2k/syrkx: A is n x k, or k x n transposed; C is n x n.
  cublasSsyrk(h, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_N, n, k, alpha, dA, n, beta,
              dC, n);
  cublasSsyrk(h, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_T, n, k, alpha, dA, k, beta,
              dC, n);
  cublasSsyrk(h, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_N, n, k, alpha, dA, k, beta,
              dC, n);
              // CHECK-NOTES: :[[@LINE-2]]:72: warning: 'lda' (k = 32) is smaller than the rows of A (n = 64) for trans=CUBLAS_OP_N; lda is the column count, as for row-major data; cuBLAS returns CUBLAS_STATUS_INVALID_VALUE [cublas-matrix-extents]
              // CHECK-NOTES: :[[@LINE-3]]:3: note: matrices are column-major in cuBLAS: a row-major matrix is the column-major transpose; swap its rows and columns (and the transpose flag), or store it column-major
  cublasSsyr2k(h, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_T, n, k, alpha, dA, k, dB,
               n, beta, dC, n);
  cublasSsyrkx(h, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_N, n, k, alpha, dA, n, dB,
               n, beta, dC, k);
               // CHECK-NOTES: :[[@LINE-1]]:29: warning: 'ldc' (k = 32) is smaller than the rows of C (n = 64); cuBLAS returns CUBLAS_STATUS_INVALID_VALUE [cublas-matrix-extents]
  // geam: C = op(A) + op(B), all m x n.
  cublasSgeam(h, CUBLAS_OP_N, CUBLAS_OP_T, m, n, alpha, dC, m, beta, dA, n, dB,
              m);
  cublasSgeam(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, alpha, dC, m, beta, dA, n, dB,
              m);
              // CHECK-NOTES: :[[@LINE-2]]:74: warning: 'ldb' (n = 64) is smaller than the rows of B (m = 128) for transb=CUBLAS_OP_N; ldb is the column count, as for row-major data; cuBLAS returns CUBLAS_STATUS_INVALID_VALUE [cublas-matrix-extents]
              // CHECK-NOTES: :[[@LINE-3]]:3: note: matrices are column-major in cuBLAS: a row-major matrix is the column-major transpose; swap its rows and columns (and the transpose flag), or store it column-major
  // dgmm: x has m elements on the left, n on the right.
  float *dx;
  cudaMalloc(&dx, n * sizeof(float));
  cublasSdgmm(h, CUBLAS_SIDE_RIGHT, m, n, dB, m, dx, 1, dC, m);
  cublasSdgmm(h, CUBLAS_SIDE_LEFT, m, n, dB, m, dx, 1, dC, m);
  // CHECK-NOTES: :[[@LINE-1]]:49: warning: 'x' needs 128 elements at incx=1 but 'dx' holds 64 floats (cudaMalloc of 256 bytes) [cublas-matrix-extents]
  // CHECK-NOTES: :[[@LINE-4]]:3: note: allocated here
}

void batched(cublasHandle_t h, const float *alpha, const float *beta,
             const float *const *As, const float *const *Bs,
             float *const *Cs) {
  // Arrays of pointers: only the leading dimensions can be checked.
  cublasSgemmBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, 64, 64, 64, alpha, As, 64,
                     Bs, 64, beta, Cs, 64, 10);
  cublasSgemmBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, 64, 64, 64, alpha, As, 64,
                     Bs, 64, beta, Cs, 32, 10);
                     // CHECK-NOTES: :[[@LINE-1]]:40: warning: 'ldc' (32) is smaller than the rows of C (64); cuBLAS returns CUBLAS_STATUS_INVALID_VALUE [cublas-matrix-extents]
}

void extended(cublasHandle_t h, const float *alpha, const float *beta) {
  const int n = 256;
  void *dA, *dB, *dC;
  cudaMalloc(&dA, n * n * 2);
  cudaMalloc(&dB, n * n * 2);
  cudaMalloc(&dC, n * n * sizeof(float));
  // 16-bit inputs: 2-byte elements fill the allocation exactly.
  cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, alpha, dA, CUDA_R_16F, n,
               dB, CUDA_R_16F, n, beta, dC, CUDA_R_32F, n, CUBLAS_COMPUTE_32F,
               CUBLAS_GEMM_DEFAULT);
  // ...and 4-byte elements do not.
  cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, alpha, dA, CUDA_R_32F, n,
               dB, CUDA_R_16F, n, beta, dC, CUDA_R_32F, n, CUBLAS_COMPUTE_32F,
               CUBLAS_GEMM_DEFAULT);
               // CHECK-NOTES: :[[@LINE-3]]:61: warning: 'A' needs 65536 elements at lda=256 but 'dA' holds 32768 floats (cudaMalloc of 131072 bytes) [cublas-matrix-extents]
               // CHECK-NOTES: :[[@LINE-12]]:3: note: allocated here
  cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, alpha, dA, CUDA_R_16F, n,
               dB, CUDA_R_16F, n, beta, dC, CUDA_R_64F, n, CUBLAS_COMPUTE_32F,
               CUBLAS_GEMM_DEFAULT);
               // CHECK-NOTES: :[[@LINE-2]]:41: warning: 'C' needs 65536 elements at ldc=256 but 'dC' holds 32768 doubles (cudaMalloc of 262144 bytes) [cublas-matrix-extents]
               // CHECK-NOTES: :[[@LINE-15]]:3: note: allocated here
  cublasGemmStridedBatchedEx(h, CUBLAS_OP_N, CUBLAS_OP_N, 16, 16, 16, alpha,
                             dA, CUDA_R_16F, 16, 256, dB, CUDA_R_16F, 16, 256,
                             beta, dC, CUDA_R_32F, 16, 256, 256,
                             CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
  cublasGemmStridedBatchedEx(h, CUBLAS_OP_N, CUBLAS_OP_N, 16, 16, 16, alpha,
                             dA, CUDA_R_16F, 16, 256, dB, CUDA_R_16F, 16, 256,
                             beta, dC, CUDA_R_32F, 16, 256, 257,
                             CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
                             // CHECK-NOTES: :[[@LINE-3]]:30: warning: 'A' needs 65792 elements at lda=16, strideA=256 and batchCount=257 but 'dA' holds 65536 __half values (cudaMalloc of 131072 bytes) [cublas-matrix-extents]
                             // CHECK-NOTES: :[[@LINE-27]]:3: note: allocated here
                             // CHECK-NOTES: :[[@LINE-5]]:55: warning: 'B' needs 65792 elements at ldb=16, strideB=256 and batchCount=257 but 'dB' holds 65536 __half values (cudaMalloc of 131072 bytes) [cublas-matrix-extents]
                             // CHECK-NOTES: :[[@LINE-28]]:3: note: allocated here
                             // CHECK-NOTES: :[[@LINE-6]]:36: warning: 'C' needs 65792 elements at ldc=16, strideC=256 and batchCount=257 but 'dC' holds 65536 floats (cudaMalloc of 262144 bytes) [cublas-matrix-extents]
                             // CHECK-NOTES: :[[@LINE-29]]:3: note: allocated here
}

void copies(int rows, int cols) {
  const int M = 512, K = 128;
  std::vector<float> hA(M * K);
  float *dA;
  cudaMalloc(&dA, M * K * sizeof(float));
  cublasSetMatrix(M, K, sizeof(float), hA.data(), M, dA, M);
  cublasSetMatrix(M, K, sizeof(float), hA.data(), K, dA, M);
  // CHECK-NOTES: :[[@LINE-1]]:51: warning: 'lda' (K = 128) is smaller than rows (M = 512); lda is the column count, as for row-major data; cublasSetMatrix requires lda >= rows and fails [cublas-matrix-extents]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: matrices are column-major in cuBLAS: a row-major rows x cols array is the column-major cols x rows transpose; swap rows and cols or store it column-major
  cublasGetMatrix(M, K, sizeof(float), dA, M, hA.data(), K);
  // CHECK-NOTES: :[[@LINE-1]]:58: warning: 'ldb' (K = 128) is smaller than rows (M = 512); ldb is the column count, as for row-major data; cublasGetMatrix requires ldb >= rows and fails [cublas-matrix-extents]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: matrices are column-major in cuBLAS: a row-major rows x cols array is the column-major cols x rows transpose; swap rows and cols or store it column-major
  cublasSetMatrix(M, K, sizeof(double), hA.data(), M, dA, M);
  // CHECK-NOTES: :[[@LINE-1]]:41: warning: 'A' needs 65536 elements at lda=512 but 'hA.data()' holds 32768 8-byte elements (std::vector of 65536 float values) [cublas-matrix-extents]
  // CHECK-NOTES: :[[@LINE-12]]:22: note: 'hA' is allocated here
  // CHECK-NOTES: :[[@LINE-3]]:55: warning: 'B' needs 65536 elements at ldb=512 but 'dA' holds 32768 8-byte elements (cudaMalloc of 262144 bytes) [cublas-matrix-extents]
  // CHECK-NOTES: :[[@LINE-12]]:3: note: allocated here
  cublasSetMatrix(rows, cols, sizeof(float), hA.data(), rows, dA, rows);
  float *hB = new float[M];
  cublasSetVector(M, sizeof(float), hB, 1, dA, 1);
  cublasSetVector(M, sizeof(float), hB, 2, dA, 1);
  // CHECK-NOTES: :[[@LINE-1]]:37: warning: 'x' needs 1023 elements at incx=2 but 'hB' holds 512 4-byte elements (new[] of 512 float values) [cublas-matrix-extents]
  // CHECK-NOTES: :[[@LINE-4]]:15: note: allocated here
  delete[] hB;
}
