// RUN: %check_clang_tidy %s cublas-matrix-extents %t
// A wrapper that computes its own padded leading dimension with a small
// function of the file (`int ld = pad(m);`, rounding up to a multiple of 32
// elements): at a call with constant sizes the function's value is known,
// and the buffers the caller allocated are judged against the padded
// layout. And the callers that allocate the padding, the rounding
// functions that are not read, and sizes that are not known.
#include <cublas_v2.h>
#include <cuda_runtime.h>

cublasHandle_t blasHandle();
static int pad(int x) { return (x + 31) / 32 * 32; }
static int roundUp(int x, int to) { return x % to == 0 ? x : x + to - x % to; }
int padElsewhere(int x);
static int padLogged(int x) {
  int r = (x + 31) / 32 * 32;
  return r;
}

void bmm(const float *A, const float *B, float *C, int m, int n, int k,
         int batch) {
  int lda = pad(m), ldb = pad(k), ldc = pad(m);
  const float one = 1.f, zero = 0.f;
  cublasSgemmStridedBatched(blasHandle(), CUBLAS_OP_N, CUBLAS_OP_N, m, n, k,
                            &one, A, lda, (long long)lda * k, B, ldb,
                            (long long)ldb * n, &zero, C, ldc,
                            (long long)ldc * n, batch);
  // CHECK-NOTES: :[[@LINE-3]]:35: warning: 'A' needs 65508 elements at lda=128, strideA=8192 and batchCount=8 but 'A' holds 51200 floats (cudaMalloc of 204800 bytes) [cublas-matrix-extents]
  // CHECK-NOTES: :[[@LINE+36]]:3: note: allocated here
  // CHECK-NOTES: :[[@LINE+38]]:3: note: with the arguments of this call from 'unpadded'
}

void gemm(const float *A, const float *B, float *C, int m, int n, int k) {
  int lda = roundUp(m, 8);
  const float one = 1.f, zero = 0.f;
  cublasSgemm(blasHandle(), CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one, A, lda,
              B, k, &zero, C, m);
  // CHECK-NOTES: :[[@LINE-2]]:70: warning: 'A' needs 1140 elements at lda=104 but 'A' holds 1100 floats (cudaMalloc of 4400 bytes) [cublas-matrix-extents]
  // CHECK-NOTES: :[[@LINE+35]]:3: note: allocated here
  // CHECK-NOTES: :[[@LINE+37]]:3: note: with the arguments of this call from 'roundedUnpadded'
}

void gemmElsewhere(const float *A, const float *B, float *C, int m, int n,
                   int k) {
  int lda = padElsewhere(m);
  const float one = 1.f, zero = 0.f;
  cublasSgemm(blasHandle(), CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one, A, lda,
              B, k, &zero, C, m);
}

void gemmLogged(const float *A, const float *B, float *C, int m, int n,
                int k) {
  int lda = padLogged(m);
  const float one = 1.f, zero = 0.f;
  cublasSgemm(blasHandle(), CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one, A, lda,
              B, k, &zero, C, m);
}

// --- Reported -------------------------------------------------------------

// A is allocated m x k per batch entry, without the padding to 128.
void unpadded() {
  const int m = 100, n = 64, k = 64, batch = 8;
  float *A, *B, *C;
  cudaMalloc(&A, sizeof(float) * m * k * batch);
  cudaMalloc(&B, sizeof(float) * 64 * n * batch);
  cudaMalloc(&C, sizeof(float) * 128 * n * batch);
  bmm(A, B, C, m, n, k, batch);
}

// roundUp(100, 8) = 104: the last of the 11 columns starts at 104 * 10.
void roundedUnpadded() {
  float *A, *B, *C;
  cudaMalloc(&A, sizeof(float) * 100 * 11);
  cudaMalloc(&B, sizeof(float) * 11 * 20);
  cudaMalloc(&C, sizeof(float) * 100 * 20);
  gemm(A, B, C, 100, 20, 11);
}

// --- Not reported ---------------------------------------------------------

// The caller allocates the padding.
void padded() {
  const int m = 100, n = 64, k = 64, batch = 8;
  float *A, *B, *C;
  cudaMalloc(&A, sizeof(float) * 128 * k * batch);
  cudaMalloc(&B, sizeof(float) * 64 * n * batch);
  cudaMalloc(&C, sizeof(float) * 128 * n * batch);
  bmm(A, B, C, m, n, k, batch);
}

// A size already a multiple of 32: pad(96) is 96.
void alreadyAligned() {
  const int m = 96, n = 64, k = 64, batch = 8;
  float *A, *B, *C;
  cudaMalloc(&A, sizeof(float) * m * k * batch);
  cudaMalloc(&B, sizeof(float) * 64 * n * batch);
  cudaMalloc(&C, sizeof(float) * 96 * n * batch);
  bmm(A, B, C, m, n, k, batch);
}

// A rounding function of another file, or one of more than a return, is
// not read (these calls are short by the padding too: a limit of the rule,
// kept here so that a change to it is seen).
void notRead() {
  float *A, *B, *C;
  cudaMalloc(&A, sizeof(float) * 100 * 11);
  cudaMalloc(&B, sizeof(float) * 11 * 20);
  cudaMalloc(&C, sizeof(float) * 100 * 20);
  gemmElsewhere(A, B, C, 100, 20, 11);
  gemmLogged(A, B, C, 100, 20, 11);
}

// Sizes the caller does not fix.
void unknownSizes(int m, int n, int k) {
  float *A, *B, *C;
  cudaMalloc(&A, sizeof(float) * m * k);
  cudaMalloc(&B, sizeof(float) * k * n);
  cudaMalloc(&C, sizeof(float) * m * n);
  gemm(A, B, C, m, n, k);
}
