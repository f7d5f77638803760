// RUN: %check_clang_tidy %s cublas-matrix-extents %t
// Wrappers whose transposes and leading dimensions depend on their own flag
// parameters, the way BLAS-style layers write them (a row-major gemm that
// calls cuBLAS as C^T = B^T * A^T, a gemv with a trans flag): at a call with
// constant flags the conditionals take one branch, and the buffers the
// caller allocated are judged against what that branch reads.
#include <cublas_v2.h>
#include <cuda_runtime.h>

enum Transpose { NoTrans = 111, Trans = 112 };
cublasHandle_t blasHandle();
#define BLAS_CHECK(x)                                                        \
  do {                                                                       \
    cublasStatus_t s = (x);                                                  \
    if (s != CUBLAS_STATUS_SUCCESS)                                          \
      throw s;                                                               \
  } while (0)

void gpuGemm(const Transpose TransA, const Transpose TransB, const int M,
             const int N, const int K, const float alpha, const float *A,
             const float *B, const float beta, float *C) {
  int lda = (TransA == NoTrans) ? K : M;
  int ldb = (TransB == NoTrans) ? N : K;
  cublasOperation_t cuTransA = (TransA == NoTrans) ? CUBLAS_OP_N : CUBLAS_OP_T;
  cublasOperation_t cuTransB = (TransB == NoTrans) ? CUBLAS_OP_N : CUBLAS_OP_T;
  BLAS_CHECK(cublasSgemm(blasHandle(), cuTransB, cuTransA, N, M, K, &alpha, B,
                         ldb, A, lda, &beta, C, N));
  // With TransA = Trans the wrapper's A is cuBLAS's B, read transposed:
  // CHECK-NOTES: :[[@LINE-2]]:31: warning: 'B' needs 2048 elements at ldb=64 but 'A' holds 1024 floats (cudaMalloc of 4096 bytes) [cublas-matrix-extents]
  // CHECK-NOTES: :[[@LINE+34]]:3: note: allocated here
  // CHECK-NOTES: :[[@LINE+36]]:3: note: with the arguments of this call from 'transposedInputShort'
  // CHECK-NOTES: :[[@LINE-5]]:46: warning: 'C' needs 1024 elements at ldc=16 but 'C' holds 512 floats (cudaMalloc of 2048 bytes) [cublas-matrix-extents]
  // CHECK-NOTES: :[[@LINE+20]]:3: note: allocated here
  // CHECK-NOTES: :[[@LINE+20]]:3: note: with the arguments of this call from 'outputTooSmall'
}

void gpuGemv(const Transpose TransA, const int M, const int N,
             const float alpha, const float *A, const float *x,
             const float beta, float *y) {
  cublasOperation_t cuTransA = (TransA == NoTrans) ? CUBLAS_OP_T : CUBLAS_OP_N;
  BLAS_CHECK(cublasSgemv(blasHandle(), cuTransA, N, M, &alpha, A, N, x, 1,
                         &beta, y, 1));
  // CHECK-NOTES: :[[@LINE-2]]:70: warning: 'x' needs 64 elements at incx=1 but 'x' holds 32 floats (cudaMalloc of 128 bytes) [cublas-matrix-extents]
  // CHECK-NOTES: :[[@LINE+33]]:3: note: allocated here
  // CHECK-NOTES: :[[@LINE+34]]:3: note: with the arguments of this call from 'gemvWrongSide'
}

// C is M x N = 64 x 16 in the row-major wrapper: 1024 floats, not 512.
void outputTooSmall() {
  float *A, *B, *C;
  cudaMalloc(&A, 64 * 32 * sizeof(float));
  cudaMalloc(&B, 32 * 16 * sizeof(float));
  cudaMalloc(&C, 64 * 8 * sizeof(float));
  gpuGemm(NoTrans, NoTrans, 64, 16, 32, 1.f, A, B, 0.f, C);
  cudaFree(A);
  cudaFree(B);
  cudaFree(C);
}

