// RUN: %check_clang_tidy %s cublas-matrix-extents %t
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cublasLt.h>

#include <cstdlib>
#include <vector>

// The row-major GEMM: lda and ldc are the column counts.
void rowMajor(cublasHandle_t h, const float *alpha, const float *beta) {
  const int M = 512, N = 256, K = 128;
  float *dA, *dB, *dC;
  cudaMalloc(&dA, M * K * sizeof(float));
  cudaMalloc(&dB, K * N * sizeof(float));
  cudaMalloc(&dC, M * N * sizeof(float));
  cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, M, N, K, alpha, dA, K, dB, N, beta,
              dC, N);
              // CHECK-NOTES: :[[@LINE-2]]:64: warning: 'lda' (K = 128) is smaller than the rows of A (M = 512) for transa=CUBLAS_OP_N; lda is the column count, as for row-major data; cuBLAS returns CUBLAS_STATUS_INVALID_VALUE [cublas-matrix-extents]
              // CHECK-NOTES: :[[@LINE-2]]:19: warning: 'ldc' (N = 256) is smaller than the rows of C (M = 512); ldc is the column count, as for row-major data; cuBLAS returns CUBLAS_STATUS_INVALID_VALUE [cublas-matrix-extents]
              // CHECK-NOTES: :[[@LINE-4]]:3: note: matrices are column-major in cuBLAS: for row-major data compute the transposed product instead, passing B before A and n before m (C^T = B^T * A^T), or store the matrices column-major
  // The usual remedy: the transposed product, B before A.
  cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, alpha, dB, N, dA, K, beta,
              dC, N);
}

// Literal values, as the user wrote them.
void literals(cublasHandle_t h, const float *alpha, const float *beta,
              float *dA, float *dB, float *dC) {
  cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 512, 512, 512, alpha, dA, 256, dB,
              512, beta, dC, 512);
              // CHECK-NOTES: :[[@LINE-2]]:70: warning: 'lda' (256) is smaller than the rows of A (512) for transa=CUBLAS_OP_N; cuBLAS returns CUBLAS_STATUS_INVALID_VALUE [cublas-matrix-extents]
  cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 512, 512, 512, alpha, dA, 0, dB,
              512, beta, dC, 512);
              // CHECK-NOTES: :[[@LINE-2]]:70: warning: 'lda' (0) must be at least 1; cuBLAS returns CUBLAS_STATUS_INVALID_VALUE [cublas-matrix-extents]
}

// Correct code that a naive check would flag.
void traps(cublasHandle_t h, const float *alpha, const float *beta) {
  const int n = 512;
  float *dA, *dB, *dC;
  cudaMalloc(&dA, n * n * sizeof(float));
  cudaMalloc(&dB, n * n * sizeof(float));
  cudaMalloc(&dC, n * n * sizeof(float));
  // A square GEMM with every ld = n.
  cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, alpha, dA, n, dB, n, beta,
              dC, n);
  // Transposed A (k x m stored): lda = k is its row count.
  const int m = 64, k = 32;
  cublasSgemm(h, CUBLAS_OP_T, CUBLAS_OP_N, m, m, k, alpha, dA, k, dB, k, beta,
              dC, m);
  // ...so with k > m, lda = m is too small.
  const int wide = 128;
  cublasSgemm(h, CUBLAS_OP_T, CUBLAS_OP_N, m, m, wide, alpha, dA, m, dB, wide,
              beta, dC, m);
              // CHECK-NOTES: :[[@LINE-2]]:67: warning: 'lda' (m = 64) is smaller than the rows of A (wide = 128) for transa=CUBLAS_OP_T; lda is the column count, as for row-major data; cuBLAS returns CUBLAS_STATUS_INVALID_VALUE [cublas-matrix-extents]
              // CHECK-NOTES: :[[@LINE-3]]:3: note: matrices are column-major in cuBLAS: each leading dimension is the row count of its matrix as stored (for row-major data given as the transposed product, C^T = B^T * A^T, the length of a row-major row)
  // Padded leading dimensions (ld > rows) and ld exactly the minimum.
  cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 100, 100, 100, alpha, dA, 128, dB,
              100, beta, dC, 101);
  // The 64-bit API.
  cublasSgemm_64(h, CUBLAS_OP_N, CUBLAS_OP_N, m, m, k, alpha, dA, m, dB, k,
                 beta, dC, m);
  cublasSgemm_64(h, CUBLAS_OP_N, CUBLAS_OP_N, m, m, k, alpha, dA, k, dB, k,
                 beta, dC, m);
                 // CHECK-NOTES: :[[@LINE-2]]:67: warning: 'lda' (k = 32) is smaller than the rows of A (m = 64) for transa=CUBLAS_OP_N; lda is the column count, as for row-major data; cuBLAS returns CUBLAS_STATUS_INVALID_VALUE [cublas-matrix-extents]
                 // CHECK-NOTES: :[[@LINE-3]]:3: note: matrices are column-major in cuBLAS: each leading dimension is the row count of its matrix as stored (for row-major data given as the transposed product, C^T = B^T * A^T, the length of a row-major row)
}