// With TransA = Trans, A is K x M row-major: lda = M = 64 and 32 rows of
// it, 2048 floats; the caller allocated M x K / 2.
void transposedInputShort() {
  float *A, *B, *C;
  cudaMalloc(&A, 32 * 32 * sizeof(float));
  cudaMalloc(&B, 32 * 16 * sizeof(float));
  cudaMalloc(&C, 64 * 16 * sizeof(float));
  gpuGemm(Trans, NoTrans, 64, 16, 32, 1.f, A, B, 0.f, C);
  cudaFree(A);
  cudaFree(B);
  cudaFree(C);
}

// y = A x with A M x N row-major: x has N = 64 elements, not 32.
void gemvWrongSide() {
  float *A, *x, *y;
  cudaMalloc(&A, 32 * 64 * sizeof(float));
  cudaMalloc(&x, 32 * sizeof(float));
  cudaMalloc(&y, 32 * sizeof(float));
  gpuGemv(NoTrans, 32, 64, 1.f, A, x, 0.f, y);
  cudaFree(A);
  cudaFree(x);
  cudaFree(y);
}

// Correct code: the same wrappers with buffers of the sizes each branch
// reads, and the transposed gemv whose x has M elements.
void rightSizes() {
  float *A, *B, *C, *x, *y;
  cudaMalloc(&A, 64 * 32 * sizeof(float));
  cudaMalloc(&B, 32 * 16 * sizeof(float));
  cudaMalloc(&C, 64 * 16 * sizeof(float));
  cudaMalloc(&x, 64 * sizeof(float));
  cudaMalloc(&y, 32 * sizeof(float));
  gpuGemm(NoTrans, NoTrans, 64, 16, 32, 1.f, A, B, 0.f, C);
  gpuGemm(Trans, NoTrans, 64, 16, 32, 1.f, A, B, 0.f, C);
  gpuGemm(NoTrans, Trans, 64, 16, 32, 1.f, A, B, 0.f, C);
  gpuGemv(Trans, 64, 32, 1.f, A, x, 0.f, y);
  cudaFree(A);
  cudaFree(B);
  cudaFree(C);
  cudaFree(x);
  cudaFree(y);
}

// A flag that guards the call itself, not a value: the branch the caller's
// flag skips is not judged with the caller's sizes (with Trans, the OP_N
// branch reads x as 32 elements; the OP_T one, skipped, would read 64).
void guardedCall(Transpose TransA, int M, int N, const float *A, float *y,
                 const float *x) {
  const float one = 1.f, zero = 0.f;
  if (TransA == Trans)
    BLAS_CHECK(cublasSgemv(blasHandle(), CUBLAS_OP_N, N, M, &one, A, N, x, 1,
                           &zero, y, 1));
  else
    BLAS_CHECK(cublasSgemv(blasHandle(), CUBLAS_OP_T, N, M, &one, A, N, x, 1,
                           &zero, y, 1));
}
void callsTheOtherBranch() {
  float *A, *x, *y;
  cudaMalloc(&A, 32 * 64 * sizeof(float));
  cudaMalloc(&x, 32 * sizeof(float));
  cudaMalloc(&y, 64 * sizeof(float));
  guardedCall(Trans, 32, 64, A, y, x);
  cudaFree(A);
  cudaFree(x);
  cudaFree(y);
}

// A flag the caller does not fix: both branches stay possible.
void unknownFlag(Transpose T) {
  float *A, *B, *C;
  cudaMalloc(&A, 64 * 32 * sizeof(float));
  cudaMalloc(&B, 32 * 16 * sizeof(float));
  cudaMalloc(&C, 64 * 16 * sizeof(float));
  gpuGemm(T, NoTrans, 64, 16, 32, 1.f, A, B, 0.f, C);
  cudaFree(A);
  cudaFree(B);
  cudaFree(C);
}