// Values from parameters, loops and unproven reassignments: silent, but
// for an ld that is the matrix's column count (the row-major mistake, with
// symbolic sizes: cublas-matrix-extents-symbolic.cpp).
void unknowns(cublasHandle_t h, const float *alpha, const float *beta,
              float *dA, float *dB, float *dC, int m, int n, int k, int lda,
              bool transposed) {
  cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, alpha, dA, lda, dB, k,
              beta, dC, m);
  cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, alpha, dA, k, dB, k, beta,
              dC, m);
  // CHECK-NOTES: :[[@LINE-2]]:64: warning: 'lda' is k, the column count of A for transa=CUBLAS_OP_N, as for row-major data; column-major cuBLAS needs lda >= m, the rows of A: correct only when the two happen to be equal (a smaller lda gives CUBLAS_STATUS_INVALID_VALUE, a larger one reads the wrong elements) [cublas-matrix-extents]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: matrices are column-major in cuBLAS: each leading dimension is the row count of its matrix as stored (for row-major data given as the transposed product, C^T = B^T * A^T, the length of a row-major row)
  int ld = 64;
  if (transposed)
    ld = 1024;
  cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 512, 512, 512, alpha, dA, ld, dB,
              512, beta, dC, 512);
  for (int size = 64; size <= 1024; size *= 2)
    cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, size, size, size, alpha, dA, 64,
                dB, size, beta, dC, size);
  int rows = 64;
  rows = 1024;
  cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, rows, 8, 8, alpha, dA, 1024, dB, 8,
              beta, dC, 1024);
  cublasOperation_t op = transposed ? CUBLAS_OP_T : CUBLAS_OP_N;
  cublasSgemm(h, op, CUBLAS_OP_N, 512, 512, 64, alpha, dA, 64, dB, 512, beta,
              dC, 512);
  // A symbolic difference: lda (m - 1) is below m for every m.
  cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, alpha, dA, m - 1, dB, k,
              beta, dC, m);
              // CHECK-NOTES: :[[@LINE-2]]:64: warning: 'lda' (m - 1) is smaller than the rows of A (m) for transa=CUBLAS_OP_N; cuBLAS returns CUBLAS_STATUS_INVALID_VALUE [cublas-matrix-extents]
}

// Allocations: sizes in bytes against footprints in elements.
void allocations(cublasHandle_t h, const float *alpha, const float *beta,
                 int m, int k) {
  const int n = 512;
  float *dA, *dB, *dC;
  cudaMalloc(&dA, n * n);
  cudaMalloc(&dB, n * n * sizeof(float));
  cudaMalloc(&dC, n * n * sizeof(float));
  cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, alpha, dA, n, dB, n, beta,
              dC, n);
              // CHECK-NOTES: :[[@LINE-2]]:60: warning: 'A' needs 262144 elements at lda=512 but 'dA' holds 65536 floats (cudaMalloc of 262144 bytes) [cublas-matrix-extents]
              // CHECK-NOTES: :[[@LINE-6]]:3: note: allocated here
  // Symbolic sizes: m*k bytes hold a quarter of the m*k floats A needs.
  float *sA, *sB;
  cudaMalloc(&sA, m * k);
  cudaMalloc(&sB, m * k * sizeof(float));
  cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, m, k, alpha, sA, m, sB, k, beta,
              dC, m);
              // CHECK-NOTES: :[[@LINE-2]]:60: warning: 'A' needs m*k elements at lda=m but 'sA' holds (m*k)/4 floats (cudaMalloc of m * k bytes) [cublas-matrix-extents]
              // CHECK-NOTES: :[[@LINE-5]]:3: note: allocated here
  cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, m, k, alpha, sB, m, sB, k, beta,
              dC, m);
  // Doubles in a buffer sized for floats.
  double *dD;
  cudaMalloc(&dD, 64 * 64 * sizeof(float));
  const double one = 1, zero = 0;
  cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 64, 64, 64, &one, dD, 64, dD, 64,
              &zero, dD, 64);
              // CHECK-NOTES: :[[@LINE-2]]:62: warning: 'A' needs 4096 elements at lda=64 but 'dD' holds 2048 doubles (cudaMalloc of 16384 bytes) [cublas-matrix-extents]
              // CHECK-NOTES: :[[@LINE-5]]:3: note: allocated here
              // CHECK-NOTES: :[[@LINE-4]]:70: warning: 'B' needs 4096 elements at ldb=64 but 'dD' holds 2048 doubles (cudaMalloc of 16384 bytes) [cublas-matrix-extents]
              // CHECK-NOTES: :[[@LINE-7]]:3: note: allocated here
              // CHECK-NOTES: :[[@LINE-5]]:22: warning: 'C' needs 4096 elements at ldc=64 but 'dD' holds 2048 doubles (cudaMalloc of 16384 bytes) [cublas-matrix-extents]
              // CHECK-NOTES: :[[@LINE-9]]:3: note: allocated here
}

// One buffer holding several matrices at offsets.
void subMatrices(cublasHandle_t h, const float *alpha, const float *beta) {
  const int n = 256, lda = 512;
  float *buf;
  cudaMalloc(&buf, 3 * n * n * sizeof(float));
  float *dA = buf, *dB = buf + n * n, *dC = dB + n * n;
  cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, alpha, dA, n, dB, n, beta,
              dC, n);
  cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, alpha, dA, n, dB, n, beta,
              dC + 1, n);
              // CHECK-NOTES: :[[@LINE-1]]:15: warning: 'C' needs 65536 elements at ldc=256 but 'dC + 1' holds 65535 floats (cudaMalloc of 786432 bytes, from element 131073) [cublas-matrix-extents]
              // CHECK-NOTES: :[[@LINE-7]]:3: note: allocated here
  float *big;
  cudaMalloc(&big, lda * n * sizeof(float));
  // The lower half of a padded matrix: dA + i*... fits exactly.
  const int i = 1;
  cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, alpha, big + i * n, lda,
              big, lda, beta, big, lda);
  cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n + 1, n, n, alpha, big + i * n,
              lda, big, lda, beta, big, lda);
              // CHECK-NOTES: :[[@LINE-2]]:64: warning: 'A' needs 130817 elements at lda=512 but 'big + i * n' holds 130816 floats (cudaMalloc of 524288 bytes, from element 256) [cublas-matrix-extents]
              // CHECK-NOTES: :[[@LINE-8]]:3: note: allocated here
  for (int j = 0; j < 4; ++j)
    cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, alpha, big + j * n, lda,
                big, lda, beta, big, lda);
}

// Host memory of other kinds, and a pitched allocation.
void otherAllocators(cublasHandle_t h, const float *alpha, const float *beta) {
  float *dC;
  cudaMalloc(&dC, 512 * 512 * sizeof(float));
  float *managed;
  cudaMallocManaged(&managed, 64 * 32 * sizeof(float), cudaMemAttachGlobal);
  cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 64, 64, 64, alpha, managed, 64,
              managed, 64, beta, dC, 64);
              // CHECK-NOTES: :[[@LINE-2]]:63: warning: 'A' needs 4096 elements at lda=64 but 'managed' holds 2048 floats (cudaMallocManaged of 8192 bytes) [cublas-matrix-extents]
              // CHECK-NOTES: :[[@LINE-4]]:3: note: allocated here
              // CHECK-NOTES: :[[@LINE-3]]:15: warning: 'B' needs 4096 elements at ldb=64 but 'managed' holds 2048 floats (cudaMallocManaged of 8192 bytes) [cublas-matrix-extents]
              // CHECK-NOTES: :[[@LINE-6]]:3: note: allocated here
  float *p;
  size_t pitch;
  cudaMallocPitch((void **)&p, &pitch, 512 * sizeof(float), 64);
  cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 512, 64, 64, alpha, p,
              pitch / sizeof(float), p, pitch / sizeof(float), beta, dC, 512);
  // The pitch is in bytes: as a leading dimension in floats it is 4x too
  // large for the 64 rows allocated.
  cublasSgemm(h, CUBLAS_OP_T, CUBLAS_OP_N, 64, 64, 512, alpha, p, pitch, dC,
              512, beta, dC, 64);
              // CHECK-NOTES: :[[@LINE-2]]:64: warning: 'A' needs 63*pitch + 512 elements at lda=pitch but 'p' holds 16*pitch floats (cudaMallocPitch of pitch * 64 bytes) [cublas-matrix-extents]
              // CHECK-NOTES: :[[@LINE-8]]:3: note: allocated here
}

// Strided batches: the last batch must fit, output batches must not overlap.
void strided(cublasHandle_t h, const float *alpha, const float *beta) {
  const int n = 64, batches = 8;
  float *dA, *dB, *dC;
  cudaMalloc(&dA, n * n * batches * sizeof(float));
  cudaMalloc(&dB, n * n * sizeof(float));
  cudaMalloc(&dC, n * n * batches * sizeof(float));
  cublasSgemmStridedBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, alpha, dA, n,
                            n * n, dB, n, 0, beta, dC, n, n * n, batches);
  cublasSgemmStridedBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, alpha, dA, n,
                            n * n, dB, n, n * n, beta, dC, n, n * n, batches);
                            // CHECK-NOTES: :[[@LINE-1]]:36: warning: 'B' needs 32768 elements at ldb=64, strideB=4096 and batchCount=8 but 'dB' holds 4096 floats (cudaMalloc of 16384 bytes) [cublas-matrix-extents]
                            // CHECK-NOTES: :[[@LINE-7]]:3: note: allocated here
  cublasSgemmStridedBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, alpha, dA, n,
                            n * n, dB, n, 0, beta, dC, n, n, batches);
                            // CHECK-NOTES: :[[@LINE-1]]:59: warning: 'strideC' (n = 64) is smaller than the 4096 elements of each C at ldc=64, so the 8 batches written to C overlap [cublas-matrix-extents]
  // One batch: any stride is fine.
  cublasSgemmStridedBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, alpha, dA, n,
                            1, dB, n, 1, beta, dC, n, 1, 1);
}

// A one-line allocation helper: the buffer it returns holds what it
// allocates, with its parameters bound to the call's arguments.
static float *deviceFloats(size_t n) {
  float *p = nullptr;
  cudaMalloc(&p, n * sizeof(float));
  return p;
}
// A helper that may return another pointer is not followed.
static float *pooledFloats(size_t n, float *pool) {
  if (pool)
    return pool;
  float *p = nullptr;
  cudaMalloc(&p, n * sizeof(float));
  return p;
}
void fromHelpers(cublasHandle_t h, const float *alpha, const float *beta,
                 float *pool) {
  const int m = 64, n = 32, k = 16;
  float *A = deviceFloats(m * k), *B = deviceFloats(k * n);
  float *C = deviceFloats(m * k);
  cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, alpha, A, m, B, k, beta, C,
              m);
  // CHECK-NOTES: :[[@LINE-2]]:78: warning: 'C' needs 2048 elements at ldc=64 but 'C' holds 1024 floats (cudaMalloc of 4096 bytes, by 'deviceFloats') [cublas-matrix-extents]
  // CHECK-NOTES: :[[@LINE-19]]:3: note: allocated here
  // CHECK-NOTES: :[[@LINE-5]]:14: note: 'deviceFloats' returns it here
  float *D = deviceFloats(m * n);
  cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, alpha, A, m, B, k, beta, D,
              m);
  float *E = pooledFloats(m * k, pool);
  cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, alpha, A, m, B, k, beta, E,
              m);
}

// Batches side by side in the rows of one matrix (each head's output in
// its own rows of a [T, H*D] buffer: m = D rows, ldc = H*D, strideC = D)
// touch disjoint elements; rows that reach the next batch's overlap.
void heads(cublasHandle_t h, const float *V, const float *P,
           const float *alpha, const float *beta) {
  const int T = 128, H = 8, D = 64;
  float *O;
  cudaMalloc(&O, sizeof(float) * T * H * D * 2);
  cublasSgemmStridedBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, D, T, T, alpha, V,
                            H * D, D, P, T, (long long)T * T, beta, O, H * D,
                            D, H);
  cublasSgemmStridedBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, 2 * D, T, T, alpha, V,
                            H * D, D, P, T, (long long)T * T, beta, O, H * D,
                            D, H);
                            // CHECK-NOTES: :[[@LINE-1]]:29: warning: 'strideC' (D = 64) is smaller than the 65152 elements of each C at ldc=512, so the 8 batches written to C overlap [cublas-matrix-extents]
}

// Facts flow into helpers called with known arguments.
static void gemmHelper(cublasHandle_t h, const float *A, float *C, int m,
                       int k, int lda) {
  const float one = 1, zero = 0;
  cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_T, m, m, k, &one, A, lda, A, lda,
              &zero, C, m);
              // CHECK-NOTES: :[[@LINE-2]]:59: warning: 'A' needs 2048 elements at lda=64 but 'A' holds 1024 floats (cudaMalloc of 4096 bytes) [cublas-matrix-extents]
              // CHECK-NOTES: :[[@LINE+27]]:3: note: allocated here
              // CHECK-NOTES: :[[@LINE+29]]:3: note: with the arguments of this call from 'callers'
              // CHECK-NOTES: :[[@LINE-5]]:62: warning: 'lda' (32) is smaller than the rows of A (m = 64) for transa=CUBLAS_OP_N; lda is the column count, as for row-major data; cuBLAS returns CUBLAS_STATUS_INVALID_VALUE [cublas-matrix-extents]
              // CHECK-NOTES: :[[@LINE+26]]:3: note: with the arguments of this call from 'callers'
              // CHECK-NOTES: :[[@LINE-7]]:67: warning: 'B' needs 2048 elements at ldb=64 but 'A' holds 1024 floats (cudaMalloc of 4096 bytes) [cublas-matrix-extents]
              // CHECK-NOTES: :[[@LINE+22]]:3: note: allocated here
              // CHECK-NOTES: :[[@LINE+24]]:3: note: with the arguments of this call from 'callers'
              // CHECK-NOTES: :[[@LINE-10]]:70: warning: 'ldb' (lda = 32) is smaller than the rows of B (m = 64) for transb=CUBLAS_OP_T; ldb is the column count, as for row-major data; cuBLAS returns CUBLAS_STATUS_INVALID_VALUE [cublas-matrix-extents]
              // CHECK-NOTES: :[[@LINE-11]]:3: note: matrices are column-major in cuBLAS: each leading dimension is the row count of its matrix as stored (for row-major data given as the transposed product, C^T = B^T * A^T, the length of a row-major row)
              // CHECK-NOTES: :[[@LINE+20]]:3: note: with the arguments of this call from 'callers'
}

// A helper that validates its arguments is not judged by its callers.
static int checkedHelper(cublasHandle_t h, const float *A, float *C, int m,
                         int lda) {
  if (lda < m)
    return -1;
  const float one = 1, zero = 0;
  cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, m, m, &one, A, lda, A, lda,
              &zero, C, m);
  return 0;
}

void callers(cublasHandle_t h) {
  float *dA, *dC, *dSmall;
  cudaMalloc(&dA, 64 * 32 * sizeof(float));
  cudaMalloc(&dC, 64 * 64 * sizeof(float));
  cudaMalloc(&dSmall, 64 * 16 * sizeof(float));
  gemmHelper(h, dA, dC, 64, 32, 64);
  gemmHelper(h, dA, dC, 64, 32, 32);
  gemmHelper(h, dSmall, dC, 64, 32, 64);
  checkedHelper(h, dA, dC, 64, 32);
}

// A cuBLAS call whose status a condition tests does not test its arguments:
// the helper still takes its callers' values.
static int statusHelper(cublasHandle_t h, const float *A, float *C, int m,
                        int lda) {
  const float one = 1, zero = 0;
  if (cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, m, m, &one, A, lda, A, m,
                  &zero, C, m) != CUBLAS_STATUS_SUCCESS)
    // CHECK-NOTES: :[[@LINE-2]]:66: warning: 'lda' (32) is smaller than the rows of A (m = 64) for transa=CUBLAS_OP_N; cuBLAS returns CUBLAS_STATUS_INVALID_VALUE [cublas-matrix-extents]
    // CHECK-NOTES: :[[@LINE+9]]:3: note: with the arguments of this call from 'statusCallers'
    return -1;
  return 0;
}

void statusCallers(cublasHandle_t h) {
  float *dA, *dC;
  cudaMalloc(&dA, 64 * 64 * sizeof(float));
  cudaMalloc(&dC, 64 * 64 * sizeof(float));
  statusHelper(h, dA, dC, 64, 32);
}

// cublasLt: a column-major layout needs ld >= rows.
void layouts(int rows) {
  cublasLtMatrixLayout_t a, b, c;
  cublasLtMatrixLayoutCreate(&a, CUDA_R_32F, 512, 128, 128);
  // CHECK-NOTES: :[[@LINE-1]]:56: warning: 'ld' (128) of this column-major cublasLt layout is smaller than its rows (512); ld is the column count, as for row-major data; cuBLASLt requires ld >= rows [cublas-matrix-extents]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: for row-major data set CUBLASLT_MATRIX_LAYOUT_ORDER to CUBLASLT_ORDER_ROW, or describe the column-major transpose
  cublasLtMatrixLayoutCreate(&b, CUDA_R_32F, 512, 128, 512);
  cublasLtMatrixLayoutCreate(&c, CUDA_R_32F, rows, 128, 128);
}

void rowLayout() {
  cublasLtMatrixLayout_t a;
  cublasLtMatrixLayoutCreate(&a, CUDA_R_32F, 512, 128, 128);
  cublasLtOrder_t order = CUBLASLT_ORDER_ROW;
  cublasLtMatrixLayoutSetAttribute(a, CUBLASLT_MATRIX_LAYOUT_ORDER, &order,
                                   sizeof(order));
}

// A batch count leaves the order as it is: the layout stays column-major.
void batchedLayout() {
  cublasLtMatrixLayout_t a;
  cublasLtMatrixLayoutCreate(&a, CUDA_R_32F, 512, 128, 128);
  // CHECK-NOTES: :[[@LINE-1]]:56: warning: 'ld' (128) of this column-major cublasLt layout is smaller than its rows (512); ld is the column count, as for row-major data; cuBLASLt requires ld >= rows [cublas-matrix-extents]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: for row-major data set CUBLASLT_MATRIX_LAYOUT_ORDER to CUBLASLT_ORDER_ROW, or describe the column-major transpose
  int batches = 4;
  cublasLtMatrixLayoutSetAttribute(a, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT,
                                   &batches, sizeof(batches));
}

// Callers in template instantiations give their facts too; facts do not
// cross a lambda's captures.
static void axpyHelper(cublasHandle_t h, const float *x, float *y, int n,
                       int incx) {
  const float one = 1;
  cublasSaxpy(h, n, &one, x, incx, y, 1);
  // CHECK-NOTES: :[[@LINE-1]]:27: warning: 'x' needs 199 elements at incx=2 but 'x' holds 100 floats (cudaMalloc of 400 bytes) [cublas-matrix-extents]
  // CHECK-NOTES: :[[@LINE+6]]:3: note: allocated here
  // CHECK-NOTES: :[[@LINE+7]]:3: note: with the arguments of this call from 'templatedCaller'
}

template <int Inc> void templatedCaller(cublasHandle_t h) {
  float *dx, *dy;
  cudaMalloc(&dx, 100 * sizeof(float));
  cudaMalloc(&dy, 100 * sizeof(float));
  axpyHelper(h, dx, dy, 100, Inc);
}
template void templatedCaller<2>(cublasHandle_t);
template void templatedCaller<1>(cublasHandle_t);

void lambdaCaller(cublasHandle_t h) {
  float *dx, *dy;
  cudaMalloc(&dx, 50 * sizeof(float));
  cudaMalloc(&dy, 100 * sizeof(float));
  auto run = [&] { axpyHelper(h, dx, dy, 50, 3); };
  run();
}
